// Every `vis.Symbol(...)` in a file: its form (function or object namespace), its contract in the
// chosen format, its generated doc text, and the SDK refusals it would raise (SYM-001…SYM-016) —
// all from the declaration model, never by running the file.
import { SliceExpired, betweenSteps, stepMemo } from '../slices';
import { isKnown, methodPatches, resolve, sdkCall } from '../model/sdk';
import type { Argument, Call, ClassDecl, FunctionDecl, Model, Range, Value } from '../model/types';
import { isIdentifier } from '../rules/util';
import { bindSdkCall, tagsOf, vocabularyList } from '../sdk/table';
import { callableContract, factoryDefault, functionSource, type CallableSource, type ParamSource } from './callable';
import { valueOfText } from './constants';
import { isUnknown } from './pyvalue';
import { contractDoc } from './doc';
import { cleandoc, isBlankDoc } from '../model/docstring';
import {
  classEntries,
  classMember,
  evalValue,
  initOf,
  isCallableClass,
  methodObj,
  mro,
  type ClassEntry,
  type ClassRef,
  type Obj,
} from './objects';
import { pyStrRepr } from './pyrepr';
import { qualified, scopeOf, type ModuleLoader, type ModuleScope } from './scope';
import { dataclassFields, fieldDefault, type TypeContext } from './typespec';
import { isDataclass } from './scope';
import type { CallableContract, Contract, ContractFormat, UnknownPart } from './types';

export interface ContractOptions {
  format: ContractFormat;
  loader?: ModuleLoader;
  /** The file's path, for relative imports. */
  path?: string;
  /** False for a module an entry imports: Vis loads only entry files as if they had `from __future__ import annotations`. Default true. */
  entry?: boolean;
  /** The module's scope, when the program gives one (it follows the module's versions). */
  scope?: ModuleScope;
  /** Analyses one Symbol, or gives its analysis for an earlier version when nothing it read changed (the program's). */
  memo?: (call: Call, analyse: () => SymbolInfo) => SymbolInfo;
  /** Changes whenever any module changes: contracts computed lazily are computed again after that. */
  version?: () => number;
}

export interface Issue {
  rule: string;
  message: string;
  range: Range;
  /** The module the offending declaration is in, when it is not the module of the Symbol. */
  uri?: string;
  /** The function a docstring issue is about (for the docstring stub quick fix). */
  decl?: FunctionDecl;
}

/** Where a declaration is written. */
interface At {
  uri: string;
  range: Range;
}

/** One exported callable: the function form's target, or one namespace member. */
export interface ToolInfo {
  /** Full public name (`store.items.put` for a member). */
  name: string;
  tag: string;
  hidden: boolean;
  contract: CallableContract;
  doc: string;
  /** Where it is defined, when that is a `def` in a file the checker read. */
  decl?: FunctionDecl;
  declUri?: string;
  /** The model of the module it is defined in, when that is another module (rules read its names). */
  declModel?: Model;
  /** A member that has an explicit activity (`@vis.method(activity=...)`), for SYM-008. */
  hasActivity: boolean;
  /** Why `tag` is not a tag the SDK version accepts (the SDK's message), when it is not: the hover shows it as invalid. */
  invalidTag?: string;
  /** The parts of `contract` that are not statically known, and why (computed with the contract). */
  unknowns: UnknownPart[];
}

export interface SymbolInfo {
  call: Call;
  form: 'function' | 'object' | 'unknown';
  /** The public (root) name, when statically known. */
  name?: string;
  hidden?: boolean;
  contract?: Contract;
  tools: ToolInfo[];
  issues: Issue[];
  /** Why no contract could be built, for the hover. */
  unknownReason?: string;
  /** Tools (or namespace members) of this Symbol whose contract is not known, with the reason: empty when every tool is known. */
  unknownTools: UnknownPart[];
}

function tagMessage(prefix: string, vocab: readonly string[], got?: string): string {
  return `${prefix} tag must be ${vocabularyList(vocab)}${got !== undefined ? `, got ${got}` : ''}`;
}

/** Python's repr() of a statically known value (for the "got ..." part of messages). */
export function reprValue(v: Value): string {
  switch (v.kind) {
    case 'str':
      return pyStrRepr(v.value);
    case 'none':
      return 'None';
    case 'bool':
      return v.value ? 'True' : 'False';
    default:
      return v.text;
  }
}

/** Whether the call is a typed-SDK `Symbol(...)`. */
export function isSymbolCall(call: Call): boolean {
  const s = sdkCall(call);
  return s?.flavour === 'typed' && s.member === 'Symbol';
}

/**
 * Computes the contracts and doc pages of the tools (otherwise computed when first read), one tool a
 * step, so that a caller can run the steps in slices (the server: `stepsInSlices`) for a file of many tools.
 */
export function* contractSteps(infos: SymbolInfo[]): Generator<void> {
  for (const info of infos) {
    void info.contract;
    for (const t of info.tools) {
      void t.contract;
      void t.doc;
      yield;
    }
  }
}

/** Every Symbol declaration in the file, analysed. */
export function symbolInfos(model: Model, opts: ContractOptions): SymbolInfo[] {
  if (model.generation !== 'G2' && model.generation !== 'G3') return [];
  const scope = opts.scope ?? scopeOf(model, { path: opts.path, entry: opts.entry ?? true });
  const ctx = typeContext(opts.loader);
  // In a sliced job, a Symbol at a time: the ones analysed are kept for the next slice.
  const done = stepMemo<Call, SymbolInfo>('symbols');
  const analyse = (call: Call): SymbolInfo => {
    const hit = done?.get(call);
    if (hit) return hit;
    betweenSteps();
    try {
      const info = withUnknownTools(analyseSymbol(scope, call, opts, ctx), scope, ctx);
      done?.set(call, info);
      return info;
    } catch (e) {
      if (e instanceof SliceExpired) throw e;
      // One Symbol that trips the analysis must not take the file's other Symbols with it.
      const reason = `internal error, not analysed: ${e instanceof Error ? e.message : String(e)}`;
      return { call, form: 'unknown', tools: [], issues: [], unknownReason: reason, unknownTools: [{ where: call.args[0]?.value.text ?? 'vis.Symbol(...)', reason }] };
    }
  };
  const memo = opts.memo;
  return model.calls.filter(isSymbolCall).map((call) => (memo ? memo(call, () => analyse(call)) : analyse(call)));
}

/** A Symbol without a contract is one unknown tool, named by its argument; a partial namespace lists its unknown members. */
function withUnknownTools(info: SymbolInfo, scope: ModuleScope, ctx: TypeContext): SymbolInfo {
  // `contract` is a lazy getter: only whether there is one is asked here, so rules never pay for contracts.
  if (info.unknownReason && !(info instanceof SymbolRead && info.hasContract()) && !info.issues.some((i) => i.rule !== 'SYM-008')) {
    const fn = info.call.args[0];
    info.unknownReason = targetReason(scope, info.call, ctx) ?? info.unknownReason;
    info.unknownTools.unshift({ where: info.name ?? fn?.value.text ?? 'vis.Symbol(...)', reason: info.unknownReason });
  }
  return info;
}

/** Why the first argument of a Symbol is not known, from what it is: a splat, a call result, a name or attribute that cannot be followed. */
function targetReason(scope: ModuleScope, call: Call, ctx: TypeContext): string | undefined {
  const splat = call.args.find((a) => a.splat);
  if (splat) return `its arguments come from a \`${splat.splat}\` splat (\`${splat.value.text}\`), so the exported callable is not known statically`;
  const fn = call.args.find((a) => a.name === 'fn') ?? call.args.find((a) => a.name === undefined);
  if (!fn) return undefined;
  const v = fn.value;
  if (v.kind === 'call') return `its first argument is a call result (\`${v.text.length > 60 ? v.text.slice(0, 57) + '...' : v.text}\`): Vis exports whatever the call returns when the module runs`;
  if (v.kind === 'name' || v.kind === 'attribute') {
    const r = valueOfText(v.text, scope, ctx);
    if (isUnknown(r)) return r.reason;
  }
  return undefined;
}

export function typeContext(loader?: ModuleLoader): TypeContext {
  return {
    loader,
    sequenceField(scope, cls) {
      for (const d of cls.decorators) {
        const q = qualified(scope, d.name);
        if (q !== 'blockether.vis.extension.sequence' || !d.call) continue;
        const f = d.call.args.find((a) => a.name === 'field');
        const v = f && resolve(scope.model, f.value);
        if (v?.kind === 'str') return v.value;
      }
      return undefined;
    },
  };
}

function analyseSymbol(scope: ModuleScope, call: Call, opts: ContractOptions, ctx: TypeContext): SymbolInfo {
  const info = new SymbolRead(call);
  const bound = bindSdkCall(scope.model, call);
  const fnArg = bound?.get('fn');
  if (!bound || !fnArg) {
    info.unknownReason = fnArg ? 'its arguments are not statically known' : 'it has no first argument (a TypeError when the module runs)';
    return info;
  }
  const model = scope.model;
  const vocab = tagsOf(model);
  const issue = (rule: string, message: string, range: Range) => info.issues.push({ rule, message, range });
  const arg = (name: string): { a?: Argument; v?: Value } => {
    const a = bound.get(name);
    return { a, v: a ? resolve(model, a.value) : undefined };
  };
  const hidden = arg('is_hidden');
  const nameA = arg('name');
  const tagA = arg('tag');
  const activity = arg('activity');

  // SYM-001: type(is_hidden) is not bool (checked first).
  if (hidden.v && isKnown(hidden.v) && hidden.v.kind !== 'bool') issue('SYM-001', 'vis.Symbol is_hidden must be a boolean', hidden.a!.value.range);
  info.hidden = hidden.v ? (hidden.v.kind === 'bool' ? hidden.v.value : undefined) : false;

  const target = evalValue(scope, fnArg.value, ctx);
  const tag = tagA.v ? (tagA.v.kind === 'str' ? tagA.v.value : undefined) : 'observation';
  const tagKnown = !tagA.v || isKnown(tagA.v);
  const activityBad = activity.v !== undefined && isKnown(activity.v) && !isActivity(activity.v);
  const activityGiven = activity.v !== undefined && activity.v.kind !== 'none';

  if (target.k === 'function' || target.k === 'lambda') {
    info.form = 'function';
    const fnName = target.k === 'function' ? target.decl.name : '<lambda>';
    // SYM-003: `name or fn.__name__` must be a public identifier.
    let publicName: string | undefined;
    let nameRange = fnArg.value.range;
    if (!nameA.v || (isKnown(nameA.v) && !truthyName(nameA.v))) publicName = fnName;
    else if (nameA.v.kind === 'str') {
      publicName = nameA.v.value;
      nameRange = nameA.a!.value.range;
    } else if (isKnown(nameA.v)) {
      issue('SYM-003', `vis.Symbol name must be a public Python identifier, got ${reprValue(nameA.v)}`, nameA.a!.value.range);
    }
    if (publicName !== undefined && (!isIdentifier(publicName) || publicName.startsWith('_'))) {
      issue('SYM-003', `vis.Symbol name must be a public Python identifier, got ${pyStrRepr(publicName)}`, nameRange);
    }
    info.name = publicName;
    // SYM-004: the tag vocabulary.
    let invalidTag: string | undefined;
    if (tagA.v && tagKnown && (tag === undefined || !vocab.includes(tag))) {
      invalidTag = tagMessage('vis.Symbol', vocab, reprValue(tagA.v));
      issue('SYM-004', invalidTag, tagA.a!.value.range);
    }
    // SYM-005: a docstring.
    const doc = target.k === 'function' ? methodDoc(target, ctx) : undefined;
    if (isBlankDoc(doc)) {
      // On the def that lacks it (in this module or another); a lambda has none: on the argument.
      const where = target.k === 'function' ? { range: target.decl.nameRange, decl: target.decl, ...(target.scope.model.uri !== model.uri ? { uri: target.scope.model.uri } : {}) } : { range: fnArg.value.range };
      info.issues.push({ rule: 'SYM-005', message: `vis.Symbol: ${fnName} needs a docstring - it becomes the model-facing doc()`, ...where });
    }
    // SYM-007: activity must be an Activity.
    if (activityBad) issue('SYM-007', 'activity must be a vis.Activity declaration', activity.a!.value.range);
    // SYM-008 (guidance): no explicit activity.
    if (!activityGiven && activity.v === undefined) {
      issue('SYM-008', `vis.Symbol ${publicName ?? fnName} has no activity=: declare vis.Activity(...) so the tool call is presented; without it only engine execution evidence is shown`, call.calleeRange);
    }
    if (target.k === 'function' && publicName !== undefined && tag !== undefined && !isBlankDoc(doc)) {
      const source = functionSource(target.scope, target.decl, target.bound);
      const tool = lazyTool(
        { name: publicName, tag, hidden: info.hidden ?? false, decl: target.decl, declUri: target.scope.model.uri, ...(target.scope.model !== model ? { declModel: target.scope.model } : {}), hasActivity: activityGiven, ...(invalidTag ? { invalidTag } : {}) },
        (unknowns) => callableContract(source, publicName!, tag, cleandoc(doc!), opts.format, ctx, unknowns),
        opts,
      );
      info.tools.push(tool);
      lazyContract(info, () => tool.contract, opts);
    } else {
      info.unknownReason = publicName === undefined ? 'its name is not statically known' : tag === undefined ? 'its tag is not statically known' : isBlankDoc(doc) ? 'it has no docstring' : 'it is a lambda';
    }
    return info;
  }

  if (target.k === 'unknown' || target.k === 'class') {
    info.unknownReason = target.k === 'class' ? 'the exported object is a class; its contract is not computed' : 'the exported object is not statically known';
    return info;
  }

  // The object path: everything that is not a routine.
  info.form = 'object';
  if (tagA.v && tagKnown && (tag === undefined || !vocab.includes(tag))) issue('SYM-010', tagMessage('vis.Symbol', vocab), tagA.a!.value.range);
  if (activity.v && isKnown(activity.v) && activity.v.kind !== 'none') {
    issue('SYM-011', 'declare object Activity on each vis.method(), not its namespace', activity.a!.value.range);
  }
  const nameOk = nameA.v && nameA.v.kind === 'str' && isIdentifier(nameA.v.value) && !nameA.v.value.startsWith('_');
  if (!nameA.v || (isKnown(nameA.v) && !nameOk)) {
    issue('SYM-012', 'vis.Symbol(object, ...) requires name=<public Python identifier>', nameA.a ? nameA.a.value.range : fnArg.value.range);
  }
  if (!nameOk || target.k !== 'instance') {
    info.unknownReason = target.k !== 'instance' ? 'the exported object is not an instance of a class defined in the workspace' : 'its name is not statically known';
    return info;
  }
  const root = (nameA.v as Extract<Value, { kind: 'str' }>).value;
  info.name = root;
  const walk: Walk = { scope, opts, ctx, symbolTag: tag, symbolHidden: info.hidden, range: fnArg.value.range, issues: info.issues, tools: [], complete: true, gaps: info.unknownTools, seen: new Map() };
  traverse(walk, target, root);
  if (walk.complete && walk.tools.length === 0) issue('SYM-015', 'vis.Symbol(object, ...) requires at least one public method', fnArg.value.range);
  info.tools = walk.tools;
  const complete = walk.complete && tag !== undefined && vocab.includes(tag) && !info.issues.some((i) => i.rule !== 'SYM-008' && i.rule !== 'SYM-018');
  if (!complete) info.unknownReason = walk.complete ? 'the namespace does not construct (see the diagnostics)' : 'part of the namespace is not statically known';
  // When incomplete, still useful in the hover: the members that are known.
  if (complete || walk.tools.length) lazyContract(info, () => ({ version: 1, name: root, members: walk.tools.map((t) => t.contract) }), opts);
  return info;
}

function truthyName(v: Value): boolean {
  return !(v.kind === 'none' || (v.kind === 'str' && v.value === '') || (v.kind === 'bool' && !v.value) || (v.kind === 'int' && v.value === 0));
}

function isActivity(v: Value): boolean {
  if (v.kind === 'none') return true;
  if (v.kind !== 'call') return false;
  const s = sdkCall(v.call);
  if (!s) return true; // the author's own factory: unknown
  return s.flavour === 'typed' && s.member === 'Activity';
}

/** `inspect.getdoc` of a function or method: its docstring, or for a method the same-named method's in the MRO. */
function methodDoc(fn: Extract<Obj, { k: 'function' }>, ctx: TypeContext): string | undefined {
  if (fn.decl.docstring !== undefined || !fn.owner) return fn.decl.docstring;
  for (const c of mro(fn.owner, ctx).classes.slice(1)) {
    const m = c.decl.methods.find((x) => x.name === fn.decl.name);
    if (m?.docstring !== undefined) return m.docstring;
  }
  return undefined;
}

/** `inspect.getdoc(cls)`: the class's docstring or the first one along its MRO. */
function classDocOf(cls: ClassRef, ctx: TypeContext): string | undefined {
  for (const c of mro(cls, ctx).classes) if (c.decl.docstring !== undefined) return c.decl.docstring;
  return undefined;
}

interface Walk {
  scope: ModuleScope;
  opts: ContractOptions;
  ctx: TypeContext;
  symbolTag?: string;
  symbolHidden?: boolean;
  range: Range;
  issues: Issue[];
  tools: ToolInfo[];
  complete: boolean;
  /** Members (or parts of the namespace) that are not known, and why. */
  gaps: UnknownPart[];
  seen: Map<string, string>;
}

/** Part of the namespace is not known: the contract is partial, and the gap is listed. */
function gap(w: Walk, where: string, reason: string): void {
  w.complete = false;
  if (!w.gaps.some((g) => g.where === where && g.reason === reason)) w.gaps.push({ where, reason });
}

type Candidate =
  | { kind: 'method'; entry: Extract<ClassEntry, { kind: 'method' }> }
  | { kind: 'value'; obj: Obj; text: string; at: At };

/** The range an issue about a declaration goes on: the declaration itself (with its module when that is another one), else the Symbol's argument. */
function issueAt(w: Walk, at: At | undefined): { range: Range; uri?: string } {
  if (!at) return { range: w.range };
  return at.uri !== w.scope.model.uri ? { range: at.range, uri: at.uri } : { range: at.range };
}

/** `_object_symbol_specs`: members of an instance in MRO order, then its own attributes. */
function traverse(w: Walk, obj: Extract<Obj, { k: 'instance' }>, path: string, at?: At): void {
  const previous = w.seen.get(obj.identity);
  if (previous !== undefined) {
    w.issues.push({
      rule: 'SYM-014',
      message: `vis.Symbol(object, ...): public attribute ${pyStrRepr(path)} repeats the object already exposed at ${pyStrRepr(previous)}; cycles and repeated references are not supported`,
      ...issueAt(w, at),
    });
    return;
  }
  w.seen.set(obj.identity, path);
  const order = mro(obj.cls, w.ctx);
  if (!order.complete) gap(w, path, `\`${obj.cls.decl.name}\` has a base class the checker cannot read, so members it inherits are not known`);
  const candidates = new Map<string, Candidate>();
  for (const c of [...order.classes].reverse()) {
    for (const e of classEntries(c)) {
      if (e.name.startsWith('_')) continue;
      const at: At = { uri: c.scope.model.uri, range: e.kind === 'class' ? e.cls.decl.nameRange : e.kind === 'value' ? e.range : e.decl.nameRange };
      if (e.kind === 'method') candidates.set(e.name, { kind: 'method', entry: e });
      else if (e.kind === 'descriptor') candidates.set(e.name, { kind: 'value', obj: { k: 'plain', typeName: e.typeName }, text: e.name, at });
      else if (e.kind === 'class') candidates.set(e.name, { kind: 'value', obj: { k: 'class', cls: e.cls }, text: e.name, at });
      else candidates.set(e.name, { kind: 'value', obj: classValue(c, e.value, w), text: e.value.text, at });
    }
  }
  // vars(obj): the attributes `__init__` assigns.
  const init = initOf(obj.cls, w.ctx);
  if (init) {
    for (const a of init.owner.decl.selfAssignments) {
      if (a.name.startsWith('_')) continue;
      candidates.set(a.name, { kind: 'value', obj: instanceValue(init.owner, init.decl, a.value, obj, w), text: a.value.text, at: { uri: init.owner.scope.model.uri, range: a.range } });
    }
  }
  for (const [name, cand] of candidates) {
    const memberPath = `${path}.${name}`;
    if (cand.kind === 'method') {
      const e = cand.entry;
      addTool(w, memberPath, name, methodObj(e, !e.isStatic, w.ctx), { uri: e.owner.scope.model.uri, range: e.decl.nameRange });
      continue;
    }
    const o = cand.obj;
    if (o.k === 'function' || o.k === 'lambda' || o.k === 'class' || o.k === 'callable') {
      addTool(w, memberPath, name, o, cand.at);
    } else if (o.k === 'instance') {
      if (isCallableClass(o.cls, w.ctx)) addTool(w, memberPath, name, o, cand.at);
      else traverse(w, o, memberPath, cand.at);
    } else if (o.k === 'plain') {
      w.issues.push({
        rule: 'SYM-013',
        message: `vis.Symbol(object, ...): public attribute ${pyStrRepr(memberPath)} has unsupported value of type ${o.typeName}; expose callable methods, nest a capability object, or make the attribute private`,
        ...issueAt(w, cand.at),
      });
    } else {
      gap(w, memberPath, `the attribute's value (\`${cand.text.length > 60 ? cand.text.slice(0, 57) + '...' : cand.text}\`) is not statically known`);
    }
  }
}

/** A class-body value, as `vars(cls)` holds it. */
function classValue(owner: ClassRef, v: Value, w: Walk): Obj {
  const o = evalValue(owner.scope, v, w.ctx);
  // A function stored in a class body is a method: reached through the instance it is bound.
  if (o.k === 'function' && !o.owner) return { ...o, bound: true };
  if (o.k === 'lambda') return o;
  if (o.k === 'instance') return { ...o, identity: `${o.identity}@class` };
  return o;
}

/** A value `__init__` assigns to `self.NAME`. */
function instanceValue(owner: ClassRef, init: FunctionDecl, v: Value, self: Extract<Obj, { k: 'instance' }>, w: Walk): Obj {
  if (v.kind === 'name') {
    if (v.name === 'self') return self;
    // A parameter (or a local): not known.
    if (init.params.some((p) => p.name === v.name)) return { k: 'unknown' };
  }
  if (v.kind === 'attribute' && v.path.startsWith('self.')) {
    const attr = v.path.split('.')[1];
    const earlier = owner.decl.selfAssignments.find((a) => a.name === attr);
    if (earlier && earlier.value !== v && v.path.split('.').length === 2) {
      const o = instanceValue(owner, init, earlier.value, self, w);
      return o;
    }
    return { k: 'unknown' };
  }
  const o = evalValue(owner.scope, v, w.ctx);
  if (o.k === 'instance' && v.kind === 'call') return { ...o, identity: `${self.identity}/${v.range.start.line}:${v.range.start.character}` };
  return o;
}

/**
 * A method's `vis.method` metadata: from `@vis.method(...)` on it, and from module-level applications
 * after the class (`Tools.save = vis.method(tag="mutation")(Tools.save)`); the last one applied wins.
 */
function methodMeta(scope: ModuleScope, decl: FunctionDecl, owner?: ClassRef): { tag?: string; tagKnown: boolean; hidden?: boolean; activity: boolean; decorated: boolean } {
  const calls: (Call | undefined)[] = [];
  // Decorators apply bottom-up.
  for (const d of [...decl.decorators].reverse()) if (qualified(scope, d.name) === 'blockether.vis.extension.method') calls.push(d.call);
  calls.push(...methodPatches(scope.model, owner ? `${owner.decl.name}.${decl.name}` : decl.name));
  if (!calls.length) return { tagKnown: true, activity: false, decorated: false };
  const last = calls[calls.length - 1];
  if (!last) return { tag: 'observation', tagKnown: true, activity: false, decorated: true };
  const get = (n: string) => {
    const a = last.args.find((x) => x.name === n);
    return a ? resolve(scope.model, a.value) : undefined;
  };
  const tag = get('tag');
  const hidden = get('is_hidden');
  const activity = get('activity');
  return {
    tag: !tag ? 'observation' : tag.kind === 'str' ? tag.value : undefined,
    tagKnown: !tag || tag.kind === 'str',
    hidden: hidden?.kind === 'bool' ? hidden.value : undefined,
    activity: !!activity && activity.kind !== 'none',
    decorated: true,
  };
}

function addTool(w: Walk, memberPath: string, attr: string, o: Obj, at?: At): void {
  const vocab = tagsOf(w.scope.model);
  let src: CallableSource | undefined;
  let doc: string | undefined;
  let docName = '?';
  let tag = w.symbolTag;
  let hidden = w.symbolHidden ?? false;
  let activity = false;
  let decl: FunctionDecl | undefined;
  let declUri: string | undefined;
  let declModel: Model | undefined;
  if (o.k === 'function') {
    src = functionSource(o.scope, o.decl, o.bound);
    doc = methodDoc(o, w.ctx);
    docName = o.decl.name;
    decl = o.decl;
    declUri = o.scope.model.uri;
    if (o.scope.model !== w.scope.model) declModel = o.scope.model;
    const meta = methodMeta(o.origin?.scope ?? o.scope, o.origin?.decl ?? o.decl, o.owner);
    if (meta.decorated) {
      if (!meta.tagKnown) gap(w, memberPath, 'its `@vis.method(tag=...)` is not a literal');
      tag = meta.tag;
      hidden = meta.hidden ?? false;
      activity = meta.activity;
    }
  } else if (o.k === 'lambda') {
    docName = '<lambda>';
  } else if (o.k === 'class') {
    // A class is callable, so the SDK exports its constructor as a tool: rarely what was meant.
    w.issues.push({
      rule: 'SYM-018',
      message: `vis.Symbol(object, ...): public attribute ${pyStrRepr(memberPath)} is a class, so its constructor becomes a tool; make it private or move it out of the namespace if that is not meant`,
      ...issueAt(w, o.k === 'class' ? { uri: o.cls.scope.model.uri, range: o.cls.decl.nameRange } : at),
    });
    src = constructorSource(o.cls, w.ctx);
    doc = classDocOf(o.cls, w.ctx);
    docName = o.cls.decl.name;
  } else if (o.k === 'instance') {
    // A callable instance: its `__call__`, documented by its class.
    const call = classMember(o.cls, '__call__', w.ctx);
    if (call?.kind === 'method') src = functionSource(call.owner.scope, call.decl, true);
    doc = classDocOf(o.cls, w.ctx);
  } else {
    gap(w, memberPath, o.k === 'callable' ? 'a callable whose signature is not known statically (a partial, a builtin, an imported object)' : 'the member is not statically known');
    return;
  }
  // SYM-016: each member is checked like a function Symbol under its member name.
  if (isBlankDoc(doc)) {
    w.issues.push({
      rule: 'SYM-016',
      message: `vis.Symbol: ${docName} needs a docstring - it becomes the model-facing doc()`,
      ...issueAt(w, o.k === 'function' ? { uri: o.scope.model.uri, range: o.decl.nameRange } : at),
      ...(o.k === 'function' ? { decl: o.decl } : {}),
    });
    return;
  }
  if (!src || tag === undefined || !vocab.includes(tag)) {
    gap(w, memberPath, !src ? 'its signature is not known statically' : tag === undefined ? 'its tag is not statically known' : `its tag ${pyStrRepr(tag)} is not in the vocabulary`);
    return;
  }
  const source = src;
  const toolTag = tag;
  w.tools.push(lazyTool({ name: memberPath, tag, hidden, decl, declUri, ...(declModel ? { declModel } : {}), hasActivity: activity }, (unknowns) => callableContract(source, memberPath, toolTag, cleandoc(doc!), w.opts.format, w.ctx, unknowns), w.opts));
  void attr;
}

/**
 * A tool whose contract and doc text are computed on first read: the rules need only names, tags
 * and issues, so a file's diagnostics never pay for the TypeSpec mapping and doc rendering of
 * every tool; hover and previews read them. A Symbol's analysis can serve later versions (the program
 * reuses it while nothing it read changed), so what is computed lazily is computed again once any module
 * changed (`opts.version`): it reads the current models through the program's scopes.
 */
function lazyTool(base: Omit<ToolInfo, 'contract' | 'doc' | 'unknowns'>, make: (unknowns: UnknownPart[]) => CallableContract, opts: ContractOptions): ToolInfo {
  const computed = lazy(() => {
    const unknowns: UnknownPart[] = [];
    let contract: CallableContract;
    try {
      contract = make(unknowns);
    } catch (e) {
      if (e instanceof SliceExpired) throw e;
      // The contract builder contains faults part by part; this is the last line: the tool keeps its name.
      unknowns.push({ where: 'contract', reason: `internal error, not computed: ${e instanceof Error ? e.message : String(e)}` });
      contract = { version: 1, name: base.name, tag: base.tag, description: '', signature: '', parameters: [], returns: { kind: 'unresolved', name: 'unknown' } };
    }
    return { contract, unknowns };
  }, opts);
  const doc = lazy(() => contractDoc(computed().contract, opts.format), opts);
  return new ToolRead(base, computed, doc);
}

/**
 * A tool as the analysis has it: a class, so every tool has one shape and its contract, unknowns and doc
 * are getters of the class, computed when first read (defining getters on each object cost a runtime call
 * apiece, microseconds per tool).
 */
class ToolRead implements ToolInfo {
  name: string;
  tag: string;
  hidden: boolean;
  decl?: FunctionDecl;
  declUri?: string;
  declModel?: Model;
  hasActivity: boolean;
  invalidTag?: string;
  readonly #computed: () => { contract: CallableContract; unknowns: UnknownPart[] };
  readonly #doc: () => string;

  constructor(base: Omit<ToolInfo, 'contract' | 'doc' | 'unknowns'>, computed: () => { contract: CallableContract; unknowns: UnknownPart[] }, doc: () => string) {
    this.name = base.name;
    this.tag = base.tag;
    this.hidden = base.hidden;
    this.decl = base.decl;
    this.declUri = base.declUri;
    this.declModel = base.declModel;
    this.hasActivity = base.hasActivity;
    this.invalidTag = base.invalidTag;
    this.#computed = computed;
    this.#doc = doc;
  }

  get contract(): CallableContract {
    return this.#computed().contract;
  }

  get unknowns(): UnknownPart[] {
    return this.#computed().unknowns;
  }

  get doc(): string {
    return this.#doc();
  }
}

function lazyContract(info: SymbolRead, make: () => Contract, opts: ContractOptions): void {
  info.setContract(lazy(make, opts));
}

/**
 * A Symbol's analysis: a class, so every one has one shape and its contract is a getter of the class,
 * computed when first read (defining a getter on each object cost a runtime call apiece).
 */
class SymbolRead implements SymbolInfo {
  form: SymbolInfo['form'] = 'unknown';
  name: string | undefined = undefined;
  hidden: boolean | undefined = undefined;
  tools: ToolInfo[] = [];
  issues: Issue[] = [];
  unknownReason: string | undefined = undefined;
  unknownTools: UnknownPart[] = [];
  #contract: (() => Contract) | undefined = undefined;

  constructor(readonly call: Call) {}

  get contract(): Contract | undefined {
    return this.#contract?.();
  }

  /** Whether it has a contract (without computing it). */
  hasContract(): boolean {
    return this.#contract !== undefined;
  }

  setContract(make: () => Contract): void {
    this.#contract = make;
  }
}

/** A value computed on first read, and again after `opts.version` changed. */
function lazy<T>(make: () => T, opts: ContractOptions): () => T {
  let value: T | undefined;
  let at: number | undefined;
  return () => {
    const v = opts.version?.() ?? 0;
    if (at !== v) {
      value = make();
      at = v;
    }
    return value as T;
  };
}

/** `inspect.signature(cls)`: its `__init__` without `self`, or a dataclass's generated one. */
function constructorSource(cls: ClassRef, ctx: TypeContext): CallableSource {
  const init = initOf(cls, ctx);
  if (init) return functionSource(init.owner.scope, init.decl, true);
  if (isDataclass(cls.scope, cls.decl)) {
    const kwOnly = cls.decl.decorators.some((d) => d.call?.args.some((a) => a.name === 'kw_only' && a.value.kind === 'bool' && a.value.value));
    const params: ParamSource[] = dataclassFields(cls, ctx).map((f) => {
      const d = fieldDefault(f.owner, f.decl);
      const v = f.decl.defaultValue;
      let defaultValue: Value | undefined;
      if (d.has && v) {
        const def = v.kind === 'call' ? v.call.args.find((a) => a.name === 'default') : undefined;
        defaultValue = v.kind === 'call' && qualified(f.owner, v.call.callee) === 'dataclasses.field' ? (def ? def.value : factoryDefault(v.range)) : v;
      }
      return { name: f.decl.name, kind: kwOnly ? 'keyword_only' : 'positional_or_keyword', annotation: f.decl.annotation, defaultValue };
    });
    return { scope: cls.scope, params, bound: false };
  }
  return { scope: cls.scope, params: [], bound: false };
}

/** The tools a file exports, by the `def` they come from (for the hover on a `def`). */
export function toolsByDecl(infos: SymbolInfo[]): Map<FunctionDecl, { info: SymbolInfo; tool: ToolInfo }[]> {
  const out = new Map<FunctionDecl, { info: SymbolInfo; tool: ToolInfo }[]>();
  for (const info of infos) {
    for (const tool of info.tools) {
      if (!tool.decl) continue;
      const list = out.get(tool.decl) ?? [];
      list.push({ info, tool });
      out.set(tool.decl, list);
    }
  }
  return out;
}

export type { ClassDecl };
