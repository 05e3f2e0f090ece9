// A strictly read-only SQLite reader for Vis's `vis.db` (no `vscode` import, no native module).
//
// It reads the file bytes itself: no locks, no `-shm`/`-wal` ever created, no read transaction held
// open. Writes that are committed but still only in `vis.db-wal` are applied from the WAL (frames
// up to the last valid commit frame, with matching salts and checksums); a hot rollback journal
// (a writer mid-transaction in rollback mode) is undone in memory. Pages are read on demand, so a
// large database (sessions live in the same file) costs only the pages of the table we scan.
import { promises as fsp } from 'node:fs';

export type StateDbErrorCode = 'missing' | 'unreadable' | 'not-sqlite' | 'truncated' | 'corrupt' | 'busy' | 'no-table' | 'unsupported';

export class StateDbError extends Error {
  constructor(readonly code: StateDbErrorCode, message: string) {
    super(message);
  }
}

const SQLITE_MAGIC = 'SQLite format 3\u0000';
const JOURNAL_MAGIC = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7];

export interface Snapshot {
  readonly file: string;
  readonly pageSize: number;
  readonly usable: number;
  readonly pageCount: number;
  readonly textEncoding: number;
  /** Committed WAL frames applied on top of the file. */
  readonly walFrames: number;
  /** Pages restored from a hot rollback journal. */
  readonly journalPages: number;
  page(n: number): Promise<Uint8Array>;
  /** True when nothing changed on disk since the snapshot was taken (so what was read is consistent). */
  unchanged(): Promise<boolean>;
  close(): Promise<void>;
}

interface WalInfo {
  pageSize: number;
  frames: Map<number, Uint8Array>; // page -> latest committed image
  dbSize: number; // pages, from the last commit frame (0 = no commit)
  count: number;
}

/** Parses a WAL file: frames up to the last commit frame whose salts and running checksum are valid. */
export function parseWal(buf: Uint8Array | undefined): WalInfo | undefined {
  if (!buf || buf.length < 32) return undefined;
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const magic = dv.getUint32(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return undefined;
  const bigEndian = magic === 0x377f0683;
  const pageSize = dv.getUint32(8);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return undefined;
  const salt1 = dv.getUint32(16);
  const salt2 = dv.getUint32(20);
  let [s0, s1] = walChecksum(buf, 0, 24, bigEndian, 0, 0);
  if (s0 !== dv.getUint32(24) || s1 !== dv.getUint32(28)) return undefined;
  const pending = new Map<number, Uint8Array>();
  const frames = new Map<number, Uint8Array>();
  let dbSize = 0;
  let count = 0;
  let n = 0;
  for (let off = 32; off + 24 + pageSize <= buf.length; off += 24 + pageSize) {
    if (dv.getUint32(off + 8) !== salt1 || dv.getUint32(off + 12) !== salt2) break;
    [s0, s1] = walChecksum(buf, off, 8, bigEndian, s0, s1);
    [s0, s1] = walChecksum(buf, off + 24, pageSize, bigEndian, s0, s1);
    if (s0 !== dv.getUint32(off + 16) || s1 !== dv.getUint32(off + 20)) break;
    n++;
    pending.set(dv.getUint32(off), buf.subarray(off + 24, off + 24 + pageSize));
    const commit = dv.getUint32(off + 4);
    if (commit !== 0) {
      for (const [p, img] of pending) frames.set(p, img);
      pending.clear();
      dbSize = commit;
      count = n;
    }
  }
  return { pageSize, frames, dbSize, count };
}

function walChecksum(b: Uint8Array, at: number, len: number, bigEndian: boolean, s0: number, s1: number): [number, number] {
  const dv = new DataView(b.buffer, b.byteOffset + at, len);
  for (let i = 0; i < len; i += 8) {
    s0 = (s0 + dv.getUint32(i, !bigEndian) + s1) >>> 0;
    s1 = (s1 + dv.getUint32(i + 4, !bigEndian) + s0) >>> 0;
  }
  return [s0, s1];
}

interface JournalInfo {
  originals: Map<number, Uint8Array>;
  initialPages: number;
}

/** Parses a hot rollback journal: the original images of the pages a writer has changed. */
export function parseJournal(buf: Uint8Array | undefined, pageSizeHint: number): JournalInfo | undefined {
  if (!buf || buf.length < 28 || !JOURNAL_MAGIC.every((x, i) => buf[i] === x)) return undefined;
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const originals = new Map<number, Uint8Array>();
  let initialPages = -1;
  let hdr = 0;
  while (hdr + 28 <= buf.length && JOURNAL_MAGIC.every((x, i) => buf[hdr + i] === x)) {
    let nRec = dv.getUint32(hdr + 8);
    const nonce = dv.getUint32(hdr + 12);
    const origSize = dv.getUint32(hdr + 16);
    const sector = dv.getUint32(hdr + 20) || 512;
    const pageSize = dv.getUint32(hdr + 24) || pageSizeHint;
    if (initialPages < 0) initialPages = origSize;
    const recSize = pageSize + 8;
    let off = hdr + sector;
    if (nRec === 0xffffffff) nRec = Math.floor((buf.length - off) / recSize);
    let i = 0;
    for (; i < nRec && off + recSize <= buf.length; i++, off += recSize) {
      const pgno = dv.getUint32(off);
      const data = buf.subarray(off + 4, off + 4 + pageSize);
      let sum = nonce;
      for (let k = pageSize - 200; k > 0; k -= 200) sum = (sum + data[k]) >>> 0;
      if (sum !== dv.getUint32(off + 4 + pageSize) || pgno === 0) { i = -1; break; }
      if (!originals.has(pgno)) originals.set(pgno, data);
    }
    if (i < 0 || nRec === 0) break;
    hdr = Math.ceil(off / sector) * sector;
  }
  if (initialPages < 0) return undefined;
  return { originals, initialPages };
}

async function readIfExists(file: string): Promise<Uint8Array | undefined> {
  try {
    return await fsp.readFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

async function fingerprint(file: string): Promise<string> {
  const parts: string[] = [];
  for (const f of [file, `${file}-wal`, `${file}-journal`]) {
    try {
      const st = await fsp.stat(f);
      parts.push(`${st.size}:${st.mtimeMs}`);
      if (f !== file && st.size > 0) {
        const fh = await fsp.open(f, 'r');
        try {
          const head = Buffer.alloc(32);
          await fh.read(head, 0, 32, 0);
          parts.push(head.toString('hex'));
        } finally {
          await fh.close();
        }
      }
    } catch {
      parts.push('-');
    }
  }
  return parts.join('|');
}

function describeFsError(file: string, e: unknown): StateDbError {
  const err = e as NodeJS.ErrnoException;
  switch (err.code) {
    case 'ENOENT': return new StateDbError('missing', `There is no Vis database at ${file}.`);
    case 'EACCES': case 'EPERM': return new StateDbError('unreadable', `Cannot read ${file}: permission denied.`);
    case 'EBUSY': return new StateDbError('busy', `${file} is locked by another process (EBUSY); try again when Vis is idle.`);
    case 'EISDIR': return new StateDbError('unreadable', `${file} is a directory, not a database file.`);
    default: return new StateDbError('unreadable', `Cannot read ${file}: ${err.message ?? String(e)}`);
  }
}

/** Takes a read-only snapshot of a SQLite file plus its committed WAL frames or hot journal. */
export async function openSnapshot(file: string): Promise<Snapshot> {
  let fh: fsp.FileHandle;
  try {
    fh = await fsp.open(file, 'r');
  } catch (e) {
    throw describeFsError(file, e);
  }
  try {
    const before = await fingerprint(file);
    const fileSize = (await fh.stat()).size;
    const head = Buffer.alloc(100);
    const got = fileSize > 0 ? (await fh.read(head, 0, 100, 0)).bytesRead : 0;
    const walBuf = await readIfExists(`${file}-wal`).catch((e) => { throw describeFsError(`${file}-wal`, e); });
    const wal = parseWal(walBuf);
    const walCommitted = wal && wal.dbSize > 0 ? wal : undefined;

    let pageSize: number;
    let reserved = 0;
    let textEncoding = 1;
    let pageCount: number;
    let journal: JournalInfo | undefined;
    if (got === 0) {
      if (!walCommitted) {
        throw new StateDbError(fileSize === 0 ? 'corrupt' : 'truncated', `${file} is empty and its WAL holds no committed data.`);
      }
      pageSize = walCommitted.pageSize;
      pageCount = walCommitted.dbSize;
    } else {
      if (got < 100 || head.toString('latin1', 0, 16) !== SQLITE_MAGIC) {
        throw new StateDbError(got < 100 && head.toString('latin1', 0, Math.min(got, 16)) === SQLITE_MAGIC.slice(0, Math.min(got, 16)) ? 'truncated' : 'not-sqlite',
          got < 100 ? `${file} is only ${fileSize} bytes: not a complete SQLite database (truncated?).` : `${file} is not a SQLite database.`);
      }
      const raw = head.readUInt16BE(16);
      pageSize = raw === 1 ? 65536 : raw;
      if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) throw new StateDbError('corrupt', `${file} has an invalid page size (${raw}).`);
      reserved = head[20];
      textEncoding = head.readUInt32BE(56) || 1;
      const changeCounter = head.readUInt32BE(24);
      const inHeader = head.readUInt32BE(28);
      const headerValid = inHeader > 0 && changeCounter === head.readUInt32BE(92);
      pageCount = headerValid ? inHeader : Math.floor(fileSize / pageSize);
      const walMode = head[18] === 2 && head[19] === 2;
      if (walCommitted) {
        if (walCommitted.pageSize !== pageSize) throw new StateDbError('corrupt', `${file}-wal has page size ${walCommitted.pageSize}, the database ${pageSize}.`);
        pageCount = walCommitted.dbSize;
      } else if (!walMode) {
        journal = parseJournal(await readIfExists(`${file}-journal`).catch(() => undefined), pageSize);
        if (journal) pageCount = journal.initialPages;
      }
      if (!walCommitted && !journal && fileSize < pageCount * pageSize) {
        throw new StateDbError('truncated',
          `${file} is truncated: its header says ${pageCount} pages of ${pageSize} bytes (${pageCount * pageSize} bytes) but the file has ${fileSize} bytes.`);
      }
    }
    if (walCommitted && walCommitted.frames.has(1)) {
      const p1 = walCommitted.frames.get(1)!;
      reserved = p1[20];
      textEncoding = new DataView(p1.buffer, p1.byteOffset).getUint32(56) || 1;
    }
    const usable = pageSize - reserved;
    const handle = fh;
    const snap: Snapshot = {
      file, pageSize, usable, pageCount, textEncoding,
      walFrames: walCommitted?.count ?? 0,
      journalPages: journal?.originals.size ?? 0,
      async page(n: number): Promise<Uint8Array> {
        if (!Number.isInteger(n) || n < 1 || n > pageCount) throw new StateDbError('corrupt', `${file}: reference to page ${n}, outside 1..${pageCount}.`);
        const fromWal = walCommitted?.frames.get(n);
        if (fromWal) return fromWal;
        const original = journal?.originals.get(n);
        if (original) return original;
        const buf = Buffer.alloc(pageSize);
        const { bytesRead } = await handle.read(buf, 0, pageSize, (n - 1) * pageSize);
        if (bytesRead < pageSize) {
          throw new StateDbError('truncated', `${file} is truncated: page ${n} (bytes ${(n - 1) * pageSize}..${n * pageSize}) is past the end of the ${fileSize}-byte file.`);
        }
        return buf;
      },
      async unchanged(): Promise<boolean> {
        return (await fingerprint(file)) === before;
      },
      async close(): Promise<void> {
        await handle.close();
      },
    };
    return snap;
  } catch (e) {
    await fh.close();
    throw e;
  }
}

// ---- B-tree and record reading --------------------------------------------------------------

export type SqlValue = null | number | bigint | string | Uint8Array;

function varint(b: Uint8Array, at: number): [bigint | number, number] {
  let v = 0n;
  for (let i = 0; i < 8; i++) {
    const x = b[at + i];
    if (x === undefined) throw new StateDbError('corrupt', 'varint runs past the end of a page');
    v = (v << 7n) | BigInt(x & 0x7f);
    if (!(x & 0x80)) return [small(v), i + 1];
  }
  v = (v << 8n) | BigInt(b[at + 8]);
  return [small(BigInt.asIntN(64, v)), 9];
}
function small(v: bigint): number | bigint {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}
function num(v: number | bigint): number {
  if (typeof v === 'bigint') throw new StateDbError('corrupt', 'size field out of range');
  return v;
}

/** Visits every row of the table B-tree rooted at `root`: (rowid, record payload). */
export async function* scanTable(snap: Snapshot, root: number): AsyncGenerator<[number | bigint, Uint8Array]> {
  const seen = new Set<number>();
  const stack = [root];
  while (stack.length) {
    const pgno = stack.pop()!;
    if (seen.has(pgno)) throw new StateDbError('corrupt', `${snap.file}: the B-tree visits page ${pgno} twice.`);
    seen.add(pgno);
    const page = await snap.page(pgno);
    const h = pgno === 1 ? 100 : 0;
    const dv = new DataView(page.buffer, page.byteOffset, page.byteLength);
    const type = page[h];
    const cells = dv.getUint16(h + 3);
    if (type === 0x05) {
      const children: number[] = [];
      for (let i = 0; i < cells; i++) children.push(dv.getUint32(dv.getUint16(h + 12 + 2 * i)));
      children.push(dv.getUint32(h + 8));
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    } else if (type === 0x0d) {
      for (let i = 0; i < cells; i++) {
        let at = dv.getUint16(h + 8 + 2 * i);
        if (at >= page.length) throw new StateDbError('corrupt', `${snap.file}: cell pointer out of page ${pgno}.`);
        const [size, a] = varint(page, at); at += a;
        const [rowid, b] = varint(page, at); at += b;
        yield [rowid, await payload(snap, page, at, num(size))];
      }
    } else if (type === 0x02 || type === 0x0a) {
      throw new StateDbError('unsupported', `${snap.file}: page ${pgno} is an index page where a table was expected (WITHOUT ROWID table?).`);
    } else {
      throw new StateDbError('corrupt', `${snap.file}: page ${pgno} is not a B-tree page (type ${type}).`);
    }
  }
}

async function payload(snap: Snapshot, page: Uint8Array, at: number, size: number): Promise<Uint8Array> {
  const U = snap.usable;
  const X = U - 35;
  if (size <= X) return page.subarray(at, at + size);
  const M = Math.floor(((U - 12) * 32) / 255) - 23;
  const K = M + ((size - M) % (U - 4));
  const local = K <= X ? K : M;
  const out = new Uint8Array(size);
  out.set(page.subarray(at, at + local), 0);
  let filled = local;
  let next = new DataView(page.buffer, page.byteOffset).getUint32(at + local);
  const seen = new Set<number>();
  while (filled < size) {
    if (next === 0 || seen.has(next)) throw new StateDbError('corrupt', `${snap.file}: broken overflow chain.`);
    seen.add(next);
    const ov = await snap.page(next);
    const take = Math.min(U - 4, size - filled);
    out.set(ov.subarray(4, 4 + take), filled);
    filled += take;
    next = new DataView(ov.buffer, ov.byteOffset).getUint32(0);
  }
  return out;
}

/** Decodes a record into its stored column values. */
export function decodeRecord(rec: Uint8Array, textEncoding: number): SqlValue[] {
  const [hlen, a] = varint(rec, 0);
  const headerEnd = num(hlen);
  let hp = a;
  let bp = headerEnd;
  const out: SqlValue[] = [];
  const dv = new DataView(rec.buffer, rec.byteOffset, rec.byteLength);
  const text = new TextDecoder(textEncoding === 2 ? 'utf-16le' : textEncoding === 3 ? 'utf-16be' : 'utf-8');
  while (hp < headerEnd) {
    const [stRaw, n] = varint(rec, hp);
    hp += n;
    const st = num(stRaw);
    const need = (k: number) => { if (bp + k > rec.length) throw new StateDbError('corrupt', 'record body is shorter than its header says'); };
    switch (st) {
      case 0: out.push(null); break;
      case 1: need(1); out.push(dv.getInt8(bp)); bp += 1; break;
      case 2: need(2); out.push(dv.getInt16(bp)); bp += 2; break;
      case 3: need(3); out.push((dv.getInt8(bp) << 16) | dv.getUint16(bp + 1)); bp += 3; break;
      case 4: need(4); out.push(dv.getInt32(bp)); bp += 4; break;
      case 5: need(6); out.push(dv.getInt16(bp) * 2 ** 32 + dv.getUint32(bp + 2)); bp += 6; break;
      case 6: need(8); out.push(small(dv.getBigInt64(bp))); bp += 8; break;
      case 7: need(8); out.push(dv.getFloat64(bp)); bp += 8; break;
      case 8: out.push(0); break;
      case 9: out.push(1); break;
      default: {
        if (st < 12) throw new StateDbError('corrupt', `reserved serial type ${st} in a record`);
        const len = st % 2 === 0 ? (st - 12) / 2 : (st - 13) / 2;
        need(len);
        const body = rec.subarray(bp, bp + len);
        out.push(st % 2 === 0 ? body.slice() : text.decode(body));
        bp += len;
      }
    }
  }
  return out;
}

export interface TableColumn {
  name: string;
  /** Not stored in the record (a VIRTUAL generated column). */
  virtual: boolean;
  /** INTEGER PRIMARY KEY: the value is the rowid. */
  rowidAlias: boolean;
}

export interface TableInfo {
  name: string;
  root: number;
  sql: string;
  columns: TableColumn[];
}

/** Finds a table in sqlite_schema and the stored layout of its columns. */
export async function findTable(snap: Snapshot, name: string): Promise<TableInfo | undefined> {
  for await (const [, rec] of scanTable(snap, 1)) {
    const [type, tname, , root, sql] = decodeRecord(rec, snap.textEncoding);
    if (type === 'table' && typeof tname === 'string' && tname.toLowerCase() === name.toLowerCase()) {
      if (typeof sql !== 'string' || typeof root !== 'number') throw new StateDbError('corrupt', `${snap.file}: bad schema row for ${name}.`);
      if (/\)\s*WITHOUT\s+ROWID\s*;?\s*$/i.test(sql)) throw new StateDbError('unsupported', `${name} is a WITHOUT ROWID table.`);
      return { name: tname, root, sql, columns: parseColumns(sql) };
    }
  }
  return undefined;
}

/** Column definitions from a CREATE TABLE statement (table constraints skipped). */
export function parseColumns(sql: string): TableColumn[] {
  const open = sql.indexOf('(');
  if (open < 0) return [];
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  let quote = '';
  for (let i = open + 1; i < sql.length; i++) {
    const c = sql[i];
    if (quote) {
      cur += c;
      if (c === quote) quote = '';
      continue;
    }
    if (c === "'" || c === '"' || c === '`') { quote = c; cur += c; continue; }
    if (c === '[') { quote = ']'; cur += c; continue; }
    if (c === '-' && sql[i + 1] === '-') { while (i < sql.length && sql[i] !== '\n') i++; continue; }
    if (c === '(') depth++;
    if (c === ')') {
      if (depth === 0) { parts.push(cur); break; }
      depth--;
    }
    if (c === ',' && depth === 0) { parts.push(cur); cur = ''; continue; }
    cur += c;
  }
  const cols: TableColumn[] = [];
  for (const raw of parts) {
    const def = raw.trim();
    if (!def) continue;
    if (/^(CONSTRAINT|PRIMARY\s+KEY|UNIQUE|CHECK|FOREIGN\s+KEY)\b/i.test(def)) continue;
    const m = /^("(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\]|'(?:[^']|'')*'|\S+)\s*([\s\S]*)$/.exec(def);
    if (!m) continue;
    let name = m[1];
    if (/^["`'[]/.test(name)) name = name.slice(1, -1).replace(/""/g, '"').replace(/''/g, "'");
    const rest = m[2];
    const bare = rest.replace(/'(?:[^']|'')*'/g, "''");
    const generated = /\bAS\s*\(/i.test(bare);
    const virtual = generated && !/\bSTORED\b/i.test(bare.slice(bare.lastIndexOf(')')));
    const rowidAlias = /^INTEGER\b/i.test(bare.trim()) && /\bPRIMARY\s+KEY\b/i.test(bare) && !/\bDESC\b/i.test(bare);
    cols.push({ name, virtual, rowidAlias });
  }
  return cols;
}

/** Reads every row of a table as { column: value } objects (VIRTUAL generated columns are absent). */
export async function readRows(snap: Snapshot, table: TableInfo, want?: Set<string>): Promise<Record<string, SqlValue>[]> {
  const stored = table.columns.filter((c) => !c.virtual);
  const rows: Record<string, SqlValue>[] = [];
  for await (const [rowid, rec] of scanTable(snap, table.root)) {
    const values = decodeRecord(rec, snap.textEncoding);
    const row: Record<string, SqlValue> = {};
    stored.forEach((c, i) => {
      if (want && !want.has(c.name)) return;
      // Columns added by ALTER TABLE after the row was written are missing from its record: NULL.
      row[c.name] = c.rowidAlias ? rowid : (values[i] ?? null);
    });
    rows.push(row);
  }
  return rows;
}
