// Edits that fixes are made of, each changing as little as it can so the author's layout, quotes and
// comments stay: an argument inserted the way the call's arguments are laid out (inline, or one per line
// with the same indentation and trailing comma), an argument removed with its comma (its own line when it
// had one), a value wrapped in a list, a near miss replaced by the nearest valid name.
import type { Argument, Call, FunctionDecl, Range, Value } from '../model/types';
import type { TextEditFix } from '../rules/types';
import type { SourceText } from './source';

const at = (p: Range['start']): Range => ({ start: p, end: p });

/** Whether an argument is the first thing on its line (the call is laid out one argument per line). */
function ownsLine(source: SourceText, r: Range): boolean {
  return source.line(r.start.line).slice(0, r.start.character).trim() === '';
}

/** What follows an argument on its line: a comma, then nothing but a comment? */
function tail(source: SourceText, a: Argument): { comma: boolean; endsLine: boolean; commaAt?: Range['start'] } {
  const rest = source.line(a.range.end.line).slice(a.range.end.character);
  const m = /^(\s*)(,?)(\s*)(#.*)?$/.exec(rest);
  if (!m) {
    const comma = /^\s*,/.exec(rest);
    return { comma: !!comma, endsLine: false, commaAt: comma ? { line: a.range.end.line, character: a.range.end.character + comma[0].length - 1 } : undefined };
  }
  return { comma: m[2] === ',', endsLine: true, commaAt: m[2] ? { line: a.range.end.line, character: a.range.end.character + m[1].length } : undefined };
}

/**
 * Inserts `text` (`alias="x"`, or a positional value) as an argument after `after` (the last argument by
 * default; the first position when `after` is null), in the call's layout.
 */
export function insertArgument(call: Call, text: string, source: SourceText, after?: Argument | null): TextEditFix[] {
  const args = call.args;
  if (!args.length) {
    const open = call.argsRange.start;
    return [{ range: at({ line: open.line, character: open.character + 1 }), newText: text }];
  }
  if (after === null) {
    const first = args[0];
    if (ownsLine(source, first.range) && first.range.start.line > call.argsRange.start.line) {
      const indent = source.indentOf(first.range.start.line);
      return [{ range: at({ line: first.range.start.line, character: 0 }), newText: `${indent}${text},${source.eol()}` }];
    }
    return [{ range: at(first.range.start), newText: `${text}, ` }];
  }
  const anchor = after ?? args[args.length - 1];
  const i = args.indexOf(anchor);
  const last = i === args.length - 1;
  const t = tail(source, anchor);
  // One argument per line: a new line with the same indentation, after the anchor's comment if any.
  if (ownsLine(source, anchor.range) && anchor.range.start.line > call.argsRange.start.line && t.endsLine) {
    const indent = source.indentOf(anchor.range.start.line);
    const end = source.lineEnd(anchor.range.end.line);
    // The new argument keeps a trailing comma when the anchor had one (or when more follow).
    const trailing = !last || t.comma ? ',' : '';
    const edits: TextEditFix[] = [];
    if (!t.comma) edits.push({ range: at(anchor.range.end), newText: ',' });
    edits.push({ range: at(end), newText: `${source.eol()}${indent}${text}${trailing}` });
    return edits;
  }
  return [{ range: at(anchor.range.end), newText: `, ${text}` }];
}

/** Removes an argument and its comma; an argument alone on its line goes with the line (its comment too). */
export function removeArgument(call: Call, arg: Argument, source: SourceText): TextEditFix[] {
  const args = call.args;
  const i = args.indexOf(arg);
  const next = args[i + 1];
  const prev = args[i - 1];
  const t = tail(source, arg);
  const line = arg.range.start.line;
  if (ownsLine(source, arg.range) && arg.range.start.line > call.argsRange.start.line && t.endsLine && (!next || next.range.start.line > arg.range.end.line)) {
    // Its own line(s): the previous argument's comma stays (it was followed, so it had one).
    if (next || t.comma || prev) return [{ range: { start: { line, character: 0 }, end: { line: arg.range.end.line + 1, character: 0 } }, newText: '' }];
  }
  if (next) return [{ range: { start: arg.range.start, end: next.range.start }, newText: '' }];
  if (prev) {
    const end = t.commaAt ? { line: t.commaAt.line, character: t.commaAt.character + 1 } : arg.range.end;
    return [{ range: { start: prev.range.end, end: t.comma ? arg.range.end : end }, newText: '' }];
  }
  const end = t.commaAt ? { line: t.commaAt.line, character: t.commaAt.character + 1 } : arg.range.end;
  return [{ range: { start: arg.range.start, end }, newText: '' }];
}

/** `value` → `[value]`; a parenthesized generator `(x for x in xs)` → `[x for x in xs]`. */
export function listOf(written: Value): TextEditFix[] {
  if (written.kind === 'comprehension' && written.of === 'generator' && written.text.startsWith('(') && written.text.endsWith(')')) {
    const end = written.range.end;
    return [
      { range: { start: written.range.start, end: { line: written.range.start.line, character: written.range.start.character + 1 } }, newText: '[' },
      { range: { start: { line: end.line, character: end.character - 1 }, end }, newText: ']' },
    ];
  }
  return [
    { range: at(written.range.start), newText: '[' },
    { range: at(written.range.end), newText: ']' },
  ];
}

/** A Python string literal of `value`, in the quote style of `like` (a literal of the same call) when it has one. */
export function pyString(value: string, like?: string): string {
  const json = JSON.stringify(value);
  const single = like !== undefined && /^[rRbBuUfF]*'/.test(like);
  if (!single) return json;
  return `'${json.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/** The quote style written in a call: the text of its first string literal argument. */
export function quoteLike(call: Call): string | undefined {
  return call.args.find((a) => a.value.kind === 'str')?.value.text;
}

/**
 * Optimal string alignment distance (Levenshtein with adjacent transpositions), a case-only difference
 * counting half.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.toLowerCase() === b.toLowerCase()) return 0.5;
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => [i, ...Array(y.length).fill(0)]);
  for (let j = 1; j <= y.length; j++) d[0][j] = j;
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[x.length][y.length];
}

/**
 * The valid names nearest to a near miss: within two edits, and within a third of the name's length
 * (so short names need a close match). `unique` when one is nearer than every other: the fix; otherwise
 * they are suggestions only.
 */
export function nearest(value: string, candidates: readonly string[]): { names: string[]; unique: boolean } {
  const limit = Math.min(2, Math.max(1, Math.floor(value.length / 3)));
  let best = Infinity;
  let names: string[] = [];
  for (const c of new Set(candidates)) {
    if (c === value) continue;
    const d = editDistance(value, c);
    if (d > limit) continue;
    if (d < best) (best = d), (names = [c]);
    else if (d === best) names.push(c);
  }
  return { names, unique: names.length === 1 };
}

/**
 * A docstring stub as the first statement of a function (a quick fix to start from: the model reads
 * it, so it is a suggestion, never applied by fix-all). Undefined for a body on the `def` line.
 */
export function docstringStub(fn: FunctionDecl, source: SourceText): TextEditFix[] | undefined {
  const body = fn.bodyStart;
  if (!body || body.line <= fn.nameRange.start.line || fn.docstring !== undefined) return undefined;
  const indent = source.line(body.line).slice(0, body.character);
  if (indent.trim() !== '') return undefined;
  const line = `${indent}"""TODO: what ${fn.name} does and returns, for the model (this becomes its doc())."""${source.eol()}`;
  return [{ range: at({ line: body.line, character: 0 }), newText: line }];
}

/**
 * Two decorators swapped, each written alone on its line (`@dataclass` over `@vis.sequence(...)`);
 * undefined when they share a line or span several.
 */
export function swapLines(source: SourceText, a: Range, b: Range): TextEditFix[] | undefined {
  const alone = (r: Range) => r.start.line === r.end.line && source.line(r.start.line).trim() === `@${source.slice(r).replace(/^@/, '')}`.trim();
  if (!alone(a) || !alone(b) || a.start.line === b.start.line) return undefined;
  const lineA = { start: { line: a.start.line, character: 0 }, end: source.lineEnd(a.start.line) };
  const lineB = { start: { line: b.start.line, character: 0 }, end: source.lineEnd(b.start.line) };
  return [
    { range: lineA, newText: source.slice(lineB) },
    { range: lineB, newText: source.slice(lineA) },
  ];
}
