// What a module does when its code runs, not when it is imported: the bodies of its functions and methods
// (nested ones included) and its lambdas, with every call resolved through the imports in effect there
// (a parameter or local name that shadows an import is nobody's SDK). Bodies are read only when their text
// names something a runtime rule looks at (an SDK module's alias, `os`, `environ`...), so a module that
// never calls the SDK at run time costs nothing here.
import { flavourOf, qualify, sameList } from './sdk';
import type { BodyFlow, Call, ClassDecl, FunctionDecl, ImportBinding, Model, Param, Value } from './types';
import { derivedCache } from './derived';

/** Modules whose names make a body worth reading. */
const WATCHED = /^(?:vis|blockether|vis_lang_interface|os)(?:\.|$)/;

/** A function body, read: what it does, and how a dotted name written in it resolves. */
export interface Body {
  fn: FunctionDecl;
  flow: BodyFlow;
  /** The functions around it, innermost first (itself excluded). */
  outer: FunctionDecl[];
  /** The qualified name a dotted name refers to inside the body, or undefined (a local, or not imported). */
  qualify(dotted: string): string | undefined;
  /** Whether a name is the body's own (a parameter or a local of it or of a function around it). */
  local(name: string): boolean;
}

/** A call made when code runs: a copy whose `qualified` and `sdk` say what it calls from where it is written. */
export interface RuntimeCall {
  call: Call;
  /** The function body it is in (undefined for a lambda written at module level). */
  body?: Body;
  /** The lambda it is in, when it is in one. */
  lambda?: Extract<Value, { kind: 'lambda' }>;
  /** Whether a name is local where the call is written (so the module's binding of it is not what it is). */
  local(name: string): boolean;
  /** The qualified name a dotted name refers to where the call is written. */
  qualify(dotted: string): string | undefined;
}

interface Scope {
  names: ReadonlySet<string>;
  imports: readonly ImportBinding[];
}

function scopeOfFunction(fn: FunctionDecl, flow: BodyFlow): Scope {
  const names = new Set(flow.locals);
  for (const p of fn.params) names.add(p.name);
  return { names, imports: flow.imports };
}

function scopeOfParams(params: readonly Param[]): Scope {
  return { names: new Set(params.map((p) => p.name)), imports: [] };
}

function resolveIn(model: Model, scopes: readonly Scope[], dotted: string): string | undefined {
  const head = dotted.split('.', 1)[0];
  for (const s of scopes) {
    const imp = [...s.imports].reverse().find((i) => i.local === head);
    if (imp) {
      const base = imp.name !== undefined ? `${imp.module}.${imp.name}` : imp.aliased ? imp.module : head;
      return base + dotted.slice(head.length);
    }
    if (s.names.has(head)) return undefined;
  }
  return qualify(model, dotted);
}

/** The names a body must mention to be read, as a pattern and as the words in it. */
interface Watched {
  pattern: RegExp;
  /** Every alternative of the pattern: a text that contains none of them cannot match it. */
  words: string[];
}

/** The names a body must mention to be read (undefined: none, so no body is read). */
function watchedNames(model: Model): Watched | undefined {
  const names = new Set<string>();
  for (const imp of model.imports) {
    const target = imp.name !== undefined ? `${imp.module}.${imp.name}` : imp.module;
    if (WATCHED.test(target)) names.add(imp.local);
  }
  if (!names.size) return undefined;
  // Imports inside a body bring their own names in: `import` is enough to read it.
  const words = [...names, 'import', 'environ', 'getenv'];
  return { pattern: new RegExp(`\\b(?:${words.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\b`, 'u'), words };
}

/** The module's functions, then the methods of its classes (nested classes after their class). */
function functionsOf(model: Model): FunctionDecl[] {
  const out = model.functions.slice();
  const methodsOf = (cs: readonly ClassDecl[]): void => {
    for (const c of cs) {
      for (const m of c.methods) out.push(m);
      methodsOf(c.classes);
    }
  };
  methodsOf(model.classes);
  return out;
}

const cache = derivedCache<{ bodies: Body[]; calls: RuntimeCall[] }>();
/** Whether a function's text mentions the watched names, by the pattern (functions are kept between versions). */
const mentions = new WeakMap<FunctionDecl, { pattern: string; hit: boolean }>();

function mentionsWatched(fn: FunctionDecl, watched: Watched): boolean {
  const source = watched.pattern.source;
  const kept = mentions.get(fn);
  if (kept && kept.pattern === source) return kept.hit;
  const hit = mentionsAny(fn.text, watched.words);
  mentions.set(fn, { pattern: source, hit });
  return hit;
}

/** Whether `text` holds one of `words` between word boundaries, as the watched pattern's `\b(?:…)\b` tells (without running it). */
function mentionsAny(text: string, words: readonly string[]): boolean {
  for (const w of words) {
    for (let at = text.indexOf(w); at !== -1; at = text.indexOf(w, at + 1)) {
      const end = at + w.length;
      if (wordChar(text, at - 1) !== wordChar(text, at) && wordChar(text, end - 1) !== wordChar(text, end)) return true;
    }
  }
  return false;
}

/** A regular expression's `\w` (ASCII letters, digits, `_`) at `i`; false outside the text. */
function wordChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/** The model a kept function's runtime reads resolve names through: its current version. */
interface At {
  model: Model;
}

/** What a function does at run time, kept with the function (its statement) while the module's imports and watched names are the same. */
interface Kept {
  pattern: string;
  imports: readonly ImportBinding[];
  at: At;
  bodies: Body[];
  calls: RuntimeCall[];
}

const perFunction = new WeakMap<FunctionDecl, Kept>();

const local = (scopes: readonly Scope[]) => (name: string) => scopes.some((s) => s.names.has(name) || s.imports.some((i) => i.local === name));

function resolved(at: At, call: Call, scopes: readonly Scope[]): Call {
  if (call.inner) return call;
  const qualified = resolveIn(at.model, scopes, call.callee);
  return { ...call, qualified, sdk: flavourOf(qualified) };
}

function lambdaCalls(at: At, l: Extract<Value, { kind: 'lambda' }>, scopes: readonly Scope[], calls: RuntimeCall[], body?: Body): void {
  const inner = [scopeOfParams(l.params), ...scopes];
  const isLocal = local(inner);
  const q = (dotted: string) => resolveIn(at.model, inner, dotted);
  for (const c of l.calls) calls.push({ call: resolved(at, c, inner), body, lambda: l, local: isLocal, qualify: q });
}

/** What a function that mentions none of the watched names does at run time (shared: never added to). */
const NOTHING_AT_RUNTIME: { bodies: Body[]; calls: RuntimeCall[] } = { bodies: [], calls: [] };

/** One module-level function or method read (with the functions inside it). */
function runtimeOf(at: At, fn: FunctionDecl, watched: Watched): { bodies: Body[]; calls: RuntimeCall[] } {
  // Most functions mention none of the watched names: nothing is read, nothing is made.
  if (!mentionsWatched(fn, watched)) return NOTHING_AT_RUNTIME;
  const bodies: Body[] = [];
  const calls: RuntimeCall[] = [];
  const visit = (fn: FunctionDecl, outer: FunctionDecl[], scopes: readonly Scope[]) => {
    if (!mentionsWatched(fn, watched)) return;
    const flow = fn.body.flow;
    const mine = [scopeOfFunction(fn, flow), ...scopes];
    const body: Body = { fn, flow, outer, qualify: (dotted) => resolveIn(at.model, mine, dotted), local: local(mine) };
    bodies.push(body);
    for (const c of flow.calls) calls.push({ call: resolved(at, c, mine), body, local: body.local, qualify: body.qualify });
    for (const l of flow.lambdas) lambdaCalls(at, l, mine, calls, body);
    for (const inner of flow.functions) visit(inner, [fn, ...outer], mine);
  };
  visit(fn, [], []);
  return { bodies, calls };
}

function collect(model: Model): { bodies: Body[]; calls: RuntimeCall[] } {
  const hit = cache.get(model);
  if (hit) return hit;
  const bodies: Body[] = [];
  const calls: RuntimeCall[] = [];
  const watched = watchedNames(model);
  if (watched) {
    // A function's part is read again only when its statement, the module's imports or the watched names
    // changed: what it resolves is looked up in the current version (`at`), so no older one is kept.
    const imports = model.imports;
    for (const fn of functionsOf(model)) {
      let kept = perFunction.get(fn);
      if (kept && kept.pattern === watched.pattern.source && sameList(kept.imports, imports)) {
        kept.at.model = model;
        kept.imports = imports;
      } else {
        const at = { model };
        kept = { pattern: watched.pattern.source, imports, at, ...runtimeOf(at, fn, watched) };
        perFunction.set(fn, kept);
      }
      for (const b of kept.bodies) bodies.push(b);
      for (const c of kept.calls) calls.push(c);
    }
    const at = { model };
    for (const l of moduleLambdas(model)) lambdaCalls(at, l, [], calls);
  }
  const out = { bodies, calls };
  cache.set(model, out);
  return out;
}

/** Lambdas written at module level: in the arguments of module-level calls and in assigned values. */
export function moduleLambdas(model: Model): Extract<Value, { kind: 'lambda' }>[] {
  const out = new Set<Extract<Value, { kind: 'lambda' }>>();
  const walk = (v: Value, depth: number): void => {
    if (depth > 64) return;
    switch (v.kind) {
      case 'lambda':
        out.add(v);
        return;
      case 'list':
      case 'tuple':
      case 'set':
        for (const i of v.items) walk(i, depth + 1);
        return;
      case 'dict':
        for (const e of v.entries) walk(e.value, depth + 1);
        return;
      default:
        return;
    }
  };
  for (const c of model.calls) for (const a of c.args) walk(a.value, 0);
  for (const list of model.bindings.values()) for (const b of list) if (b.kind === 'assign') walk(b.value, 0);
  return [...out];
}

/** The function bodies of the module that mention an SDK (or `os`), read. */
export function runtimeBodies(model: Model): Body[] {
  return collect(model).bodies;
}

/** Every call made at run time (in function bodies and lambdas), resolved from where it is written. */
export function runtimeCalls(model: Model): RuntimeCall[] {
  return collect(model).calls;
}

const bySdkMember = derivedCache<Map<string, RuntimeCall[]>>();

/** The calls made at run time to one SDK member (`typed.log`, `g1.state.get`), found once for every rule that asks. */
export function runtimeCallsOf(model: Model, flavour: string, member: string): readonly RuntimeCall[] {
  let index = bySdkMember.get(model);
  if (!index) {
    index = new Map();
    for (const r of collect(model).calls) {
      const sdk = r.call.sdk;
      if (!sdk) continue;
      const key = `${sdk.flavour}.${sdk.member}`;
      const list = index.get(key);
      if (list) list.push(r);
      else index.set(key, [r]);
    }
    bySdkMember.set(model, index);
  }
  return index.get(`${flavour}.${member}`) ?? [];
}
