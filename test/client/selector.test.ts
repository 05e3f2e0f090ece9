import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { documentSelector } from '../../client/src/selector';

const PYPROJECT = (scheme: string) => ({ scheme, pattern: '**/pyproject.toml' });

describe('documentSelector', () => {
  it('analyses Python files and untitled documents, and the pyproject.toml of packages', () => {
    const expected = [{ scheme: 'file', language: 'python' }, { scheme: 'untitled', language: 'python' }, PYPROJECT('file')];
    assert.deepEqual(documentSelector([]), expected);
    assert.deepEqual(documentSelector(['file', 'file']), expected);
  });

  it('adds the file system of a virtual workspace once', () => {
    assert.deepEqual(documentSelector(['vscode-vfs', 'vscode-vfs']), [
      { scheme: 'file', language: 'python' },
      { scheme: 'untitled', language: 'python' },
      { scheme: 'vscode-vfs', language: 'python' },
      PYPROJECT('file'),
      PYPROJECT('vscode-vfs'),
    ]);
  });
});
