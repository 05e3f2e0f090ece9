// The rules of one SDK call, as Python runs it: the arguments are bound to the parameters first (Python's
// TypeError for an unknown keyword, a value given twice, too many positional arguments or a missing one),
// then the constructor checks its fields in order and raises at the first check that fails. A call gets
// exactly that one error, whichever rule it belongs to: each rule reports a call only when its check is
// the first that fails, so one mistake gives one diagnostic and never a cascade (issue 10 item 2). An
// error the author chose not to see (its rule turned off, a suppression comment) stands aside for the
// next check, as it would once fixed.
//
// A family is the ordered checks of one SDK member (`vis.Activity`, `vis.Provider`...); its rules are
// made from it with `familyRules`, one per rule id, so settings, suppressions and documentation stay per
// id. A check whose input is not statically known passes: the checks after it still run, since what they
// find fails the call whether or not the unknown one would have failed first.
import { isRecording, keptValue, stillValid, uriOf, withReads, type WithReads } from '../model/reads';
import { bodyCalls, functionNamed, isKnown, resolve } from '../model/sdk';
import type { Argument, Call, Model, ParamKind, Range, SdkFlavour, Value } from '../model/types';
import { acceptedKeywords, acceptedParams, memberOfCall, paramsOf, pythonCallName, scopeOf, type ReleaseScope, type SdkMember, type SdkParam } from '../sdk/table';
import { dropArgument, nearestKeyword, type FixChoice } from './fixes';
import type { Fix, ReportOptions, Rule, RuleContext, Severity } from './types';
import { callsOf, pythonNameList } from './util';
import { derivedCache } from '../model/derived';

/** What a failing check reports. */
export interface Failure {
  range: Range;
  message: string;
  fix?: Fix;
  options?: ReportOptions;
}

/** One call being checked, its arguments bound to the parameters of the file's SDK version. */
export interface CallCheck {
  ctx: RuleContext;
  model: Model;
  call: Call;
  member: SdkMember;
  scope: ReleaseScope;
  /** The resolved value bound to a parameter, at the range where it is written; undefined when not given or not knowable. */
  arg(name: string): Value | undefined;
  /** The argument written for a parameter. */
  written(name: string): Argument | undefined;
  /** True when the parameter is certainly not given (no `*`/`**` splat can give it). */
  absent(name: string): boolean;
}

export interface Step {
  /** The rule that reports this check's failure (or the rules, when the check names its own on the failure). */
  id: string | readonly string[];
  check(c: CallCheck): (Failure & { id?: string }) | undefined;
}

export type BindingError = 'unexpected' | 'multiple' | 'positional' | 'missing';

export interface CallFamily {
  flavour: SdkFlavour;
  /** The SDK member, as the table names it (`Activity`, `council.wake`). */
  member: string;
  /** The rule (or a rule per kind) of Python's TypeError when the arguments do not bind: SDK-003 unless given. */
  binding?: string | Partial<Record<BindingError, string>>;
  /** The constructor's checks, in the order the SDK makes them. */
  steps: Step[];
  /** Module-level calls only (the Symbol analysis); by default calls in function bodies are checked too. */
  moduleOnly?: boolean;
  /** Keywords of older docs that are not this member's: their removal is offered beside the rename. */
  removable?: readonly string[];
  /** The fix of too many positional arguments, when one is safe (naming them). */
  positionalFix?: (c: CallCheck) => Fix | undefined;
}

/** What a rule documents about itself. */
export interface RuleDoc {
  id: string;
  summary: string;
  /** `error` unless given: Vis refuses the file or the call always fails. */
  severity?: Severity;
  /** Checks of the same rule that are not about one call's arguments (a decorator stacked wrongly). */
  also?: (ctx: RuleContext) => void;
  /** Some of its findings carry a safe fix (its page shows it). */
  fixable?: boolean;
}

export const BINDING_RULE = 'SDK-003';

// ---------------------------------------------------------------------------------------------
// Binding a call as Python does

interface Binding {
  bound: Map<string, Argument>;
  /** A splat may give parameters that are not bound. */
  open: boolean;
  /** Python's TypeError, with the argument it is about (an unexpected keyword or one given twice). */
  error?: { kind: BindingError; message: string; range: Range; arg?: Argument };
}

const isPositional = (p: SdkParam) => p.kind === 'positional_only' || p.kind === 'positional_or_keyword';

/**
 * Binds a call to parameters as CPython does, with its TypeError when they do not bind: the keywords
 * first, in call order (an unexpected keyword, a value given twice), then too many positional arguments,
 * then missing positional and missing keyword-only parameters (`initialize_locals` in ceval.c).
 */
export function bindPython(member: SdkMember, params: readonly SdkParam[], call: Call): Binding {
  const name = pythonCallName(member);
  const self = member.kind === 'class' ? 1 : 0;
  const positional = params.filter(isPositional);
  const varargs = params.some((p) => p.kind === 'var_positional');
  const varkw = params.some((p) => p.kind === 'var_keyword');
  const bound = new Map<string, Argument>();
  let posUnknown = false;
  let open = false;
  let given = 0;
  const extra: Argument[] = [];
  for (const a of call.args) {
    if (a.splat === '*') posUnknown = open = true;
    else if (a.splat === '**') open = true;
    else if (a.name === undefined) {
      if (posUnknown) continue;
      const p = positional[given++];
      if (p) bound.set(p.name, a);
      else extra.push(a);
    }
  }
  let error: Binding['error'];
  for (const a of call.args) {
    if (a.name === undefined || error) continue;
    const p = params.find((x) => x.name === a.name && x.kind !== 'var_positional' && x.kind !== 'var_keyword');
    const at = a.nameRange ?? a.range;
    if (!p || p.kind === 'positional_only') {
      if (varkw) continue;
      error = p
        ? { kind: 'unexpected', message: `${name} got some positional-only arguments passed as keyword arguments: '${a.name}'`, range: at, arg: a }
        : { kind: 'unexpected', message: `${name} got an unexpected keyword argument '${a.name}'`, range: at, arg: a };
    } else if (bound.has(p.name) && bound.get(p.name) !== a) {
      if (!posUnknown) error = { kind: 'multiple', message: `${name} got multiple values for argument '${p.name}'`, range: at, arg: a };
    } else bound.set(p.name, a);
  }
  if (!error && extra.length && !varargs && !posUnknown) {
    const argcount = positional.length + self;
    const defaults = positional.filter((p) => p.default !== undefined).length;
    const sig = defaults ? `from ${argcount - defaults} to ${argcount}` : `${argcount}`;
    const plural = defaults ? true : argcount !== 1;
    const total = given + self;
    const kwonly = params.filter((p) => p.kind === 'keyword_only' && bound.has(p.name)).length;
    const kwsig = kwonly ? ` positional argument${total !== 1 ? 's' : ''} (and ${kwonly} keyword-only argument${kwonly !== 1 ? 's' : ''})` : '';
    const was = total === 1 && !kwonly ? 'was' : 'were';
    error = {
      kind: 'positional',
      message: `${name} takes ${sig} positional argument${plural ? 's' : ''} but ${total}${kwsig} ${was} given`,
      range: { start: extra[0].range.start, end: extra[extra.length - 1].range.end },
    };
  }
  if (!error && !open) {
    for (const kind of ['positional', 'keyword-only'] as const) {
      const missing = params.filter((p) => p.required && !bound.has(p.name) && (kind === 'positional' ? isPositional(p) : p.kind === 'keyword_only')).map((p) => p.name);
      if (!missing.length) continue;
      const s = missing.length === 1 ? '' : 's';
      error = { kind: 'missing', message: `${name} missing ${missing.length} required ${kind} argument${s}: ${pythonNameList(missing)}`, range: call.calleeRange };
      break;
    }
  }
  return { bound, open, error };
}

/**
 * The binding in the file's SDK version. Where the evidence conflicts (SDK-001) the file is checked against
 * both sides, and a parameter either side has is accepted.
 */
/**
 * Bindings per model version and call: every rule of a family, SDK-003 and the Symbol chain bind the same
 * calls. Kept with what binding read, so a rule unit that reuses one still notes its reads.
 */
const bindings = derivedCache<WeakMap<Call, { member: SdkMember } & WithReads<Binding>>>();

function bindIn(model: Model, member: SdkMember, call: Call): Binding {
  let perCall = bindings.get(model);
  if (!perCall) bindings.set(model, (perCall = new WeakMap()));
  const hit = perCall.get(call);
  if (hit && hit.member === member) return keptValue(hit);
  // A call kept from an earlier version of its module (its statement unchanged) binds as it did while
  // what binding it read is the same: an edit elsewhere binds none of the file's calls again.
  const last = lastBindings.get(call);
  const uri = uriOf(model);
  if (last && last.member === member && stillValid(last.reads, (m) => (uriOf(m) === uri ? model : undefined))) {
    perCall.set(call, last);
    return keptValue(last);
  }
  const kept = { member, ...withReads(() => bindUncached(model, member, call)) };
  perCall.set(call, kept);
  lastBindings.set(call, kept);
  return kept.value;
}

/** Each call's last binding, whatever the model version (checked against the current one before reuse). */
const lastBindings = new WeakMap<Call, { member: SdkMember } & WithReads<Binding>>();

function bindUncached(model: Model, member: SdkMember, call: Call): Binding {
  // An object or constant the table gives no signature (`vis.tools`): what calling it does is its family's.
  if (member.kind !== 'function' && member.kind !== 'class') return { bound: new Map(), open: true };
  const scope = scopeOf(model);
  const binding = bindPython(member, scope.checked.length > 1 ? acceptedParams(member, scope) : paramsOf(member, scope), call);
  // A call whose brackets the parser closed (it is being typed) is not missing what comes after the cursor.
  if (binding.error?.kind === 'missing' && model.recovered.some((r) => call.range.start.line >= r.startRow && call.range.start.line <= r.endRow)) binding.error = undefined;
  return binding;
}

/** Python's TypeError for a call to an SDK member, if its arguments do not bind in the file's SDK version. */
export function bindingError(model: Model, call: Call): Binding['error'] {
  const member = memberOfCall(model, call);
  return member && bindIn(model, member, call).error;
}

// ---------------------------------------------------------------------------------------------
// The calls of a family

const ofFlavour = (model: Model, flavour: SdkFlavour) => (flavour === 'g1' ? model.generation === 'G1' : model.generation === 'G2' || model.generation === 'G3');

/**
 * Every call to an SDK member in a file of that SDK: at module level, and in function bodies (they are
 * built when the function runs), in source order. Calls to a member the file's SDK version lacks are left
 * to SDK-002.
 */
export function declarationCalls(model: Model, flavour: SdkFlavour, member: string, moduleOnly = false): readonly Call[] {
  if (!ofFlavour(model, flavour)) return [];
  const key = `${flavour}.${member}`;
  // Found once per model version (every rule of a family asks), kept with what finding them read.
  let perKey = declared.get(model);
  if (!perKey) declared.set(model, (perKey = new Map()));
  const hit = perKey.get(moduleOnly ? `${key}!` : key);
  if (hit) return keptValue(hit);
  const kept = withReads(() => {
    const module = callsOf(model, flavour, member);
    const inBodies = moduleOnly ? undefined : bodyCalls(model).get(key);
    const all = inBodies?.length ? [...module, ...inBodies] : module;
    return all.filter((c) => memberOfCall(model, c) !== undefined);
  });
  perKey.set(moduleOnly ? `${key}!` : key, kept);
  return kept.value;
}

const declared = derivedCache<Map<string, WithReads<Call[]>>>();

function checkOf(ctx: RuleContext, call: Call, member: SdkMember, binding: Binding): CallCheck {
  const { model } = ctx;
  return {
    ctx,
    model,
    call,
    member,
    scope: scopeOf(model),
    written(name) {
      return binding.bound.get(name);
    },
    arg(name) {
      const a = binding.bound.get(name);
      return a ? { ...resolve(model, a.value), range: a.value.range } : undefined;
    },
    absent(name) {
      return !binding.bound.has(name) && !binding.open;
    },
  };
}

function bindingId(family: CallFamily, kind: BindingError): string {
  if (typeof family.binding === 'string') return family.binding;
  return family.binding?.[kind] ?? BINDING_RULE;
}

function bindingIds(family: CallFamily): string[] {
  return typeof family.binding === 'string' ? [family.binding] : [...new Set((['unexpected', 'multiple', 'positional', 'missing'] as const).map((k) => bindingId(family, k)))];
}

/** A failure, with the earlier errors of its unit it is behind (`Finding.behind`). */
function report(ctx: RuleContext, f: Failure, behind: { rule: string; range: Range }[] = []): void {
  ctx.report(f.range, f.message, f.fix, behind.length ? { ...f.options, behind } : f.options);
}

/** A failure with a fix choice: the safe fix, and suggestions (quick fixes only). */
export function withChoice(f: Failure, choice: FixChoice): Failure {
  const mine = f.options?.suggestions;
  const theirs = choice.suggestions;
  // Most failures have no suggestion and most choices nothing to add: the failure as it is.
  if (!mine?.length && !theirs?.length && (f.fix || !choice.fix)) return f;
  const suggestions = mine?.length ? (theirs?.length ? [...mine, ...theirs] : [...mine]) : theirs?.length ? [...theirs] : undefined;
  return { ...f, fix: f.fix ?? choice.fix, options: suggestions ? { ...f.options, suggestions } : f.options };
}

/** The fix of a binding error: an unexpected keyword renamed to the nearest accepted one (or dropped, for old docs' keywords), positional arguments named. */
function bindingChoice(family: CallFamily, u: BoundCall): FixChoice {
  const error = u.binding.error;
  if (!error) return {};
  const { ctx, call, member, scope } = u.check;
  if (error.kind === 'unexpected' && error.arg?.name !== undefined) {
    const choice = nearestKeyword(call, error.arg, acceptedKeywords(member, scope));
    const drop = family.removable?.includes(error.arg.name) ? dropArgument(ctx, call, error.arg, `Remove ${error.arg.name}=`) : undefined;
    return drop ? { ...choice, suggestions: [...(choice.suggestions ?? []), { ...drop, preferred: false }] } : choice;
  }
  if (error.kind === 'positional' && family.positionalFix) return { fix: family.positionalFix(u.check) };
  return {};
}

/** One check of a chain: the rule (or, for a check that decides it, the rules) its failure belongs to. */
export interface ChainStep<U> {
  id: string | readonly string[];
  /** The failure, with its rule when the step names several. */
  check(u: U, ctx: RuleContext): (Failure & { id?: string }) | undefined;
}

/** Units (calls, decorators, Symbols) and the checks each goes through, in the order the SDK makes them. */
export interface Chain<U> {
  units(ctx: RuleContext): Iterable<U>;
  /**
   * The model object that stands for a unit, for keeping its findings between versions (default: the
   * unit); null for units the program already keeps (a Symbol's analysis), whose checks only read it.
   */
  key?(u: U): object | null;
  steps: readonly ChainStep<U>[];
}

const idsOf = (s: ChainStep<unknown>) => (typeof s.id === 'string' ? [s.id] : s.id);

/** The failures of a unit's checks, in order, each with the rule it reports. */
type Failures = { rule: string; failure: Failure }[];

/** A unit's failures through a chain's checks up to one of them, with what the checks read (when a unit recorded them). */
interface ChainRun {
  value: Failures;
  reads: WithReads<Failures>['reads'] | undefined;
  chain: Chain<any>;
  last: number;
}

/** Per model version and unit: its runs through the chains (every rule of a chain reads the same run). */
const chainRuns = derivedCache<WeakMap<object, ChainRun[]>>();

function failuresOf<U>(ctx: RuleContext, chain: Chain<U>, unit: U, key: object, last: number): Failures {
  let perUnit = chainRuns.get(ctx.model);
  if (!perUnit) chainRuns.set(ctx.model, (perUnit = new WeakMap()));
  let runs = perUnit.get(key);
  let hit: ChainRun | undefined;
  // Every rule of a chain asks for each unit: a loop, not a closure per question.
  if (runs) for (const r of runs) if (r.chain === chain && r.last === last) hit = r;
  const recorded = isRecording();
  if (hit && (hit.reads || !recorded)) return hit.reads ? keptValue(hit as WithReads<Failures>) : hit.value;
  // Outside a rule unit (a Symbol's checks, whose analysis the program keeps) nothing needs what they read.
  const kept = recorded ? withReads(() => chainSteps(ctx, chain, unit, last)) : { value: chainSteps(ctx, chain, unit, last), reads: undefined };
  if (!runs) perUnit.set(key, (runs = []));
  if (hit) runs.splice(runs.indexOf(hit), 1);
  runs.push({ chain, last, ...kept });
  return kept.value;
}

/** A unit's failures through a chain's checks up to `last`. */
function chainSteps<U>(ctx: RuleContext, chain: Chain<U>, unit: U, last: number): Failures {
  const out: Failures = [];
  for (let i = 0; i <= last; i++) {
    const step = chain.steps[i];
    const failure = step.check(unit, ctx);
    if (failure) out.push({ rule: failure.id ?? idsOf(step)[0], failure });
  }
  return out;
}

/** A unit through a chain's checks up to `last`: reported by rule `id` when its check is the first that fails. */
function runChain<U>(ctx: RuleContext, chain: Chain<U>, unit: U, key: object, last: number, id: string): void {
  const failures = failuresOf(ctx, chain, unit, key, last);
  for (let i = 0; i < failures.length; i++) {
    if (failures[i].rule !== id) continue;
    // The earlier failures it is behind.
    const behind: { rule: string; range: Range }[] = [];
    for (let k = 0; k < i; k++) behind.push({ rule: failures[k].rule, range: failures[k].failure.range });
    return report(ctx, failures[i].failure, behind);
  }
}

/**
 * The rules of some chains: one per documented id. A unit is reported by the rule of its first failing
 * check; a later rule's failure carries the earlier ones it is behind (`Finding.behind`), so it shows
 * when those are turned off or suppressed. The checks after the last one of a rule are not run for it.
 */
export function chainRules(docs: readonly RuleDoc[], chains: readonly Chain<any>[]): Rule[] {
  return docs.map((doc) => {
    // The chains that have a check of this rule, each with the last such check.
    const mine: { chain: Chain<any>; last: number }[] = [];
    for (const chain of chains) {
      let last = -1;
      chain.steps.forEach((s, i) => {
        if (idsOf(s).includes(doc.id)) last = i;
      });
      if (last !== -1) mine.push({ chain, last });
    }
    return {
      id: doc.id,
      severity: doc.severity ?? 'error',
      summary: doc.summary,
      ...(doc.fixable ? { fixable: true } : {}),
      check(ctx: RuleContext) {
        for (const { chain, last } of mine) {
          for (const unit of chain.units(ctx)) {
            // Kept between versions while what the checks read is unchanged (RuleContext.unit).
            const key = chain.key ? chain.key(unit) : unit;
            if (key === null) runChain(ctx, chain, unit, unit as object, last, doc.id);
            else ctx.unit(key, () => runChain(ctx, chain, unit, key, last, doc.id));
          }
        }
        doc.also?.(ctx);
      },
    };
  });
}

/** A call of a family with its binding, computed when first asked for. */
interface BoundCall {
  call: Call;
  binding: Binding;
  check: CallCheck;
}

function boundCalls(ctx: RuleContext, family: CallFamily): BoundCall[] {
  // Bound when a check first asks, inside the call's unit (so what binding reads is the unit's input).
  return declarationCalls(ctx.model, family.flavour, family.member, family.moduleOnly).map((call) => {
    let binding: Binding | undefined;
    let check: CallCheck | undefined;
    return {
      call,
      get binding() {
        return (binding ??= bindIn(ctx.model, memberOfCall(ctx.model, call)!, call));
      },
      get check() {
        return (check ??= checkOf(ctx, call, memberOfCall(ctx.model, call)!, this.binding));
      },
    };
  });
}

/** A family as a chain: Python's binding first, then the constructor's checks. */
function chainOf(family: CallFamily): Chain<BoundCall> {
  return {
    units: (ctx) => boundCalls(ctx, family),
    key: (u) => u.call,
    steps: [
      { id: bindingIds(family), check: (u) => (u.binding.error ? { ...withChoice(u.binding.error, bindingChoice(family, u)), id: bindingId(family, u.binding.error.kind) } : undefined) },
      ...family.steps.map((s): ChainStep<BoundCall> => ({ id: s.id, check: (u) => s.check(u.check) })),
    ],
  };
}

/**
 * The rules of some families: one per documented id, each reporting a call only when its check is the
 * call's first failure.
 */
export function familyRules(docs: readonly RuleDoc[], families: readonly CallFamily[]): Rule[] {
  return chainRules(docs, families.map(chainOf));
}

/** SDK-003: Python's TypeError for the calls of families that name no binding rule of their own. */
export function bindingRule(families: readonly CallFamily[]): Rule {
  return {
    id: BINDING_RULE,
    severity: 'error',
    fixable: true,
    summary: "An SDK declaration or call whose arguments do not bind to its parameters in the file's SDK version: Python's own TypeError (an unknown keyword, too many positional arguments, a missing required one).",
    check(ctx) {
      for (const family of families) {
        // A unit per call (as the chains'): an edit elsewhere binds none of them again.
        for (const u of boundCalls(ctx, family)) {
          ctx.unit(u.call, () => {
            if (u.binding.error && bindingId(family, u.binding.error.kind) === BINDING_RULE) report(ctx, withChoice(u.binding.error, bindingChoice(family, u)));
          });
        }
      }
    },
  };
}

/**
 * A rule over every call of one SDK member (module level and function bodies) that reports on its own,
 * outside the first-error chain: advice (warnings) and checks of what the SDK never raises for.
 */
export function callRule(doc: RuleDoc, flavour: SdkFlavour, member: string, check: (c: CallCheck) => void): Rule {
  return {
    id: doc.id,
    severity: doc.severity ?? 'warning',
    summary: doc.summary,
    ...(doc.fixable ? { fixable: true } : {}),
    check(ctx) {
      for (const u of boundCalls(ctx, { flavour, member, steps: [] })) if (!u.binding.error) check(u.check);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Small readers shared by the families

/** A failure at a value. */
export function at(v: { range: Range }, message: string, extra: Partial<Failure> = {}): Failure {
  return { range: v.range, message, ...extra };
}

/** Python's `len()` of a str (code points, not UTF-16 units). */
export function pyLen(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Whether a value is a declaration of one of the SDK classes: true for a call to one, false for any other
 * known value (a literal, a dict, another SDK declaration), undefined when it cannot be known (the result of
 * the author's own function).
 */
export function isDeclaration(v: Value, members: string | readonly string[]): boolean | undefined {
  const names = typeof members === 'string' ? [members] : members;
  if (v.kind === 'call') {
    const s = v.call.sdk;
    if (!s) return undefined;
    if (s.missing) return false;
    return s.flavour === 'typed' && names.includes(s.member);
  }
  return isKnown(v) ? false : undefined;
}

/** The items of a list or tuple value, resolved (each at the range where it is written); undefined for anything else. */
export function itemsOf(model: Model, v: Value | undefined): Value[] | undefined {
  if (!v || (v.kind !== 'list' && v.kind !== 'tuple')) return undefined;
  return v.items.map((i) => ({ ...resolve(model, i), range: i.range }));
}

/** A parameter as far as calling matters: its name, kind and whether it has a default. */
export interface CallableParam {
  name: string;
  kind: ParamKind;
  hasDefault: boolean;
}

/**
 * The parameters of a callable value when they can be read: a module-level `def`, or a lambda whose
 * parameter list is plain (names, defaults without brackets or strings, `*`, `/`). Undefined otherwise.
 */
export function paramsOfCallable(model: Model, v: Value): CallableParam[] | undefined {
  if (v.kind === 'function') {
    const decl = functionNamed(model, v.name);
    return decl?.params.map((p) => ({ name: p.name, kind: p.kind, hasDefault: p.default !== undefined }));
  }
  if (v.kind !== 'lambda') return undefined;
  const m = /^lambda\b([^:]*):/.exec(v.text);
  if (!m || /[()[\]{}'"]/.test(m[1])) return undefined;
  const out: CallableParam[] = [];
  let keywordOnly = false;
  for (const raw of m[1].split(',')) {
    const piece = raw.trim();
    if (!piece) continue;
    if (piece === '/') {
      for (const p of out) p.kind = 'positional_only';
      continue;
    }
    if (piece === '*') {
      keywordOnly = true;
      continue;
    }
    const [head, def] = piece.split('=');
    const name = head.trim();
    if (name.startsWith('**')) out.push({ name: name.slice(2), kind: 'var_keyword', hasDefault: false });
    else if (name.startsWith('*')) {
      out.push({ name: name.slice(1), kind: 'var_positional', hasDefault: false });
      keywordOnly = true;
    } else out.push({ name, kind: keywordOnly ? 'keyword_only' : 'positional_or_keyword', hasDefault: def !== undefined });
  }
  return out;
}

/** Whether a callable with these parameters can be called with `n` positional arguments and the given keywords. */
export function accepts(params: readonly CallableParam[], n: number, keywords: readonly string[] = []): boolean {
  const positional = params.filter((p) => p.kind === 'positional_only' || p.kind === 'positional_or_keyword');
  if (n > positional.length && !params.some((p) => p.kind === 'var_positional')) return false;
  const bound = new Set(positional.slice(0, n).map((p) => p.name));
  const varkw = params.some((p) => p.kind === 'var_keyword');
  for (const k of keywords) {
    const p = params.find((x) => x.name === k && (x.kind === 'positional_or_keyword' || x.kind === 'keyword_only'));
    if (p && bound.has(p.name)) return false;
    if (!p && !varkw) return false;
    if (p) bound.add(p.name);
  }
  return params.every((p) => p.hasDefault || p.kind === 'var_positional' || p.kind === 'var_keyword' || bound.has(p.name));
}
