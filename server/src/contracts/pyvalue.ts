// Python values as the interpreter builds them from a default or a `Literal[...]` argument, computed
// statically from the expression's tree: constants, containers with Python's own equality (a dict
// display keeps the first of `1`, `True` and `1.0` as its key and the last value), and arithmetic on
// literals where the result is exact (`10**3`, `-(1)`, `2*8`, `'-' * 3`). Names are followed through a
// module's bindings by the caller's `Env`. Nothing is run, and nothing here throws: what cannot be
// known is an `Unknown` that says why.
import type { Expr } from './pyexpr';
import { pyBytesRepr, pyComplexRepr, pyFloatRepr, pyStrRepr } from './pyrepr';

export type PyValue =
  | { t: 'None' }
  | { t: 'Ellipsis' }
  | { t: 'bool'; v: boolean }
  | { t: 'int'; v: bigint }
  | { t: 'float'; v: number }
  | { t: 'complex'; re: number; im: number }
  | { t: 'str'; v: string }
  /** One character per byte (0–255). */
  | { t: 'bytes'; v: string }
  | { t: 'tuple' | 'list'; items: PyValue[] }
  /** Distinct members (by Python's ==) in insertion order. */
  | { t: 'set' | 'frozenset'; items: PyValue[] }
  /** Distinct keys in insertion order, each with its (last) value. */
  | { t: 'dict'; keys: PyValue[]; values: PyValue[] }
  /**
   * Any other object, by its type's name: a function, a class (`type`), an instance of a class, an
   * enum member, a module. `id` is set when two references are known to be the same object.
   */
  | { t: 'object'; type: string; id?: string };

export interface Unknown {
  t: 'unknown';
  /** Why the value is not known statically, as a clause: "a call result (`make()`)". */
  reason: string;
}

export type Result = PyValue | Unknown;

export function isUnknown<T>(r: T | Unknown): r is Unknown {
  return !Array.isArray(r) && (r as { t?: string }).t === 'unknown';
}
export const unknown = (reason: string): Unknown => ({ t: 'unknown', reason });

/** How names and attributes are found: the module's bindings, imports and builtins (see `moduleEnv`). */
export interface Env {
  name(id: string, depth: number): Result;
  /** `base.attr`, where `base` is already evaluated (a module, a class...). */
  attribute(base: PyValue, attr: string, source: string, depth: number): Result;
  /** `callee(...)`: a class call builds an instance, a builtin may be folded; anything else is a call result. */
  call(callee: PyValue, args: Result[], keywords: { arg?: string; value: Result }[], source: string, depth: number): Result;
}

/** Containers and strings longer than this are not built (Vis renders at most 4096 characters anyway). */
export const MAX_ITEMS = 100_000;
/** Integers are not built past this many bits (`2 ** 10 ** 9`). */
const MAX_BITS = 1_000_000;
const MAX_DEPTH = 64;

const NONE: PyValue = { t: 'None' };

// ---------------------------------------------------------------------------------------------
// Evaluation

/** The value `expr` evaluates to, or why that is not known. */
export function evaluate(expr: Expr, env: Env, depth = 0): Result {
  if (depth > MAX_DEPTH) return unknown('the expression nests too deeply to evaluate');
  switch (expr.type) {
    case 'Constant':
      return constantValue(expr);
    case 'Name':
      return env.name(expr.id, depth + 1);
    case 'Attribute': {
      const base = evaluate(expr.value, env, depth + 1);
      if (isUnknown(base)) return base;
      return env.attribute(base, expr.attr, sourceOf(expr), depth + 1);
    }
    case 'Tuple':
    case 'List': {
      const items = elements(expr.elts, env, depth);
      if (isUnknown(items)) return items;
      return { t: expr.type === 'Tuple' ? 'tuple' : 'list', items };
    }
    case 'Set': {
      const items = elements(expr.elts, env, depth);
      if (isUnknown(items)) return items;
      return buildSet('set', items);
    }
    case 'Dict': {
      const keys: PyValue[] = [];
      const values: PyValue[] = [];
      for (let i = 0; i < expr.keys.length; i++) {
        const key = expr.keys[i];
        const v = evaluate(expr.values[i], env, depth + 1);
        if (isUnknown(v)) return v;
        if (key === null) {
          // `**mapping`: its entries in order, as `d.update(mapping)`.
          if (v.t !== 'dict') return unknown(`\`**\` of a ${typeName(v)} is not evaluated`);
          for (let j = 0; j < v.keys.length; j++) {
            const err = dictSet(keys, values, v.keys[j], v.values[j]);
            if (err) return err;
          }
          continue;
        }
        const k = evaluate(key, env, depth + 1);
        if (isUnknown(k)) return k;
        const err = dictSet(keys, values, k, v);
        if (err) return err;
      }
      return { t: 'dict', keys, values };
    }
    case 'UnaryOp': {
      const operand = evaluate(expr.operand, env, depth + 1);
      return isUnknown(operand) ? operand : unaryOp(expr.op, operand);
    }
    case 'BinOp': {
      const left = evaluate(expr.left, env, depth + 1);
      if (isUnknown(left)) return left;
      const right = evaluate(expr.right, env, depth + 1);
      if (isUnknown(right)) return right;
      return binaryOp(expr.op, left, right);
    }
    case 'Call': {
      const callee = evaluate(expr.func, env, depth + 1);
      if (isUnknown(callee)) return callee;
      const args = expr.args.map((a) => (a.type === 'Starred' ? unknown('a `*` argument') : evaluate(a, env, depth + 1)));
      const keywords = expr.keywords.map((k) => ({ arg: k.arg, value: k.arg === undefined ? unknown('a `**` argument') : evaluate(k.value, env, depth + 1) }));
      return env.call(callee, args, keywords, sourceOf(expr), depth + 1);
    }
    case 'Subscript':
      return unknown(`a subscript (\`${sourceOf(expr)}\`) is not evaluated`);
    case 'Starred':
      return unknown('a `*` unpacking outside a display');
  }
  return unknown('an expression the checker does not evaluate');
}

/** The value of a literal: `ast.Constant.value`. */
export function constantValue(expr: Extract<Expr, { type: 'Constant' }>): PyValue {
  switch (expr.kind) {
    case 'None':
      return NONE;
    case 'Ellipsis':
      return { t: 'Ellipsis' };
    case 'bool':
      return { t: 'bool', v: expr.value };
    case 'int':
      return { t: 'int', v: expr.value };
    case 'float':
      return { t: 'float', v: expr.value };
    case 'complex':
      return { t: 'complex', re: 0, im: expr.value };
    case 'str':
      return { t: 'str', v: expr.value };
    case 'bytes':
      return { t: 'bytes', v: expr.value };
  }
}

function elements(elts: Expr[], env: Env, depth: number): PyValue[] | Unknown {
  const out: PyValue[] = [];
  for (const e of elts) {
    if (e.type === 'Starred') {
      const inner = evaluate(e.value, env, depth + 1);
      if (isUnknown(inner)) return inner;
      const items = iterate(inner);
      if (isUnknown(items)) return items;
      out.push(...items);
    } else {
      const v = evaluate(e, env, depth + 1);
      if (isUnknown(v)) return v;
      out.push(v);
    }
    if (out.length > MAX_ITEMS) return unknown('the value is too large to evaluate statically');
  }
  return out;
}

/** `iter(v)` as a list, for the iterables whose order is known. */
export function iterate(v: PyValue): PyValue[] | Unknown {
  switch (v.t) {
    case 'tuple':
    case 'list':
      return v.items;
    case 'str':
      return [...v.v].map((c) => ({ t: 'str', v: c }) as PyValue);
    case 'bytes':
      return [...v.v].map((c) => ({ t: 'int', v: BigInt(c.charCodeAt(0)) }) as PyValue);
    case 'dict':
      return v.keys;
    case 'set':
    case 'frozenset': {
      const order = setOrder(v.items);
      return order ?? unknown(SET_ORDER);
    }
    default:
      return v.t === 'object' ? unknown(`iterating a ${v.type} is not evaluated`) : unknown(`TypeError: '${typeName(v)}' object is not iterable`);
  }
}

/** The text of a tree, for messages (short). */
function sourceOf(e: Expr): string {
  switch (e.type) {
    case 'Name':
      return e.id;
    case 'Attribute':
      return `${sourceOf(e.value)}.${e.attr}`;
    case 'Call':
      return `${sourceOf(e.func)}(${e.args.length || e.keywords.length ? '...' : ''})`;
    case 'Subscript':
      return `${sourceOf(e.value)}[...]`;
    default:
      return '...';
  }
}

// ---------------------------------------------------------------------------------------------
// Types, equality and hashing

export function typeName(v: PyValue): string {
  switch (v.t) {
    case 'None':
      return 'NoneType';
    case 'Ellipsis':
      return 'ellipsis';
    case 'object':
      return v.type;
    default:
      return v.t;
  }
}

/** A real number as Python compares it: ints and bools exactly, floats as doubles. */
type Real = { exact: bigint } | { float: number };

function real(v: PyValue): Real | undefined {
  if (v.t === 'bool') return { exact: v.v ? 1n : 0n };
  if (v.t === 'int') return { exact: v.v };
  if (v.t === 'float') return { float: v.v };
  return undefined;
}

function realEquals(a: Real, b: Real): boolean {
  if ('exact' in a && 'exact' in b) return a.exact === b.exact;
  if ('float' in a && 'float' in b) return a.float === b.float;
  const [e, f] = 'exact' in a ? [a.exact, (b as { float: number }).float] : [(b as { exact: bigint }).exact, (a as { float: number }).float];
  return Number.isInteger(f) && BigInt(f) === e;
}

/** A number as a complex with exact parts where it is an int: Python compares int and float exactly, not through a float. */
function numberParts(v: PyValue): { re: Real; im: number } | undefined {
  if (v.t === 'complex') return { re: { float: v.re }, im: v.im };
  const r = real(v);
  return r && { re: r, im: 0 };
}

/** Python's `a == b` for the values here; undefined when it depends on a class's own `__eq__`. */
export function pyEquals(a: PyValue, b: PyValue, depth = 0): boolean | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const na = numberParts(a);
  const nb = numberParts(b);
  if (na && nb) return na.im === nb.im && realEquals(na.re, nb.re);
  if (a.t === 'object' || b.t === 'object') {
    if (a.t === 'object' && b.t === 'object' && a.id !== undefined && a.id === b.id) return true;
    // Two different functions, classes or enum members are never equal; instances may define __eq__.
    const plain = (v: PyValue) => v.t !== 'object' || (v.id !== undefined && !v.id.startsWith('instance:'));
    return plain(a) && plain(b) ? false : undefined;
  }
  if (a.t !== b.t) {
    if ((a.t === 'set' || a.t === 'frozenset') && (b.t === 'set' || b.t === 'frozenset')) return setEquals(a.items, b.items, depth);
    return false;
  }
  switch (a.t) {
    case 'None':
    case 'Ellipsis':
      return true;
    case 'str':
    case 'bytes':
      return a.v === (b as typeof a).v;
    case 'tuple':
    case 'list': {
      const bi = (b as typeof a).items;
      if (a.items.length !== bi.length) return false;
      for (let i = 0; i < bi.length; i++) {
        const eq = pyEquals(a.items[i], bi[i], depth + 1);
        if (eq !== true) return eq;
      }
      return true;
    }
    case 'set':
    case 'frozenset':
      return setEquals(a.items, (b as typeof a).items, depth);
    case 'dict': {
      const bd = b as typeof a;
      if (a.keys.length !== bd.keys.length) return false;
      for (let i = 0; i < a.keys.length; i++) {
        const j = indexOf(bd.keys, a.keys[i], depth + 1);
        if (j === undefined) return undefined;
        if (j === -1) return false;
        const eq = pyEquals(a.values[i], bd.values[j], depth + 1);
        if (eq !== true) return eq;
      }
      return true;
    }
  }
  return undefined;
}

function setEquals(a: PyValue[], b: PyValue[], depth: number): boolean | undefined {
  if (a.length !== b.length) return false;
  for (const x of a) {
    const j = indexOf(b, x, depth + 1);
    if (j === undefined) return undefined;
    if (j === -1) return false;
  }
  return true;
}

/** The index of the member equal to `v`, -1 when there is none, undefined when equality is not known. */
function indexOf(list: PyValue[], v: PyValue, depth = 0): number | undefined {
  let unsure = false;
  for (let i = 0; i < list.length; i++) {
    const eq = pyEquals(list[i], v, depth);
    if (eq === true) return i;
    if (eq === undefined) unsure = true;
  }
  return unsure ? undefined : -1;
}

/** Why `v` cannot be a dict key or set member (Python's TypeError), or undefined when it is hashable. */
function unhashable(v: PyValue): string | undefined {
  if (v.t === 'list' || v.t === 'dict' || v.t === 'set') return `TypeError: unhashable type: '${v.t}'`;
  if (v.t === 'tuple') {
    for (const i of v.items) {
      const r = unhashable(i);
      if (r) return r;
    }
  }
  return undefined;
}

/** NaN is not equal to itself, so a dict or set keeps NaNs apart unless they are one object: not known here. */
function hasNaN(v: PyValue): boolean {
  if (v.t === 'float') return Number.isNaN(v.v);
  if (v.t === 'complex') return Number.isNaN(v.re) || Number.isNaN(v.im);
  if (v.t === 'tuple' || v.t === 'frozenset') return v.items.some(hasNaN);
  return false;
}

/** `d[k] = v` in a dict display: an equal key keeps its first object and position and takes the new value. */
function dictSet(keys: PyValue[], values: PyValue[], k: PyValue, v: PyValue): Unknown | undefined {
  const bad = unhashable(k);
  if (bad) return unknown(`evaluating it raises ${bad}`);
  if (hasNaN(k)) return unknown('a NaN key: whether two NaN keys are one entry depends on object identity');
  const i = indexOf(keys, k);
  if (i === undefined) return unknown('a dict keyed by objects whose equality is their own `__eq__`');
  if (i === -1) {
    keys.push(k);
    values.push(v);
  } else values[i] = v;
  return undefined;
}

/** A set built from items in order: equal items after the first are dropped. */
export function buildSet(t: 'set' | 'frozenset', items: PyValue[]): PyValue | Unknown {
  const out: PyValue[] = [];
  for (const item of items) {
    const bad = unhashable(item);
    if (bad) return unknown(`evaluating it raises ${bad}`);
    if (hasNaN(item)) return unknown('a NaN member: whether two NaNs are one member depends on object identity');
    const i = indexOf(out, item);
    if (i === undefined) return unknown('a set of objects whose equality is their own `__eq__`');
    if (i === -1) out.push(item);
  }
  return { t, items: out };
}

const SET_ORDER = 'Python prints a set in hash-table order, which is not known statically for these members (str hashes change with every process)';

/**
 * The order Python iterates a set in, where it is certain: one member, or small ints (and bools) in
 * 0–7, which sit in their own slots of any CPython set table and so come out ascending. Undefined
 * otherwise.
 */
export function setOrder(items: PyValue[]): PyValue[] | undefined {
  if (items.length <= 1) return items;
  const small = (v: PyValue) => {
    const r = real(v);
    if (!r) return undefined;
    const n = 'exact' in r ? r.exact : Number.isInteger(r.float) ? BigInt(r.float) : undefined;
    return n !== undefined && n >= 0n && n < 8n ? Number(n) : undefined;
  };
  const keyed = items.map((v) => ({ v, n: small(v) }));
  if (keyed.some((k) => k.n === undefined)) return undefined;
  return keyed.sort((a, b) => a.n! - b.n!).map((k) => k.v);
}

// ---------------------------------------------------------------------------------------------
// Arithmetic


/** int → float as Python converts it (correctly rounded), or undefined on OverflowError. */
function intToFloat(n: bigint): number | undefined {
  const f = Number(n);
  return Number.isFinite(f) ? f : undefined;
}

const overflow = () => unknown('evaluating it raises OverflowError: int too large to convert to float');
const zeroDivision = (what: string) => unknown(`evaluating it raises ZeroDivisionError: ${what}`);
const typeError = (op: string, a: PyValue, b?: PyValue) =>
  unknown(
    b === undefined
      ? `evaluating it raises TypeError: bad operand type for unary ${op}: '${typeName(a)}'`
      : `evaluating it raises TypeError: unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`,
  );

function bitLength(n: bigint): number {
  return (n < 0n ? -n : n).toString(2).length;
}

export function unaryOp(op: string, v: PyValue): Result {
  if (v.t === 'object') return unknown(`\`${op}\` on a ${v.type} is not evaluated`);
  const r = real(v);
  if (op === '+' || op === '-') {
    if (r && 'exact' in r) return { t: 'int', v: op === '-' ? -r.exact : r.exact };
    if (r) return { t: 'float', v: op === '-' ? -r.float : r.float };
    if (v.t === 'complex') return op === '-' ? { t: 'complex', re: -v.re, im: -v.im } : v;
    return typeError(op, v);
  }
  if (op === '~') {
    if (r && 'exact' in r) return { t: 'int', v: ~r.exact };
    return typeError(op, v);
  }
  return unknown(`the operator ${op} is not evaluated`);
}

export function binaryOp(op: string, a: PyValue, b: PyValue): Result {
  if (a.t === 'object' || b.t === 'object') return unknown(`\`${op}\` on a ${a.t === 'object' ? a.type : typeName(b)} may be its own operator method; not evaluated`);
  const ra = real(a);
  const rb = real(b);
  if (ra && rb) {
    // bool op bool stays bool for &, |, ^.
    if (a.t === 'bool' && b.t === 'bool' && (op === '&' || op === '|' || op === '^')) {
      return { t: 'bool', v: op === '&' ? a.v && b.v : op === '|' ? a.v || b.v : a.v !== b.v };
    }
    if ('exact' in ra && 'exact' in rb) return intOp(op, ra.exact, rb.exact, a, b);
    const x = 'float' in ra ? ra.float : intToFloat(ra.exact);
    const y = 'float' in rb ? rb.float : intToFloat(rb.exact);
    if (x === undefined || y === undefined) return overflow();
    return floatOp(op, x, y, a, b);
  }
  if ((a.t === 'complex' || ra) && (b.t === 'complex' || rb)) return complexOp(op, a, b);
  return sequenceOp(op, a, b);
}

function intOp(op: string, x: bigint, y: bigint, a: PyValue, b: PyValue): Result {
  const int = (v: bigint): Result => (bitLength(v) > MAX_BITS ? unknown('the integer is too large to evaluate statically') : { t: 'int', v });
  switch (op) {
    case '+':
      return int(x + y);
    case '-':
      return int(x - y);
    case '*':
      if (bitLength(x) + bitLength(y) > MAX_BITS + 1) return unknown('the integer is too large to evaluate statically');
      return int(x * y);
    case '//':
    case '%': {
      if (y === 0n) return zeroDivision(op === '//' ? 'integer division or modulo by zero' : 'integer modulo by zero');
      let q = x / y;
      let m = x % y;
      // Python floors: the remainder takes the divisor's sign.
      if (m !== 0n && m < 0n !== y < 0n) {
        q -= 1n;
        m += y;
      }
      return { t: 'int', v: op === '//' ? q : m };
    }
    case '/': {
      if (y === 0n) return zeroDivision('division by zero');
      // Exact when both are doubles exactly: the one rounding of IEEE division is Python's.
      const limit = 2n ** 53n;
      if (x >= -limit && x <= limit && y >= -limit && y <= limit) return { t: 'float', v: Number(x) / Number(y) };
      return unknown('true division of large integers is not evaluated');
    }
    case '**': {
      if (y < 0n) {
        if (x === 0n) return zeroDivision('0.0 cannot be raised to a negative power');
        // x ** -n is the float 1 / x**n, correctly rounded when x**n is exactly a double.
        const p = bitLength(x) * Number(-y) <= 53 ? x ** -y : undefined;
        return p !== undefined ? { t: 'float', v: 1 / Number(p) } : unknown('a negative power of a large integer is not evaluated');
      }
      if (x === 0n || x === 1n || x === -1n) return { t: 'int', v: x === 0n ? (y === 0n ? 1n : 0n) : x === -1n && y % 2n === 1n ? -1n : 1n };
      if (y > BigInt(MAX_BITS) || (bitLength(x) - 1) * Number(y) > MAX_BITS) return unknown('the integer is too large to evaluate statically');
      return int(x ** y);
    }
    case '<<':
      if (y < 0n) return unknown('evaluating it raises ValueError: negative shift count');
      if (y > BigInt(MAX_BITS) || bitLength(x) + Number(y) > MAX_BITS) return unknown('the integer is too large to evaluate statically');
      return int(x << y);
    case '>>':
      if (y < 0n) return unknown('evaluating it raises ValueError: negative shift count');
      return { t: 'int', v: y > BigInt(MAX_BITS) ? (x < 0n ? -1n : 0n) : x >> y };
    case '&':
      return { t: 'int', v: x & y };
    case '|':
      return { t: 'int', v: x | y };
    case '^':
      return { t: 'int', v: x ^ y };
    default:
      return typeError(op, a, b);
  }
}

function floatOp(op: string, x: number, y: number, a: PyValue, b: PyValue): Result {
  switch (op) {
    case '+':
      return { t: 'float', v: x + y };
    case '-':
      return { t: 'float', v: x - y };
    case '*':
      return { t: 'float', v: x * y };
    case '/':
      return y === 0 ? zeroDivision('float division by zero') : { t: 'float', v: x / y };
    case '//':
    case '%': {
      if (y === 0) return zeroDivision(op === '//' ? 'float floor division by zero' : 'float modulo');
      const [div, mod] = floatDivmod(x, y);
      return { t: 'float', v: op === '//' ? div : mod };
    }
    case '**':
      return floatPow(x, y);
    default:
      return typeError(op, a, b);
  }
}

/** CPython's float_divmod (JS `%` is C's fmod on doubles). */
function floatDivmod(vx: number, wx: number): [number, number] {
  let mod = vx % wx;
  let div = (vx - mod) / wx;
  if (mod) {
    if (wx < 0 !== mod < 0) {
      mod += wx;
      div -= 1.0;
    }
  } else {
    mod = wx < 0 ? -0 : 0;
  }
  let floordiv: number;
  if (div) {
    floordiv = Math.floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
  } else {
    floordiv = Object.is(vx / wx, -0) || vx / wx < 0 ? -0 : 0;
  }
  return [floordiv, mod];
}

/** A float power where the result is exact: integral operands whose exact power is a double. */
function floatPow(x: number, y: number): Result {
  if (y === 0) return { t: 'float', v: 1 };
  if (Number.isInteger(x) && Number.isInteger(y) && y > 0 && y <= 1024 && Math.abs(x) <= 2 ** 53) {
    const p = BigInt(x) ** BigInt(y);
    const limit = 2n ** 53n;
    if (p >= -limit && p <= limit) return { t: 'float', v: Object.is(x, -0) && y % 2 === 1 ? -0 : Number(p) };
  }
  return unknown('a float power is computed by the C library; not evaluated');
}

/** Complex + and - part by part, as CPython does (a real operand is a complex with imaginary part 0). */
function complexOp(op: string, a: PyValue, b: PyValue): Result {
  const parts = (v: PyValue): { re: number; im: number } | undefined => {
    if (v.t === 'complex') return v;
    const r = real(v)!;
    const re = 'float' in r ? r.float : intToFloat(r.exact);
    return re === undefined ? undefined : { re, im: 0 };
  };
  const x = parts(a);
  const y = parts(b);
  if (!x || !y) return overflow();
  if (op === '+') return { t: 'complex', re: x.re + y.re, im: x.im + y.im };
  if (op === '-') return { t: 'complex', re: x.re - y.re, im: x.im - y.im };
  if (op === '*' || op === '/' || op === '**') return unknown(`complex \`${op}\` is not evaluated`);
  return typeError(op, a, b);
}

function repeatCount(v: PyValue): bigint | undefined {
  const r = real(v);
  return r && 'exact' in r ? r.exact : undefined;
}

/** Concatenation and repetition of str, bytes, tuple and list; dict merge with `|`. */
function sequenceOp(op: string, a: PyValue, b: PyValue): Result {
  if (op === '+' && a.t === b.t && (a.t === 'str' || a.t === 'bytes')) {
    const v = a.v + (b as typeof a).v;
    return v.length > MAX_ITEMS ? unknown('the value is too large to evaluate statically') : { t: a.t, v };
  }
  if (op === '+' && a.t === b.t && (a.t === 'tuple' || a.t === 'list')) {
    const items = [...a.items, ...(b as typeof a).items];
    return items.length > MAX_ITEMS ? unknown('the value is too large to evaluate statically') : { t: a.t, items };
  }
  if (op === '*') {
    const [seq, n] = repeatCount(b) !== undefined ? [a, repeatCount(b)!] : [b, repeatCount(a)];
    if (n !== undefined && (seq.t === 'str' || seq.t === 'bytes' || seq.t === 'tuple' || seq.t === 'list')) {
      const count = n < 0n ? 0 : n;
      const len = seq.t === 'str' || seq.t === 'bytes' ? seq.v.length : seq.items.length;
      if (BigInt(len) * BigInt(count) > BigInt(MAX_ITEMS)) return unknown('the value is too large to evaluate statically');
      const k = Number(count);
      if (seq.t === 'str' || seq.t === 'bytes') return { t: seq.t, v: seq.v.repeat(k) };
      const items: PyValue[] = [];
      for (let i = 0; i < k; i++) items.push(...seq.items);
      return { t: seq.t, items };
    }
  }
  if (op === '|' && a.t === 'dict' && b.t === 'dict') {
    const keys = [...a.keys];
    const values = [...a.values];
    for (let i = 0; i < b.keys.length; i++) {
      const err = dictSet(keys, values, b.keys[i], b.values[i]);
      if (err) return err;
    }
    return { t: 'dict', keys, values };
  }
  if (op === '%' && (a.t === 'str' || a.t === 'bytes')) return unknown('%-formatting is not evaluated');
  if ((a.t === 'set' || a.t === 'frozenset') && (b.t === 'set' || b.t === 'frozenset')) return unknown(`set \`${op}\` is not evaluated`);
  return typeError(op, a, b);
}

// ---------------------------------------------------------------------------------------------
// Builtin constructors

/** `tuple(x)`, `list(x)`, `set(x)`, `frozenset(x)`, `dict(...)`, `float('inf')`...: builtins folded where the result is exact. */
export function builtinCall(name: string, args: Result[], keywords: { arg?: string; value: Result }[]): Result | undefined {
  const first = args[0];
  const known = [...args, ...keywords.map((k) => k.value)].find(isUnknown);
  switch (name) {
    case 'tuple':
    case 'list':
    case 'set':
    case 'frozenset': {
      if (keywords.length || args.length > 1) return unknown(`evaluating it raises TypeError: ${name}() takes at most 1 argument`);
      if (known) return known;
      const items = first ? iterate(first as PyValue) : [];
      if (isUnknown(items)) return items;
      const list = items;
      return name === 'tuple' || name === 'list' ? { t: name, items: list } : buildSet(name, list);
    }
    case 'dict': {
      if (known) return known;
      if (args.length > 1) return unknown('evaluating it raises TypeError: dict expected at most 1 argument');
      const keys: PyValue[] = [];
      const values: PyValue[] = [];
      if (first) {
        const f = first as PyValue;
        if (f.t === 'dict') {
          keys.push(...f.keys);
          values.push(...f.values);
        } else {
          const pairs = iterate(f);
          if (isUnknown(pairs)) return pairs;
          for (const p of pairs) {
            const kv = iterate(p);
            if (isUnknown(kv) || kv.length !== 2) return unknown('dict() of something other than pairs is not evaluated');
            const err = dictSet(keys, values, kv[0], kv[1]);
            if (err) return err;
          }
        }
      }
      for (const k of keywords) {
        const err = dictSet(keys, values, { t: 'str', v: k.arg! }, k.value as PyValue);
        if (err) return err;
      }
      return { t: 'dict', keys, values };
    }
    case 'float': {
      if (known) return known;
      if (!first) return { t: 'float', v: 0 };
      const f = first as PyValue;
      if (f.t === 'str') {
        const s = f.v.trim().toLowerCase().replace(/_/g, '');
        const special: Record<string, number> = { inf: Infinity, '+inf': Infinity, '-inf': -Infinity, infinity: Infinity, '+infinity': Infinity, '-infinity': -Infinity, nan: NaN, '+nan': NaN, '-nan': NaN };
        if (s in special) return { t: 'float', v: special[s] };
        return unknown('float() of a string is not evaluated');
      }
      const r = real(f);
      if (r) return 'float' in r ? { t: 'float', v: r.float } : intToFloat(r.exact) === undefined ? overflow() : { t: 'float', v: intToFloat(r.exact)! };
      return unknown(`float() of a ${typeName(f)} is not evaluated`);
    }
    case 'int':
    case 'str':
    case 'bool':
    case 'bytes':
      if (known) return known;
      if (!first && !keywords.length) return name === 'int' ? { t: 'int', v: 0n } : name === 'str' ? { t: 'str', v: '' } : name === 'bool' ? { t: 'bool', v: false } : { t: 'bytes', v: '' };
      return unknown(`${name}() of a value is not evaluated`);
    case 'object':
      return args.length || keywords.length ? unknown('evaluating it raises TypeError: object() takes no arguments') : { t: 'object', type: 'object', id: undefined };
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// repr and default_source

/** Python's `repr(v)` for the built-in types here; undefined where it is not known (a set's order, another object). */
export function pyRepr(v: PyValue, depth = 0): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  switch (v.t) {
    case 'None':
      return 'None';
    case 'Ellipsis':
      return 'Ellipsis';
    case 'bool':
      return v.v ? 'True' : 'False';
    case 'int':
      return v.v.toString();
    case 'float':
      return pyFloatRepr(v.v);
    case 'complex':
      return pyComplexRepr(v.re, v.im);
    case 'str':
      return pyStrRepr(v.v);
    case 'bytes':
      return pyBytesRepr(v.v);
    default:
      return undefined;
  }
}

/** The SDK refuses a default (ValueError inside `_default_source`): its source is null. */
class Refused extends Error {}

/** The SDK's default budget: 4096 characters in all, nesting below 8 (vis-sdk.md §3.4). */
const BUDGET = 4096;
const NESTING = 8;

/**
 * `_default_source(value)` of the C3 SDK: the default as Python source when it is an exact built-in
 * literal within the budget, null otherwise; Unknown where Python's text is not knowable statically
 * (the print order of a set of strings).
 */
export function defaultSource(value: PyValue): string | null | Unknown {
  let remaining = BUDGET;
  const chunks: string[] = [];
  let order: Unknown | undefined;
  const emit = (text: string) => {
    remaining -= text.length;
    if (remaining < 0) throw new Refused();
    chunks.push(text);
  };
  const render = (item: PyValue, depth: number): void => {
    switch (item.t) {
      case 'None':
        return emit('None');
      case 'Ellipsis':
        return emit('...');
      case 'bool':
        return emit(item.v ? 'True' : 'False');
      case 'int':
        if (bitLength(item.v) > remaining * 4) throw new Refused();
        return emit(item.v.toString());
      case 'float':
      case 'complex': {
        const finite = item.t === 'float' ? Number.isFinite(item.v) : Number.isFinite(item.re) && Number.isFinite(item.im);
        if (!finite) throw new Refused();
        return emit(pyRepr(item)!);
      }
      case 'str':
      case 'bytes':
        if (item.v.length > remaining) throw new Refused();
        return emit(pyRepr(item)!);
      case 'tuple':
      case 'list':
      case 'dict':
      case 'set': {
        if (depth >= NESTING) throw new Refused();
        const len = item.t === 'dict' ? item.keys.length : item.items.length;
        if (len > remaining) throw new Refused();
        if (item.t === 'set' && len === 0) return emit('set()');
        emit(item.t === 'tuple' ? '(' : item.t === 'list' ? '[' : '{');
        if (item.t === 'dict') {
          item.keys.forEach((k, i) => {
            if (i) emit(', ');
            render(k, depth + 1);
            emit(': ');
            render(item.values[i], depth + 1);
          });
        } else {
          let members = item.items;
          if (item.t === 'set') {
            // Without a known order the text's length is still known: over budget stays null.
            const o = setOrder(item.items);
            if (!o) order ??= unknown(SET_ORDER);
            members = o ?? item.items;
          }
          members.forEach((m, i) => {
            if (i) emit(', ');
            render(m, depth + 1);
          });
          if (item.t === 'tuple' && members.length === 1) emit(',');
        }
        return emit(item.t === 'tuple' ? ')' : item.t === 'list' ? ']' : '}');
      }
      default:
        throw new Refused();
    }
  };
  try {
    render(value, 0);
  } catch (e) {
    if (!(e instanceof Refused)) throw e;
    return null;
  }
  const text = chunks.join('');
  return order ? unknown(`${order.reason}; in source order it reads ${text}`) : text;
}
