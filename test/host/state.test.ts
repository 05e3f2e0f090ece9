import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { StateDbError } from '../../client/src/host/sqlite';
import { readState, StateSnapshot } from '../../client/src/host/state';
import { preview } from '../../client/src/host/valueText';

const DBS = path.join(__dirname, '..', 'fixtures', 'state', 'db');
const dirs: string[] = [];
after(async () => { for (const d of dirs) await fsp.rm(d, { recursive: true, force: true }); });

/** A copy of a fixture database folder (so the test can check that nothing is written next to it). */
async function copy(name: string, keep?: (file: string) => boolean): Promise<string> {
  const d = await fsp.mkdtemp(path.join(os.tmpdir(), `vis-db-${name}-`));
  dirs.push(d);
  for (const f of await fsp.readdir(path.join(DBS, name))) if (!keep || keep(f)) await fsp.copyFile(path.join(DBS, name, f), path.join(d, f));
  return d;
}

async function listing(d: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of (await fsp.readdir(d)).sort()) {
    const st = await fsp.stat(path.join(d, f));
    out[f] = `${st.size}:${st.mtimeMs}:${(await fsp.readFile(path.join(d, f))).toString('base64').length}`;
  }
  return out;
}

/** The snapshot as plain rows: [extension, key, value preview or error, updatedAt]. */
function rows(s: StateSnapshot): (string | number | undefined)[][] {
  return s.extensions.flatMap((e) => e.entries.map((x) => [e.name, x.key, x.error ? `ERROR ${x.error}` : preview(x.value!, 60), x.updatedAt]));
}

async function rejects(p: Promise<unknown>, code: string, msg: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => e instanceof StateDbError && e.code === code && msg.test(e.message));
}

const COMMITTED = [
  ['greeter', 'count', '2', 1700000100000],
  ['greeter', 'names', '["ada","grace","linus"]', 1700000001000],
  ['greeter', 'ünïcode ✓ "quoted" key', '"héllo ✓ 😀 ಬಾ"', 1700000101000],
  ['lz4-ext', 'items', '["item-0","item-1","item-2","item-3","item-4","item-5","ite…', 1700000102000],
  ['repo-tools', 'broken', 'ERROR zstd payload is corrupt: truncated (a block at byte 9)', 1700000006000],
  ['repo-tools', 'items', '["item-0","item-1","item-2","item-3","item-4","item-5","ite…', 1700000005000],
  ['repo-tools', 'not-edn-key', '1', 1700000007500],
  ['repo-tools', 'not-nippy', 'ERROR not a Nippy value (no "NPY" header; 4 bytes starting de ad be ef)', 1700000007000],
  ['repo-tools', 'profile', '{"login":"octocat","id":583231,"admin":false,"score":98.5,"…', 1700000004000],
];

describe('state from a WAL-mode vis.db', () => {
  it('shows writes committed only in the WAL, ignores stale frames, and writes nothing', async () => {
    const d = await copy('wal');
    const before = await listing(d);
    const s = await readState(path.join(d, 'vis.db'));
    assert.deepEqual(rows(s), COMMITTED);
    assert.equal(s.walFrames, 11);
    assert.equal(s.journalPages, 0);
    assert.deepEqual(s.extensions.map((e) => [e.name, e.hiddenNil]), [['greeter', 1], ['lz4-ext', 0], ['repo-tools', 0]]);
    const items = s.extensions[2].entries[1];
    assert.deepEqual(items.value, Array.from({ length: 600 }, (_, i) => `item-${i}`));
    const odd = s.extensions[2].entries[2];
    assert.equal(odd.rawKey, 'not-edn-key');
    assert.equal(odd.keyError, 'the key is not an EDN string');
    assert.equal(s.extensions[0].entries[2].rawKey, '"ünïcode ✓ \\"quoted\\" key"');
    assert.deepEqual(await listing(d), before, 'no -shm/-wal created, nothing modified');
  });

  it('without the WAL file, shows what was checkpointed', async () => {
    const d = await copy('wal', (f) => f === 'vis.db');
    const s = await readState(path.join(d, 'vis.db'));
    assert.deepEqual(rows(s).map((r) => r.slice(0, 3)), [
      ['greeter', 'count', '1'],
      ['greeter', 'gone', '"a"'],
      ['greeter', 'names', '["ada","grace","linus"]'],
      ...COMMITTED.filter((r) => r[0] === 'repo-tools').map((r) => r.slice(0, 3)),
    ]);
    assert.equal(s.walFrames, 0);
    assert.deepEqual(await fsp.readdir(d), ['vis.db']);
  });

  it('a WAL cut in the middle of its last transaction shows the commits before it', async () => {
    const d = await copy('wal');
    const wal = path.join(d, 'vis.db-wal');
    await fsp.truncate(wal, 32 + 4 * (24 + 4096) + 1000); // first commit: 4 frames; then a partial frame
    const s = await readState(path.join(d, 'vis.db'));
    assert.equal(s.walFrames, 4);
    assert.deepEqual(rows(s).map((r) => r.slice(0, 2)), COMMITTED.filter((r) => r[0] !== 'lz4-ext').map((r) => r.slice(0, 2)));
  });

  it('a corrupted WAL frame ends the valid log there', async () => {
    const d = await copy('wal');
    const wal = path.join(d, 'vis.db-wal');
    const b = await fsp.readFile(wal);
    b[32 + 5 * (24 + 4096) + 24 + 100] ^= 0xff; // inside frame 5, part of the second commit
    await fsp.writeFile(wal, b);
    const s = await readState(path.join(d, 'vis.db'));
    assert.equal(s.walFrames, 4);
    assert.ok(!s.extensions.some((e) => e.name === 'lz4-ext'));
  });
});

describe('state from a locked database', () => {
  it('a writer holding the WAL write lock, its transaction partly spilled into the WAL', async () => {
    const d = await copy('locked-wal');
    const s = await readState(path.join(d, 'vis.db'));
    assert.deepEqual(rows(s), [['greeter', 'count', '2', 1700000100000]]);
    assert.equal(s.walFrames, 2);
  });

  it('a writer in rollback-journal mode holding EXCLUSIVE, with pages already written over vis.db', async () => {
    const d = await copy('locked-journal');
    const before = await listing(d);
    const s = await readState(path.join(d, 'vis.db'));
    assert.deepEqual(rows(s), [['greeter', 'count', '2', 1700000100000], ['greeter', 'names', '["ada","grace","linus"]', 1700000001000]]);
    assert.ok(s.journalPages > 0);
    assert.deepEqual(await listing(d), before, 'the hot journal is left alone');
  });

  it('the same vis.db without its journal shows the uncommitted change (why the journal matters)', async () => {
    const d = await copy('locked-journal', (f) => f === 'vis.db');
    const s = await readState(path.join(d, 'vis.db')).catch((e: Error) => e);
    // Read without the journal, the writer's half-done pages are visible or inconsistent.
    assert.ok(s instanceof Error || !rows(s).some((r) => r[1] === 'names'));
  });
});

describe('state errors', () => {
  it('a missing file', async () => {
    const d = await fsp.mkdtemp(path.join(os.tmpdir(), 'vis-db-none-'));
    dirs.push(d);
    await rejects(readState(path.join(d, 'vis.db')), 'missing', /^There is no Vis database at .*vis\.db\.$/);
    assert.deepEqual(await fsp.readdir(d), [], 'nothing created');
  });

  it('a truncated database', async () => {
    const d = await copy('wal', (f) => f === 'vis.db');
    await fsp.truncate(path.join(d, 'vis.db'), 3 * 4096 + 17);
    await rejects(readState(path.join(d, 'vis.db')), 'truncated', /is truncated: its header says 9 pages of 4096 bytes \(36864 bytes\) but the file has 12305 bytes\.$/);
  });

  it('a database cut inside its header', async () => {
    const d = await copy('wal', (f) => f === 'vis.db');
    await fsp.truncate(path.join(d, 'vis.db'), 40);
    await rejects(readState(path.join(d, 'vis.db')), 'truncated', /is only 40 bytes: not a complete SQLite database/);
  });

  it('a file that is not SQLite', async () => {
    const d = await fsp.mkdtemp(path.join(os.tmpdir(), 'vis-db-txt-'));
    dirs.push(d);
    await fsp.writeFile(path.join(d, 'vis.db'), 'x'.repeat(200));
    await rejects(readState(path.join(d, 'vis.db')), 'not-sqlite', /is not a SQLite database\.$/);
  });

  it('a SQLite database without the extension_aggregate table', async () => {
    const d = await copy('wal', (f) => f === 'vis.db');
    const b = await fsp.readFile(path.join(d, 'vis.db'));
    // Rename the table in the schema text so it is not found (same length, so the record stays valid).
    const at = b.indexOf('CREATE TABLE extension_aggregate');
    const nameAt = b.indexOf('extension_aggregate', 0);
    assert.ok(at > 0 && nameAt > 0);
    for (let i = b.indexOf('extension_aggregate'); i >= 0; i = b.indexOf('extension_aggregate', i + 1)) b.write('extension_aggregatX', i, 'latin1');
    await fsp.writeFile(path.join(d, 'vis.db'), b);
    await rejects(readState(path.join(d, 'vis.db')), 'no-table', /has no extension_aggregate table/);
  });
});
