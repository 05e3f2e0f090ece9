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
  | {
      k: 'function';
      scope: ModuleScope;
      decl: FunctionDecl;
      bound: boolean;
      owner?: ClassRef;
      isStatic?: boolean;
      /** When a decorator replaced the def by a wrapper (`decl`): the def itself, which carries the `vis.method` metadata. */
      origin?: { scope: ModuleScope; decl: FunctionDecl };
    }
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
      return fromPyObj(lookupName(scope, v.name, r), r);
    }
    case 'attribute': {
      const parts = v.path.split('.');
      const head = evalValue(scope, { kind: 'name', name: parts[0], range: v.range, text: parts[0] }, r, depth + 1);
      return parts.slice(1).reduce<Obj>((o, attr) => attributeOf(o, attr, r), head);
    }
    case 'member':
      // `Tools().describe`: a bound method of a new instance.
      return attributeOf(evalValue(scope, v.object, r, depth + 1), v.attr, r);
    case 'call': {
      if (v.call.inner) {
        // `vis.method(...)(fn)` returns fn; any other call of a call's result is not known.
        const first = v.call.args[0];
        const q = qualified(scope, v.call.inner.callee);
        return q === 'blockether.vis.extension.method' && first && !first.name && !first.splat && v.call.args.length === 1 ? evalValue(scope, first.value, r, depth + 1) : { k: 'unknown' };
      }
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

function fromPyObj(o: PyObj, r: Resolver): Obj {
  switch (o.k) {
    case 'class':
      return { k: 'class', cls: o };
    case 'function': {
      const decl = o.decl ?? o.scope.model.functions.find((f) => f.name === o.name);
      if (!decl) return { k: 'unknown' };
      const made = decorated(o.scope, decl, r);
      return made ? { k: 'function', scope: made.scope, decl: made.decl, bound: false, ...(made.decl !== decl ? { origin: { scope: o.scope, decl } } : {}) } : { k: 'unknown' };
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
    if (!m) return o.k === 'class' ? fromPyObj(memberOf(o.cls, attr, r), r) : { k: 'unknown' };
    if (m.kind === 'method') {
      const bound = o.k === 'instance' ? !m.isStatic : m.isClassMethod;
      return methodObj(m, bound, r);
    }
    return { k: 'unknown' };
  }
  return { k: 'unknown' };
}

/** A method as an object: the def, or what its decorators made of it (a wrapper), or unknown. */
export function methodObj(m: Extract<ClassEntry, { kind: 'method' }>, bound: boolean, r: Resolver): Obj {
  const made = decorated(m.owner.scope, m.decl, r);
  if (!made) return { k: 'unknown' };
  return { k: 'function', scope: made.scope, decl: made.decl, bound, owner: m.owner, isStatic: m.isStatic, ...(made.decl !== m.decl ? { origin: { scope: m.owner.scope, decl: m.decl } } : {}) };
}

/** Decorators that return the function they are given, or a wrapper that copies it (`functools.update_wrapper`). */
const TRANSPARENT = new Set([
  'blockether.vis.extension.method',
  'functools.lru_cache',
  'functools.cache',
  'abc.abstractmethod',
  'typing.final',
  'typing_extensions.final',
  'typing.override',
  'typing_extensions.override',
]);
const DESCRIPTORS = new Set(['staticmethod', 'classmethod', 'property', 'builtins.staticmethod', 'builtins.classmethod', 'builtins.property', 'functools.cached_property']);
const WRAPS = new Set(['functools.wraps', 'functools.update_wrapper']);

/**
 * What a def's decorators make of it (bottom-up): the def itself when each decorator returns what it
 * is given or a `functools.wraps` copy of it; the inner `def` a decorator returns without `wraps`
 * (its own name, docstring and signature: `inspect.getdoc(wrapper)` is then the wrapper's); undefined
 * when a decorator cannot be read (imported from code the checker cannot see, or doing anything else).
 */
export function decorated(scope: ModuleScope, decl: FunctionDecl, r: Resolver): { scope: ModuleScope; decl: FunctionDecl } | undefined {
  let current = { scope, decl };
  for (const d of [...decl.decorators].reverse()) {
    const q = qualified(scope, d.name);
    if (!d.name) return undefined;
    if ((q && TRANSPARENT.has(q)) || (q && DESCRIPTORS.has(q)) || DESCRIPTORS.has(d.name) || /\.(setter|getter|deleter)$/.test(d.name)) continue;
    let fn = evalValue(scope, { kind: 'attribute', path: d.name, range: d.range, text: d.name }, r);
    if (fn.k !== 'function') return undefined;
    if (d.call) {
      // A decorator factory: it returns the decorator, a nested def.
      const made = returned(fn.decl);
      if (!made || made.kind !== 'def') return undefined;
      fn = { k: 'function', scope: fn.scope, decl: made.decl, bound: false };
    }
    const param = fn.decl.params[0]?.name;
    const result = param ? returned(fn.decl) : undefined;
    if (!result) return undefined;
    if (result.kind === 'name' && result.name === param) continue;
    if (result.kind !== 'def') return undefined;
    const copies = result.decl.decorators.some((w) => {
      const wq = qualified(fn.scope, w.name);
      const first = w.call?.args[0];
      return !!wq && WRAPS.has(wq) && first?.value.kind === 'name' && first.value.name === param;
    });
    if (copies) continue;
    if (result.decl.decorators.length) return undefined;
    current = { scope: (fn as Extract<Obj, { k: 'function' }>).scope, decl: result.decl };
  }
  return current;
}

/** What a function returns, when its body ends in one `return` of a name or of a nested def. */
function returned(fn: FunctionDecl): { kind: 'name'; name: string } | { kind: 'def'; decl: FunctionDecl } | undefined {
  const body = fn.body;
  if (body.returns.length !== 1) return undefined;
  const v = body.returns[0];
  if (v.kind !== 'name') return undefined;
  const def = body.functions.find((f) => f.name === v.name);
  if (def) return body.functions.filter((f) => f.name === v.name).length === 1 ? { kind: 'def', decl: def } : undefined;
  return { kind: 'name', name: v.name };
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
