// Corrupt vis.db files: databases real SQLite wrote (a WAL with two generations, a plain file, a
// hot rollback journal, and the committed fixtures), damaged one to three ways per case: cut
// short, random bytes in a page, header fields, B-tree pages (cell counts, cell and child pointers,
// page-number cycles, huge varints), overflow chains (loops, past the end, cut), WAL frames with
// bad checksums, and WAL frames re-checksummed so that damaged pages count as committed.
// The state read must end in state or a StateDbError, write nothing, and render every value.
import fs from 'node:fs';
import path from 'node:path';
import { describeMillis } from '../../client/src/host/instant';
import { StateDbError, walChecksum } from '../../client/src/host/sqlite';
import { readState } from '../../client/src/host/state';
import { preview, toJson } from '../../client/src/host/valueText';
import { Layout, SMALL_SCENARIOS, buildDatabase, layoutOf } from '../../test/helpers/realSqlite';
import type { Rng } from '../rng';
import type { FuzzTarget } from '../target';

interface Base {
  name: string;
  db: Buffer;
  side?: { suffix: '-wal' | '-journal'; bytes: Buffer };
  pageSize: number;
  layout?: Layout;
}
interface Ctx { bases: Base[]; dir: string }

const FIXTURES = path.join(__dirname, '..', '..', 'test', 'fixtures', 'state', 'db');

function load(dir: string, name: string, layout?: Layout): Base {
  const db = fs.readFileSync(path.join(dir, 'vis.db'));
  const suffix = fs.existsSync(path.join(dir, 'vis.db-wal')) ? '-wal' : fs.existsSync(path.join(dir, 'vis.db-journal')) ? '-journal' : undefined;
  const pageSize = db.readUInt16BE(16) === 1 ? 65536 : db.readUInt16BE(16);
  return { name, db, side: suffix ? { suffix, bytes: fs.readFileSync(path.join(dir, `vis.db${suffix}`)) } : undefined, pageSize, layout };
}

const u32 = (b: Buffer, at: number, v: number) => { if (at >= 0 && at + 4 <= b.length) b.writeUInt32BE(v >>> 0, at); };
const u16 = (b: Buffer, at: number, v: number) => { if (at >= 0 && at + 2 <= b.length) b.writeUInt16BE(v & 0xffff, at); };

const EXTREMES = [0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff, 0xffff, 0x7fffffff, 0xffffffff];

type Mutation = (b: Base, f: { db: Buffer; side?: Buffer }, rng: Rng) => void;

const mutations: Mutation[] = [
  // cut short
  (_b, f, rng) => { f.db = f.db.subarray(0, rng.int(f.db.length)); },
  (_b, f, rng) => { if (f.side) f.side = f.side.subarray(0, rng.int(f.side.length)); },
  // random bytes in one page
  (b, f, rng) => {
    const pages = Math.max(1, Math.floor(f.db.length / b.pageSize));
    const at = rng.int(pages) * b.pageSize;
    for (let k = rng.range(1, 16); k > 0; k--) { const o = at + rng.int(b.pageSize); if (o < f.db.length) f.db[o] = rng.int(256); }
  },
  // a header field
  (_b, f, rng) => {
    const field = rng.pick([16, 18, 19, 20, 21, 24, 28, 32, 36, 44, 52, 56, 92, 96]);
    if (rng.chance(0.5)) f.db[field] = rng.pick(EXTREMES) & 0xff;
    else u32(f.db, field, rng.chance(0.5) ? rng.pick(EXTREMES) : rng.int(2 ** 32));
  },
  // a B-tree or overflow page, where the layout says it is (its latest image: in the WAL, re-checksummed, or in vis.db)
  (b, f, rng) => structural(b, f, rng),
  (b, f, rng) => structural(b, f, rng),
  (b, f, rng) => structural(b, f, rng),
  // a WAL frame with a bad checksum, or re-checksummed damage that counts as committed
  (b, f, rng) => {
    if (!f.side || b.side?.suffix !== '-wal' || f.side.length < 32 + 24 + b.pageSize) return;
    const w = f.side = Buffer.from(f.side);
    const frameSize = 24 + b.pageSize;
    const frames = Math.floor((w.length - 32) / frameSize);
    const k = rng.int(frames);
    const at = 32 + k * frameSize;
    const what = rng.int(4);
    if (what === 0) { w[at + 24 + rng.int(b.pageSize)] ^= 1 << rng.int(8); return; }
    if (what === 1) u32(w, at, rng.pick([0, 1, rng.range(1, 5000), 0xffffffff])); // page number
    else if (what === 2) u32(w, at + 4, rng.pick([0, 1, rng.range(1, 5000), 0x7fffffff])); // commit size
    else for (let n = rng.range(1, 12); n > 0; n--) w[at + 24 + rng.int(b.pageSize)] = rng.int(256);
    rechecksum(w, k, b.pageSize);
  },
  // journal bytes
  (_b, f, rng) => {
    if (!f.side) return;
    f.side = Buffer.from(f.side);
    for (let k = rng.range(1, 8); k > 0; k--) f.side[rng.int(f.side.length)] = rng.int(256);
  },
];

function structural(b: Base, f: { db: Buffer; side?: Buffer }, rng: Rng): void {
  if (!b.layout) return;
  const layout = b.layout;
  const wanted = layout.pages.filter((p) => p[0] === 'extension_aggregate' || p[0] === 'sqlite_schema');
  const [, pgno, type] = rng.pick(rng.chance(0.8) && wanted.length ? wanted : layout.pages);
  // Where the page's latest image is: the last frame for it in the WAL's current generation, else vis.db.
  let buf = f.db;
  let at = (pgno - 1) * b.pageSize;
  let frame = -1;
  if (f.side && b.side?.suffix === '-wal' && f.side.length >= 32) {
    const salt = f.side.readUInt32BE(16);
    const frameSize = 24 + b.pageSize;
    for (let k = 0, o = 32; o + frameSize <= f.side.length; k++, o += frameSize) {
      if (f.side.readUInt32BE(o + 8) !== salt) break;
      if (f.side.readUInt32BE(o) === pgno) frame = k;
    }
    if (frame >= 0) {
      buf = f.side = Buffer.from(f.side);
      at = 32 + frame * frameSize + 24;
    }
  }
  const h = at + (pgno === 1 ? 100 : 0);
  const somePage = () => rng.pick([pgno, 1, layout.roots.extension_aggregate ?? 2, 0, layout.pageCount + rng.range(1, 100), rng.range(1, layout.pageCount), 0xffffffff]);
  const cells = buf.length >= h + 5 ? buf.readUInt16BE(h + 3) : 0;
  const headerSize = type === 'internal' ? 12 : 8;
  const cell = cells ? rng.int(cells) : 0;
  const cellPtr = h + headerSize + 2 * cell;
  const cellAt = buf.length >= cellPtr + 2 ? at + buf.readUInt16BE(cellPtr) : at;
  if (type === 'overflow') u32(buf, at, somePage());
  else {
    switch (rng.int(7)) {
      case 0: u16(buf, h + 3, rng.pick(EXTREMES)); break;
      case 1: u16(buf, cellPtr, rng.chance(0.5) ? rng.pick(EXTREMES) : rng.int(b.pageSize + 100)); break;
      case 2: if (type === 'internal') u32(buf, rng.chance(0.5) ? h + 8 : cellAt, somePage()); else u16(buf, h + 5, rng.pick(EXTREMES)); break;
      case 3: { // a huge varint where a cell starts
        const v = rng.pick([[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], [0x87, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f], [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01], [0x81, 0x80, 0x80, 0x80, 0x00]]);
        v.forEach((x, k) => { if (cellAt + k < buf.length) buf[cellAt + k] = x; });
        break;
      }
      case 4: { // another page's image over this one
        const [, other] = rng.pick(layout.pages);
        Buffer.from(f.db.subarray((other - 1) * b.pageSize, other * b.pageSize)).copy(buf, at);
        break;
      }
      case 5: for (let n = rng.range(1, 8); n > 0; n--) { const o = cellAt + rng.int(40); if (o < buf.length) buf[o] = rng.int(256); } break;
      default: buf[h] = rng.pick([0, 2, 5, 10, 13, 0xff]);
    }
  }
  if (frame >= 0) rechecksum(f.side!, frame, b.pageSize);
}

/** Makes frames k.. of a WAL valid again after a change (salts kept, checksums chained on). */
function rechecksum(w: Buffer, from: number, pageSize: number): void {
  const big = w.readUInt32BE(0) === 0x377f0683;
  let [s0, s1] = walChecksum(w, 0, 24, big, 0, 0);
  const frameSize = 24 + pageSize;
  for (let k = 0, at = 32; at + frameSize <= w.length; k++, at += frameSize) {
    [s0, s1] = walChecksum(w, at, 8, big, s0, s1);
    [s0, s1] = walChecksum(w, at + 24, pageSize, big, s0, s1);
    if (k >= from) { w.writeUInt32BE(s0, at + 16); w.writeUInt32BE(s1, at + 20); }
    else if (w.readUInt32BE(at + 16) !== s0 || w.readUInt32BE(at + 20) !== s1) return; // the valid log ended before the change
  }
}

const target: FuzzTarget<Ctx> = {
  name: 'db',
  about: 'corrupt vis.db files (and their -wal / -journal) through the state reader',
  count: 3000,
  quickCount: 100,
  slowMs: 1000,
  hangMs: 10000,
  rssLimitMb: 1024,
  async setup(work) {
    const bases: Base[] = [];
    for (const scenario of SMALL_SCENARIOS) {
      const d = path.join(work, `base-${scenario}`);
      buildDatabase(scenario, d, 7);
      bases.push(load(d, scenario, layoutOf(path.join(d, 'vis.db'))));
    }
    for (const name of fs.readdirSync(FIXTURES)) bases.push(load(path.join(FIXTURES, name), `fixture-${name}`, layoutOf(path.join(FIXTURES, name, 'vis.db'))));
    const dir = path.join(work, 'case');
    fs.mkdirSync(dir);
    return { bases, dir };
  },
  async run(ctx, rng) {
    const base = rng.pick(ctx.bases);
    const f = { db: Buffer.from(base.db), side: base.side ? Buffer.from(base.side.bytes) : undefined };
    for (let n = rng.range(1, 3); n > 0; n--) rng.pick(mutations)(base, f, rng);
    for (const x of fs.readdirSync(ctx.dir)) fs.rmSync(path.join(ctx.dir, x));
    const file = path.join(ctx.dir, 'vis.db');
    fs.writeFileSync(file, f.db);
    if (f.side && base.side) fs.writeFileSync(`${file}${base.side.suffix}`, f.side);
    const before = listing(ctx.dir);
    let outcome: string;
    let finding: string | undefined;
    try {
      const s = await readState(file, 1);
      for (const e of s.extensions) {
        for (const x of e.entries) {
          if (x.updatedAt !== undefined) describeMillis(x.updatedAt);
          if (x.error) continue;
          preview(x.value!, 60);
          toJson(x.value!);
        }
      }
      outcome = s.unreadable.length ? 'state read, some rows unreadable' : 'state read';
    } catch (e) {
      if (!(e instanceof StateDbError) || !e.message) throw e;
      outcome = `file refused: ${e.code}`;
    }
    if (listing(ctx.dir) !== before) finding = `the read changed the files: ${before} -> ${listing(ctx.dir)}`;
    return { outcome, finding };
  },
};
export default target;

function listing(dir: string): string {
  return fs.readdirSync(dir).sort().map((x) => { const st = fs.statSync(path.join(dir, x)); return `${x}:${st.size}:${st.mtimeMs}`; }).join(',');
}
