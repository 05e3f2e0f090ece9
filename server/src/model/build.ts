// Tree → declaration model. Each top-level statement (segment, server/src/parse/segments.ts) is parsed and
// read once into a fragment; a new version reads only the segments an edit touched (the others keep their
// fragment, moved when lines were added or removed above them), and the module-level pass that joins the
// fragments (imports, bindings, generation) is cheap.
import type { Node } from 'web-tree-sitter';
import { parseSegment, parseSnippet, parseWhole, parserEpoch, recoveredRows, segmentScan, sourceOf, type ParsedDocument, type Segment } from '../parse/parser';
import { evalNumber, evalStringLiteral } from './literals';
import type {
  Argument,
  Binding,
  BodyFlow,
  Call,
  ClassDecl,
  Decorator,
  FieldDecl,
  FunctionBody,
  FunctionDecl,
  ImportBinding,
  Model,
  Param,
  Pos,
  PySyntaxError,
  Range,
  Value,
} from './types';
import { TrackedMap, trackModel } from './reads';
import { rowOf } from '../parse/segments';
import { allDecorators, detectSdk } from './sdk';
import { advanced, checkpoint, memoInSlice, slicing } from '../slices';
import { applySdkProfile } from '../sdk/profile';
import { regionError, scanRegion, type PyError, type RegionScan, type TreeError } from '../parse/pysyntax';

interface FragmentMoves {
  positions: Pos[];
  /** Parts not read yet when the positions were last collected. */
  lazy: LazyPart[];
}

/** An ERROR or MISSING node where it is (a Range, so a fragment moved to other rows moves it too). */
interface FragmentTreeError {
  range: Range;
  missing?: string;
}

interface Fragment {
  /** The row its positions are on (its segment's first row when it was read or last moved). */
  row: number;
  /** Its positions, found the first time it moved (moveFragment). */
  moves?: FragmentMoves;
  attributeAssignments: Model['attributeAssignments'];
  imports: ImportBinding[];
  futureAnnotations: boolean;
  functions: FunctionDecl[];
  classes: ClassDecl[];
  bindings: Binding[];
  calls: Call[];
  mainBlocks: Range[];
  /** The statements' ERROR and MISSING nodes (Python's syntax errors: ModelBuilder.syntax). */
  treeErrors: FragmentTreeError[];
}

/** A node's range, computed from its tree's line table (one WASM call, for the end offset). */
export function rangeOf(n: Node): Range {
  return spanOf(n).range;
}

// Every property of a web-tree-sitter node is a call into WASM; these read each one once per node.
// What is read is kept in one object of a fixed shape, added to the node once, so every node keeps
// the same shape (and property reads stay fast whatever order a node's facts are read in).
class NodeFacts {
  type: string | undefined = undefined;
  /** The node's span once read: the facts are its span object (spanOf), so a span costs no object of its own. */
  range: Range | undefined = undefined;
  text: string | undefined = undefined;
}
const FACTS = Symbol('facts');
type WithFacts = Node & { [FACTS]?: NodeFacts };

function facts(n: Node): NodeFacts {
  return ((n as WithFacts)[FACTS] ??= new NodeFacts());
}

/** A node's type ('' for none). */
function ty(n: Node | null | undefined): string {
  if (!n) return '';
  const f = facts(n);
  return (f.type ??= n.type);
}

/** Records a type the grammar guarantees, so it is not read from WASM. */
function setType(n: Node, type: string): void {
  facts(n).type ??= type;
}

function textOf(n: Node): string;
function textOf(n: Node | null | undefined): string | undefined;
function textOf(n: Node | null | undefined): string | undefined {
  return n ? spanOf(n).text : undefined;
}

/** Named children without comments (a comment starts with `#`: read from the source, not from WASM). */
function kids(n: Node): readonly Node[] {
  const src = sourceOf(n.tree).text;
  const all = n.namedChildren;
  // Most nodes have no comment among their children: their list is web-tree-sitter's own (read-only here).
  for (let i = 0; i < all.length; i++) {
    const c = all[i];
    if (!c || src.charCodeAt(c.startIndex) === 35) return all.filter((c): c is Node => !!c && src.charCodeAt(c.startIndex) !== 35);
  }
  return all as Node[];
}

/** An assignment's parts: `a = 1`, `a: int = 1`, `a: int` (one WASM call for all three). */
function assignmentParts(a: Node): { left?: Node; type?: Node; right?: Node } {
  const [left, second, third] = kids(a);
  if (!left || !second) return { left };
  if (third) return { left, type: second, right: third };
  // Two parts: `left: type` or `left = right`, told apart by the first character after `left`.
  const src = sourceOf(a.tree).text;
  ty(left); // typed first, so an identifier's span is read from the source
  let i = left.startIndex + textOf(left).length;
  while (src[i] === ' ' || src[i] === '\t') i++;
  return src[i] === ':' ? { left, type: second } : { left, right: second };
}

/** A node's range and source text together, sharing the one WASM call both need. */
function spanOf(n: Node): { range: Range; text: string } {
  const f = facts(n);
  if (f.range === undefined) computeSpan(n, f);
  return f as { range: Range; text: string };
}

/** Records a node's span (unless it is known already). */
function setSpan(n: Node, range: Range, text: string): void {
  const f = facts(n);
  if (f.range !== undefined) return;
  f.range = range;
  f.text = text;
}

/** Leaf tokens whose end the source text tells (a name, a number, a keyword): no WASM call needed. */
const LEXICAL_END: Record<string, RegExp> = {
  identifier: /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*/uy,
  integer: /[0-9a-zA-Z_]*/y,
  true: /[a-zA-Z]*/y,
  false: /[a-zA-Z]*/y,
  none: /[a-zA-Z]*/y,
};

/** The position of an offset in a tree's source. */
function positionAt(n: Node, offset: number): { line: number; character: number } {
  const { lineStarts } = sourceOf(n.tree);
  const line = rowOf(lineStarts, offset);
  return { line, character: offset - lineStarts[line] };
}

/** Records a node's span when its end is known without asking WASM (the start of what follows it). */
function knownEnd(n: Node, end: number): void {
  if (facts(n).range !== undefined) return;
  const text = sourceOf(n.tree).text.slice(n.startIndex, end);
  setSpan(n, { start: { line: n.startPosition.row, character: n.startPosition.column }, end: positionAt(n, end) }, text);
}

/** A range from one range's start to another's end. */
function join(a: Range, b: Range): Range {
  return { start: a.start, end: b.end };
}

function computeSpan(n: Node, f: NodeFacts): void {
  const { text, lineStarts } = sourceOf(n.tree);
  const known = f.type;
  const lexical = known !== undefined ? LEXICAL_END[known] : undefined;
  let end: number;
  if (lexical) {
    // The first character is part of the token; the pattern reads the rest of it.
    lexical.lastIndex = n.startIndex + 1;
    lexical.test(text);
    end = lexical.lastIndex;
  } else {
    end = n.endIndex;
  }
  const lo = rowOf(lineStarts, end, n.startPosition.row);
  f.range = { start: { line: n.startPosition.row, character: n.startPosition.column }, end: { line: lo, character: end - lineStarts[lo] } };
  f.text = text.slice(n.startIndex, end);
}

/** Builds models, reusing the fragments of segments that did not change since the last build. */
export class ModelBuilder {
  private fragments = new Map<Segment, Fragment>();
  /** The calls read in the last build that read any, by position and length (with their text). */
  private calls = new Map<string, { text: string; call: Call }>();
  /** Segments read (parsed) in the last build, for tests and the benchmarks. */
  read = 0;
  /** Regions scanned for syntax errors in the last build (the others' scans were kept), for tests and the benchmarks. */
  scanned = 0;
  /** The syntax scan of each segment of the last build. */
  private scans = new Map<Segment, { row: number; atEof: boolean; scan: RegionScan }>();
  /**
   * Incremented each time the kept fragments are moved to a new version's rows (each build); `rowMaps`
   * holds, for the last few, where each row of the one before went (what is kept beside the model, such
   * as rule findings, is moved with it: `mapRow`).
   */
  epoch = 0;
  private rowMaps: { epoch: number; runs: Int32Array }[] = [];
  /** The id of the document of the last build (it is the document cache's to keep: ParsedDocument.id). */
  private lastDoc?: number;

  /** The row `row` of epoch `from` is now on, or -1 when its statement was read again (or the epoch is too old). */
  mapRow(row: number, from: number): number {
    if (from === this.epoch) return row;
    const maps = this.rowMaps;
    let i = maps.length - (this.epoch - from);
    if (i < 0 || from > this.epoch) return -1;
    for (; i < maps.length && row >= 0; i++) row = mapThrough(maps[i].runs, row);
    return row;
  }

  build(uri: string, doc: ParsedDocument): Model {
    // In a sliced job (server/src/slices.ts) the build stops between statements when the slice's time
    // is up; what it found and read is kept for the job's next slice (which runs it from the top).
    const job = slicing();
    const { next, missing } = memoInSlice('segments', doc, () => {
      const next = new Map<Segment, Fragment>();
      const missing: Segment[] = [];
      // Where the rows of the fragments kept go: old row, new row, rows, for each.
      const moved: number[] = [];
      const segments = doc.segments;
      for (let i = 0; i < segments.length; i++) {
        const seg = segments[i];
        let f = this.fragments.get(seg);
        if (!f && seg.from) {
          f = this.fragments.get(seg.from.seg);
          // Its syntax scan goes with it (used again while it starts on the same line).
          const scan = this.scans.get(seg.from.seg);
          if (scan) this.scans.set(seg, scan);
        }
        if (f) {
          const rows = (i + 1 < segments.length ? segments[i + 1].row : doc.lineStarts.length) - seg.row;
          moved.push(f.row, seg.row, rows);
          // Moved to the segment's row (from wherever its positions are: a build given up may have moved it already).
          if (f.row !== seg.row) moveFragment(f, seg.row - f.row);
        }
        // What this segment was is not needed any more (and would keep old versions alive).
        delete seg.from;
        if (f) next.set(seg, f);
        else missing.push(seg);
      }
      // Runs of rows moved alike: those of the text around the edit (rows of a statement read again
      // included), or else those of the fragments kept.
      const runs: number[] = [];
      // Only an edit from the document built last (one built again, for a version of the same text, is
      // where it was; one made from a document this builder never built, by a file over Python's
      // limits, is moved by its fragments).
      const last = this.lastDoc;
      const edit = last !== undefined && doc.id !== last && doc.editRows?.from === last ? doc.editRows : undefined;
      this.lastDoc = doc.id;
      if (edit) {
        const oldRows = edit.oldEndRow + 1 + (doc.lineStarts.length - 1 - edit.newEndRow);
        runs.push(0, 0, edit.row, edit.oldEndRow + 1, edit.newEndRow + 1, oldRows - edit.oldEndRow - 1);
        moved.length = 0;
      }
      for (let k = 0; k < moved.length; k += 3) {
        const n = runs.length;
        if (n && runs[n - 3] + runs[n - 1] === moved[k] && runs[n - 2] + runs[n - 1] === moved[k + 1]) runs[n - 1] += moved[k + 2];
        else runs.push(moved[k], moved[k + 1], moved[k + 2]);
      }
      this.rowMaps.push({ epoch: ++this.epoch, runs: Int32Array.from(runs) });
      if (this.rowMaps.length > ROW_MAPS) this.rowMaps.shift();
      return { next, missing };
    });
    this.read = missing.length;
    // Most of the file to read (its first analysis): one parse of the whole text serves the statements it parses cleanly.
    const wantWhole = missing.length > WHOLE_PARSE_MIN && missing.length * 2 > doc.segments.length;
    const whole = !wantWhole
      ? undefined
      : job
        ? memoInSlice('whole', doc, () => {
            const w = parseWhole(doc, missing);
            const made = parserEpoch();
            if (w) job.onModuleDone(() => made === parserEpoch() && w.tree.delete());
            return w;
          })
        : parseWhole(doc, missing);
    const outer = calls;
    // Calls of the statements read again are the same objects where their text and place did not change.
    calls = { last: this.calls, next: memoInSlice('calls', doc, () => new Map()) };
    try {
      for (const seg of missing) {
        if (job && next.has(seg)) continue;
        checkpoint();
        const nodes = whole?.statements.get(seg);
        next.set(seg, nodes ? readStatements(doc, nodes, seg.row) : readSegment(doc, seg));
        advanced();
        // Its nodes (and the children web-tree-sitter keeps on them) are garbage from here on, not live
        // through the rest of the build.
        whole?.statements.delete(seg);
      }
      if (missing.length) this.calls = calls.next;
    } finally {
      calls = outer;
      if (!job) whole?.tree.delete();
    }
    // Joining the fragments and the syntax check take a while for thousands of statements: in a slice of their own when due.
    checkpoint();
    const fragments = doc.segments.map((s) => next.get(s)!);
    const syntaxErrors = this.syntax(doc, fragments);
    this.fragments = next;
    const model = assemble(uri, doc, fragments);
    model.syntaxErrors = syntaxErrors;
    return model;
  }

  /**
   * Python's syntax errors, one per region: a region is the lines from a statement that starts a line up to
   * the next such statement. Each region's text is scanned as CPython's tokenizer would (kept while the
   * region's text and place stay the same), and its first error is the one CPython would raise first.
   */
  private syntax(doc: ParsedDocument, fragments: Fragment[]): PySyntaxError[] {
    const text = doc.text;
    const lineStarts = doc.lineStarts;
    // A segment is where Python's tokenizer starts a statement (a line at column 0 outside brackets and
    // strings, decorators with their definition, else/except/finally with theirs): one region each.
    const segments = doc.segments;
    // In a sliced job, the scans done in its earlier slices are kept for the next one.
    const next = memoInSlice('scans', doc, () => new Map<Segment, { row: number; atEof: boolean; scan: RegionScan }>());
    const out: PySyntaxError[] = [];
    const NONE: TreeError[] = [];
    this.scanned = 0;
    for (let i = 0; i < segments.length; i++) {
      const seg = segments[i];
      let atEof = i === segments.length - 1;
      // Kept with the segment (the same object while its text does not change), while it starts on the same line.
      const kept = this.scans.get(seg) ?? next.get(seg);
      // A region without errors moved by lines added or removed above it scans as it did, its lines moved
      // with it (an error's message may name a line: such a region is scanned again).
      const moved = kept && kept.atEof === atEof && kept.row !== seg.row && clean(kept.scan) ? moveScan(kept.scan, seg.row - kept.row) : undefined;
      let scan = moved ?? (kept && kept.row === seg.row && kept.atEof === atEof ? kept.scan : (checkpoint(), this.scanned++, advanced(), (!atEof && segmentScan(seg)) || scanRegion(text, seg.start, seg.end, seg.row, atEof)));
      next.set(seg, kept?.scan === scan ? kept : { row: seg.row, atEof, scan });
      let tree = fragments[i].treeErrors.length ? fragments[i].treeErrors.map(treeError) : NONE;
      if (tree.length) tree = trustedTreeErrors(tree, scan, text, lineStarts);
      if (!atEof && (scan.unclosed || /^unterminated triple-quoted/.test(scan.tokenizer?.message ?? ''))) {
        // Python reads on past an unclosed bracket or string: the rest of the file is one broken statement.
        tree = fragments.slice(i).flatMap((f) => f.treeErrors.map(treeError));
        scan = scanRegion(text, seg.start, text.length, seg.row, true);
        atEof = true;
        i = segments.length;
      }
      const error = regionError(scan, tree);
      if (error) out.push({ kind: error.kind, message: error.message, range: errorRange(atContinuation(error, scan, text, lineStarts), text, lineStarts) });
    }
    this.scans = next;
    return out;
  }
}

/**
 * "invalid syntax" at the first token of a line inside brackets: two expressions with no comma between them
 * (`a` at the end of one line, `b` at the start of the next), which CPython reports where the first one is.
 */
function atContinuation(e: PyError, scan: RegionScan, text: string, lineStarts: ArrayLike<number>): PyError {
  if (e.message !== 'invalid syntax' || !scan.continuation.includes(e.line)) return e;
  const start = lineStarts[e.line] ?? 0;
  if (!/^[ \t]*$/.test(text.slice(start, start + e.col))) return e;
  for (let line = e.line - 1; line >= 0; line--) {
    const code = text.slice(lineStarts[line], lineStarts[line + 1] ?? text.length).replace(/#.*$/s, '').trimEnd();
    if (!code.trim()) continue;
    return /[\w)\]}"']$/.test(code) ? { ...e, line, col: code.length - 1, endLine: line, endCol: code.length } : e;
  }
  return e;
}

/**
 * The parse tree's errors that are Python's. tree-sitter-python misreads a subscript whose continuation line
 * is indented less than the statement it continues (`labels: list[` then `str]` at column 0 in a class
 * body): valid Python, since indentation inside brackets does not count, but ERRORs in the tree from the
 * enclosing block's header to that line. The tree's errors up to the last such line are not used (a miss
 * rather than a false SYN-002); the scanner's own errors still are.
 */
function trustedTreeErrors(tree: TreeError[], scan: RegionScan, text: string, lineStarts: ArrayLike<number>): TreeError[] {
  if (!scan.continuation.length) return tree;
  const indent = (line: number): number | undefined => {
    const start = lineStarts[line] ?? text.length;
    let i = start;
    while (text[i] === ' ' || text[i] === '\t') i++;
    return i >= text.length || text[i] === '\n' || text[i] === '\r' || text[i] === '#' ? undefined : i - start;
  };
  let misread = -1;
  // Both lists are in source order: the first line of the statement each continuation line continues is
  // found by one walk of the logical lines.
  let k = -1;
  for (const line of scan.continuation) {
    while (k + 1 < scan.logical.length && scan.logical[k + 1] <= line) k++;
    const first = k < 0 ? -1 : scan.logical[k];
    const own = indent(line);
    const outer = first < 0 ? undefined : indent(first);
    if (own !== undefined && outer !== undefined && own < outer) misread = line;
  }
  return misread < 0 ? tree : tree.filter((t) => t.line > misread);
}

/** Whether a region's scan found nothing wrong. */
function clean(scan: RegionScan): boolean {
  return !scan.tokenizer && !scan.unclosed && !scan.parser.length && !scan.compile.length;
}

/** A clean region's scan with every line `rows` further down (columns stay). */
function moveScan(scan: RegionScan, rows: number): RegionScan {
  const lines = (ls: number[]) => ls.map((l) => l + rows);
  return {
    parser: [],
    compile: [],
    indents: scan.indents,
    continuation: lines(scan.continuation),
    decorators: lines(scan.decorators),
    logical: lines(scan.logical),
  };
}

/** The range of an error: its place, on its first line only (a broken region may span the rest of the file). */
/** A parse-tree error as the scanner compares it. */
function treeError(t: FragmentTreeError): TreeError {
  return { line: t.range.start.line, col: t.range.start.character, endLine: t.range.end.line, endCol: t.range.end.character, ...(t.missing ? { missing: t.missing } : {}) };
}

function errorRange(e: PyError, text: string, lineStarts: ArrayLike<number>): Range {
  const start = lineStarts[e.line] ?? text.length;
  const nl = text.indexOf('\n', start);
  const length = (nl === -1 ? text.length : nl) - start - (text[nl - 1] === '\r' ? 1 : 0);
  const col = Math.min(Math.max(0, e.col), length);
  const endCol = e.endLine === e.line ? Math.min(Math.max(col + 1, e.endCol), length) : length;
  return { start: { line: e.line, character: col }, end: { line: e.line, character: Math.max(col, endCol) } };
}

export function buildModel(uri: string, doc: ParsedDocument): Model {
  return new ModelBuilder().build(uri, doc);
}

/** A row through one build's runs (old row, new row, rows: sorted by old row), or -1 when it is in none. */
function mapThrough(runs: Int32Array, row: number): number {
  let lo = 0;
  let hi = runs.length / 3 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const from = runs[mid * 3];
    if (row < from) hi = mid - 1;
    else if (row >= from + runs[mid * 3 + 2]) lo = mid + 1;
    else return runs[mid * 3 + 1] + row - from;
  }
  return -1;
}

/** How many builds back what was kept beside a model can be moved to the current rows. */
const ROW_MAPS = 8;

/** Below this many statements to read, each is parsed on its own. */
const WHOLE_PARSE_MIN = 16;

/** Parses one segment and reads its statements into a fragment; its tree is freed at once. */
function readSegment(doc: ParsedDocument, seg: Segment): Fragment {
  const { tree, statements } = parseSegment(doc, seg);
  try {
    return readStatements(doc, statements, seg.row);
  } finally {
    tree.delete();
  }
}

function readStatements(doc: ParsedDocument, statements: Node[], row: number): Fragment {
  const f = emptyFragment(row);
  for (const stmt of statements) {
    readInto(stmt, doc.text, f, false);
    if (stmt.hasError) collectTreeErrors(stmt, f.treeErrors);
  }
  return f;
}

// ---------------------------------------------------------------------------------------------
// Moving a fragment: lines added or removed above a statement move it without changing it. It is moved
// in place: every object keeps its identity, so whatever was computed from it (a Symbol's analysis, the
// findings of a rule unit) is reused, and the positions those results hold are the model's own.

/** A part of an object read when first asked for (`readLater`): its span, and its value once read. */
interface LazyPart {
  span: { range: Range };
  peek(): unknown;
}

/** The parts read when first asked for (getters) of a model object that has them (a function, a class): moved with it. */
function lazyParts(v: object): LazyPart[] | undefined {
  return v instanceof FunctionRead || v instanceof ClassRead ? v.lazyParts() : undefined;
}

/**
 * Moves a fragment `rows` rows further down, in place. Its positions are found once (the first time it
 * moves) and kept in a list; a part read later (a function's body, a class's fields) is added to it the
 * first move after it was read. So moving a statement again is one addition per position.
 */
function moveFragment(f: Fragment, rows: number): void {
  let moves = f.moves;
  if (!moves) {
    moves = f.moves = { positions: [], lazy: [] };
    const { row: _, moves: __, ...parts } = f;
    collectPositions(parts, moves);
  }
  if (moves.lazy.length) {
    // Parts read since the last move (their positions are where their span was when read).
    const waiting: LazyPart[] = [];
    for (const p of moves.lazy) {
      const value = p.peek();
      if (value === undefined) waiting.push(p);
      else if (value !== null && typeof value === 'object') collectPositions(value, moves);
    }
    moves.lazy = waiting;
  }
  const positions = moves.positions;
  for (let i = 0; i < positions.length; i++) positions[i].line += rows;
  f.row += rows;
}

/** Adds every position reachable from `root` to `moves` (each once), and the parts not read yet with their spans. */
function collectPositions(root: object, moves: FragmentMoves): void {
  const seen = new Set<object>();
  const { positions } = moves;
  const visit = (v: object): void => {
    if (seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        if (x !== null && typeof x === 'object') visit(x);
      }
      return;
    }
    if (v instanceof Set) {
      for (const x of v) if (x !== null && typeof x === 'object') visit(x);
      return;
    }
    if (v instanceof Map) {
      for (const [k, x] of v) {
        if (k !== null && typeof k === 'object') visit(k);
        if (x !== null && typeof x === 'object') visit(x);
      }
      return;
    }
    const o = v as Record<string, unknown>;
    if (typeof o.line === 'number' && typeof o.character === 'number') {
      positions.push(o as unknown as Pos);
      return;
    }
    const parts = lazyParts(v);
    if (parts) {
      // A part not read yet is read at its span's place (moved with the rest); one read already moves with the rest.
      for (const p of parts) {
        visit(p.span.range);
        const value = p.peek();
        if (value === undefined) moves.lazy.push(p);
        else if (value !== null && typeof value === 'object') visit(value);
      }
      const descriptors = Object.getOwnPropertyDescriptors(v);
      for (const key in descriptors) {
        const x = descriptors[key].value;
        if (x !== null && typeof x === 'object') visit(x);
      }
      return;
    }
    for (const key in o) {
      const x = o[key];
      if (x !== null && typeof x === 'object') visit(x);
    }
  };
  visit(root);
}

/** A model that declares nothing yet: what assembling starts from, and the model of a file that is not parsed. */
export function emptyModel(uri: string, lineCount = 1): Model {
  return {
    uri,
    lineCount,
    imports: [],
    sdkImports: [],
    generationAssumed: false,
    futureAnnotations: false,
    functions: [],
    classes: [],
    bindings: new TrackedMap(),
    calls: [],
    mainBlocks: [],
    attributeAssignments: [],
    factories: new TrackedMap(),
    sdkCalls: new TrackedMap(),
    recovered: [],
    syntaxErrors: [],
  };
}

function assemble(uri: string, doc: ParsedDocument, fragments: Fragment[]): Model {
  const model = emptyModel(uri, doc.lineStarts.length);
  model.recovered = recoveredRows(doc);
  // Most statements add to one or two of the lists: the others are not pushed to (a spread push of an empty list costs a call).
  for (let i = 0; i < fragments.length; i++) {
    const f = fragments[i];
    if (f.imports.length) model.imports.push(...f.imports);
    model.futureAnnotations ||= f.futureAnnotations;
    if (f.functions.length) model.functions.push(...f.functions);
    if (f.classes.length) model.classes.push(...f.classes);
    if (f.calls.length) model.calls.push(...f.calls);
    if (f.mainBlocks.length) model.mainBlocks.push(...f.mainBlocks);
    if (f.attributeAssignments.length) model.attributeAssignments.push(...f.attributeAssignments);
    for (const b of f.bindings) {
      const list = model.bindings.get(b.name);
      if (list) list.push(b);
      else model.bindings.set(b.name, [b]);
    }
  }
  model.script = readScriptBlock(doc.text);
  addFactoryCalls(model);
  detectSdk(model);
  applySdkProfile(model);
  return trackModel(model);
}

/**
 * Module-level functions called at module level with no arguments, whose body only returns a value
 * (`def _hooks(): return [vis.OpHook(...)]`, then `op_hooks=_hooks()`): the call's result is that
 * value, and the calls in it run at import, so they are checked where they are written.
 */
function addFactoryCalls(model: Model): void {
  const seen = new Set(model.calls);
  for (let i = 0; i < model.calls.length; i++) {
    const call = model.calls[i];
    if (call.args.length || call.inner || call.callee.includes('.')) continue;
    const b = model.bindings.get(call.callee);
    if (b?.length !== 1 || b[0].kind !== 'function') continue;
    const fn = b[0].decl;
    if (model.factories.has(fn) || fn.isAsync || fn.decorators.length || fn.params.some((p) => p.defaultValue === undefined && p.kind !== 'var_positional' && p.kind !== 'var_keyword')) continue;
    const body = fn.body;
    if (body.others || body.functions.length || body.returns.length !== 1) continue;
    model.factories.set(fn, body.returns[0]);
    const inner: Call[] = [];
    collectCalls(body.returns[0], inner);
    for (const c of inner) if (!seen.has(c)) seen.add(c), model.calls.push(c);
  }
}

// ---------------------------------------------------------------------------------------------
// Statements

function emptyFragment(row: number): Fragment {
  return { row, attributeAssignments: [], imports: [], futureAnnotations: false, functions: [], classes: [], bindings: [], calls: [], mainBlocks: [], treeErrors: [] };
}

/**
 * The ERROR and MISSING nodes of a statement, in document order (a few are enough: only the first counts).
 * An explicit stack: a statement's tree may be thousands of levels deep.
 */
function collectTreeErrors(stmt: Node, out: FragmentTreeError[]): void {
  const stack: Node[] = [stmt];
  while (stack.length && out.length < 8) {
    const n = stack.pop()!;
    const type = ty(n);
    if (type === 'ERROR' || n.isMissing) {
      const { range } = spanOf(n);
      out.push({ range, ...(n.isMissing ? { missing: type } : {}) });
      if (type !== 'ERROR') continue;
    }
    const children = n.children;
    for (let k = children.length - 1; k >= 0; k--) {
      const c = children[k];
      if (c && (c.hasError || c.isMissing)) stack.push(c);
    }
  }
}

function readInto(stmt: Node, text: string, f: Fragment, conditional: boolean): void {
  switch (ty(stmt)) {
    case 'import_statement':
    case 'import_from_statement':
      readImport(stmt, f, conditional);
      return;
    case 'future_import_statement':
      if (stmt.namedChildren.some((c) => textOf(c) === 'annotations')) f.futureAnnotations = true;
      return;
    case 'decorated_definition':
    case 'function_definition':
    case 'class_definition': {
      const def = ty(stmt) === 'decorated_definition' ? definitionOf(stmt) : stmt;
      if (!def) return;
      if (ty(def) === 'function_definition') {
        const fn = readFunction(stmt, def);
        f.functions.push(fn);
        f.bindings.push({ kind: 'function', name: fn.name, decl: fn, range: fn.range });
        for (const d of fn.decorators) if (d.call) collectCallsInCall(d.call, f.calls);
      } else if (ty(def) === 'class_definition') {
        const cls = readClass(stmt, def);
        f.classes.push(cls);
        f.bindings.push({ kind: 'class', name: cls.name, decl: cls, range: cls.range });
        for (const d of allDecorators(cls)) if (d.call) collectCallsInCall(d.call, f.calls);
      }
      return;
    }
    case 'expression_statement': {
      for (const child of stmt.namedChildren) if (child) readExpressionStatement(child, f);
      return;
    }
    case 'with_clause': {
      // `with open(...) as fh:` at module level: the context managers are made at import.
      for (const item of stmt.namedChildren) {
        let expr = item && ty(item) === 'with_item' ? item.namedChildren[0] : null;
        if (expr && ty(expr) === 'as_pattern') expr = expr.namedChildren[0];
        if (expr) collectCalls(toValue(expr), f.calls);
      }
      return;
    }
    case 'if_statement':
    case 'try_statement':
    case 'with_statement':
    case 'for_statement':
    case 'while_statement':
    case 'else_clause':
    case 'elif_clause':
    case 'except_clause':
    case 'finally_clause':
    case 'block': {
      if (ty(stmt) === 'if_statement' && MAIN_GUARD.test(textOf(stmt.childForFieldName('condition')) ?? '')) {
        const body = stmt.childForFieldName('consequence');
        if (body) f.mainBlocks.push(rangeOf(body));
      }
      for (const child of stmt.namedChildren) {
        if (!child) continue;
        if (ty(child) === 'block' || ty(child).endsWith('_clause')) {
          for (const s of ty(child) === 'block' ? child.namedChildren : [child]) if (s) readInto(s, text, f, true);
        } else if (ty(stmt) === 'block') {
          readInto(child, text, f, true);
        } else {
          // The condition or iterable of the compound statement: calls there still run at import.
          collectCalls(toValue(child), f.calls);
        }
      }
      return;
    }
    default:
      return;
  }
}

/** `__name__ == "__main__"`, either way round. */
const MAIN_GUARD = /^\s*(?:__name__\s*==\s*(['"])__main__\1|(['"])__main__\2\s*==\s*__name__)\s*$/;

/** A Python name (an identifier as Python's tokenizer reads one). */
const PYTHON_NAME = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u;

function readExpressionStatement(expr: Node, f: Fragment): void {
  if (ty(expr) === 'assignment') {
    // a = b = value: every target is bound to the innermost value.
    const targets: Node[] = [];
    let node: Node | null = expr;
    let annotation: string | undefined;
    while (node && ty(node) === 'assignment') {
      const parts = assignmentParts(node);
      if (parts.left) targets.push(parts.left);
      annotation ??= textOf(parts.type);
      node = parts.right ?? null;
    }
    const value = node ? toValue(node) : undefined;
    if (value) collectCalls(value, f.calls);
    for (const t of targets) {
      if (ty(t) === 'attribute' && value && DOTTED.test(textOf(t))) {
        f.attributeAssignments.push({ target: textOf(t).replace(/\s+/g, ''), value, range: rangeOf(expr) });
        continue;
      }
      if (ty(t) === 'identifier') {
        // Error recovery can make an identifier of a stray `=` (a line broken before it): no name is bound.
        if (!PYTHON_NAME.test(textOf(t))) continue;
        if (value) f.bindings.push({ kind: 'assign', name: textOf(t), value, range: rangeOf(t), annotation });
        else f.bindings.push({ kind: 'other', name: textOf(t), range: rangeOf(t) });
      } else {
        for (const id of t.descendantsOfType('identifier')) {
          if (id && ty(id.parent) !== 'attribute' && ty(id.parent) !== 'subscript') f.bindings.push({ kind: 'other', name: textOf(id), range: rangeOf(id) });
        }
      }
    }
    return;
  }
  if (ty(expr) === 'augmented_assignment') {
    const left = expr.childForFieldName('left');
    if (left && ty(left) === 'identifier') f.bindings.push({ kind: 'other', name: textOf(left), range: rangeOf(left) });
    const right = expr.childForFieldName('right');
    if (right) collectCalls(toValue(right), f.calls);
    return;
  }
  collectCalls(toValue(expr), f.calls);
}

function readImport(stmt: Node, f: Fragment, conditional: boolean): void {
  const statementRange = rangeOf(stmt);
  const add = (local: string, module: string, name: string | undefined, node: Node, aliased = true) => {
    const b: ImportBinding = { local, module, name, aliased, range: rangeOf(node), statementRange, conditional };
    f.imports.push(b);
    f.bindings.push({ kind: 'import', name: local, binding: b, range: b.range });
  };
  if (ty(stmt) === 'import_statement') {
    for (const n of stmt.childrenForFieldName('name')) {
      if (!n) continue;
      if (ty(n) === 'aliased_import') {
        const mod = textOf(n.childForFieldName('name')) ?? '';
        const alias = textOf(n.childForFieldName('alias')) ?? mod;
        add(alias, mod, undefined, n);
      } else {
        // `import a.b` binds `a`; the module is still a.b.
        add(textOf(n).split('.')[0], textOf(n), undefined, n, false);
      }
    }
    return;
  }
  const moduleNode = stmt.childForFieldName('module_name');
  const module = textOf(moduleNode) ?? '';
  for (const n of stmt.childrenForFieldName('name')) {
    if (!n) continue;
    if (ty(n) === 'aliased_import') {
      const name = textOf(n.childForFieldName('name')) ?? '';
      add(textOf(n.childForFieldName('alias')) ?? name, module, name, n);
    } else {
      add(textOf(n), module, textOf(n), n);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Functions and classes

function readDecorators(outer: Node): Decorator[] {
  if (ty(outer) !== 'decorated_definition') return [];
  const src = sourceOf(outer.tree).text;
  let out: Decorator[] = NO_DECORATORS;
  // The decorators come first, each starting with `@`; the definition is the last part.
  for (const d of kids(outer)) {
    if (src.charCodeAt(d.startIndex) !== 64) continue;
    const expr = d.firstNamedChild;
    if (!expr) continue;
    const type = ty(expr);
    const { text, range } = spanOf(expr);
    const dec: Decorator = { text, range: { start: { line: d.startPosition.row, character: d.startPosition.column }, end: range.end } };
    if (type === 'call') {
      const v = toValue(expr);
      if (v.kind === 'call') {
        dec.call = v.call;
        dec.name = v.call.callee;
      }
    } else if (type === 'identifier' || type === 'attribute') {
      dec.name = text;
    }
    // Most definitions have one decorator: a list of one, not one grown by push (which keeps room for 16).
    if (out === NO_DECORATORS) out = [dec];
    else out.push(dec);
  }
  return out === NO_DECORATORS ? [] : out;
}

/**
 * The definition of a decorated definition: the last of its parts (after the decorators), which its
 * decorators are read from too, so no node of its own is made for it; the grammar's field otherwise.
 */
function definitionOf(outer: Node): Node | null {
  const parts = kids(outer);
  const last = parts.length ? parts[parts.length - 1] : undefined;
  const type = last && ty(last);
  return type === 'function_definition' || type === 'class_definition' ? last! : outer.childForFieldName('definition');
}

/** Before the first decorator is read (never added to). */
const NO_DECORATORS: Decorator[] = [];

/** A string literal (maybe after a prefix) starts here. */
const STRING_START = /[rRbBuUfF]{0,2}['"]/y;
function stringAt(src: string, at: number): boolean {
  STRING_START.lastIndex = at;
  return STRING_START.test(src);
}

function docstringOf(body: Node | null): string | undefined {
  // Only the first statement matters: walk siblings rather than materialising the whole body, and
  // tell a comment (`#`) by its first character.
  let first = body?.firstNamedChild ?? null;
  if (!first) return undefined;
  const src = sourceOf(first.tree).text;
  while (first && src.charCodeAt(first.startIndex) === 35) first = first.nextNamedSibling;
  return first ? docstringAt(first, src) : undefined;
}

/**
 * The docstring a body's first statement is, if it is one: a string statement (a quote, maybe after a
 * prefix, told from the source) that is a string literal and nothing more.
 */
function docstringAt(first: Node, src: string): string | undefined {
  const start = first.startIndex;
  if (!stringAt(src, start)) return undefined;
  // A plain literal that is the whole statement (its end is the statement's): its value read from the
  // source, with no node made for it.
  const end = simpleStringEnd(src, start);
  if (end !== -1 && end === first.endIndex) {
    if (ty(first) !== 'expression_statement') return undefined;
    const v = evalStringLiteral(src.slice(start, end));
    return v && !v.bytes ? v.value : undefined;
  }
  const expr = first.firstNamedChild;
  if (!expr) return undefined;
  const v = toValue(expr);
  return v.kind === 'str' && ty(first) === 'expression_statement' ? v.value : undefined;
}

/**
 * Where the string literal at `at` ends (after its closing quote), or -1 for an f-string (its fields may
 * hold quotes) or one that does not close on its line (a single-quoted one).
 */
function simpleStringEnd(src: string, at: number): number {
  let i = at;
  for (let c = src.charCodeAt(i); c !== 34 && c !== 39; c = src.charCodeAt(++i)) if (c === 102 || c === 70 || i - at >= 2) return -1;
  const quote = src.charCodeAt(i);
  const triple = src.charCodeAt(i + 1) === quote && src.charCodeAt(i + 2) === quote;
  i += triple ? 3 : 1;
  for (; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c === 92) i++;
    else if (c === quote) {
      if (!triple) return i + 1;
      if (src.charCodeAt(i + 1) === quote && src.charCodeAt(i + 2) === quote) return i + 3;
    } else if (!triple && (c === 10 || c === 13)) return -1;
  }
  return -1;
}

/**
 * A definition's header parts in one WASM read: `def name[T](params) -> ret: body` and
 * `class Name[T](bases): body` list their parts in this order; the optional ones are told apart by
 * their first character (`[` type parameters, `(` parameters or bases).
 */
function headerParts(def: Node): { name?: Node; args?: Node; returns?: Node; body?: Node } {
  const parts = kids(def);
  const src = sourceOf(def.tree).text;
  const name = parts[0];
  const body = parts.length > 1 ? parts[parts.length - 1] : undefined;
  if (name) setType(name, 'identifier');
  let i = 1;
  if (i < parts.length - 1 && src[parts[i].startIndex] === '[') i++;
  const args = i < parts.length - 1 && src[parts[i].startIndex] === '(' ? parts[i++] : undefined;
  const returns = i < parts.length - 1 ? parts[i] : undefined;
  return { name, args, returns, body };
}


export function readFunction(outer: Node, def: Node): FunctionDecl {
  const { name: nameNode, args: paramsNode, returns: returnsNode, body } = headerParts(def);
  const params = paramsNode ? paramsOf(spanOf(paramsNode)) : undefined;
  const span = spanOf(def);
  const inner = bodyOf(span);
  const calls = callsOf(span);
  const fn = new FunctionRead(span, inner, calls, params);
  fn.name = textOf(nameNode) ?? '';
  fn.range = rangeOf(outer);
  fn.nameRange = nameNode ? rangeOf(nameNode) : rangeOf(def);
  fn.returns = textOf(returnsNode);
  fn.returnsRange = returnsNode ? rangeOf(returnsNode) : undefined;
  fn.decorators = readDecorators(outer);
  fn.docstring = docstringOf(body ?? null);
  fn.bodyStart = body ? { line: body.startPosition.row, character: body.startPosition.column } : undefined;
  fn.isAsync = sourceOf(def.tree).text.startsWith('async', def.startIndex);
  return fn;
}

/** Where a model object keeps its parts read later (a symbol: no string-keyed walk over the model sees them). */
const PARTS = Symbol('parts');

interface FunctionParts {
  span: { range: Range; text: string };
  inner: Later<FunctionBody>;
  calls: Later<Call[]>;
  params: Later<Param[]> | undefined;
}

/**
 * A function as the model has it: a class, so every function has one shape and its parts read later are
 * getters of the class (an object literal with getters is a property dictionary in V8, and defining
 * getters on each object costs a runtime call apiece). The getters are not own properties: the walks over
 * model values that must reach the parts (moving a fragment, shifting a part read later) go through `lazyParts`.
 */
class FunctionRead implements FunctionDecl {
  readonly [PARTS]: FunctionParts;
  readonly text: string;
  name = '';
  range!: Range;
  nameRange!: Range;
  returns: string | undefined = undefined;
  returnsRange: Range | undefined = undefined;
  decorators!: Decorator[];
  docstring: string | undefined = undefined;
  bodyStart: Pos | undefined = undefined;
  isAsync = false;

  constructor(span: { range: Range; text: string }, inner: Later<FunctionBody>, calls: Later<Call[]>, params: Later<Param[]> | undefined) {
    this[PARTS] = { span, inner, calls, params };
    this.text = span.text;
  }

  get body(): FunctionBody {
    return this[PARTS].inner.get();
  }

  get calls(): Call[] {
    return this[PARTS].calls.get();
  }

  get source(): string {
    return this[PARTS].span.text;
  }

  get params(): Param[] {
    return this[PARTS].params?.get() ?? [];
  }

  /** Its parts read later (see lazyParts). */
  lazyParts(): LazyPart[] {
    const { params, inner, calls } = this[PARTS];
    return params ? [params, inner, calls] : [inner, calls];
  }
}

/** A function body, read when first asked for from a tree of its own. */
function bodyOf(span: { range: Range; text: string }): Later<FunctionBody> {
  return readLater(span, '', '', (root) => {
    const out: FunctionBody = { functions: [], returns: [], others: 0, flow: emptyFlow() };
    const flow = new FlowReader(out.flow);
    let def = root.firstNamedChild;
    while (def && ty(def) === 'decorated_definition') def = def.childForFieldName('definition');
    const block = def && ty(def) === 'function_definition' ? headerParts(def).body : undefined;
    const src = block ? sourceOf(block.tree).text : '';
    let first = true;
    for (const stmt of block ? kids(block) : []) {
      const type = ty(stmt);
      const inner = type === 'decorated_definition' ? stmt.childForFieldName('definition') : stmt;
      if (inner && ty(inner) === 'function_definition') {
        const fn = readFunction(stmt, inner);
        out.functions.push(fn);
        flow.definition(fn);
        first = false;
        continue;
      }
      if (type === 'return_statement') {
        const value = stmt.firstNamedChild;
        out.returns.push(value ? toValue(value) : { kind: 'none', range: rangeOf(stmt), text: 'None' });
      } else if (type !== 'pass_statement' && !(first && type === 'expression_statement' && stringAt(src, stmt.startIndex))) out.others++;
      flow.statement(stmt);
      first = false;
    }
    flow.done();
    return out;
  });
}

function emptyFlow(): BodyFlow {
  return { calls: [], returns: [], yields: false, awaits: false, stores: [], subscripts: [], withs: [], locals: new Set(), imports: [], functions: [], lambdas: [], truncated: false };
}

/** How many nodes one body's flow reads at most (a generated function of thousands of lines stops there). */
const MAX_FLOW_NODES = 20_000;

/** Reads what a body does (BodyFlow) from its statements, at any depth. */
class FlowReader {
  private visited = 0;
  private depth = 0;
  private globals = new Set<string>();

  constructor(private readonly out: BodyFlow) {}

  private spent(): boolean {
    if (++this.visited <= MAX_FLOW_NODES && valueDepth < MAX_VALUE_DEPTH) return false;
    this.out.truncated = true;
    return true;
  }

  /** A nested function already read: its name is local, its decorators run with the body. */
  definition(fn: FunctionDecl): void {
    this.out.functions.push(fn);
    this.out.locals.add(fn.name);
    for (const d of fn.decorators) if (d.call) collectCallsInCall(d.call, this.out.calls);
  }

  done(): void {
    for (const g of this.globals) this.out.locals.delete(g);
  }

  statements(block: Node): void {
    for (const s of kids(block)) this.statement(s);
  }

  statement(s: Node): void {
    if (this.spent()) return;
    const type = ty(s);
    switch (type) {
      case 'decorated_definition':
      case 'function_definition':
      case 'class_definition': {
        const def = type === 'decorated_definition' ? s.childForFieldName('definition') : s;
        if (def && ty(def) === 'function_definition') this.definition(readFunction(s, def));
        else if (def) {
          // A class body runs with the function, but what it binds is the class's.
          const name = def.childForFieldName('name');
          if (name) this.out.locals.add(textOf(name));
        }
        return;
      }
      case 'return_statement': {
        const value = s.firstNamedChild;
        this.out.returns.push(value ? toValue(value) : { kind: 'none', range: rangeOf(s), text: 'None' });
        if (value) this.expr(value);
        return;
      }
      case 'import_statement':
      case 'import_from_statement': {
        const f = emptyFragment(0);
        readImport(s, f, true);
        for (const i of f.imports) this.out.imports.push(i), this.out.locals.add(i.local);
        return;
      }
      case 'global_statement':
      case 'nonlocal_statement':
        for (const id of kids(s)) this.globals.add(textOf(id));
        return;
      case 'expression_statement':
        for (const e of kids(s)) this.expressionStatement(e);
        return;
      case 'with_statement':
        for (const c of kids(s)) {
          if (ty(c) === 'block') this.statements(c);
          else for (const item of kids(c)) this.withItem(item);
        }
        return;
      case 'for_statement': {
        const left = s.childForFieldName('left');
        const right = s.childForFieldName('right');
        if (left) this.bind(left);
        if (right) this.expr(right);
        for (const c of kids(s)) if (ty(c) === 'block' || ty(c) === 'else_clause') this.statement(c);
        return;
      }
      case 'block':
        this.statements(s);
        return;
      case 'except_clause':
      case 'except_group_clause':
        for (const c of kids(s)) {
          if (ty(c) === 'block') this.statements(c);
          else if (ty(c) === 'as_pattern') this.asPattern(c);
          else this.expr(c);
        }
        return;
      default:
        for (const c of kids(s)) {
          const t = ty(c);
          if (t === 'block' || t.endsWith('_clause')) this.statement(c);
          else this.expr(c);
        }
    }
  }

  private withItem(item: Node): void {
    const value = item.childForFieldName('value') ?? item.firstNamedChild;
    if (!value) return;
    if (ty(value) === 'as_pattern') {
      const [expr, alias] = kids(value);
      if (!expr) return;
      const target = alias?.firstNamedChild;
      this.out.withs.push({ value: toValue(expr), ...(target && ty(target) === 'identifier' ? { name: textOf(target) } : {}) });
      this.expr(expr);
      if (alias) this.bind(alias);
      return;
    }
    this.out.withs.push({ value: toValue(value) });
    this.expr(value);
  }

  private asPattern(n: Node): void {
    const [expr, alias] = kids(n);
    if (expr) this.expr(expr);
    if (alias) this.bind(alias);
  }

  private expressionStatement(e: Node): void {
    const type = ty(e);
    if (type === 'assignment') {
      // a = b[k] = value: every target is bound to the innermost value.
      const targets: Node[] = [];
      let node: Node | null = e;
      while (node && ty(node) === 'assignment') {
        const parts = assignmentParts(node);
        if (parts.left) targets.push(parts.left);
        if (parts.type) this.expr(parts.type);
        node = parts.right ?? null;
      }
      const value = node ? toValue(node) : undefined;
      for (const t of targets) this.target(t, value, rangeOf(e));
      if (node) this.expr(node);
      return;
    }
    if (type === 'augmented_assignment') {
      const left = e.childForFieldName('left');
      const right = e.childForFieldName('right');
      if (left) {
        if (ty(left) === 'identifier') this.out.locals.add(textOf(left));
        else this.expr(left);
      }
      if (right) this.expr(right);
      return;
    }
    this.expr(e);
  }

  /** An assignment target: names are bound, `X[k] = v` is a store, an attribute's object is read. */
  private target(t: Node, value: Value | undefined, range: Range): void {
    const type = ty(t);
    if (type === 'subscript') {
      const object = t.childForFieldName('value');
      const key = t.childForFieldName('subscript');
      if (object && key && value) this.out.stores.push({ object: toValue(object), key: toValue(key), value, range });
      if (object) this.expr(object);
      if (key) this.expr(key);
      return;
    }
    if (type === 'attribute') {
      const object = t.childForFieldName('object');
      if (object) this.expr(object);
      return;
    }
    this.bind(t);
  }

  /** Every name a target pattern binds. */
  private bind(t: Node): void {
    const type = ty(t);
    if (type === 'identifier') this.out.locals.add(textOf(t));
    else if (type === 'subscript' || type === 'attribute') this.expr(t);
    else for (const c of kids(t)) this.bind(c);
  }

  expr(n: Node): void {
    if (this.spent() || this.depth >= MAX_VALUE_DEPTH) return;
    this.depth++;
    try {
      this.visit(n);
    } finally {
      this.depth--;
    }
  }

  private visit(n: Node): void {
    const type = ty(n);
    switch (type) {
      case 'identifier':
      case 'integer':
      case 'float':
      case 'true':
      case 'false':
      case 'none':
      case 'string_content':
      case 'escape_sequence':
        return;
      case 'call': {
        const v = toValue(n);
        if (v.kind === 'call') this.out.calls.push(v.call);
        break;
      }
      case 'lambda': {
        const v = toValue(n);
        if (v.kind === 'lambda') this.out.lambdas.push(v);
        return;
      }
      case 'subscript': {
        const object = n.childForFieldName('value');
        const key = n.childForFieldName('subscript');
        if (object && key) this.out.subscripts.push({ object: toValue(object), key: toValue(key), range: rangeOf(n) });
        break;
      }
      case 'yield':
        this.out.yields = true;
        break;
      case 'await':
        this.out.awaits = true;
        break;
      case 'named_expression': {
        const name = n.childForFieldName('name');
        if (name) this.out.locals.add(textOf(name));
        break;
      }
      case 'for_in_clause': {
        const left = n.childForFieldName('left');
        if (left) this.bind(left);
        break;
      }
      default:
        break;
    }
    for (const c of kids(n)) this.expr(c);
  }
}

/**
 * Every call a function body makes, at any depth (nested `def`s, classes and lambdas aside: they run
 * when called), read when first asked for from a tree of its own. Calls nested in a call's arguments are
 * the objects of that call's argument values, as at module level. A name the function binds itself (a
 * parameter, an assignment, a loop or `with` target, an import, a nested `def`) is its local, not the
 * module's: it reads as unknown, and a call through one is left out.
 */
function callsOf(span: { range: Range; text: string }): Later<Call[]> {
  return readLater(span, '', '', (root) => {
    const out: Call[] = [];
    let def = root.firstNamedChild;
    while (def && ty(def) === 'decorated_definition') def = def.childForFieldName('definition');
    if (!def || ty(def) !== 'function_definition') return out;
    const { args, body: block } = headerParts(def);
    const locals = new Set<string>();
    for (const p of readParams(args ?? null)) locals.add(p.name);
    const covered = new Set<string>();
    const key = (r: Range) => `${r.start.line}:${r.start.character}:${r.end.line}:${r.end.character}`;
    const walk = (n: Node, depth: number): void => {
      if (depth > MAX_VALUE_DEPTH) return;
      for (const c of kids(n)) {
        const type = ty(c);
        if (type === 'function_definition' || type === 'class_definition') {
          const name = c.childForFieldName('name');
          if (name) locals.add(textOf(name));
          continue;
        }
        if (type === 'decorated_definition' || type === 'lambda') continue;
        bindsLocals(c, type, locals);
        if (type === 'call' && !covered.has(key(rangeOf(c)))) {
          const v = toValue(c);
          const found: Call[] = [];
          collectCalls(v, found);
          for (const call of found) {
            covered.add(key(call.range));
            out.push(call);
          }
        }
        walk(c, depth + 1);
      }
    };
    if (block) walk(block, 0);
    for (const call of out) for (const a of call.args) a.value = localsUnknown(a.value, locals);
    // A call through a local (`view.write(...)`, a parameter named like a module) is not the module's.
    return out.filter((c) => !locals.has(c.callee.split('.')[0]));
  });
}

/** The names a statement or expression binds in the function it is in. */
function bindsLocals(n: Node, type: string, out: Set<string>): void {
  const targets = (t: Node | null): void => {
    if (!t) return;
    const tt = ty(t);
    if (tt === 'identifier') out.add(textOf(t));
    else if (tt === 'pattern_list' || tt === 'tuple_pattern' || tt === 'list_pattern' || tt === 'tuple' || tt === 'list' || tt === 'parenthesized_expression' || tt === 'list_splat_pattern' || tt === 'list_splat') {
      for (const c of kids(t)) targets(c);
    }
  };
  switch (type) {
    case 'assignment':
    case 'augmented_assignment':
    case 'for_statement':
    case 'for_in_clause':
      targets(n.childForFieldName('left'));
      return;
    case 'named_expression':
      targets(n.childForFieldName('name'));
      return;
    case 'as_pattern':
      for (const c of kids(n)) if (ty(c) === 'as_pattern_target') for (const t of kids(c)) targets(t);
      return;
    case 'aliased_import':
      targets(n.childForFieldName('alias'));
      return;
    case 'import_statement':
    case 'import_from_statement':
      for (const c of kids(n)) if (ty(c) === 'dotted_name' && c !== n.childForFieldName('module_name')) out.add(textOf(c).split('.')[0]);
      return;
    default:
      return;
  }
}

/** A value with the names the function binds itself read as unknown (deeply: lists, dicts, nested calls). */
function localsUnknown(v: Value, locals: ReadonlySet<string>): Value {
  switch (v.kind) {
    case 'name':
      return locals.has(v.name) ? { kind: 'unknown', range: v.range, text: v.text } : v;
    case 'attribute':
      return locals.has(v.path.split('.')[0]) ? { kind: 'unknown', range: v.range, text: v.text } : v;
    case 'list':
    case 'tuple':
    case 'set':
      return { ...v, items: v.items.map((i) => localsUnknown(i, locals)) };
    case 'dict':
      return { ...v, entries: v.entries.map((e) => ({ key: localsUnknown(e.key, locals), value: localsUnknown(e.value, locals) })) };
    case 'member':
      return { ...v, object: localsUnknown(v.object, locals) };
    case 'call':
      for (const a of v.call.args) a.value = localsUnknown(a.value, locals);
      return v;
    default:
      return v;
  }
}

/**
 * A function's parameters, read when first asked for. Diagnostics need only a few functions'
 * parameters (hover and previews need them one tool at a time), so the model keeps the parameter
 * list's text and position, and reads it from a tree of its own when asked: nothing is held from
 * the document's tree, which the next version frees.
 */
function paramsOf(span: { range: Range; text: string }): Later<Param[]> {
  return readLater(span, 'def _', ': pass', (root) => {
    const def = root.firstNamedChild;
    return readParams(def && ty(def) === 'function_definition' ? def.childForFieldName('parameters') : null);
  });
}

/**
 * Reads a piece of the document when first asked for: `prefix + text + suffix` is parsed on its own
 * and `read` turns it into model data, whose positions are then moved to where the text stands in
 * the document. Only the text and its position are kept, never a node of the document's tree.
 */
function readLater<T>(span: { range: Range; text: string }, prefix: string, suffix: string, read: (root: Node) => T): Later<T> {
  return new Later(span, prefix, suffix, read);
}

/** A part read when first asked for (`get`). */
class Later<T> implements LazyPart {
  private value: T | undefined = undefined;
  private done = false;

  constructor(
    readonly span: { range: Range; text: string },
    private readonly prefix: string,
    private readonly suffix: string,
    private readonly read: (root: Node) => T,
  ) {}

  peek(): T | undefined {
    return this.done ? this.value : undefined;
  }

  get(): T {
    if (this.done) return this.value as T;
    const { span, prefix } = this;
    const tree = parseSnippet(`${prefix}${span.text}${this.suffix}\n`);
    if (!tree) throw new Error('tree-sitter returned no tree');
    try {
      const value = this.read(tree.rootNode);
      // Its positions, those of the functions read with it and of their parts read later (found as a
      // fragment's are for moving it), go to where the text stands in the document.
      const at = span.range.start;
      if (value !== null && typeof value === 'object') {
        const moves: FragmentMoves = { positions: [], lazy: [] };
        collectPositions(value, moves);
        for (const p of moves.positions) {
          if (p.line === 0) p.character += at.character - prefix.length;
          p.line += at.line;
        }
      }
      this.value = value;
      this.done = true;
      return value;
    } finally {
      tree.delete();
    }
  }
}

function readParams(params: Node | null): Param[] {
  if (!params) return [];
  const out: Param[] = [];
  let keywordOnly = false;
  for (const p of params.namedChildren) {
    if (!p || ty(p) === 'comment') continue;
    if (ty(p) === 'positional_separator') {
      for (const q of out) if (q.kind === 'positional_or_keyword') q.kind = 'positional_only';
      continue;
    }
    if (ty(p) === 'keyword_separator') {
      keywordOnly = true;
      continue;
    }
    let nameNode: Node | null = p;
    let type: Node | null = null;
    let value: Node | null = null;
    let star: '' | '*' | '**' = '';
    // The grammar fixes the order: name, type / name, value / name, type, value.
    if (ty(p) === 'typed_parameter') {
      [nameNode, type] = kids(p);
    } else if (ty(p) === 'default_parameter') {
      [nameNode, value] = kids(p);
    } else if (ty(p) === 'typed_default_parameter') {
      [nameNode, type, value] = kids(p);
      // The annotation ends where ` = default` begins.
      if (type && value) {
        const src = sourceOf(p.tree).text;
        let end = value.startIndex;
        while (end > type.startIndex && /\s/.test(src[end - 1])) end--;
        if (src[end - 1] === '=') end--;
        while (end > type.startIndex && /\s/.test(src[end - 1])) end--;
        knownEnd(type, end);
      }
    }
    nameNode ??= null;
    type ??= null;
    value ??= null;
    // `*args` and `**kwargs` start with their stars; any other parameter name is an identifier.
    const src = sourceOf(p.tree).text;
    if (nameNode && src[nameNode.startIndex] === '*') star = src[nameNode.startIndex + 1] === '*' ? '**' : '*';
    const nameId = star ? nameNode?.namedChildren[0] : nameNode;
    if (nameId) setType(nameId, 'identifier');
    const name = textOf(nameId) ?? '';
    const kind = star === '*' ? 'var_positional' : star === '**' ? 'var_keyword' : keywordOnly ? 'keyword_only' : 'positional_or_keyword';
    if (star === '*') keywordOnly = true;
    const defaultValue = value ? toValue(value) : undefined;
    out.push({
      name,
      kind,
      annotation: textOf(type),
      annotationRange: type ? rangeOf(type) : undefined,
      default: defaultValue?.text,
      defaultValue,
    });
  }
  return out;
}

export function readClass(outer: Node, def: Node): ClassDecl {
  const { name: nameNode, args: supers, body } = headerParts(def);
  // Class-body assignments (dataclass fields, class attributes) are read when first asked for, from a
  // parse of the class's own text (nothing of the document's tree is kept).
  const cls = new ClassRead();
  const parts = cls[PARTS];
  cls.name = textOf(nameNode) ?? '';
  cls.range = rangeOf(outer);
  cls.nameRange = nameNode ? rangeOf(nameNode) : rangeOf(def);
  cls.decorators = readDecorators(outer);
  // The body's statements are read below: its docstring is the first of them that is no comment.
  const stmts = body?.namedChildren ?? [];
  const src = sourceOf(def.tree).text;
  const first = stmts.find((s) => !!s && src.charCodeAt(s.startIndex) !== 35);
  cls.docstring = first ? docstringAt(first, src) : undefined;
  if (supers) for (const b of supers.namedChildren) if (b && ty(b) !== 'keyword_argument' && ty(b) !== 'comment') cls.bases.push(textOf(b));
  for (const stmt of stmts) {
    if (!stmt) continue;
    const inner = ty(stmt) === 'decorated_definition' ? definitionOf(stmt) : stmt;
    if (inner && ty(inner) === 'function_definition') {
      const fn = readFunction(stmt, inner);
      cls.methods.push(fn);
      if (fn.name === '__init__') cls.selfAssignments = readSelfAssignments(inner);
    } else if (inner && ty(inner) === 'class_definition') {
      cls.classes.push(readClass(stmt, inner));
    } else if (ty(stmt) === 'expression_statement') {
      parts.assignments ??= readLater(spanOf(def), '', '', readClassAssignments);
    }
  }
  return cls;
}

interface ClassParts {
  assignments: Later<ClassAssignments> | undefined;
  assigned: ClassAssignments | undefined;
}

/** A class as the model has it (a class of one shape, as FunctionRead): its fields and attributes read when first asked for. */
class ClassRead implements ClassDecl {
  readonly [PARTS]: ClassParts = { assignments: undefined, assigned: undefined };
  name = '';
  range!: Range;
  nameRange!: Range;
  bases: string[] = [];
  decorators!: Decorator[];
  docstring: string | undefined = undefined;
  methods: FunctionDecl[] = [];
  classes: ClassDecl[] = [];
  selfAssignments: ClassDecl['selfAssignments'] = [];

  /** Its part read later, when it has one (see lazyParts). */
  lazyParts(): LazyPart[] {
    const { assignments } = this[PARTS];
    return assignments ? [assignments] : [];
  }

  private assigned(): ClassAssignments {
    const parts = this[PARTS];
    return (parts.assigned ??= parts.assignments?.get() ?? { fields: [], attributes: [] });
  }

  get fields(): FieldDecl[] {
    return this.assigned().fields;
  }

  get attributes(): ClassDecl['attributes'] {
    return this.assigned().attributes;
  }
}

/** The assignments of a class's body, in a parse of the class's text alone (its statements in order). */
function readClassAssignments(root: Node): ClassAssignments {
  const out: ClassAssignments = { fields: [], attributes: [] };
  const def = root.firstNamedChild;
  const body = def && ty(def) === 'class_definition' ? headerParts(def).body : undefined;
  for (const stmt of body?.namedChildren ?? []) {
    if (!stmt || ty(stmt) !== 'expression_statement') continue;
    const one = readClassAssignment(stmt.firstNamedChild);
    out.fields.push(...one.fields);
    out.attributes.push(...one.attributes);
  }
  return out;
}

interface ClassAssignments {
  fields: FieldDecl[];
  attributes: ClassDecl['attributes'];
}

/** One class-body statement: `x: int = 1` is a field, `X = 1` an attribute, anything else neither. */
function readClassAssignment(a: Node | null): ClassAssignments {
  const out: ClassAssignments = { fields: [], attributes: [] };
  if (!a || ty(a) !== 'assignment') return out;
  const { left, type, right } = assignmentParts(a);
  if (!left || ty(left) !== 'identifier') return out;
  if (type) {
    const defaultValue = right ? toValue(right) : undefined;
    const field: FieldDecl = { name: textOf(left), annotation: textOf(type), annotationRange: rangeOf(type), range: join(rangeOf(left), defaultValue?.range ?? rangeOf(type)) };
    if (defaultValue) {
      field.default = defaultValue.text;
      field.defaultValue = defaultValue;
    }
    out.fields.push(field);
  } else if (right) {
    const value = toValue(right);
    out.attributes.push({ name: textOf(left), value, range: join(rangeOf(left), value.range) });
  }
  return out;
}

function readSelfAssignments(init: Node): ClassDecl['selfAssignments'] {
  const out: ClassDecl['selfAssignments'] = [];
  for (const stmt of init.childForFieldName('body')?.namedChildren ?? []) {
    const a = stmt && ty(stmt) === 'expression_statement' ? stmt.namedChildren[0] : null;
    if (!a || ty(a) !== 'assignment') continue;
    const left = a.childForFieldName('left');
    const right = a.childForFieldName('right');
    if (left && ty(left) === 'attribute' && textOf(left.childForFieldName('object')) === 'self' && right) {
      out.push({ name: textOf(left.childForFieldName('attribute')) ?? '', value: toValue(right), range: rangeOf(a) });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Expressions → values

/** While a builder reads: the calls its last build read (by position and length, with their text), and those of this build. */
let calls: { last: Map<string, { text: string; call: Call }>; next: Map<string, { text: string; call: Call }> } | undefined;

/**
 * How deep toValue may recurse. Brackets nest at most 200 deep in a file Python compiles (and files
 * over that are not parsed), but a chain of unary operators (`- - - … 1`) has no such bound: past
 * this depth a value is unknown rather than a stack overflow.
 */
const MAX_VALUE_DEPTH = 400;
let valueDepth = 0;

/**
 * How many nodes one expression's value may read: a literal past this (a pasted data table of megabytes)
 * is unknown as a whole, so that reading it takes at most tens of milliseconds. 5,000 `vis.Symbol(fn)`
 * entries in one `symbols=` list read about 40,000.
 */
const MAX_VALUE_NODES = 50_000;
let valueNodes = 0;

class ValueTooLarge extends Error {}

export function toValue(n: Node): Value {
  if (valueDepth >= MAX_VALUE_DEPTH) {
    const { range, text } = spanOf(n);
    return { kind: 'unknown', range, text };
  }
  const outermost = valueDepth === 0;
  if (outermost) valueNodes = 0;
  else if (++valueNodes > MAX_VALUE_NODES) throw new ValueTooLarge();
  valueDepth++;
  try {
    return readValue(n);
  } catch (e) {
    if (!(outermost && e instanceof ValueTooLarge)) throw e;
    const { range, text } = spanOf(n);
    return { kind: 'unknown', range, text };
  } finally {
    valueDepth--;
  }
}

function readValue(n: Node): Value {
  const type = ty(n); // first, so a leaf's span is read from the source
  const { range, text } = spanOf(n);
  switch (type) {
    case 'string':
    case 'concatenated_string': {
      const parts = ty(n) === 'string' ? [n] : n.namedChildren.filter((c): c is Node => !!c && ty(c) === 'string');
      let value = '';
      let bytes = false;
      for (const p of parts) {
        const v = evalStringLiteral(textOf(p));
        if (!v) return { kind: 'unknown', range, text };
        value += v.value;
        bytes ||= v.bytes;
      }
      return bytes ? { kind: 'bytes', value, range, text } : { kind: 'str', value, range, text };
    }
    case 'integer':
    case 'float': {
      const v = evalNumber(text);
      return v ? { kind: v.kind, value: v.value, range, text } : { kind: 'unknown', range, text };
    }
    case 'true':
    case 'false':
      return { kind: 'bool', value: ty(n) === 'true', range, text };
    case 'none':
      return { kind: 'none', range, text };
    case 'ellipsis':
      return { kind: 'ellipsis', range, text };
    case 'unary_operator': {
      const arg = n.childForFieldName('argument');
      const op = textOf(n.childForFieldName('operator')) ?? text[0];
      const v = arg ? toValue(arg) : undefined;
      if (v && (v.kind === 'int' || v.kind === 'float' || v.kind === 'complex') && (op === '-' || op === '+')) {
        return { kind: v.kind, value: op === '-' ? -v.value : v.value, range, text };
      }
      return { kind: 'unknown', range, text };
    }
    case 'parenthesized_expression': {
      const inner = n.namedChildren.find((c) => !!c && ty(c) !== 'comment');
      return inner ? { ...toValue(inner), range, text } : { kind: 'unknown', range, text };
    }
    case 'list':
    case 'tuple':
    case 'set':
    case 'expression_list':
      return {
        kind: ty(n) === 'expression_list' ? 'tuple' : (ty(n) as 'list' | 'tuple' | 'set'),
        items: n.namedChildren.filter((c): c is Node => !!c && ty(c) !== 'comment').map(toValue),
        range,
        text,
      };
    case 'dictionary': {
      const entries: { key: Value; value: Value }[] = [];
      for (const c of n.namedChildren) {
        if (!c || ty(c) === 'comment') continue;
        if (ty(c) !== 'pair') return { kind: 'unknown', range, text };
        const k = c.childForFieldName('key');
        const v = c.childForFieldName('value');
        if (!k || !v) return { kind: 'unknown', range, text };
        entries.push({ key: toValue(k), value: toValue(v) });
      }
      return { kind: 'dict', entries, range, text };
    }
    case 'list_comprehension':
      return { kind: 'comprehension', of: 'list', range, text };
    case 'set_comprehension':
      return { kind: 'comprehension', of: 'set', range, text };
    case 'dictionary_comprehension':
      return { kind: 'comprehension', of: 'dict', range, text };
    case 'generator_expression':
      return { kind: 'comprehension', of: 'generator', range, text };
    case 'lambda': {
      const paramsNode = n.childForFieldName('parameters');
      const bodyNode = n.childForFieldName('body');
      const flow = emptyFlow();
      if (bodyNode) new FlowReader(flow).expr(bodyNode);
      // Calls in lambdas nested in this one run when this one runs too.
      const calls = [...flow.calls, ...flow.lambdas.flatMap((l) => l.calls)];
      return { kind: 'lambda', params: paramsNode ? readParams(paramsNode) : [], body: bodyNode ? toValue(bodyNode) : undefined, calls, range, text };
    }
    case 'identifier':
      return { kind: 'name', name: text, range, text };
    case 'attribute': {
      if (DOTTED.test(text)) return { kind: 'attribute', path: noSpace(text), range, text };
      // `Tools().describe`: an attribute of a call's result.
      const object = n.childForFieldName('object');
      const attr = n.childForFieldName('attribute');
      if (!object || !attr || ty(object) !== 'call') return { kind: 'unknown', range, text };
      setType(attr, 'identifier');
      return { kind: 'member', object: toValue(object), attr: textOf(attr), range, text };
    }
    case 'call': {
      // The same call at the same place in the statement's last version: the same object, so what was
      // computed about it (its Symbol's analysis, rule findings) is reused.
      const key = calls && `${range.start.line}:${range.start.character}:${text.length}`;
      const last = key !== undefined ? calls!.last.get(key) : undefined;
      // (A call moved since keeps its object, at its new place: the same only where it still is.)
      if (last && last.text === text && last.call.range.start.line === range.start.line && last.call.range.start.character === range.start.character) {
        calls!.next.set(key!, last);
        return { kind: 'call', call: last.call, range: last.call.range, text };
      }
      const [fn, argsNode] = kids(n);
      if (!fn || !argsNode) return { kind: 'unknown', range, text };
      // The callee ends where its argument list begins (trailing space aside).
      const src = sourceOf(n.tree).text;
      let calleeEnd = argsNode.startIndex;
      while (calleeEnd > fn.startIndex && /\s/.test(src[calleeEnd - 1])) calleeEnd--;
      knownEnd(fn, calleeEnd);
      const calleeText = textOf(fn);
      const dotted = DOTTED.test(calleeText);
      // `vis.method(tag="mutation")(Tools.save)`: a call of what a call returned.
      const inner = !dotted && ty(fn) === 'call' ? toValue(fn) : undefined;
      // `Path("x").read_text()`: a method of what a call returned.
      const receiver = !dotted && ty(fn) === 'attribute' ? receiverOf(fn) : undefined;
      if (!dotted && inner?.kind !== 'call' && !receiver) return { kind: 'unknown', range, text };
      if (facts(argsNode).range === undefined) setSpan(argsNode, { start: { line: argsNode.startPosition.row, character: argsNode.startPosition.column }, end: range.end }, src.slice(argsNode.startIndex, n.startIndex + text.length));
      // Property by property in one order (no spread of optional parts): the calls share their shapes.
      const call = { callee: inner ? calleeText : noSpace(calleeText) } as Call;
      if (inner?.kind === 'call') call.inner = inner.call;
      if (receiver) call.receiver = receiver;
      call.args = ty(argsNode) === 'argument_list' ? readArgs(argsNode) : [{ value: toValue(argsNode), range: rangeOf(argsNode) }];
      call.range = range;
      call.calleeRange = rangeOf(fn);
      call.argsRange = rangeOf(argsNode);
      if (key !== undefined) calls!.next.set(key, { text, call });
      return { kind: 'call', call, range, text };
    }
    default:
      return { kind: 'unknown', range, text };
  }
}

/** The call whose result's attribute an attribute node is (`Path("x")` of `Path("x").read_text`). */
function receiverOf(attribute: Node): Call | undefined {
  const object = attribute.childForFieldName('object');
  if (!object || ty(object) !== 'call') return undefined;
  const v = toValue(object);
  return v.kind === 'call' ? v.call : undefined;
}

/** A dotted name without the spaces it may be written with (`a . b`). */
function noSpace(s: string): string {
  return /\s/.test(s) ? s.replace(/\s+/g, '') : s;
}

/** `a`, `a.b`, `a.b.c`: a name a call can be resolved through (read from the source text). */
const DOTTED = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*(?:\s*\.\s*[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*)*$/u;

function readArgs(list: Node): Argument[] {
  // A list of the arguments' own size (a call's arguments are kept with the model; one grown by push keeps room for 16).
  let items = list.namedChildren;
  for (const a of items) {
    if (!a || ty(a) === 'comment') {
      items = items.filter((c) => !!c && ty(c) !== 'comment');
      break;
    }
  }
  return items.map((a) => readArg(a!));
}

function readArg(a: Node): Argument {
  if (ty(a) === 'keyword_argument') {
    const [name, value] = kids(a);
    if (name) setType(name, 'identifier');
    const v: Value = value ? toValue(value) : { kind: 'unknown', range: rangeOf(a), text: textOf(a) };
    return {
      name: textOf(name),
      value: v,
      range: name ? join(rangeOf(name), v.range) : rangeOf(a),
      nameRange: name ? rangeOf(name) : undefined,
    };
  }
  if (ty(a) === 'list_splat' || ty(a) === 'dictionary_splat') {
    return { splat: ty(a) === 'list_splat' ? '*' : '**', value: { kind: 'unknown', range: rangeOf(a), text: textOf(a) }, range: rangeOf(a) };
  }
  return { value: toValue(a), range: rangeOf(a) };
}

function collectCalls(v: Value, out: Call[]): void {
  switch (v.kind) {
    case 'call':
      collectCallsInCall(v.call, out);
      return;
    case 'member':
      collectCalls(v.object, out);
      return;
    case 'list':
    case 'tuple':
    case 'set':
      for (const i of v.items) collectCalls(i, out);
      return;
    case 'dict':
      for (const e of v.entries) {
        collectCalls(e.key, out);
        collectCalls(e.value, out);
      }
      return;
    default:
      return;
  }
}

function collectCallsInCall(call: Call, out: Call[]): void {
  if (call.inner) collectCallsInCall(call.inner, out);
  if (call.receiver) collectCallsInCall(call.receiver, out);
  out.push(call);
  for (const a of call.args) collectCalls(a.value, out);
}

// ---------------------------------------------------------------------------------------------
// PEP 723

const SCRIPT_START = /^# \/\/\/ script[ \t]*$/m;

function readScriptBlock(text: string): Model['script'] {
  if (!text.includes('# /// script')) return undefined;
  const m = SCRIPT_START.exec(text);
  if (!m) return undefined;
  const startLine = text.slice(0, m.index).split('\n').length - 1;
  const lines = text.split('\n');
  const content: string[] = [];
  for (let i = startLine + 1; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    if (line === '# ///') {
      return { range: { start: { line: startLine, character: 0 }, end: { line: i, character: line.length } }, content: content.join('\n') };
    }
    if (line !== '#' && !line.startsWith('# ')) return undefined;
    content.push(line.slice(2));
  }
  return undefined;
}
