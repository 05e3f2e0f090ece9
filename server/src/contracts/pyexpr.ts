// Annotation expressions as Python's `ast` sees them: a small parser for the expression subset that
// annotations use, and `unparse` printing a node the way `ast.unparse` does. The SDK's string path
// (`_contract_ast`) parses every postponed or string annotation with `ast`, so contracts do the same
// with the annotation text the model holds; nothing is evaluated.
import { evalNumber, evalStringLiteral } from '../model/literals';
import { constantValue, pyRepr } from './pyvalue';

export type Expr =
  | { type: 'Name'; id: string }
  | { type: 'Attribute'; value: Expr; attr: string }
  | { type: 'Subscript'; value: Expr; slice: Expr }
  | { type: 'Tuple'; elts: Expr[]; parens: boolean }
  | { type: 'List'; elts: Expr[] }
  /** A `**mapping` entry has a null key, as in Python's ast. */
  | { type: 'Dict'; keys: (Expr | null)[]; values: Expr[] }
  | { type: 'Set'; elts: Expr[] }
  | { type: 'Constant'; kind: 'str'; value: string }
  | { type: 'Constant'; kind: 'bytes'; value: string }
  | { type: 'Constant'; kind: 'int'; value: bigint }
  | { type: 'Constant'; kind: 'float' | 'complex'; value: number }
  | { type: 'Constant'; kind: 'bool'; value: boolean }
  | { type: 'Constant'; kind: 'None' | 'Ellipsis' }
  | { type: 'BinOp'; op: string; left: Expr; right: Expr }
  | { type: 'UnaryOp'; op: string; operand: Expr }
  | { type: 'Call'; func: Expr; args: Expr[]; keywords: { arg?: string; value: Expr }[] }
  | { type: 'Starred'; value: Expr };

interface Token {
  kind: 'name' | 'number' | 'string' | 'op' | 'end';
  text: string;
}

const OPS = ['**', '//', '->', '...', '<<', '>>', '==', '!=', '<=', '>=', '|', '&', '^', '+', '-', '*', '/', '%', '@', '~', '(', ')', '[', ']', '{', '}', ',', ':', '.', '=', '<', '>'];

// Sticky patterns: each is tried at one offset (`lastIndex`), so tokenizing stays linear in the text.
const STRING_START = /(?:[rRbBuU]|[rR][bB]|[bB][rR])?('\'\'\'|"""|'|")/y;
const FSTRING_START = /(?:[fF][rR]?|[rR][fF])['"]/y;
const NUMBER = /(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?)[jJ]?/y;
const NAME = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*/uy;

function matchAt(re: RegExp, src: string, i: number): RegExpExecArray | null {
  re.lastIndex = i;
  return re.exec(src);
}

/** Tokens of an expression; undefined where Python's tokenizer fails (or for f-strings, which are not types). Comments are skipped. */
function tokenize(src: string): Token[] | undefined {
  const out: Token[] = [];
  let i = 0;
  /** Open brackets: past MAX_NESTING Python's tokenizer stops ("too many nested parentheses"), and so does this one, before the rest of a long text. */
  let depth = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if (c === '\\' && (src[i + 1] === '\n' || src[i + 1] === '\r')) {
      i += 2;
      continue;
    }
    if (c === '#') {
      // A comment runs to the end of its line (inside brackets the expression goes on after it).
      while (i < src.length && src[i] !== '\n' && src[i] !== '\r') i++;
      continue;
    }
    if (matchAt(FSTRING_START, src, i)) return undefined;
    const str = matchAt(STRING_START, src, i);
    if (str) {
      const quote = str[1];
      let j = i + str[0].length;
      while (j < src.length && !src.startsWith(quote, j)) {
        if (src[j] === '\\') j++;
        else if (quote.length === 1 && (src[j] === '\n' || src[j] === '\r')) return undefined;
        j++;
      }
      if (j >= src.length) return undefined;
      out.push({ kind: 'string', text: src.slice(i, j + quote.length) });
      i = j + quote.length;
      continue;
    }
    if (/[\d.]/.test(c) && !(c === '.' && !/\d/.test(src[i + 1] ?? ''))) {
      const num = matchAt(NUMBER, src, i);
      if (!num) return undefined;
      // `1if`, `0x1g`: a number runs straight into a name (Python rejects most of these).
      if (/[\p{L}\p{Nl}_\d]/u.test(src[i + num[0].length] ?? '')) return undefined;
      out.push({ kind: 'number', text: num[0] });
      i += num[0].length;
      continue;
    }
    const name = matchAt(NAME, src, i);
    if (name) {
      out.push({ kind: 'name', text: name[0] });
      i += name[0].length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) return undefined;
    if (op === '(' || op === '[' || op === '{') {
      if (++depth > MAX_NESTING) return undefined;
    } else if (op === ')' || op === ']' || op === '}') depth--;
    out.push({ kind: 'op', text: op });
    i += op.length;
  }
  out.push({ kind: 'end', text: '' });
  return out;
}

const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'is', 'if', 'else', 'lambda', 'await', 'yield', 'for', 'def', 'class', 'return', 'import', 'from', 'as', 'pass', 'del', 'global', 'nonlocal', 'assert', 'break', 'continue', 'raise', 'try', 'except', 'finally', 'while', 'with', 'async']);

class ParseError extends Error {}

/** Python's tokenizer refuses more than 200 nested brackets; unary chains count too (each is a level of recursion here). */
const MAX_NESTING = 200;
/** Deeper trees are refused: every later pass (unparse, evaluation, TypeSpec) recurses over the tree. */
const MAX_TREE_DEPTH = 400;

class Parser {
  private pos = 0;
  private nesting = 0;
  constructor(private toks: Token[]) {}

  private enter(): void {
    if (++this.nesting > MAX_NESTING) throw new ParseError('too deeply nested');
  }
  private leave(): void {
    this.nesting--;
  }

  private peek(): Token {
    return this.toks[this.pos];
  }
  private next(): Token {
    return this.toks[this.pos++];
  }
  private isOp(text: string): boolean {
    const t = this.peek();
    return t.kind === 'op' && t.text === text;
  }
  private expect(text: string): void {
    if (!this.isOp(text)) throw new ParseError(text);
    this.pos++;
  }

  parseEval(): Expr {
    const e = this.exprList();
    if (this.peek().kind !== 'end') throw new ParseError('trailing');
    return e;
  }

  /** A comma-separated expression list (a bare tuple when there is a comma). */
  private exprList(): Expr {
    const first = this.expr();
    if (!this.isOp(',')) return first;
    const elts = [first];
    while (this.isOp(',')) {
      this.pos++;
      if (this.atListEnd()) break;
      elts.push(this.expr());
    }
    return { type: 'Tuple', elts, parens: false };
  }

  private atListEnd(): boolean {
    const t = this.peek();
    return t.kind === 'end' || (t.kind === 'op' && (t.text === ')' || t.text === ']' || t.text === '}'));
  }

  private expr(): Expr {
    if (this.isOp('*')) {
      this.pos++;
      return { type: 'Starred', value: this.bitor() };
    }
    const t = this.peek();
    if (t.kind === 'name' && (t.text === 'lambda' || t.text === 'not' || t.text === 'await' || t.text === 'yield')) throw new ParseError('unsupported');
    const e = this.bitor();
    const n = this.peek();
    if (n.kind === 'name' && KEYWORDS.has(n.text)) throw new ParseError('unsupported');
    if (n.kind === 'op' && ['==', '!=', '<', '>', '<=', '>=', '='].includes(n.text) && n.text !== '=') throw new ParseError('unsupported');
    return e;
  }

  private binary(ops: string[], sub: () => Expr): Expr {
    let left = sub();
    while (this.peek().kind === 'op' && ops.includes(this.peek().text)) {
      const op = this.next().text;
      left = { type: 'BinOp', op, left, right: sub() };
    }
    return left;
  }

  private bitor = (): Expr => this.binary(['|'], this.bitxor);
  private bitxor = (): Expr => this.binary(['^'], this.bitand);
  private bitand = (): Expr => this.binary(['&'], this.shift);
  private shift = (): Expr => this.binary(['<<', '>>'], this.arith);
  private arith = (): Expr => this.binary(['+', '-'], this.term);
  private term = (): Expr => this.binary(['*', '/', '//', '%', '@'], this.factor);

  private factor = (): Expr => {
    if (this.peek().kind === 'op' && ['-', '+', '~'].includes(this.peek().text)) {
      const op = this.next().text;
      this.enter();
      const operand = this.factor();
      this.leave();
      return { type: 'UnaryOp', op, operand };
    }
    return this.power();
  };

  private power(): Expr {
    const base = this.primary();
    if (this.isOp('**')) {
      this.pos++;
      this.enter();
      const right = this.factor();
      this.leave();
      return { type: 'BinOp', op: '**', left: base, right };
    }
    return base;
  }

  private primary(): Expr {
    let e = this.atom();
    for (;;) {
      if (this.isOp('.')) {
        this.pos++;
        const n = this.next();
        if (n.kind !== 'name') throw new ParseError('attr');
        e = { type: 'Attribute', value: e, attr: n.text };
      } else if (this.isOp('[')) {
        this.pos++;
        this.enter();
        const slice = this.sliceList();
        this.expect(']');
        this.leave();
        e = { type: 'Subscript', value: e, slice };
      } else if (this.isOp('(')) {
        this.pos++;
        this.enter();
        const args: Expr[] = [];
        const keywords: { arg?: string; value: Expr }[] = [];
        while (!this.isOp(')')) {
          const t = this.peek();
          if (t.kind === 'name' && this.toks[this.pos + 1]?.kind === 'op' && this.toks[this.pos + 1].text === '=') {
            this.pos += 2;
            keywords.push({ arg: t.text, value: this.expr() });
          } else if (this.isOp('**')) {
            this.pos++;
            keywords.push({ value: this.expr() });
          } else {
            args.push(this.expr());
          }
          if (!this.isOp(',')) break;
          this.pos++;
        }
        this.expect(')');
        this.leave();
        e = { type: 'Call', func: e, args, keywords };
      } else {
        return e;
      }
    }
  }

  private sliceList(): Expr {
    const first = this.expr();
    if (this.isOp(':')) throw new ParseError('slice');
    if (!this.isOp(',')) return first;
    const elts = [first];
    while (this.isOp(',')) {
      this.pos++;
      if (this.isOp(']')) break;
      elts.push(this.expr());
    }
    return { type: 'Tuple', elts, parens: false };
  }

  private atom(): Expr {
    const t = this.next();
    switch (t.kind) {
      case 'name':
        if (t.text === 'None') return { type: 'Constant', kind: 'None' };
        if (t.text === 'True' || t.text === 'False') return { type: 'Constant', kind: 'bool', value: t.text === 'True' };
        if (KEYWORDS.has(t.text)) throw new ParseError('keyword');
        return { type: 'Name', id: t.text };
      case 'number':
        return numberConstant(t.text);
      case 'string': {
        let value = '';
        let bytes: boolean | undefined;
        for (let s: Token = t; ; ) {
          const v = evalStringLiteral(s.text);
          if (!v) throw new ParseError('string');
          if (bytes !== undefined && bytes !== v.bytes) throw new ParseError('mixed');
          bytes = v.bytes;
          value += v.value;
          if (this.peek().kind !== 'string') break;
          s = this.next();
        }
        return bytes ? { type: 'Constant', kind: 'bytes', value } : { type: 'Constant', kind: 'str', value };
      }
      case 'op':
        if (t.text === '...') return { type: 'Constant', kind: 'Ellipsis' };
        if (t.text === '(' || t.text === '[' || t.text === '{') {
          this.enter();
          const e = this.bracket(t.text);
          this.leave();
          return e;
        }
        throw new ParseError('op');
      default:
        throw new ParseError('end');
    }
  }

  /** A parenthesised expression or tuple, a list, a dict or a set display, after its opening bracket. */
  private bracket(open: string): Expr {
    if (open === '(') {
      if (this.isOp(')')) {
        this.pos++;
        return { type: 'Tuple', elts: [], parens: true };
      }
      const inner = this.exprList();
      this.expect(')');
      return inner.type === 'Tuple' ? { ...inner, parens: true } : inner;
    }
    if (open === '[') {
      const elts: Expr[] = [];
      while (!this.isOp(']')) {
        elts.push(this.expr());
        if (!this.isOp(',')) break;
        this.pos++;
      }
      this.expect(']');
      return { type: 'List', elts };
    }
    if (this.isOp('}')) {
      this.pos++;
      return { type: 'Dict', keys: [], values: [] };
    }
    const splat = this.isOp('**');
    if (splat) this.pos++;
    const first = splat ? this.bitor() : this.expr();
    if (splat || this.isOp(':')) {
      if (!splat) this.pos++;
      const keys: (Expr | null)[] = [splat ? null : first];
      const values = [splat ? first : this.expr()];
      while (this.isOp(',')) {
        this.pos++;
        if (this.isOp('}')) break;
        if (this.isOp('**')) {
          this.pos++;
          keys.push(null);
          values.push(this.bitor());
          continue;
        }
        keys.push(this.expr());
        this.expect(':');
        values.push(this.expr());
      }
      this.expect('}');
      return { type: 'Dict', keys, values };
    }
    const elts = [first];
    while (this.isOp(',')) {
      this.pos++;
      if (this.isOp('}')) break;
      elts.push(this.expr());
    }
    this.expect('}');
    return { type: 'Set', elts };
  }
}

function numberConstant(text: string): Expr {
  const n = evalNumber(text);
  if (!n) throw new ParseError('number');
  if (n.kind !== 'int') return { type: 'Constant', kind: n.kind, value: n.value };
  const value = parseIntExact(text);
  // `012`: leading zeros are a SyntaxError in Python 3 (except for zero itself).
  if (value === undefined || /^0\d*[1-9]/.test(text.replace(/_/g, ''))) throw new ParseError('number');
  return { type: 'Constant', kind: 'int', value };
}

/** An int literal's exact value (any base, underscores), or undefined when the text is not one. */
export function parseIntExact(text: string): bigint | undefined {
  const s = text.replace(/_/g, '').trim();
  try {
    if (/^0[oO]/.test(s)) return BigInt('0o' + s.slice(2));
    if (/^0[xXbB]/.test(s)) return BigInt(s.toLowerCase());
    return BigInt(s);
  } catch {
    return undefined;
  }
}

/** Parses an expression as `ast.parse(text, mode="eval").body` would; undefined where Python raises SyntaxError (or for forms this subset does not cover). */
export function parseExpr(text: string): Expr | undefined {
  if (memo.has(text)) return memo.get(text);
  const e = parseUncached(text);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(text, e);
  return e;
}

// Annotations repeat (`str`, `int | None`...): parsed trees are never mutated, so they are shared.
const memo = new Map<string, Expr | undefined>();
const MEMO_LIMIT = 10_000;

function parseUncached(text: string): Expr | undefined {
  // A leading indent is an IndentationError for ast.parse in eval mode too.
  if (/^[ \t]/.test(text)) return undefined;
  const toks = tokenize(text);
  if (!toks || toks.length === 1) return undefined;
  try {
    const e = new Parser(toks).parseEval();
    return treeDepth(e) <= MAX_TREE_DEPTH ? e : undefined;
  } catch (e) {
    // A RangeError is the stack running out on input deeper than the limits foresee: still no tree.
    if (e instanceof ParseError || e instanceof RangeError) return undefined;
    throw e;
  }
}

/** The depth of a tree, without recursion (a long `a | b | c ...` chain is a deep left spine). */
function treeDepth(root: Expr): number {
  let max = 0;
  const stack: [Expr, number][] = [[root, 1]];
  while (stack.length) {
    const [e, d] = stack.pop()!;
    if (d > max) max = d;
    if (max > MAX_TREE_DEPTH) return max;
    for (const c of children(e)) stack.push([c, d + 1]);
  }
  return max;
}

function children(e: Expr): Expr[] {
  switch (e.type) {
    case 'Attribute':
    case 'Starred':
      return [e.value];
    case 'Subscript':
      return [e.value, e.slice];
    case 'Tuple':
    case 'List':
    case 'Set':
      return e.elts;
    case 'Dict':
      return [...e.keys.filter((k): k is Expr => k !== null), ...e.values];
    case 'BinOp':
      return [e.left, e.right];
    case 'UnaryOp':
      return [e.operand];
    case 'Call':
      return [e.func, ...e.args, ...e.keywords.map((k) => k.value)];
    default:
      return [];
  }
}

// ---------------------------------------------------------------------------------------------
// ast.unparse

const PRECEDENCE: Record<string, number> = { '|': 5, '^': 6, '&': 7, '<<': 8, '>>': 8, '+': 9, '-': 9, '*': 10, '/': 10, '//': 10, '%': 10, '@': 10, '**': 12 };
const TUPLE = 0;
const TEST = 1;
const FACTOR = 11;
const ATOM = 14;

/** The source text `ast.unparse` prints for a node. */
export function unparse(e: Expr): string {
  return up(e, TEST);
}

function up(e: Expr, level: number): string {
  switch (e.type) {
    case 'Name':
      return e.id;
    case 'Attribute': {
      const base = up(e.value, ATOM);
      // `1 .real`: ast.unparse puts a space after an int literal.
      return (e.value.type === 'Constant' && e.value.kind === 'int' ? base + ' ' : base) + '.' + e.attr;
    }
    case 'Subscript': {
      const slice = e.slice.type === 'Tuple' && e.slice.elts.length > 0 ? e.slice.elts.map((x) => up(x, TEST)).join(', ') : up(e.slice, TUPLE);
      return `${up(e.value, ATOM)}[${slice}]`;
    }
    case 'Tuple': {
      if (e.elts.length === 0) return '()';
      const inner = e.elts.length === 1 ? up(e.elts[0], TEST) + ',' : e.elts.map((x) => up(x, TEST)).join(', ');
      return level > TUPLE ? `(${inner})` : inner;
    }
    case 'List':
      return `[${e.elts.map((x) => up(x, TEST)).join(', ')}]`;
    case 'Set':
      return `{${e.elts.map((x) => up(x, TEST)).join(', ')}}`;
    case 'Dict':
      return `{${e.keys.map((k, i) => (k === null ? `**${up(e.values[i], 6)}` : `${up(k, TEST)}: ${up(e.values[i], TEST)}`)).join(', ')}}`;
    case 'Constant':
      return constantRepr(e);
    case 'BinOp': {
      const p = PRECEDENCE[e.op];
      // Left-associative except **, which is right-associative.
      const leftLevel = e.op === '**' ? p + 1 : p;
      const rightLevel = e.op === '**' ? p : p + 1;
      const s = `${up(e.left, leftLevel)} ${e.op} ${up(e.right, rightLevel)}`;
      return level > p ? `(${s})` : s;
    }
    case 'UnaryOp': {
      const s = `${e.op}${up(e.operand, FACTOR)}`;
      return level > FACTOR ? `(${s})` : s;
    }
    case 'Call': {
      const args = [...e.args.map((a) => up(a, TEST)), ...e.keywords.map((k) => (k.arg ? `${k.arg}=${up(k.value, TEST)}` : `**${up(k.value, TEST)}`))];
      return `${up(e.func, ATOM)}(${args.join(', ')})`;
    }
    case 'Starred':
      return `*${up(e.value, 5)}`;
  }
}

/** `ast.unparse` of a constant: its repr, except `...` for Ellipsis and 1e309 for an infinite float. */
function constantRepr(e: Extract<Expr, { type: 'Constant' }>): string {
  if (e.kind === 'Ellipsis') return '...';
  if ((e.kind === 'float' || e.kind === 'complex') && !Number.isFinite(e.value)) return e.kind === 'float' ? '1e309' : '1e309j';
  return pyRepr(constantValue(e))!;
}
