// What a name in a module stands for, found statically the way the SDK's `_annotation_name` finds
// it (the module's globals, then builtins; attributes only of modules and classes), without
// importing or running anything. Sibling modules come from a `ModuleLoader` (server/src/workspace).
import { qualify } from '../model/sdk';
import type { Binding, ClassDecl, FunctionDecl, ImportBinding, Model, Value } from '../model/types';

export interface ModuleScope {
  model: Model;
  /** The file's path, when it has one (relative imports resolve from it). */
  path?: string;
  /** Annotations are strings: `from __future__ import annotations`, or an entry file (loaded as if it had it). */
  postponed: boolean;
}

/** Finds the modules an import names. */
export interface ModuleLoader {
  /** The module `name` (dotted; leading dots for a relative import) as imported from `from`, or undefined when it is not a user module it can read. */
  load(from: ModuleScope, name: string): ModuleScope | undefined;
}

export function scopeOf(model: Model, opts: { path?: string; entry?: boolean } = {}): ModuleScope {
  return { model, path: opts.path, postponed: model.futureAnnotations || !!opts.entry };
}

/** Something a name can stand for. */
export type PyObj =
  | { k: 'class'; scope: ModuleScope; decl: ClassDecl; outer: ClassDecl[] }
  /** A built-in or standard-library class, by its `__name__` (`str`, `list`, `Path`, `Sequence`...). */
  | { k: 'extclass'; name: string; module: string }
  /** A `typing` special form (`Any`, `Optional`, `Union`, `Literal`, `Annotated`) or alias with an origin (`List` → list). */
  | { k: 'typing'; name: string; origin?: string }
  | { k: 'module'; name: string; scope?: ModuleScope }
  | { k: 'none' }
  /** A module-level string: a string alias, parsed again as an annotation. */
  | { k: 'string'; text: string; scope: ModuleScope }
  /** A module-level type expression (`Alias = list[int]`), evaluated as an annotation object. */
  | { k: 'alias'; text: string; scope: ModuleScope }
  /** A module-level function. */
  | { k: 'function'; scope: ModuleScope; name: string; decl?: FunctionDecl }
  /** Some other value, by its type name. */
  | { k: 'value'; typeName: string }
  | { k: 'unknown' };

const SCALARS = ['str', 'int', 'float', 'bool', 'bytes'];
const BUILTIN_CLASSES = [
  ...SCALARS,
  'object', 'list', 'dict', 'tuple', 'set', 'frozenset', 'type', 'complex', 'bytearray', 'memoryview', 'range', 'slice',
  'Exception', 'BaseException', 'ValueError', 'TypeError', 'KeyError', 'RuntimeError', 'property', 'staticmethod', 'classmethod',
];

export function isScalar(o: PyObj): boolean {
  return o.k === 'extclass' && o.module === 'builtins' && SCALARS.includes(o.name);
}

// typing names: special forms, and aliases whose `get_origin` is a class (by the origin's __name__).
const TYPING_ORIGIN: Record<string, string> = {
  List: 'list', Dict: 'dict', Set: 'set', FrozenSet: 'frozenset', Tuple: 'tuple', Type: 'type',
  Sequence: 'Sequence', MutableSequence: 'MutableSequence', Mapping: 'Mapping', MutableMapping: 'MutableMapping',
  Iterable: 'Iterable', Iterator: 'Iterator', Collection: 'Collection', Container: 'Container', AbstractSet: 'Set',
  MutableSet: 'MutableSet', Callable: 'Callable', Generator: 'Generator', AsyncIterator: 'AsyncIterator',
  AsyncIterable: 'AsyncIterable', AsyncGenerator: 'AsyncGenerator', Awaitable: 'Awaitable', Coroutine: 'Coroutine',
  Reversible: 'Reversible', KeysView: 'KeysView', ValuesView: 'ValuesView', ItemsView: 'ItemsView',
  DefaultDict: 'defaultdict', OrderedDict: 'OrderedDict', Counter: 'Counter', Deque: 'deque', ChainMap: 'ChainMap',
};
const TYPING_FORMS = ['Any', 'Optional', 'Union', 'Literal', 'Annotated', 'ClassVar', 'Final', 'NoReturn', 'Never', 'TypeAlias', 'Self', 'LiteralString', 'Required', 'NotRequired'];
const TYPING_CLASSES: Record<string, string> = { Text: 'str', Hashable: 'Hashable', Sized: 'Sized', NamedTuple: 'NamedTuple', TypedDict: 'TypedDict', Protocol: 'Protocol', Generic: 'Generic' };
const ABC_CLASSES = ['Sequence', 'MutableSequence', 'Mapping', 'MutableMapping', 'Iterable', 'Iterator', 'Collection', 'Container', 'Set', 'MutableSet', 'Callable', 'Generator', 'Hashable', 'Sized', 'Awaitable', 'Coroutine', 'AsyncIterable', 'AsyncIterator', 'AsyncGenerator', 'Reversible', 'KeysView', 'ValuesView', 'ItemsView', 'MappingView', 'Buffer'];

/** Members of standard-library modules the checker knows; anything else imported from a module it cannot read is taken to be a class. */
function stdlibMember(module: string, name: string): PyObj | undefined {
  if (module === 'typing' || module === 'typing_extensions') {
    if (TYPING_FORMS.includes(name)) return { k: 'typing', name };
    if (TYPING_ORIGIN[name]) return { k: 'typing', name, origin: TYPING_ORIGIN[name] };
    if (TYPING_CLASSES[name]) return { k: 'extclass', name: TYPING_CLASSES[name], module: name === 'Text' ? 'builtins' : 'typing' };
    if (name === 'TYPE_CHECKING') return { k: 'value', typeName: 'bool' };
    return { k: 'unknown' };
  }
  if (module === 'collections.abc') return ABC_CLASSES.includes(name) ? { k: 'extclass', name, module } : { k: 'unknown' };
  if (module === 'os') {
    if (name === 'PathLike') return { k: 'extclass', name, module: 'os' };
    if (name === 'path') return { k: 'module', name: 'os.path' };
    return { k: 'unknown' };
  }
  if (module === 'builtins') return builtin(name);
  if (module === 'types' && name === 'NoneType') return { k: 'none' };
  if (module === 'collections' && name === 'abc') return { k: 'module', name: 'collections.abc' };
  if (module === 'dataclasses' || module === 'enum' || module === 'functools' || module === '__future__') return { k: 'unknown' };
  return undefined;
}

function builtin(name: string): PyObj {
  if (BUILTIN_CLASSES.includes(name)) return { k: 'extclass', name, module: 'builtins' };
  if (name === 'None') return { k: 'none' };
  return { k: 'unknown' };
}

export interface Resolver {
  loader?: ModuleLoader;
}

/** What `name` stands for in the module: its globals first, then builtins. */
export function lookupName(scope: ModuleScope, name: string, r: Resolver, depth = 0): PyObj {
  if (depth > 24) return { k: 'unknown' };
  const bindings = scope.model.bindings.get(name);
  if (bindings && bindings.length) {
    let fallback: PyObj | undefined;
    for (const b of bindings) {
      const o = fromBinding(scope, b, r, depth);
      if (o.k !== 'unknown') return o;
      fallback ??= o;
    }
    return fallback ?? { k: 'unknown' };
  }
  return builtin(name);
}

function fromBinding(scope: ModuleScope, b: Binding, r: Resolver, depth: number): PyObj {
  switch (b.kind) {
    case 'class':
      return { k: 'class', scope, decl: b.decl, outer: [] };
    case 'function':
      return { k: 'function', scope, name: b.name, decl: b.decl };
    case 'import':
      return fromImport(scope, b.binding, r, depth);
    case 'assign':
      return fromValue(scope, b.value, r, depth);
    default:
      return { k: 'unknown' };
  }
}

export function fromImport(scope: ModuleScope, imp: ImportBinding, r: Resolver, depth: number): PyObj {
  if (imp.name === undefined) {
    // `import a.b as c` binds a.b; `import a.b` binds a.
    const moduleName = imp.aliased ? imp.module : imp.local;
    return moduleObj(scope, moduleName, r);
  }
  return memberOf(moduleObj(scope, imp.module, r), imp.name, r, depth + 1, scope);
}

function moduleObj(scope: ModuleScope, name: string, r: Resolver): PyObj {
  const loaded = r.loader?.load(scope, name);
  return { k: 'module', name, scope: loaded };
}

/** `vars(parent).get(attr)` for a module or class; anything else has no statically known attribute. */
export function memberOf(parent: PyObj, attr: string, r: Resolver, depth = 0, from?: ModuleScope): PyObj {
  if (parent.k === 'module') {
    if (parent.scope) {
      if (parent.scope.model.bindings.has(attr)) return lookupName(parent.scope, attr, r, depth + 1);
      // A submodule (`from . import models`, `pkg.models`).
      const sub = r.loader?.load(parent.scope, parent.name.endsWith('.') ? parent.name + attr : `${parent.name}.${attr}`);
      if (sub) return { k: 'module', name: `${parent.name}.${attr}`, scope: sub };
      return { k: 'unknown' };
    }
    const std = stdlibMember(parent.name, attr);
    if (std) return std;
    if (from && r.loader) {
      const sub = r.loader.load(from, parent.name.endsWith('.') ? parent.name + attr : `${parent.name}.${attr}`);
      if (sub) return { k: 'module', name: `${parent.name}.${attr}`, scope: sub };
    }
    // A module the checker cannot read (a third-party or standard-library one): a class by that name is the likely meaning.
    return { k: 'extclass', name: attr, module: parent.name };
  }
  if (parent.k === 'class') {
    const nested = parent.decl.classes.find((c) => c.name === attr);
    if (nested) return { k: 'class', scope: parent.scope, decl: nested, outer: [...parent.outer, parent.decl] };
    return { k: 'unknown' };
  }
  return { k: 'unknown' };
}

function fromValue(scope: ModuleScope, v: Value, r: Resolver, depth: number): PyObj {
  switch (v.kind) {
    case 'str':
      return { k: 'string', text: v.value, scope };
    case 'none':
      return { k: 'none' };
    case 'name':
      return lookupName(scope, v.name, r, depth + 1);
    case 'attribute': {
      const parts = v.path.split('.');
      let o = lookupName(scope, parts[0], r, depth + 1);
      for (const p of parts.slice(1)) o = memberOf(o, p, r, depth + 1, scope);
      return o;
    }
    case 'int':
    case 'float':
    case 'complex':
    case 'bool':
    case 'bytes':
    case 'list':
    case 'tuple':
    case 'set':
    case 'dict':
      return { k: 'value', typeName: v.kind === 'bool' ? 'bool' : v.kind };
    case 'unknown':
      // A subscript or `|` expression: a type alias object.
      return /[[|]/.test(v.text) ? { k: 'alias', text: v.text, scope } : { k: 'unknown' };
    case 'call': {
      // `TypeVar("T")`, `NewType(...)`: not classes; their type names are not knowable here.
      return { k: 'unknown' };
    }
    default:
      return { k: 'unknown' };
  }
}

/** The fully qualified name of a decorator or base written in a module (through its imports). */
export function qualified(scope: ModuleScope, dotted: string | undefined): string | undefined {
  if (!dotted) return undefined;
  return qualify(scope.model, dotted) ?? dotted;
}

/** Whether a class is a dataclass (`@dataclass`, `@dataclasses.dataclass`, with or without arguments). */
export function isDataclass(scope: ModuleScope, cls: ClassDecl): boolean {
  return cls.decorators.some((d) => {
    const q = qualified(scope, d.name);
    return q === 'dataclasses.dataclass' || q === 'pydantic.dataclasses.dataclass';
  });
}

/** A unique key for a class (module and nesting path). */
export function classKey(o: Extract<PyObj, { k: 'class' }>): string {
  return `${o.scope.model.uri}#${[...o.outer.map((c) => c.name), o.decl.name].join('.')}@${o.decl.range.start.line}`;
}
