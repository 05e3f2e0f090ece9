// Real SQLite for tests and the fuzz suite: python3's sqlite3 module, driven by real_sqlite.py.
// It builds WAL-mode vis.db files the way a running Vis leaves them and reads copies of them back.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { Damaged, RowValue } from '../../client/src/host/sqlite';

const SCRIPT = path.join(__dirname, 'real_sqlite.py');
export const BLOBS = path.join(__dirname, '..', 'fixtures', 'state', 'blobs');

export const SCENARIOS = [
  'wal-4096', 'wal-512', 'wal-65536', 'checkpointed', 'generations', 'partial-checkpoint', 'partial-frame',
  'utf16', 'auto-vacuum', 'shapes', 'hot-journal',
] as const;
/** Small databases for the fuzz suite's corruption bases. */
export const SMALL_SCENARIOS = ['small-wal', 'small-plain', 'small-journal'] as const;
export type Scenario = (typeof SCENARIOS)[number] | (typeof SMALL_SCENARIOS)[number] | 'large';

function python(args: string[]): string {
  const r = spawnSync('python3', [SCRIPT, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.error) throw new Error(`python3 (with its sqlite3 module) is needed for this test: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`real_sqlite.py ${args[0]} ${args[1]} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

/** Builds a scenario's vis.db (+ -wal or -journal) in `dir` with real SQLite. */
export function buildDatabase(scenario: Scenario, dir: string, seed = 1): void {
  python(['build', scenario, dir, BLOBS, String(seed)]);
}

type Tagged = null | { i: string } | { f: string } | { s: string } | { b: string };
export interface RealDump {
  tables: Record<string, Record<string, unknown>[]>;
  /** State rows as SQLite's own query returns them: [extension_id, aggregate_key, content hex | null, updated_at]. */
  state: [string, string, string | null, number][];
}

/** Every table's rows (rowid order, stored columns) as real SQLite reads a copy of `file`. */
export function dumpDatabase(file: string): RealDump {
  const raw = JSON.parse(python(['dump', file])) as Record<string, unknown>;
  const tables: RealDump['tables'] = {};
  for (const [name, rows] of Object.entries(raw)) {
    if (name === '#state') continue;
    tables[name] = (rows as [string, Record<string, Tagged>][]).map(([, cols]) =>
      Object.fromEntries(Object.entries(cols).map(([c, v]) => [c, fromPython(v)])));
  }
  return { tables, state: raw['#state'] as RealDump['state'] };
}

/** A comparable form of a value: numbers by their text (1 and 1.0 are one number in JS), blobs as hex. */
export function comparable(v: RowValue): unknown {
  if (v === null) return null;
  if (v instanceof Damaged) return { damaged: v.reason };
  if (typeof v === 'number' || typeof v === 'bigint') return { n: String(v) };
  if (typeof v === 'string') return { s: v };
  return { b: Buffer.from(v).toString('hex') };
}

function fromPython(v: Tagged): unknown {
  if (v === null) return null;
  if ('i' in v) {
    const b = BigInt(v.i);
    return { n: b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? String(Number(b)) : b.toString() };
  }
  if ('f' in v) return { n: String(v.f === 'inf' ? Infinity : v.f === '-inf' ? -Infinity : Number(v.f)) };
  if ('s' in v) return { s: v.s };
  return { b: v.b };
}

export interface Layout {
  pageSize: number;
  pageCount: number;
  roots: Record<string, number>;
  /** [table or index, page number, 'internal' | 'leaf' | 'overflow', cells, dbstat path] */
  pages: [string, number, string, number, string][];
}

/** The page layout of a database (SQLite's dbstat, on a copy). */
export function layoutOf(file: string): Layout {
  return JSON.parse(python(['layout', file])) as Layout;
}
