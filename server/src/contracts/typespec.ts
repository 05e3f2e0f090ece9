// Annotation → TypeSpec (vis-sdk.md §3.2), following the SDK's `_contract_type` (annotation objects)
// and `_contract_ast` (string and postponed annotations) case by case, on annotation source text.
//
// The two paths differ the way Python makes them differ. A string annotation (a module with
// `from __future__ import annotations`, or a quoted annotation) is parsed by the SDK with `ast` and
// walked as written: `int | str | None` stays a nested union and `Literal[-1]` loses its `-1` (not an
// `ast.Constant`). An annotation object was built by Python when the module ran: unions are flattened
// and de-duplicated (`Optional[Union[int, str]]` is `Union[int, str, None]`, `Union[int, int]` is
// `int`), `Literal` values are the evaluated values, nested `Literal`s flatten, and typing's forms turn
// strings into `ForwardRef`s. Both are reproduced here without running anything; what cannot be known
// is reported through `TypeContext.note` and never throws.
import type { ClassDecl, FieldDecl, Value } from '../model/types';
import { cleandoc } from '../model/docstring';
import { moduleEnv, valueOf } from './constants';
import { parseExpr, unparse, type Expr } from './pyexpr';
import { constantValue, evaluate, isUnknown, pyRepr, type PyValue, type Result } from './pyvalue';
import { classKey, isDataclass, isScalar, lookupName, memberOf, qualified, type ModuleScope, type PyObj, type Resolver } from './scope';
import { isStdlibModule } from './stdlib';
import type { FieldSpec, TypeSpec } from './types';

const any = (): TypeSpec => ({ kind: 'any', name: 'Any' });
const nul = (): TypeSpec => ({ kind: 'null', name: 'None' });
const unresolved = (name: string): TypeSpec => ({ kind: 'unresolved', name });
const GENERIC_BASES = ['list', 'tuple', 'dict', 'set', 'frozenset', 'Sequence', 'Mapping', 'PathLike'];

/** Classes and string aliases being expanded (the SDK's `seen`). */
type Seen = readonly string[];

export interface TypeContext extends Resolver {
  /** The sequence field a record class opts into with `@vis.sequence(field=...)` (G3), if any. */
  sequenceField?(scope: ModuleScope, cls: ClassDecl): string | undefined;
  /** Told why part of the type (or default) being computed is not statically known. */
  note?(reason: string): void;
}

/**
 * The TypeSpec of a parameter, return or field annotation written as `text` in `scope`; `undefined`
 * text means no annotation. Postponed modules hold every annotation as a string (the SDK's string
 * path); other modules hold objects, evaluated here from their source without running anything.
 */
export function annotationType(text: string | undefined, scope: ModuleScope, ctx: TypeContext, seen: Seen = []): TypeSpec {
  if (text === undefined) return any();
  const expr = parseExpr(text);
  if (scope.postponed) {
    // `from __future__ import annotations` stores the annotation as ast.unparse prints it.
    return stringType(expr ? unparse(expr) : text, scope, ctx, seen);
  }
  if (!expr) {
    ctx.note?.(`the annotation \`${text}\` is an expression the checker does not read`);
    return unresolved(text);
  }
  return annSpec(evalAnn(expr, scope, ctx, 0), scope, ctx, seen);
}

/** `_contract_type(str)`: a string annotation, parsed and resolved statically. */
function stringType(text: string, scope: ModuleScope, ctx: TypeContext, seen: Seen): TypeSpec {
  if (seen.includes('S:' + text)) return { kind: 'reference', name: text };
  const next = [...seen, 'S:' + text];
  const expr = parseExpr(text);
  // What ast.parse refuses is unresolved for the SDK too; the few forms it accepts that this parser does not
  // (a lambda, a comparison) fall through `_contract_ast` to unresolved as well, under their text.
  if (!expr) return unresolved(text);
  return astType(expr, scope, ctx, next);
}

/** `_contract_ast`: a parsed string annotation, walked as written. */
function astType(node: Expr, scope: ModuleScope, ctx: TypeContext, seen: Seen): TypeSpec {
  if (node.type === 'Constant') {
    if (node.kind === 'None') return nul();
    if (node.kind === 'str') return stringType(node.value, scope, ctx, seen);
  }
  if (node.type === 'BinOp' && node.op === '|') {
    return { kind: 'union', name: 'union', arguments: [astType(node.left, scope, ctx, seen), astType(node.right, scope, ctx, seen)] };
  }
  if (node.type === 'Subscript') {
    const base = annotationName(node.value, scope, ctx);
    const nodes = node.slice.type === 'Tuple' && !node.slice.parens ? node.slice.elts : [node.slice];
    if (base.k === 'typing' && base.name === 'Annotated' && nodes.length) {
      const result = astType(nodes[0], scope, ctx, seen);
      const descriptions = nodes.slice(1).flatMap((n) => (n.type === 'Constant' && n.kind === 'str' ? [n.value] : []));
      if (descriptions.length) result.description = descriptions.join('\n');
      return result;
    }
    if (base.k === 'typing' && base.name === 'Literal') {
      // Only `ast.Constant` nodes are read: `-1` is a UnaryOp and is dropped, as the SDK drops it.
      return { kind: 'literal', name: 'Literal', values: nodes.flatMap((n) => (n.type === 'Constant' ? literalValues([constantValue(n)], ctx) : [])) };
    }
    if (base.k === 'typing' && (base.name === 'Union' || base.name === 'Optional')) {
      const args = nodes.map((n) => astType(n, scope, ctx, seen));
      if (base.name === 'Optional') args.push(nul());
      return { kind: 'union', name: 'union', arguments: args };
    }
    const origin = genericOrigin(base);
    if (origin) {
      if (origin === 'tuple' && nodes.length === 2 && nodes[1].type === 'Constant' && nodes[1].kind === 'Ellipsis') {
        return { kind: 'generic', name: 'tuple', variadic: true, arguments: [astType(nodes[0], scope, ctx, seen)] };
      }
      return { kind: 'generic', name: origin, arguments: nodes.map((n) => astType(n, scope, ctx, seen)) };
    }
  }
  const resolved = node.type === 'Name' || node.type === 'Attribute' ? annotationName(node, scope, ctx) : ({ k: 'unknown' } as PyObj);
  if (resolved.k !== 'unknown') return rebound(scope, node) ? uncertain(objType(resolved, ctx, seen)) : objType(resolved, ctx, seen);
  if (node.type === 'Name') noteUnfollowed(node.id, scope, ctx);
  return unresolved(unparse(node));
}

/** A name the module binds but whose value is not known: unresolved for now, but the SDK sees its value. */
function noteUnfollowed(id: string, scope: ModuleScope, ctx: TypeContext): void {
  if (!scope.model.bindings.has(id)) return;
  const v = moduleEnv(scope, ctx).name(id, 0);
  if (isUnknown(v)) ctx.note?.(`\`${id}\`: ${v.reason}`);
}

/** `Literal` values the SDK keeps: exactly str, int, bool and None (floats, bytes, enum members are dropped). */
function literalValues(values: PyValue[], ctx?: TypeContext): (string | number | boolean | null)[] {
  return values.flatMap((v): (string | number | boolean | null)[] => {
    if (v.t === 'str' || v.t === 'bool') return [v.v];
    if (v.t === 'int') {
      if (v.v > 2n ** 53n || v.v < -(2n ** 53n)) ctx?.note?.(`the Literal value ${v.v} is beyond 2**53: Vis's JSON has it exactly, this contract rounds it`);
      return [Number(v.v)];
    }
    if (v.t === 'None') return [null];
    return [];
  });
}

/** The `__name__` of a subscripted base's origin when it is generic on the string path: typing aliases and the listed bases. */
function genericOrigin(base: PyObj): string | undefined {
  if (base.k === 'typing' && base.origin) return base.origin;
  if (base.k === 'extclass' && GENERIC_BASES.includes(base.name) && (base.module === 'builtins' || base.module === 'collections.abc' || base.module === 'os')) {
    return base.name;
  }
  return undefined;
}

/** `_annotation_name`: names through the module's globals and builtins; attributes of modules and classes. */
function annotationName(node: Expr, scope: ModuleScope, ctx: TypeContext): PyObj {
  if (node.type === 'Name') return lookupName(scope, node.id, ctx);
  if (node.type === 'Attribute') {
    const parent = annotationName(node.value, scope, ctx);
    if (parent.k === 'module' || parent.k === 'class') return memberOf(parent, node.attr, ctx, 0, scope);
  }
  return { k: 'unknown' };
}

/** `_contract_type(obj)` for a resolved object. */
function objType(o: PyObj, ctx: TypeContext, seen: Seen): TypeSpec {
  switch (o.k) {
    case 'none':
      return nul();
    case 'typing':
      if (o.name === 'Any') return any();
      if (o.origin) return { kind: 'generic', name: o.origin, arguments: [] };
      return unresolved('_SpecialForm');
    case 'string':
      return stringType(o.text, o.scope, ctx, seen);
    case 'alias': {
      const expr = parseExpr(o.text);
      return expr ? annSpec(evalAnn(expr, o.scope, ctx, 0), o.scope, ctx, seen) : unresolved(o.text);
    }
    case 'extclass':
      if (o.module !== 'builtins' && !isStdlibModule(o.module)) {
        ctx.note?.(`\`${o.name}\` comes from \`${o.module}\`, which is not in the workspace or its environment: shown as opaque; if it is a dataclass, Vis shows a record with its fields`);
      }
      return isScalar(o) ? { kind: 'scalar', name: o.name } : opaque(o.name, extclassOrigin(o));
    case 'class':
      return classType(o, ctx, seen);
    case 'module':
      return unresolved('module');
    case 'function':
      return unresolved('function');
    case 'value':
      return unresolved(o.typeName);
    case 'unknown':
      return unresolved('unknown');
  }
}

// ---------------------------------------------------------------------------------------------
// The object path: annotations as the objects Python built

/** An evaluated annotation. */
type Ann =
  /** `rebound`: the name is bound more than once in its module, so which object Python sees is not certain. */
  | { a: 'obj'; o: PyObj; rebound?: true }
  | { a: 'none' }
  /** typing.Union or types.UnionType: flat, distinct, at least two members. */
  | { a: 'union'; args: Ann[] }
  | { a: 'literal'; values: PyValue[] }
  | { a: 'annotated'; inner: Ann; meta: Result[] }
  /** A subscripted generic: typing's alias (`List[int]`, a user `Generic`) or a builtin one (`list[int]`). */
  | { a: 'generic'; origin: string; args: Ann[]; typing: boolean }
  | { a: 'forward'; text: string }
  | { a: 'str'; text: string; scope: ModuleScope }
  | { a: 'value'; v: PyValue }
  | { a: 'unknown'; reason: string; text: string };

const MAX_ANN_DEPTH = 64;

function evalAnn(node: Expr, scope: ModuleScope, ctx: TypeContext, depth: number): Ann {
  if (depth > MAX_ANN_DEPTH) return { a: 'unknown', reason: 'the annotation nests too deeply', text: unparse(node) };
  switch (node.type) {
    case 'Constant':
      if (node.kind === 'None') return { a: 'none' };
      if (node.kind === 'str') return { a: 'str', text: node.value, scope };
      return { a: 'value', v: constantValue(node) };
    case 'Name':
    case 'Attribute': {
      const o = annotationName(node, scope, ctx);
      if (o.k === 'none') return { a: 'none' };
      if (o.k === 'alias') {
        const expr = parseExpr(o.text);
        return expr ? evalAnn(expr, o.scope, ctx, depth + 1) : { a: 'unknown', reason: `the alias \`${o.text}\` is not read`, text: o.text };
      }
      if (o.k === 'string') return { a: 'str', text: o.text, scope: o.scope };
      if (o.k === 'value') {
        const v = evaluate(node, moduleEnv(scope, ctx));
        return isUnknown(v) ? { a: 'unknown', reason: v.reason, text: unparse(node) } : { a: 'value', v };
      }
      if (o.k === 'unknown') {
        const reason = node.type === 'Name' ? nameReason(node.id, scope, ctx) : `\`${unparse(node)}\` is not known statically`;
        return { a: 'unknown', reason, text: unparse(node) };
      }
      return rebound(scope, node) ? { a: 'obj', o, rebound: true } : { a: 'obj', o };
    }
    case 'BinOp':
      if (node.op === '|') return unionOperator(evalAnn(node.left, scope, ctx, depth + 1), evalAnn(node.right, scope, ctx, depth + 1), unparse(node));
      break;
    case 'Subscript':
      return subscript(node, scope, ctx, depth);
    case 'Call':
      return { a: 'unknown', reason: `the annotation is a call result (\`${unparse(node)}\`), evaluated when the module runs`, text: unparse(node) };
    default:
      break;
  }
  const v = evaluate(node, moduleEnv(scope, ctx));
  return isUnknown(v) ? { a: 'unknown', reason: v.reason, text: unparse(node) } : { a: 'value', v };
}

/** Why a bare name is not known: not defined (a NameError when the module runs), or bound to something not followed. */
function nameReason(id: string, scope: ModuleScope, ctx: TypeContext): string {
  const v = moduleEnv(scope, ctx).name(id, 0);
  return isUnknown(v) ? `\`${id}\`: ${v.reason}` : `\`${id}\` is not a type the checker knows`;
}

const isTypingFlavoured = (x: Ann) => x.a === 'union' || x.a === 'literal' || x.a === 'annotated' || x.a === 'forward' || (x.a === 'generic' && x.typing) || (x.a === 'obj' && x.o.k === 'typing');

/** A type in `X | Y` or a typing form's argument. */
const isTypeLike = (x: Ann) => x.a === 'none' || x.a === 'union' || x.a === 'generic' || (x.a === 'obj' && (x.o.k === 'class' || x.o.k === 'extclass' || x.o.k === 'typing'));

/** `X | Y`: types.UnionType for classes, typing.Union when a typing form is involved; TypeError otherwise. */
function unionOperator(l: Ann, r: Ann, text: string): Ann {
  if (l.a === 'unknown') return l;
  if (r.a === 'unknown') return r;
  const typing = isTypingFlavoured(l) || isTypingFlavoured(r);
  const ok = (x: Ann) => isTypeLike(x) || x.a === 'literal' || x.a === 'annotated' || x.a === 'forward' || (typing && x.a === 'str');
  if (!ok(l) || !ok(r)) return { a: 'unknown', reason: `evaluating \`${text}\` raises TypeError: unsupported operand type(s) for |`, text };
  return unionOf([typeCheck(l), typeCheck(r)]);
}

/** typing's `_type_check` of an argument: a string becomes a ForwardRef. */
function typeCheck(x: Ann): Ann {
  return x.a === 'str' ? { a: 'forward', text: x.text } : x;
}

/** `Union[args]`: flattened, equal members dropped after the first, a single member stands alone. */
function unionOf(args: Ann[]): Ann {
  const flat: Ann[] = [];
  const keys: string[] = [];
  for (const x of args.flatMap((a) => (a.a === 'union' ? a.args : [a]))) {
    const k = annKey(x);
    if (k !== undefined && keys.includes(k)) continue;
    flat.push(x);
    keys.push(k ?? `?${keys.length}`);
  }
  return flat.length === 1 ? flat[0] : { a: 'union', args: flat };
}

/** Python's equality of annotation objects, as a key; undefined where it is not known (never merged). */
function annKey(x: Ann): string | undefined {
  switch (x.a) {
    case 'none':
      return 'N';
    case 'obj':
      if (x.o.k === 'class') return 'C:' + classKey(x.o);
      if (x.o.k === 'extclass') return `E:${x.o.module}.${x.o.name}`;
      if (x.o.k === 'typing') return 'T:' + x.o.name;
      return undefined;
    case 'union': {
      const ks = x.args.map(annKey);
      return ks.every((k) => k !== undefined) ? `U{${[...ks].sort().join(',')}}` : undefined;
    }
    case 'literal': {
      const ks = x.values.map((v) => `${v.t}:${pyRepr(v) ?? (v.t === 'object' ? v.id : undefined)}`);
      return ks.some((k) => k.endsWith('undefined')) ? undefined : `L{${[...new Set(ks)].sort().join(',')}}`;
    }
    case 'annotated': {
      const inner = annKey(x.inner);
      const meta = x.meta.map((m) => (isUnknown(m) ? undefined : pyRepr(m)));
      return inner !== undefined && meta.every((m) => m !== undefined) ? `A(${inner};${meta.join(',')})` : undefined;
    }
    case 'generic': {
      const ks = x.args.map(annKey);
      return ks.every((k) => k !== undefined) ? `G:${x.typing ? 't' : 'b'}:${x.origin}[${ks.join(',')}]` : undefined;
    }
    case 'forward':
      return 'F:' + x.text;
    case 'str':
      return 'S:' + x.text;
    case 'value':
      return pyRepr(x.v) !== undefined ? `V:${x.v.t}:${pyRepr(x.v)}` : undefined;
    default:
      return undefined;
  }
}

function subscript(node: Extract<Expr, { type: 'Subscript' }>, scope: ModuleScope, ctx: TypeContext, depth: number): Ann {
  const text = unparse(node);
  const base = evalAnn(node.value, scope, ctx, depth + 1);
  if (base.a === 'unknown') return base;
  const nodes = node.slice.type === 'Tuple' && !node.slice.parens ? node.slice.elts : [node.slice];
  const raises = (what: string): Ann => ({ a: 'unknown', reason: `evaluating \`${text}\` raises TypeError: ${what}`, text });
  const args = () => nodes.map((n) => evalAnn(n, scope, ctx, depth + 1));
  if (base.a === 'obj' && base.o.k === 'typing') {
    const form = base.o;
    if (form.name === 'Literal') return literal(nodes, scope, ctx, depth);
    if (form.name === 'Union') return unionOf(args().map(typeCheck));
    if (form.name === 'Optional') {
      if (nodes.length !== 1) return raises('Optional[t] requires a single type');
      return unionOf([typeCheck(evalAnn(nodes[0], scope, ctx, depth + 1)), { a: 'none' }]);
    }
    if (form.name === 'Annotated') {
      if (nodes.length < 2) return raises('Annotated[...] should be used with at least two arguments');
      const inner = typeCheck(evalAnn(nodes[0], scope, ctx, depth + 1));
      const meta = nodes.slice(1).map((n) => evaluate(n, moduleEnv(scope, ctx)));
      // Annotated[Annotated[T, a], b] is Annotated[T, a, b].
      return inner.a === 'annotated' ? { a: 'annotated', inner: inner.inner, meta: [...inner.meta, ...meta] } : { a: 'annotated', inner, meta };
    }
    if (form.origin) return { a: 'generic', origin: form.origin, args: args().map(typeCheck), typing: true };
    // ClassVar[...], Final[...], Required[...]: not types a contract describes.
    return { a: 'unknown', reason: `\`${form.name}[...]\` is not a parameter type`, text };
  }
  if (base.a === 'obj' && base.o.k === 'extclass' && GENERIC_BASES.concat(['type']).includes(base.o.name)) {
    return { a: 'generic', origin: base.o.name, args: args(), typing: false };
  }
  if (base.a === 'obj' && base.o.k === 'extclass') {
    // collections.abc and other classes with __class_getitem__ (or a dependency's generic class).
    return { a: 'generic', origin: base.o.name, args: args(), typing: base.o.module !== 'collections.abc' && base.o.module !== 'builtins' };
  }
  // A user class subscripted: `Page[int]` of a Generic class has that class as its origin.
  if (base.a === 'obj' && base.o.k === 'class') return { a: 'generic', origin: base.o.decl.name, args: args().map(typeCheck), typing: true };
  if (base.a === 'generic' || base.a === 'union') return { a: 'unknown', reason: `subscripting a parameterised type (\`${text}\`) is not evaluated`, text };
  return raises('the object is not subscriptable');
}

/** `Literal[...]`: the evaluated values, nested Literals flattened, equal (value, type) pairs kept once. */
function literal(nodes: Expr[], scope: ModuleScope, ctx: TypeContext, depth: number): Ann {
  const values: PyValue[] = [];
  const seen: string[] = [];
  for (const n of nodes) {
    let items: (PyValue | { t: 'unknown'; reason: string })[];
    const inner = n.type === 'Subscript' ? evalAnn(n, scope, ctx, depth + 1) : undefined;
    if (inner?.a === 'literal') items = inner.values;
    else if (inner?.a === 'unknown') items = [{ t: 'unknown', reason: inner.reason }];
    else items = [evaluate(n, moduleEnv(scope, ctx))];
    for (const v of items) {
      if (isUnknown(v)) {
        ctx.note?.(`a Literal value (\`${unparse(n)}\`): ${v.reason}`);
        continue;
      }
      // typing de-duplicates by (value, type): Literal[1, True] keeps both, Literal[1, 1] one.
      const text = pyRepr(v) ?? (v.t === 'object' ? v.id : undefined);
      const key = text === undefined ? undefined : `${v.t}:${text}`;
      if (key !== undefined && seen.includes(key)) continue;
      if (key !== undefined) seen.push(key);
      values.push(v);
    }
  }
  return { a: 'literal', values };
}

/** `_contract_type` of an evaluated annotation. */
function annSpec(x: Ann, scope: ModuleScope, ctx: TypeContext, seen: Seen): TypeSpec {
  switch (x.a) {
    case 'none':
      return nul();
    case 'obj':
      return x.rebound ? uncertain(objType(x.o, ctx, seen)) : objType(x.o, ctx, seen);
    case 'union':
      return { kind: 'union', name: 'union', arguments: x.args.map((a) => annSpec(a, scope, ctx, seen)) };
    case 'literal':
      return { kind: 'literal', name: 'Literal', values: literalValues(x.values, ctx) };
    case 'annotated': {
      const result = annSpec(x.inner, scope, ctx, seen);
      const descriptions: string[] = [];
      for (const m of x.meta) {
        if (isUnknown(m)) ctx.note?.(`an Annotated note: ${m.reason}; if it is a str, it is part of the description`);
        else if (m.t === 'str') descriptions.push(m.v);
      }
      if (descriptions.length) result.description = descriptions.join('\n');
      return result;
    }
    case 'generic':
      if (x.origin === 'tuple' && x.args.length === 2 && x.args[1].a === 'value' && x.args[1].v.t === 'Ellipsis') {
        return { kind: 'generic', name: 'tuple', variadic: true, arguments: [annSpec(x.args[0], scope, ctx, seen)] };
      }
      return { kind: 'generic', name: x.origin, arguments: x.args.map((a) => annSpec(a, scope, ctx, seen)) };
    case 'forward':
      return unresolved('ForwardRef');
    case 'str':
      return stringType(x.text, x.scope, ctx, seen);
    case 'value':
      // `type(annotation).__name__`: a list argument (`Callable[[int], str]`) is a list, an Ellipsis is ellipsis.
      return unresolved(x.v.t === 'None' ? 'NoneType' : x.v.t === 'Ellipsis' ? 'ellipsis' : x.v.t === 'object' ? x.v.type : x.v.t);
    case 'unknown':
      ctx.note?.(x.reason);
      return unresolved(x.text);
  }
}

// ---------------------------------------------------------------------------------------------
// Opaque types: what each one is, where that is certain (for the tool-design advice, DESIGN-003)

/** The kinds of class the SDK's docs warn against in a signature (vis-sdk.md §5.6): each becomes `(opaque)`. */
export type OpaqueOrigin = 'enum' | 'typeddict' | 'namedtuple' | 'path' | 'bare';

const origins = new WeakMap<TypeSpec, OpaqueOrigin>();

/** What an opaque TypeSpec the engine built stands for, when it is certainly one of the kinds the docs warn against. */
export function opaqueOrigin(t: TypeSpec): OpaqueOrigin | undefined {
  return origins.get(t);
}

/** A name the module binds more than once (a class, then an alias of the same name): the object Python sees depends on the order. */
function rebound(scope: ModuleScope, node: Expr): boolean {
  return node.type === 'Name' && (scope.model.bindings.get(node.id)?.length ?? 0) > 1;
}

/** The type without the certainty of what its opaque class is. */
function uncertain(t: TypeSpec): TypeSpec {
  origins.delete(t);
  return t;
}

function opaque(name: string, origin: OpaqueOrigin | undefined): TypeSpec {
  const spec: TypeSpec = { kind: 'opaque', name };
  if (origin) origins.set(spec, origin);
  return spec;
}

const PATH_CLASSES = new Set(['Path', 'PosixPath', 'WindowsPath', 'PurePath', 'PurePosixPath', 'PureWindowsPath']);
const BARE = new Set(['list', 'dict', 'tuple']);
const CLASS_ORIGINS: Record<string, OpaqueOrigin> = {
  'typing.TypedDict': 'typeddict',
  'typing_extensions.TypedDict': 'typeddict',
  'typing.NamedTuple': 'namedtuple',
  'typing_extensions.NamedTuple': 'namedtuple',
  ...Object.fromEntries(['Enum', 'IntEnum', 'StrEnum', 'Flag', 'IntFlag', 'ReprEnum'].map((n) => [`enum.${n}`, 'enum' as const])),
};

function extclassOrigin(o: Extract<PyObj, { k: 'extclass' }>): OpaqueOrigin | undefined {
  if (o.module === 'builtins') return BARE.has(o.name) ? 'bare' : undefined;
  if (o.module === 'pathlib') return PATH_CLASSES.has(o.name) ? 'path' : undefined;
  if (o.module === 'typing') return CLASS_ORIGINS[`typing.${o.name}`];
  return undefined;
}

/** An Enum, TypedDict or NamedTuple class of the workspace: through its bases, as written and through the classes it inherits from. */
function classOrigin(o: Extract<PyObj, { k: 'class' }>, ctx: Resolver, depth = 0): OpaqueOrigin | undefined {
  if (depth > 16) return undefined;
  for (const base of o.decl.bases) {
    const origin = CLASS_ORIGINS[qualified(o.scope, base.replace(/\[.*$/s, '').replace(/\s+/g, '')) ?? ''];
    if (origin) return origin;
    const b = baseClass(o.scope, base, ctx);
    const inherited = b && !isDataclass(b.scope, b.decl) ? classOrigin(b, ctx, depth + 1) : undefined;
    if (inherited) return inherited;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Records

function classType(o: Extract<PyObj, { k: 'class' }>, ctx: TypeContext, seen: Seen): TypeSpec {
  const name = o.decl.name;
  const key = 'C:' + classKey(o);
  if (seen.includes(key)) return { kind: 'reference', name };
  if (!isDataclass(o.scope, o.decl)) return opaque(name, classOrigin(o, ctx));
  const doc = classDoc(o);
  const result: TypeSpec = { kind: 'record', name, fields: [] };
  if (doc && !doc.startsWith(name + '(')) result.description = doc;
  // The class's own docstring, kept out of the JSON: an Annotated note may replace `description`.
  Object.defineProperty(result, 'classDoc', { value: result.description, enumerable: false });
  const inner = [...seen, key];
  for (const f of dataclassFields(o, ctx)) {
    if (f.decl.name.startsWith('_')) continue;
    // What is not known about a field is reported as that field's.
    const fieldCtx: TypeContext = ctx.note ? { ...ctx, note: (reason) => ctx.note!(`field \`${name}.${f.decl.name}\`: ${reason}`) } : ctx;
    const d = fieldDefault(f.owner, f.decl, fieldCtx);
    result.fields!.push({
      name: f.decl.name,
      // Field types resolve against the record's own module (a string when the defining module postpones annotations).
      type: annotationType(f.decl.annotation, { ...o.scope, postponed: f.owner.postponed }, fieldCtx, inner),
      required: !d.has,
      has_default: d.has,
      default_is_none: d.isNone,
    } satisfies FieldSpec);
  }
  const seq = ctx.sequenceField?.(o.scope, o.decl);
  if (seq !== undefined) result.sequence_field = seq;
  return result;
}

/** `inspect.getdoc(cls)`: the class docstring, or the first base's in the MRO that has one. */
function classDoc(o: Extract<PyObj, { k: 'class' }>): string | undefined {
  if (o.decl.docstring !== undefined) return cleandoc(o.decl.docstring);
  // A dataclass without a docstring gets `Name(fields...)`, which the SDK leaves out.
  return undefined;
}

/** `dataclasses.fields(cls)`: base dataclass fields first (same module or loaded), then the class's own. */
export function dataclassFields(o: Extract<PyObj, { k: 'class' }>, ctx: Resolver, depth = 0): { decl: FieldDecl; owner: ModuleScope }[] {
  const out: { decl: FieldDecl; owner: ModuleScope }[] = [];
  if (depth > 16) return out;
  for (const base of [...o.decl.bases].reverse()) {
    const b = baseClass(o.scope, base, ctx);
    if (b && isDataclass(b.scope, b.decl)) {
      for (const f of dataclassFields(b, ctx, depth + 1)) merge(out, f);
    }
  }
  for (const f of o.decl.fields) {
    if (!f.annotation || isPseudoField(f.annotation)) continue;
    merge(out, { decl: f, owner: o.scope });
  }
  return out;
}

function merge(out: { decl: FieldDecl; owner: ModuleScope }[], f: { decl: FieldDecl; owner: ModuleScope }): void {
  const i = out.findIndex((x) => x.decl.name === f.decl.name);
  if (i === -1) out.push(f);
  else out[i] = f;
}

/** ClassVar, InitVar and the KW_ONLY marker are not fields. */
function isPseudoField(annotation: string): boolean {
  return /^\s*['"]?\s*(?:typing\.|t\.|dataclasses\.)?(?:ClassVar|InitVar|KW_ONLY)\b/.test(annotation);
}

export function baseClass(scope: ModuleScope, base: string, ctx: Resolver): Extract<PyObj, { k: 'class' }> | undefined {
  const expr = parseExpr(base);
  if (!expr) return undefined;
  const o = annotationName(expr.type === 'Subscript' ? expr.value : expr, scope, ctx);
  return o.k === 'class' ? o : undefined;
}

/** Whether a dataclass field has a default (a value, `field(default=...)` or `field(default_factory=...)`), and whether it is None. */
export function fieldDefault(scope: ModuleScope, f: FieldDecl, ctx: TypeContext = {}): { has: boolean; isNone: boolean } {
  if (!f.defaultValue) return { has: false, isNone: false };
  const v = f.defaultValue;
  if (v.kind === 'call' && qualified(scope, v.call.callee) === 'dataclasses.field') {
    const def = v.call.args.find((a) => a.name === 'default');
    const factory = v.call.args.find((a) => a.name === 'default_factory');
    if (v.call.args.some((a) => a.splat)) {
      ctx.note?.('`field(...)` takes a `**` splat, so whether its default is None is not known');
      return { has: true, isNone: false };
    }
    return { has: !!def || !!factory, isNone: !!def && isNoneValue(scope, def.value, ctx) };
  }
  return { has: true, isNone: isNoneValue(scope, v, ctx) };
}

/** `value is None` for a default; a note when the value is not known (then it is taken not to be None). */
export function isNoneValue(scope: ModuleScope, v: Value, ctx: TypeContext = {}): boolean {
  const r = valueOf(v, scope, ctx);
  if (isUnknown(r)) {
    ctx.note?.(`whether the default is None is not known: ${r.reason}`);
    return false;
  }
  return r.t === 'None';
}
