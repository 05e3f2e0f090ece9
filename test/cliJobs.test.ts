// `check --jobs N` splits a folder's program across worker threads: on a generated project with findings
// that cross files (an entry's findings on its sibling modules, a module two entries import, names and
// aliases registered twice across the project, a broken entry), with suppression comments that silence
// what an entry puts on its module and a package's [tool.vis-authoring], its output is exactly that of one job.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { project, type Project } from './helpers/project';

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');
const check = (...args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, 'check', ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

const PACKAGES = 24;

function files(): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < PACKAGES; i++) {
    const pkg = `.vis/extensions/ext_${i}`;
    // The first and the last package also import a module of the project that both export a tool from.
    const shared = i === 0 || i === PACKAGES - 1;
    // One package turns a rule off for itself (its other modules and the other packages keep it).
    const config = i === 13 ? '\n[tool.vis-authoring]\nignore = ["EXT-011", "SYM-016"]\n' : '';
    out[`${pkg}/pyproject.toml`] = `[project]\nname = "ext_${i}"\ndependencies = ["vis-agent>=0.2.45"]\n\n[tool.vis]\nsource_paths = ["src"${shared ? ', "../../../lib"' : ''}]\n${config}`;
    // Names and aliases registered twice, by packages far apart (other workers).
    const name = i === 3 || i === PACKAGES - 2 ? 'twice' : `ext_${i}`;
    const alias = i === 5 || i === PACKAGES - 3 ? 'same' : `e${i}`;
    out[`${pkg}/extension.py`] = [
      'import blockether.vis.extension as vis',
      '',
      `from ext_${i} import Tools`,
      shared ? 'from common import lookup' : '',
      '',
      'vis.register_extension(vis.Extension(',
      `    name="${name}",`,
      `    description="Generated extension ${i}.",`,
      `    alias="${alias}",`,
      `    symbols=[vis.Symbol(Tools(), name="tools_${i}")${shared ? ', vis.Symbol(lookup)' : ''}],`,
      i % 7 === 6 ? '    env=["bad-name"],' : '',
      '))',
      '',
    ].join('\n');
    out[`${pkg}/src/ext_${i}/__init__.py`] = 'from .tools import Tools\n';
    out[`${pkg}/src/ext_${i}/records.py`] = `from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass Record${i}:\n    """A record."""\n\n    name: str\n    count: int = 0\n`;
    // Every fourth package forgets a method docstring: its entry reports it on tools.py.
    const doc = i % 4 === 1 ? '' : `        """Operation ${i}."""\n`;
    // Package 5 silences what its entry reports on tools.py; package 2 has a suppression nothing uses (SUP-001).
    const suppression = i === 5 ? '# vis: ignore-file[SYM-016]\n' : i === 2 ? '# vis: ignore-file[SYM-016]\n' : '';
    out[`${pkg}/src/ext_${i}/tools.py`] = `${suppression}import blockether.vis.extension as vis\n\nfrom .records import Record${i}\n\n\nclass Tools:\n    """Tools of ${i}."""\n\n    @vis.method(tag="observation", activity=vis.Activity("generic"))\n    def op(self, target: str) -> Record${i}:\n${doc}        return Record${i}(name=target)\n`;
  }
  out['lib/common.py'] = 'def lookup(key: str) -> str:\n    return key\n';
  // A broken entry (an unclosed call) among them.
  out['.vis/extensions/ext_10/extension.py'] += '\nvis.Symbol(\n';
  return out;
}

describe('check --jobs', () => {
  let p: Project;
  before(() => {
    p = project(files(), 'vis-jobs-');
  });
  after(() => p.remove());

  it('gives the output of one job with four worker threads, cross-file findings included', () => {
    const one = check('--jobs', '1', '--format', 'json', p.root);
    const four = check('--jobs', '4', '--format', 'json', p.root);
    assert.equal(one.code, 1, one.stderr);
    const results = JSON.parse(one.stdout) as { path: string; rule: string; message: string }[];
    // What crosses files is there to compare: an entry's findings on its module, on the shared module
    // (from both entries that export it), and the project-wide duplicates.
    const rel = (r: { path: string }) => path.relative(p.root, r.path);
    assert.ok(results.some((r) => r.rule === 'SYM-016' && rel(r) === '.vis/extensions/ext_1/src/ext_1/tools.py'), one.stdout);
    assert.equal(results.filter((r) => r.rule === 'SYM-005' && rel(r) === 'lib/common.py').length, 2, one.stdout);
    // Suppression comments apply to what the entry puts on the module, and one that nothing uses is reported.
    const at = (pkg: number, file: string) => results.filter((r) => rel(r) === `.vis/extensions/ext_${pkg}/${file}`).map((r) => r.rule);
    assert.deepEqual(at(5, 'src/ext_5/tools.py'), []);
    assert.deepEqual(at(2, 'src/ext_2/tools.py'), ['SUP-001']);
    // A package's [tool.vis-authoring] turns rules off in that package only.
    assert.deepEqual(at(6, 'extension.py'), ['EXT-011']);
    // (The namespace is left without a documented method, but that is no error Python raises: SYM-016 is the one.)
    assert.deepEqual(at(13, 'extension.py'), []);
    assert.deepEqual(at(13, 'src/ext_13/tools.py'), []);
    assert.deepEqual(at(9, 'src/ext_9/tools.py'), ['SYM-016']);
    assert.deepEqual(
      results.filter((r) => r.rule.startsWith('WS-')).map((r) => `${r.rule} ${rel(r)}`),
      ['WS-001 .vis/extensions/ext_3/extension.py', 'WS-002 .vis/extensions/ext_5/extension.py'],
    );
    assert.deepEqual(four, one);
    // Text output and the summary too.
    assert.deepEqual(check('--jobs', '4', p.root), check('--jobs', '1', p.root));
  });

  it('refuses a number of jobs that is not a whole number of threads', () => {
    const r = check('--jobs', '0', p.root);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, "--jobs takes a whole number of worker threads (1 or more), not '0'\n");
  });
});
