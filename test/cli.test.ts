// The bundled CLI (`dist/cli.js`, the package's bin) as CI would run it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { NOTES, project } from './helpers/project';

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');
const run = (...args: string[]) => runIn(undefined, ...args);
const runIn = (cwd: string | undefined, ...args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

const VALID = 'import blockether.vis.extension as vis\n\nvis.register_extension(vis.Extension(name="ok", description="Fine."))\n';
const INVALID = 'import blockether.vis.extension as vis\n\nvis.register_extension(vis.Extension(name="bad", description=""))\n';
/** The same mistake in an extension of another name (one project keeps one extension per name). */
const invalid = (name: string) => INVALID.replace('"bad"', JSON.stringify(name));

describe('check CLI', () => {
  let dir: string;
  before(() => {
    // A Vis extensions directory: what discovery takes and what it leaves.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-cli-'));
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    };
    write('good.py', VALID);
    write('bad.py', INVALID);
    write('test_bad.py', INVALID);
    write('bad_test.py', INVALID);
    write('.hidden.py', INVALID);
    write('pkg/extension.py', invalid('pkg'));
    write('pkg/helpers.py', INVALID);
    write('versioned/current/extension.py', invalid('versioned'));
    write('versioned/0.1.0/extension.py', INVALID);
  });

  it('walks a directory the way Vis discovers extensions and exits 1 on errors', () => {
    const r = run('check', dir);
    assert.equal(r.code, 1);
    assert.equal(
      r.stdout,
      ['bad.py', 'pkg/extension.py', 'versioned/current/extension.py']
        .map((f) => `${path.join(dir, f)}:3:${59 + (f === 'bad.py' ? 'bad' : f.split('/')[0]).length}: error [EXT-004] vis.Extension requires description=<non-empty string>\n`)
        .join(''),
    );
    assert.equal(r.stderr, '4 files checked, 3 errors\n');
  });

  it('exits 0 on valid files and prints JSON with --format json', () => {
    assert.equal(run('check', path.join(dir, 'good.py')).code, 0);
    const r = run('check', '--format', 'json', path.join(dir, 'bad.py'));
    assert.equal(r.code, 1);
    assert.deepEqual(JSON.parse(r.stdout), [
      {
        path: path.join(dir, 'bad.py'),
        line: 3,
        column: 62,
        endLine: 3,
        endColumn: 64,
        severity: 'error',
        rule: 'EXT-004',
        message: 'vis.Extension requires description=<non-empty string>',
        generation: 'G3',
        fix: null,
      },
    ]);
  });

  it('checks the examples: every generation valid, the broken greeter with all its errors at once (the first of each declaration)', () => {
    const root = path.join(__dirname, '..', 'examples');
    const valid = run('check', path.join(root, 'extensions'));
    // The package probe/ brings its sibling modules (src/probe/__init__.py and models.py) along.
    assert.deepEqual([valid.code, valid.stdout, valid.stderr], [0, '', '6 files checked, 0 errors\n']);
    const broken = run('check', path.join(root, 'broken'));
    const file = path.join(root, 'broken', 'greeter.py');
    assert.equal(broken.code, 1);
    assert.equal(
      broken.stdout,
      [
        '10:5: error [SYM-005] vis.Symbol: wave needs a docstring - it becomes the model-facing doc()',
        "15:27: error [SYM-004] vis.Symbol tag must be one of observation, mutation, verification, external, got 'read'",
        '16:54: error [ACT-003] unknown Activity presenter',
        '19:24: error [EXT-005] vis.Extension requires alias=<string> when symbols are declared',
        '23:26: error [HOOK-003] vis.OpHook requires a non-empty ops list',
        "26:1: error [REG-003] module 'blockether.vis.extension' has no attribute 'register'",
      ]
        .map((l) => `${file}:${l}\n`)
        .join(''),
    );
  });

  it('checks what Vis would load at a project root: .vis/extensions entries and the modules they reach, not test files', () => {
    const p = project(NOTES.files);
    try {
      const tools = path.join(p.root, NOTES.tools);
      // One Symbol, one error: the first Vis raises (the public constant; the method without a docstring after it).
      const expected = `${tools}:${p.line(NOTES.tools, 'LIMIT = 10') + 1}:5: error [SYM-013] vis.Symbol(object, ...): public attribute 'notes.LIMIT' has unsupported value of type int; expose callable methods, nest a capability object, or make the attribute private\n`;
      const r = run('check', p.root);
      assert.deepEqual([r.code, r.stdout, r.stderr], [1, expected, '5 files checked, 1 error\n']);
      // No path: the current folder, paths relative to it.
      const here = runIn(p.root, 'check');
      assert.deepEqual([here.code, here.stdout, here.stderr], [1, expected.replaceAll(`${p.root}/`, ''), '5 files checked, 1 error\n']);
    } finally {
      p.remove();
    }
  });

  it('numstat prints the line_changes counts as git diff --numstat does', () => {
    const before = path.join(dir, 'before.txt');
    const after = path.join(dir, 'after.txt');
    fs.writeFileSync(before, 'a\nb\nc\n');
    fs.writeFileSync(after, 'a\nc\nd\ne');
    const r = run('numstat', before, after);
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, `2\t1\t${after}\n`, '']);
    assert.equal(run('numstat', before).code, 2);
  });

  it('reads only regular files within the size limit, and one bad file never stops the run', () => {
    const bad = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-cli-bad-'));
    try {
      const at = (name: string) => path.join(bad, name);
      fs.writeFileSync(at('ok.py'), INVALID);
      spawnSync('mkfifo', [at('fifo.py')]);
      fs.symlinkSync(at('loop.py'), at('loop.py'));
      fs.writeFileSync(at('binary.py'), Buffer.concat([Buffer.from('import vis\n'), Buffer.alloc(200_000, 0)]));
      // A file past the limit: 3 bytes per character of visAuthoring.maxFileSize (2,000,000).
      fs.writeFileSync(at('huge.py'), 'import vis\n' + '#'.repeat(6_000_001) + '\n');
      // 300 nested blocks: Python refuses it (IndentationError), and so is it reported.
      fs.writeFileSync(at('deep.py'), 'import blockether.vis.extension as vis\n' + Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}if x:\n`).join('') + `${' '.repeat(300)}pass\n`);
      const r = run('check', '/dev/zero', at('fifo.py'), at('loop.py'), at('binary.py'), at('huge.py'), at('deep.py'), at('ok.py'));
      assert.equal(r.code, 1);
      assert.equal(
        r.stdout,
        [
          '/dev/zero:1:1: warning [ANA-001] /dev/zero is a device; only regular files are read',
          `${at('fifo.py')}:1:1: warning [ANA-001] ${at('fifo.py')} is a named pipe (FIFO); only regular files are read`,
          `${at('loop.py')}:1:1: warning [ANA-001] ${at('loop.py')}: too many levels of symbolic links (a symlink loop)`,
          `${at('binary.py')}:1:1: warning [ANA-001] ${at('binary.py')} looks like a binary file (it holds a NUL byte); not read`,
          `${at('huge.py')}:1:1: warning [ANA-001] ${at('huge.py')} has 6000013 bytes, more than the limit of 6000000; not read`,
          `${at('deep.py')}:102:1: error [SYN-001] IndentationError: too many levels of indentation`,
          `${at('ok.py')}:3:62: error [EXT-004] vis.Extension requires description=<non-empty string>`,
          '',
        ].join('\n'),
      );
      assert.equal(r.stderr, '7 files checked, 2 errors, 5 not analysed\n');
    } finally {
      fs.rmSync(bad, { recursive: true, force: true });
    }
  });

  it('exits 2 on bad usage', () => {
    assert.equal(run().code, 2);
    assert.equal(run('lint').code, 2);
    assert.equal(run('check', '--format', 'xml', dir).code, 2);
    const missing = run('check', path.join(dir, 'nope.py'));
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, `no such file or directory: ${path.join(dir, 'nope.py')}\n`);
  });
});
