// Text → trees. tree-sitter Python through web-tree-sitter (WASM), one top-level statement at a time.
//
// A document is cut into its top-level statements from the text alone (server/src/parse/segments.ts),
// and each is parsed on its own, at its own offsets, rows and columns (tree-sitter's included ranges),
// when the model reads it. A syntax error stays inside its statement: tree-sitter never sees the rest
// of the file behind it, and an unclosed bracket is cut where the next statement starts and parsed with
// its brackets closed, so the declarations before, inside and after the break stay known. A new version
// re-reads only the statements an edit touched; their trees are freed once read.
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import type * as TreeSitter from 'web-tree-sitter';
import type { Node, Tree } from 'web-tree-sitter';
import { scanComments } from '../model/comments';
import { scanRegion, type RegionScan } from './pysyntax';
import { SliceExpired, advanced, memoInSlice, sliceExpired, slicing, type SliceJob } from '../slices';
import { firstLimit, lineStartsOf, resegmentInParts, rowOf, segmentProgress, segmentTextInParts, type LimitError, type LineStarts, type Segment, type SegmentProgress, type TextEdit } from './segments';

export type { Segment, TextEdit } from './segments';

// ---------------------------------------------------------------------------------------------
// The parser runtime, and what happens when it faults.
//
// web-tree-sitter is one Emscripten module with one WebAssembly memory. A trap inside it (`memory
// access out of bounds`, `unreachable`) can leave that memory corrupt, and the module keeps it for
// the life of the process: every later parse of every document would fail. So the runtime is
// loaded as a file of its own (dist/web-tree-sitter.cjs, or node_modules when run from source) and
// can be instantiated afresh: `guarded` runs parser work and, on any exception, swaps in a fresh
// runtime (a spare is kept ready, ~12 ms and ~3 MB to make) and drops everything of the old one.
// Trees and nodes of the old runtime are never touched again: no tree outlives the reading of its
// statement, and the declaration model never holds a node.
//
// The same swap gives memory back. A WebAssembly memory only grows: parsing a 1 MB file grows
// tree-sitter's heap from its initial 32 MB to 55 MB, and the process keeps those pages after the
// trees are freed. Each runtime's memory is ours (`wasmMemory`), so its size is known; when a parse
// leaves it past HEAP_BOUND (its initial size: only files of a megabyte or more grow it), the spare
// takes over at the next turn of the event loop (when no tree is alive) and the old memory is
// collected with its runtime.
//
// Two spares are kept: a document that faults is retried once on a fresh runtime, and when it faults
// there too the second spare takes over, so other documents never find the parser missing (a third
// fault before a spare is made is the only way to `ParserUnavailable`).
//
// A dropped runtime is only garbage: V8 collects it at its next major GC, and it does not count a
// WebAssembly memory (tens of megabytes each) as heap that calls for one. A server whose heap is large
// and always busy runs a major GC rarely (its memory reducer only runs when the process goes idle):
// the LSP fuzz saw 188 dropped runtimes alive at once, 3.6 GB. So once the memories dropped since the
// last collection reach DROPPED_BOUND, a full collection is forced (`gc`, exposed for this only), at
// most once per GC_GAP_MS, from a timer, when no parse is running.

interface Runtime {
  module: typeof TreeSitter;
  language: TreeSitter.Language;
  parser: TreeSitter.Parser;
  memory: WasmMemory;
}

/** A WebAssembly.Memory (the lib settings here have no WebAssembly types). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
const WasmMemory = (globalThis as unknown as { WebAssembly: { Memory: new (d: { initial: number; maximum: number }) => WasmMemory } }).WebAssembly.Memory;

/** The runtime's heap at start (the module's minimum: 512 pages of 64 KiB). */
export const INITIAL_HEAP = 32 * 1024 * 1024;
/** A heap grown past this is given back (the runtime replaced) once the parse that grew it is done. */
export const HEAP_BOUND = INITIAL_HEAP;

/** Where the WASM files are: next to the bundle in dist/, or in node_modules when run from source. */
function wasmPath(file: 'web-tree-sitter.wasm' | 'tree-sitter-python.wasm'): string {
  const bundled = path.join(__dirname, file);
  if (fs.existsSync(bundled)) return bundled;
  // Run from source (tests, benchmarks): the files are in node_modules.
  const resolve = require.resolve;
  if (file === 'tree-sitter-python.wasm') return resolve(`tree-sitter-python/${file}`);
  const runtime = 'web-tree-sitter';
  return path.join(path.dirname(resolve(runtime)), file);
}

/** The runtime's JavaScript: next to the bundle, or web-tree-sitter's CommonJS build from source. */
function runtimeFile(): string {
  const bundled = path.join(__dirname, 'web-tree-sitter.cjs');
  if (fs.existsSync(bundled)) return bundled;
  const runtime = 'web-tree-sitter';
  return require.resolve(runtime);
}

let grammar: Uint8Array | undefined;

/**
 * Drops Node's own references to a module file just required: its cache entry, and its place in the
 * `children` of the module that required it. Node keeps every module a module ever required there, so
 * without this each replaced runtime (its exports, and through them its WebAssembly memory) would stay
 * alive for the life of the process: ~55 MB kept per recycle after a file of a megabyte.
 */
function forget(file: string): void {
  const entry = require.cache[file];
  delete require.cache[file];
  if (!entry) return;
  for (const parent of [module, entry.parent, require.main]) {
    const children = parent?.children;
    const k = children ? children.indexOf(entry) : -1;
    if (k >= 0) children!.splice(k, 1);
  }
}

/** A fresh instance of the runtime: the module file evaluated anew, so it gets a memory of its own. */
async function instantiate(): Promise<Runtime> {
  const file = runtimeFile();
  delete require.cache[file];
  const module = require(file) as typeof TreeSitter;
  forget(file);
  const memory = new WasmMemory({ initial: INITIAL_HEAP / 65536, maximum: 32768 });
  await module.Parser.init({ locateFile: () => wasmPath('web-tree-sitter.wasm'), wasmMemory: memory } as Parameters<typeof module.Parser.init>[0]);
  grammar ??= fs.readFileSync(wasmPath('tree-sitter-python.wasm'));
  const language = await module.Language.load(grammar);
  const parser = new module.Parser();
  parser.setLanguage(language);
  return { module, language, parser, memory };
}

let current: Runtime | undefined;
/** Ready runtimes, the oldest first. */
const spares: Runtime[] = [];
/** How many spares are kept (see the top of this section). */
const SPARES = 2;
let making: Promise<Runtime> | undefined;
let ready: Promise<void> | undefined;
/** The first runtime, being made or made. */
let started: Promise<void> | undefined;
/** Until a second after start-up, only one spare is made. */
let delayingSecond = false;
/** Faults left no runtime a moment ago, and no spare is ready yet. */
let restarting = false;
/** Incremented each time the runtime is replaced; trees of an older epoch are dead. */
let epoch = 0;
let faults = 0;
const readyListeners: (() => void)[] = [];

function makeSpare(): void {
  if (making || (current && spares.length >= SPARES)) return;
  making = instantiate().then(
    (r) => {
      making = undefined;
      if (current) {
        spares.push(r);
        // Ready again once a fault could be retried at once: with a runtime and a spare.
        if (restarting) {
          restarting = false;
          for (const l of readyListeners) l();
        }
      } else {
        // Faults left no runtime at all: this one becomes current, and a spare follows.
        current = r;
        epoch++;
        restarting = true;
      }
      // The rest of the spares follow, one at a time (the first one a second after start-up: see initParser).
      if (!delayingSecond) makeSpare();
      return r;
    },
    (e) => {
      making = undefined;
      throw e;
    },
  );
  making.catch(() => undefined);
}

/** Loads the parser runtime and the Python grammar once per process (and a spare, in the background). */
export function initParser(): Promise<void> {
  ready ??= (async () => {
    started = instantiate().then((r) => {
      current = r;
    });
    await started;
    // Ready only with a spare, so that the first fault is retried at once; the second spare is made a
    // second later, out of the way of the first analyses.
    delayingSecond = true;
    setTimeout(() => {
      delayingSecond = false;
      makeSpare();
    }, 1000).unref();
    // A server makes its first spare once the first document had the processor (making one holds the
    // main thread for tens of ms), unless a fault asks for one first.
    if (spareDelay) {
      await new Promise<void>((resolve) => {
        spareSignal = resolve;
        setTimeout(resolve, spareDelay).unref();
      });
    }
    makeSpare();
    await making;
  })();
  return ready;
}

/** How long after the first runtime the first spare is made at the latest (0: at once). */
let spareDelay = 0;
let spareSignal: (() => void) | undefined;

/** Has a spare put off by `parserStarted(spareAfterMs)` made now (a server's first document is analysed). */
export function makeSpareNow(): void {
  spareSignal?.();
}

/**
 * Resolves as soon as the first runtime is ready (the spare follows in the background): what a server
 * waits for before it answers `initialize`. Starts loading it when nothing has yet; `spareAfterMs`
 * (given by the first caller) puts the first spare off, until `makeSpareNow` or that many ms, so that
 * making it does not hold up the first analysis.
 */
export function parserStarted(spareAfterMs = 0): Promise<void> {
  if (!ready) spareDelay = spareAfterMs;
  void initParser().catch(() => undefined);
  return started!;
}

/**
 * Resolves when a runtime and a spare are ready (at once unless faults just used them up): work that
 * waited for a runtime then faults at most twice (once, and once on the spare), not again and again.
 */
export async function parserReady(): Promise<void> {
  // Started, not ready: a server puts its first spare off (parserStarted), and this makes one at once.
  await parserStarted();
  while (!current || !spares.length) await (making ?? (makeSpare(), making));
}

/** Called whenever faults left the server without a runtime and it is ready again (see parserReady). */
export function onParserReady(listener: () => void): void {
  readyListeners.push(listener);
}

/** Thrown by parser work while no runtime is ready (right after two faults in a row). */
export class ParserUnavailable extends Error {
  constructor() {
    super('the Python parser is restarting after a fault');
  }
}

/** A fault inside parser work: the runtime it happened in has been replaced (see `guarded`). */
export class ParserFault extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

function runtime(): Runtime {
  if (!current) {
    if (!ready) throw new Error('initParser() has not finished');
    throw new ParserUnavailable();
  }
  return current;
}

/** Replaces the runtime after a fault: a spare when there is one, else none until a fresh one is made. */
function replaceRuntime(): void {
  faults++;
  drop(current);
  current = spares.shift();
  epoch++;
  makeSpare();
}

/**
 * Dropped runtimes' memories since the last forced collection reach this: one is forced. A safety net,
 * high enough that editing one large file (a recycle per version, 80 MB each for 1.9 MB) rarely forces
 * a full collection, which takes 100 ms or more in a server holding such a file.
 */
export const DROPPED_BOUND = 16 * INITIAL_HEAP;
/** Forced collections are at least this far apart. */
const GC_GAP_MS = 1000;
let droppedBytes = 0;
let lastCollection = 0;
let collecting: NodeJS.Timeout | undefined;
let collections = 0;
let collect: (() => void) | undefined;

/** Notes a runtime no longer used, and forces a collection once enough memory was dropped (see the top of this section). */
function drop(r: Runtime | undefined): void {
  if (!r) return;
  droppedBytes += r.memory.buffer.byteLength;
  if (droppedBytes < DROPPED_BOUND || collecting) return;
  collecting = setTimeout(() => {
    collecting = undefined;
    droppedBytes = 0;
    lastCollection = performance.now();
    collections++;
    try {
      if (!collect) {
        v8.setFlagsFromString('--expose-gc');
        collect = vm.runInNewContext('gc') as () => void;
      }
      collect();
    } catch {
      // No way to force one here: V8 collects them in its own time.
    }
  }, Math.max(0, lastCollection + GC_GAP_MS - performance.now()));
  collecting.unref();
}

let recycles = 0;
let recycling = false;

/** Gives the parser's heap back when it grew past `bound`: the spare takes over at the next turn of the event loop, when no tree is alive. */
export function reclaimParserHeap(bound = HEAP_BOUND): void {
  if (recycling || !current || current.memory.buffer.byteLength <= bound) return;
  recycling = true;
  setImmediate(() => {
    recycling = false;
    if (!current || current.memory.buffer.byteLength <= bound) return;
    const next = spares.shift();
    if (!next) {
      // Faults used the spares a moment ago: the next parse past the bound tries again.
      makeSpare();
      return;
    }
    recycles++;
    drop(current);
    current = next;
    epoch++;
    makeSpare();
  });
}

/** The current runtime's heap in bytes, how many times it was given back, and collections forced for dropped runtimes (tests, benchmarks). */
export function parserHeap(): { bytes: number; recycles: number; collections: number } {
  return { bytes: current?.memory.buffer.byteLength ?? 0, recycles, collections };
}

/** The current runtime's epoch: a tree made in another epoch must not be used. */
export function parserEpoch(): number {
  return epoch;
}

/** How many faults replaced the runtime so far (for logs and tests). */
export function parserFaults(): number {
  return faults;
}

/** A one-line reason for an exception. */
function reasonOf(e: unknown): string {
  if (e instanceof Error) return `${e.constructor?.name && e.constructor.name !== 'Error' ? `${e.constructor.name}: ` : ''}${e.message}`;
  return String(e);
}

/**
 * Runs work that reads trees (parsing, building the model). Any exception from it is a fault: the
 * runtime is replaced, so whatever the fault did to WASM memory is dropped, and a ParserFault is
 * thrown. ParserUnavailable passes through as it is.
 */
export function guarded<T>(work: () => T): T {
  const before = epoch;
  try {
    return work();
  } catch (e) {
    // A slice that ran out of time is no fault: the job goes on in its next slice.
    if (e instanceof ParserUnavailable || e instanceof ParserFault || e instanceof SliceExpired) throw e;
    // Replace the runtime once per fault, even when nested guarded calls see the same exception. A
    // TypeError or ReferenceError is a mistake in our JavaScript, which WASM memory has no part in: the
    // runtime is kept. Anything else may have left WebAssembly mid-call (a trap, a stack overflow inside
    // it, an exception thrown through its frames from a callback).
    if (epoch === before && !(e instanceof TypeError || e instanceof ReferenceError)) replaceRuntime();
    throw new ParserFault(reasonOf(e));
  }
}

/** A parser on the current runtime, for benchmarks that time tree-sitter alone. */
export function newParser(): TreeSitter.Parser {
  const r = runtime();
  const p = new r.module.Parser();
  p.setLanguage(r.language);
  return p;
}

/** Test hook: makes the next `times` parses throw as a trap does, to exercise fault containment. */
export function injectParserFault(times = 1, message = 'memory access out of bounds'): void {
  pendingFaults = times;
  faultMessage = message;
}
let pendingFaults = 0;
let faultMessage = '';
/**
 * Test hook for tests over stdio (a server process has no other): with VIS_AUTHORING_TEST_FAULT set,
 * every parse of a text that contains its value throws as a trap does.
 */
const FAULT_MARKER = process.env.VIS_AUTHORING_TEST_FAULT || undefined;

/** The text each tree was parsed from, and where its lines start (for positions without a WASM call). */
export interface Source {
  text: string;
  lineStarts: LineStarts;
}

const sources = new WeakMap<Tree, Source>();

export function sourceOf(tree: Tree): Source {
  let s = sources.get(tree);
  if (!s) sources.set(tree, (s = { text: '', lineStarts: new Int32Array(1) }));
  return s;
}

/** Throws as a trap does when a test hook asked for it (for `text`, or for the next parses). */
function faultIfInjected(text: string): void {
  const marked = FAULT_MARKER !== undefined && text.includes(FAULT_MARKER);
  if (pendingFaults > 0 || marked) {
    if (!marked) pendingFaults--;
    const message = marked ? 'memory access out of bounds' : faultMessage;
    const wasm = (globalThis as unknown as { WebAssembly: { RuntimeError: ErrorConstructor } }).WebAssembly;
    throw new wasm.RuntimeError(message);
  }
}

/** Parses a small piece of Python on its own (the caller deletes the tree). */
export function parseSnippet(text: string): Tree | null {
  return guarded(() => {
    const r = runtime();
    faultIfInjected(text);
    let tree = r.parser.parse(text);
    const lineStarts = lineStartsOf(text);
    const last = lineStarts.length - 1;
    const whole = { startIndex: 0, endIndex: text.length, startPosition: { row: 0, column: 0 }, endPosition: { row: last, column: text.length - lineStarts[last] } };
    const joined = tree?.rootNode.hasError ? joinedRanges(text, lineStarts, whole) : undefined;
    if (joined) {
      tree!.delete();
      tree = r.parser.parse(text, null, { includedRanges: joined });
    }
    if (tree) sources.set(tree, { text, lineStarts });
    return tree;
  });
}


/**
 * A document cut into its top-level statements (server/src/parse/segments.ts). Each segment is parsed on
 * its own when its model is read (`parseSegment`), so no tree outlives the reading of its segment: an open
 * document costs its text, its segments and its model, not a tree.
 */
export interface ParsedDocument {
  text: string;
  lineStarts: LineStarts;
  segments: Segment[];
  /** The first of Python's nesting limits the text breaks (it is then not parsed at all). */
  limit?: LimitError;
  /**
   * Tells this document from every other of the process (a serial number): what refers to a document it
   * does not keep alive names it by this, not by a WeakRef (V8 keeps a WeakRef's target alive to the end
   * of the task that made or read it, so a task that analyses version after version kept them all).
   */
  id: number;
  /**
   * The rows of the edit from the version it was made from (`from`, its id): rows before `row` stay, rows
   * after `oldEndRow` move to after `newEndRow`, those between were edited.
   */
  editRows?: { row: number; oldEndRow: number; newEndRow: number; from: number };
}

let documentIds = 0;

/** A segment's parse: its top-level statements, in a tree the caller deletes. */
export interface SegmentParse {
  tree: Tree;
  statements: Node[];
}

/** The segments of a text, or of a new version of a document from the last version's segments. */
export function parseDocument(text: string, old?: ParsedDocument, edit?: TextEdit): ParsedDocument {
  // In a sliced job, segmenting a large text stops at a statement start when the slice's time is up, and
  // the job's next slice goes on from there (what was found kept in its memo).
  // (Only for the same text from the same old version: one read meanwhile, by other work, starts it over.)
  const job = slicing();
  let kept = job?.memo.get('document') as { text: string; old?: ParsedDocument; doc: ParsedDocument; progress: SegmentProgress; done?: boolean } | undefined;
  if (!kept || kept.text !== text || kept.old !== old) {
    const lineStarts = old && edit ? lineStartsOf(text, old.lineStarts, edit) : lineStartsOf(text);
    const doc: ParsedDocument = { id: ++documentIds, text, lineStarts, segments: [] };
    if (old && edit) doc.editRows = { row: rowOf(old.lineStarts, edit.start), oldEndRow: rowOf(old.lineStarts, edit.oldEnd), newEndRow: rowOf(lineStarts, edit.newEnd), from: old.id };
    kept = { text, old, doc, progress: segmentProgress() };
    job?.memo.set('document', kept);
  }
  const { doc, progress } = kept;
  // Segmented to its end in an earlier slice (a later step ran out of time): the same document, as it was.
  if (kept.done) return doc;
  const pause = job ? sliceExpired : () => false;
  // A segment a stray triple quote may have swallowed is cut when it does not parse as it is.
  const broken = (seg: Segment) => {
    // Never parse what breaks Python's nesting limits (the file is then not parsed at all).
    if (seg.limit) return false;
    const { tree } = parseSegment(doc, seg);
    try {
      return tree.rootNode.hasError;
    } finally {
      tree.delete();
    }
  };
  // The parses that check a segment run to their end: they are of segments made afresh each time, which a
  // later slice could not resume.
  segmenting++;
  let segments: Segment[] | undefined;
  try {
    segments = old && edit ? resegmentInParts(old.segments, text, edit, progress, pause, broken) : segmentTextInParts(text, progress, pause, broken);
  } finally {
    segmenting--;
  }
  if (!segments) {
    // Segmenting never pauses at the first segment of a part: each part moves `progress` on.
    advanced();
    throw new SliceExpired();
  }
  doc.segments = segments;
  doc.limit = firstLimit(doc.segments);
  kept.done = true;
  return doc;
}

/**
 * Parses one segment on its own, at its own offsets, rows and columns in the document (tree-sitter's
 * included ranges): a broken segment with its open brackets and string closed after its last code.
 */
export function parseSegment(doc: ParsedDocument, seg: Segment): SegmentParse {
  const r = runtime();
  faultIfInjected(doc.text);
  const endRow = rowOf(doc.lineStarts, seg.end);
  let tree: Tree | null;
  if (!seg.broken) {
    const range = { startIndex: seg.start, endIndex: seg.end, startPosition: { row: seg.row, column: 0 }, endPosition: { row: endRow, column: seg.end - doc.lineStarts[endRow] } };
    const blank = memoInSlice('blank', seg, () => commentSpans(doc.text, seg.start, seg.end, doc.lineStarts, seg.row));
    tree = parseInJob(r, seg, reader(doc.text, seg.end, blank), { includedRanges: [range] });
    const joined = tree?.rootNode.hasError ? joinedRanges(doc.text, doc.lineStarts, range, seg) : undefined;
    if (joined) {
      tree!.delete();
      tree = parseInJob(r, joined, reader(doc.text, seg.end, blank), { includedRanges: joined });
    }
    if (tree) sources.set(tree, { text: doc.text, lineStarts: doc.lineStarts });
  } else {
    const { text, lineStarts, lastRow, blank } = memoInSlice('closed', seg, () => {
      const { codeEnd, closers } = closeRegion(doc.text, seg.start, seg.end);
      const text = doc.text.slice(0, codeEnd) + closers + '\n';
      const lastRow = rowOf(doc.lineStarts, codeEnd);
      const lineStarts = new Int32Array(lastRow + 2);
      lineStarts.set(doc.lineStarts.subarray(0, lastRow + 1));
      lineStarts[lastRow + 1] = text.length;
      return { text, lineStarts, lastRow, blank: commentSpans(text, seg.start, codeEnd, doc.lineStarts, seg.row) };
    });
    const range = { startIndex: seg.start, endIndex: text.length, startPosition: { row: seg.row, column: 0 }, endPosition: { row: lastRow + 1, column: 0 } };
    tree = parseInJob(r, seg, reader(text, text.length, blank), { includedRanges: [range] });
    if (tree) sources.set(tree, { text, lineStarts });
  }
  if (!tree) throw new Error('tree-sitter returned no tree');
  reclaimParserHeap();
  const statements = tree.rootNode.namedChildren.filter((n): n is Node => !!n);
  return { tree, statements };
}

/**
 * tree-sitter-python misreads a bracket's continuation line indented less than the statement it continues
 * (`labels: list[` then `str]` at column 0 in a class body): valid Python, as indentation inside brackets
 * does not count, but its scanner ends the block there, so the class loses the field and the module seems
 * to bind `str`. Such a segment is parsed again with the line breaks before each such line left out of its
 * ranges: the same statement to Python, at the same offsets, rows and columns. Undefined when it has none,
 * or when a comment stands between (it would run on into the next line).
 */
function joinedRanges(text: string, lineStarts: LineStarts, whole: TreeSitter.Range, seg?: Segment): TreeSitter.Range[] | undefined {
  const end = whole.endIndex;
  const first = whole.startPosition.row;
  const scan = scanRegion(text, whole.startIndex, end, first, false);
  // The model's syntax check scans the segment next: it takes this scan (segmentScan).
  if (seg) segmentScans.set(seg, { row: seg.row, start: seg.start, end: seg.end, scan });
  if (!scan.continuation.length) return undefined;
  const indent = (line: number): number | undefined => {
    const start = lineStarts[line] ?? text.length;
    let i = start;
    while (text[i] === ' ' || text[i] === '\t') i++;
    return i >= end || text[i] === '\n' || text[i] === '\r' || text[i] === '#' ? undefined : i - start;
  };
  // Offsets of the line break characters left out.
  const gaps: number[] = [];
  let k = -1;
  for (const line of scan.continuation) {
    while (k + 1 < scan.logical.length && scan.logical[k + 1] <= line) k++;
    const own = indent(line);
    const outer = k < 0 ? undefined : indent(scan.logical[k]);
    if (own === undefined || outer === undefined || own >= outer) continue;
    // Every line break back to the last line with code on it (blank lines between go too).
    for (let l = line - 1; l >= first; l--) {
      const from = lineStarts[l];
      const to = lineStarts[l + 1];
      const code = text.slice(from, to);
      if (code.includes('#')) return undefined;
      gaps.push(to - 1);
      if (to >= 2 && text[to - 2] === '\r') gaps.push(to - 2);
      if (code.trim()) break;
    }
  }
  if (!gaps.length) return undefined;
  gaps.sort((a, b) => a - b);
  const point = (offset: number) => {
    const row = rowOf(lineStarts, offset);
    return { row, column: offset - lineStarts[row] };
  };
  const ranges: TreeSitter.Range[] = [];
  let from = whole.startIndex;
  for (const gap of gaps) {
    if (gap > from) ranges.push({ startIndex: from, endIndex: gap, startPosition: point(from), endPosition: point(gap) });
    from = gap + 1;
  }
  ranges.push({ startIndex: from, endIndex: whole.endIndex, startPosition: point(from), endPosition: whole.endPosition });
  return ranges;
}

const segmentScans = new WeakMap<Segment, { row: number; start: number; end: number; scan: RegionScan }>();

/** The syntax scan of a segment not at the end of the file that its parse made already (a broken segment's), while it is where it was. */
export function segmentScan(seg: Segment): RegionScan | undefined {
  const kept = segmentScans.get(seg);
  return kept && kept.row === seg.row && kept.start === seg.start && kept.end === seg.end ? kept.scan : undefined;
}

/**
 * Parses the whole text in one go (cheaper than statement by statement when most statements are read,
 * as in a file's first analysis) and gives each segment its statements when tree-sitter found exactly
 * that segment's statements, without an error: a segment it gives none for is parsed on its own. Not
 * used when a segment is broken (tree-sitter's error recovery over the rest of the file is slow there).
 */
export function parseWhole(doc: ParsedDocument, segments: readonly Segment[]): { tree: Tree; statements: Map<Segment, Node[]> } | undefined {
  if (segments.some((s) => s.broken)) return undefined;
  const r = runtime();
  faultIfInjected(doc.text);
  const blank = wholeCommentSpans(doc);
  const tree = parseInJob(r, doc, blank ? reader(doc.text, doc.text.length, blank) : doc.text);
  if (!tree) throw new Error('tree-sitter returned no tree');
  reclaimParserHeap();
  sources.set(tree, { text: doc.text, lineStarts: doc.lineStarts });
  const statements = new Map<Segment, Node[]>();
  const wanted = new Set(segments);
  const root = tree.rootNode;
  const clean = !root.hasError;
  const children = root.namedChildren;
  let k = 0;
  /** Where the statements seen so far end (one that runs into the next segment swallowed part of it). */
  let reached = 0;
  for (const seg of doc.segments) {
    const mine: Node[] = [];
    let ok = reached <= seg.start;
    for (; k < children.length; k++) {
      const c = children[k]!;
      const start = c.startIndex;
      if (start >= seg.end) break;
      const end = c.endIndex;
      if (end > reached) reached = end;
      if (end > seg.end || (!clean && c.hasError)) ok = false;
      mine.push(c);
    }
    if (ok && mine.length && wanted.has(seg)) statements.set(seg, mine);
  }
  return { tree, statements };
}

/**
 * A parse, stopped when a sliced job's slice runs out of time (server/src/slices.ts). The job has a
 * parser of its own: a parse that ran out of time (tree-sitter's progress callback) stays outstanding,
 * and the next slice's call for the same `what` (a segment, a document) resumes it where it stopped; a
 * call for anything else resets it. Outside a job, the runtime's parser parses to the end.
 */
function parseInJob(r: Runtime, what: object, input: string | ((index: number) => string), options?: TreeSitter.ParseOptions): Tree | null {
  const job = segmenting ? undefined : slicing();
  if (!job) return r.parser.parse(input, null, options);
  const s = jobParser(job, r);
  if (s.outstanding !== undefined && s.outstanding !== what) s.parser.reset();
  s.outstanding = undefined;
  const tree = s.parser.parse(input, null, { ...options, progressCallback: sliceExpired });
  if (tree || !sliceExpired()) return tree;
  s.outstanding = what;
  // tree-sitter asks the progress callback only after some work, which the next call resumes from.
  advanced();
  throw new SliceExpired();
}

/** Inside parseDocument's segmenting (see there). */
let segmenting = 0;

interface JobParser {
  parser: TreeSitter.Parser;
  epoch: number;
  /** What the parse that ran out of time was parsing. */
  outstanding?: object;
}

function jobParser(job: SliceJob, r: Runtime): JobParser {
  const kept = job.memo.get('parser') as JobParser | undefined;
  if (kept && kept.epoch === epoch) return kept;
  const parser = new r.module.Parser();
  parser.setLanguage(r.language);
  const made: JobParser = { parser, epoch };
  job.memo.set('parser', made);
  // A runtime replaced by a fault meanwhile took the parser with it: never touched again.
  job.onModuleDone(() => made.epoch === epoch && made.parser.delete());
  return made;
}

/**
 * The text up to `end`, as tree-sitter reads it (chunks copied into WASM memory stop at `end`), with the
 * comments of `blank` (see commentSpans) read as spaces.
 */
function reader(text: string, end: number, blank?: Int32Array): (index: number) => string {
  // Chunks of at most what web-tree-sitter's input buffer holds (10 KiB of UTF-16).
  return (index) => {
    if (index >= end) return '';
    const chunk = text.slice(index, Math.min(end, index + 5120));
    return blank ? blanked(chunk, index, blank) : chunk;
  };
}

/**
 * tree-sitter-python's scanner takes time in the square of a run of comment lines after a statement (2,000
 * lines: 1.5 s, 4,000: 5 s; a block of commented-out code is enough). The model never reads a comment node,
 * so where a part of a text has many comment lines tree-sitter reads its comments as spaces: the same
 * offsets, rows and columns, blank lines instead (node texts are still read from the text itself). The
 * spans of the comments in text[start, end), as [from, to) offset pairs, or undefined when there are few.
 * `start` is the start of row `row`, outside any string (a segment's start).
 */
function commentSpans(text: string, start: number, end: number, lineStarts: LineStarts, row: number): Int32Array | undefined {
  return manyCommentLines(text, start, end) ? spansOf(text, start, end, lineStarts, row) : undefined;
}

function manyCommentLines(text: string, start: number, end: number): boolean {
  const part = text.slice(start, end);
  COMMENT_LINE.lastIndex = 0;
  let lines = 0;
  while (lines < MANY_COMMENT_LINES && COMMENT_LINE.test(part)) lines++;
  return lines >= MANY_COMMENT_LINES;
}

/**
 * commentSpans of a whole document. In a sliced job the scan goes a part at a time (runs of segments: each
 * starts outside any string, as the whole text's scan is there) and stops between parts when the slice's
 * time is up; the next slice goes on from the part it stopped at.
 */
export function wholeCommentSpans(doc: ParsedDocument): Int32Array | undefined {
  const { text, lineStarts, segments } = doc;
  if (!slicing()) return commentSpans(text, 0, text.length, lineStarts, 0);
  const scan = memoInSlice('blank', doc, () => ({ many: manyCommentLines(text, 0, text.length), parts: [] as Int32Array[], next: 0, spans: undefined as Int32Array | undefined }));
  if (!scan.many || scan.spans) return scan.spans;
  for (let parts = 0; scan.next < segments.length; parts++) {
    if (parts && sliceExpired()) {
      advanced();
      throw new SliceExpired();
    }
    const first = segments[scan.next];
    let last = scan.next;
    while (last + 1 < segments.length && segments[last].end - first.start < SCAN_PART) last++;
    scan.parts.push(spansOf(text, first.start, segments[last].end, lineStarts, first.row));
    scan.next = last + 1;
  }
  const spans = new Int32Array(scan.parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of scan.parts) {
    spans.set(p, at);
    at += p.length;
  }
  return (scan.spans = spans);
}
/** The text scanned for comments between two checks of the slice's time. */
const SCAN_PART = 64 * 1024;

/** The spans of the comments in text[start, end) (see commentSpans). */
function spansOf(text: string, start: number, end: number, lineStarts: LineStarts, row: number): Int32Array {
  const part = text.slice(start, end);
  const { comments } = scanComments(part);
  const spans = new Int32Array(comments.length * 2);
  comments.forEach((c, k) => {
    const at = lineStarts[row + c.line] + c.character;
    spans[2 * k] = at;
    spans[2 * k + 1] = at + c.text.length;
  });
  return spans;
}
/** A line that starts with a comment (possibly inside a string: scanComments tells). */
const COMMENT_LINE = /^[ \t]*#/gm;
/** Comment lines from which they are read as spaces (100 in a row cost tree-sitter ~4 ms). */
const MANY_COMMENT_LINES = 100;

/** A chunk of text read from offset `at`, with the parts of it inside the spans of `blank` replaced by spaces. */
function blanked(chunk: string, at: number, blank: Int32Array): string {
  // The first span that ends after `at`.
  let lo = 0;
  let hi = blank.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (blank[2 * mid + 1] <= at) lo = mid + 1;
    else hi = mid;
  }
  const stop = at + chunk.length;
  let out = '';
  let from = 0;
  for (let k = lo; 2 * k < blank.length && blank[2 * k] < stop; k++) {
    const s = Math.max(blank[2 * k], at) - at;
    const e = Math.min(blank[2 * k + 1], stop) - at;
    out += chunk.slice(from, s) + ' '.repeat(e - s);
    from = e;
  }
  return from ? out + chunk.slice(from) : chunk;
}

/** Every top-level statement of a document, for tests: the trees are returned to delete. */
export function allStatements(doc: ParsedDocument): { statements: Node[]; trees: Tree[] } {
  const out: { statements: Node[]; trees: Tree[] } = { statements: [], trees: [] };
  for (const seg of doc.segments) {
    const p = parseSegment(doc, seg);
    out.trees.push(p.tree);
    out.statements.push(...p.statements);
  }
  return out;
}

/** Rows of the segments that were cut inside an unclosed bracket or string and parsed closed. */
export function recoveredRows(doc: ParsedDocument): { startRow: number; endRow: number }[] {
  return doc.segments.filter((s) => s.broken).map((s) => ({ startRow: s.row, endRow: rowOf(doc.lineStarts, Math.max(s.start, s.end - 1)) }));
}

/**
 * Where the code of text[start, end) ends (comments and trailing blanks after it aside), and the brackets
 * and string quote that close what it leaves open there.
 */
function closeRegion(text: string, start: number, end: number): { codeEnd: number; closers: string } {
  const stack: string[] = [];
  const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
  let codeEnd = start;
  let i = start;
  let quote = '';
  while (i < end) {
    const c = text[i];
    if (quote) {
      if (c === '\\') {
        i = Math.min(i + 2, end);
        codeEnd = i;
        continue;
      }
      if (text.startsWith(quote, i)) {
        i += quote.length;
        quote = '';
        codeEnd = i;
        continue;
      }
      if (c === '\n' && quote.length === 1) quote = '';
      else if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') codeEnd = i + 1;
      i++;
      continue;
    }
    if (c === '#') {
      const nl = text.indexOf('\n', i);
      i = nl === -1 || nl > end ? end : nl;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = text.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      i += quote.length;
      codeEnd = i;
      continue;
    }
    if (pairs[c]) stack.push(pairs[c]);
    else if ((c === ')' || c === ']' || c === '}') && stack[stack.length - 1] === c) stack.pop();
    if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r' && c !== '\\') codeEnd = i + 1;
    i++;
  }
  return { codeEnd, closers: quote + stack.reverse().join('') };
}

/** The single smallest edit that turns `before` into `after` (common prefix and suffix trimmed). */
export function diffEdit(before: string, after: string): TextEdit {
  const max = Math.min(before.length, after.length);
  // Blocks of characters are compared as strings (natively), large ones first, the last character by character.
  let start = 0;
  for (const block of [8192, 256]) while (start + block <= max && before.slice(start, start + block) === after.slice(start, start + block)) start += block;
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let tail = 0;
  const room = max - start;
  for (const block of [8192, 256]) {
    while (tail + block <= room && before.slice(before.length - tail - block, before.length - tail) === after.slice(after.length - tail - block, after.length - tail)) tail += block;
  }
  while (tail < room && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  return { start, oldEnd: before.length - tail, newEnd: after.length - tail, oldText: before };
}

/** The parsed documents of open editors by URI: a new version is segmented from the last one's segments. */
export class DocumentCache {
  private entries = new Map<string, { version: number; doc: ParsedDocument }>();

  get(uri: string, version: number, text: string): ParsedDocument {
    const prev = this.entries.get(uri);
    if (prev && prev.version === version && prev.doc.text === text) return prev.doc;
    const doc = prev ? (prev.doc.text === text ? prev.doc : parseDocument(text, prev.doc, diffEdit(prev.doc.text, text))) : parseDocument(text);
    this.entries.set(uri, { version, doc });
    return doc;
  }

  delete(uri: string): void {
    this.entries.delete(uri);
  }
}
