// The values of expressions in a module — a parameter default, a `Literal[...]` argument, an
// `Annotated` note — as Python computes them when the module is imported: names through the module's
// bindings and imports (sibling modules through the loader), class attributes, enum members, builtin
// constructors. Each unknown says why (a call result, a module that is not in the workspace or its
// environment, a name bound twice...). Never throws.
import type { Model, Value } from '../model/types';
import { classMember, mro, type ClassRef } from './objects';
import { parseExpr } from './pyexpr';
import { builtinCall, evaluate, isUnknown, unknown, type Env, type PyValue, type Result } from './pyvalue';
import { classKey, qualified, type ModuleScope, type Resolver } from './scope';
import { BUILTIN_FUNCTIONS, isStdlibModule, stdlibConstant } from './stdlib';

/** What an `object` value refers to, for attribute access and calls. */
type Ref =
  | { k: 'class'; cls: ClassRef }
  | { k: 'builtin'; name: string }
  | { k: 'module'; name: string; scope?: ModuleScope }
  | { k: 'enum'; cls: ClassRef; member: string };

type Obj = Extract<PyValue, { t: 'object' }> & { ref?: Ref };

const BUILTIN_TYPES = new Set(['int', 'float', 'complex', 'bool', 'str', 'bytes', 'tuple', 'list', 'dict', 'set', 'frozenset', 'object', 'type', 'bytearray', 'memoryview', 'range', 'slice', 'property', 'staticmethod', 'classmethod', 'Exception', 'BaseException', 'ValueError', 'TypeError', 'KeyError', 'RuntimeError']);

const MAX_DEPTH = 48;

/** Where a module is reported from: its file name. */
function moduleLabel(model: Model): string {
  return model.uri.slice(model.uri.lastIndexOf('/') + 1);
}

/** The value of a model value (a default, a field default) in its module. */
export function valueOf(v: Value, scope: ModuleScope, r: Resolver): Result {
  return new ModuleEnv(scope, r, new Set()).value(v, 0);
}

/** The value of an expression's source text in a module. */
export function valueOfText(text: string, scope: ModuleScope, r: Resolver): Result {
  const expr = parseExpr(text);
  if (!expr) return unknown(`\`${short(text)}\` is an expression the checker does not evaluate`);
  return evaluate(expr, new ModuleEnv(scope, r, new Set()));
}

/** An environment for `evaluate`: a module's names, shared cycle guard across modules. */
export function moduleEnv(scope: ModuleScope, r: Resolver): Env {
  return new ModuleEnv(scope, r, new Set());
}

function short(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 60 ? one.slice(0, 57) + '...' : one;
}

class ModuleEnv implements Env {
  constructor(
    private scope: ModuleScope,
    private r: Resolver,
    private visiting: Set<string>,
  ) {}

  private in(scope: ModuleScope): ModuleEnv {
    return scope === this.scope ? this : new ModuleEnv(scope, this.r, this.visiting);
  }

  value(v: Value, depth: number): Result {
    if (depth > MAX_DEPTH) return unknown('names refer to each other too deeply to follow');
    switch (v.kind) {
      // Literals the model already holds exactly (a str's value is Python's): no need to parse them again.
      case 'none':
        return { t: 'None' };
      case 'bool':
        return { t: 'bool', v: v.value };
      case 'str':
        return { t: 'str', v: v.value };
      case 'ellipsis':
        return { t: 'Ellipsis' };
      case 'lambda':
        return { t: 'object', type: 'function', id: `lambda:${this.scope.model.uri}:${v.range.start.line}:${v.range.start.character}` };
      case 'comprehension':
        return v.of === 'generator' ? { t: 'object', type: 'generator', id: `instance:${v.range.start.line}:${v.range.start.character}` } : unknown(`a ${v.of} comprehension is not evaluated`);
      default: {
        const expr = parseExpr(v.text);
        if (!expr) return unknown(`\`${short(v.text)}\` is an expression the checker does not evaluate`);
        return evaluate(expr, this, depth + 1);
      }
    }
  }

  name(id: string, depth: number): Result {
    if (depth > MAX_DEPTH) return unknown('names refer to each other too deeply to follow');
    const model = this.scope.model;
    const bindings = model.bindings.get(id);
    if (!bindings || bindings.length === 0) return builtinName(id, model);
    if (bindings.length > 1) return unknown(`\`${id}\` is bound more than once in ${moduleLabel(model)}`);
    const b = bindings[0];
    switch (b.kind) {
      case 'assign': {
        const key = `${model.uri}#${id}`;
        if (this.visiting.has(key)) return unknown(`\`${id}\` refers to itself`);
        this.visiting.add(key);
        try {
          return this.value(b.value, depth + 1);
        } finally {
          this.visiting.delete(key);
        }
      }
      case 'function':
        return { t: 'object', type: 'function', id: `function:${model.uri}#${id}` };
      case 'class':
        return classObject({ k: 'class', scope: this.scope, decl: b.decl, outer: [] });
      case 'import': {
        const imp = b.binding;
        if (imp.name === undefined) return this.module(imp.aliased ? imp.module : imp.local);
        const mod = this.module(imp.module);
        return isUnknown(mod) ? mod : this.attribute(mod, imp.name, `${imp.module}.${imp.name}`, depth + 1, true);
      }
      default:
        return unknown(`\`${id}\` is bound by a statement the checker does not evaluate (a loop, a \`with\`, an unpacking...)`);
    }
  }

  private module(name: string): Result {
    const scope = this.r.loader?.load(this.scope, name);
    return { t: 'object', type: 'module', id: `module:${scope?.model.uri ?? name}`, ref: { k: 'module', name, scope } } as Obj;
  }

  attribute(base: PyValue, attr: string, source: string, depth: number, imported = false): Result {
    if (depth > MAX_DEPTH) return unknown('names refer to each other too deeply to follow');
    const ref = base.t === 'object' ? (base as Obj).ref : undefined;
    if (!ref) return unknown(`the attribute \`${source}\` is not evaluated`);
    if (ref.k === 'module') {
      if (ref.scope) {
        if (ref.scope.model.bindings.has(attr)) return this.in(ref.scope).name(attr, depth + 1);
        const sub = this.r.loader?.load(ref.scope, ref.name.endsWith('.') ? ref.name + attr : `${ref.name}.${attr}`);
        if (sub) return { t: 'object', type: 'module', id: `module:${sub.model.uri}`, ref: { k: 'module', name: `${ref.name}.${attr}`, scope: sub } } as Obj;
        return unknown(`evaluating it raises ${imported ? 'ImportError' : 'AttributeError'}: \`${ref.name}\` has no \`${attr}\` the checker can find`);
      }
      const constant = stdlibConstant(ref.name, attr);
      if (constant) return constant;
      if (isStdlibModule(ref.name)) {
        // A submodule of a standard-library package (`os.path`), or another member: not evaluated.
        if (ref.name === 'os' && attr === 'path') return { t: 'object', type: 'module', id: 'module:os.path', ref: { k: 'module', name: 'os.path' } } as Obj;
        return unknown(`\`${ref.name}.${attr}\` from the standard library is not evaluated`);
      }
      const sub = this.r.loader?.load(this.scope, `${ref.name}.${attr}`);
      if (sub) return { t: 'object', type: 'module', id: `module:${sub.model.uri}`, ref: { k: 'module', name: `${ref.name}.${attr}`, scope: sub } } as Obj;
      return unknown(`\`${attr}\` is imported from \`${ref.name}\`, which is not in the workspace or its environment`);
    }
    if (ref.k === 'class') return classAttribute(ref.cls, attr, this.r, (scope, v) => this.in(scope).value(v, depth + 1));
    return unknown(`the attribute \`${source}\` is not evaluated`);
  }

  call(callee: PyValue, args: Result[], keywords: { arg?: string; value: Result }[], source: string): Result {
    const ref = callee.t === 'object' ? (callee as Obj).ref : undefined;
    if (ref?.k === 'builtin') {
      const folded = builtinCall(ref.name, args, keywords);
      if (folded) return folded;
      // complex(...) builds a value Vis would render: not evaluated. Other builtin types give objects Vis does not render.
      if (ref.name === 'complex' || ref.name === 'type') return unknown(`\`${source}\` is not evaluated`);
      return { t: 'object', type: ref.name, id: instanceId() };
    }
    if (ref?.k === 'class') {
      // An instance of a class of the workspace: a Vis default renders only built-in literals, so it has no source text.
      return { t: 'object', type: ref.cls.decl.name, id: instanceId() };
    }
    if (callee.t === 'object' && callee.type === 'function') return unknown(`a call result (\`${source}\`): the value is what the call returns at import time`);
    return unknown(`a call result (\`${source}\`) is not evaluated`);
  }
}

let instances = 0;
function instanceId(): string {
  return `instance:${++instances}`;
}

function classObject(cls: ClassRef): Obj {
  return { t: 'object', type: 'type', id: `class:${classKey(cls)}`, ref: { k: 'class', cls } };
}

function builtinName(id: string, model: Model): Result {
  if (BUILTIN_TYPES.has(id)) return { t: 'object', type: 'type', id: `builtins.${id}`, ref: { k: 'builtin', name: id } } as Obj;
  if (BUILTIN_FUNCTIONS.has(id)) return { t: 'object', type: 'builtin_function_or_method', id: `builtins.${id}` };
  return unknown(`\`${id}\` is not defined in ${moduleLabel(model)} (NameError when it is evaluated, unless a \`from ... import *\` binds it)`);
}

/** Whether a class derives from `enum.Enum` (or IntEnum, StrEnum, Flag...): its attributes are members. */
function isEnum(cls: ClassRef, r: Resolver): boolean | undefined {
  const order = mro(cls, r);
  const enumBase = order.classes.some((c) => c.decl.bases.some((b) => qualified(c.scope, b.replace(/\[.*$/s, '').trim())?.startsWith('enum.')));
  if (enumBase) return true;
  return order.complete ? false : undefined;
}

/** `Cls.attr`: an enum member, a class attribute's value, a method or nested class. */
function classAttribute(cls: ClassRef, attr: string, r: Resolver, valueIn: (scope: ModuleScope, v: Value) => Result): Result {
  const e = classMember(cls, attr, r);
  const name = cls.decl.name;
  const enumness = isEnum(cls, r);
  if (!e) {
    return mro(cls, r).complete ? unknown(`evaluating it raises AttributeError: \`${name}\` has no attribute \`${attr}\``) : unknown(`\`${name}.${attr}\` may come from a base class the checker cannot read`);
  }
  if (e.kind === 'method' || e.kind === 'descriptor') return { t: 'object', type: 'function', id: `function:${classKey(cls)}.${attr}` };
  if (e.kind === 'class') return classObject(e.cls);
  if (enumness === undefined) return unknown(`whether \`${name}\` is an Enum is not known (a base class the checker cannot read)`);
  if (enumness && !attr.startsWith('_')) return { t: 'object', type: name, id: `enum:${classKey(cls)}.${attr}`, ref: { k: 'enum', cls, member: attr } } as Obj;
  return valueIn(e.owner.scope, e.value);
}

