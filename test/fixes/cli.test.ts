// The bundled CLI's fixing, formats, rule selection and rule pages, as CI runs it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { project, type Project } from '../helpers/project';

const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');
const runIn = (cwd: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

const HEAD = 'import blockether.vis.extension as vis\n\n\ndef greet(name: str) -> str:\n    """Say hello."""\n    return f"hi {name}"\n\n\n';
/**
 * EXT-005, EXT-009 and EXT-011 in the order the SDK checks them: Python raises the first; fixing it (alias=)
 * uncovers EXT-009 (a bare function), also fixable; then EXT-011, which is not.
 */
const BROKEN = HEAD + 'vis.register_extension(vis.Extension(name="greeter", description="Greets.", symbols=[greet], env=["not a name"]))\n';
const FIXED = HEAD + 'vis.register_extension(vis.Extension(name="greeter", alias="greeter", description="Greets.", symbols=[vis.Symbol(greet)], env=["not a name"]))\n';

describe('check CLI: fixes, formats, selection, rule pages', () => {
  const projects: Project[] = [];
  after(() => projects.forEach((p) => p.remove()));
  const make = (files: Record<string, string>) => {
    const p = project(files, 'vis-cli-fix-');
    projects.push(p);
    return p;
  };

  it('--diff prints the safe fixes as a patch and writes nothing; --fix writes them and reports what is left', () => {
    const p = make({ 'greeter.py': BROKEN });
    const diff = runIn(p.root, 'check', '--diff', 'greeter.py');
    assert.equal(diff.code, 1);
    assert.equal(
      diff.stdout,
      [
        '--- a/greeter.py',
        '+++ b/greeter.py',
        '@@ -5,5 +5,5 @@',
        '     """Say hello."""',
        '     return f"hi {name}"',
        ' ',
        ' ',
        '-vis.register_extension(vis.Extension(name="greeter", description="Greets.", symbols=[greet], env=["not a name"]))',
        '+vis.register_extension(vis.Extension(name="greeter", alias="greeter", description="Greets.", symbols=[vis.Symbol(greet)], env=["not a name"]))',
        '',
      ].join('\n'),
    );
    assert.equal(diff.stderr, '2 fixes would be applied to 1 file\n');
    assert.equal(fs.readFileSync(p.file('greeter.py'), 'utf8'), BROKEN);
    const fixed = runIn(p.root, 'check', '--fix', 'greeter.py');
    assert.deepEqual([fixed.code, fixed.stdout, fixed.stderr], [
      1,
      'greeter.py:9:103: information [SYM-008] vis.Symbol greet has no activity=: declare vis.Activity(...) so the tool call is presented; without it only engine execution evidence is shown\n' +
        'greeter.py:9:128: error [EXT-011] vis.Extension env entries must be environment variable names\n',
      '1 file checked, 1 error, 2 fixes applied\n',
    ]);
    assert.equal(fs.readFileSync(p.file('greeter.py'), 'utf8'), FIXED);
    assert.deepEqual([runIn(p.root, 'check', '--diff', 'greeter.py').code, runIn(p.root, 'check', '--diff', 'greeter.py').stderr], [0, '0 fixes would be applied to 0 files\n']);
  });

  it('prints GitHub workflow annotations and SARIF 2.1.0 with each fix', () => {
    const p = make({ 'greeter.py': BROKEN });
    const gh = runIn(p.root, 'check', '--format', 'github', '--ignore', 'SYM-008', 'greeter.py');
    assert.equal(gh.code, 1);
    assert.equal(
      gh.stdout,
      [
        '::error file=greeter.py,line=9,col=24,endLine=9,endColumn=37,title=EXT-005::vis.Extension requires alias=<string> when symbols are declared',
        '',
      ].join('\n'),
    );
    const out = runIn(p.root, 'check', '--format=sarif', '--select', 'EXT-005', 'greeter.py');
    assert.equal(out.code, 1);
    assert.equal(out.stderr, '');
    const sarif = JSON.parse(out.stdout);
    assert.equal(sarif.version, '2.1.0');
    assert.deepEqual(sarif.runs[0].tool.driver.rules, [
      { id: 'EXT-005', shortDescription: { text: 'An Extension that declares symbols needs an alias.' }, helpUri: 'https://github.com/blockether/vis-authoring/blob/main/docs/rules/EXT-005.md', defaultConfiguration: { level: 'error' } },
    ]);
    assert.deepEqual(sarif.runs[0].results, [
      {
        ruleId: 'EXT-005',
        ruleIndex: 0,
        level: 'error',
        message: { text: 'vis.Extension requires alias=<string> when symbols are declared' },
        locations: [{ physicalLocation: { artifactLocation: { uri: 'greeter.py' }, region: { startLine: 9, startColumn: 24, endLine: 9, endColumn: 37 } } }],
        fixes: [
          {
            description: { text: 'Add alias="greeter"' },
            artifactChanges: [{ artifactLocation: { uri: 'greeter.py' }, replacements: [{ deletedRegion: { startLine: 9, startColumn: 52, endLine: 9, endColumn: 52 }, insertedContent: { text: ', alias="greeter"' } }] }],
          },
        ],
      },
    ]);
  });

  it('reads [tool.vis-authoring] and suppression comments; --select and --ignore go over the project table', () => {
    const p = make({
      'pyproject.toml': '[tool.vis-authoring]\nignore = ["SYM-008"]\nseverity = { EXT-011 = "warning" }\n',
      'greeter.py': BROKEN.replace('))\n', '))  # vis: ignore[EXT-009]\n'),
    });
    const rules = (...args: string[]) => runIn(p.root, 'check', ...args, 'greeter.py').stdout.split('\n').filter(Boolean).map((l) => l.split(' ').slice(1, 3).join(' '));
    // Python raises EXT-005 first; a rule taken out (or suppressed) lets the call's next error through.
    assert.deepEqual(rules(), ['error [EXT-005]']);
    assert.deepEqual(rules('--ignore', 'EXT-005'), ['warning [EXT-011]']);
    assert.deepEqual(rules('--select', 'EXT-009,SUP'), []);
    assert.deepEqual(rules('--select', 'EXT', '--ignore', 'EXT-005,EXT-011'), []);
    // The other forms: a bare ignore on the line, and ignore-file anywhere in the file.
    p.write('bare.py', BROKEN.replace('))\n', '))  # vis: ignore\n'));
    p.write('file.py', '# vis: ignore-file[EXT-005, EXT-011]\n' + BROKEN);
    const other = runIn(p.root, 'check', 'bare.py', 'file.py');
    assert.deepEqual([other.code, other.stdout], [1, 'file.py:10:86: error [EXT-009] vis.Extension symbols must contain Symbol declarations\n']);
    const bad = runIn(p.root, 'check', '--select', 'EXT-999', 'greeter.py');
    assert.deepEqual([bad.code, bad.stderr], [2, "--select: unknown rule 'EXT-999' (a rule id, a family prefix such as EXT, or ALL)\n"]);
    assert.equal(runIn(p.root, 'check', '--fix', '--diff').code, 2);
  });

  it('explain prints the rule page', () => {
    const r = runIn(__dirname, 'explain', 'EXT-003');
    assert.equal(r.code, 0);
    assert.equal(r.stdout, fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'rules', 'EXT-003.md'), 'utf8'));
    assert.equal(runIn(__dirname, 'explain', 'ext-003').stdout, r.stdout);
    const unknown = runIn(__dirname, 'explain', 'NOPE-1');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^unknown rule: NOPE-1 \(rules: SYN-001, SYN-002, ANA-001, /);
  });
});
