// Corrupt vis.db files: each damage gives a clear per-file or per-value message, never a raw
// exception, a hang or an allocation the file does not justify. WAL damage is checked against real
// SQLite reading the same damaged copy (it must ignore exactly the frames we ignore).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { describeMillis, isoFromMillis } from '../../client/src/host/instant';
import { Damaged, RowValue, StateDbError, findTable, openSnapshot, readRows } from '../../client/src/host/sqlite';
import { readState } from '../../client/src/host/state';
import { Layout, buildDatabase, comparable, dumpDatabase, layoutOf } from '../helpers/realSqlite';

const dirs: string[] = [];
after(async () => { for (const d of dirs) await fsp.rm(d, { recursive: true, force: true }); });
async function tmpDir(tag: string): Promise<string> {
  const d = await fsp.mkdtemp(path.join(os.tmpdir(), `vis-corrupt-${tag}-`));
  dirs.push(d);
  return d;
}

let plain: Buffer; // a checkpointed database without its WAL: every page is in vis.db
let layout: Layout;
let baseRows: Record<string, RowValue>[];
let walDir: string;

async function rowsOf(file: string): Promise<Record<string, RowValue>[]> {
  const snap = await openSnapshot(file);
  try {
    return await readRows(snap, (await findTable(snap, 'extension_aggregate'))!);
  } finally {
    await snap.close();
  }
}

async function withBytes(b: Buffer, tag: string): Promise<string> {
  const d = await tmpDir(tag);
  await fsp.writeFile(path.join(d, 'vis.db'), b);
  return path.join(d, 'vis.db');
}

const pagesOf = (name: string, type: string) => layout.pages.filter((p) => p[0] === name && p[2] === type);
const at = (pgno: number) => (pgno - 1) * layout.pageSize;

async function fileError(file: string): Promise<StateDbError> {
  try {
    await readState(file);
  } catch (e) {
    assert.ok(e instanceof StateDbError, `expected a StateDbError, got ${(e as Error)?.stack}`);
    return e;
  }
  assert.fail('expected the read to fail');
}

before(async () => {
  const d = await tmpDir('base');
  buildDatabase('checkpointed', d);
  await fsp.rm(path.join(d, 'vis.db-wal'));
  plain = await fsp.readFile(path.join(d, 'vis.db'));
  layout = layoutOf(path.join(d, 'vis.db'));
  baseRows = await rowsOf(path.join(d, 'vis.db'));
  walDir = await tmpDir('wal');
  buildDatabase('small-wal', walDir);
});

describe('a damaged B-tree fails the file with a message that names the page', () => {
  it('a page-number cycle', async () => {
    const root = layout.roots.extension_aggregate;
    const b = Buffer.from(plain);
    b.writeUInt32BE(root, at(root) + 8); // the root's right child is the root
    const file = await withBytes(b, 'cycle');
    assert.equal((await fileError(file)).message, `${file}: the B-tree visits page ${root} twice.`);
  });

  it('a cell pointer outside the page, a cell count that cannot fit, a page that is not a B-tree page', async () => {
    const leaf = pagesOf('extension_aggregate', 'leaf')[3][1];
    let b = Buffer.from(plain);
    b.writeUInt16BE(0xffff, at(leaf) + 8);
    let file = await withBytes(b, 'cellptr');
    assert.equal((await fileError(file)).message, `${file}: cell 0 of page ${leaf} points outside the page (offset 65535).`);
    b = Buffer.from(plain);
    b.writeUInt16BE(0xffff, at(leaf) + 3);
    file = await withBytes(b, 'ncell');
    assert.equal((await fileError(file)).message, `${file}: page ${leaf} claims 65535 cells, more than fit in it.`);
    b = Buffer.from(plain);
    b[at(leaf)] = 7;
    file = await withBytes(b, 'type');
    assert.equal((await fileError(file)).message, `${file}: page ${leaf} is not a B-tree page (type 7).`);
  });

  it('a huge varint as a payload size', async () => {
    const leaf = pagesOf('extension_aggregate', 'leaf')[0][1];
    const b = Buffer.from(plain);
    const cell = b.readUInt16BE(at(leaf) + 8);
    b.fill(0xff, at(leaf) + cell, at(leaf) + cell + 9);
    const file = await withBytes(b, 'varint');
    assert.equal((await fileError(file)).message, `${file}: cell 0 of page ${leaf} declares a payload of -1 bytes.`);
  });

  it('a varint that runs into the end of the page (was: Cannot convert undefined to a BigInt)', async () => {
    const leaf = pagesOf('extension_aggregate', 'leaf')[0][1];
    const b = Buffer.from(plain);
    b.writeUInt16BE(1024 - 4, at(leaf) + 8); // cell 0 starts 4 bytes before the end of the page
    b.fill(0xff, at(leaf) + 1024 - 4, at(leaf) + 1024);
    const file = await withBytes(b, 'varint-end');
    assert.equal((await fileError(file)).message, `${file}: cell 0 of page ${leaf}: a varint runs past the end of the page.`);
  });

  it('a payload size of 2^40 bytes (was: Invalid typed array length) is refused without allocating it', async () => {
    const leaf = pagesOf('extension_aggregate', 'leaf')[2][1];
    const b = Buffer.from(plain);
    const cell = at(leaf) + b.readUInt16BE(at(leaf) + 8);
    // 2^40 as a 6-byte varint, in place of the cell's size and the start of its rowid.
    Buffer.from([0xa0, 0x80, 0x80, 0x80, 0x80, 0x00]).copy(b, cell);
    const file = await withBytes(b, 'size');
    const before = process.memoryUsage().rss;
    assert.equal((await fileError(file)).message, `${file}: a cell of page ${leaf} runs past the end of the page.`);
    assert.ok(process.memoryUsage().rss - before < 64 * 1024 * 1024);
  });

  it('a child pointer past the end of the database', async () => {
    const root = layout.roots.extension_aggregate;
    const b = Buffer.from(plain);
    b.writeUInt32BE(0x7fffffff, at(root) + 8);
    const file = await withBytes(b, 'child');
    assert.equal((await fileError(file)).message, `${file}: reference to page 2147483647, outside 1..${layout.pageCount}.`);
  });

  it('a truncated file and an impossible page size', async () => {
    let file = await withBytes(plain.subarray(0, at(7) + 100), 'trunc');
    assert.equal((await fileError(file)).message,
      `${file} is truncated: its header says ${layout.pageCount} pages of 1024 bytes (${layout.pageCount * 1024} bytes) but the file has ${at(7) + 100} bytes.`);
    const b = Buffer.from(plain);
    b.writeUInt16BE(3, 16);
    file = await withBytes(b, 'pagesize');
    assert.equal((await fileError(file)).message, `${file} has an invalid page size (3).`);
  });
});

describe('a damaged overflow chain damages that value only', () => {
  // First pages of chains that go on to a second page (dbstat path .../NNN+000000 with a .../NNN+000001).
  const heads = () => {
    const ov = pagesOf('extension_aggregate', 'overflow');
    const paths = new Set(ov.map((p) => p[4]));
    return ov.filter((p) => p[4].endsWith('+000000') && paths.has(p[4].replace(/\+000000$/, '+000001'))).map((p) => p[1]);
  };

  async function damagedBy(next: (head: number) => number, tag: string): Promise<[number, Damaged]> {
    const head = heads()[0];
    const b = Buffer.from(plain);
    b.writeUInt32BE(next(head), at(head));
    const rows = await rowsOf(await withBytes(b, tag));
    assert.equal(rows.length, baseRows.length, 'every row is still read');
    const changed = rows.map((r, i) => [r, i] as const).filter(([r, i]) => JSON.stringify(Object.values(r).map(comparable)) !== JSON.stringify(Object.values(baseRows[i]).map(comparable)));
    assert.equal(changed.length, 1, 'one row changed');
    const [row, i] = changed[0];
    for (const c of ['id', 'extension_id', 'aggregate_key', 'kind']) assert.deepEqual(row[c], baseRows[i][c], `${c} still reads`);
    assert.ok(row.content instanceof Damaged, 'the content is damaged');
    assert.deepEqual(row.updated_at, row.content, 'columns after it are damaged the same way');
    return [head, row.content];
  }

  it('a chain that loops', async () => {
    const [head, d] = await damagedBy((h) => h, 'loop');
    assert.equal(d.reason, `the stored value is damaged: its overflow chain loops back to page ${head}`);
  });

  it('a chain that points past the end', async () => {
    const [, d] = await damagedBy(() => layout.pageCount + 7, 'past');
    assert.equal(d.reason, `the stored value is damaged: its overflow chain points at page ${layout.pageCount + 7}, past the last page (${layout.pageCount})`);
  });

  it('a chain that ends early', async () => {
    const [, d] = await damagedBy(() => 0, 'short');
    assert.match(d.reason, /^the stored value is damaged: its overflow chain ends after \d+ of \d+ bytes$/);
  });

  it('the state view shows the other values and says which one is damaged', async () => {
    // Damage chains until one belongs to a vis.state row, then read the state.
    const good = await readState(await withBytes(plain, 'state-base'));
    for (const head of heads()) {
      const b = Buffer.from(plain);
      b.writeUInt32BE(head, at(head));
      const s = await readState(await withBytes(b, 'state'));
      const entries = s.extensions.flatMap((e) => e.entries.map((x) => ({ ext: e.name, ...x })));
      const bad = entries.filter((x) => x.error?.startsWith('the stored value is damaged'));
      if (bad.length === 0) continue;
      assert.equal(bad.length, 1);
      assert.equal(bad[0].error, `the stored value is damaged: its overflow chain loops back to page ${head}`);
      assert.equal(bad[0].updatedAt, undefined);
      const others = (x: { key: string }) => x.key !== bad[0].key;
      assert.deepEqual(entries.filter(others).length, good.extensions.flatMap((e) => e.entries).filter(others).length);
      return;
    }
    assert.fail('no overflow chain of a vis.state row in the fixture');
  });
});

describe('WAL damage: we ignore exactly the frames real SQLite ignores', () => {
  const FRAME = 24 + 1024;
  async function compare(tag: string, damage: (wal: Buffer) => Buffer): Promise<void> {
    const d = await tmpDir(tag);
    await fsp.copyFile(path.join(walDir, 'vis.db'), path.join(d, 'vis.db'));
    const wal = damage(await fsp.readFile(path.join(walDir, 'vis.db-wal')));
    await fsp.writeFile(path.join(d, 'vis.db-wal'), wal);
    const real = dumpDatabase(path.join(d, 'vis.db')).tables.extension_aggregate;
    const ours = (await rowsOf(path.join(d, 'vis.db'))).map((r) => Object.fromEntries(Object.entries(r).map(([c, v]) => [c, comparable(v)])));
    assert.deepEqual(ours, real);
  }

  it('a bad checksum in a frame of the current generation', () => compare('cksum', (w) => { w[32 + 40 * FRAME + 24 + 500] ^= 0x40; return w; }));
  it('a bad checksum in the first frame (nothing of this generation counts)', () => compare('cksum0', (w) => { w[32 + 24 + 7] ^= 1; return w; }));
  it('a frame with another generation\'s salt', () => compare('salt', (w) => { w.writeUInt32BE(w.readUInt32BE(16) - 1, 32 + 60 * FRAME + 8); return w; }));
  it('a WAL header with a bad checksum', () => compare('hdr', (w) => { w[24] ^= 0xff; return w; }));
  it('a WAL cut inside a frame', () => compare('cut', (w) => w.subarray(0, 32 + 77 * FRAME + 333)));
});

describe('what is not a database file is refused at once', () => {
  it('a FIFO as vis.db or as vis.db-wal', async (t) => {
    if (process.platform === 'win32') return t.skip('no FIFOs on Windows');
    const d = await tmpDir('fifo');
    const file = path.join(d, 'vis.db');
    execFileSync('mkfifo', [file]);
    const t0 = Date.now();
    let e = await fileError(file);
    assert.equal(e.message, `${file} is not a regular file (a pipe, socket or device); it is not read.`);
    await fsp.rm(file);
    await fsp.writeFile(file, plain);
    execFileSync('mkfifo', [`${file}-wal`]);
    e = await fileError(file);
    assert.equal(e.message, `${file}-wal is not a regular file (a pipe, socket or device); it is not read.`);
    assert.ok(Date.now() - t0 < 2000);
  });
});

describe('dates that JavaScript cannot hold', () => {
  it('an updated_at of 9e15 is shown as a number, not thrown', () => {
    assert.equal(isoFromMillis(9e15), undefined);
    assert.equal(describeMillis(9e15), '9000000000000000 ms since 1970 (outside the range of dates that can be shown)');
    assert.equal(describeMillis(1700000100000), '2023-11-14T22:15:00.000Z');
    assert.equal(describeMillis(-(2n ** 63n)), '-9223372036854775808 ms since 1970 (outside the range of dates that can be shown)');
    assert.equal(describeMillis(NaN), 'NaN ms since 1970 (outside the range of dates that can be shown)');
  });
});
