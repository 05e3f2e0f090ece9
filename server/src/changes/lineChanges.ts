// Lines an edit adds and removes, as `git diff --minimal --numstat` counts them: the port of
// vis-lang-interface `line_changes` (shared/spec/vis-lang-interface.md §1).
//
// Lines split at "\n" only and count with their newline; a last line without one never equals the
// same text with one. `kept` is the length of a common subsequence of the two line lists, and
// `added = lines(after) - kept`, `removed = lines(before) - kept`. Within the step budget `kept` is a
// longest common subsequence, so the counts are the fewest any line diff gives. Past it the counts
// come from anchoring on lines that occur once per side and may exceed the fewest, never fall below.
//
// Every decision (which search runs, when it gives up) depends on operation counts only, the same
// ones the reference counts, so the fallback triggers on exactly the inputs where it does there.

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
/** Bits the masks of repeated lines may hold in one bit-parallel count. */
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
  const input = prepare(before, after);
  return counts(input, keptWithin(input, limits));
}

/**
 * The fewest `(added, removed)`, with no budget at all: always a longest common subsequence.
 * For benchmarks and checks; its bit-parallel masks are not bounded in memory.
 */
export function fewestLineChanges(before: string, after: string): LineCounts {
  if (before === after) return { added: 0, removed: 0 };
  const input = prepare(before, after);
  const { old, new: neu, scratch } = input;
  const [a, b, ends] = reduced(scratch, old, neu);
  let kept = input.kept + ends;
  if (a.length && b.length) kept += bitParallel(scratch, a, b, Infinity) as number;
  return counts(input, kept);
}

/**
 * The lines of `text` as comparison keys: "\n" splits, an empty piece after the last "\n" is no line,
 * and a last line without a newline gets a "\n" appended to its key. No other key holds a "\n", so
 * that line equals only another last line without a newline with the same text.
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

interface Prepared {
  oldLines: number;
  newLines: number;
  /** Lines shared at both ends, already counted as kept. */
  kept: number;
  /** The rest of each side, as interned line ids. */
  old: Int32Array;
  new: Int32Array;
  scratch: Scratch;
}

function counts(input: Prepared, kept: number): LineCounts {
  return { added: input.newLines - kept, removed: input.oldLines - kept };
}

/** Splits both texts, keeps the shared ends as strings, and interns only the middles. */
function prepare(before: string, after: string): Prepared {
  const x = splitLines(before);
  const y = splitLines(after);
  const n = x.length;
  const m = y.length;
  const top = Math.min(n, m);
  let head = 0;
  while (head < top && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < top - head && x[n - 1 - tail] === y[m - 1 - tail]) tail++;
  const ids = new Map<string, number>();
  const intern = (lines: string[], from: number, to: number): Int32Array => {
    const out = new Int32Array(to - from);
    for (let i = from; i < to; i++) {
      const line = lines[i];
      let id = ids.get(line);
      if (id === undefined) {
        id = ids.size;
        ids.set(line, id);
      }
      out[i - from] = id;
    }
    return out;
  };
  const old = intern(x, head, n - tail);
  const neu = intern(y, head, m - tail);
  return { oldLines: n, newLines: m, kept: head + tail, old, new: neu, scratch: new Scratch(ids.size) };
}

/** `_kept`: a common subsequence length, longest within the budgets. */
function keptWithin(input: Prepared, limits: Limits): number {
  const { scratch } = input;
  const [a, b, ends] = reduced(scratch, input.old, input.new);
  const kept = input.kept + ends;
  if (!a.length || !b.length) return kept;
  const found = exact(scratch, a, b, limits.mostSteps, limits.mostMaskBits);
  return kept + (found ?? anchored(scratch, a, b, limits));
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

/** `_without_shared_ends`: both sides less the lines they share at both ends, and how many those were. */
function withoutSharedEnds(a: Int32Array, b: Int32Array): [Int32Array, Int32Array, number] {
  const n = a.length;
  const m = b.length;
  const top = Math.min(n, m);
  let head = 0;
  while (head < top && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < top - head && a[n - 1 - tail] === b[m - 1 - tail]) tail++;
  if (head === 0 && tail === 0) return [a, b, 0];
  return [a.subarray(head, n - tail), b.subarray(head, m - tail), head + tail];
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
 * on exactly the same inputs.
 */
export function myers(a: Int32Array, b: Int32Array, budget: number): number | null {
  const n = a.length;
  const m = b.length;
  const limit = Math.min(n + m, Math.floor(Math.sqrt(2 * budget)) + 1);
  const offset = limit + 1;
  const reach = new Int32Array(2 * limit + 3);
  let walked = 0;
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
    }
    if (((d + 1) * (d + 2)) / 2 + Math.floor(walked / 8) > budget) return null;
  }
  return null;
}

/**
 * `_bit_parallel`: a longest common subsequence length by bit-parallel rows (Allison–Dix, in Hyyrö's
 * form `V' = (V + (V & M)) | (V & ~M)`), over 32-bit words; null when `repeated × size` passes
 * `maskBits`, where `size` is the longer side and `repeated` the distinct lines it holds more than
 * once (the reference's memory limit, kept so it gives up on the same inputs).
 *
 * A line the longer side holds once has a one-bit mask, so its row only touches the words a carry
 * crosses; a repeated line's row touches the words from its first to its last occurrence, then the
 * carry. Words where both the match and the carry are zero are left as they are.
 */
export function bitParallel(s: Scratch, a0: Int32Array, b0: Int32Array, maskBits: number): number | null {
  const [a, b] = a0.length > b0.length ? [b0, a0] : [a0, b0];
  const size = b.length;
  const count = s.countNew;
  const where = s.where;
  let repeated = 0;
  let fits = true;
  for (let j = 0; j < size; j++) {
    const id = b[j];
    const c = ++count[id];
    if (c === 1) where[id] = j;
    else if (c === 2) {
      repeated++;
      if (repeated * size > maskBits) fits = false;
    }
  }
  if (!fits) {
    for (let j = 0; j < size; j++) count[b[j]] = 0;
    return null;
  }
  const words = (size + 31) >>> 5;
  // Each repeated line gets a mask (its tag, less one) spanning words lo..hi of `masks`.
  const tag = s.tag;
  const masks = new Int32Array(repeated * words);
  const lo = new Int32Array(repeated);
  const hi = new Int32Array(repeated);
  let next = 0;
  for (let j = 0; j < size; j++) {
    const id = b[j];
    if (count[id] < 2) continue;
    if (tag[id] === 0) {
      tag[id] = ++next;
      lo[next - 1] = j >>> 5;
    }
    const r = tag[id] - 1;
    masks[r * words + (j >>> 5)] |= 1 << (j & 31);
    hi[r] = j >>> 5;
  }
  const row = new Int32Array(words).fill(-1);
  for (let i = 0; i < a.length; i++) {
    const id = a[i];
    const c = count[id];
    if (c === 0) continue;
    let w: number;
    let carry: number;
    if (c === 1) {
      const j = where[id];
      w = j >>> 5;
      const bit = 1 << (j & 31);
      const v = row[w];
      if ((v & bit) === 0) continue;
      const sum = (v + bit) | 0;
      carry = ((v & bit) | ((v | bit) & ~sum)) >>> 31;
      row[w] = sum | (v & ~bit);
      w++;
    } else {
      const r = tag[id] - 1;
      const base = r * words;
      const last = hi[r];
      carry = 0;
      for (w = lo[r]; w <= last; w++) {
        const v = row[w];
        const mask = masks[base + w];
        const u = v & mask;
        if ((u | carry) === 0) continue;
        const sum = (v + u + carry) | 0;
        carry = ((v & u) | ((v | u) & ~sum)) >>> 31;
        row[w] = sum | (v & ~mask);
      }
    }
    // Past the mask only the carry moves: through full words, into the first that is not.
    while (carry !== 0 && w < words) {
      const v = row[w];
      if (v !== -1) {
        row[w] = ((v + 1) | 0) | v;
        carry = 0;
      }
      w++;
    }
  }
  for (let j = 0; j < size; j++) {
    count[b[j]] = 0;
    tag[b[j]] = 0;
  }
  // Bits at or past `size` only ever receive carries from below; they are not lines.
  const spare = size & 31;
  if (spare) row[words - 1] &= (1 << spare) - 1;
  let zeros = 0;
  for (let w = 0; w < words; w++) zeros += popcount(row[w]);
  return size - zeros;
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
 * `_anchored`: a common subsequence through the lines each side holds once, in the longest run that
 * keeps their order (patience sorting, reconstructed from the last pile exactly as the reference
 * does, since the anchors chosen set the gaps). Each gap is reduced, then counted exactly while the
 * step budget lasts (never when there are no anchors), else sparsely within the pair budget.
 */
function anchored(s: Scratch, a: Int32Array, b: Int32Array, limits: Limits): number {
  const countA = s.countOld;
  const countB = s.countNew;
  for (let i = 0; i < a.length; i++) countA[a[i]]++;
  for (let j = 0; j < b.length; j++) {
    countB[b[j]]++;
    s.where[b[j]] = j;
  }
  const pairsA: number[] = [];
  const pairsB: number[] = [];
  for (let i = 0; i < a.length; i++) {
    const id = a[i];
    if (countA[id] === 1 && countB[id] === 1) {
      pairsA.push(i);
      pairsB.push(s.where[id]);
    }
  }
  for (let i = 0; i < a.length; i++) countA[a[i]] = 0;
  for (let j = 0; j < b.length; j++) countB[b[j]] = 0;

  const pairs = pairsA.length;
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
  const anchors: number[] = [];
  for (let p = piles ? ends[piles - 1] : -1; p !== -1; p = previous[p]) anchors.push(p);
  anchors.reverse();

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
    const one = (lines: string[]) =>
      Int32Array.from(lines, (line) => {
        let id = ids.get(line);
        if (id === undefined) ids.set(line, (id = ids.size));
        return id;
      });
    const a = one(old);
    const b = one(neu);
    return { a, b, scratch: new Scratch(ids.size) };
  },
  myers(old: string[], neu: string[], budget: number): number | null {
    const { a, b } = internals.intern(old, neu);
    return myers(a, b, budget);
  },
  bitParallel(old: string[], neu: string[], maskBits: number = MOST_MASK_BITS): number | null {
    const { a, b, scratch } = internals.intern(old, neu);
    return bitParallel(scratch, a, b, maskBits);
  },
  sparse(old: string[], neu: string[], most: number): [number, number] {
    const { a, b, scratch } = internals.intern(old, neu);
    return sparse(scratch, a, b, most);
  },
};
