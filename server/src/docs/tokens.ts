// Token counts for model-facing text (docs previews, the routing prompt).
//
// Encoding: o200k_base, the newest tiktoken encoding (GPT-4o and later). Its rank table ships with
// js-tiktoken; the build writes it to dist/o200k_base.json, so it is not part of server.js and is
// read only when a preview first needs it, or in the background two seconds after the first analysis
// (`loadTokenizerSoon`): the table is built in slices of a few milliseconds that yield to the event
// loop, so no other request waits behind it. The counts are an estimate for other vendors' models.
//
// Counting is tiktoken's: the text is split with the encoding's pattern, and each piece that is not
// one token is merged byte pair by byte pair, the lowest-ranked pair first (the leftmost of equal
// ranks). The merge keeps its candidate pairs in a heap, so a piece of n bytes costs O(n log n): a
// docstring of 30,000 identical characters is one piece, which the plain quadratic merge takes
// seconds over. Special-token markers such as `<|endoftext|>` count as the plain text they are.
import { yieldToEventLoop } from '../slices';
import fs from 'node:fs';
import path from 'node:path';

export const TOKEN_ENCODING = 'o200k_base';

interface RankFile {
  pat_str: string;
  bpe_ranks: string;
}

interface Tokenizer {
  pattern: RegExp;
  /** Byte sequences (one character per byte) → rank. */
  ranks: Map<string, number>;
}

let tokenizer: Tokenizer | undefined;
let loading: Promise<void> | undefined;

/** The rank file: beside the bundle (dist/o200k_base.json), or js-tiktoken's module when run from source. */
function readRankFile(): RankFile {
  const bundled = path.join(__dirname, 'o200k_base.json');
  if (fs.existsSync(bundled)) return JSON.parse(fs.readFileSync(bundled, 'utf8')) as RankFile;
  // A computed name, so that esbuild does not bundle the 2.3 MB table into server.js.
  const id = ['js-tiktoken', 'ranks', TOKEN_ENCODING].join('/');
  return require(id) as RankFile;
}

/** Milliseconds of work on the table between two yields to the event loop. */
const SLICE_MS = 4;
/** How long after the first analysis the table starts loading in the background (a preview asked for first starts it at once). */
const BACKGROUND_DELAY_MS = 2000;

let soon: NodeJS.Timeout | undefined;

/**
 * Starts loading the table in the background a moment after the first analysis, when the first
 * diagnostics, the settings and the indexing's start are done: it is never in their way.
 */
export function loadTokenizerSoon(): void {
  if (loading || soon) return;
  soon = setTimeout(() => void loadTokenizer(), BACKGROUND_DELAY_MS);
  soon.unref();
}

/**
 * Loads the o200k_base table once, in slices of a few milliseconds that yield to the event loop (the
 * table is one line of 200,000 tokens: the slices are cut by time, not by line). Safe to call often:
 * the first call starts the work and later ones wait for it.
 */
export function loadTokenizer(): Promise<void> {
  loading ??= (async () => {
    await yieldNow();
    const file = readRankFile();
    await new Promise((r) => setImmediate(r));
    const ranks = new Map<string, number>();
    let deadline = performance.now() + SLICE_MS;
    // `! <first rank> <base64 token> <base64 token> …` per line; ranks count up from the first.
    const lines = file.bpe_ranks.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const parts = lines[i].split(' ');
      if (parts.length < 2) continue;
      const first = Number.parseInt(parts[1], 10);
      for (let j = 2; j < parts.length; j++) {
        // atob gives the bytes as a latin1 string, as the merge reads them (twice as fast as a Buffer).
        ranks.set(atob(parts[j]), first + j - 2);
        if ((j & 1023) === 0 && performance.now() > deadline) {
          await yieldNow();
          deadline = performance.now() + SLICE_MS;
        }
      }
    }
    tokenizer = { pattern: new RegExp(file.pat_str, 'gu'), ranks };
  })();
  return loading;
}

// Several turns of the event loop: a request needs more than one to be read, handled and answered.
const yieldNow = yieldToEventLoop;

/** Whether counts can be taken now (the table is loaded). */
export function tokenizerReady(): boolean {
  return tokenizer !== undefined;
}

function loaded(): Tokenizer {
  if (!tokenizer) throw new Error('the token table is not loaded: await loadTokenizer() first');
  return tokenizer;
}

/** Tokens in `text` (the table must be loaded: `await loadTokenizer()`). */
export function countTokens(text: string): number {
  if (text === '') return 0;
  const { pattern, ranks } = loaded();
  let n = 0;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) n += pieceTokens(m[0], pattern, ranks);
  return n;
}

/** The tokens of one piece of the pre-tokenizing pattern (an empty match moves the pattern on). */
function pieceTokens(match: string, pattern: RegExp, ranks: Map<string, number>): number {
  if (match === '') {
    pattern.lastIndex++;
    return 0;
  }
  const piece = latin1(match);
  return ranks.has(piece) ? 1 : mergedLength(piece, ranks);
}

/** A piece's UTF-8 bytes, one character per byte. */
const latin1 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');

/**
 * countTokensCached's count (an estimate past EXACT_CHARS) in slices of about `sliceMs` that yield to
 * the event loop: a count is the sum of its pieces' counts, so stopping between pieces changes nothing.
 */
export async function countTokensInSlices(text: string, sliceMs = SLICE_MS): Promise<number> {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  await loadTokenizer();
  const { pattern, ranks } = loaded();
  // A pattern of its own: another count may run between the slices.
  const own = new RegExp(pattern.source, pattern.flags);
  let n = 0;
  let deadline = performance.now() + sliceMs;
  const exact = isEstimate(text) ? text.slice(0, EXACT_CHARS) : text;
  const due = async () => {
    if (performance.now() <= deadline) return;
    await yieldNow();
    deadline = performance.now() + sliceMs;
  };
  for (let m = own.exec(exact), k = 0; m; m = own.exec(exact), k++) {
    const piece = m[0].length > 32 && !ranks.has(latin1(m[0])) ? latin1(m[0]) : undefined;
    if (piece === undefined) n += pieceTokens(m[0], own, ranks);
    else {
      // A long piece merges in steps, with yields between them when the slice is up.
      const steps = heapMerge(piece, ranks);
      for (let r = steps.next(); ; r = steps.next()) {
        if (r.done) {
          n += r.value;
          break;
        }
        await due();
      }
    }
    if ((k & 255) === 255) await due();
  }
  n = scaled(text, n);
  remember(text, n);
  return n;
}

let deferred: Set<string> | undefined;

/**
 * Runs `work` with counts it asks for (countTokensCached) that are not cached yet taken as 0 and
 * returned, so that a caller can count them in slices (countTokensInSlices) and run `work` again.
 */
export function deferCounts<T>(work: () => T): { result: T; uncounted: string[] } {
  const outer = deferred;
  const mine = new Set<string>();
  deferred = mine;
  try {
    return { result: work(), uncounted: [...mine] };
  } finally {
    deferred = outer;
  }
}

/** How many tokens byte-pair merging leaves of a piece (one character per byte). */
function mergedLength(piece: string, ranks: Map<string, number>): number {
  const n = piece.length;
  if (n <= 1) return n;
  if (n <= 32) return quadraticMerge(piece, ranks);
  const steps = heapMerge(piece, ranks);
  for (let r = steps.next(); ; r = steps.next()) if (r.done) return r.value;
}

/** tiktoken's own merge, for short pieces (where it is the faster of the two). */
function quadraticMerge(piece: string, ranks: Map<string, number>): number {
  const starts: number[] = [];
  for (let i = 0; i <= piece.length; i++) starts.push(i);
  while (starts.length > 2) {
    let best = -1;
    let bestRank = Infinity;
    for (let i = 0; i < starts.length - 2; i++) {
      const r = ranks.get(piece.slice(starts[i], starts[i + 2]));
      if (r !== undefined && r < bestRank) {
        bestRank = r;
        best = i;
      }
    }
    if (best === -1) break;
    starts.splice(best + 1, 1);
  }
  return starts.length - 1;
}

/**
 * The same merge with a heap of candidate pairs keyed (rank, position): the smallest key is the
 * lowest rank, and among equal ranks the leftmost, as in tiktoken. A part is identified by its start;
 * a popped candidate is acted on only while it still describes its part's current pair.
 */
function* heapMerge(piece: string, ranks: Map<string, number>): Generator<void, number> {
  const n = piece.length;
  const next = new Int32Array(n + 1);
  const prev = new Int32Array(n + 1);
  const alive = new Uint8Array(n + 1);
  // The rank of the pair that starts at each part, or -1 when it is not a token.
  const pairRank = new Float64Array(n).fill(-1);
  for (let i = 0; i <= n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
    alive[i] = 1;
  }
  const heap: number[] = [];
  const SCALE = 2 ** 24; // positions stay below this; rank * SCALE + position fits in a double exactly
  const push = (key: number) => {
    heap.push(key);
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heap[p] <= key) break;
      heap[i] = heap[p];
      i = p;
    }
    heap[i] = key;
  };
  const pop = (): number => {
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= heap.length) break;
        const r = l + 1;
        const c = r < heap.length && heap[r] < heap[l] ? r : l;
        if (heap[c] >= last) break;
        heap[i] = heap[c];
        i = c;
      }
      heap[i] = last;
    }
    return top;
  };
  /** Recomputes the pair that starts at part `i` (up to the end of the part after it). */
  const refresh = (i: number) => {
    const j = next[i];
    if (i < 0 || j >= n) {
      if (i >= 0 && i < n) pairRank[i] = -1;
      return;
    }
    const r = ranks.get(piece.slice(i, next[j]));
    pairRank[i] = r ?? -1;
    if (r !== undefined) push(r * SCALE + i);
  };
  for (let i = 0; i < n - 1; i++) refresh(i);
  let parts = n;
  // A long piece (a run of one character) takes tens of milliseconds: it pauses every so many merges,
  // so that a count in slices can yield in the middle of it.
  for (let k = 1; heap.length > 0; k++) {
    if ((k & 4095) === 0) yield;
    const key = pop();
    const rank = Math.floor(key / SCALE);
    const i = key - rank * SCALE;
    if (!alive[i] || pairRank[i] !== rank) continue;
    // Merge part i with the part after it.
    const j = next[i];
    alive[j] = 0;
    next[i] = next[j];
    prev[next[j]] = i;
    parts--;
    refresh(i);
    if (prev[i] >= 0) refresh(prev[i]);
  }
  return parts;
}

/**
 * Characters of one text counted exactly. Past them a count is an estimate: the first EXACT_CHARS counted
 * and scaled to the whole length (byte-pair merging of a long run of one character costs seconds per
 * million, and a preview part that long is rare: a pasted blob, a generated docstring).
 */
export const EXACT_CHARS = 50_000;

/** Whether the count of a text is an estimate (see EXACT_CHARS). */
export function isEstimate(text: string): boolean {
  return text.length > EXACT_CHARS;
}

const scaled = (text: string, counted: number) => (isEstimate(text) ? Math.round((counted * text.length) / EXACT_CHARS) : counted);

const CACHE_LIMIT = 20_000;
const cache = new Map<string, number>();

/**
 * `countTokens` with a bounded cache of recent texts: a preview regenerated after an edit counts only
 * the parts whose text changed. The least recently used entries go first.
 */
export function countTokensCached(text: string): number {
  const hit = cache.get(text);
  if (hit !== undefined) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  if (deferred && text !== '') {
    deferred.add(text);
    return 0;
  }
  const n = scaled(text, countTokens(isEstimate(text) ? text.slice(0, EXACT_CHARS) : text));
  remember(text, n);
  return n;
}

function remember(text: string, n: number): void {
  cache.set(text, n);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
}
