// A strictly read-only SQLite reader for Vis's `vis.db` (no `vscode` import, no native module).
//
// It reads the file bytes itself: no locks, no `-shm`/`-wal` ever created, no read transaction held
// open. Writes that are committed but still only in `vis.db-wal` are applied from the WAL (frames
// up to the last valid commit frame, with matching salts and checksums); a hot rollback journal
// (a writer mid-transaction in rollback mode) is undone in memory. Pages are read on demand, so a
// large database (sessions live in the same file) costs only the pages of the table we scan; the
// WAL and the journal are scanned in bounded chunks and only their frame offsets are kept.
//
// Every structure read from disk is checked before it is used: a corrupt file gives a StateDbError
// that names the page and what is wrong with it, never a raw exception, a hang or an allocation that
// the file's own size does not justify. A value whose bytes are damaged (a broken overflow chain, a
// record cut short) is a `Damaged` column: the other columns and rows still read.
import { constants, promises as fsp } from 'node:fs';
import { t } from '../l10n';

export type StateDbErrorCode = 'missing' | 'unreadable' | 'not-sqlite' | 'truncated' | 'corrupt' | 'busy' | 'no-table' | 'unsupported';

export class StateDbError extends Error {
  constructor(readonly code: StateDbErrorCode, message: string) {
    super(message);
  }
}

const SQLITE_MAGIC = 'SQLite format 3\u0000';
const JOURNAL_MAGIC = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7];
const WAL_VERSION = 3007000;
/** The WAL and the journal are scanned this many bytes at a time. */
const CHUNK = 1 << 20;

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

/** Where a page image lives in the WAL or the journal: a byte offset into that file. */
interface FrameIndex {
  pageSize: number;
  /** page -> offset of its latest committed image */
  frames: Map<number, number>;
  /** Pages, from the last commit frame (0 = no commit). */
  dbSize: number;
  /** Valid frames up to and including the last commit. */
  count: number;
}

interface JournalIndex {
  /** page -> offset of its original image */
  originals: Map<number, number>;
  initialPages: number;
}

/** A file opened for reading: regular files only, never blocking (a FIFO is refused at once). */
interface OpenFile {
  fh: fsp.FileHandle;
  size: number;
  read(off: number, len: number): Promise<Uint8Array>;
}

async function openRegular(file: string, optional: boolean): Promise<OpenFile | undefined> {
  let fh: fsp.FileHandle;
  try {
    fh = await fsp.open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    if (optional && (e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw describeFsError(file, e);
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) {
      throw new StateDbError('unreadable', st.isDirectory() ? t('{0} is a directory, not a database file.', file) : t('{0} is not a regular file (a pipe, socket or device); it is not read.', file));
    }
    const size = st.size;
    return {
      fh, size,
      async read(off: number, len: number): Promise<Uint8Array> {
        const n = Math.max(0, Math.min(len, size - off));
        const buf = Buffer.alloc(n);
        let got = 0;
        while (got < n) {
          const { bytesRead } = await fh.read(buf, got, n - got, off + got);
          if (bytesRead === 0) break;
          got += bytesRead;
        }
        return got === n ? buf : buf.subarray(0, got);
      },
    };
  } catch (e) {
    await fh.close();
    throw e instanceof StateDbError ? e : describeFsError(file, e);
  }
}

const u32 = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
const u16 = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];

/** Scans a WAL: frames up to the last commit frame whose salts and running checksum are valid (SQLite's recovery). */
async function indexWal(wal: OpenFile, file: string): Promise<FrameIndex | undefined> {
  if (wal.size < 32) return undefined;
  const head = await wal.read(0, 32);
  const magic = u32(head, 0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return undefined;
  const bigEndian = magic === 0x377f0683;
  const pageSize = u32(head, 8);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return undefined;
  let [s0, s1] = walChecksum(head, 0, 24, bigEndian, 0, 0);
  if (s0 !== u32(head, 24) || s1 !== u32(head, 28)) return undefined;
  if (u32(head, 4) !== WAL_VERSION) throw new StateDbError('unsupported', t('{0}-wal has WAL format version {1}; this reader knows {2}.', file, u32(head, 4), WAL_VERSION));
  const salt1 = u32(head, 16);
  const salt2 = u32(head, 20);
  const frameSize = 24 + pageSize;
  const perChunk = Math.max(1, Math.floor(CHUNK / frameSize));
  const pending = new Map<number, number>();
  const frames = new Map<number, number>();
  let dbSize = 0;
  let count = 0;
  let n = 0;
  scan: for (let off = 32; off + frameSize <= wal.size; off += perChunk * frameSize) {
    const chunk = await wal.read(off, perChunk * frameSize);
    for (let at = 0; at + frameSize <= chunk.length; at += frameSize) {
      const pgno = u32(chunk, at);
      if (pgno === 0 || u32(chunk, at + 8) !== salt1 || u32(chunk, at + 12) !== salt2) break scan;
      [s0, s1] = walChecksum(chunk, at, 8, bigEndian, s0, s1);
      [s0, s1] = walChecksum(chunk, at + 24, pageSize, bigEndian, s0, s1);
      if (s0 !== u32(chunk, at + 16) || s1 !== u32(chunk, at + 20)) break scan;
      n++;
      pending.set(pgno, off + at + 24);
      const commit = u32(chunk, at + 4);
      if (commit !== 0) {
        for (const [p, o] of pending) frames.set(p, o);
        pending.clear();
        dbSize = commit;
        count = n;
      }
    }
  }
  return { pageSize, frames, dbSize, count };
}

/** SQLite's WAL checksum of `len` bytes at `at`, continuing from (s0, s1). */
export function walChecksum(b: Uint8Array, at: number, len: number, bigEndian: boolean, s0: number, s1: number): [number, number] {
  const dv = new DataView(b.buffer, b.byteOffset + at, len);
  for (let i = 0; i < len; i += 8) {
    s0 = (s0 + dv.getUint32(i, !bigEndian) + s1) >>> 0;
    s1 = (s1 + dv.getUint32(i + 4, !bigEndian) + s0) >>> 0;
  }
  return [s0, s1];
}

/** Scans a hot rollback journal: where the original images of the pages a writer has changed are. */
async function indexJournal(j: OpenFile, pageSize: number): Promise<JournalIndex | undefined> {
  const isMagic = (b: Uint8Array) => JOURNAL_MAGIC.every((x, i) => b[i] === x);
  const originals = new Map<number, number>();
  let initialPages = -1;
  let hdr = 0;
  for (;;) {
    if (hdr + 28 > j.size) break;
    const h = await j.read(hdr, 28);
    if (!isMagic(h)) break;
    let nRec = u32(h, 8);
    const nonce = u32(h, 12);
    const origSize = u32(h, 16);
    const sector = u32(h, 20);
    const jPageSize = u32(h, 24);
    // SQLite refuses a journal whose sector or page size is not a power of two in range.
    if (sector < 32 || sector > 65536 || (sector & (sector - 1)) !== 0 || jPageSize !== pageSize) break;
    if (initialPages < 0) initialPages = origSize;
    const recSize = pageSize + 8;
    let off = hdr + sector;
    if (nRec === 0xffffffff) nRec = Math.floor((j.size - off) / recSize);
    let ok = true;
    let i = 0;
    while (ok && i < nRec && off + recSize <= j.size) {
      const batch = Math.min(nRec - i, Math.max(1, Math.floor(CHUNK / recSize)), Math.floor((j.size - off) / recSize));
      const chunk = await j.read(off, batch * recSize);
      for (let k = 0; k < batch; k++, i++, off += recSize) {
        const at = k * recSize;
        const pgno = u32(chunk, at);
        let sum = nonce;
        for (let x = pageSize - 200; x > 0; x -= 200) sum = (sum + chunk[at + 4 + x]) >>> 0;
        if (sum !== u32(chunk, at + 4 + pageSize) || pgno === 0) { ok = false; break; }
        if (!originals.has(pgno)) originals.set(pgno, off + 4);
      }
    }
    if (!ok || nRec === 0) break;
    hdr = Math.ceil(off / sector) * sector;
  }
  if (initialPages < 0) return undefined;
  return { originals, initialPages };
}

async function fingerprint(file: string): Promise<string> {
  const parts: string[] = [];
  for (const f of [file, `${file}-wal`, `${file}-journal`]) {
    try {
      const st = await fsp.stat(f);
      parts.push(`${st.size}:${st.mtimeMs}:${st.ino}`);
      if (f !== file && st.size > 0 && st.isFile()) {
        const o = await openRegular(f, true);
        if (o) {
          try {
            parts.push(Buffer.from(await o.read(0, 32)).toString('hex'));
          } finally {
            await o.fh.close();
          }
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
    case 'ENOENT': return new StateDbError('missing', t('There is no Vis database at {0}.', file));
    case 'EACCES': case 'EPERM': return new StateDbError('unreadable', t('Cannot read {0}: permission denied.', file));
    case 'EBUSY': return new StateDbError('busy', t('{0} is locked by another process (EBUSY); try again when Vis is idle.', file));
    case 'EISDIR': return new StateDbError('unreadable', t('{0} is a directory, not a database file.', file));
    case 'ELOOP': return new StateDbError('unreadable', t('Cannot read {0}: too many levels of symbolic links (a symlink loop).', file));
    default: return new StateDbError('unreadable', t('Cannot read {0}: {1}', file, err.message ?? String(e)));
  }
}

/** Takes a read-only snapshot of a SQLite file plus its committed WAL frames or hot journal. */
export async function openSnapshot(file: string): Promise<Snapshot> {
  const db = (await openRegular(file, false))!;
  const extra: OpenFile[] = [];
  const closeAll = async () => { for (const o of [db, ...extra]) await o.fh.close().catch(() => undefined); };
  try {
    const before = await fingerprint(file);
    const fileSize = db.size;
    const head = await db.read(0, 100);
    const got = head.length;
    const walFile = await openRegular(`${file}-wal`, true);
    if (walFile) extra.push(walFile);
    const wal = walFile ? await indexWal(walFile, file) : undefined;
    const walCommitted = wal && wal.dbSize > 0 ? wal : undefined;

    let pageSize: number;
    let reserved = 0;
    let textEncoding = 1;
    let pageCount: number;
    let journal: JournalIndex | undefined;
    let journalFile: OpenFile | undefined;
    if (got === 0) {
      if (!walCommitted) {
        throw new StateDbError(fileSize === 0 ? 'corrupt' : 'truncated', t('{0} is empty and its WAL holds no committed data.', file));
      }
      pageSize = walCommitted.pageSize;
      pageCount = walCommitted.dbSize;
    } else {
      const magic = Buffer.from(head.subarray(0, 16)).toString('latin1');
      if (got < 100 || magic !== SQLITE_MAGIC) {
        throw got < 100 && SQLITE_MAGIC.startsWith(magic)
          ? new StateDbError('truncated', t('{0} is only {1} bytes: not a complete SQLite database (truncated?).', file, fileSize))
          : new StateDbError('not-sqlite', t('{0} is not a SQLite database.', file));
      }
      const raw = u16(head, 16);
      pageSize = raw === 1 ? 65536 : raw;
      if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) throw new StateDbError('corrupt', t('{0} has an invalid page size ({1}).', file, raw));
      reserved = head[20];
      textEncoding = u32(head, 56) || 1;
      const changeCounter = u32(head, 24);
      const inHeader = u32(head, 28);
      const headerValid = inHeader > 0 && changeCounter === u32(head, 92);
      pageCount = headerValid ? inHeader : Math.floor(fileSize / pageSize);
      const walMode = head[18] === 2 && head[19] === 2;
      if (walCommitted) {
        if (walCommitted.pageSize !== pageSize) throw new StateDbError('corrupt', t('{0}-wal has page size {1}, the database {2}.', file, walCommitted.pageSize, pageSize));
        pageCount = walCommitted.dbSize;
      } else if (!walMode) {
        journalFile = await openRegular(`${file}-journal`, true).catch(() => undefined);
        if (journalFile) {
          extra.push(journalFile);
          journal = await indexJournal(journalFile, pageSize);
          if (journal) pageCount = journal.initialPages;
        }
      }
      if (!walCommitted && !journal && fileSize < pageCount * pageSize) {
        throw new StateDbError('truncated',
          t('{0} is truncated: its header says {1} pages of {2} bytes ({3} bytes) but the file has {4} bytes.', file, pageCount, pageSize, pageCount * pageSize, fileSize));
      }
    }
    const fromWal = async (n: number) => {
      const at = walCommitted?.frames.get(n);
      return at === undefined ? undefined : walFile!.read(at, pageSize);
    };
    const p1 = await fromWal(1);
    if (p1) {
      reserved = p1[20];
      textEncoding = u32(p1, 56) || 1;
    }
    if (textEncoding < 1 || textEncoding > 3) throw new StateDbError('corrupt', t('{0} has an unknown text encoding ({1}).', file, textEncoding));
    const usable = pageSize - reserved;
    if (usable < 480) throw new StateDbError('corrupt', t('{0} reserves {1} bytes of each {2}-byte page, leaving fewer than 480.', file, reserved, pageSize));
    const checkLength = (b: Uint8Array, n: number, where: string) => {
      if (b.length < pageSize) throw new StateDbError('truncated', t('{0} changed or was cut while it was read: page {1} is incomplete.', where, n));
      return b;
    };
    const snap: Snapshot = {
      file, pageSize, usable, pageCount, textEncoding,
      walFrames: walCommitted?.count ?? 0,
      journalPages: journal?.originals.size ?? 0,
      async page(n: number): Promise<Uint8Array> {
        if (!Number.isInteger(n) || n < 1 || n > pageCount) throw new StateDbError('corrupt', t('{0}: reference to page {1}, outside 1..{2}.', file, n, pageCount));
        const w = await fromWal(n);
        if (w) return checkLength(w, n, `${file}-wal`);
        const original = journal?.originals.get(n);
        if (original !== undefined) return checkLength(await journalFile!.read(original, pageSize), n, `${file}-journal`);
        const buf = await db.read((n - 1) * pageSize, pageSize);
        if (buf.length < pageSize) {
          throw new StateDbError('truncated', t('{0} is truncated: page {1} (bytes {2}..{3}) is past the end of the {4}-byte file.', file, n, (n - 1) * pageSize, n * pageSize, fileSize));
        }
        return buf;
      },
      async unchanged(): Promise<boolean> {
        return (await fingerprint(file)) === before;
      },
      close: closeAll,
    };
    return snap;
  } catch (e) {
    await closeAll();
    throw e;
  }
}

// ---- B-tree and record reading --------------------------------------------------------------

export type SqlValue = null | number | bigint | string | Uint8Array;

/** A column whose stored bytes could not be read; `reason` says why. The other columns are fine. */
export class Damaged {
  constructor(readonly reason: string) {}
}
export type RowValue = SqlValue | Damaged;

const corrupt = (msg: string) => new StateDbError('corrupt', msg);

/** Reads a SQLite varint at `at`, never past `end`; `where` names the page for the message. */
function varint(b: Uint8Array, at: number, end: number, where?: () => string): [number | bigint, number] {
  let v = 0n;
  for (let i = 0; i < 9; i++) {
    if (at + i >= end) throw corrupt(where ? t('{0}: a varint runs past the end of the page.', where()) : t('a varint runs past the end of its page or record'));
    const x = b[at + i];
    if (i === 8) return [small(BigInt.asIntN(64, (v << 8n) | BigInt(x))), 9];
    v = (v << 7n) | BigInt(x & 0x7f);
    if (!(x & 0x80)) return [small(v), i + 1];
  }
  /* c8 ignore next */
  throw corrupt(t('a varint runs past the end of its page or record'));
}
function small(v: bigint): number | bigint {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

/** A cell's payload: the bytes gathered (all of them unless `cut` says why not) and the size it declares. */
interface Payload {
  bytes: Uint8Array;
  size: number;
  cut?: string;
}

/** Visits every row of the table B-tree rooted at `root`: (rowid, record payload). */
export async function* scanTable(snap: Snapshot, root: number): AsyncGenerator<[number | bigint, Payload]> {
  const seen = new Set<number>();
  const stack = [root];
  const U = snap.usable;
  while (stack.length) {
    const pgno = stack.pop()!;
    if (seen.has(pgno)) throw corrupt(t('{0}: the B-tree visits page {1} twice.', snap.file, pgno));
    seen.add(pgno);
    const page = await snap.page(pgno);
    const h = pgno === 1 ? 100 : 0;
    const type = page[h];
    if (type === 0x02 || type === 0x0a) {
      throw new StateDbError('unsupported', t('{0}: page {1} is an index page where a table was expected (WITHOUT ROWID table?).', snap.file, pgno));
    }
    if (type !== 0x05 && type !== 0x0d) throw corrupt(t('{0}: page {1} is not a B-tree page (type {2}).', snap.file, pgno, type));
    const headerSize = type === 0x05 ? 12 : 8;
    const cells = u16(page, h + 3);
    if (h + headerSize + 2 * cells > U) throw corrupt(t('{0}: page {1} claims {2} cells, more than fit in it.', snap.file, pgno, cells));
    const cellAt = (i: number) => {
      const at = u16(page, h + headerSize + 2 * i);
      if (at < h + headerSize + 2 * cells || at >= U) throw corrupt(t('{0}: cell {1} of page {2} points outside the page (offset {3}).', snap.file, i, pgno, at));
      return at;
    };
    if (type === 0x05) {
      const children: number[] = [];
      for (let i = 0; i < cells; i++) {
        const at = cellAt(i);
        if (at + 4 > U) throw corrupt(t('{0}: cell {1} of page {2} points outside the page (offset {3}).', snap.file, i, pgno, at));
        children.push(u32(page, at));
      }
      children.push(u32(page, h + 8));
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    } else {
      for (let i = 0; i < cells; i++) {
        let at = cellAt(i);
        const where = () => t('{0}: cell {1} of page {2}', snap.file, i, pgno);
        const [size, a] = varint(page, at, U, where); at += a;
        const [rowid, b] = varint(page, at, U, where); at += b;
        if (typeof size !== 'number' || size < 0) throw corrupt(t('{0}: cell {1} of page {2} declares a payload of {3} bytes.', snap.file, i, pgno, String(size)));
        yield [rowid, await payload(snap, page, pgno, at, size)];
      }
    }
  }
}

async function payload(snap: Snapshot, page: Uint8Array, pgno: number, at: number, size: number): Promise<Payload> {
  const U = snap.usable;
  const X = U - 35;
  if (size <= X) {
    if (at + size > U) throw corrupt(t('{0}: a cell of page {1} runs past the end of the page.', snap.file, pgno));
    return { bytes: page.subarray(at, at + size), size };
  }
  const M = Math.floor(((U - 12) * 32) / 255) - 23;
  const K = M + ((size - M) % (U - 4));
  const local = K <= X ? K : M;
  if (at + local + 4 > U) throw corrupt(t('{0}: a cell of page {1} runs past the end of the page.', snap.file, pgno));
  // The chain cannot be longer than the database: a size that claims more is cut where the pages end.
  const chunks: Uint8Array[] = [page.subarray(at, at + local)];
  let filled = local;
  let next = u32(page, at + local);
  const seen = new Set<number>();
  while (filled < size) {
    let why: string | undefined;
    if (next === 0) why = t('its overflow chain ends after {0} of {1} bytes', filled, size);
    else if (seen.has(next)) why = t('its overflow chain loops back to page {0}', next);
    else if (next > snap.pageCount) why = t('its overflow chain points at page {0}, past the last page ({1})', next, snap.pageCount);
    let ov: Uint8Array | undefined;
    if (!why) {
      try {
        ov = await snap.page(next);
      } catch (e) {
        if (!(e instanceof StateDbError)) throw e;
        why = e.message;
      }
    }
    if (why || !ov) return { bytes: concat(chunks, filled), size, cut: why };
    seen.add(next);
    const take = Math.min(U - 4, size - filled);
    chunks.push(ov.subarray(4, 4 + take));
    filled += take;
    next = u32(ov, 0);
  }
  return { bytes: concat(chunks, filled), size };
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) { out.set(c, o); o += c.length; }
  return out;
}

export interface DecodedRecord {
  values: RowValue[];
  /** When the header itself could not be read to its end: the state of every later column. */
  rest?: Damaged;
}

/** Decodes a record into its stored column values; bytes that are missing or wrong make `Damaged` columns. */
export function decodeRecord(p: Payload | Uint8Array, textEncoding: number): DecodedRecord {
  const { bytes: rec, size, cut } = p instanceof Uint8Array ? { bytes: p, size: p.length, cut: undefined } : p;
  const values: RowValue[] = [];
  const lost = new Damaged(cut ? t('the stored value is damaged: {0}', cut) : t('the record is cut short'));
  let headerEnd: number;
  let hp: number;
  try {
    const [hlen, a] = varint(rec, 0, rec.length);
    if (typeof hlen !== 'number' || hlen < a || hlen > size) return { values, rest: new Damaged(t('the record header declares {0} bytes, the record has {1}', String(hlen), size)) };
    headerEnd = hlen;
    hp = a;
  } catch {
    return { values, rest: lost };
  }
  if (headerEnd > rec.length) return { values, rest: lost };
  let bp = headerEnd;
  const text = new TextDecoder(textEncoding === 2 ? 'utf-16le' : textEncoding === 3 ? 'utf-16be' : 'utf-8');
  const dv = new DataView(rec.buffer, rec.byteOffset, rec.byteLength);
  let broken: Damaged | undefined;
  while (hp < headerEnd) {
    let st: number | bigint;
    try {
      const [v, n] = varint(rec, hp, headerEnd);
      st = v;
      hp += n;
    } catch {
      return { values, rest: new Damaged(t('the record header is corrupt')) };
    }
    if (broken) { values.push(broken); continue; }
    const len = typeof st !== 'number' || st < 0 ? -1 : st >= 12 ? Math.floor((st - 12) / 2) : [0, 1, 2, 3, 4, 6, 8, 8, 0, 0, -1, -1][st];
    if (len < 0) { broken = new Damaged(t('reserved serial type {0} in a record', String(st))); values.push(broken); continue; }
    if (bp + len > size) { broken = new Damaged(t('the record body is shorter than its header says')); values.push(broken); continue; }
    if (bp + len > rec.length) { broken = lost; values.push(broken); continue; }
    switch (st) {
      case 0: values.push(null); break;
      case 1: values.push(dv.getInt8(bp)); break;
      case 2: values.push(dv.getInt16(bp)); break;
      case 3: values.push((dv.getInt8(bp) << 16) | dv.getUint16(bp + 1)); break;
      case 4: values.push(dv.getInt32(bp)); break;
      case 5: values.push(dv.getInt16(bp) * 2 ** 32 + dv.getUint32(bp + 2)); break;
      case 6: values.push(small(dv.getBigInt64(bp))); break;
      case 7: values.push(dv.getFloat64(bp)); break;
      case 8: values.push(0); break;
      case 9: values.push(1); break;
      default: {
        const body = rec.subarray(bp, bp + len);
        values.push((st as number) % 2 === 0 ? body.slice() : text.decode(body));
      }
    }
    bp += len;
  }
  return { values };
}

export interface TableColumn {
  name: string;
  /** Not stored in the record (a VIRTUAL generated column). */
  virtual: boolean;
  /** INTEGER PRIMARY KEY: the value is the rowid. */
  rowidAlias: boolean;
  /** REAL affinity: integers stored for real values read back as reals. */
  real?: boolean;
  /** The value of rows written before ALTER TABLE ADD COLUMN added this column. */
  default?: SqlValue;
}

export interface TableInfo {
  name: string;
  root: number;
  sql: string;
  columns: TableColumn[];
}

/** Finds a table in sqlite_schema and the stored layout of its columns. */
export async function findTable(snap: Snapshot, name: string): Promise<TableInfo | undefined> {
  let damaged: string | undefined;
  for await (const [, p] of scanTable(snap, 1)) {
    const { values, rest } = decodeRecord(p, snap.textEncoding);
    const [type, tname, , root, sql] = values;
    const bad = [type, tname, root, sql].find((v) => v instanceof Damaged) ?? (values.length < 5 ? rest : undefined);
    if (bad) { damaged ??= (bad as Damaged).reason; continue; }
    if (type === 'table' && typeof tname === 'string' && tname.toLowerCase() === name.toLowerCase()) {
      if (typeof sql !== 'string' || typeof root !== 'number') throw corrupt(t('{0}: bad schema row for {1}.', snap.file, name));
      if (/\)\s*WITHOUT\s+ROWID\s*;?\s*$/i.test(sql)) throw new StateDbError('unsupported', t('{0} is a WITHOUT ROWID table.', name));
      return { name: tname, root, sql, columns: parseColumns(sql) };
    }
  }
  if (damaged) throw corrupt(t('{0}: a row of its schema could not be read ({1}).', snap.file, damaged));
  return undefined;
}

/** Column definitions from a CREATE TABLE statement (table constraints read for a rowid alias only). */
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
    if (c === '/' && sql[i + 1] === '*') { const e = sql.indexOf('*/', i + 2); i = e < 0 ? sql.length : e + 1; cur += ' '; continue; }
    if (c === '(') depth++;
    if (c === ')') {
      if (depth === 0) { parts.push(cur); break; }
      depth--;
    }
    if (c === ',' && depth === 0) { parts.push(cur); cur = ''; continue; }
    cur += c;
  }
  const cols: (TableColumn & { type: string })[] = [];
  let tablePk: string | undefined;
  for (const raw of parts) {
    const def = raw.trim();
    if (!def) continue;
    const pk = /^(?:CONSTRAINT\s+\S+\s+)?PRIMARY\s+KEY\s*\(([^,()]+)\)/i.exec(def);
    if (pk) { tablePk = unquote(pk[1].trim().replace(/\s+(ASC|DESC)$/i, '').trim()); continue; }
    if (/^(CONSTRAINT|PRIMARY\s+KEY|UNIQUE|CHECK|FOREIGN\s+KEY)\b/i.test(def)) continue;
    const m = /^("(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\]|'(?:[^']|'')*'|\S+)\s*([\s\S]*)$/.exec(def);
    if (!m) continue;
    const name = unquote(m[1]);
    const rest = m[2];
    const bare = rest.replace(/'(?:[^']|'')*'/g, "''");
    const type = /^([\s\S]*?)(?=\b(?:CONSTRAINT|PRIMARY|NOT|NULL|UNIQUE|CHECK|DEFAULT|COLLATE|REFERENCES|GENERATED|AS)\b|$)/i.exec(bare)![1].trim();
    const generated = /\bAS\s*\(/i.test(bare);
    const virtual = generated && !/\bSTORED\b/i.test(bare.slice(bare.lastIndexOf(')')));
    const rowidAlias = /^INTEGER$/i.test(type) && /\bPRIMARY\s+KEY\b/i.test(bare) && !/\bPRIMARY\s+KEY\s+DESC\b/i.test(bare);
    const up = type.toUpperCase();
    const real = !up.includes('INT') && !/CHAR|CLOB|TEXT|BLOB/.test(up) && /REAL|FLOA|DOUB/.test(up);
    const col: TableColumn & { type: string } = { name, virtual, rowidAlias, type };
    if (real) col.real = true;
    const dflt = defaultValue(rest, rest.replace(/'(?:[^']|'')*'/g, (q) => `'${' '.repeat(q.length - 2)}'`));
    if (dflt !== undefined) col.default = dflt;
    cols.push(col);
  }
  if (tablePk) {
    const c = cols.find((x) => x.name.toLowerCase() === tablePk!.toLowerCase());
    if (c && /^INTEGER$/i.test(c.type)) c.rowidAlias = true;
  }
  return cols.map(({ type: _type, ...c }) => c);
}

function unquote(name: string): string {
  return /^["`'[]/.test(name) ? name.slice(1, -1).replace(/""/g, '"').replace(/''/g, "'") : name;
}

/** A literal DEFAULT of a column definition (what ALTER TABLE ADD COLUMN gives older rows); `blank` is `rest` with string contents blanked. */
function defaultValue(rest: string, blank: string): SqlValue | undefined {
  const at = /\bDEFAULT\s+(?:\(\s*)?/i.exec(blank);
  if (!at) return undefined;
  const m = /^(?:'((?:[^']|'')*)'|[xX]'([0-9a-fA-F]*)'|([-+]?)(0[xX][0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)|(NULL|TRUE|FALSE)\b)/i.exec(rest.slice(at.index + at[0].length));
  if (!m) return undefined;
  if (m[1] !== undefined) return m[1].replace(/''/g, "'");
  if (m[2] !== undefined) return new Uint8Array(Buffer.from(m[2], 'hex'));
  if (m[5] !== undefined) return /^NULL$/i.test(m[5]) ? null : /^TRUE$/i.test(m[5]) ? 1 : 0;
  const neg = m[3] === '-';
  const num = m[4];
  if (/^0x/i.test(num)) { const v = BigInt.asIntN(64, BigInt(num)); return small(neg ? -v : v); }
  if (/^\d+$/.test(num)) { const v = BigInt(num) * (neg ? -1n : 1n); return v >= -(2n ** 63n) && v < 2n ** 63n ? small(v) : Number(v); }
  return neg ? -Number(num) : Number(num);
}

/** Reads every row of a table as { column: value } objects (VIRTUAL generated columns are absent). */
export async function readRows(snap: Snapshot, table: TableInfo, want?: Set<string>): Promise<Record<string, RowValue>[]> {
  const stored = table.columns.filter((c) => !c.virtual);
  const rows: Record<string, RowValue>[] = [];
  for await (const [rowid, p] of scanTable(snap, table.root)) {
    const { values, rest } = decodeRecord(p, snap.textEncoding);
    const row: Record<string, RowValue> = {};
    stored.forEach((c, i) => {
      if (want && !want.has(c.name)) return;
      let v: RowValue | undefined = values[i];
      if (c.rowidAlias && (v === null || v === undefined)) v = rowid;
      // Columns added by ALTER TABLE after the row was written are missing from its record.
      else if (v === undefined) v = rest ?? c.default ?? null;
      else if (c.real && typeof v === 'bigint') v = Number(v);
      row[c.name] = v;
    });
    rows.push(row);
  }
  return rows;
}
