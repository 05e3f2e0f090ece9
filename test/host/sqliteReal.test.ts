// Differential test: our read-only vis.db reader against real SQLite (python3's sqlite3), on
// databases that real SQLite wrote in WAL mode: thousands of rows, overflow pages, uncheckpointed
// WAL frames, a partial last frame, a checkpoint stopped half way, several WAL generations, UTF-16,
// auto-vacuum, a hot rollback journal, and table shapes other than Vis's.
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { thaw } from '../../client/src/host/nippy';
import { findTable, openSnapshot, readRows } from '../../client/src/host/sqlite';
import { readState } from '../../client/src/host/state';
import { SCENARIOS, buildDatabase, comparable, dumpDatabase } from '../helpers/realSqlite';

const dirs: string[] = [];
after(async () => { for (const d of dirs) await fsp.rm(d, { recursive: true, force: true }); });

async function listing(d: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of (await fsp.readdir(d)).sort()) {
    const st = await fsp.stat(path.join(d, f));
    out[f] = `${st.size}:${st.mtimeMs}:${(await fsp.readFile(path.join(d, f))).toString('base64')}`;
  }
  return out;
}

describe('vis.db reader against real SQLite', () => {
  for (const scenario of SCENARIOS) {
    it(`${scenario}: every row of every table, and the state query`, async () => {
      const dir = await fsp.mkdtemp(path.join(os.tmpdir(), `vis-real-${scenario}-`));
      dirs.push(dir);
      buildDatabase(scenario, dir);
      const file = path.join(dir, 'vis.db');
      const before = await listing(dir);
      const real = dumpDatabase(file);

      const snap = await openSnapshot(file);
      try {
        if (scenario === 'hot-journal') assert.ok(snap.journalPages > 0, 'the journal was applied');
        else assert.ok(snap.walFrames > 0, 'committed WAL frames were applied');
        let total = 0;
        for (const [name, rows] of Object.entries(real.tables)) {
          const table = await findTable(snap, name);
          assert.ok(table, `table ${name} found`);
          const ours = (await readRows(snap, table)).map((r) => Object.fromEntries(Object.entries(r).map(([c, v]) => [c, comparable(v)])));
          assert.equal(ours.length, rows.length, `${name}: row count`);
          for (let i = 0; i < rows.length; i++) assert.deepEqual(ours[i], rows[i], `${name}: row ${i}`);
          total += rows.length;
        }
        assert.ok(total >= 250, `${total} rows compared`);
      } finally {
        await snap.close();
      }

      const state = await readState(file);
      const want = real.state
        .filter(([, , hex]) => hex === null ? false : !isNil(hex))
        .map(([ext, key, hex, updated]) => [ext, key, hex!.length / 2, updated])
        .sort(order);
      const got = state.extensions.flatMap((e) => e.entries.map((x) => [e.name, x.rawKey, x.bytes, x.updatedAt])).sort(order);
      assert.deepEqual(got, want);
      const nils = real.state.filter(([, , hex]) => hex === null || isNil(hex)).length;
      assert.equal(state.extensions.reduce((a, e) => a + e.hiddenNil, 0), nils);
      assert.deepEqual(state.unreadable, []);
      assert.deepEqual(await listing(dir), before, 'nothing written, nothing created next to the database');
    });
  }
});

function isNil(hex: string): boolean {
  try {
    return thaw(Buffer.from(hex, 'hex')) === null;
  } catch {
    return false;
  }
}

function order(a: unknown[], b: unknown[]): number {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
