// A read-only Nippy decoder for the plain data Vis stores in `vis.state` (no `vscode` import).
//
// Format (taoensso/nippy): a 4-byte header "NPY" + one meta byte that names the compressor and
// encryptor, then the (compressed) payload, a stream of [1-byte type id][payload]. Big-endian, as
// Java's DataOutput writes it. Vis freezes with the zstd compressor (meta 20). Every type id that
// plain Python data can become is decoded (and a few more); anything else fails with a reason.
//
// Work is bounded by the blob, never by what it claims: counts are checked against the bytes left,
// compressed payloads against a cap before they are inflated (zstd.ts), nesting against a depth,
// the expanded size of cached (shared) values against a budget, and big numbers against a length;
// dates outside what a Date can hold and decimals with huge scales are printed without expanding.
import { t } from '../l10n';
import { isoFromMillis } from './instant';
import { ZstdError, inflateZstd, isZstdFrame } from './zstd';

export class Keyword {
  constructor(readonly name: string) {}
  toString(): string { return `:${this.name}`; }
}
export class Sym {
  constructor(readonly name: string) {}
  toString(): string { return this.name; }
}
/** A set (Clojure `#{}`); items in stream order. */
export class EdnSet {
  constructor(readonly items: NippyValue[]) {}
}
/** A map with at least one key that is not a string; entries in stream order. */
export class EdnMap {
  constructor(readonly entries: [NippyValue, NippyValue][]) {}
}
/** A JVM value with no JSON counterpart, shown by its printed form: uuid, inst, char, ratio, ... */
export class Tagged {
  constructor(readonly tag: string, readonly text: string) {}
}

export type NippyValue =
  | null | boolean | number | bigint | string | Uint8Array
  | NippyValue[] | { [key: string]: NippyValue }
  | Keyword | Sym | EdnSet | EdnMap | Tagged;

export class NippyError extends Error {}

const COMPRESSORS: Record<number, string> = {};
const ENCRYPTED = new Set<number>();
// head-meta ids: [compressor, encryptor]
for (const [id, c, e] of [
  [0, 'none', ''], [2, 'none', 'aes128-cbc'], [14, 'none', 'aes128-gcm'], [4, 'none', 'custom'],
  [1, 'snappy', ''], [3, 'snappy', 'aes128-cbc'], [15, 'snappy', 'aes128-gcm'], [7, 'snappy', 'custom'],
  [8, 'lz4', ''], [9, 'lz4', 'aes128-cbc'], [16, 'lz4', 'aes128-gcm'], [10, 'lz4', 'custom'],
  [11, 'lzma2', ''], [12, 'lzma2', 'aes128-cbc'], [17, 'lzma2', 'aes128-gcm'], [13, 'lzma2', 'custom'],
  [20, 'zstd', ''], [21, 'zstd', 'aes128-cbc'], [22, 'zstd', 'aes128-gcm'], [23, 'zstd', 'custom'],
  [5, 'custom', ''], [18, 'custom', 'aes128-cbc'], [19, 'custom', 'aes128-gcm'], [6, 'custom', 'custom'],
] as [number, string, string][]) {
  COMPRESSORS[id] = c;
  if (e) ENCRYPTED.add(id);
}

/** Largest payload we agree to inflate (a state value bigger than this is not worth showing). */
export const MAX_PAYLOAD = 64 * 1024 * 1024;
const MAX_DEPTH = 400;
/** Values a blob may expand to, counting each reference to a cached value again (what a view renders). */
export const MAX_VALUES = 2_000_000;
/** Characters and bytes of text and byte arrays it may expand to, counted the same way. */
export const MAX_TEXT = 2 * MAX_PAYLOAD;
/** Longest big integer shown (bytes of two's complement: about 20,000 decimal digits). */
export const MAX_BIGINT_BYTES = 8192;

/** Decodes one stored blob (header + payload). Throws NippyError with a reason. */
export function thaw(blob: Uint8Array): NippyValue {
  if (isZstdFrame(blob)) {
    // Not Nippy's framing: a whole blob compressed with zstd. Decode the Nippy value inside.
    return thawNippy(unzstd(blob, t('blob')));
  }
  return thawNippy(blob);
}

function thawNippy(blob: Uint8Array): NippyValue {
  if (blob.length < 5 || blob[0] !== 0x4e || blob[1] !== 0x50 || blob[2] !== 0x59) {
    throw new NippyError(t('not a Nippy value (no "NPY" header; {0} bytes starting {1})', blob.length, hex(blob.subarray(0, 8))));
  }
  const meta = blob[3];
  const compressor = COMPRESSORS[meta];
  if (compressor === undefined) throw new NippyError(t('unknown Nippy header meta id {0} (frozen by a newer Nippy?)', meta));
  if (ENCRYPTED.has(meta)) throw new NippyError(t('the value is encrypted with a Nippy password; it cannot be shown'));
  let payload = blob.subarray(4);
  switch (compressor) {
    case 'none': break;
    case 'zstd': payload = unzstdNippy(payload); break;
    case 'lz4': payload = unlz4Nippy(payload); break;
    default: throw new NippyError(t('the value is compressed with {0}, which this viewer does not decode', compressor));
  }
  return decodePayload(payload);
}

/** Decodes a header-less payload (one value, nothing after it). */
export function decodePayload(payload: Uint8Array): NippyValue {
  const r = new Reader(payload);
  const v = r.value(0);
  if (r.pos !== payload.length) throw new NippyError(t('{0} unexpected bytes after the value', payload.length - r.pos));
  return v;
}

function unzstd(frame: Uint8Array, what: string): Uint8Array {
  try {
    return inflateZstd(frame, MAX_PAYLOAD);
  } catch (e) {
    if (e instanceof ZstdError) throw new NippyError(e.kind === 'too-large' ? t('zstd {0} is too large: {1}', what, e.message) : t('zstd {0} is corrupt: {1}', what, e.message));
    throw e;
  }
}

function unzstdNippy(p: Uint8Array): Uint8Array {
  if (isZstdFrame(p)) return unzstd(p, t('payload'));
  // Size-prefixed framing: a 4-byte big-endian uncompressed length, then the frame.
  if (p.length >= 8 && isZstdFrame(p, 4)) {
    const expected = readU32BE(p, 0);
    if (expected > MAX_PAYLOAD) throw new NippyError(t('zstd payload declares {0} bytes, over the {1}-byte limit', expected, MAX_PAYLOAD));
    const out = unzstd(p.subarray(4), t('payload'));
    if (out.length !== expected) throw new NippyError(t('zstd payload inflated to {0} bytes, its prefix says {1}', out.length, expected));
    return out;
  }
  throw new NippyError(t('header says zstd but the payload is not a zstd frame'));
}

/** Nippy's lz4 framing: 4-byte big-endian uncompressed length, then one LZ4 block. */
function unlz4Nippy(p: Uint8Array): Uint8Array {
  if (p.length < 4) throw new NippyError(t('lz4 payload is truncated'));
  const size = readU32BE(p, 0);
  if (size > MAX_PAYLOAD) throw new NippyError(t('lz4 payload declares {0} bytes, over the {1}-byte limit', size, MAX_PAYLOAD));
  // One input byte produces at most 255 output bytes (a run-length byte of 255).
  const most = 255 * (p.length - 4) + 64;
  if (size > most) throw new NippyError(t('lz4 payload declares {0} bytes, more than its {1} compressed bytes can hold', size, p.length - 4));
  return lz4Block(p.subarray(4), size);
}

export function lz4Block(src: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let s = 0;
  let o = 0;
  const bad = (why: string) => new NippyError(t('lz4 block is corrupt: {0}', why));
  while (s < src.length) {
    const token = src[s++];
    let lit = token >> 4;
    if (lit === 15) { let b; do { if (s >= src.length) throw bad(t('truncated length')); b = src[s++]; lit += b; } while (b === 255); }
    if (s + lit > src.length || o + lit > size) throw bad(t('literal overruns'));
    out.set(src.subarray(s, s + lit), o); s += lit; o += lit;
    if (s >= src.length) break; // last sequence has literals only
    if (s + 2 > src.length) throw bad(t('truncated offset'));
    const off = src[s] | (src[s + 1] << 8); s += 2;
    if (off === 0 || off > o) throw bad(t('bad match offset'));
    let len = token & 15;
    if (len === 15) { let b; do { if (s >= src.length) throw bad(t('truncated length')); b = src[s++]; len += b; } while (b === 255); }
    len += 4;
    if (o + len > size) throw bad(t('match overruns'));
    for (let i = 0; i < len; i++, o++) out[o] = out[o - off];
  }
  if (o !== size) throw bad(t('inflated to {0} bytes, prefix says {1}', o, size));
  return out;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

class Reader {
  pos = 0;
  private readonly view: DataView;
  private readonly cache = new Map<number, { value: NippyValue; weight: number; text: number }>();
  /** Values and text decoded so far, each cached value counted at every reference. */
  private weight = 0;
  private text = 0;
  constructor(private readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  private need(n: number, what: string): void {
    if (n < 0 || this.pos + n > this.buf.length) throw new NippyError(t('truncated: {0} needs {1} bytes at offset {2}, {3} left', what, n, this.pos, this.buf.length - this.pos));
  }
  private i8(): number { this.need(1, 'byte'); return this.view.getInt8(this.pos++); }
  private u8(): number { this.need(1, 'byte'); return this.view.getUint8(this.pos++); }
  /** Unsigned small count (`sm*` ids): the byte holds count + Byte/MIN_VALUE. */
  private smCount(): number { return this.i8() + 128; }
  private i16(): number { this.need(2, 'short'); const v = this.view.getInt16(this.pos); this.pos += 2; return v; }
  private i32(): number { this.need(4, 'int'); const v = this.view.getInt32(this.pos); this.pos += 4; return v; }
  private i64(): bigint { this.need(8, 'long'); const v = this.view.getBigInt64(this.pos); this.pos += 8; return v; }
  private f32(): number { this.need(4, 'float'); const v = this.view.getFloat32(this.pos); this.pos += 4; return v; }
  private f64(): number { this.need(8, 'double'); const v = this.view.getFloat64(this.pos); this.pos += 8; return v; }
  private bytes(n: number): Uint8Array { this.need(n, 'bytes'); const b = this.buf.subarray(this.pos, this.pos + n); this.pos += n; this.addText(n); return b; }
  private str(n: number): string {
    const b = this.bytes(n);
    try { return utf8.decode(b); } catch { throw new NippyError(t('invalid UTF-8 in a string at offset {0}', this.pos - n)); }
  }
  private addText(n: number): void {
    this.text += n;
    if (this.text > MAX_TEXT) throw new NippyError(t('the value expands to more than {0} bytes of text (counting every reference to a cached value); too large to show', MAX_TEXT));
  }
  private addWeight(n: number): void {
    this.weight += n;
    if (this.weight > MAX_VALUES) throw new NippyError(t('the value expands to more than {0} values (counting every reference to a cached value); too large to show', MAX_VALUES));
  }
  private count(n: number, perItem: number, what: string): number {
    if (n < 0 || !Number.isInteger(n)) throw new NippyError(t('negative {0} count {1}', what, n));
    // Every element takes at least one byte: a count past the end is corrupt, not a huge value.
    if (n * perItem > this.buf.length - this.pos) throw new NippyError(t('truncated: {0} of {1} elements at offset {2} runs past the end', what, n, this.pos));
    return n;
  }
  private seq(n: number, depth: number, what: string): NippyValue[] {
    this.count(n, 1, what);
    const out: NippyValue[] = [];
    for (let i = 0; i < n; i++) out.push(this.value(depth + 1));
    return out;
  }
  private map(n: number, depth: number): NippyValue {
    this.count(n, 2, 'map');
    const entries: [NippyValue, NippyValue][] = [];
    for (let i = 0; i < n; i++) entries.push([this.value(depth + 1), this.value(depth + 1)]);
    return makeMap(entries);
  }
  private bigInteger(): bigint {
    const n = this.i32();
    if (n > MAX_BIGINT_BYTES && n <= this.buf.length - this.pos) {
      throw new NippyError(t('a big integer of {0} bytes at offset {1}, longer than the {2} bytes this viewer shows', n, this.pos, MAX_BIGINT_BYTES));
    }
    const b = this.bytes(this.count(n, 1, 'big integer'));
    return twosComplement(b);
  }
  private long(v: bigint): number | bigint {
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  }
  private cached(idx: number, depth: number): NippyValue {
    const hit = this.cache.get(idx);
    if (hit) {
      this.addWeight(hit.weight);
      this.addText(hit.text);
      return hit.value;
    }
    const [w, x] = [this.weight, this.text];
    const value = this.value(depth + 1);
    this.cache.set(idx, { value, weight: this.weight - w, text: this.text - x });
    return value;
  }

  value(depth: number): NippyValue {
    if (depth > MAX_DEPTH) throw new NippyError(t('nested deeper than {0} levels', MAX_DEPTH));
    this.addWeight(1);
    const at = this.pos;
    const id = this.i8();
    switch (id) {
      case 3: return null;
      case 8: return true;
      case 9: return false;
      case 4: return this.u8() !== 0; // boolean_ (deprecated)
      case 10: { this.need(2, 'char'); const c = String.fromCharCode(this.view.getUint16(this.pos)); this.pos += 2; return new Tagged('char', c); }

      case 40: return this.i8();
      case 41: return this.i16();
      case 42: return this.i32();
      case 0: return 0;
      // long-pos/neg: the magnitude is stored shifted by the signed type's minimum
      case 87: return this.i8() + 128;
      case 88: return this.i16() + 32768;
      case 89: return this.i32() + 2147483648;
      case 93: return -(this.i8() + 128);
      case 94: return -(this.i16() + 32768);
      case 95: return -(this.i32() + 2147483648);
      case 43: return this.long(this.i64());
      case 100: return this.i8(); // long-sm_ (deprecated)
      case 101: return this.i16(); // long-md_
      case 102: return this.i32(); // long-lg_

      case 55: return 0;
      case 60: return this.f32();
      case 61: return this.f64();

      case 44: case 45: return this.long(this.bigInteger());
      case 62: { const unscaled = this.bigInteger(); const scale = this.i32(); return new Tagged('bigdec', formatBigDec(unscaled, scale)); }
      case 70: { const n = this.bigInteger(); const d = this.bigInteger(); return new Tagged('ratio', `${n}/${d}`); }

      case 34: return '';
      case 96: return this.str(this.smCount());
      case 105: return this.str(this.count(this.i8(), 1, 'string'));
      case 16: return this.str(this.count(this.i16(), 1, 'string'));
      case 13: return this.str(this.count(this.i32(), 1, 'string'));
      case 11: return this.str(this.count(this.i16() & 0xffff, 1, 'string')); // str_ (writeUTF, deprecated)

      case 106: return new Keyword(this.str(this.count(this.i8(), 1, 'keyword')));
      case 85: return new Keyword(this.str(this.count(this.i16(), 1, 'keyword')));
      case 77: case 14: return new Keyword(this.str(this.count(this.i32(), 1, 'keyword')));
      case 12: return new Keyword(this.str(this.count(this.i16() & 0xffff, 1, 'keyword')));
      case 56: return new Sym(this.str(this.count(this.i8(), 1, 'symbol')));
      case 86: return new Sym(this.str(this.count(this.i16(), 1, 'symbol')));
      case 78: case 57: return new Sym(this.str(this.count(this.i32(), 1, 'symbol')));

      case 53: return new Uint8Array(0);
      case 7: return this.bytes(this.count(this.i8(), 1, 'byte array')).slice();
      case 15: return this.bytes(this.count(this.i16(), 1, 'byte array')).slice();
      case 2: return this.bytes(this.count(this.i32(), 1, 'byte array')).slice();

      case 17: return [];
      case 113: return this.seq(2, depth, 'vector');
      case 114: return this.seq(3, depth, 'vector');
      case 97: return this.seq(this.smCount(), depth, 'vector');
      case 110: return this.seq(this.i8(), depth, 'vector');
      case 69: return this.seq(this.i16(), depth, 'vector');
      case 21: return this.seq(this.i32(), depth, 'vector');

      case 35: case 37: return [];
      case 36: case 38: return this.seq(this.i8(), depth, 'list');
      case 54: case 39: return this.seq(this.i16(), depth, 'list');
      case 20: case 24: case 26: case 115: return this.seq(this.i32(), depth, 'list');

      case 18: return new EdnSet([]);
      case 98: return new EdnSet(this.seq(this.smCount(), depth, 'set'));
      case 111: return new EdnSet(this.seq(this.i8(), depth, 'set'));
      case 32: return new EdnSet(this.seq(this.i16(), depth, 'set'));
      case 23: case 28: return new EdnSet(this.seq(this.i32(), depth, 'set'));

      case 19: return makeMap([]);
      case 99: return this.map(this.smCount(), depth);
      case 112: return this.map(this.i8(), depth);
      case 33: return this.map(this.i16(), depth);
      case 30: case 31: case 22: return this.map(this.i32(), depth);
      case 27: case 29: { // map__, sorted-map_: the count is keys + values
        const n = this.i32();
        if (n % 2 !== 0) throw new NippyError(t('a map of {0} keys and values at offset {1} (an odd count)', n, at));
        return this.map(n / 2, depth);
      }
      case 103: return this.seq(2, depth, 'map entry');

      case 25: { this.value(depth + 1); return this.value(depth + 1); } // metadata, then the value
      case 104: return null; // meta-protocol-key marker (only inside metadata)

      case 59: return this.cached(0, depth);
      case 63: return this.cached(1, depth);
      case 64: return this.cached(2, depth);
      case 65: return this.cached(3, depth);
      case 66: return this.cached(4, depth);
      case 72: return this.cached(5, depth);
      case 73: return this.cached(6, depth);
      case 74: return this.cached(7, depth);
      case 67: return this.cached(this.i8(), depth);
      case 68: return this.cached(this.i16(), depth);

      case 91: { const hi = this.i64(); const lo = this.i64(); return new Tagged('uuid', formatUuid(hi, lo)); }
      case 90: case 92: { const ms = this.i64(); return new Tagged('inst', isoFromMillis(ms) ?? t('{0} ms since 1970', String(ms))); }
      case 79: { const secs = this.i64(); const nanos = this.i32(); return new Tagged('inst', formatInstant(secs, nanos, at)); }
      case 83: { const secs = this.i64(); const nanos = this.i32(); return new Tagged('duration', `${secs}s ${nanos}ns`); }
      case 84: { const y = this.i32(); const m = this.i32(); const d = this.i32(); return new Tagged('period', `P${y}Y${m}M${d}D`); }
      case 71: return new Tagged('uri', String(this.value(depth + 1)));
      case 58: return new Tagged('regex', String(this.value(depth + 1)));

      case 47: return new Tagged('edn', this.str(this.count(this.i8(), 1, 'edn')));
      case 51: return new Tagged('edn', this.str(this.count(this.i16(), 1, 'edn')));
      case 52: case 5: return new Tagged('edn', this.str(this.count(this.i32(), 1, 'edn')));
      case 1: return new Tagged('edn', this.str(this.count(this.i16() & 0xffff, 1, 'edn')));

      case 48: case 49: case 80: return this.unsupported(id, at, t('a Clojure record'));
      case 75: case 76: case 46: case 50: case 6: return this.unsupported(id, at, t('a Java Serializable object'));
      case 81: return this.unsupported(id, at, t('a Clojure deftype'));
      case 82: return this.unsupported(id, at, t('a custom type'));
      default:
        if (id < 0) return this.unsupported(id, at, t('a custom type'));
        throw new NippyError(t('unknown type id {0} at offset {1} (frozen by a newer Nippy, or corrupt)', id, at));
    }
  }

  private unsupported(id: number, at: number, what: string): never {
    throw new NippyError(t('type id {0} at offset {1} is {2}, which plain state data never holds', id, at, what));
  }
}

function makeMap(entries: [NippyValue, NippyValue][]): NippyValue {
  if (entries.every(([k]) => typeof k === 'string')) {
    const o: { [key: string]: NippyValue } = {};
    for (const [k, v] of entries) Object.defineProperty(o, k as string, { value: v, enumerable: true, writable: true, configurable: true });
    return o;
  }
  return new EdnMap(entries);
}

function twosComplement(b: Uint8Array): bigint {
  if (b.length === 0) return 0n;
  // Through hex: linear, where shifting byte by byte is quadratic in the length.
  const n = BigInt(`0x${Buffer.from(b.buffer, b.byteOffset, b.length).toString('hex')}`);
  return b[0] & 0x80 ? n - (1n << BigInt(8 * b.length)) : n;
}

/** Java's BigDecimal.toString: plain when the scale is >= 0 and the adjusted exponent >= -6, else scientific. */
export function formatBigDec(unscaled: bigint, scale: number): string {
  const neg = unscaled < 0n;
  const coeff = (neg ? -unscaled : unscaled).toString();
  const adjusted = -scale + (coeff.length - 1);
  let text: string;
  if (scale === 0) text = coeff;
  else if (scale > 0 && adjusted >= -6) {
    text = coeff.length > scale ? `${coeff.slice(0, coeff.length - scale)}.${coeff.slice(coeff.length - scale)}` : `0.${'0'.repeat(scale - coeff.length)}${coeff}`;
  } else {
    text = `${coeff[0]}${coeff.length > 1 ? `.${coeff.slice(1)}` : ''}E${adjusted >= 0 ? '+' : ''}${adjusted}`;
  }
  return (neg ? '-' : '') + text;
}

function formatUuid(hi: bigint, lo: bigint): string {
  const h = BigInt.asUintN(64, hi).toString(16).padStart(16, '0') + BigInt.asUintN(64, lo).toString(16).padStart(16, '0');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function formatInstant(secs: bigint, nanos: number, at: number): string {
  if (nanos < 0 || nanos > 999_999_999) throw new NippyError(t('an instant at offset {0} with {1} nanoseconds (must be 0..999999999)', at, nanos));
  const iso = isoFromMillis(secs * 1000n);
  if (!iso) return t('{0} s {1} ns since 1970', String(secs), nanos);
  const base = iso.replace(/\.000Z$/, '');
  return nanos ? `${base}.${String(nanos).padStart(9, '0').replace(/0+$/, '')}Z` : `${base}Z`;
}

function readU32BE(b: Uint8Array, at: number): number {
  return ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
}
function hex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(' ');
}

/** Is this decoded value Clojure nil (a `vis.state` row that readers treat as absent)? */
export function isNil(v: NippyValue): boolean {
  return v === null;
}
