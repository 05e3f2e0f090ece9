import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { NUMSTAT_USAGE, runNumstat } from '../../server/src/changes/numstat';

let dir = '';
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'numstat-'));
});
after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function write(name: string, content: string | Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

function run(args: string[]): { status: number; out: string; err: string } {
  let out = '';
  let err = '';
  const status = runNumstat(args, (s) => (out += s), (s) => (err += s));
  return { status, out, err };
}

describe('numstat', () => {
  it('prints added, removed and the AFTER path, tab-separated, like git --numstat', () => {
    const a = write('a.py', 'a\nb\nc\n');
    const b = write('b.py', 'a\nB\nc\nd\n');
    assert.deepEqual(run([a, b]), { status: 0, out: `2\t1\t${b}\n`, err: '' });
  });

  it('counts the fix input of git 2.50 at its true minimum', () => {
    const a = write('x1', 'x\nx\nx\nx\n');
    const b = write('x2', 'x\nx\nx\nA\nB\nC\nD\nx\nE\nF\nG\n');
    assert.equal(run([a, b]).out, `7\t0\t${b}\n`);
  });

  it('prints zeros for identical files', () => {
    const a = write('same1', 'x\n');
    const b = write('same2', 'x\n');
    assert.deepEqual(run([a, b]), { status: 0, out: `0\t0\t${b}\n`, err: '' });
  });

  it('keeps CR in its line and tells a missing final newline apart', () => {
    const a = write('crlf', 'a\r\nb\r\nc');
    const b = write('lf', 'a\nb\r\nc\n');
    assert.equal(run([a, b]).out, `2\t2\t${b}\n`);
  });

  it('compares bytes: invalid UTF-8 lines stay distinct, and the same bytes stay equal', () => {
    const a = write('bin1', Buffer.from([0xff, 0x0a, 0xfe, 0x0a, 0xc3, 0xa9, 0x0a]));
    const b = write('bin2', Buffer.from([0xfe, 0x0a, 0xfe, 0x0a, 0xc3, 0xa9, 0x0a]));
    assert.equal(run([a, b]).out, `1\t1\t${b}\n`);
  });

  it('reports bad usage on err and returns 2', () => {
    const a = write('only', 'a\n');
    assert.deepEqual(run([]), { status: 2, out: '', err: NUMSTAT_USAGE });
    assert.deepEqual(run([a]), { status: 2, out: '', err: NUMSTAT_USAGE });
    assert.deepEqual(run([a, a, a]), { status: 2, out: '', err: NUMSTAT_USAGE });
  });

  it('prints the usage on out for --help', () => {
    assert.deepEqual(run(['--help']), { status: 0, out: NUMSTAT_USAGE, err: '' });
  });

  it('reports a file it cannot read on err and returns 2', () => {
    const a = write('there', 'a\n');
    const missing = path.join(dir, 'missing');
    assert.deepEqual(run([a, missing]), { status: 2, out: '', err: `vis-authoring numstat: ${missing}: no such file\n` });
    assert.deepEqual(run([dir, a]), { status: 2, out: '', err: `vis-authoring numstat: ${dir} is a directory; only regular files are read\n` });
    // A device or a FIFO is refused before anything is read.
    assert.deepEqual(run(['/dev/zero', a]), { status: 2, out: '', err: 'vis-authoring numstat: /dev/zero is a device; only regular files are read\n' });
  });
});
