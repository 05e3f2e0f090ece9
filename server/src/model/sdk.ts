// How a file uses the Vis SDK: which SDK its imports name, what each call resolves to, and the
// generation (G1 `vis.extension`, G2 `vis.register`, G3 `vis.register_extension`).
import type { Binding, Call, ClassDecl, Decorator, FunctionDecl, ImportBinding, Model, Pos, SdkFlavour, Value } from './types';
import { derivedCache } from './derived';
import { advanced, betweenSteps } from '../slices';

export const TYPED_MODULE = 'blockether.vis.extension';
export const G1_MODULE = 'vis';

/**
 * The fully qualified name a dotted name refers to through the module's imports: the import in effect,
 * the last unconditional import of the name before `at` (module-level code), or in the whole module when
 * no position is given (what function bodies see once the module ran). `import vis` followed by `import
 * blockether.vis.extension as vis` binds the typed module. A name imported only conditionally (a
 * try/except fallback) refers to its first import.
 */
export function qualify(model: Model, dotted: string, at?: Pos): string | undefined {
  const dot = dotted.indexOf('.');
  const head = dot === -1 ? dotted : dotted.slice(0, dot);
  const rest = dot === -1 ? '' : dotted.slice(dot);
  const binding = importOf(model, head, at);
  if (!binding) return undefined;
  const base = binding.name !== undefined ? `${binding.module}.${binding.name}` : binding.aliased ? binding.module : head;
  return base + rest;
}

function before(a: Pos, b: Pos): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

/**
 * Each model's imports by the name they bind, in source order (every import binding is one of
 * `model.imports`): looked up for every call and decorator, found once per version.
 */
const importsByName = derivedCache<Map<string, ImportBinding[]>>();

function importsNamed(model: Model, name: string): readonly ImportBinding[] {
  let byName = importsByName.get(model);
  if (!byName) {
    byName = new Map();
    for (const imp of model.imports) {
      const list = byName.get(imp.local);
      if (list) list.push(imp);
      else byName.set(imp.local, [imp]);
    }
    importsByName.set(model, byName);
  }
  return byName.get(name) ?? NO_IMPORTS;
}

const NO_IMPORTS: readonly ImportBinding[] = [];

function importOf(model: Model, name: string, at?: Pos): ImportBinding | undefined {
  const imports = importsNamed(model, name);
  for (let i = imports.length - 1; i >= 0; i--) {
    const b = imports[i];
    if (!b.conditional && (!at || before(b.statementRange.start, at))) return b;
  }
  return imports[0];
}

export function flavourOf(qualified: string | undefined): { flavour: SdkFlavour; member: string } | undefined {
  if (!qualified) return undefined;
  if (qualified.startsWith(TYPED_MODULE + '.')) return { flavour: 'typed', member: qualified.slice(TYPED_MODULE.length + 1) };
  if (qualified.startsWith(G1_MODULE + '.')) return { flavour: 'g1', member: qualified.slice(G1_MODULE.length + 1) };
  return undefined;
}

/** The SDK member a call resolves to (`Symbol`, `register_extension`, `extension`...), with its SDK. */
export function sdkCall(call: Call): { flavour: SdkFlavour; member: string } | undefined {
  return call.sdk;
}

export function isTyped(call: Call, member: string): boolean {
  const s = sdkCall(call);
  return s?.flavour === 'typed' && s.member === member;
}

function importTarget(imp: ImportBinding): string {
  return imp.name !== undefined ? `${imp.module}.${imp.name}` : imp.module;
}

/** Which SDK an import brings in: the typed `blockether.vis.extension` or the G1 `vis` module. */
export function importFlavour(imp: ImportBinding): SdkFlavour | undefined {
  const target = importTarget(imp);
  if (target === TYPED_MODULE || target.startsWith(TYPED_MODULE + '.')) return 'typed';
  if (imp.name === undefined && (imp.module === G1_MODULE || imp.module.startsWith(G1_MODULE + '.'))) return 'g1';
  return undefined;
}

/** The decorators of a class, its methods and its nested classes. */
export function allDecorators(cls: ClassDecl): Decorator[] {
  return [...cls.decorators, ...cls.methods.flatMap((m) => m.decorators), ...cls.classes.flatMap(allDecorators)];
}

/**
 * Qualifies every call and decorator and finds the SDK imports. The generation is decided afterwards,
 * from these and the project's evidence, by the SDK profile (server/src/sdk/profile.ts).
 */
export function detectSdk(model: Model): void {
  const imports = importsToken(model.imports);
  for (const call of model.calls) {
    // A call of a call's result is no SDK member, whatever its text starts with.
    if (call.inner) continue;
    if (!qualifiedAgain(call, imports)) {
      call.qualified = qualify(model, call.callee, call.range.start);
      qualifiedUnder.set(call, { imports, qualified: call.qualified });
      // The same object while it names the same member: what is kept per call and member (its SDK
      // member, server/src/sdk/table.ts) stays valid from version to version.
      const sdk = flavourOf(call.qualified);
      if (sdk?.flavour !== call.sdk?.flavour || sdk?.member !== call.sdk?.member) call.sdk = sdk;
    }
    if (!call.sdk) continue;
    const key = `${call.sdk.flavour}.${call.sdk.member}`;
    const list = model.sdkCalls.get(key);
    if (list) list.push(call);
    else model.sdkCalls.set(key, [call]);
  }
  const qualifyDecorators = (decorators: Decorator[]) => {
    for (const d of decorators) {
      if (!d.name || qualifiedAgain(d, imports)) continue;
      d.qualified = qualify(model, d.name, d.range.start);
      qualifiedUnder.set(d, { imports, qualified: d.qualified });
    }
  };
  const qualifyClass = (cls: ClassDecl): void => {
    qualifyDecorators(cls.decorators);
    for (const m of cls.methods) qualifyDecorators(m.decorators);
    for (const c of cls.classes) qualifyClass(c);
  };
  for (const f of model.functions) qualifyDecorators(f.decorators);
  for (const c of model.classes) qualifyClass(c);
  for (const imp of model.imports) {
    const flavour = importFlavour(imp);
    if (flavour && !model.sdkImports.some((s) => s.range.start.line === imp.statementRange.start.line && s.flavour === flavour)) {
      model.sdkImports.push({ flavour, range: imp.statementRange, text: importTarget(imp) });
    }
  }
  // `fn = vis.method(...)(fn)` keeps the function (vis.method returns what it is given): the name
  // stays bound to the def, and the call is kept with the other after-the-fact decorations.
  const rebound: [string, Binding[]][] = [];
  model.bindings.forEach((list, name) => {
    if (list.length < 2 || !list.some((b) => b.kind === 'function')) return;
    const kept = list.filter((b) => !(b.kind === 'assign' && methodApplication(b.value, name)));
    if (kept.length === list.length) return;
    for (const b of list) if (!kept.includes(b) && b.kind === 'assign') model.attributeAssignments.push({ target: name, value: b.value, range: b.range });
    rebound.push([name, kept]);
  });
  for (const [name, kept] of rebound) model.bindings.set(name, kept);
}

/**
 * What each call and decorator of a module was last qualified to, and under which imports. A statement
 * kept from the last version keeps its objects (server/src/model/build.ts), and kept statements keep
 * their order, so under the same imports (the same objects, the list `importsToken` gives) it
 * qualifies as it did: an edit elsewhere qualifies none of them again.
 */
const qualifiedUnder = new WeakMap<Call | Decorator, { imports: readonly ImportBinding[]; qualified: string | undefined }>();

/** Whether a call or decorator qualified under these imports already holds what that gave (nothing else wrote it since). */
function qualifiedAgain(o: Call | Decorator, imports: readonly ImportBinding[]): boolean {
  const was = qualifiedUnder.get(o);
  return was !== undefined && was.imports === imports && was.qualified === o.qualified;
}

/** Lists of imports met lately, one per set of import objects (a few modules' last versions). */
const importLists: (readonly ImportBinding[])[] = [];

/** The one list for a module's imports while they are the same objects (what qualifies through them alone can be kept under it). */
export function importsToken(imports: readonly ImportBinding[]): readonly ImportBinding[] {
  for (const list of importLists) if (sameList(list, imports)) return list;
  const list = imports.slice();
  importLists.unshift(list);
  if (importLists.length > IMPORT_LISTS) importLists.pop();
  return list;
}

const IMPORT_LISTS = 16;

/**
 * The `vis.method(...)` call a value applies to `target`: `vis.method(tag="mutation")(target)` or
 * `vis.method(target, tag=...)`. Undefined when the value is anything else.
 */
export function methodApplication(v: Value, target: string): Call | undefined {
  if (v.kind !== 'call') return undefined;
  const c = v.call;
  const first = c.args[0];
  const names =
    !!first && first.name === undefined && !first.splat && ((first.value.kind === 'name' && first.value.name === target) || (first.value.kind === 'attribute' && first.value.path === target));
  if (!names) return undefined;
  if (c.inner && c.args.length === 1 && isTyped(c.inner, 'method')) return c.inner;
  if (isTyped(c, 'method')) return c;
  return undefined;
}

/** The `vis.method(...)` calls applied at module level to a function or method after its definition (`Tools.save = vis.method(...)(Tools.save)`). */
export function methodPatches(model: Model, target: string): Call[] {
  const out: Call[] = [];
  for (const a of model.attributeAssignments) {
    if (a.target !== target) continue;
    const call = methodApplication(a.value, target);
    if (call) out.push(call);
  }
  return out;
}

const bodyCallCache = derivedCache<Map<string, Call[]>>();

/** The module-level functions and the methods of its classes at any depth. */
export function allFunctions(model: Model): FunctionDecl[] {
  const out = [...model.functions];
  const visitClass = (c: ClassDecl) => {
    out.push(...c.methods);
    for (const n of c.classes) visitClass(n);
  };
  for (const c of model.classes) visitClass(c);
  return out;
}

/**
 * The SDK calls function bodies make (declarations built when a tool, a render callback or a provider
 * callback runs), keyed like `model.sdkCalls` (`typed.ActivityPresentation`). A body is read only when
 * its text names something the module imports from the SDK, so files whose functions do not use the SDK
 * pay nothing. Names resolve through the module's imports as the function sees them once the module ran
 * (the function's own names are left out by `FunctionDecl.calls`).
 */
export function bodyCalls(model: Model): Map<string, Call[]> {
  let out = bodyCallCache.get(model);
  if (out) return out;
  out = new Map();
  const names = [...new Set(model.imports.filter((i) => importFlavour(i) !== undefined).map((i) => i.local))];
  if (!names.length) {
    bodyCallCache.set(model, out);
    return out;
  }
  const imports = model.imports;
  const watched = names.join(' ');
  // Most modules have no factory: one read of that, not a lookup per function (each noted by a unit that reads these).
  const factories = model.factories.size > 0;
  for (const fn of allFunctions(model)) {
    // Reading thousands of bodies takes a while: in a sliced job it stops between them when the slice's
    // time is up, and the next slice goes on with the bodies read kept (bodyCallsOfFunction).
    betweenSteps();
    // A factory's calls are module-level calls already (they run at import).
    const factory = factories && model.factories.has(fn);
    let kept = bodyCallsOfFunction.get(fn);
    if (kept && kept.watched === watched && kept.factory === factory && sameList(kept.imports, imports)) kept.imports = imports;
    else {
      bodyCallsOfFunction.set(fn, (kept = { watched, factory, imports, calls: factory ? [] : callsInBody(model, fn, names, 0) }));
      advanced();
    }
    for (const [key, call] of kept.calls) {
      const list = out.get(key);
      if (list) list.push(call);
      else out.set(key, [call]);
    }
  }
  bodyCallCache.set(model, out);
  return out;
}

/**
 * The SDK calls of each function's body, kept with the function (its statement) while the module's
 * imports are the same: what a call qualifies to depends on them alone.
 */
const bodyCallsOfFunction = new WeakMap<FunctionDecl, { watched: string; factory: boolean; imports: readonly ImportBinding[]; calls: [string, Call][] }>();

/** Whether two lists hold the same items (a module's imports between versions). */
export function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function callsInBody(model: Model, fn: FunctionDecl, names: readonly string[], depth: number): [string, Call][] {
  if (depth > 8 || (depth > 0 && model.factories.has(fn)) || !names.some((n) => fn.source.includes(n))) return [];
  const out: [string, Call][] = [];
  for (const call of fn.calls) {
    if (call.inner) continue;
    call.qualified = qualify(model, call.callee);
    call.sdk = flavourOf(call.qualified);
    if (call.sdk) out.push([`${call.sdk.flavour}.${call.sdk.member}`, call]);
  }
  for (const inner of fn.body.functions) out.push(...callsInBody(model, inner, names, depth + 1));
  return out;
}

export interface Registration {
  kind: 'G1' | 'G2' | 'G3';
  call: Call;
}

/** Every registration call in the file: G1 `vis.extension(...)`, G2 `register(...)`, G3 `register_extension(...)`. */
export function registrations(model: Model): Registration[] {
  const out: Registration[] = [];
  for (const call of model.calls) {
    const s = sdkCall(call);
    if (!s) continue;
    if (s.flavour === 'g1' && s.member === 'extension') out.push({ kind: 'G1', call });
    if (s.flavour === 'typed' && s.member === 'register') out.push({ kind: 'G2', call });
    if (s.flavour === 'typed' && s.member === 'register_extension') out.push({ kind: 'G3', call });
  }
  return out;
}

/**
 * The value a name stands for when the module binds it exactly once (to a literal, a module-level
 * function or class, or another such name); anything else stays as it is (`name`) and counts as unknown.
 */
export function resolve(model: Model, v: Value, depth = 0): Value {
  if (v.kind === 'call' && depth <= 16 && !v.call.args.length && !v.call.inner) {
    // A static factory's result (`_hooks()` where `def _hooks(): return [...]`).
    const fn = functionNamed(model, v.call.callee);
    const made = fn && model.factories.get(fn);
    return made ? resolve(model, made, depth + 1) : v;
  }
  if (v.kind !== 'name' || depth > 16) return v;
  const bindings = model.bindings.get(v.name);
  if (!bindings || bindings.length !== 1) return v;
  const b = bindings[0];
  if (b.kind === 'function') return { kind: 'function', name: b.name, range: v.range, text: v.text };
  if (b.kind === 'class') return { kind: 'class', name: b.name, range: v.range, text: v.text };
  if (b.kind === 'assign') return resolve(model, b.value, depth + 1);
  return v;
}

/** The module-level function a name binds, when the module binds that name exactly once. */
export function functionNamed(model: Model, name: string): FunctionDecl | undefined {
  const b = model.bindings.get(name);
  return b?.length === 1 && b[0].kind === 'function' ? b[0].decl : undefined;
}

/** The module-level class a name binds, when the module binds that name exactly once. */
export function classNamed(model: Model, name: string): ClassDecl | undefined {
  const b = model.bindings.get(name);
  return b?.length === 1 && b[0].kind === 'class' ? b[0].decl : undefined;
}

/**
 * True when a value is statically known: a literal, a module-level function or class, a lambda, a
 * comprehension, or a call to an SDK declaration the file's SDK version has (whose result is that
 * declaration). A name, an attribute, any other call's result or another expression is unknown.
 */
export function isKnown(v: Value): boolean {
  if (v.kind === 'call') return v.call.sdk !== undefined && !v.call.sdk.missing;
  return v.kind !== 'name' && v.kind !== 'attribute' && v.kind !== 'unknown';
}

/** Whether Python's `callable()` is true of a value: true, false, or undefined when unknown. */
export function isCallable(v: Value): boolean | undefined {
  switch (v.kind) {
    case 'function':
    case 'class':
    case 'lambda':
      return true;
    case 'str':
    case 'bytes':
    case 'int':
    case 'float':
    case 'complex':
    case 'bool':
    case 'none':
    case 'ellipsis':
    case 'list':
    case 'tuple':
    case 'set':
    case 'dict':
    case 'comprehension':
      return false;
    default:
      return undefined;
  }
}

/** Python truthiness of a known value, or undefined. */
export function truthy(v: Value): boolean | undefined {
  switch (v.kind) {
    case 'str':
      return v.value.length > 0;
    case 'int':
    case 'float':
    case 'complex':
      return v.value !== 0;
    case 'bool':
      return v.value;
    case 'none':
      return false;
    case 'list':
    case 'tuple':
    case 'set':
      return v.items.length > 0;
    case 'dict':
      return v.entries.length > 0;
    case 'function':
    case 'class':
    case 'lambda':
    case 'ellipsis':
      return true;
    default:
      return undefined;
  }
}
