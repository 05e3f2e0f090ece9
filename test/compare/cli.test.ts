// `vis-authoring contracts` and `contracts --diff REV` through the bundled CLI, on a real git
// repository: the committed entry file and its committed sibling module against the working tree.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');
const run = (cwd: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
};

const ENTRY = (tools: string, symbols: string) =>
  `import blockether.vis.extension as vis\nfrom .models import Page\n\n${tools}\nvis.register_extension(vis.Extension(name="t", description="T", alias="t", symbols=[${symbols}]))\n`;
const MODELS = (fields: string) => `from dataclasses import dataclass\n\n\n@dataclass\nclass Page:\n    """A page."""\n${fields}\n`;

describe('contracts CLI', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-contracts-cli-'));
    fs.writeFileSync(path.join(dir, 'extension.py'), ENTRY('def search(q: str, limit: int = 10) -> list[Page]:\n    """Search."""\n\n\ndef gone() -> None:\n    """Gone."""\n', 'vis.Symbol(search), vis.Symbol(gone)'));
    fs.writeFileSync(path.join(dir, 'models.py'), MODELS('    title: str\n    score: float'));
    git(dir, 'init', '-q');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'first');
    fs.writeFileSync(path.join(dir, 'extension.py'), ENTRY('def search(q: str, *, limit: int = 20) -> list[Page]:\n    """Search."""\n\n\ndef fresh() -> int:\n    """Fresh."""\n', 'vis.Symbol(search), vis.Symbol(fresh), vis.Symbol(make())'));
    fs.writeFileSync(path.join(dir, 'models.py'), MODELS('    title: str\n    rank: int = 0'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints what changed since HEAD, including a record in a committed sibling module, and exits 1 on a breaking change', () => {
    const r = run(dir, 'contracts', '--diff', 'HEAD', 'extension.py');
    assert.equal(r.stderr, '');
    assert.equal(
      r.stdout,
      [
        'extension.py:',
        '  Contract changes since HEAD: 1 tool changed, 1 added, 1 removed; 3 breaking changes.',
        '',
        '  search',
        '    parameter limit: default 10 → default 20',
        '    BREAKING parameter limit: positional_or_keyword → keyword_only: it can no longer be passed by position',
        '    BREAKING field Page.score (returns) removed',
        '    field Page.rank (returns) added',
        '',
        '  fresh',
        '    tool added: fresh() -> int',
        '',
        '  gone',
        '    BREAKING tool removed (was gone() -> None)',
        '',
        '  make()',
        '    not compared: its contract is not statically known now (its first argument is a call result (`make()`): Vis exports whatever the call returns when the module runs)',
        '',
      ].join('\n'),
    );
    assert.equal(r.code, 1);
  });

  it('prints the changes as JSON with --format json', () => {
    const r = run(dir, 'contracts', '--diff=HEAD', '--format', 'json', 'extension.py');
    assert.equal(r.code, 1);
    const [file] = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(file), ['path', 'base', 'inBase', 'breaking', 'changes']);
    assert.deepEqual([file.path, file.base, file.inBase, file.breaking], ['extension.py', 'HEAD', true, 3]);
    assert.deepEqual(file.changes[0], { tool: 'search', kind: 'parameter-default', breaking: false, message: 'parameter limit: default 10 → default 20', before: 'default 10', after: 'default 20' });
  });

  it('exits 0 when nothing breaking changed, and treats a file the revision lacks as new', () => {
    fs.writeFileSync(path.join(dir, 'other.py'), ENTRY('def one() -> int:\n    """One."""\n', 'vis.Symbol(one)'));
    const r = run(dir, 'contracts', '--diff', 'HEAD', 'other.py');
    assert.equal(r.code, 0);
    assert.equal(r.stdout, 'other.py:\n  not in HEAD: every tool is new\n  Contract changes since HEAD: 1 added; 0 breaking changes.\n\n  one\n    tool added: one() -> int\n');
  });

  it('prints the contracts without --diff, in the chosen contract format', () => {
    const r = run(dir, 'contracts', '--contract-format', 'C1', 'extension.py');
    assert.equal(r.code, 0);
    assert.equal(
      r.stdout,
      'extension.py\n  search(q, *, limit=...)\n  fresh()\n  make()  [contract not statically known: its first argument is a call result (`make()`): Vis exports whatever the call returns when the module runs]\n',
    );
    const json = JSON.parse(run(dir, 'contracts', '--format', 'json', 'extension.py').stdout);
    assert.equal(json[0].tools[0].contract.signature, "(q: str, *, limit: int = 20) -> list['Page']");
    assert.deepEqual(json[0].unknownTools, [{ where: 'make()', reason: 'its first argument is a call result (`make()`): Vis exports whatever the call returns when the module runs' }]);
  });

  it('prints each file in the contract format of the SDK version it is checked against by default', () => {
    const g2 = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-contracts-g2-'));
    fs.writeFileSync(
      path.join(g2, 'g2.py'),
      'import blockether.vis.extension as vis\n\n\ndef search(q: str, limit: int = 10) -> list[str]:\n    """Search."""\n    return []\n\n\nvis.register(vis.Extension(name="t", description="T", alias="t", symbols=[vis.Symbol(search)]))\n',
    );
    try {
      const auto = run(g2, 'contracts', 'g2.py');
      assert.deepEqual([auto.code, auto.stdout], [0, 'g2.py\n  search(q, limit=...)\n'], 'vis.register is G2, whose contracts are C1');
      const c3 = run(g2, 'contracts', '--contract-format', 'C3', 'g2.py');
      assert.deepEqual([c3.code, c3.stdout], [0, 'g2.py\n  search(q: str, limit: int = 10) -> list[str]\n']);
    } finally {
      fs.rmSync(g2, { recursive: true, force: true });
    }
  });

  it('refuses an unknown revision, a folder outside git and bad options with exit 2', () => {
    const bad = run(dir, 'contracts', '--diff', 'no-such-rev', 'extension.py');
    assert.deepEqual([bad.code, bad.stderr], [2, "git does not know the revision 'no-such-rev'\n"]);
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-contracts-nogit-'));
    fs.writeFileSync(path.join(outside, 'x.py'), ENTRY('', ''));
    const nogit = run(outside, 'contracts', '--diff', 'HEAD', 'x.py');
    assert.deepEqual([nogit.code, nogit.stderr], [2, `${outside} is not in a git repository: --diff needs one\n`]);
    fs.rmSync(outside, { recursive: true, force: true });
    assert.equal(run(dir, 'contracts', '--contract-format', 'C9').code, 2);
    assert.equal(run(dir, 'contracts', '--bogus').code, 2);
  });
});
