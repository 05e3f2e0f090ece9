// The Vis State view's read: 2,000 vis.state writes in a vis.db that real SQLite wrote, next to
// 20 MB of session turns (and their index), the last 500 writes still only in the WAL. Measured:
// readState (open, check the WAL's frames, scan the state table, decode every value). Baselines in
// the same run: reading the database and WAL bytes whole (what a reader that loads the file, like
// sql.js, must do first), and JSON.parse of the same values as JSON text (the decoding cost of the
// plainest format).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readState } from '../client/src/host/state';
import { toJson } from '../client/src/host/valueText';
import { buildDatabase } from '../test/helpers/realSqlite';
import { median } from './stats';

const RUNS = 7;

async function time(f: () => unknown | Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
}

export default async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-bench-state-'));
  try {
    buildDatabase('large', dir);
    const file = path.join(dir, 'vis.db');
    const bytes = fs.statSync(file).size + fs.statSync(`${file}-wal`).size;
    const first = await readState(file);
    const values = first.extensions.flatMap((e) => e.entries).filter((x) => !x.error).map((x) => toJson(x.value!, 0));
    const read: number[] = [];
    const whole: number[] = [];
    const json: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      read.push(await time(() => readState(file)));
      whole.push(await time(() => { fs.readFileSync(file); fs.readFileSync(`${file}-wal`); }));
      json.push(await time(() => { for (const v of values) JSON.parse(v); }));
    }
    const rows = first.extensions.reduce((a, e) => a + e.entries.length + e.hiddenNil, 0);
    const [r, w, j] = [median(read), median(whole), median(json)];
    console.log(`database ${(bytes / 1048576).toFixed(1)} MB (vis.db + WAL), ${rows} state rows, ${first.walFrames} WAL frames; medians of ${RUNS}`);
    console.log('| measurement | ms | ratio |');
    console.log('|---|---|---|');
    console.log(`| readState (state pages only, values decoded) | ${r.toFixed(1)} | 1 |`);
    console.log(`| baseline: read the database and WAL whole | ${w.toFixed(1)} | ${(r / w).toFixed(2)}× |`);
    console.log(`| baseline: JSON.parse of the ${values.length} values as JSON | ${j.toFixed(1)} | ${(r / j).toFixed(2)}× |`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
