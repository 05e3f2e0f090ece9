// Text → tree. tree-sitter Python through web-tree-sitter (WASM): error-tolerant and incremental.
//
// tree-sitter alone loses everything after an unclosed bracket at the top level (the rest of the
// file becomes one ERROR node). `parseDocument` recovers: it blanks the broken statement (keeping
// every offset, row and column) and parses again, and parses the broken statement on its own with
// its brackets closed, so the declarations before, inside and after the break stay known.
import fs from 'node:fs';
import path from 'node:path';
import type * as TreeSitter from 'web-tree-sitter';
import type { Node, Tree } from 'web-tree-sitter';
import { SliceExpired, memoInSlice, sliceExpired, slicing, type SliceJob } from '../slices';

// ---------------------------------------------------------------------------------------------
// The parser runtime, and what happens when it faults.
//
// web-tree-sitter is one Emscripten module with one WebAssembly memory. A trap inside it (`memory
// access out of bounds`, `unreachable`) can leave that memory corrupt, and the module keeps it for
// the life of the process: every later parse of every document would fail. So the runtime is
// loaded as a file of its own (dist/web-tree-sitter.cjs, or node_modules when run from source) and
// can be instantiated afresh: `guarded` runs parser work and, on any exception, swaps in a fresh
// runtime (a spare is kept ready, ~12 ms and ~3 MB to make) and drops everything of the old one.
// Trees and nodes of the old runtime are never touched again: parse caches remember the epoch
// their trees were made in, and the declaration model never holds a node.

interface Runtime {
  module: typeof TreeSitter;
  language: TreeSitter.Language;
  parser: TreeSitter.Parser;
}

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

/** A fresh instance of the runtime: the module file evaluated anew, so it gets a memory of its own. */
async function instantiate(): Promise<Runtime> {
  const file = runtimeFile();
  delete require.cache[file];
  const module = require(file) as typeof TreeSitter;
  delete require.cache[file];
  await module.Parser.init({ locateFile: () => wasmPath('web-tree-sitter.wasm') });
  grammar ??= fs.readFileSync(wasmPath('tree-sitter-python.wasm'));
  const language = await module.Language.load(grammar);
  const parser = new module.Parser();
  parser.setLanguage(language);
  return { module, language, parser };
}

let current: Runtime | undefined;
let spare: Runtime | undefined;
let making: Promise<Runtime> | undefined;
let ready: Promise<void> | undefined;
/** Incremented each time the runtime is replaced; trees of an older epoch are dead. */
let epoch = 0;
let faults = 0;
const readyListeners: (() => void)[] = [];

function makeSpare(): void {
  if (spare || making) return;
  making = instantiate().then(
    (r) => {
      making = undefined;
      if (current) spare = r;
      else {
        // A fault left no runtime at all: this one becomes current, and another spare follows.
        current = r;
        epoch++;
        makeSpare();
        for (const l of readyListeners) l();
      }
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
    current = await instantiate();
    // Ready only with a spare, so that the first fault is retried at once.
    makeSpare();
    await making;
  })();
  return ready;
}

/** Resolves when a runtime is ready (at once unless a fault just left none). */
export async function parserReady(): Promise<void> {
  await initParser();
  while (!current) await (making ?? (makeSpare(), making));
}

/** Called whenever a fault left the server without a runtime and a fresh one is ready again. */
export function onParserReady(listener: () => void): void {
  readyListeners.push(listener);
}

/** Thrown by parser work while no runtime is ready (right after two faults in a row). */
export class ParserUnavailable extends Error {
  constructor() {
    super('the Python parser is restarting after a fault');
  }
}

/** A fault inside parser work: the runtime it happened in has been replaced. */
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

/** Replaces the runtime after a fault: the spare when there is one, else none until a fresh one is made. */
function replaceRuntime(): void {
  faults++;
  current = spare;
  spare = undefined;
  epoch++;
  makeSpare();
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
    // Replace the runtime once per fault, even when nested guarded calls see the same exception.
    if (epoch === before) replaceRuntime();
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

/** The text each tree was parsed from, and where its lines start (for positions without a WASM call). */
export interface Source {
  text: string;
  lineStarts: number[];
}

const sources = new WeakMap<Tree, Source>();

export function sourceOf(tree: Tree): Source {
  let s = sources.get(tree);
  if (!s) sources.set(tree, (s = { text: '', lineStarts: [0] }));
  return s;
}

/** Parses a text; `sliceable` parses (a document's, not snippets) stop when a job's slice runs out of time (see below). */
function parse(text: string, oldTree?: Tree, sliceable = false): Tree | null {
  const r = runtime();
  if (pendingFaults > 0) {
    pendingFaults--;
    const message = faultMessage;
    const wasm = (globalThis as unknown as { WebAssembly: { RuntimeError: ErrorConstructor } }).WebAssembly;
    throw new wasm.RuntimeError(message);
  }
  const job = sliceable ? slicing() : undefined;
  if (job) return parseInSlice(job, r, text, oldTree);
  const tree = r.parser.parse(text, oldTree ?? null);
  if (tree) sources.set(tree, sourceFor(text));
  return tree;
}

function sourceFor(text: string): Source {
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  return { text, lineStarts };
}

/**
 * A document's parse inside a sliced job (server/src/slices.ts). The job has a parser of its own, so a
 * parse that runs out of time (tree-sitter's progress callback) stays outstanding and the next slice's
 * call with the same text resumes it; any other text resets it. Finished trees are kept by text for the
 * later slices, which get a copy (the caller owns and frees it); the originals are freed once the module's
 * analysis finishes (or the job ends). A runtime replaced by a fault meanwhile makes all of it dead: it is
 * dropped, never touched.
 */
function parseInSlice(job: SliceJob, r: Runtime, text: string, oldTree?: Tree): Tree | null {
  let s = job.memo.get('parser') as SliceParser | undefined;
  if (!s || s.epoch !== epoch) {
    const parser = new r.module.Parser();
    parser.setLanguage(r.language);
    const fresh: SliceParser = { parser, epoch, trees: new Map() };
    job.memo.set('parser', (s = fresh));
    job.onModuleDone(() => {
      if (fresh.epoch !== epoch) return;
      fresh.parser.delete();
      for (const t of fresh.trees.values()) t.delete();
    });
  }
  const done = s.trees.get(text);
  if (done) return copyOf(done);
  if (s.outstanding !== undefined && s.outstanding !== text) s.parser.reset();
  s.outstanding = undefined;
  const tree = s.parser.parse(text, oldTree ?? null, { progressCallback: sliceExpired });
  if (!tree) {
    if (!sliceExpired()) return null;
    s.outstanding = text;
    throw new SliceExpired();
  }
  sources.set(tree, sourceFor(text));
  s.trees.set(text, tree);
  return copyOf(tree);
}

interface SliceParser {
  parser: TreeSitter.Parser;
  epoch: number;
  /** The text of the parse that ran out of time, resumed by the next call with the same text. */
  outstanding?: string;
  trees: Map<string, Tree>;
}

function copyOf(tree: Tree): Tree {
  const copy = tree.copy();
  sources.set(copy, sourceOf(tree));
  return copy;
}

/** Parses a small piece of Python on its own (the caller deletes the tree). */
export function parseSnippet(text: string): Tree | null {
  return guarded(() => parse(text));
}


/** A parsed document: the main tree plus, when recovery ran, the extra trees that cover the broken statements. */
export interface ParsedDocument {
  text: string;
  /** The tree of the text as it is (the one kept for incremental re-parsing). */
  tree: Tree;
  /** Top-level statements to read, in source order, drawn from the main tree and the recovery trees. */
  statements: Node[];
  /** Ranges (rows) of statements that tree-sitter could not parse and that were recovered. */
  recovered: { startRow: number; endRow: number }[];
  /** Trees made by recovery; freed with the document. */
  extraTrees: Tree[];
}

/** Frees the WASM memory of a parsed document (its nodes are unusable afterwards). */
export function disposeDocument(doc: ParsedDocument): void {
  doc.tree.delete();
  for (const t of doc.extraTrees) t.delete();
}

const STATEMENT_START =
  /^(?:async[ \t]+def\b|def\b|class\b|@|import\b|from\b|if\b|for\b|while\b|with\b|try\b|[A-Za-z_][\w.]*[ \t]*(?::[^=\n]*)?=[^=]|[A-Za-z_][\w.]*[ \t]*\()/;

/** The parts of a file as top-level statements, recovering from unclosed brackets at the top level. */
export function parseDocument(text: string, oldTree?: Tree, edit?: TextEdit): ParsedDocument {
  if (oldTree && edit) oldTree.edit(toTreeSitterEdit(text, edit));
  const tree = parse(text, oldTree, true);
  if (!tree) throw new Error('tree-sitter returned no tree');
  const statements: Node[] = [];
  const recovered: ParsedDocument['recovered'] = [];
  const extraTrees: Tree[] = [];
  try {
    collect(tree.rootNode, text, statements, { recovered, extraTrees }, 0);
  } catch (e) {
    // A slice out of time in recovery: nothing of this attempt is kept (after a fault the whole
    // runtime is dropped instead, its memory untouched).
    if (e instanceof SliceExpired) {
      tree.delete();
      for (const t of extraTrees) t.delete();
    }
    throw e;
  }
  return { text, tree, statements, recovered, extraTrees };
}

const MAX_RECOVERIES = 16;

interface Recovery {
  recovered: ParsedDocument['recovered'];
  extraTrees: Tree[];
}

function collect(root: Node, text: string, out: Node[], rec: Recovery, depth: number): void {
  // A file without a syntax error needs no recovery: its statements are the root's children.
  if (!root.hasError) {
    for (const child of root.namedChildren) if (child) out.push(child);
    return;
  }
  // A file that starts with the broken statement can come back as a bare ERROR root.
  const children = root.type === 'ERROR' ? [root] : root.namedChildren;
  for (const child of children) {
    if (!child) continue;
    if ((child.type !== 'ERROR' && !child.hasError) || depth >= MAX_RECOVERIES) {
      out.push(child);
      continue;
    }
    // A broken statement at the top level: find where the next real statement starts inside it
    // (an unclosed bracket or string can swallow the rest of the file).
    const resume = resumeOffset(child, text);
    if (resume === undefined) {
      if (child.type !== 'ERROR') {
        out.push(child);
        continue;
      }
      // tree-sitter kept the break to this node: try it alone with its brackets closed.
      const repaired = parseBroken(text, child.startIndex, child.endIndex, rec);
      out.push(...(repaired.length && !repaired.some((n) => n.type === 'ERROR') ? repaired : [child]));
      continue;
    }
    const brokenStart = child.startIndex;
    const broken = parseBroken(text, brokenStart, resume, rec);
    rec.recovered.push({ startRow: child.startPosition.row, endRow: rowAt(text, resume) - 1 });
    out.push(...broken);
    // Everything from `resume` to the end of the file, parsed again with the part before it blanked.
    const rest = parse(blank(text, 0, resume), undefined, true);
    if (!rest) continue;
    rec.extraTrees.push(rest);
    const tail: Node[] = [];
    collect(rest.rootNode, text, tail, rec, depth + 1);
    out.push(...tail.filter((n) => n.startIndex >= resume));
    // The main tree's later children are covered by `rest`; stop here.
    return;
  }
}

/** The offset of the first line inside `error` (after its first line) that starts a new top-level statement. */
function resumeOffset(error: Node, text: string): number | undefined {
  const strings: [number, number][] = [];
  // Only a triple-quoted string can hold a line break (an unterminated '...' ends at its line).
  for (const s of error.descendantsOfType('string')) {
    if (s && /^[rRbBuUfF]{0,2}('''|""")/.test(text.slice(s.startIndex, s.startIndex + 5))) strings.push([s.startIndex, s.endIndex]);
  }
  let offset = text.indexOf('\n', error.startIndex);
  while (offset !== -1 && offset < error.endIndex) {
    const lineStart = offset + 1;
    const lineEnd = text.indexOf('\n', lineStart);
    const line = text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd);
    if (STATEMENT_START.test(line) && !strings.some(([a, b]) => a < lineStart && lineStart < b)) return lineStart;
    offset = lineEnd;
  }
  return undefined;
}

/** Parses text[start, end) on its own, with its open brackets closed, at the same offsets as in the file. */
function parseBroken(text: string, start: number, end: number, rec: Recovery): Node[] {
  let region = text.slice(start, end).replace(/\s+$/, '');
  region += closers(region);
  const tree = parse(blank(text.slice(0, start), 0, start) + region + '\n', undefined, true);
  if (!tree) return [];
  rec.extraTrees.push(tree);
  return tree.rootNode.namedChildren.filter((n): n is Node => !!n && n.startIndex >= start);
}

/** The brackets (and a string quote) that close what `src` leaves open. */
function closers(src: string): string {
  const stack: string[] = [];
  const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
  let i = 0;
  let quote = '';
  while (i < src.length) {
    const c = src[i];
    if (quote) {
      if (c === '\\') i++;
      else if (src.startsWith(quote, i)) {
        i += quote.length - 1;
        quote = '';
      } else if (c === '\n' && quote.length === 1) quote = '';
    } else if (c === '#') {
      const nl = src.indexOf('\n', i);
      i = nl === -1 ? src.length : nl;
      continue;
    } else if (c === '"' || c === "'") {
      quote = src.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      i += quote.length - 1;
    } else if (pairs[c]) stack.push(pairs[c]);
    else if (c === ')' || c === ']' || c === '}') {
      if (stack[stack.length - 1] === c) stack.pop();
    }
    i++;
  }
  return quote + stack.reverse().join('');
}

/** text with [start, end) blanked: every character but a newline becomes a space, so offsets stay. */
function blank(text: string, start: number, end: number): string {
  return text.slice(0, start) + text.slice(start, end).replace(/[^\n]/g, ' ') + text.slice(end);
}

function rowAt(text: string, offset: number): number {
  let row = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) row++;
  return row;
}

/** One edit between two versions of a text: [start, oldEnd) in the old text became [start, newEnd) in the new. */
export interface TextEdit {
  start: number;
  oldEnd: number;
  newEnd: number;
  oldText: string;
}

/** The single smallest edit that turns `before` into `after` (common prefix and suffix trimmed). */
export function diffEdit(before: string, after: string): TextEdit {
  const max = Math.min(before.length, after.length);
  let start = 0;
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let tail = 0;
  while (tail < max - start && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  return { start, oldEnd: before.length - tail, newEnd: after.length - tail, oldText: before };
}

function pointAt(text: string, offset: number): { row: number; column: number } {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return { row: rowAt(text, offset), column: offset - lineStart };
}

function toTreeSitterEdit(newText: string, e: TextEdit): TreeSitter.Edit {
  return new (runtime().module.Edit)({
    startIndex: e.start,
    oldEndIndex: e.oldEnd,
    newEndIndex: e.newEnd,
    startPosition: pointAt(newText, e.start),
    oldEndPosition: pointAt(e.oldText, e.oldEnd),
    newEndPosition: pointAt(newText, e.newEnd),
  });
}

/** Characters an edit may span and still be parsed incrementally from the old tree. */
const FRESH_PARSE_SPAN = 256 * 1024;

/** Parse trees per document URI and version; a new version re-parses incrementally from the previous tree. */
export class ParseCache {
  private entries = new Map<string, { version: number; epoch: number; doc: ParsedDocument }>();

  get(uri: string, version: number, text: string): ParsedDocument {
    let prev = this.entries.get(uri);
    // A tree of a replaced runtime is dead: forget it without touching it.
    if (prev && prev.epoch !== epoch) {
      this.entries.delete(uri);
      prev = undefined;
    }
    if (prev && prev.version === version && prev.doc.text === text) return prev.doc;
    let doc: ParsedDocument;
    if (prev && prev.doc.text !== text) {
      // The incremental parse edits a copy of the old tree (a copy is cheap: trees share their
      // nodes), so a parse that does not finish (a fault, a slice out of time) leaves the previous
      // version as it was, to parse from again. Editing can touch most of the tree (two edits far
      // apart make one edit between them), so a sliced job edits its copy once, for all its slices.
      // An edit that spans most of a large file (a replace-all, a paste over it) reuses nothing:
      // parsing afresh skips editing every node of the old tree.
      const old = prev.doc;
      const edit = memoInSlice('edit', old, () => diffEdit(old.text, text));
      const edited = () => {
        const b = old.tree.copy();
        b.edit(toTreeSitterEdit(text, edit));
        return b;
      };
      const job = slicing();
      const base =
        edit.oldEnd - edit.start > FRESH_PARSE_SPAN
          ? undefined
          : job
            ? memoInSlice('base', old, () => {
                const b = edited();
                const made = epoch;
                job.onModuleDone(() => made === epoch && b.delete());
                return b;
              })
            : edited();
      try {
        doc = parseDocument(text, base);
      } finally {
        if (base && !job && prev.epoch === epoch) base.delete();
      }
      this.entries.delete(uri);
      if (prev.epoch === epoch) disposeDocument(prev.doc);
    } else if (prev) {
      doc = prev.doc;
    } else {
      doc = parseDocument(text);
    }
    this.entries.set(uri, { version, epoch, doc });
    return doc;
  }

  delete(uri: string): void {
    const entry = this.entries.get(uri);
    if (entry && entry.epoch === epoch) disposeDocument(entry.doc);
    this.entries.delete(uri);
  }
}
