// Lines an edit adds and removes, as `git diff --minimal --numstat` counts them: the port of
// vis-lang-interface `line_changes` (src/vis_lang_interface/changes.py @43aba45a).
//
// Lines split at "\n" only and count with their newline; a last line without one never equals the
// same text with one. `kept` is the length of a common subsequence of the two line lists, and
// `added = lines(after) - kept`, `removed = lines(before) - kept`. Within the step budget `kept` is a
// longest common subsequence, so the counts are the fewest any line diff gives. Past it the counts
// come from anchoring on lines that occur once per side and may exceed the fewest, never fall below.
//
// The steps are the reference's: shared ends off, lines only one side holds dropped, then Myers'
// search, then bit-parallel rows, then anchoring. Every decision (which search runs, when it gives
// up) depends on operation counts only, the ones the reference counts, so the fallback triggers on
// exactly the inputs where it does there. Where an exact count is certain anyway (the reference
// would count exactly, so every exact count is its number), faster exact searches answer instead:
//
// 1. The shared ends come off the raw texts (textLines.ts `middles`), so nothing is done per line
//    for the lines around the changes.
// 2. A few changes are counted by Myers' search over the middles' lines as character ranges
//    (`textMyers`): no line is split, hashed or counted, except to confirm the count is certain.
// 3. Else the middles' lines become integer ids (`hashedLines`: one hashing pass over their UTF-8
//    bytes, an open-addressing table, bytes compared only when hashes match), and the reference's
//    reduction runs on them; then Myers' search while the changes look few, else bit-parallel rows
//    over the band a cheap common subsequence allows (`longest`), or, when exactness is not
//    certain, the reference's own `_exact` and `_anchored`.

import { hashedLines, lineCount, middles, TEXT_MYERS_ROUNDS, textMyers, type Distance, type Middles } from './textLines';

export interface LineCounts {
  added: number;
  removed: number;
}

/** Overrides of the work budgets; for tests. Defaults are the reference's constants. */
export interface LineChangesBudgets {
  /** Steps an exact count may take (`_MOST_STEPS`). */
  mostSteps?: number;
  /** Pairs of equal lines the fallback may follow (`_MOST_PAIRS`). */
  mostPairs?: number;
  /** `repeated distinct lines × longer side` past which bit-parallel rows give up (`_MOST_MASK_BITS`). */
  mostMaskBits?: number;
}

/** Lines of the longer side that add one step to a bit-parallel row. */
export const LINES_PER_STEP = 1800;
/** Steps, about half a second in the reference, an exact count may take. */
export const MOST_STEPS = 2_000_000;
/**
 * Bits the reference lets the masks of repeated lines hold in one bit-parallel count. The rows here
 * store masks sparsely, in memory linear in the lines, but give up at the same limit for parity.
 */
export const MOST_MASK_BITS = 2 ** 28;
/** Pairs of equal lines the count past the step budget may follow. */
export const MOST_PAIRS = 1_000_000;

const EMPTY = new Int32Array(0);

/** `(added, removed)` lines from `before` to `after`; see the file comment. */
export function lineChanges(before: string, after: string, budgets: LineChangesBudgets = {}): LineCounts {
  if (before === after) return { added: 0, removed: 0 };
  const limits: Limits = {
    mostSteps: budgets.mostSteps ?? MOST_STEPS,
    mostPairs: budgets.mostPairs ?? MOST_PAIRS,
    mostMaskBits: budgets.mostMaskBits ?? MOST_MASK_BITS,
  };
  const m = middles(before, after);
  if (m.a0 === m.a1 || m.b0 === m.b1) return { added: lineCount(after, m.b0, m.b1), removed: lineCount(before, m.a0, m.a1) };
  const quick = textMyers(before, m, after, TEXT_MYERS_ROUNDS, 8 * (m.a1 - m.a0 + m.b1 - m.b0));
  if (quick !== null && exactIsCertain(before, m, after, quick, limits)) {
    return { added: (quick.d - quick.diff) / 2, removed: (quick.d + quick.diff) / 2 };
  }
  const { a, b, distinct } = hashedLines(before, m, after);
  const scratch = new Scratch(distinct);
  const [x, y, ends] = reduced(scratch, a, b);
  let kept = ends;
  if (x.length && y.length) {
    kept += fitsExactly(a.length, b.length, limits)
      ? longest(scratch, x, y)
      : exact(scratch, x, y, limits.mostSteps, limits.mostMaskBits) ?? anchored(scratch, x, y, limits);
  }
  return { added: b.length - kept, removed: a.length - kept };
}

/**
 * The fewest `(added, removed)`, with no budget at all: always a longest common subsequence.
 * For benchmarks and checks; its bit-parallel rows run over every word, not bounded in time.
 */
export function fewestLineChanges(before: string, after: string): LineCounts {
  if (before === after) return { added: 0, removed: 0 };
  const m = middles(before, after);
  if (m.a0 === m.a1 || m.b0 === m.b1) return { added: lineCount(after, m.b0, m.b1), removed: lineCount(before, m.a0, m.a1) };
  const { a, b, distinct } = hashedLines(before, m, after);
  const scratch = new Scratch(distinct);
  const [x, y, ends] = reduced(scratch, a, b);
  let kept = ends;
  if (x.length && y.length) kept += bitParallel(scratch, x, y, Infinity, 0) as number;
  return { added: b.length - kept, removed: a.length - kept };
}

/**
 * The lines of `text` as comparison keys: "\n" splits, an empty piece after the last "\n" is no line,
 * and a last line without a newline gets a "\n" appended to its key. No other key holds a "\n", so
 * that line equals only another last line without a newline with the same text. For tests.
 */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  const last = lines.pop() as string;
  if (last !== '') lines.push(last + '\n');
  return lines;
}

interface Limits {
  mostSteps: number;
  mostPairs: number;
  mostMaskBits: number;
}

/** How many lines two lists share at the start, then how many of the rest at the end. */
function sharedEnds(a: Int32Array, b: Int32Array): [number, number] {
  const n = a.length;
  const m = b.length;
  const top = Math.min(n, m);
  let head = 0;
  while (head < top && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < top - head && a[n - 1 - tail] === b[m - 1 - tail]) tail++;
  return [head, tail];
}

/**
 * Whether the reference is sure to count middles of `n` and `m` lines exactly. Reducing them only
 * shortens them, so if their own lengths fit the step budget the reduced ones do, and bit-parallel
 * rows run; and a side of `size` lines repeats at most `size/2` distinct lines, so `size/2 × size`
 * within the mask limit means the rows cannot give up. Then any exact count gives the reference's
 * numbers.
 */
function fitsExactly(n: number, m: number, limits: Limits): boolean {
  const longer = Math.max(n, m);
  return stepsOf(n, m) <= limits.mostSteps && Math.floor(longer / 2) * longer <= limits.mostMaskBits;
}

/**
 * `fitsExactly` for the middles `textMyers` measured. A line has at least one character, so lengths
 * in characters that fit settle it; else the old middle's lines are counted, and the new middle's
 * follow from the difference the search found.
 */
function exactIsCertain(before: string, m: Middles, after: string, found: Distance, limits: Limits): boolean {
  if (fitsExactly(m.a1 - m.a0, m.b1 - m.b0, limits)) return true;
  const n = m.a1 - m.a0 <= m.b1 - m.b0 ? lineCount(before, m.a0, m.a1) : lineCount(after, m.b0, m.b1) + found.diff;
  return fitsExactly(n, n - found.diff, limits);
}

/**
 * Per-line-id work arrays, allocated once per count and left zeroed (or with stale stamps) by every
 * user, so no step allocates in proportion to the number of distinct lines.
 */
class Scratch {
  /** Generation stamps: which ids the current old / new side holds (`reduced`). */
  readonly inOld: Int32Array;
  readonly inNew: Int32Array;
  stamp = 0;
  /** Occurrence counts per side; every user sets them back to zero. */
  readonly countOld: Int32Array;
  readonly countNew: Int32Array;
  /** A position per id, meaningful only while its count says so. */
  readonly where: Int32Array;
  /** A number per id (a mask, a chosen line) plus one; every user sets it back to zero. */
  readonly tag: Int32Array;

  constructor(size: number) {
    this.inOld = new Int32Array(size);
    this.inNew = new Int32Array(size);
    this.countOld = new Int32Array(size);
    this.countNew = new Int32Array(size);
    this.where = new Int32Array(size);
    this.tag = new Int32Array(size);
  }
}

/**
 * A longest common subsequence length, for sides the reference is sure to count exactly (so any
 * exact search gives its number). Myers' search (about d²/2 steps for d differences) while d looks
 * below a sixteenth of the shorter side, where it beats the rows; else bit-parallel rows, over the
 * band `commonEstimate` allows.
 */
function longest(s: Scratch, a: Int32Array, b: Int32Array): number {
  const shorter = Math.min(a.length, b.length);
  const rounds = Math.max(16, shorter >>> 4);
  const found = myers(a, b, ((rounds + 1) * (rounds + 2)) / 2 + 2 * (a.length + b.length), rounds);
  if (found !== null) return found;
  const lower = commonEstimate(s, a, b);
  return lower === shorter ? lower : (bitParallel(s, a, b, Infinity, lower) as number);
}

/** `_without_shared_ends`: both sides less the lines they share at both ends, and how many those were. */
function withoutSharedEnds(a: Int32Array, b: Int32Array): [Int32Array, Int32Array, number] {
  const [head, tail] = sharedEnds(a, b);
  if (head === 0 && tail === 0) return [a, b, 0];
  return [a.subarray(head, a.length - tail), b.subarray(head, b.length - tail), head + tail];
}

/**
 * `_reduced`: drops the shared ends, then every line the other side does not hold (it can never
 * match), then the shared ends this exposes. Returns both remainders and the lines kept at the ends.
 */
function reduced(s: Scratch, a0: Int32Array, b0: Int32Array): [Int32Array, Int32Array, number] {
  let [a, b, kept] = withoutSharedEnds(a0, b0);
  if (!a.length || !b.length) return [a, b, kept];
  const stamp = ++s.stamp;
  for (let i = 0; i < a.length; i++) s.inOld[a[i]] = stamp;
  for (let j = 0; j < b.length; j++) s.inNew[b[j]] = stamp;
  a = keepMarked(a, s.inNew, stamp);
  b = keepMarked(b, s.inOld, stamp);
  if (!a.length || !b.length) return [EMPTY, EMPTY, kept];
  const [x, y, ends] = withoutSharedEnds(a, b);
  return [x, y, kept + ends];
}

function keepMarked(lines: Int32Array, marks: Int32Array, stamp: number): Int32Array {
  let size = 0;
  for (let i = 0; i < lines.length; i++) if (marks[lines[i]] === stamp) size++;
  if (size === lines.length) return lines;
  const out = new Int32Array(size);
  let k = 0;
  for (let i = 0; i < lines.length; i++) if (marks[lines[i]] === stamp) out[k++] = lines[i];
  return out;
}

/** `_steps`: what a bit-parallel count costs, in the reference's steps. */
function stepsOf(n: number, m: number): number {
  const shorter = Math.min(n, m);
  const longer = Math.max(n, m);
  return shorter * (1 + Math.floor(longer / LINES_PER_STEP));
}

/**
 * `_exact`: a longest common subsequence length within `budget` steps, or null. Myers' search goes
 * first while the length difference allows it; bit-parallel rows take over when it gives up.
 */
function exact(s: Scratch, a: Int32Array, b: Int32Array, budget: number, maskBits: number): number | null {
  const steps = stepsOf(a.length, b.length);
  const most = Math.floor(Math.min(steps, budget) / 2);
  const gap = Math.abs(a.length - b.length);
  if (((gap + 1) * (gap + 2)) / 2 <= most) {
    const found = myers(a, b, most);
    if (found !== null) return found;
  }
  if (steps <= budget) return bitParallel(s, a, b, maskBits);
  return null;
}

/**
 * `_myers`: a longest common subsequence length by Myers' greedy O((N+M)·D) search, or null once a
 * round ends with `(d+1)(d+2)/2 + walked/8` past `budget` (one step per diagonal, an eighth of one
 * per line a snake follows). The tie-break and the give-up test are the reference's, so it gives up
 * on exactly the same inputs. With `rounds` (not the reference's), it also gives up when, every 16
 * rounds, the pace so far would take more than `rounds` rounds to cross `a`.
 */
export function myers(a: Int32Array, b: Int32Array, budget: number, rounds = 0): number | null {
  const n = a.length;
  const m = b.length;
  const limit = Math.min(n + m, Math.floor(Math.sqrt(2 * budget)) + 1);
  const offset = limit + 1;
  const reach = new Int32Array(2 * limit + 3);
  let walked = 0;
  let furthest = 0;
  for (let d = 0; d <= limit; d++) {
    const low = offset - d;
    const high = offset + d;
    for (let k = low; k <= high; k += 2) {
      let x = k === low || (k !== high && reach[k - 1] < reach[k + 1]) ? reach[k + 1] : reach[k - 1] + 1;
      let y = x - k + offset;
      const start = x;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      if (x >= n && y >= m) return Math.floor((n + m - d) / 2);
      reach[k] = x;
      walked += x - start;
      if (x > furthest) furthest = x;
    }
    if (((d + 1) * (d + 2)) / 2 + Math.floor(walked / 8) > budget) return null;
    if (rounds && (d >= rounds || ((d & 15) === 15 && furthest * rounds < (d + 1) * n))) return null;
  }
  return null;
}

/**
 * `_bit_parallel`: a longest common subsequence length by bit-parallel rows (Allison–Dix, in Hyyrö's
 * form `V' = (V + (V & M)) | (V & ~M)`), over 32-bit words; null when `repeated × size` passes
 * `maskBits`, where `size` is the longer side and `repeated` the distinct lines it holds more than
 * once (the reference's memory limit, kept so it gives up on the same inputs).
 *
 * Rows run over a band of words only. Given a common subsequence of `lower` lines (by default
 * `commonEstimate`'s), a longest one leaves at most `rows - lower` lines of the shorter side and
 * `size - lower` of the longer unmatched, so each of its matches (i, j) has `i - (rows - lower) <= j
 * <= i + (size - lower)`; matches outside that band are left out of the masks, which cannot shorten
 * it. A word below the band then never changes again and sends no carry up, and one above it is
 * still all ones, which a carry leaves as it is, so a row touches its band's words and no others.
 *
 * A line the longer side holds in a quarter of the words or more gets a whole mask, and its rows
 * run over the band in one tight loop. Every other line's mask is stored sparsely, as the words
 * where it has bits, so its row costs those words plus the words a carry crosses.
 */
export function bitParallel(s: Scratch, a0: Int32Array, b0: Int32Array, maskBits: number, lower?: number): number | null {
  const [a, b] = a0.length > b0.length ? [b0, a0] : [a0, b0];
  const size = b.length;
  const words = (size + 31) >>> 5;
  const count = s.countNew;
  const entries = s.countOld;
  const lastWord = s.tag;
  let repeated = 0;
  for (let j = 0; j < size; j++) if (++count[b[j]] === 2) repeated++;
  for (let j = 0; j < size; j++) count[b[j]] = 0;
  if (repeated * size > maskBits) return null;
  const least = lower ?? commonEstimate(s, a, b);
  const below = a.length - least;
  const above = size - least;
  for (let j = 0; j < size; j++) {
    const id = b[j];
    count[id]++;
    const w = (j >>> 5) + 1;
    if (lastWord[id] !== w) {
      lastWord[id] = w;
      entries[id]++;
    }
  }
  // Each line's masks: `end[id]` is past its last sparse (word, bits) entry, or, for a whole mask,
  // `-1 - k` for the k-th mask of `whole`. Lines are laid out in order of first occurrence.
  const dense = Math.max(1, words >>> 2);
  const end = s.where;
  let sparseTotal = 0;
  let denseTotal = 0;
  for (let j = 0; j < size; j++) {
    const id = b[j];
    if (count[id] === 0) continue;
    count[id] = 0;
    lastWord[id] = 0;
    if (entries[id] >= dense) {
      end[id] = -1 - denseTotal++;
    } else {
      end[id] = sparseTotal;
      sparseTotal += entries[id];
    }
  }
  const maskWord = new Int32Array(sparseTotal);
  const maskBitsOf = new Int32Array(sparseTotal);
  const whole = new Int32Array(denseTotal * words);
  for (let j = 0; j < size; j++) {
    const id = b[j];
    const w = j >>> 5;
    const e = end[id];
    if (e < 0) {
      whole[(-1 - e) * words + w] |= 1 << (j & 31);
    } else if (lastWord[id] !== w + 1) {
      lastWord[id] = w + 1;
      maskWord[e] = w;
      maskBitsOf[end[id]++] = 1 << (j & 31);
    } else {
      maskBitsOf[e - 1] |= 1 << (j & 31);
    }
  }
  const row = new Int32Array(words).fill(-1);
  for (let i = 0; i < a.length; i++) {
    const id = a[i];
    const e = entries[id];
    if (e === 0) continue;
    const first = i - below > 0 ? i - below : 0;
    const last = i + above < size - 1 ? i + above : size - 1;
    if (first > last) continue;
    const lo = first >>> 5;
    const hi = last >>> 5;
    const loMask = -1 << (first & 31);
    const hiMask = (last & 31) === 31 ? -1 : (1 << ((last & 31) + 1)) - 1;
    const at = end[id];
    if (at < 0) wholeRow(row, whole, (-1 - at) * words, lo, hi, loMask, hiMask);
    else addRow(row, maskWord, maskBitsOf, at - e, at, lo, hi, loMask, hiMask);
  }
  for (let j = 0; j < size; j++) entries[b[j]] = lastWord[b[j]] = 0;
  // Bits at or past `size` only ever receive carries from below; they are not lines.
  const spare = size & 31;
  if (spare) row[words - 1] &= (1 << spare) - 1;
  let zeros = 0;
  for (let w = 0; w < words; w++) zeros += popcount(row[w]);
  return size - zeros;
}

/** One row over words `lo..hi` for a whole mask starting at `whole[from]`, its ends cut to the band. */
function wholeRow(row: Int32Array, whole: Int32Array, from: number, lo: number, hi: number, loMask: number, hiMask: number): void {
  let carry = 0;
  for (let w = lo; w <= hi; w++) {
    const v = row[w];
    let mask = whole[from + w];
    if (w === lo) mask &= loMask;
    if (w === hi) mask &= hiMask;
    const u = v & mask;
    const sum = (v + u + carry) | 0;
    carry = ((v & u) | ((v | u) & ~sum)) >>> 31;
    row[w] = sum | (v & ~mask);
  }
}

/**
 * One row for the sparse mask in entries [from, to), over words `lo..hi`, its ends cut to the band.
 * Between and past the mask's words only a carry moves (`carried`).
 */
function addRow(
  row: Int32Array,
  maskWord: Int32Array,
  maskBits: Int32Array,
  from: number,
  to: number,
  lo: number,
  hi: number,
  loMask: number,
  hiMask: number,
): void {
  let k = from;
  if (maskWord[k] < lo) {
    let top = to;
    while (k < top) {
      const mid = (k + top) >>> 1;
      if (maskWord[mid] < lo) k = mid + 1;
      else top = mid;
    }
  }
  let carry = 0;
  let w = lo;
  for (; k < to; k++) {
    const target = maskWord[k];
    if (target > hi) break;
    if (carry !== 0) carry = carried(row, w, target);
    w = target;
    const v = row[w];
    let mask = maskBits[k];
    if (w === lo) mask &= loMask;
    if (w === hi) mask &= hiMask;
    const u = v & mask;
    if ((u | carry) !== 0) {
      const sum = (v + u + carry) | 0;
      carry = ((v & u) | ((v | u) & ~sum)) >>> 31;
      row[w] = sum | (v & ~mask);
    }
    w++;
  }
  if (carry !== 0) carried(row, w, hi + 1);
}

/**
 * A carry into `row[w]` where the mask has no bits: it passes words of all ones (which keep their
 * value) and stops in the first that is not. Returns the carry still moving at `stop`, 0 or 1.
 */
function carried(row: Int32Array, w: number, stop: number): number {
  for (; w < stop; w++) {
    const v = row[w];
    if (v !== -1) {
      row[w] = ((v + 1) | 0) | v;
      return 0;
    }
  }
  return 1;
}

function popcount(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  v = (v + (v >>> 4)) & 0x0f0f0f0f;
  return Math.imul(v, 0x01010101) >>> 24;
}

/** First index in `sorted[0..size)` whose value is not below `value`. */
function bisectLeft(sorted: Int32Array, size: number, value: number): number {
  let low = 0;
  let high = size;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The lines each side holds once, as pairs of places (`pairsA[p]` in `a`, `pairsB[p]` in `b`, in
 * `a`'s order), and `anchors`: the pairs of a longest run that keeps their order in `b` (patience
 * sorting, reconstructed from the last pile exactly as the reference does).
 */
function uniqueAnchors(s: Scratch, a: Int32Array, b: Int32Array): { pairsA: Int32Array; pairsB: Int32Array; anchors: Int32Array } {
  const countA = s.countOld;
  const countB = s.countNew;
  for (let i = 0; i < a.length; i++) countA[a[i]]++;
  for (let j = 0; j < b.length; j++) {
    countB[b[j]]++;
    s.where[b[j]] = j;
  }
  let pairs = 0;
  for (let i = 0; i < a.length; i++) if (countA[a[i]] === 1 && countB[a[i]] === 1) pairs++;
  const pairsA = new Int32Array(pairs);
  const pairsB = new Int32Array(pairs);
  for (let i = 0, p = 0; i < a.length; i++) {
    const id = a[i];
    if (countA[id] === 1 && countB[id] === 1) {
      pairsA[p] = i;
      pairsB[p++] = s.where[id];
    }
  }
  for (let i = 0; i < a.length; i++) countA[a[i]] = 0;
  for (let j = 0; j < b.length; j++) countB[b[j]] = 0;

  const tails = new Int32Array(pairs);
  const ends = new Int32Array(pairs);
  const previous = new Int32Array(pairs);
  let piles = 0;
  for (let p = 0; p < pairs; p++) {
    const j = pairsB[p];
    const k = bisectLeft(tails, piles, j);
    tails[k] = j;
    ends[k] = p;
    if (k === piles) piles++;
    previous[p] = k ? ends[k - 1] : -1;
  }
  const anchors = new Int32Array(piles);
  for (let p = piles ? ends[piles - 1] : -1, k = piles; p !== -1; p = previous[p]) anchors[--k] = p;
  return { pairsA, pairsB, anchors };
}

/**
 * The length of some common subsequence, found cheaply: the unique-line anchors, and in each gap
 * between them the lines both ends of the gap share. A lower bound on the longest, which bounds how
 * far from the diagonal a longest one can stray.
 */
function commonEstimate(s: Scratch, a: Int32Array, b: Int32Array): number {
  const { pairsA, pairsB, anchors } = uniqueAnchors(s, a, b);
  let kept = anchors.length;
  let i0 = 0;
  let j0 = 0;
  for (let t = 0; t <= anchors.length; t++) {
    const i1 = t < anchors.length ? pairsA[anchors[t]] : a.length;
    const j1 = t < anchors.length ? pairsB[anchors[t]] : b.length;
    let i = i1;
    let j = j1;
    while (i0 < i && j0 < j && a[i0] === b[j0]) {
      i0++;
      j0++;
      kept++;
    }
    while (i0 < i && j0 < j && a[i - 1] === b[j - 1]) {
      i--;
      j--;
      kept++;
    }
    i0 = i1 + 1;
    j0 = j1 + 1;
  }
  return kept;
}

/**
 * `_anchored`: a common subsequence through the lines each side holds once, in the longest run that
 * keeps their order (`uniqueAnchors`, whose reconstruction is the reference's, since the anchors
 * chosen set the gaps). Each gap is reduced, then counted exactly while the step budget lasts (never
 * when there are no anchors), else sparsely within the pair budget.
 */
function anchored(s: Scratch, a: Int32Array, b: Int32Array, limits: Limits): number {
  const { pairsA, pairsB, anchors } = uniqueAnchors(s, a, b);
  let budget = limits.mostSteps;
  let most = limits.mostPairs;
  let kept = anchors.length;
  let i0 = 0;
  let j0 = 0;
  for (let t = 0; t <= anchors.length; t++) {
    const i = t < anchors.length ? pairsA[anchors[t]] : a.length;
    const j = t < anchors.length ? pairsB[anchors[t]] : b.length;
    const [gapA, gapB, endsKept] = reduced(s, a.subarray(i0, i), b.subarray(j0, j));
    kept += endsKept;
    if (gapA.length && gapB.length) {
      let found = anchors.length ? exact(s, gapA, gapB, budget, limits.mostMaskBits) : null;
      budget -= stepsOf(gapA.length, gapB.length);
      if (found === null) {
        const [length, followed] = sparse(s, gapA, gapB, most);
        found = length;
        most -= followed;
      }
      kept += found;
    }
    i0 = i + 1;
    j0 = j + 1;
  }
  return kept;
}

/**
 * `_sparse`: a common subsequence length through the lines that repeat least (Hunt–Szymanski over
 * their equal-line pairs), and the pairs it followed. Lines are taken by `count_old × count_new`,
 * smallest first, while the running sum stays within `most`; the first that does not fit stops.
 * Lines with equal pair counts go in the order they first occur in `a` (the reference orders those by
 * string hash, so it is not deterministic there; this order is).
 */
export function sparse(s: Scratch, a: Int32Array, b: Int32Array, most: number): [number, number] {
  const countA = s.countOld;
  const countB = s.countNew;
  for (let j = 0; j < b.length; j++) countB[b[j]]++;
  const shared: number[] = [];
  for (let i = 0; i < a.length; i++) {
    const id = a[i];
    if (countA[id]++ === 0 && countB[id] > 0) shared.push(id);
  }
  shared.sort((x, y) => countA[x] * countB[x] - countA[y] * countB[y]);
  let followed = 0;
  let chosen = 0;
  for (; chosen < shared.length; chosen++) {
    const id = shared[chosen];
    const pairs = countA[id] * countB[id];
    if (followed + pairs > most) break;
    followed += pairs;
  }
  // The chosen lines' places in `b`, last first, packed per line: `where` holds each line's start.
  const where = s.where;
  let total = 0;
  for (let c = 0; c < chosen; c++) {
    const id = shared[c];
    where[id] = total;
    total += countB[id];
  }
  const places = new Int32Array(total);
  const fill = new Int32Array(chosen);
  const tag = s.tag;
  for (let c = 0; c < chosen; c++) tag[shared[c]] = c + 1;
  for (let j = b.length - 1; j >= 0; j--) {
    const c = tag[b[j]];
    if (c !== 0) places[where[b[j]] + fill[c - 1]++] = j;
  }
  const tails = new Int32Array(Math.min(a.length, b.length));
  let length = 0;
  for (let i = 0; i < a.length; i++) {
    if (tag[a[i]] === 0) continue;
    const start = where[a[i]];
    const stop = start + countB[a[i]];
    for (let p = start; p < stop; p++) {
      const j = places[p];
      const k = bisectLeft(tails, length, j);
      tails[k] = j;
      if (k === length) length++;
    }
  }
  for (let c = 0; c < chosen; c++) tag[shared[c]] = 0;
  for (let i = 0; i < a.length; i++) countA[a[i]] = 0;
  for (let j = 0; j < b.length; j++) countB[b[j]] = 0;
  return [length, followed];
}

/** The reference's internal counts on plain line lists, for tests that check them one by one. */
export const internals = {
  intern(old: string[], neu: string[]): { a: Int32Array; b: Int32Array; scratch: Scratch } {
    const ids = new Map<string, number>();
    const intern = (lines: string[]) => Int32Array.from(lines, (line) => {
      let id = ids.get(line);
      if (id === undefined) ids.set(line, (id = ids.size));
      return id;
    });
    const a = intern(old);
    const b = intern(neu);
    return { a, b, scratch: new Scratch(ids.size) };
  },
  myers(old: string[], neu: string[], budget: number): number | null {
    const { a, b } = internals.intern(old, neu);
    return myers(a, b, budget);
  },
  bitParallel(old: string[], neu: string[], maskBits: number = MOST_MASK_BITS, lower?: number): number | null {
    const { a, b, scratch } = internals.intern(old, neu);
    return bitParallel(scratch, a, b, maskBits, lower);
  },
  sparse(old: string[], neu: string[], most: number): [number, number] {
    const { a, b, scratch } = internals.intern(old, neu);
    return sparse(scratch, a, b, most);
  },
};
