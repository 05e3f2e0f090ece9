// Annotation → TypeSpec (vis-sdk.md §3.2), following the SDK's `_contract_type` (annotation objects)
// and `_contract_ast` (string and postponed annotations) case by case, on annotation source text.
import { resolve } from '../model/sdk';
import type { ClassDecl, FieldDecl, Value } from '../model/types';
import { cleandoc } from '../model/docstring';
import { parseExpr, unparse, type Expr } from './pyexpr';
import { classKey, isDataclass, isScalar, lookupName, memberOf, qualified, type ModuleScope, type PyObj, type Resolver } from './scope';
import type { FieldSpec, TypeSpec } from './types';

const ANY: TypeSpec = { kind: 'any', name: 'Any' };
const any = (): TypeSpec => ({ ...ANY });
const nul = (): TypeSpec => ({ kind: 'null', name: 'None' });
const GENERIC_BASES = ['list', 'tuple', 'dict', 'set', 'frozenset', 'Sequence', 'Mapping', 'PathLike'];

/** Classes and string aliases being expanded (the SDK's `seen`). */
type Seen = readonly string[];

export interface TypeContext extends Resolver {
  /** The sequence field a record class opts into with `@vis.sequence(field=...)` (G3), if any. */
  sequenceField?(scope: ModuleScope, cls: ClassDecl): string | undefined;
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
  if (!expr) return { kind: 'unresolved', name: text };
  return objectType(expr, scope, ctx, seen);
}

/** `_contract_type(str)`: a string annotation, parsed and resolved statically. */
function stringType(text: string, scope: ModuleScope, ctx: TypeContext, seen: Seen): TypeSpec {
  if (seen.includes('S:' + text)) return { kind: 'reference', name: text };
  const next = [...seen, 'S:' + text];
  const expr = parseExpr(text);
  if (!expr) return { kind: 'unresolved', name: text };
  return astType(expr, scope, ctx, next, false);
}

/** An annotation object, given as the expression that built it. */
function objectType(expr: Expr, scope: ModuleScope, ctx: TypeContext, seen: Seen): TypeSpec {
  return astType(expr, scope, ctx, seen, true);
}

/**
 * `_contract_ast`. With `object` set, the expression is an evaluated annotation rather than a
 * string: a subscript of any class with a typing origin is generic, and calls were evaluated (their
 * results are not known: unresolved).
 */
function astType(node: Expr, scope: ModuleScope, ctx: TypeContext, seen: Seen, object: boolean): TypeSpec {
  if (node.type === 'Constant') {
    if (node.kind === 'None') return nul();
    if (node.kind === 'str') return stringType(node.value, scope, ctx, seen);
  }
  if (node.type === 'BinOp' && node.op === '|') {
    return { kind: 'union', name: 'union', arguments: [astType(node.left, scope, ctx, seen, object), astType(node.right, scope, ctx, seen, object)] };
  }
  if (node.type === 'Subscript') {
    const base = annotationName(node.value, scope, ctx);
    const nodes = node.slice.type === 'Tuple' && !node.slice.parens ? node.slice.elts : [node.slice];
    if (base.k === 'typing' && base.name === 'Annotated' && nodes.length) {
      const result = astType(nodes[0], scope, ctx, seen, object);
      const descriptions = nodes.slice(1).flatMap((n) => (n.type === 'Constant' && n.kind === 'str' ? [n.value] : []));
      if (descriptions.length) result.description = descriptions.join('\n');
      return result;
    }
    if (base.k === 'typing' && base.name === 'Literal') {
      return { kind: 'literal', name: 'Literal', values: nodes.flatMap((n) => literalValue(n)) };
    }
    if (base.k === 'typing' && (base.name === 'Union' || base.name === 'Optional')) {
      const args = nodes.map((n) => astType(n, scope, ctx, seen, object));
      if (base.name === 'Optional') args.push(nul());
      return { kind: 'union', name: 'union', arguments: args };
    }
    const origin = genericOrigin(base, object);
    if (origin) {
      if (origin === 'tuple' && nodes.length === 2 && nodes[1].type === 'Constant' && nodes[1].kind === 'Ellipsis') {
        return { kind: 'generic', name: 'tuple', variadic: true, arguments: [astType(nodes[0], scope, ctx, seen, object)] };
      }
      return { kind: 'generic', name: origin, arguments: nodes.map((n) => astType(n, scope, ctx, seen, object)) };
    }
  }
  if (object && node.type === 'Call') return { kind: 'unresolved', name: unparse(node) };
  const resolved = node.type === 'Name' || node.type === 'Attribute' ? annotationName(node, scope, ctx) : ({ k: 'unknown' } as PyObj);
  if (resolved.k !== 'unknown') return objType(resolved, ctx, seen);
  return { kind: 'unresolved', name: unparse(node) };
}

/** Literal values the SDK keeps: str, int, bool and None constants (a negative number is not a constant). */
function literalValue(n: Expr): (string | number | boolean | null)[] {
  if (n.type !== 'Constant') return [];
  if (n.kind === 'str' || n.kind === 'bool') return [n.value];
  if (n.kind === 'int') return [Number(n.value)];
  if (n.kind === 'None') return [null];
  return [];
}

/** The `__name__` of a subscripted base's origin when it is generic: typing aliases and the listed bases. */
function genericOrigin(base: PyObj, object: boolean): string | undefined {
  if (base.k === 'typing' && base.origin) return base.origin;
  if (base.k === 'extclass' && GENERIC_BASES.includes(base.name) && (base.module === 'builtins' || base.module === 'collections.abc' || base.module === 'os')) {
    return base.name;
  }
  // An evaluated `Page[int]` of a user generic class has that class as its origin.
  if (object && base.k === 'class') return base.decl.name;
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
      return { kind: 'unresolved', name: '_SpecialForm' };
    case 'string':
      return stringType(o.text, o.scope, ctx, seen);
    case 'alias': {
      const expr = parseExpr(o.text);
      return expr ? objectType(expr, o.scope, ctx, seen) : { kind: 'unresolved', name: o.text };
    }
    case 'extclass':
      return { kind: isScalar(o) ? 'scalar' : 'opaque', name: o.name };
    case 'class':
      return classType(o, ctx, seen);
    case 'module':
      return { kind: 'unresolved', name: 'module' };
    case 'function':
      return { kind: 'unresolved', name: 'function' };
    case 'value':
      return { kind: 'unresolved', name: o.typeName };
    case 'unknown':
      return { kind: 'unresolved', name: 'unknown' };
  }
}

function classType(o: Extract<PyObj, { k: 'class' }>, ctx: TypeContext, seen: Seen): TypeSpec {
  const name = o.decl.name;
  const key = 'C:' + classKey(o);
  if (seen.includes(key)) return { kind: 'reference', name };
  if (!isDataclass(o.scope, o.decl)) return { kind: 'opaque', name };
  const doc = classDoc(o);
  const result: TypeSpec = { kind: 'record', name, fields: [] };
  if (doc && !doc.startsWith(name + '(')) result.description = doc;
  // The class's own docstring, kept out of the JSON: an Annotated note may replace `description`.
  Object.defineProperty(result, 'classDoc', { value: result.description, enumerable: false });
  const inner = [...seen, key];
  for (const f of dataclassFields(o, ctx)) {
    if (f.decl.name.startsWith('_')) continue;
    const d = fieldDefault(f.owner, f.decl);
    result.fields!.push({
      name: f.decl.name,
      // Field types resolve against the record's own module (a string when the defining module postpones annotations).
      type: annotationType(f.decl.annotation, { ...o.scope, postponed: f.owner.postponed }, ctx, inner),
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
export function fieldDefault(scope: ModuleScope, f: FieldDecl): { has: boolean; isNone: boolean } {
  if (!f.defaultValue) return { has: false, isNone: false };
  const v = f.defaultValue;
  if (v.kind === 'call' && qualified(scope, v.call.callee) === 'dataclasses.field') {
    const def = v.call.args.find((a) => a.name === 'default');
    const factory = v.call.args.find((a) => a.name === 'default_factory');
    if (v.call.args.some((a) => a.splat)) return { has: true, isNone: false };
    return { has: !!def || !!factory, isNone: !!def && isNoneValue(scope, def.value) };
  }
  return { has: true, isNone: isNoneValue(scope, v) };
}

export function isNoneValue(scope: ModuleScope, v: Value): boolean {
  return resolve(scope.model, v).kind === 'none';
}
