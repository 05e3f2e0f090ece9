// The top-level statements of a Python file, found from its text alone, before anything is parsed.
//
// Python's tokenizer starts a new statement at every line that begins at column 0 outside brackets,
// strings and backslash continuations (`else:`, `except:`, `finally:`, `elif` and a `def` after its
// decorators continue the statement before them). One pass over the character codes finds those lines,
// and each stretch between two of them (a *segment*) is parsed on its own (server/src/parse/parser.ts).
// So a syntax or indentation error stays inside its own segment: it never hides the statements around
// it, and an edit re-reads only the segment it touched.
//
// An unclosed bracket or string at the top level swallows the rest of the file for Python's tokenizer
// (and for tree-sitter). When the text ends inside one, the segment that opened it is cut where the next
// top-level statement seems to start (a line at column 0 that reads as `def`, `class`, `@`, `import`,
// an assignment or a call, after the unclosed bracket), parsed with its brackets closed, and segmenting
// resumes there. A triple-quoted string that runs past such a line is the same mistake (a stray or
// broken `"""`): when the text ends inside it, or the segment does not parse, the segment is cut there.
//
// The same pass checks Python's nesting limits (server/src/parse/limits.ts) for each segment: at a
// segment start the tokenizer's state is empty, so the file breaks a limit exactly when one of its
// segments does.
//
// `resegment` does the same for a new version from the previous one's segments: it lexes from the
// segment before the edit until it reaches, past the edit, a line where a segment of the old version
// started with the same empty state; everything after is the old segmentation, moved.
import type { Range } from '../model/types';

/** Python's limits: 200 nested brackets, 100 levels of indentation (CPython's MAXLEVEL, MAXINDENT). */
export const MAX_BRACKETS = 200;
export const MAX_INDENT_LEVELS = 100;

export interface LimitError {
  /** Python's exception and message, e.g. `IndentationError: too many levels of indentation`. */
  message: string;
  range: Range;
}

export interface Segment {
  /** Offset of its first character: the start of a line. */
  start: number;
  /** Offset after its last character: the next segment's start, or the end of the text. */
  end: number;
  /** The row of `start`. */
  row: number;
  /** Cut inside an unclosed bracket or string: parsed with its brackets (and string) closed. */
  broken: boolean;
  /** The first of Python's nesting limits broken inside it. */
  limit?: LimitError;
  /** The same text at the same columns in an earlier version, moved by `rows` rows (its model can be reused). */
  from?: { seg: Segment; rows: number };
}

/** Whether a segment's text does not parse (for segments a stray triple quote may have swallowed). */
export type BrokenCheck = (seg: Segment) => boolean;

/** One edit between two versions of a text: [start, oldEnd) in the old text became [start, newEnd) in the new. */
export interface TextEdit {
  start: number;
  oldEnd: number;
  newEnd: number;
  oldText: string;
}

const NL = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;
const FF = 12;
const HASH = 35;
const BACKSLASH = 92;
const SQ = 39;
const DQ = 34;
const LBRACE = 123;
const RBRACE = 125;
const AT = 64;

/** Lines that continue the statement before them when they start at column 0. */
const CLAUSE = /(?:else|elif|except|finally)\b/y;
/** Lines that continue a statement of decorators. */
const DECORATED = /(?:@|def\b|class\b|async[ \t]+def\b)/y;
/** A line that reads as the start of a top-level statement, where segmenting resumes after a broken one. */
const STATEMENT_START =
  /(?:async[ \t]+def\b|def\b|class\b|@|import\b|from\b|if\b|for\b|while\b|with\b|try\b|[A-Za-z_][\w.]*[ \t]*(?::[^=\n]*)?=[^=]|[A-Za-z_][\w.]*[ \t]*\()/y;

/** ASCII characters that never change the tokenizer's state in code (all but newlines, `#`, `\\`, quotes and brackets). */
const PLAIN_CODE = new Uint8Array(128).fill(1);
for (const ch of '\n#\\\'"()[]{}') PLAIN_CODE[ch.charCodeAt(0)] = 0;

function isPrefixLetter(c: number): boolean {
  // r R b B u U f F t T
  return c === 114 || c === 82 || c === 98 || c === 66 || c === 117 || c === 85 || c === 102 || c === 70 || c === 116 || c === 84;
}

function isNameChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c > 127;
}

function matchesAt(re: RegExp, text: string, at: number): boolean {
  re.lastIndex = at;
  return re.test(text);
}

/** Where each line of a text starts (offsets). */
export type LineStarts = Int32Array;

/** Where each line of a text starts; from the old version's when given (only the edited lines are scanned). */
export function lineStartsOf(text: string, old?: LineStarts, edit?: TextEdit): LineStarts {
  if (!old || !edit) {
    let n = 1;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
    const out = new Int32Array(n);
    let k = 1;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) out[k++] = i + 1;
    return out;
  }
  // Lines starting at or before the edit stay; those after its old end move by the edit's length.
  const keep = rowOf(old, edit.start) + 1;
  const after = firstLineAfter(old, edit.oldEnd);
  const added: number[] = [];
  for (let i = text.indexOf('\n', edit.start); i !== -1 && i < edit.newEnd; i = text.indexOf('\n', i + 1)) added.push(i + 1);
  const out = new Int32Array(keep + added.length + (old.length - after));
  out.set(old.subarray(0, keep));
  out.set(added, keep);
  const delta = edit.newEnd - edit.oldEnd;
  for (let i = after, k = keep + added.length; i < old.length; i++, k++) out[k] = old[i] + delta;
  return out;
}

/** The first line starting after `offset`. */
function firstLineAfter(lineStarts: LineStarts, offset: number): number {
  let lo = 0;
  let hi = lineStarts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lineStarts[mid] <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The row of an offset (at `from` or below: a row known to start at or before it). */
export function rowOf(lineStarts: ArrayLike<number>, offset: number, from = 0): number {
  let lo = from;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

interface LexOptions {
  /** Called at each segment start found at or after the edit: true stops lexing there (the old segments continue). */
  stopAt?: (offset: number) => boolean;
  broken?: BrokenCheck;
  /** Asked at each segment start past the first: true pauses lexing there (`pausedAt`), to go on from it later. */
  pause?: () => boolean;
  /** Recoveries made by the parts lexed before (a text lexed in parts keeps one count). */
  resumes?: number;
}

interface LexResult {
  segments: Segment[];
  stoppedAt?: number;
  /** Where lexing paused (a segment start, with the tokenizer's state empty) and its row. */
  pausedAt?: [number, number];
  resumes: number;
}

/** The most segments a recovery may resume in one run (a file with more unclosed brackets ends in one broken segment). */
const MAX_RESUMES = 64;

/**
 * Lexes from `from` (the start of a line at which the tokenizer's state is empty) to the end of the text
 * or until `stopAt` accepts a segment start; returns the segments found and where it stopped.
 */
function lex(text: string, from: number, fromRow: number, opts: LexOptions): LexResult {
  const n = text.length;
  const out: Segment[] = [];
  let resumes = opts.resumes ?? 0;

  // The tokenizer's state.
  let i = from;
  let line = fromRow;
  let lineStart = from;
  let measured = -1;
  let depth = 0;
  /** Offsets of the open brackets, outermost first. */
  const brackets: number[] = [];
  let continued = false;
  // Replacement fields of f-strings we are inside: the bracket depth at which each `{` opened, and the
  // string (quote, triple, start) to return to at its `}`.
  const fields: { depth: number; quote: number; triple: boolean; start: number }[] = [];
  let quote = 0;
  let triple = false;
  let fstring = false;
  let stringStart = 0;
  let indents: number[] = [0];

  // The segment being read.
  let segStart = from;
  let segRow = fromRow;
  let segLimit: LimitError | undefined;
  /** The last line at column 0 of the segment started a decorator. */
  let decorators = false;
  /** Lines at column 0 inside brackets that read as statements (offset, row). */
  let resumeAt: [number, number][] = [];
  /** The first line at column 0 inside a triple-quoted string that reads as a statement. */
  let swallowed: [number, number] | undefined;

  /** Whether to pause at a segment start (never at the first: each part makes progress). */
  const pauseAt = (offset: number) => offset > from && !!opts.pause?.();

  const at = (offset: number) => ({ line, character: offset - lineStart });
  const limit = (message: string, start: number, end: number) => {
    segLimit ??= { message, range: { start: at(start), end: at(end) } };
  };

  const reset = (offset: number, row: number) => {
    i = offset;
    line = row;
    lineStart = offset;
    measured = -1;
    depth = 0;
    brackets.length = 0;
    continued = false;
    fields.length = 0;
    quote = 0;
    triple = false;
    fstring = false;
  };

  const startSegment = (offset: number, row: number) => {
    segStart = offset;
    segRow = row;
    segLimit = undefined;
    decorators = false;
    resumeAt = [];
    swallowed = undefined;
    indents = [0];
  };

  const closeSegment = (end: number, broken: boolean): void => {
    out.push({ start: segStart, end, row: segRow, broken, ...(segLimit ? { limit: segLimit } : {}) });
  };

  /** A segment that may have swallowed the statements after it (a stray `"""`): cut it when it does not parse. */
  const cutSwallowed = (): boolean => {
    if (!swallowed || !opts.broken || resumes >= MAX_RESUMES) return false;
    const seg = out[out.length - 1];
    if (!opts.broken(seg)) return false;
    const [offset, row] = swallowed;
    cut(seg, offset, row);
    resumes++;
    reset(offset, row);
    startSegment(offset, row);
    return true;
  };

  /** Ends a segment early at `offset` (row `row`), broken; a limit found past the cut is found again after it. */
  const cut = (seg: Segment, offset: number, row: number) => {
    seg.end = offset;
    seg.broken = true;
    if (seg.limit && seg.limit.range.start.line >= row) delete seg.limit;
  };

  for (;;) {
    if (i >= n) {
      const open = depth > 0 || (quote !== 0 && triple) || fields.length > 0;
      if (open && resumes < MAX_RESUMES) {
        // Inside an unclosed bracket or string: resume at the first line after it that reads as a statement.
        const openedAt = Math.min(brackets.length ? brackets[0] : Infinity, fields.length ? fields[0].start : Infinity, quote !== 0 ? stringStart : Infinity);
        const resume = resumeAt.find(([offset]) => offset > openedAt) ?? swallowed;
        if (resume && resume[0] > segStart) {
          const [offset, row] = resume;
          closeSegment(n, true);
          cut(out[out.length - 1], offset, row);
          resumes++;
          reset(offset, row);
          startSegment(offset, row);
          if (opts.stopAt?.(offset)) return { segments: out, stoppedAt: offset, resumes };
          if (pauseAt(offset)) return { segments: out, pausedAt: [offset, row], resumes };
          continue;
        }
      }
      closeSegment(n, open);
      if (!open && cutSwallowed()) {
        if (opts.stopAt?.(i)) return { segments: out, stoppedAt: i, resumes };
        if (pauseAt(i)) return { segments: out, pausedAt: [i, line], resumes };
        continue;
      }
      return { segments: out, resumes };
    }

    // At the start of a logical line (outside strings and brackets): a new statement when it starts at
    // column 0, and its indentation for the nesting limit.
    if (i === lineStart && measured !== lineStart && quote === 0 && depth === 0 && fields.length === 0 && !continued) {
      measured = lineStart;
      let col = 0;
      let j = i;
      for (; j < n; j++) {
        const c = text.charCodeAt(j);
        if (c === SPACE) col++;
        else if (c === TAB) col = (Math.floor(col / 8) + 1) * 8;
        else if (c === FF) col = 0;
        else break;
      }
      const c = j < n ? text.charCodeAt(j) : NL;
      // Blank and comment-only lines do not count.
      if (c !== NL && c !== CR && c !== HASH) {
        if (j === lineStart) {
          const joins = lineStart === segStart || matchesAt(CLAUSE, text, j) || (decorators && matchesAt(DECORATED, text, j));
          if (!joins) {
            closeSegment(lineStart, false);
            if (cutSwallowed()) {
              if (opts.stopAt?.(i)) return { segments: out, stoppedAt: i, resumes };
              if (pauseAt(i)) return { segments: out, pausedAt: [i, line], resumes };
              continue;
            }
            if (opts.stopAt?.(lineStart)) return { segments: out, stoppedAt: lineStart, resumes };
            if (pauseAt(lineStart)) return { segments: out, pausedAt: [lineStart, line], resumes };
            startSegment(lineStart, line);
          }
          decorators = c === AT;
        }
        if (col > indents[indents.length - 1]) {
          if (indents.length >= MAX_INDENT_LEVELS) limit('IndentationError: too many levels of indentation', i, j);
          indents.push(col);
        } else {
          while (indents.length > 1 && col < indents[indents.length - 1]) indents.pop();
        }
      }
      i = j;
      continue;
    }
    // Characters that change nothing (most of them), skipped in a tight loop up to the next that may.
    if (quote === 0) {
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d >= 128 || PLAIN_CODE[d] === 1) i++;
        else break;
      }
    } else {
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === quote || d === BACKSLASH || d === NL || (fstring && d === LBRACE)) break;
        i++;
      }
    }
    if (i >= n) continue;
    const c = text.charCodeAt(i);
    if (c === NL) {
      line++;
      lineStart = i + 1;
      i++;
      continued = false;
      // A single-quoted string ends at the end of its line (it is unterminated: a syntax error).
      if (quote !== 0 && !triple) quote = 0;
      // A line at column 0 inside brackets or a string: where a broken statement may end.
      if (lineStart < n && (depth > 0 || quote !== 0 || fields.length > 0)) {
        const first = text.charCodeAt(lineStart);
        if (first !== SPACE && first !== TAB && first !== NL && first !== CR && first !== HASH) {
          if (quote !== 0) {
            if (!swallowed && matchesAt(STATEMENT_START, text, lineStart)) swallowed = [lineStart, line];
          } else if (matchesAt(STATEMENT_START, text, lineStart)) {
            resumeAt.push([lineStart, line]);
          }
        }
      }
      continue;
    }
    if (quote !== 0) {
      if (c === BACKSLASH) {
        // An escaped character (a raw string still keeps `\"` from ending it). A backslash before the
        // newline continues the string: the newline is still counted as a line.
        i += text.charCodeAt(i + 1) === NL ? 1 : 2;
        continue;
      }
      if (fstring && c === LBRACE) {
        if (text.charCodeAt(i + 1) === LBRACE) {
          i += 2;
          continue;
        }
        // A replacement field: code again until its `}`.
        fields.push({ depth, quote, triple, start: stringStart });
        quote = 0;
        i++;
        continue;
      }
      if (c === quote && (!triple || (text.charCodeAt(i + 1) === quote && text.charCodeAt(i + 2) === quote))) {
        i += triple ? 3 : 1;
        quote = 0;
        continue;
      }
      i++;
      continue;
    }
    // Code.
    if (c === HASH) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? n : end;
      continue;
    }
    if (c === BACKSLASH && text.charCodeAt(i + 1) === NL) {
      continued = true;
      line++;
      i += 2;
      lineStart = i;
      // The next physical line continues this logical line: its indentation does not count.
      continue;
    }
    if (c === SQ || c === DQ) {
      // The prefix letters right before the quote, if they are not the end of a longer name.
      let p = i;
      while (p > lineStart && isPrefixLetter(text.charCodeAt(p - 1))) p--;
      const prefix = p > 0 && isNameChar(text.charCodeAt(p - 1)) && p !== i ? '' : text.slice(p, i).toLowerCase();
      fstring = prefix.includes('f') || prefix.includes('t');
      quote = c;
      triple = text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === c;
      if (fields.length === 0) stringStart = i;
      i += triple ? 3 : 1;
      continue;
    }
    if (c === 40 || c === 91 || c === LBRACE) {
      depth++;
      brackets.push(i);
      if (depth > MAX_BRACKETS) limit('SyntaxError: too many nested parentheses', i, i + 1);
      i++;
      continue;
    }
    if (c === 41 || c === 93 || c === RBRACE) {
      // (Not fields[-1] when there is none: an index out of bounds is a slow lookup in V8.)
      const field = fields.length ? fields[fields.length - 1] : undefined;
      if (c === RBRACE && field && depth === field.depth) {
        // The end of an f-string replacement field: back into its string.
        fields.pop();
        quote = field.quote;
        triple = field.triple;
        fstring = true;
        i++;
        continue;
      }
      if (depth > 0) {
        depth--;
        brackets.pop();
      }
      i++;
      continue;
    }
    i++;
  }
}

/** The segments of a text. */
export function segmentText(text: string, broken?: BrokenCheck): Segment[] {
  return lex(text, 0, 0, { broken }).segments;
}

/**
 * Where segmenting a text in parts got to: a part ends at a segment start, where the tokenizer's state
 * is empty, so the next part lexes on from there as one pass would have (the recoveries made so far
 * counted). Kept between the parts by the caller (a sliced job's memo).
 */
export interface SegmentProgress {
  /** The segments found so far (for `resegment`: those lexed again). */
  segments: Segment[];
  /** Where the next part starts, and its row. */
  at: number;
  row: number;
  resumes: number;
  /** resegment: the old segment lexing began at, and where its search for a segment to stop at is. */
  k: number;
  next: number;
}

/** Segmenting from the start: the progress for `segmentText`/`resegment` given `pause`. */
export function segmentProgress(): SegmentProgress {
  return { segments: [], at: -1, row: 0, resumes: 0, k: 0, next: 0 };
}

/**
 * `segmentText`, in parts: lexes on from `progress` until `pause` says to stop at a segment start
 * (then returns undefined, `progress` updated for the next call), or to the end (the segments).
 */
export function segmentTextInParts(text: string, progress: SegmentProgress, pause: () => boolean, broken?: BrokenCheck): Segment[] | undefined {
  if (progress.at < 0) progress.at = 0;
  return lexPart(text, progress, { broken, pause }) ? progress.segments : undefined;
}

/** Lexes a part from `progress` on; false when it paused (progress moved to where), true at the end or where `stopAt` stopped it. */
function lexPart(text: string, progress: SegmentProgress, opts: LexOptions): { stoppedAt?: number } | false {
  const r = lex(text, progress.at, progress.row, { ...opts, resumes: progress.resumes });
  for (const seg of r.segments) progress.segments.push(seg);
  progress.resumes = r.resumes;
  if (!r.pausedAt) return { stoppedAt: r.stoppedAt };
  [progress.at, progress.row] = r.pausedAt;
  return false;
}

function countNewlines(text: string, start: number, end: number): number {
  let k = 0;
  for (let i = text.indexOf('\n', start); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) k++;
  return k;
}

/** The first segment starting at or after `offset` (binary search). */
function firstAtOrAfter(segments: readonly Segment[], offset: number, lo = 0): number {
  let hi = segments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (segments[mid].start < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function moved(seg: Segment, delta: number, rows: number): Segment {
  if (delta === 0 && rows === 0) return seg;
  const out: Segment = { start: seg.start + delta, end: seg.end + delta, row: seg.row + rows, broken: seg.broken, from: { seg, rows } };
  if (seg.limit) {
    const r = seg.limit.range;
    out.limit = { message: seg.limit.message, range: { start: { line: r.start.line + rows, character: r.start.character }, end: { line: r.end.line + rows, character: r.end.character } } };
  }
  return out;
}

/**
 * The segments of a new version of a text, from the old version's: lexes only from the segment before the
 * edit to the first old segment start past the edit that it reaches with the same empty state. The result
 * is the same as `segmentText(text)`; segments whose text did not change say so (`from`).
 */
export function resegment(old: readonly Segment[], text: string, edit: TextEdit, broken?: BrokenCheck): Segment[] {
  return resegmentInParts(old, text, edit, segmentProgress(), () => false, broken)!;
}

/** `resegment`, in parts (see segmentTextInParts): undefined while `pause` stops it before the end, `progress` updated. */
export function resegmentInParts(old: readonly Segment[], text: string, edit: TextEdit, progress: SegmentProgress, pause: () => boolean, broken?: BrokenCheck): Segment[] | undefined {
  if (old.length === 0) return segmentTextInParts(text, progress, pause, broken);
  const delta = edit.newEnd - edit.oldEnd;
  const rows = countNewlines(text, edit.start, edit.newEnd) - countNewlines(edit.oldText, edit.start, edit.oldEnd);
  if (progress.at < 0) {
    // Lex from the segment holding the edited line's start, or the one before when that line starts it (the
    // line may stop being a statement start), or from the first broken segment before (a later edit can
    // close its bracket).
    const lineStart = edit.oldText.lastIndexOf('\n', edit.start - 1) + 1;
    let k = Math.max(0, firstAtOrAfter(old, lineStart + 1) - 1);
    if (old[k].start === lineStart && k > 0) k--;
    for (let b = 0; b < k; b++) {
      if (old[b].broken) {
        k = b;
        break;
      }
    }
    Object.assign(progress, { at: old[k].start, row: old[k].row, k, next: k + 1 });
  }
  const k = progress.k;
  const stopAt = (offset: number): boolean => {
    if (offset < edit.newEnd) return false;
    progress.next = firstAtOrAfter(old, offset - delta, progress.next);
    return progress.next < old.length && old[progress.next].start === offset - delta;
  };
  const ended = lexPart(text, progress, { stopAt, broken, pause });
  if (!ended) return undefined;
  const { stoppedAt } = ended;
  const segments = progress.segments;
  const next = progress.next;
  // Segments lexed again whose text did not change keep their model.
  let o = k;
  for (const s of segments) {
    if (s.end <= edit.start) {
      while (o < old.length && old[o].start < s.start) o++;
      const prev = old[o];
      if (prev && prev.start === s.start && prev.end === s.end && prev.broken === s.broken) s.from = { seg: prev, rows: 0 };
    } else if (s.start >= edit.newEnd) {
      const j = firstAtOrAfter(old, s.start - delta, k);
      const prev = old[j];
      if (prev && prev.start === s.start - delta && prev.end === s.end - delta && prev.broken === s.broken) s.from = { seg: prev, rows };
    }
  }
  const out = old.slice(0, k);
  out.push(...segments);
  if (stoppedAt !== undefined) for (let j = next; j < old.length; j++) out.push(moved(old[j], delta, rows));
  return out;
}

/** The first nesting limit the segments break, in file order. */
export function firstLimit(segments: readonly Segment[]): LimitError | undefined {
  for (const s of segments) if (s.limit) return s.limit;
  return undefined;
}
