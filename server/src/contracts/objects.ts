// Objects statically: what a value passed to `vis.Symbol` is (a function, a bound method, an
// instance of a class the checker can read...), and the attribute traversal of an instance the SDK
// does for the namespace form (`_public_members`, `_object_symbol_specs`; vis-sdk.md §2.4).
import { resolve } from '../model/sdk';
import type { ClassDecl, FunctionDecl, Range, Value } from '../model/types';
import { lookupName, memberOf, qualified, type ModuleScope, type PyObj, type Resolver } from './scope';
import { baseClass } from './typespec';

export type ClassRef = Extract<PyObj, { k: 'class' }>;

/** What an expression evaluates to, as far as it is statically known. */
export type Obj =
  /** A module-level function, a method (bound when reached through an instance), or a lambda. */
  | { k: 'function'; scope: ModuleScope; decl: FunctionDecl; bound: boolean; owner?: ClassRef; isStatic?: boolean }
  | { k: 'lambda'; range: Range }
  /** A class object (callable: calling it constructs an instance). */
  | { k: 'class'; cls: ClassRef }
  /** An instance of a class the checker can read; `identity` tells two references to one object apart. */
  | { k: 'instance'; cls: ClassRef; identity: string }
  /** A value that is neither callable nor a namespace object, by its Python type name. */
  | { k: 'plain'; typeName: string }
  /** A callable whose contract is not known (a partial, a builtin, an imported object...). */
  | { k: 'callable' }
  | { k: 'unknown' };

const VALUE_TYPE: Partial<Record<Value['kind'], string>> = {
  str: 'str', bytes: 'bytes', int: 'int', float: 'float', complex: 'complex', bool: 'bool', none: 'NoneType',
  ellipsis: 'ellipsis', list: 'list', tuple: 'tuple', set: 'set', dict: 'dict',
};

/** The object a module-level expression (an argument of `vis.Symbol`) stands for. */
export function evalValue(scope: ModuleScope, raw: Value, r: Resolver, depth = 0): Obj {
  if (depth > 16) return { k: 'unknown' };
  const v = raw;
  const plain = VALUE_TYPE[v.kind];
  if (plain) return { k: 'plain', typeName: plain };
  switch (v.kind) {
    case 'comprehension':
      return { k: 'plain', typeName: v.of };
    case 'lambda':
      return { k: 'lambda', range: v.range };
    case 'name': {
      const bindings = scope.model.bindings.get(v.name);
      if (bindings && bindings.length === 1 && bindings[0].kind === 'assign') {
        const inner = bindings[0].value;
        const o = evalValue(scope, inner, r, depth + 1);
        // A module-level `tools = Tools()`: one object, whatever name reaches it.
        if (o.k === 'instance' && inner.kind === 'call') return { ...o, identity: `${scope.model.uri}:${v.name}` };
        return o;
      }
      if (bindings && bindings.length > 1) return { k: 'unknown' };
      return fromPyObj(lookupName(scope, v.name, r));
    }
    case 'attribute': {
      const parts = v.path.split('.');
      const head = evalValue(scope, { kind: 'name', name: parts[0], range: v.range, text: parts[0] }, r, depth + 1);
      return parts.slice(1).reduce<Obj>((o, attr) => attributeOf(o, attr, r), head);
    }
    case 'call': {
      const callee = evalValue(scope, { kind: 'attribute', path: v.call.callee, range: v.call.calleeRange, text: v.call.callee }, r, depth + 1);
      if (callee.k === 'class') return { k: 'instance', cls: callee.cls, identity: `${scope.model.uri}:${v.range.start.line}:${v.range.start.character}` };
      const q = qualified(scope, v.call.callee);
      if (q === 'functools.partial') return { k: 'callable' };
      return { k: 'unknown' };
    }
    default:
      return { k: 'unknown' };
  }
}

function fromPyObj(o: PyObj): Obj {
  switch (o.k) {
    case 'class':
      return { k: 'class', cls: o };
    case 'function': {
      const decl = o.scope.model.functions.find((f) => f.name === o.name);
      return decl ? { k: 'function', scope: o.scope, decl, bound: false } : { k: 'unknown' };
    }
    case 'module':
      return { k: 'plain', typeName: 'module' };
    case 'none':
      return { k: 'plain', typeName: 'NoneType' };
    case 'value':
      return { k: 'plain', typeName: o.typeName };
    case 'string':
      return { k: 'plain', typeName: 'str' };
    default:
      return { k: 'unknown' };
  }
}

function attributeOf(o: Obj, attr: string, r: Resolver): Obj {
  if (o.k === 'class' || o.k === 'instance') {
    const m = classMember(o.cls, attr, r);
    if (!m) return o.k === 'class' ? fromPyObj(memberOf(o.cls, attr, r)) : { k: 'unknown' };
    if (m.kind === 'method') {
      const bound = o.k === 'instance' ? !m.isStatic : m.isClassMethod;
      return { k: 'function', scope: m.owner.scope, decl: m.decl, bound, owner: m.owner, isStatic: m.isStatic };
    }
    return { k: 'unknown' };
  }
  return { k: 'unknown' };
}

/** The class's linearised bases (C3 over the classes the checker can read); `complete` is false when a base is not known. */
export function mro(cls: ClassRef, r: Resolver): { classes: ClassRef[]; complete: boolean } {
  let complete = true;
  const lin = (c: ClassRef, depth: number): ClassRef[] => {
    if (depth > 16) {
      complete = false;
      return [c];
    }
    const bases: ClassRef[] = [];
    for (const b of c.decl.bases) {
      const text = b.replace(/\s+/g, '');
      if (text === 'object') continue;
      const ref = baseClass(c.scope, b, r);
      if (ref) bases.push(ref);
      else if (!/^(typing\.)?(Generic|Protocol)(\[.*\])?$/.test(text)) complete = false;
    }
    const seqs = [...bases.map((b) => lin(b, depth + 1)), bases];
    const out: ClassRef[] = [c];
    for (;;) {
      const live = seqs.filter((s) => s.length);
      if (!live.length) return out;
      const head = live.map((s) => s[0]).find((h) => !live.some((s) => s.slice(1).some((x) => same(x, h))));
      if (!head) {
        complete = false;
        return out;
      }
      out.push(head);
      for (const s of live) if (same(s[0], head)) s.shift();
    }
  };
  return { classes: lin(cls, 0), complete };
}

export function same(a: ClassRef, b: ClassRef): boolean {
  return a.decl === b.decl;
}

/** A public or private entry of a class's `vars()`. */
export type ClassEntry =
  | { kind: 'method'; name: string; owner: ClassRef; decl: FunctionDecl; isStatic: boolean; isClassMethod: boolean; range: Range }
  /** A decorated function whose decorator makes it a non-routine (`@property`, `@cached_property`): its type name. */
  | { kind: 'descriptor'; name: string; owner: ClassRef; decl: FunctionDecl; typeName: string; range: Range }
  | { kind: 'class'; name: string; owner: ClassRef; cls: ClassRef; range: Range }
  | { kind: 'value'; name: string; owner: ClassRef; value: Value; range: Range };

/** `vars(cls)` in definition order (methods, nested classes, assignments and annotated fields with a value). */
export function classEntries(cls: ClassRef): ClassEntry[] {
  const d = cls.decl;
  const out: ClassEntry[] = [];
  for (const m of d.methods) {
    const kinds = m.decorators.map((dec) => decoratorKind(cls.scope, dec.name));
    const descriptor = kinds.find((k) => k === 'property' || k === 'cached_property');
    if (descriptor) out.push({ kind: 'descriptor', name: m.name, owner: cls, decl: m, typeName: descriptor, range: m.range });
    else out.push({ kind: 'method', name: m.name, owner: cls, decl: m, isStatic: kinds.includes('staticmethod'), isClassMethod: kinds.includes('classmethod'), range: m.range });
  }
  for (const c of d.classes) out.push({ kind: 'class', name: c.name, owner: cls, cls: { k: 'class', scope: cls.scope, decl: c, outer: [...cls.outer, cls.decl] }, range: c.range });
  for (const a of d.attributes) out.push({ kind: 'value', name: a.name, owner: cls, value: a.value, range: a.range });
  for (const f of d.fields) if (f.defaultValue) out.push({ kind: 'value', name: f.name, owner: cls, value: f.defaultValue, range: f.range });
  // A later assignment to the same name keeps the first position (dict semantics).
  out.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  const merged: ClassEntry[] = [];
  for (const e of out) {
    const i = merged.findIndex((m) => m.name === e.name);
    if (i === -1) merged.push(e);
    else merged[i] = e;
  }
  return merged;
}

export function decoratorKind(scope: ModuleScope, name: string | undefined): string | undefined {
  if (!name) return undefined;
  if (name === 'property' || name === 'staticmethod' || name === 'classmethod') {
    if (!scope.model.bindings.has(name)) return name;
  }
  const q = qualified(scope, name);
  if (q === 'functools.cached_property') return 'cached_property';
  if (q === 'builtins.property') return 'property';
  if (q?.endsWith('.setter') || q?.endsWith('.getter') || q?.endsWith('.deleter')) return 'property';
  return undefined;
}

/** The entry `getattr(cls, name)` finds first along the MRO. */
export function classMember(cls: ClassRef, name: string, r: Resolver): ClassEntry | undefined {
  for (const c of mro(cls, r).classes) {
    const e = classEntries(c).find((x) => x.name === name);
    if (e) return e;
  }
  return undefined;
}

/** The `__init__` that runs for an instance, with the class that defines it. */
export function initOf(cls: ClassRef, r: Resolver): { decl: FunctionDecl; owner: ClassRef } | undefined {
  for (const c of mro(cls, r).classes) {
    const init = c.decl.methods.find((m) => m.name === '__init__');
    if (init) return { decl: init, owner: c };
  }
  return undefined;
}

export function isCallableClass(cls: ClassRef, r: Resolver): boolean {
  return !!classMember(cls, '__call__', r);
}

export function classOfDecl(scope: ModuleScope, decl: ClassDecl): ClassRef {
  return { k: 'class', scope, decl, outer: [] };
}

export { resolve };
