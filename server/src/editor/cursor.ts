// Where the cursor is inside a call: the call's dotted callee, the argument the cursor is in (its index,
// its keyword), the keywords the call already has, the brackets between the call and the cursor, and the
// string literal the cursor is in. Read from the text of the statement around the cursor with Python's
// lexical rules (strings, comments, brackets), not from the declaration model: the model holds module-level
// calls only, while completion and signature help also work inside function bodies and on calls that are
// still being typed. `from` is a point where no string or bracket is open (the start of the enclosing
// def, class or module-level statement, which the model knows: `statementStart`).
import type { Model } from '../model/types';

export interface CallFrame {
  /** The dotted callee (`vis.Symbol`, `vis.state.get`), or undefined when it is not a dotted name. */
  callee?: string;
  /** Offsets of the callee and of the opening parenthesis. */
  calleeStart: number;
  open: number;
  /** Offset of the closing parenthesis, when the call is closed. */
  close?: number;
  /** The argument the cursor is in, counting from 0. */
  index: number;
  /** The keyword of the argument the cursor is in (`name=` written before the cursor). */
  keyword?: string;
  /** Where the argument the cursor is in starts (after `(` or `,`). */
  argStart: number;
  /** Positional arguments before the cursor's argument. */
  positionalBefore: number;
  /** Every keyword the call has, before and after the cursor, with its argument index. */
  keywords: { name: string; index: number; start: number; end: number }[];
  /** The call has a `*` or `**` splat. */
  splat: boolean;
}

export interface CursorContext {
  /** The innermost call whose parentheses hold the cursor, directly or inside brackets of one of its arguments. */
  call?: CallFrame;
  /**
   * The brackets opened inside the call's current argument before the cursor, outermost first
   * (`symbols=[` gives one `[`); `target` is the dotted name a `[` subscripts (`vis.tools[`).
   */
  nesting: { ch: '[' | '{'; target?: string }[];
  /** The innermost open `[`, when it subscripts a dotted name, even outside any call (`vis.tools["` ). */
  subscript?: string;
  /** The string literal the cursor is in: the offsets of its content and its quote. */
  string?: { quote: string; start: number; end: number; prefix: string };
  /** In a comment. */
  comment: boolean;
  /** The identifier characters just before the cursor. */
  word: { text: string; start: number };
}

interface Frame {
  ch: '(' | '[' | '{';
  open: number;
  callee?: string;
  calleeStart: number;
  index: number;
  argStart: number;
  keyword?: string;
  positional: number;
  keywords: CallFrame['keywords'];
  splat: boolean;
}

const ID = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]/u;
const isId = (c: string | undefined) => c !== undefined && ID.test(c);
const CLOSE: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
/** How far past the cursor the lexer reads for the rest of the call (keywords written after the cursor). */
const AHEAD = 20_000;

/** The dotted name that ends at `end` (a callee before `(`), and where it starts. */
function dottedBefore(text: string, end: number): { name?: string; start: number } {
  let i = end;
  while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
  const stop = i;
  while (i > 0 && (isId(text[i - 1]) || text[i - 1] === '.')) i--;
  const name = text.slice(i, stop);
  if (!/^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*(?:\.[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*)*$/u.test(name)) return { start: stop };
  // `def f(` and `class C(` open a parameter or base list, not a call.
  const before = text.slice(Math.max(0, i - 6), i);
  if (/\b(?:def|class)\s+$/.test(before)) return { start: i };
  return { name, start: i };
}

/** The cursor context at `offset`, lexing from `from` (a point outside any string or bracket). */
export function cursorContext(text: string, offset: number, from = 0): CursorContext {
  const stack: Frame[] = [];
  const limit = Math.min(text.length, offset + AHEAD);
  // What holds at the cursor: the open brackets (copied, they move on) and the string or comment it is in.
  let at: { frames: Frame[]; string?: CursorContext['string']; comment: boolean } | undefined;
  // The call at the cursor, read on to its closing parenthesis for the keywords written after the cursor.
  let live: Frame | undefined;
  let close: number | undefined;
  const take = (string?: CursorContext['string'], comment = false) => {
    at = { frames: stack.map((f) => ({ ...f, keywords: [...f.keywords] })), string, comment };
    live = [...stack].reverse().find((f) => f.ch === '(');
  };
  let i = from;
  while (i < limit) {
    if (i === offset && !at) take();
    const c = text[i];
    if (c === '#') {
      const nl = text.indexOf('\n', i);
      const end = nl === -1 ? text.length : nl;
      if (!at && offset > i && offset <= end) take(undefined, true);
      i = end;
      continue;
    }
    if (c === '"' || c === "'") {
      const s = readString(text, i, from);
      // In its content: in the string; between the characters of a triple quote: at the string, not in it.
      if (!at && offset > i && (offset < s.next || s.end === s.next)) take(offset >= s.start && offset <= s.end ? { quote: s.quote, start: s.start, end: s.end, prefix: s.prefix } : undefined);
      i = s.next;
      continue;
    }
    if (c === '\n' && at && i >= offset) {
      // Past the cursor, a new top-level statement ends the search (a call still being typed is unclosed).
      const next = text[i + 1];
      if (!stack.length || (next !== undefined && !/[\s#)\]}]/.test(next))) break;
    }
    if (c === '(' || c === '[' || c === '{') {
      // A `[` right after a name subscripts it; after anything else it opens a list.
      const callee = c === '(' || (c === '[' && isId(text[i - 1])) ? dottedBefore(text, i) : { name: undefined, start: i };
      if (c === '[' && callee.name && KEYWORDS.has(callee.name)) callee.name = undefined;
      stack.push({ ch: c, open: i, callee: callee.name, calleeStart: callee.start, index: 0, argStart: i + 1, positional: 0, keywords: [], splat: false });
      i++;
      continue;
    }
    const top = stack[stack.length - 1];
    if (c === ')' || c === ']' || c === '}') {
      if (top && top.ch === CLOSE[c]) {
        endArgument(text, top, i);
        stack.pop();
        if (at && top === live) {
          close = i;
          break;
        }
      }
      i++;
      continue;
    }
    if (top && c === ',') {
      endArgument(text, top, i);
      top.index++;
      top.argStart = i + 1;
      top.keyword = undefined;
    } else if (top && top.ch === '(' && c === '=' && text[i + 1] !== '=' && !'=!<>:'.includes(text[i - 1] ?? '')) {
      // Comments between the comma and the keyword are no part of it.
      const name = text.slice(top.argStart, i).replace(/#[^\n]*/g, '').trim();
      if (top.keyword === undefined && IDENTIFIER.test(name)) {
        top.keyword = name;
        const start = text.indexOf(name, top.argStart);
        top.keywords.push({ name, index: top.index, start, end: start + name.length });
      }
    }
    i++;
  }
  if (!at) take();
  const frames = at!.frames;
  const nesting: CursorContext['nesting'] = [];
  const inner = frames[frames.length - 1];
  const subscript = inner?.ch === '[' ? inner.callee : undefined;
  let call: CallFrame | undefined;
  for (let k = frames.length - 1; k >= 0 && !call; k--) {
    const f = frames[k];
    if (f.ch !== '(') {
      nesting.unshift({ ch: f.ch, target: f.callee });
      continue;
    }
    call = {
      callee: f.callee,
      calleeStart: f.calleeStart,
      open: f.open,
      close,
      index: f.index,
      keyword: f.keyword,
      argStart: f.argStart,
      positionalBefore: f.positional,
      keywords: live ? live.keywords : f.keywords,
      splat: live ? live.splat : f.splat,
    };
  }
  if (!call) nesting.length = 0;
  let w = offset;
  while (w > 0 && isId(text[w - 1])) w--;
  return { call, nesting, subscript, string: at!.string, comment: at!.comment, word: { text: text.slice(w, offset), start: w } };
}

const KEYWORDS = new Set(['return', 'in', 'else', 'yield', 'not', 'and', 'or', 'is', 'if', 'await', 'lambda', 'del', 'assert', 'raise', 'from', 'import']);

/** The dotted name at `offset`: from the start of its chain to the end of the identifier under the cursor (`models.Rea|ding` gives `models.Reading`). */
export function dottedAt(text: string, offset: number): { name: string; start: number; end: number } | undefined {
  let end = offset;
  while (end < text.length && isId(text[end])) end++;
  let start = offset;
  while (start > 0 && (isId(text[start - 1]) || text[start - 1] === '.')) start--;
  const name = text.slice(start, end).replace(/^\.+/, '');
  start = end - name.length;
  return IDENTIFIER.test(name.split('.')[0] ?? '') && name.split('.').every((p) => IDENTIFIER.test(p)) ? { name, start, end } : undefined;
}

const IDENTIFIER = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u;

/** A string literal starting at the quote at `i`: its quote, prefix, content offsets and where lexing goes on. */
function readString(text: string, i: number, from: number): { quote: string; prefix: string; start: number; end: number; next: number } {
  const c = text[i];
  let p = i;
  while (p > from && i - p < 2 && /[rRbBuUfF]/.test(text[p - 1])) p--;
  const prefix = isId(text[p - 1]) ? '' : text.slice(p, i);
  const quote = text.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
  const start = i + quote.length;
  let j = start;
  while (j < text.length) {
    // A backslash escapes the next character, in raw strings too (r"\"" does not end at the second quote).
    if (text[j] === '\\') {
      j += 2;
      continue;
    }
    if (quote.length === 1 && text[j] === '\n') return { quote, prefix, start, end: j, next: j };
    if (text.startsWith(quote, j)) return { quote, prefix, start, end: j, next: j + quote.length };
    j++;
  }
  return { quote, prefix, start, end: text.length, next: text.length };
}

/** Counts a finished argument: positional unless it had a keyword or was a splat. */
function endArgument(text: string, f: Frame, end: number): void {
  if (f.ch !== '(') return;
  const body = text.slice(f.argStart, end).trim();
  if (!body) return;
  if (body.startsWith('*')) f.splat = true;
  else if (f.keyword === undefined) f.positional++;
}

type Ranged = { range: { start: { line: number; character: number }; end: { line: number; character: number } } };

/**
 * A point before `offset` where no string or bracket is open: the start of the def or class that holds it
 * (of the method, inside a class; the model knows their ranges), or else the end of the last top-level def
 * or class before it, or the start of the file.
 */
export function statementStart(model: Model, at: (p: { line: number; character: number }) => number, offset: number): number {
  const inside = (d: Ranged) => at(d.range.start) <= offset && offset < at(d.range.end);
  let best = 0;
  for (const d of [...model.functions, ...model.classes] as (Ranged & { methods?: Ranged[] })[]) {
    if (inside(d)) {
      const method = d.methods?.find(inside);
      return at((method ?? d).range.start);
    }
    const end = at(d.range.end);
    if (end <= offset && end > best) best = end;
  }
  return best;
}
