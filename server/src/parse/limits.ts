// Python's own nesting limits, checked on the text before anything is parsed.
//
// CPython's tokenizer refuses a file with more than 200 nested brackets (`SyntaxError: too many
// nested parentheses`, MAXLEVEL) or 100 levels of indentation (`IndentationError: too many levels
// of indentation`, MAXINDENT), so Vis can never load such a file. Deeper nesting than that is also
// what makes parsers and recursive readers fail (tree-sitter's WASM stack, JavaScript's call
// stack), so a file over either limit is reported with Python's message and not parsed at all.
//
// One pass over the character codes, tracking strings (with prefixes, triple quotes, escapes and
// f-string replacement fields), comments, backslash continuations and the indentation stack. Where
// the scan could be wrong (unusual f-strings), it errs towards counting less, never more.
import type { Range } from '../model/types';

/** Files with more characters are not parsed (the default of visAuthoring.maxFileSize). */
export const DEFAULT_MAX_FILE_SIZE = 2_000_000;

export const MAX_BRACKETS = 200;
export const MAX_INDENT_LEVELS = 100;

export interface LimitError {
  /** Python's exception and message, e.g. `IndentationError: too many levels of indentation`. */
  message: string;
  range: Range;
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

/** Where a string starts (`f"`, `rb'''`…): its prefix letters before the quote. */
function isPrefixLetter(c: number): boolean {
  // r R b B u U f F t T
  return c === 114 || c === 82 || c === 98 || c === 66 || c === 117 || c === 85 || c === 102 || c === 70 || c === 116 || c === 84;
}

function isNameChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c > 127;
}

/** The first of Python's nesting limits the text breaks, or undefined. */
export function checkNestingLimits(text: string): LimitError | undefined {
  const n = text.length;
  // Indentation columns of the enclosing blocks; the module level is 0.
  const indents: number[] = [0];
  let line = 0;
  let lineStart = 0;
  let depth = 0;
  let continued = false;
  // Replacement fields of f-strings we are inside: the bracket depth at which each `{` opened, and
  // the string (quote, triple) to return to at its `}`.
  const fields: { depth: number; quote: number; triple: boolean }[] = [];
  let i = 0;
  /** The line start whose indentation was last read (so it is read once). */
  let measured = -1;
  // In a string: its quote character, whether triple-quoted, whether an f-string (or t-string).
  let quote = 0;
  let triple = false;
  let fstring = false;

  const at = (offset: number) => ({ line, character: offset - lineStart });

  while (i < n) {
    // At the start of a physical line outside strings and brackets: its indentation.
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
        if (col > indents[indents.length - 1]) {
          if (indents.length >= MAX_INDENT_LEVELS) {
            return { message: 'IndentationError: too many levels of indentation', range: { start: at(i), end: at(j) } };
          }
          indents.push(col);
        } else {
          while (indents.length > 1 && col < indents[indents.length - 1]) indents.pop();
        }
      }
      i = j;
      continue;
    }
    const c = text.charCodeAt(i);
    if (c === NL) {
      line++;
      lineStart = i + 1;
      i++;
      continued = false;
      // A single-quoted string ends at the end of its line (it is unterminated: a syntax error).
      if (quote !== 0 && !triple) quote = 0;
      continue;
    }
    if (quote !== 0) {
      if (c === BACKSLASH) {
        // An escaped character (a raw string still keeps `\"` from ending it). A backslash before
        // the newline continues the string: the newline is still counted as a line.
        i += text.charCodeAt(i + 1) === NL ? 1 : 2;
        continue;
      }
      if (fstring && c === LBRACE) {
        if (text.charCodeAt(i + 1) === LBRACE) {
          i += 2;
          continue;
        }
        // A replacement field: code again until its `}`.
        fields.push({ depth, quote, triple });
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
      i += triple ? 3 : 1;
      continue;
    }
    if (c === 40 || c === 91 || c === LBRACE) {
      depth++;
      if (depth > MAX_BRACKETS) return { message: 'SyntaxError: too many nested parentheses', range: { start: at(i), end: at(i + 1) } };
      i++;
      continue;
    }
    if (c === 41 || c === 93 || c === RBRACE) {
      const field = fields[fields.length - 1];
      if (c === RBRACE && field && depth === field.depth) {
        // The end of an f-string replacement field: back into its string.
        fields.pop();
        quote = field.quote;
        triple = field.triple;
        fstring = true;
        i++;
        continue;
      }
      if (depth > 0) depth--;
      i++;
      continue;
    }
    i++;
  }
  return undefined;
}
