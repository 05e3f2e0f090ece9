// The errors CPython's tokenizer raises, and the indentation errors its parser raises, found on the text
// of one region of a file (a top-level statement and what follows it up to the next one) without running
// Python: unterminated strings, brackets that do not match or are never closed, bad characters and number
// literals, a dedent to no outer level, tabs mixed with spaces, an unexpected indent, a block header with
// no indented block, and a compound statement header without its ':'. Messages are CPython's (3.10 and
// later) word for word; anything this scanner cannot tell is left to the parse tree ("invalid syntax").
// Positions are 0-based lines and UTF-16 columns.

export type PyErrorKind = 'SyntaxError' | 'IndentationError' | 'TabError';

export interface PyError {
  kind: PyErrorKind;
  message: string;
  line: number;
  col: number;
  endLine: number;
  endCol: number;
  /** For "expected ':'": where the header's keyword ends (a parse error inside the header comes first). */
  keywordEnd?: number;
  /** For a header's error: the header's line (a header that does not parse fails there first). */
  headerLine?: number;
  /**
   * `tokenizer`: raised while tokenizing, so it is what Python reports whatever the parser thinks of the
   * code before it; `parser`: raised when the parser fails at this token (the first one in the file wins);
   * `unclosed`: a bracket still open at the end of the region, which CPython reports instead of a parser
   * error only when the bracket opens on an earlier line.
   */
  phase: 'tokenizer' | 'parser' | 'unclosed';
}

export interface RegionScan {
  /** The first tokenizer error of the region (the scan stops there). */
  tokenizer?: PyError;
  /** A bracket still open where the region ends (the innermost one). */
  unclosed?: PyError;
  /** Parser errors the scanner can tell, in source order: indentation and headers without ':'. */
  parser: PyError[];
  /** What the compiler refuses on a tree that parses: `break` outside a loop, `return` outside a function... */
  compile: PyError[];
  /** The indentation stack where the region ends. */
  indents: number[];
  /** Lines that start inside brackets (continuation lines). */
  continuation: number[];
  /** The lines of decorators (`@...` logical lines outside brackets). */
  decorators: number[];
  /** The first line of every logical line outside brackets. */
  logical: number[];
}

/** Compound statements whose header opens an indented block, and how CPython names them. */
const BLOCK_KINDS: Record<string, string> = {
  def: 'function definition',
  class: 'class definition',
  if: "'if' statement",
  elif: "'elif' statement",
  else: "'else' statement",
  for: "'for' statement",
  while: "'while' statement",
  with: "'with' statement",
  try: "'try' statement",
  except: "'except' statement",
  finally: "'finally' statement",
  match: "'match' statement",
  case: "'case' statement",
};

const BLOCK_KIND_NAMES = new Set(Object.keys(BLOCK_KINDS));

/** Keywords that may follow a number with no space in between (`1if x else 2`). */
const AFTER_NUMBER = ['and', 'else', 'for', 'if', 'in', 'is', 'not', 'or'];

const OPENERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

// What an ASCII character starts: the token kinds the scanner tells apart.
const OTHER = 0;
const ID = 1;
const DIGIT = 2;
const QUOTE = 3;
const OPEN = 4;
const CLOSE = 5;
const INVALID = 6;
const CHAR_CLASS = new Uint8Array(129);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  CHAR_CLASS[c] = /[A-Za-z_]/.test(ch) ? ID : /[0-9]/.test(ch) ? DIGIT : ch === '"' || ch === "'" ? QUOTE : '([{'.includes(ch) ? OPEN : ')]}'.includes(ch) ? CLOSE : '$?`'.includes(ch) ? INVALID : OTHER;
}

const ID_START = /[\p{L}\p{Nl}_\u1885\u1886\u2118\u212E\u309B\u309C]/u;
const ID_CONTINUE = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}_\u00B7\u0387\u1369-\u1371\u19DA\u1885\u1886\u2118\u212E\u309B\u309C]/u;
/** Python's str.isprintable() is false for these categories (the space itself aside). */
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
const STRING_PREFIX = /^(?:[rR]|[uU]|[bB]|[fF]|[bB][rR]|[rR][bB]|[fF][rR]|[rR][fF])$/;

interface Logical {
  /** Line and indentation column of the logical line's first token. */
  line: number;
  indent: number;
  /** Its first word when it starts with one (`def`, `if`, `x`...), and the second (`async def`). */
  first?: string;
  second?: string;
  /** A ':' outside brackets, and the last token a ':' outside brackets. */
  colon: boolean;
  endsWithColon: boolean;
  /** End of its last token. */
  endLine: number;
  endCol: number;
  /** End of its first word. */
  keywordEnd: number;
  /** Offset of the line it starts on. */
  offset: number;
  /** How many tokens it has so far, and the kind of its second one. */
  tokens: number;
  secondKind?: 'word' | 'string' | 'number' | 'other';
  /** A block header that does not parse (its error is the parse tree's). */
  broken?: boolean;
  /** Offset of the end of its last token. */
  endOffset: number;
  /** The last token when it is an operator (a line cannot end with most of them). */
  lastOp?: string;
}

/** Operators a logical line cannot end with (`x =`, `a +`, `obj.`). */
const DANGLING = new Set(['=', '+', '-', '/', '%', '**', '//', '<<', '>>', '&', '|', '^', '<', '>', '==', '!=', '<=', '>=', '+=', '-=', '*=', '/=', '%=', '**=', '//=', '<<=', '>>=', '&=', '|=', '^=', '@=', '->', '.', ':=', '~']);

/** The features `from __future__ import` knows. */
const FUTURE = new Set(['nested_scopes', 'generators', 'division', 'absolute_import', 'with_statement', 'print_function', 'unicode_literals', 'barry_as_FLUFL', 'generator_stop', 'annotations']);

/** An open bracket; a call's '(' follows its arguments, to find the orders CPython's parser refuses. */
interface Bracket {
  ch: string;
  line: number;
  col: number;
  call: CallArgs | undefined;
  /** The call arguments this bracket had when it was last a call's (made new when it is one again). */
  spare: CallArgs | undefined;
  /** A def's parameter list. */
  params: boolean;
  /** Where the expression being read at this level starts (after the last ',', '=' or ':'), and whether the next token starts one. */
  exprLine: number;
  fresh: boolean;
}

interface CallArgs {
  keyword: boolean;
  keywordSplat: boolean;
  /** The keywords given so far (made at the first one, emptied when the bracket is a call's again). */
  names: Set<string> | undefined;
  count: number;
  /** The argument being read: its first token, its name, whether it is `name=...`, whether it holds `for`. */
  tokens: number;
  first: 'name' | 'star' | 'dstar' | 'other';
  name?: string;
  isKeyword: boolean;
  generator: boolean;
  /** Inside a lambda's parameters (up to its ':'), whose commas are no argument separators. */
  lambda: boolean;
  line: number;
  col: number;
  /** The first error found: parser errors are reported where the call closes. */
  error?: { message: string; atClose: boolean; line: number; col: number; compile: boolean };
  generatorAt?: { line: number; col: number };
}

/** A block the scan is inside: its header's kind and indentation. */
interface Block {
  kind: string;
  indent: number;
  isAsync: boolean;
}

/** The characters that can continue an operator (`=`, `*`, `/`, `<`, `>`, `.`): other operators are one character. */
const OPERATOR_NEXT = new Uint8Array(129);
for (const c of '=*/<>.') OPERATOR_NEXT[c.charCodeAt(0)] = 1;

/** Python's operators and delimiters, longest first. */

/** Operators that may take a `=` after them (`+=`, `==`, `!=`...). */
const AUGMENTED: (string | undefined)[] = new Array(129);
for (const c of '-+*/%&|^@<>=!') AUGMENTED[c.charCodeAt(0)] = `${c}=`;

/**
 * The operator at `i` whose next character may continue it (OPERATOR_NEXT), read whole: `**=`, `//=`, `<<=`,
 * `>>=`, `->`, `:=`, `...`, a one-character operator with `=`, else the one character.
 */
function operatorAt(text: string, i: number): string {
  const c = text.charCodeAt(i);
  const n = text.charCodeAt(i + 1);
  const eq = text.charCodeAt(i + 2) === 61;
  if (c === n) {
    if (c === 42) return eq ? '**=' : '**';
    if (c === 47) return eq ? '//=' : '//';
    if (c === 60) return eq ? '<<=' : '<<';
    if (c === 62) return eq ? '>>=' : '>>';
    if (c === 46 && text.charCodeAt(i + 2) === 46) return '...';
  }
  if (c === 45 && n === 62) return '->';
  if (c === 58 && n === 61) return ':=';
  return (n === 61 && c < 128 ? AUGMENTED[c] : undefined) ?? text[i];
}

/** Keywords, which are no operand after `print` (`print if x else y` is an expression). */
const KEYWORDS = new Set(['and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield', 'None', 'True', 'False']);

/** The keywords by their first character. */
const KEYWORDS_BY_START: (string[] | undefined)[] = new Array(129);
for (const k of KEYWORDS) (KEYWORDS_BY_START[k.charCodeAt(0)] ??= []).push(k);

/** The keyword text[i, j) is (read in place, nothing sliced), or undefined. */
function keywordAt(text: string, i: number, j: number, code: number): string | undefined {
  const candidates = code < 128 ? KEYWORDS_BY_START[code] : undefined;
  if (!candidates) return undefined;
  const length = j - i;
  for (let k = 0; k < candidates.length; k++) {
    const kw = candidates[k];
    if (kw.length === length && text.startsWith(kw, i)) return kw;
  }
  return undefined;
}

/** Keywords after which a new expression starts (the one before them is whole). */
const SEPARATING_KEYWORDS = new Set(['if', 'else', 'for', 'lambda', 'from', 'import', 'as', 'yield', 'return', 'await', 'assert', 'del', 'raise', 'with', 'while', 'elif', 'except']);

/** Statement keywords, which no expression holds: inside brackets the parser fails on them. */
const STATEMENT_KEYWORDS = new Set(['assert', 'break', 'class', 'continue', 'def', 'del', 'elif', 'except', 'finally', 'global', 'import', 'nonlocal', 'pass', 'raise', 'return', 'try', 'while', 'with']);


/**
 * The shape of an import statement on one line (a `;` may end it), built over an identifier's first and
 * other characters. The pattern over Unicode's identifier classes costs V8 tens of milliseconds to
 * compile, so it is built only for a statement that is not ASCII; ASCII statements use ASCII classes,
 * which match the same.
 */
function importPattern(start: string, rest: string, flags: string): RegExp {
  const name = String.raw`[${start}][${rest}]*`;
  const dotted = String.raw`${name}(?:\s*\.\s*${name})*`;
  const aliased = (what: string) => String.raw`${what}(?:\s+as\s+${name})?`;
  const list = (what: string) => String.raw`${aliased(what)}(?:\s*,\s*${aliased(what)})*`;
  return new RegExp(String.raw`^(?:import\s+${list(dotted)}|from\s+(?:\.*\s*${dotted}|\.+)\s+import\s+(?:\*|${list(name)}\s*,?|\(\s*${list(name)}\s*,?\s*\)))\s*(?:;.*)?$`, flags);
}
const IMPORT_ASCII = importPattern('A-Za-z_', 'A-Za-z0-9_', 's');
let importUnicode: RegExp | undefined;

function importShaped(statement: string): boolean {
  if (/^[\x00-\x7f]*$/.test(statement)) return IMPORT_ASCII.test(statement);
  return (importUnicode ??= importPattern(String.raw`\p{L}\p{Nl}_`, String.raw`\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}`, 'su')).test(statement);
}

/** Where a second parameter starts on a later line of one comma-separated piece (outside brackets), if one does. */
function secondParameter(piece: string): number | undefined {
  let depth = 0;
  for (let k = 0; k < piece.length; k++) {
    const c = piece[k];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === '"' || c === "'") {
      const e = piece.indexOf(c, k + 1);
      if (e === -1) return undefined;
      k = e;
    } else if (c === '\n' && depth === 0) {
      const m = /[ \t]*(?=(?:\*{1,2}[ \t]*)?[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*[ \t]*(?:[:=,]|$)|\/[ \t]*(?:,|$))/uy;
      m.lastIndex = k + 1;
      if (m.exec(piece)) return m.lastIndex;
    }
  }
  return undefined;
}

/** The pieces of a def's parameter list, as [start, end) offset pairs (parameters' working list). */
const PIECES: number[] = [];

/** The parts of one parameter (`*name: type = value`) the order checks need; the one result, filled anew by each call. */
const PARAMETER = { stars: undefined as '*' | '**' | undefined, name: undefined as string | undefined, eq: false };

/** Any non-ASCII character (a parameter with one is read by the Unicode pattern). */
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * A parameter's stars, name and whether a default follows (`=` after the name, or after its annotation), as
 * `^(\*\*|\*)?\s*(name)?\s*(?::[^=]*)?(=)?` reads them; an ASCII parameter is read character by character.
 */
function parameterParts(p: string): typeof PARAMETER {
  const out = PARAMETER;
  if (NON_ASCII.test(p)) {
    const m = /^(\*\*|\*)?\s*([\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*)?\s*(?::[^=]*)?(=)?/su.exec(p)!;
    out.stars = m[1] as '*' | '**' | undefined;
    out.name = m[2];
    out.eq = m[3] !== undefined;
    return out;
  }
  let k = 0;
  out.stars = p.startsWith('**') ? '**' : p.startsWith('*') ? '*' : undefined;
  if (out.stars) k = out.stars.length;
  while (k < p.length && ASCII_SPACE[p.charCodeAt(k)] === 1) k++;
  const from = k;
  if (k < p.length && CHAR_CLASS[p.charCodeAt(k)] === ID) {
    k++;
    while (k < p.length && (CHAR_CLASS[p.charCodeAt(k)] === ID || CHAR_CLASS[p.charCodeAt(k)] === DIGIT)) k++;
  }
  out.name = k > from ? p.slice(from, k) : undefined;
  while (k < p.length && ASCII_SPACE[p.charCodeAt(k)] === 1) k++;
  const c = p.charCodeAt(k);
  out.eq = c === 61 || (c === 58 && p.indexOf('=', k + 1) !== -1);
  return out;
}

/** What `\s` matches among ASCII characters. */
const ASCII_SPACE = new Uint8Array(128);
for (const c of ' \t\n\v\f\r') ASCII_SPACE[c.charCodeAt(0)] = 1;

/** Whether a header without ':' is otherwise whole, so that its missing ':' is what Python reports. */
function wholeHeader(kind: string, rest: string): boolean {
  switch (kind) {
    case 'def':
      return /^[A-Za-z_]\w*\s*(?:\[.*\])?\s*\(.*\)\s*(?:->.+)?$/s.test(rest);
    case 'class':
      return /^[A-Za-z_]\w*\s*(?:\[.*\])?\s*(?:\(.*\))?$/s.test(rest);
    case 'for':
      return /^\S.*\sin\s+\S/s.test(rest);
    case 'else':
    case 'try':
    case 'finally':
      return rest === '';
    case 'except':
      return true;
    default:
      return rest !== '';
  }
}

function hex(cp: number): string {
  return cp.toString(16).toUpperCase().padStart(4, '0');
}

function fail(kind: PyErrorKind, message: string, line: number, col: number, phase: PyError['phase'] = 'tokenizer', endLine = line, endCol = col + 1): PyError {
  return { kind, message, line, col, endLine, endCol, phase };
}

function tabs(line: number): PyError {
  return fail('TabError', 'inconsistent use of tabs and spaces in indentation', line, 0, 'tokenizer', line, 0);
}

function expectedBlock(header: Logical, line: number, col: number, endCol: number): PyError {
  return { ...fail('IndentationError', `expected an indented block after ${BLOCK_KINDS[header.first!]} on line ${header.line + 1}`, line, col, 'parser', line, endCol), headerLine: header.line };
}

/**
 * Scans text[start, end) as CPython's tokenizer would, from a line start at `line` (0-based) whose
 * indentation stack starts as `[0]`. `atEof`: the region ends the file (an unfinished header or string
 * is then reported where CPython names the end of the file).
 */
export function scanRegion(text: string, start: number, end: number, line: number, atEof: boolean): RegionScan {
  return new RegionScanner(text, start, end, line, atEof).run();
}

/** The scanner's state (a class, so that scanning a region makes no closures). */
class RegionScanner {
  // Indentation (CPython: tabsize 8, and an alternative tabsize 1 to catch tabs mixed with spaces).
  private indents = [0];
  private altIndents = [0];
  private brackets: Bracket[] = [];
  /** Brackets closed, to be opened again. */
  private closed: Bracket[] = [];
  /** What the previous token was, to tell a call's '(' from a parenthesized expression. */
  private prev: 'name' | 'close' | 'string' | 'number' | 'other' = 'other';
  private out: RegionScan = { parser: [], compile: [], indents: this.indents, continuation: [], decorators: [], logical: [] };
  /** The block of each indentation level (null for an indent no header opened). */
  private blocks: (Block | null)[] = [null];
  /** After a `try` block: the indentation its `except` or `finally` must be at. */
  private handler: { indent: number } | undefined;
  private i: number;
  private lineStart: number;
  private logical: Logical | undefined;
  private readonly spare: Logical = { line: 0, indent: 0, first: undefined, second: undefined, colon: false, endsWithColon: false, endLine: 0, endCol: 0, keywordEnd: 0, offset: 0, tokens: 0, secondKind: undefined, broken: false, endOffset: 0, lastOp: undefined };
  /** A block header waiting for its indented body. */
  private pending: Logical | undefined;

  constructor(
    private readonly text: string,
    start: number,
    private readonly end: number,
    private line: number,
    private readonly atEof: boolean,
  ) {
    this.i = start;
    this.lineStart = start;
  }

  private tokenizer(e: PyError): RegionScan {
    this.out.tokenizer = e;
    return this.out;
  }

  private newline(): void {
    this.line++;
    this.lineStart = this.i;
    // Lines inside an expression's brackets (a def's parameters are no expression list). (Never read as
    // brackets[-1]: an index out of a list's bounds is a slow lookup in V8.)
    const brackets = this.brackets;
    const top = brackets.length ? brackets[brackets.length - 1] : undefined;
    if (top && !top.params) this.out.continuation.push(this.line);
  }

  /** Moves past a token that may span lines (a string), counting its line breaks; returns its end. */
  private followLines(to: number): number {
    const text = this.text;
    for (let k = text.indexOf('\n', this.i); k !== -1 && k < to; k = text.indexOf('\n', k + 1)) this.line++, (this.lineStart = k + 1);
    return to;
  }

  /** The logical line ends: a header ending in ':' waits for its block; one without ':' may be missing it. */
  private endLogical(): void {
    const logical = this.logical;
    if (!logical) return;
    const kind = logical.first === 'async' && (logical.second === 'def' || logical.second === 'for' || logical.second === 'with') ? logical.second : logical.first;
    if (kind !== undefined && BLOCK_KIND_NAMES.has(kind)) {
      if (logical.endsWithColon) this.pending = { ...logical, first: kind };
      // A header with no ':' at all is CPython's "expected ':'" when an indented block follows it and the
      // header is otherwise whole (`match` and `case` are soft keywords: `match = 1` is an assignment).
      else if (!logical.colon && kind !== 'match' && kind !== 'case' && logical.endLine === logical.line) {
        let rest = this.text.slice(logical.offset + logical.keywordEnd, logical.offset + logical.endCol).trim();
        if (logical.first === 'async') rest = rest.replace(/^(?:def|for|with)\b\s*/, '');
        // A header that is not whole fails to parse before its block: the block is no unexpected indent.
        this.pending = { ...logical, first: kind, broken: !wholeHeader(kind, rest) };
      } else if (!logical.colon && kind !== 'match' && kind !== 'case') this.pending = { ...logical, first: kind, broken: true };
    }
    if (kind === 'def') this.parameters(logical);
    if (logical.lastOp !== undefined && DANGLING.has(logical.lastOp)) this.out.parser.push(fail('SyntaxError', 'invalid syntax', logical.endLine, logical.endCol, 'parser'));
    if ((logical.first === 'import' || logical.first === 'from') && logical.endLine === logical.line) {
      const statement = this.text.slice(logical.offset + logical.indent, logical.offset + logical.endCol);
      if (!importShaped(statement)) this.out.parser.push(fail('SyntaxError', 'invalid syntax', logical.line, logical.endCol, 'parser'));
      else {
        const future = /^from\s+__future__\s+import\s+\(?\s*(.*?)\s*\)?\s*(?:;.*)?$/s.exec(statement);
        const unknown = future?.[1].split(',').map((n) => n.trim().split(/\s+/)[0]).find((n) => n && !FUTURE.has(n));
        if (unknown) this.out.compile.push(fail('SyntaxError', `future feature ${unknown} is not defined`, logical.line, logical.indent, 'parser', logical.line, logical.endCol));
      }
    }
    this.logical = undefined;
  }

  /** The first token of a logical line: a `try` block is followed by its handler; some statements need a function or a loop around them. */
  private firstToken(cur: Logical, word: string | undefined): void {
    const handler = this.handler;
    if (handler && cur.indent <= handler.indent) {
      this.handler = undefined;
      if (cur.indent < handler.indent || (word !== 'except' && word !== 'finally')) this.out.parser.push(fail('SyntaxError', "expected 'except' or 'finally' block", cur.line, cur.indent, 'parser'));
    }
    if (word === undefined) return;
    const message = this.outside(word);
    if (message) this.out.compile.push(fail('SyntaxError', message, cur.line, cur.indent, 'parser', cur.line, cur.indent + word.length));
  }

  /** What the compiler says of a statement that starts with `word` where it stands, if it refuses it. */
  private outside(word: string): string | undefined {
    if (word !== 'break' && word !== 'continue' && word !== 'return' && word !== 'yield' && word !== 'await' && word !== 'nonlocal') return undefined;
    for (let k = this.blocks.length - 1; k >= 0; k--) {
      const b = this.blocks[k];
      if (!b) continue;
      if (b.kind === 'def') {
        if (word === 'break') return "'break' outside loop";
        if (word === 'continue') return "'continue' not properly in loop";
        if (word === 'await' && !b.isAsync) return "'await' outside async function";
        return undefined;
      }
      if (b.kind === 'class') break;
      if ((b.kind === 'for' || b.kind === 'while') && (word === 'break' || word === 'continue')) return undefined;
    }
    switch (word) {
      case 'break':
        return "'break' outside loop";
      case 'continue':
        return "'continue' not properly in loop";
      case 'nonlocal':
        return this.blocks.some((b) => b?.kind === 'class') ? undefined : 'nonlocal declaration not allowed at module level';
      default:
        return `'${word}' outside function`;
    }
  }

  /** A new logical line starts at `at`, indented to `indent` (already checked against the stack). */
  private startLogical(at: number, indent: number): Logical {
    const col = at - this.lineStart;
    this.prev = 'other';
    this.out.logical.push(this.line);
    if (this.text.charCodeAt(at) === 64) this.out.decorators.push(this.line);
    // One object serves every logical line of the region (what outlives a line is a copy: `pending`).
    const l = this.spare;
    l.line = this.line;
    l.indent = indent;
    l.first = undefined;
    l.second = undefined;
    l.colon = false;
    l.endsWithColon = false;
    l.endLine = this.line;
    l.endCol = col;
    l.keywordEnd = col;
    l.offset = this.lineStart;
    l.tokens = 0;
    l.secondKind = undefined;
    l.broken = false;
    l.endOffset = at;
    l.lastOp = undefined;
    return (this.logical = l);
  }

  /**
   * The parameter list of a `def`: the orders CPython's parser refuses (reported as "invalid syntax": their
   * wording changed between Python versions) and a name given twice (the compiler's error).
   */
  private parameters(def: Logical): void {
    const text = this.text;
    const open = text.indexOf('(', def.offset + def.keywordEnd);
    if (open === -1 || open >= def.endOffset) return;
    // The pieces between commas, as offset pairs (a list kept for every def of every region).
    const pieces = PIECES;
    pieces.length = 0;
    let depth = 0;
    let start = open + 1;
    let close = -1;
    for (let k = open + 1; k < def.endOffset && close === -1; k++) {
      const c = text.charCodeAt(k);
      if (c === 34 || c === 39) {
        const q = c === 34 ? (text.startsWith('"""', k) ? '"""' : '"') : text.startsWith("'''", k) ? "'''" : "'";
        const e = text.indexOf(q, k + q.length);
        if (e === -1) return;
        k = e + q.length - 1;
      } else if (c === 35) {
        const e = text.indexOf('\n', k);
        if (e === -1) return;
        k = e;
      } else if (c === 40 || c === 91 || c === 123) depth++;
      else if (c === 41 || c === 93 || c === 125) {
        if (depth === 0) close = k;
        else depth--;
      }
      if ((c === 44 && depth === 0) || close !== -1) {
        pieces.push(start, k);
        start = k + 1;
      }
    }
    if (close === -1) return;
    const seen = new Set<string>();
    let positional = 0;
    let slash = false;
    let star = false;
    let doubleStar = false;
    let defaulted = false;
    for (let n = 0; n < pieces.length; n += 2) {
      const piece = text.slice(pieces[n], pieces[n + 1]);
      const raw = piece.includes('#') ? piece.replace(/#[^\n]*/g, '') : piece;
      const p = raw.trim();
      if (!p) continue;
      const at = pieces[n] + raw.indexOf(p);
      // Two parameters with no comma between them, on two lines: the parser fails at the second.
      const second = secondParameter(p);
      if (second !== undefined) return this.paramError(at + second, 1, 'invalid syntax', 'parser');
      if (p === '/') {
        if (!positional || slash || star || doubleStar) return this.paramError(at, p.length, 'invalid syntax', 'parser');
        slash = true;
        continue;
      }
      if (doubleStar) return this.paramError(at, p.length, 'invalid syntax', 'parser');
      const m = parameterParts(p);
      const { stars, name, eq } = m;
      // Neither a name nor a star (a string, a number, a bracket): the parser fails where it starts.
      if (!stars && !name) return this.paramError(at, p.length, 'invalid syntax', 'parser');
      if (stars === '*') {
        if (star || eq) return this.paramError(at, p.length, 'invalid syntax', 'parser');
        star = true;
      } else if (stars === '**') {
        if (!name || eq) return this.paramError(at, p.length, 'invalid syntax', 'parser');
        doubleStar = true;
      } else {
        if (!name) return;
        if (eq) defaulted = true;
        else if (defaulted && !star) return this.paramError(at, p.length, 'invalid syntax', 'parser');
        positional++;
      }
      if (name) {
        if (seen.has(name)) return this.paramError(at + (stars?.length ?? 0), name.length, `duplicate argument '${name}' in function definition`, 'compile');
        seen.add(name);
      }
    }
  }

  private paramError(offset: number, length: number, message: string, where: 'parser' | 'compile'): void {
    let line = this.line;
    let lineStart = this.lineStart;
    // Count back from the scan's current line to the line of `offset`.
    while (lineStart > offset && line > 0) {
      lineStart = this.text.lastIndexOf('\n', lineStart - 2) + 1;
      line--;
    }
    const e = fail('SyntaxError', message, line, offset - lineStart, 'parser', line, offset - lineStart + length);
    (where === 'parser' ? this.out.parser : this.out.compile).push(e);
  }

  /** A compound statement header without ':': "expected ':'" when it is whole and a block follows, else "invalid syntax" on a one-line header. */
  private colonless(header: Logical, expected: boolean): void {
    const keywordEnd = header.line === header.endLine ? header.keywordEnd : undefined;
    if (expected) this.out.parser.push({ ...fail('SyntaxError', "expected ':'", header.endLine, header.endCol, 'parser'), keywordEnd, headerLine: header.line });
    else if (header.line === header.endLine) this.out.parser.push({ ...fail('SyntaxError', 'invalid syntax', header.endLine, header.endCol, 'parser'), keywordEnd, headerLine: header.line });
  }

  /** A token inside a call's parentheses (not inside brackets nested in them). */
  private argToken(call: CallArgs, token: 'name' | 'star' | 'dstar' | 'eq' | 'comma' | 'colon' | 'for' | 'other', word: string | undefined, col: number): void {
    if (call.lambda) {
      if (token === 'colon') call.lambda = false;
      return;
    }
    if (word === 'lambda') call.lambda = true;
    if (token === 'comma') return this.endArg(call);
    if (call.tokens === 0) {
      call.first = token === 'name' ? 'name' : token === 'star' ? 'star' : token === 'dstar' ? 'dstar' : 'other';
      call.name = token === 'name' ? word : undefined;
      call.isKeyword = false;
      call.generator = false;
      call.line = this.line;
      call.col = col;
    } else if (call.tokens === 1 && token === 'eq' && call.first === 'name') call.isKeyword = true;
    if (token === 'for') call.generator = true;
    call.tokens++;
  }

  private endArg(call: CallArgs): void {
    if (call.tokens === 0) return;
    // `key=` with no value does not parse: the call's other errors are not what Python reports.
    if (call.isKeyword && call.tokens < 3) call.error ??= { message: '', atClose: false, line: call.line, col: call.col, compile: false };
    call.tokens = 0;
    call.count++;
    if (call.generator) call.generatorAt ??= { line: call.line, col: call.col };
    if (call.error) return;
    let message: string | undefined;
    let atClose = true;
    let compile = false;
    if (call.first === 'dstar') call.keywordSplat = true;
    else if (call.first === 'star') {
      if (call.keywordSplat) (message = 'iterable argument unpacking follows keyword argument unpacking'), (atClose = false);
    } else if (call.isKeyword) {
      call.keyword = true;
      const names = (call.names ??= new Set());
      if (names.has(call.name!)) (message = `keyword argument repeated: ${call.name}`), (atClose = false), (compile = true);
      names.add(call.name!);
    } else if (call.keywordSplat) message = 'positional argument follows keyword argument unpacking';
    else if (call.keyword) message = 'positional argument follows keyword argument';
    if (message) call.error = { message, atClose, line: call.line, col: call.col, compile };
  }

  /** A call closes: its argument errors are reported (where CPython's parser stopped: the ')'). */
  private closeCall(call: CallArgs, col: number): void {
    this.endArg(call);
    if (call.generatorAt && call.count > 1) {
      this.out.parser.push(fail('SyntaxError', 'Generator expression must be parenthesized', call.generatorAt.line, call.generatorAt.col, 'parser'));
      return;
    }
    const e = call.error;
    if (!e?.message) return;
    const at = e.atClose ? { line: this.line, col } : { line: e.line, col: e.col };
    (e.compile ? this.out.compile : this.out.parser).push(fail('SyntaxError', e.message, at.line, at.col, 'parser'));
  }

  /**
   * Two operands with nothing between them (`a b`, `) x`, `1 2`, `f "x"`): the parser fails at the second. In
   * brackets CPython names the line the first one is on (its "Perhaps you forgot a comma?").
   */
  private juxtaposed(cur: Logical, token: 'name' | 'number' | 'string' | 'brace', col: number, length: number): void {
    const prev = this.prev;
    if (prev === 'other' || (token === 'string' && prev === 'string')) return;
    // `match x:`, `case 1:`, `type X = ...` begin with a soft keyword; `print x` is reported as Python 2's print.
    if (cur.tokens === 2 && (cur.first === 'match' || cur.first === 'case' || cur.first === 'type' || cur.first === 'print' || cur.first === 'exec')) return;
    const brackets = this.brackets;
    const top = brackets.length ? brackets[brackets.length - 1] : undefined;
    const line = top && !top.params && top.exprLine < this.line ? top.exprLine : this.line;
    this.out.parser.push(fail('SyntaxError', 'invalid syntax', line, line === this.line ? col : 0, 'parser', line, line === this.line ? col + length : 1));
  }

  /** A token at the current bracket level: the first after a separator starts an expression there. */
  private mark(top: Bracket | undefined, separator: boolean): void {
    if (!top) return;
    if (separator) top.fresh = true;
    else if (top.fresh) (top.fresh = false), (top.exprLine = this.line);
  }

  /** `print "x"`: Python 3's message for a Python 2 print (or exec) statement. */
  private legacy(cur: Logical): void {
    if (cur.first === 'print' || cur.first === 'exec') {
      const message = `Missing parentheses in call to '${cur.first}'. Did you mean ${cur.first}(...)?`;
      this.out.parser.push(fail('SyntaxError', message, cur.line, cur.indent, 'parser', cur.line, cur.keywordEnd));
    }
  }

  /**
   * A bracket opened here: one closed earlier made new again (nothing holds a bracket or its call once it
   * is closed). Every bracket has the same shape (and so does every call), which keeps property reads fast.
   */
  private opened(ch: string, col: number, isCall: boolean, params: boolean): Bracket {
    const line = this.line;
    const b = this.closed.pop() ?? { ch, line, col, call: undefined, spare: undefined, params, exprLine: line, fresh: true };
    b.ch = ch;
    b.line = b.exprLine = line;
    b.col = col;
    b.params = params;
    b.fresh = true;
    b.call = undefined;
    if (isCall) {
      const c = (b.spare ??= { keyword: false, keywordSplat: false, names: undefined, count: 0, tokens: 0, first: 'other', name: undefined, isKeyword: false, generator: false, lambda: false, line, col, error: undefined, generatorAt: undefined });
      c.keyword = c.keywordSplat = c.isKeyword = c.generator = c.lambda = false;
      c.names?.clear();
      c.count = c.tokens = 0;
      c.first = 'other';
      c.name = undefined;
      c.line = line;
      c.col = col;
      c.error = c.generatorAt = undefined;
      b.call = c;
    }
    return b;
  }

  /** The indentation of a line that starts a logical line; a tokenizer error ends the scan. */
  private indentation(): boolean {
    const { text, end, indents, altIndents } = this;
    let c = 0;
    let alt = 0;
    let j = this.i;
    for (; j < end; j++) {
      const ch = text.charCodeAt(j);
      if (ch === 32) c++, alt++;
      else if (ch === 9) (c = (Math.floor(c / 8) + 1) * 8), alt++;
      else if (ch === 12) c = alt = 0;
      else break;
    }
    const ch = text.charCodeAt(j);
    const blank = j >= end || ch === 35 || ch === 10 || ch === 13 || (ch === 92 && (text.charCodeAt(j + 1) === 10 || text.charCodeAt(j + 1) === 13));
    const from = this.i;
    this.i = j;
    if (blank || this.brackets.length) return true;
    const line = this.line;
    const top = indents.length - 1;
    const header = this.pending;
    this.pending = undefined;
    const parser = this.out.parser;
    // `def f()` followed by an indented block: the ':' is missing. A header with no ':' never parses.
    if (header && !header.endsWithColon) this.colonless(header, !header.broken && c > indents[top]);
    if (c === indents[top]) {
      if (alt !== altIndents[top]) return !this.tokenizer(tabs(line));
      if (header?.endsWithColon) parser.push(expectedBlock(header, line, j - from, lineEnd(text, j, end) - from));
    } else if (c > indents[top]) {
      if (alt <= altIndents[top]) return !this.tokenizer(tabs(line));
      if (!header) parser.push(fail('IndentationError', 'unexpected indent', line, j - from, 'parser', line, lineEnd(text, j, end) - from));
      indents.push(c);
      altIndents.push(alt);
      this.blocks.push(header?.endsWithColon ? { kind: header.first!, indent: header.indent, isAsync: header.second !== undefined && this.text.startsWith('async', header.offset + header.indent) } : null);
    } else {
      while (indents.length > 1 && c < indents[indents.length - 1]) {
        indents.pop();
        altIndents.pop();
        const block = this.blocks.pop();
        if (block?.kind === 'try') this.handler = { indent: block.indent };
      }
      if (c !== indents[indents.length - 1]) {
        const eol = lineEnd(text, j, end) - from;
        return !this.tokenizer(fail('IndentationError', 'unindent does not match any outer indentation level', line, eol, 'tokenizer', line, eol));
      }
      if (alt !== altIndents[altIndents.length - 1]) return !this.tokenizer(tabs(line));
      if (header?.endsWithColon) parser.push(expectedBlock(header, line, j - from, lineEnd(text, j, end) - from));
    }
    this.startLogical(j, c);
    return true;
  }

  run(): RegionScan {
    const { text, end, atEof, out, brackets } = this;
    let atBol = true;
    while (this.i < end) {
      if (atBol) {
        atBol = false;
        if (!this.indentation()) return out;
        continue;
      }
      let i = this.i;
      const code = text.charCodeAt(i);
      if (code === 10) {
        this.i = i + 1;
        if (brackets.length === 0) {
          this.endLogical();
          atBol = true;
        }
        this.newline();
        continue;
      }
      if (code === 32 || code === 9 || code === 12 || code === 13) {
        this.i = i + 1;
        continue;
      }
      if (code === 35) {
        this.i = lineEnd(text, i, end);
        continue;
      }
      const col = i - this.lineStart;
      if (code === 92) {
        const next = text.charCodeAt(i + 1);
        if (next === 10 || (next === 13 && text.charCodeAt(i + 2) === 10)) {
          this.i = i + (next === 10 ? 2 : 3);
          this.newline();
          if (this.i >= end && atEof) return this.tokenizer(fail('SyntaxError', 'unexpected EOF while parsing', this.line, 0));
          continue;
        }
        if (i + 1 >= end && atEof) return this.tokenizer(fail('SyntaxError', 'unexpected EOF while parsing', this.line, col + 1));
        return this.tokenizer(fail('SyntaxError', 'unexpected character after line continuation character', this.line, col + 1));
      }
      // A token starts here: it belongs to the current logical line.
      const cur = this.logical ?? this.startLogical(i, col);
      const kind = code < 128 ? CHAR_CLASS[code] : ID;
      const top: Bracket | undefined = brackets.length ? brackets[brackets.length - 1] : undefined;
      const nth = ++cur.tokens;
      if (nth === 2) {
        cur.secondKind = kind === ID ? 'word' : kind === QUOTE ? 'string' : kind === DIGIT ? 'number' : 'other';
        if (kind === QUOTE || kind === DIGIT) this.legacy(cur);
      } else if (nth === 1 && kind !== ID) this.firstToken(cur, undefined);
      if (kind === ID) {
        // Identifiers, keywords and string prefixes.
        let j = i + 1;
        let ascii = code < 128;
        for (; j < end; j++) {
          const c = text.charCodeAt(j);
          if (c >= 128) ascii = false;
          else if (CHAR_CLASS[c] !== ID && CHAR_CLASS[c] !== DIGIT) break;
        }
        const q = text.charCodeAt(j);
        if ((q === 34 || q === 39) && j - i <= 2 && STRING_PREFIX.test(text.slice(i, j))) {
          if (nth === 1) this.firstToken(cur, undefined);
          if (top?.call) this.argToken(top.call, 'other', undefined, col);
          if (this.prev !== 'other') this.juxtaposed(cur, 'string', col, 1);
          this.mark(top, false);
          this.prev = 'string';
          const r = scanString(text, j, end, this.line, col, atEof);
          if ('error' in r) return this.tokenizer(r.error);
          if (/[fF]/.test(text.slice(i, j))) {
            const f = fStringError(text, j, r.end, r.quote, this.line, this.lineStart);
            if (f) out.parser.push(f);
          }
          i = this.followLines(r.end);
        } else {
          if (!ascii) {
            const bad = badIdentifierChar(text.slice(i, j));
            if (bad !== undefined) {
              const cp = bad.cp;
              const shown = String.fromCodePoint(cp);
              const message = NON_PRINTABLE.test(shown) && shown !== ' ' ? `invalid non-printable character U+${hex(cp)}` : `invalid character '${shown}' (U+${hex(cp)})`;
              return this.tokenizer(fail('SyntaxError', message, this.line, i + bad.index - this.lineStart));
            }
          }
          // A name is sliced only where it is needed: a logical line's first word, an argument's first token.
          const kw = keywordAt(text, i, j, code);
          const keyword = kw !== undefined;
          const word = kw ?? (nth === 1 || (top?.call !== undefined && top.call.tokens === 0) ? text.slice(i, j) : '');
          if (keyword && brackets.length && STATEMENT_KEYWORDS.has(word)) out.parser.push(fail('SyntaxError', 'invalid syntax', this.line, col, 'parser', this.line, col + (j - i)));
          if (top) {
            if (top.call) this.argToken(top.call, word === 'for' ? 'for' : keyword ? 'other' : 'name', word, col);
            this.mark(top, keyword && SEPARATING_KEYWORDS.has(word));
          }
          if (!keyword && this.prev !== 'other') this.juxtaposed(cur, 'name', col, j - i);
          this.prev = keyword ? 'other' : 'name';
          if (nth === 1) {
            cur.first = word;
            cur.keywordEnd = j - this.lineStart;
            this.firstToken(cur, cur.first);
          } else if (nth === 2) {
            cur.second = text.slice(i, j);
            if (q !== 40 && !keyword) this.legacy(cur);
          }
          i = j;
        }
      } else if (kind === QUOTE) {
        if (top?.call) this.argToken(top.call, 'other', undefined, col);
        if (this.prev !== 'other') this.juxtaposed(cur, 'string', col, 1);
        this.mark(top, false);
        this.prev = 'string';
        const r = scanString(text, i, end, this.line, col, atEof);
        if ('error' in r) return this.tokenizer(r.error);
        i = this.followLines(r.end);
      } else if (kind === DIGIT || (code === 46 && CHAR_CLASS[text.charCodeAt(i + 1)] === DIGIT)) {
        if (top?.call) this.argToken(top.call, 'other', undefined, col);
        if (this.prev !== 'other') this.juxtaposed(cur, 'number', col, 1);
        this.mark(top, false);
        this.prev = 'number';
        const r = scanNumber(text, i, end);
        if (r.error) return this.tokenizer(fail('SyntaxError', r.error, this.line, r.errorAt - this.lineStart, 'tokenizer', this.line, (r.errorEnd ?? r.errorAt + 1) - this.lineStart));
        i = r.end;
      } else if (kind === OPEN) {
        if (top?.call) this.argToken(top.call, 'other', undefined, col);
        // A def's parameters are no call's arguments.
        const params = code === 40 && brackets.length === 0 && (cur.first === 'def' || cur.second === 'def');
        const isCall = code === 40 && (this.prev === 'name' || this.prev === 'close') && !params;
        if (code === 123 && this.prev !== 'other') this.juxtaposed(cur, 'brace', col, 1);
        this.mark(top, false);
        brackets.push(this.opened(text[i], col, isCall, params));
        this.prev = 'other';
        i++;
      } else if (kind === CLOSE) {
        const ch = text[i];
        const open = brackets.pop();
        if (!open) return this.tokenizer(fail('SyntaxError', `unmatched '${ch}'`, this.line, col));
        if (open.ch !== OPENERS[ch]) {
          const where = open.line === this.line ? '' : ` on line ${open.line + 1}`;
          return this.tokenizer(fail('SyntaxError', `closing parenthesis '${ch}' does not match opening parenthesis '${open.ch}'${where}`, this.line, col));
        }
        if (open.call) this.closeCall(open.call, col);
        this.closed.push(open);
        this.prev = 'close';
        i++;
      } else if (kind === INVALID || (code === 33 && text.charCodeAt(i + 1) !== 61)) {
        // `$`, `?`, `` ` `` and a lone `!` are no Python tokens: the parser fails on them.
        out.parser.push(fail('SyntaxError', 'invalid syntax', this.line, col, 'parser'));
        i++;
      } else if (code === 58 && text.charCodeAt(i + 1) !== 61) {
        // Only ':' outside brackets matters among the operators (a header's end).
        this.i = i + 1;
        cur.endLine = this.line;
        cur.endCol = this.i - this.lineStart;
        cur.endOffset = this.i;
        cur.lastOp = undefined;
        if (brackets.length === 0) cur.colon = cur.endsWithColon = true;
        if (top?.call) this.argToken(top.call, 'colon', undefined, col);
        this.mark(top, true);
        this.prev = 'other';
        continue;
      } else {
        // An operator or delimiter, read whole (`==` is no `=`, `**` no `*`).
        const op = OPERATOR_NEXT[text.charCodeAt(i + 1)] !== 1 ? text[i] : operatorAt(text, i);
        if (top?.call) this.argToken(top.call, op === ',' ? 'comma' : op === '=' ? 'eq' : op === '*' ? 'star' : op === '**' ? 'dstar' : 'other', undefined, col);
        this.mark(top, op === ',' || op === '=' || op === ';');
        this.prev = 'other';
        i += op.length;
        this.i = i;
        cur.endLine = this.line;
        cur.endCol = i - this.lineStart;
        cur.endOffset = i;
        cur.endsWithColon = false;
        cur.lastOp = op;
        continue;
      }
      this.i = i;
      cur.endLine = this.line;
      cur.endCol = i - this.lineStart;
      cur.endOffset = i;
      cur.endsWithColon = false;
      cur.lastOp = undefined;
    }
    this.endLogical();
    const pending = this.pending;
    const openTry = this.handler ?? (this.blocks.some((b) => b?.kind === 'try') ? {} : undefined);
    if (openTry) {
      // At the end of a region the next statement is neither `except` nor `finally` (those would be this one's).
      const at = atEof ? eofLine(text) : this.line;
      out.parser.push(fail('SyntaxError', "expected 'except' or 'finally' block", at, 0, 'parser'));
    }
    if (brackets.length) {
      const open = brackets[brackets.length - 1];
      out.unclosed = fail('SyntaxError', `'${open.ch}' was never closed`, open.line, open.col, 'unclosed');
    } else if (pending && !pending.endsWithColon) {
      this.colonless(pending, false);
    } else if (pending?.endsWithColon) {
      // The file (or the region) ends after a header: CPython names the line the file ends on.
      if (atEof) {
        const eof = eofLine(text);
        const at = eof === pending.line ? pending.endCol : 0;
        out.parser.push(expectedBlock(pending, eof, at, at));
      } else out.parser.push(expectedBlock(pending, this.line, 0, 0));
    }
    out.parser.sort((a, b) => a.line - b.line || a.col - b.col);
    return out;
  }
}

/** The offset of the end of the line `at` is on (before its '\n'), within `end`. */
function lineEnd(text: string, at: number, end: number): number {
  const nl = text.indexOf('\n', at);
  const e = nl === -1 || nl > end ? end : nl;
  return text[e - 1] === '\r' ? e - 1 : e;
}

/** The 0-based line CPython gives the end of the file: its last line (a final line break starts none). */
export function eofLine(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') || text.length === 0 ? Math.max(0, n - 1) : n;
}

/** The first character of a word that is not valid in a Python identifier, with its code point. */
function badIdentifierChar(word: string): { index: number; cp: number } | undefined {
  let index = 0;
  let first = true;
  for (const c of word) {
    const ok = first ? ID_START.test(c) || c === '_' : ID_CONTINUE.test(c);
    if (!ok) return { index, cp: c.codePointAt(0)! };
    first = false;
    index += c.length;
  }
  return undefined;
}

type StringScan = { end: number; quote: string } | { error: PyError };
const STRING_SCAN = { end: 0, quote: '' };

/** A string literal from its prefix at `start` and its quote at `q`: where it ends, or CPython's error. */
function scanString(text: string, q: number, end: number, line: number, col: number, atEof: boolean): StringScan {
  const ch = text[q];
  const triple = text[q + 1] === ch && text[q + 2] === ch;
  const quote = triple ? ch.repeat(3) : ch;
  let i = q + quote.length;
  let cur = line;
  while (i < end) {
    const c = text[i];
    if (c === '\\') {
      if (text[i + 1] === '\n') cur++;
      i += 2;
      continue;
    }
    if (c === '\n') {
      if (!triple) return { error: { kind: 'SyntaxError', message: `unterminated string literal (detected at line ${cur + 1})`, line, col, endLine: line, endCol: col + 1, phase: 'tokenizer' } };
      cur++;
      i++;
      continue;
    }
    if (text.startsWith(quote, i)) {
      // The one result of a string found whole, filled anew by each scan (its caller reads it at once).
      STRING_SCAN.end = i + quote.length;
      STRING_SCAN.quote = quote;
      return STRING_SCAN;
    }
    i++;
  }
  if (!triple) return { error: { kind: 'SyntaxError', message: `unterminated string literal (detected at line ${cur + 1})`, line, col, endLine: line, endCol: col + 1, phase: 'tokenizer' } };
  // A triple-quoted string runs to the end of the region; at the end of the file CPython names its last line.
  const detected = atEof ? eofLine(text) + 1 : cur + 1;
  return { error: { kind: 'SyntaxError', message: `unterminated triple-quoted string literal (detected at line ${detected})`, line, col, endLine: line, endCol: col + 1, phase: 'tokenizer' } };
}

/**
 * The f-string errors every CPython from 3.10 words the same way: a lone '}' and a '{' never closed. The
 * literal is text[q, end) with its quotes. Other f-string mistakes are left to the parse tree.
 */
function fStringError(text: string, q: number, end: number, quote: string, line: number, lineStart: number): PyError | undefined {
  let i = q + quote.length;
  const stop = end - quote.length;
  /** Brackets open inside the current replacement field (the field's own '{' first). */
  const open: string[] = [];
  let cur = line;
  let lineAt = lineStart;
  const at = (message: string): PyError => ({ kind: 'SyntaxError', message, line: cur, col: Math.max(0, i - lineAt), endLine: cur, endCol: Math.max(0, i - lineAt) + 1, phase: 'parser' });
  while (i < stop) {
    const c = text[i];
    if (c === '\n') cur++, (lineAt = i + 1);
    if (open.length === 0) {
      if (c === '{' || c === '}') {
        if (text[i + 1] === c) {
          i += 2;
          continue;
        }
        if (c === '}') return at("f-string: single '}' is not allowed");
        open.push('{');
      }
      i++;
      continue;
    }
    // Inside a replacement field: brackets must match (a mismatch has messages of its own: left to the tree).
    if (c === '{' || c === '[' || c === '(') open.push(c);
    else if (c === '}' || c === ']' || c === ')') {
      if (open.pop() !== OPENERS[c]) return undefined;
    } else if (c === '"' || c === "'") {
      const close = text.indexOf(c, i + 1);
      if (close === -1 || close >= stop) return undefined;
      i = close;
    }
    i++;
  }
  // Only the field's own '{' is open at the end: the '}' is missing.
  if (open.length === 1) return at("f-string: expecting '}'");
  return undefined;
}

interface NumberScan {
  end: number;
  error?: string;
  errorAt: number;
  errorEnd?: number;
}

/** Whether a character code continues an identifier (an ASCII letter, digit or `_`, or any non-ASCII character). */
function idChar(c: number): boolean {
  return c >= 128 || CHAR_CLASS[c] === ID || CHAR_CLASS[c] === DIGIT;
}

/** Digits of a base (`2`, `8`, `10`, `16`), single underscores between them: the end, or -1 when none starts at `i`. */
function digitsEnd(text: string, i: number, end: number, base: number): number {
  if (!isDigit(text.charCodeAt(i), base)) return -1;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (isDigit(c, base)) i++;
    else if (c === 95 && isDigit(text.charCodeAt(i + 1), base)) i += 2;
    else break;
  }
  return i;
}

function isDigit(c: number, base: number): boolean {
  return (c >= 48 && c < 48 + (base < 10 ? base : 10)) || (base === 16 && ((c >= 97 && c <= 102) || (c >= 65 && c <= 70)));
}

/** After a number: a letter right after it is CPython's "invalid ... literal", unless a keyword starts there (`1if x else 2`). */
/** The one result of scanNumber, filled anew by each scan (its caller reads it at once). */
const NUMBER_SCAN: NumberScan = { end: 0, error: undefined, errorAt: 0, errorEnd: undefined };

function numberScan(end: number, error: string | undefined, errorAt: number, errorEnd?: number): NumberScan {
  const r = NUMBER_SCAN;
  r.end = end;
  r.error = error;
  r.errorAt = errorAt;
  r.errorEnd = errorEnd;
  return r;
}

function numberEnd(text: string, i: number, start: number, kind: string): NumberScan {
  if (!idChar(text.charCodeAt(i))) return numberScan(i, undefined, i);
  for (const k of AFTER_NUMBER) if (text.startsWith(k, i) && !idChar(text.charCodeAt(i + k.length))) return numberScan(i, undefined, i);
  // CPython points at the number for a decimal literal, after it otherwise.
  return numberScan(i, `invalid ${kind} literal`, kind === 'decimal' && text.charCodeAt(i) !== 95 ? start : i);
}

/** A number literal at `start`, with CPython's error for a malformed one. */
function scanNumber(text: string, start: number, end: number): NumberScan {
  let i = start;
  const c0 = text.charCodeAt(i);
  const c1 = text.charCodeAt(i + 1) | 32;
  if (c0 === 48 && (c1 === 120 || c1 === 111 || c1 === 98)) {
    const base = c1 === 120 ? 16 : c1 === 111 ? 8 : 2;
    const kind = base === 16 ? 'hexadecimal' : base === 8 ? 'octal' : 'binary';
    i += 2;
    if (text.charCodeAt(i) === 95) i++;
    const e = digitsEnd(text, i, end, base);
    if (e !== -1) i = e;
    const next = text.charCodeAt(i);
    if (base !== 16 && next >= 48 && next <= 57) return numberScan(i, `invalid digit '${text[i]}' in ${kind} literal`, i);
    if (e === -1) return numberScan(i, `invalid ${kind} literal`, i);
    return numberEnd(text, i, start, kind);
  }
  let fraction = false;
  if (c0 === 46) {
    i = digitsEnd(text, i + 1, end, 10);
    fraction = true;
  } else {
    i = digitsEnd(text, i, end, 10);
    if (text.charCodeAt(i) === 95) return numberScan(i, 'invalid decimal literal', i);
    if (text.charCodeAt(i) === 46) {
      fraction = true;
      const e = digitsEnd(text, i + 1, end, 10);
      i = e === -1 ? i + 1 : e;
    }
    if (!fraction && c0 === 48 && i - start > 1) {
      const next = text.charCodeAt(i) | 32;
      if (next !== 101 && next !== 106 && /[1-9]/.test(text.slice(start, i))) {
        return numberScan(i, 'leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers', start, start + 1);
      }
    }
  }
  if ((text.charCodeAt(i) | 32) === 101) {
    const e = i;
    i++;
    if (text.charCodeAt(i) === 43 || text.charCodeAt(i) === 45) i++;
    const d = digitsEnd(text, i, end, 10);
    if (d === -1) return numberScan(e, 'invalid decimal literal', start);
    i = d;
  }
  if ((text.charCodeAt(i) | 32) === 106) return numberEnd(text, i + 1, start, 'imaginary');
  return numberEnd(text, i, start, 'decimal');
}

/** An ERROR or MISSING node of the parse tree (0-based positions). */
export interface TreeError {
  line: number;
  col: number;
  endLine: number;
  endCol: number;
  /** The node type tree-sitter inserted, for a MISSING node. */
  missing?: string;
}

/** "invalid syntax" where the parse tree breaks. */
function generic(t: TreeError): PyError {
  return { kind: 'SyntaxError', message: 'invalid syntax', line: t.line, col: t.col, endLine: t.endLine, endCol: t.endCol, phase: 'parser' };
}

const byPosition = (a: { line: number; col: number }, b: { line: number; col: number }) => a.line - b.line || a.col - b.col;

function contains(outer: TreeError, p: { line: number; col: number }): boolean {
  const startsBefore = outer.line < p.line || (outer.line === p.line && outer.col <= p.col);
  const endsAfter = outer.endLine > p.line || (outer.endLine === p.line && outer.endCol >= p.col);
  return startsBefore && endsAfter;
}

/** Where the tree breaks first: the first error node, or the first one nested in it (tree-sitter wraps the construct around a break). */
function firstBreak(tree: readonly TreeError[]): TreeError | undefined {
  const sorted = [...tree].sort(byPosition);
  let e = sorted[0];
  for (const t of sorted.slice(1)) if (e && contains(e, t) && (t.endLine < e.endLine || (t.endLine === e.endLine && t.endCol <= e.endCol))) e = t;
  return e;
}

/**
 * The error CPython raises first for a region, as if it were the first broken part of the file: a
 * tokenizer error wins (CPython tokenizes the rest of the file before it reports a parser error); then
 * the first parser error, from the scan or the parse tree ("invalid syntax"), unless a bracket still open
 * at the end of the region opened on an earlier line; then the errors the compiler raises on a tree that
 * parses.
 */
export function regionError(scan: RegionScan, tree: readonly TreeError[]): PyError | undefined {
  // An unexpected indent is final: CPython raises it without reading on (a tokenizer error before it still comes first).
  const indent = scan.parser.find((e) => e.message === 'unexpected indent');
  if (scan.tokenizer && indent && byPosition(indent, scan.tokenizer) < 0 && !tree.some((t) => byPosition(t, indent) < 0)) return indent;
  if (scan.tokenizer) return scan.tokenizer;
  if (!scan.parser.length && !scan.unclosed && !tree.length && !scan.compile.length) return undefined;
  const specific = scan.parser;
  let broken = firstBreak(tree);
  // tree-sitter breaks at a decorator with no definition after it; Python fails on the line after it.
  if (broken && scan.decorators.includes(broken.line)) {
    const next = scan.logical.find((l) => l > broken!.line && !scan.decorators.includes(l));
    broken = next === undefined ? broken : { line: next, col: 0, endLine: next, endCol: 0 };
  }
  let p = specific[0];
  if (p && broken) {
    // A header that does not parse itself fails there, before its missing ':' or its block.
    if (p.headerLine !== undefined && broken.line === p.headerLine && (p.keywordEnd === undefined || broken.col >= p.keywordEnd)) p = generic(broken);
    // A break before the error, unless it is the broken header around it.
    else if (broken.line < p.line && !(p.headerLine !== undefined && contains(broken, p))) p = generic(broken);
  } else if (broken) p = generic(broken);
  // CPython reports a bracket never closed instead of a parser error only when the bracket opens on an earlier
  // line; the parse tree's break around the bracket is the bracket's.
  const u = scan.unclosed;
  if (p) return u && (u.line < p.line || (p.message === 'invalid syntax' && broken && contains(broken, u) && u.line < broken.endLine)) ? u : p;
  if (scan.unclosed) return scan.unclosed;
  return [...scan.compile].sort(byPosition)[0];
}
