import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileStamp, readTextFile, readTextFileSync } from '../../shared/files';
import { t, setTranslator } from '../../client/src/l10n';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-guarded-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const at = (name: string) => path.join(dir, name);

fs.writeFileSync(at('ok.py'), 'x = "é"\n');
fs.writeFileSync(at('big.py'), 'x' .repeat(2000));
fs.writeFileSync(at('bin.py'), Buffer.from([0x61, 0x00, 0x62]));
fs.mkdirSync(at('sub'));
fs.symlinkSync(at('loop'), at('loop'));
execFileSync('mkfifo', [at('fifo')]);

const opts = { maxBytes: 1000 };

describe('guarded file reader', () => {
  it('reads a regular file with its stamp', async () => {
    const r = readTextFileSync(at('ok.py'), opts);
    assert.equal(r.ok && r.text, 'x = "é"\n');
    assert.equal(r.ok && r.stamp, fileStamp(at('ok.py')));
    const a = await readTextFile(at('ok.py'), opts);
    assert.deepEqual(a, r);
  });

  for (const [name, reason, message] of [
    ['missing.py', 'not-found', 'missing.py: no such file'],
    ['big.py', 'too-large', 'big.py has 2000 bytes, more than the limit of 1000; not read'],
    ['bin.py', 'binary', 'bin.py looks like a binary file (it holds a NUL byte); not read'],
    ['sub', 'not-regular', 'sub is a directory; only regular files are read'],
    ['fifo', 'not-regular', 'fifo is a named pipe (FIFO); only regular files are read'],
    ['loop', 'unreadable', 'loop: too many levels of symbolic links (a symlink loop)'],
  ] as const) {
    it(`refuses ${name} at once (${reason}), sync and async`, async () => {
      const expected = { ok: false, reason, message: `${at(name).slice(0, -name.length)}${message}` };
      assert.deepEqual(readTextFileSync(at(name), opts), expected);
      assert.deepEqual(await readTextFile(at(name), opts), expected);
    });
  }

  it('refuses a device without reading it', () => {
    assert.deepEqual(readTextFileSync('/dev/zero', opts), { ok: false, reason: 'not-regular', message: '/dev/zero is a device; only regular files are read' });
    assert.equal(fileStamp('/dev/zero'), undefined);
  });
});

describe('l10n', () => {
  it('fills placeholders in English until a translator is installed', () => {
    assert.equal(t('{0} of {1} loaded, {2} left', 3, 4, 'x'), '3 of 4 loaded, x left');
    assert.equal(t('no {3} here', 1), 'no {3} here');
    setTranslator((m, ...a) => `[${m}|${a.join(',')}]`);
    try {
      assert.equal(t('a {0}', 1), '[a {0}|1]');
    } finally {
      setTranslator((m, ...a) => m.replace(/\{(\d+)\}/g, (w, i) => String(a[Number(i)] ?? w)));
    }
  });
});
