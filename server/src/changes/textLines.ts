// The text-level half of `lineChanges`: everything it does before lines are integer ids, done on the
// two texts themselves so that no line becomes a string of its own.
//
// - `middles`: the lines both texts share at the start and at the end, found by comparing the raw
//   texts (native string equality on slices, galloping), then backed off to line boundaries.
// - `textMyers`: Myers' greedy search over the middles' lines where each line is a character range:
//   its snakes compare runs of text natively, and its diagonals are tracked in character offsets, so
//   a few scattered edits are counted without splitting, hashing or even counting the lines.
// - `hashedLines`: the middles encoded once to bytes, every line hashed in one pass over them, and
//   interned in an open-addressing table whose entries are compared byte for byte only when their
//   hashes match; the result is one integer id per line, equal ids for equal lines.
//
// A line is its text with its "\n"; a last line without one is shorter than the same text with one,
// so comparing ranges that include the newline keeps "a" and "a\n" apart, as the reference does.

const NEWLINE = 10;

/** Character ranges `[a0, a1)` of `before` and `[b0, b1)` of `after` between the lines both share at their ends. */
export interface Middles {
  a0: number;
  a1: number;
  b0: number;
  b1: number;
}

/** Whether `x` and `y` hold the same characters `from` to `to` places on from `i` and `j` (or back from them). */
function sameRun(x: string, i: number, y: string, j: number, from: number, to: number, back: boolean): boolean {
  return back ? x.slice(i - to, i - from) === y.slice(j - to, j - from) : x.slice(i + from, i + to) === y.slice(j + from, j + to);
}

/**
 * How many characters `x` (from `i`) and `y` (from `j`) have in common, up to `most`; with `back`,
 * how many they share ending just before `i` and `j`. Short runs are compared by character; longer
 * ones by native equality of slices of doubling, then halving, length.
 */
export function commonLength(x: string, i: number, y: string, j: number, most: number, back = false): number {
  let q = 0;
  const first = most < 16 ? most : 16;
  while (q < first && x.charCodeAt(back ? i - 1 - q : i + q) === y.charCodeAt(back ? j - 1 - q : j + q)) q++;
  if (q < first || q === most) return q;
  let step = 64;
  for (;;) {
    const hi = most - q < step ? most : q + step;
    if (sameRun(x, i, y, j, q, hi, back)) {
      q = hi;
      if (q === most) return q;
      step *= 2;
      continue;
    }
    // The first difference is in [q, hi).
    let top = hi;
    while (top - q > 32) {
      const mid = (q + top) >>> 1;
      if (sameRun(x, i, y, j, q, mid, back)) q = mid;
      else top = mid;
    }
    while (x.charCodeAt(back ? i - 1 - q : i + q) === y.charCodeAt(back ? j - 1 - q : j + q)) q++;
    return q;
  }
}

/**
 * The reference's first step, `_without_shared_ends`, on the texts: the most whole lines shared at
 * the start, then the most of the rest shared at the end. The texts must differ.
 */
export function middles(before: string, after: string): Middles {
  const n = before.length;
  const m = after.length;
  const shorter = n < m ? n : m;
  const prefix = commonLength(before, 0, after, 0, shorter);
  // Back off to the start of the line the first difference is in (a whole shared text, too, when
  // the other goes on: its last line ends with "\n" there, or differs from the other's by lacking it).
  const head = prefix === 0 ? 0 : before.lastIndexOf('\n', prefix - 1) + 1;
  const most = shorter - head;
  let tail = commonLength(before, n, after, m, most, true);
  // The shared end must start a line in both texts. Below the longest shared end the character
  // before it is shared too, so one text tells; at the longest, each text has its own.
  const startsLine = (text: string, at: number) => at === head || text.charCodeAt(at - 1) === NEWLINE;
  if (tail > 0 && !(startsLine(before, n - tail) && startsLine(after, m - tail))) {
    const newline = before.indexOf('\n', n - tail);
    tail = newline === -1 ? 0 : n - newline - 1;
  }
  return { a0: head, a1: n - tail, b0: head, b1: m - tail };
}

/** Lines in `text[from, to)`, where `from` starts a line and `to` ends one or the text. */
export function lineCount(text: string, from: number, to: number): number {
  let count = 0;
  for (let p = text.indexOf('\n', from); p !== -1 && p < to; p = text.indexOf('\n', p + 1)) count++;
  return to > from && text.charCodeAt(to - 1) !== NEWLINE ? count + 1 : count;
}

/** The start of the line after the one at `p` (`p` a line start before `end`), or one past `p` beyond the end. */
function nextLine(text: string, p: number, end: number): number {
  if (p >= end) return p + 1;
  const newline = text.indexOf('\n', p);
  return newline === -1 || newline >= end ? end : newline + 1;
}

/** What `textMyers` found: `d` lines inserted or deleted at least, and the old side's lines less the new side's. */
export interface Distance {
  d: number;
  diff: number;
}

/** Rounds `textMyers` goes before it leaves the count to the interned lines. */
export const TEXT_MYERS_ROUNDS = 64;

/**
 * Myers' greedy search on the middles' lines as character ranges: the fewest lines inserted plus
 * deleted, `d`, and the line-count difference of the two middles, or null past `rounds` rounds, past
 * `work` characters compared or stepped over, or when the search advances too slowly to pay.
 *
 * A point on a diagonal is a pair of line starts, one per text. A snake crosses the same text in
 * both, so the diagonal index changes only with a one-line step, and the furthest point on a
 * diagonal is the one with the furthest offset into `x`. Points past a middle's end are the end plus
 * the lines stepped past it, as in the search on line indices.
 */
export function textMyers(x: string, m: Middles, y: string, rounds: number, work: number): Distance | null {
  const { a0, a1, b0, b1 } = m;
  const offset = rounds + 1;
  const reachX = new Int32Array(2 * rounds + 3);
  const reachY = new Int32Array(2 * rounds + 3);
  let furthest = a0;
  for (let d = 0; d <= rounds; d++) {
    const low = offset - d;
    const high = offset + d;
    for (let k = low; k <= high; k += 2) {
      let i: number;
      let j: number;
      if (d === 0) {
        i = a0;
        j = b0;
      } else if (k === low || (k !== high && reachX[k - 1] < reachX[k + 1])) {
        i = reachX[k + 1];
        j = nextLine(y, reachY[k + 1], b1);
        work -= j - reachY[k + 1];
      } else {
        i = nextLine(x, reachX[k - 1], a1);
        j = reachY[k - 1];
        work -= i - reachX[k - 1];
      }
      if (i < a1 && j < b1) {
        // Lines match while their text does: a snake is the shared run cut back to its last newline,
        // or all of both rests when they are the same to their ends.
        const restX = a1 - i;
        const restY = b1 - j;
        const q = commonLength(x, i, y, j, restX < restY ? restX : restY);
        work -= q + 8;
        if (q === restX && q === restY) {
          i = a1;
          j = b1;
        } else if (q > 0) {
          const newline = x.lastIndexOf('\n', i + q - 1);
          if (newline >= i) {
            j += newline + 1 - i;
            i = newline + 1;
          }
        }
      }
      if (i >= a1 && j >= b1) return { d, diff: k - offset };
      reachX[k] = i;
      reachY[k] = j;
      if (i > furthest) furthest = i;
    }
    // Give up past the work, or when, every 16 rounds, the pace so far would need more rounds
    // than allowed to cross the old middle: changes that dense are counted faster on interned lines.
    if (work < 0 || ((d & 15) === 15 && (furthest - a0) * rounds < (d + 1) * (a1 - a0))) return null;
  }
  return null;
}

/** The middles' lines as ids: `a` for the old side's, `b` for the new side's, and how many ids there are. */
export interface Interned {
  a: Int32Array;
  b: Int32Array;
  distinct: number;
}

// Work arrays kept between counts (one count runs at a time), grown as needed: the encoded middles,
// each line's id, the intern table (pairs of hash and id + 1) and, per id, its hash and the bytes
// of its first line.
let bytes = new Uint8Array(1 << 16);
let lineIds = new Int32Array(1 << 12);
let table = new Int32Array(1 << 12);
let idHash = new Int32Array(1 << 10);
let idStart = new Int32Array(1 << 10);
let idLength = new Int32Array(1 << 10);
let distinct = 0;
/** Past this many bytes of work arrays, they are dropped after the count, not kept for the next. */
const KEEP_BYTES = 1 << 22;
const encoder = new TextEncoder();
/** A surrogate without its pair, which UTF-8 cannot hold (TextEncoder writes U+FFFD for it). */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** `array`, or, when it is shorter than `size`, a copy at least that long (doubled until it is). */
function grown(array: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  if (array.length >= size) return array;
  let length = array.length;
  while (length < size) length *= 2;
  const larger = new Int32Array(length);
  larger.set(array);
  return larger;
}

/** Room for `size` bytes in `bytes`, keeping the first `kept`. */
function room(size: number, kept: number): void {
  if (bytes.length >= size) return;
  const larger = new Uint8Array(Math.max(size, 2 * bytes.length));
  larger.set(bytes.subarray(0, kept));
  bytes = larger;
  words = new DataView(larger.buffer);
}

/**
 * Writes `text[from, to)` at `at` as UTF-8, or, for a text with a surrogate that has no pair, as
 * WTF-8 (the same, with such a surrogate in three bytes), so equal bytes mean equal UTF-16 code units.
 * Returns the end of what it wrote; `bytes` grows as needed (a code unit takes at most three).
 */
function encode(text: string, from: number, to: number, at: number): number {
  const part = text.slice(from, to);
  if (!LONE_SURROGATE.test(part)) {
    const done = encoder.encodeInto(part, bytes.subarray(at));
    at += done.written as number;
    if (done.read === part.length) return at;
    const rest = part.slice(done.read as number);
    room(at + 3 * rest.length, at);
    return at + (encoder.encodeInto(rest, bytes.subarray(at)).written as number);
  }
  room(at + 3 * part.length, at);
  for (let i = 0; i < part.length; i++) {
    let c = part.charCodeAt(i);
    if (c < 0x80) {
      bytes[at++] = c;
      continue;
    }
    if (c < 0x800) {
      bytes[at++] = 0xc0 | (c >> 6);
      bytes[at++] = 0x80 | (c & 63);
      continue;
    }
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < part.length) {
      const low = part.charCodeAt(i + 1);
      if (low >= 0xdc00 && low < 0xe000) {
        c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        i++;
        bytes[at++] = 0xf0 | (c >> 18);
        bytes[at++] = 0x80 | ((c >> 12) & 63);
        bytes[at++] = 0x80 | ((c >> 6) & 63);
        bytes[at++] = 0x80 | (c & 63);
        continue;
      }
    }
    bytes[at++] = 0xe0 | (c >> 12);
    bytes[at++] = 0x80 | ((c >> 6) & 63);
    bytes[at++] = 0x80 | (c & 63);
  }
  return at;
}

/** The last mixing step of a line's hash (so its low bits, which pick the table slot, depend on all of it). */
function finish(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return h ^ (h >>> 16);
}

/**
 * The id of the line `bytes[start, start + length)` with hash `h`: the open-addressing table
 * (linear probing, at most half full) holds each distinct line once, and a line is compared with an
 * entry, four bytes at a time, only when their hashes and lengths match.
 */
function lineId(h: number, start: number, length: number): number {
  const slots = table;
  const mask = slots.length - 2;
  let slot = (h << 1) & mask;
  for (;;) {
    const entry = slots[slot + 1];
    if (entry === 0) break;
    const id = entry - 1;
    if (slots[slot] === h && idLength[id] === length && sameBytes(idStart[id], start, length)) return id;
    slot = (slot + 2) & mask;
  }
  const id = distinct++;
  slots[slot] = h;
  slots[slot + 1] = distinct;
  if (id === idHash.length) {
    idHash = grown(idHash, id + 1);
    idStart = grown(idStart, id + 1);
    idLength = grown(idLength, id + 1);
  }
  idHash[id] = h;
  idStart[id] = start;
  idLength[id] = length;
  if (4 * distinct > slots.length) rehash(2 * slots.length);
  return id;
}

function sameBytes(p: number, q: number, length: number): boolean {
  const b = bytes;
  const view = words;
  let k = 0;
  while (k + 8 <= length && view.getInt32(p + k) === view.getInt32(q + k) && view.getInt32(p + k + 4) === view.getInt32(q + k + 4)) k += 8;
  if (k + 8 <= length) return false;
  if (k + 4 <= length) {
    if (view.getInt32(p + k) !== view.getInt32(q + k)) return false;
    k += 4;
  }
  while (k < length && b[p + k] === b[q + k]) k++;
  return k === length;
}

/** A table of `size` ints (half as many slots) holding the ids so far. */
function rehash(size: number): void {
  const slots = new Int32Array(size);
  const mask = size - 2;
  for (let id = 0; id < distinct; id++) {
    let slot = (idHash[id] << 1) & mask;
    while (slots[slot + 1] !== 0) slot = (slot + 2) & mask;
    slots[slot] = idHash[id];
    slots[slot + 1] = id + 1;
  }
  table = slots;
}

/** `bytes` as words, read at any offset. */
let words = new DataView(bytes.buffer);

/** The four bytes of `bytes` at `p` as a little-endian word, zeros for those at or past `to`. */
function wordAt(view: DataView, p: number, to: number): number {
  if (p + 4 <= to) return view.getInt32(p, true);
  let w = 0;
  for (let k = to - p - 1; k >= 0; k--) w = (w << 8) | view.getUint8(p + k);
  return w;
}

/** Whether a word holds a newline byte: the zero-byte test on `word ^ 0x0a0a0a0a`, flagging bytes. */
function newlines(w: number): number {
  const t = w ^ 0x0a0a0a0a;
  return (t - 0x01010101) & ~t & 0x80808080;
}

/**
 * Hashes and interns every line of `bytes[from, to)` in one pass, writing ids to `lineIds` from
 * index `line`; returns the number of lines written so far.
 *
 * The pass reads eight bytes at a time from each line's start, as two words (zeros past `to`; a
 * zero byte is no newline). Without a newline in either, both are mixed in at once; else the words
 * before the one with the first newline are mixed in, then that word's bytes up to the newline (the
 * lowest byte the zero-byte test flags is always right), and the line ends there. Which way a line
 * is read depends only on its bytes, so equal lines hash alike wherever they lie; the newline is part
 * of the line, so a last line without one differs from the same text with one.
 */
function internLines(from: number, to: number, line: number): number {
  const view = words;
  const ids = lineIds;
  let h = 0;
  let start = from;
  let p = from;
  while (p < to) {
    let w = wordAt(view, p, to);
    let found = newlines(w);
    if (found === 0) {
      const v = wordAt(view, p + 4, to);
      const next = newlines(v);
      if (next === 0) {
        h = (Math.imul(h ^ w, 0x9e3779b1) + Math.imul(v, 0x85ebca6b)) | 0;
        h ^= h >>> 15;
        p += 8;
        continue;
      }
      h = Math.imul(h ^ w, 0x9e3779b1);
      h ^= h >>> 15;
      p += 4;
      w = v;
      found = next;
    }
    const bit = 31 - Math.clz32(found & -found);
    h = Math.imul(h ^ (bit === 31 ? w : w & ((1 << (bit + 1)) - 1)), 0x9e3779b1);
    h ^= h >>> 15;
    p += (bit + 1) >>> 3;
    ids[line++] = lineId(finish(h), start, p - start);
    start = p;
    h = 0;
  }
  // A last line without a newline (its last word read past `to`, so `p` may be beyond it).
  if (start < to) ids[line++] = lineId(finish(h), start, to - start);
  return line;
}

/** The lines of both middles as interned ids. */
export function hashedLines(before: string, m: Middles, after: string): Interned {
  // A byte a code unit (all ASCII) and a little more; `encode` grows it for other text.
  const units = m.a1 - m.a0 + (m.b1 - m.b0);
  room(units + (units >>> 3) + 16, 0);
  const split = encode(before, m.a0, m.a1, 0);
  const end = encode(after, m.b0, m.b1, split);
  // A line has at least one byte, so the byte count bounds the line count; past a megabyte the
  // lines are counted instead. Ids grow as they come.
  const most = end < 1 << 20 ? end + 1 : lineCount(before, m.a0, m.a1) + lineCount(after, m.b0, m.b1) + 1;
  if (lineIds.length < most) lineIds = new Int32Array(most);
  distinct = 0;
  // About a slot per 16 bytes (lines are longer than that, mostly); `lineId` doubles it as needed.
  let size = 1 << 12;
  while (size < end >>> 3) size *= 2;
  if (table.length < size || table.length > 4 * size) table = new Int32Array(size);
  else table.fill(0);
  const n = internLines(0, split, 0);
  const total = internLines(split, end, n);
  const ids = lineIds.slice(0, total);
  if (bytes.length > KEEP_BYTES) {
    bytes = new Uint8Array(1 << 16);
    words = new DataView(bytes.buffer);
  }
  if (4 * lineIds.length > KEEP_BYTES) lineIds = new Int32Array(1 << 12);
  if (4 * table.length > KEEP_BYTES) table = new Int32Array(1 << 12);
  if (4 * idHash.length > KEEP_BYTES) {
    idHash = new Int32Array(1 << 10);
    idStart = new Int32Array(1 << 10);
    idLength = new Int32Array(1 << 10);
  }
  return { a: ids.subarray(0, n), b: ids.subarray(n, total), distinct };
}

/** For tests: the hash `hashedLines` gives a text of one line (with or without its newline). */
export function lineHash(line: string): number {
  hashedLines(line, { a0: 0, a1: line.length, b0: 0, b1: 0 }, '');
  return idHash[0];
}
