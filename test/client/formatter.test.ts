// The formatter "Format Document" would use, from the setting and the installed extensions' manifests.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chooseFormatter, isPythonFormatter, type InstalledExtension } from '../../client/src/formatter';

// The manifests' fields as the real extensions declare them.
const ruff: InstalledExtension = { id: 'charliermarsh.ruff', displayName: 'Ruff', categories: ['Programming Languages', 'Linters', 'Formatters'], activationEvents: ['onLanguage:python', 'workspaceContains:*.py', 'workspaceContains:*.ipynb'] };
const black: InstalledExtension = { id: 'ms-python.black-formatter', displayName: 'Black Formatter', categories: ['Programming Languages', 'Formatters'], activationEvents: ['onLanguage:python', 'workspaceContains:*.py'] };
const python: InstalledExtension = { id: 'ms-python.python', displayName: 'Python', categories: ['Programming Languages', 'Debuggers', 'Other', 'Data Science', 'Machine Learning'], activationEvents: ['onLanguage:python', 'workspaceContains:*.py'], languages: ['python'] };
const prettier: InstalledExtension = { id: 'esbenp.prettier-vscode', displayName: 'Prettier - Code formatter', categories: ['Formatters'], activationEvents: ['onStartupFinished'] };
const self: InstalledExtension = { id: 'vis-authoring.vis-authoring', categories: ['Linters', 'Programming Languages'], activationEvents: ['onLanguage:python'] };
const SELF = 'vis-authoring.vis-authoring';

describe('chooseFormatter', () => {
  it('takes the [python] default when it is installed (ids compare without case)', () => {
    assert.deepEqual(chooseFormatter('Charliermarsh.Ruff', [self, python, ruff, black], SELF), { kind: 'default', id: 'charliermarsh.ruff', name: 'Ruff' });
  });

  it('says when the default names an extension that is not installed', () => {
    assert.deepEqual(chooseFormatter('ms-python.autopep8', [self, ruff], SELF), { kind: 'default-missing', id: 'ms-python.autopep8' });
  });

  it('without a default, takes the one Python formatter installed (the issue: Ruff active, no default set)', () => {
    assert.deepEqual(chooseFormatter(null, [self, python, ruff, prettier], SELF), { kind: 'single', id: 'charliermarsh.ruff', name: 'Ruff' });
    assert.deepEqual(chooseFormatter('', [black], SELF), { kind: 'single', id: 'ms-python.black-formatter', name: 'Black Formatter' });
  });

  it('without a default and with several, VS Code asks: both are named', () => {
    assert.deepEqual(chooseFormatter(undefined, [black, ruff, self], SELF), { kind: 'several', names: ['Black Formatter', 'Ruff'] });
  });

  it('knows no formatter when none is installed', () => {
    assert.deepEqual(chooseFormatter(null, [self, python, prettier], SELF), { kind: 'unknown' });
  });
});

describe('isPythonFormatter', () => {
  it('needs the Formatters category and a tie to Python', () => {
    assert.deepEqual([ruff, black, python, prettier, self].map(isPythonFormatter), [true, true, false, false, false]);
    assert.equal(isPythonFormatter({ id: 'a.b', categories: ['formatters'], languages: ['python'] }), true);
  });
});
