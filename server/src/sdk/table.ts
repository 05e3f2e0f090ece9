// The one table of SDK signatures, compiled from `members.ts`: every member of every SDK module with its
// kind, parameters (kind, type text, default, required, vocabulary), description and the releases that
// have it. Rules, completion, signature help and hovers all read it through the queries below, with
// the file's SDK profile (`profile.ts`) choosing the release.
import { G1_MODULE, TYPED_MODULE } from '../model/sdk';
import type { Argument, Call, Model, ParamKind, SdkFlavour } from '../model/types';
import type { CalledWith, MemberKind, MemberSpec, ModuleSpec, ParamSpec } from './members';
import { MODULES } from './members';
import { RELEASES, newest, releasesOf, resolveReleaseSet, type ReleaseSet, type SdkRelease } from './releases';
import { vocabularyById, type Vocabulary, type VocabularyValue } from './vocabularies';

export interface SdkParam {
  name: string;
  kind: ParamKind;
  /** The annotation as the SDK writes it, when it has one. */
  type?: string;
  /** Source text of the default; undefined when there is none. */
  default?: string;
  /** No default and not `*args`/`**kwargs`. */
  required: boolean;
  doc?: string;
  /** Id of the closed vocabulary of its values. */
  vocabulary?: string;
  /** The SDK class each item of this collection must be. */
  holds?: string;
  /** Releases that have this parameter. */
  releases: ReadonlySet<string>;
  /** vis-lang-interface version that added it. */
  since?: string;
  /** For a callback: how the SDK calls it. */
  calledWith?: CalledWith;
  /** For a callback: the parameters of what it is called with (the arguments Vis passes, by kind). */
  calls?: readonly SdkParam[];
}

export interface SdkMember {
  /** The module it belongs to, e.g. `blockether.vis.extension`. */
  module: string;
  /** Its name in the module; attributes are dotted (`state.get`). */
  name: string;
  /** `blockether.vis.extension.Symbol`. */
  qualified: string;
  kind: MemberKind;
  doc: string;
  returns?: string;
  type?: string;
  /** The releases that have it (every release of the module's family when it follows none: vis-lang-interface). */
  releases: ReadonlySet<string>;
  internal: boolean;
  typedOnly: boolean;
  /** A G1 dict builder the typed SDK retired. */
  retiredBuilder: boolean;
  since?: string;
  /** An object all of whose attributes are `members` (any other is an AttributeError), and the type Python names. */
  closed: boolean;
  pythonType?: string;
  /** A builder of form or live-view nodes: the node type it makes, and where. */
  node?: { type: string; in: 'form' | 'live' | 'both' };
  /** Attributes, by name. */
  members: ReadonlyMap<string, SdkMember>;
  /** The parameters in one release, in order (`[]` for members that are not called). */
  paramsIn(release: SdkRelease | undefined): readonly SdkParam[];
  /** Every parameter name of any release, with the releases that have it. */
  keywordReleases(): ReadonlyMap<string, ReadonlySet<string>>;
}

export interface SdkModule {
  name: string;
  doc: string;
  family?: 'g1' | 'typed';
  members: ReadonlyMap<string, SdkMember>;
}

// ---------------------------------------------------------------------------------------------
// Compiling the signatures

/** Splits at top-level commas (outside brackets and quotes). */
function splitTop(text: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (depth === 0 && text.startsWith(sep, i)) {
      out.push(text.slice(start, i));
      start = i + sep.length;
    }
  }
  out.push(text.slice(start));
  return out;
}

/** The first top-level occurrence of `ch`, or -1. */
function topIndex(text: string, ch: string): number {
  const parts = splitTop(text, ch);
  return parts.length > 1 ? parts[0].length : -1;
}

function parseSignature(sig: string, specs: Record<string, ParamSpec>, memberReleases: ReadonlySet<string>, where: string): SdkParam[] {
  const out: SdkParam[] = [];
  let keywordOnly = false;
  for (const raw of splitTop(sig, ',')) {
    const piece = raw.trim();
    if (!piece) continue;
    if (piece === '/') {
      for (const p of out) if (p.kind === 'positional_or_keyword') p.kind = 'positional_only';
      continue;
    }
    if (piece === '*') {
      keywordOnly = true;
      continue;
    }
    const eq = topIndex(piece, '=');
    const head = (eq === -1 ? piece : piece.slice(0, eq)).trim();
    const def = eq === -1 ? undefined : piece.slice(eq + 1).trim();
    const colon = topIndex(head, ':');
    let name = (colon === -1 ? head : head.slice(0, colon)).trim();
    const type = colon === -1 ? undefined : head.slice(colon + 1).trim();
    let kind: ParamKind = keywordOnly ? 'keyword_only' : 'positional_or_keyword';
    if (name.startsWith('**')) {
      kind = 'var_keyword';
      name = name.slice(2);
    } else if (name.startsWith('*')) {
      kind = 'var_positional';
      name = name.slice(1);
      keywordOnly = true;
    }
    if (!/^[A-Za-z_]\w*$/.test(name)) throw new Error(`bad parameter ${JSON.stringify(piece)} in ${where}`);
    const spec = specs[name] ?? {};
    out.push({
      name,
      kind,
      type,
      default: def,
      required: def === undefined && kind !== 'var_positional' && kind !== 'var_keyword',
      doc: spec.doc,
      vocabulary: spec.vocab,
      holds: spec.holds,
      releases: spec.releases ? intersect(resolveReleaseSet(spec.releases), memberReleases) : memberReleases,
      since: spec.since,
      calledWith: spec.calledWith,
      ...(spec.calls !== undefined ? { calls: parseSignature(spec.calls, {}, memberReleases, `${where} (${name} callback)`) } : {}),
    });
  }
  for (const p of out) if (p.vocabulary) vocabularyById(p.vocabulary);
  return out;
}

function intersect(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  return new Set([...a].filter((x) => b.has(x)));
}

function compileMember(module: ModuleSpec, spec: MemberSpec, prefix: string, inherited: ReadonlySet<string>): SdkMember {
  const family = module.family ? releasesOf(module.family) : RELEASES;
  const releases = spec.releases ? intersect(resolveReleaseSet(spec.releases, family), inherited) : inherited;
  const name = prefix ? `${prefix}.${spec.name}` : spec.name;
  const where = `${module.name}.${name}`;
  // Signatures are parsed when first asked for (a start-up compiles none it does not use); every one is
  // checked by the table's tests (`checkSignatures`).
  let signatures: { base: SdkParam[]; variants: { releases: ReadonlySet<string>; params: SdkParam[] }[] } | undefined;
  const parsed = () => {
    if (signatures) return signatures;
    const base = spec.sig !== undefined ? parseSignature(spec.sig, spec.params ?? {}, releases, where) : [];
    const variants = (spec.variants ?? []).map((v) => ({ releases: resolveReleaseSet(v.releases, family), params: parseSignature(v.sig, spec.params ?? {}, releases, where) }));
    for (const described of Object.keys(spec.params ?? {})) {
      if (![base, ...variants.map((v) => v.params)].some((ps) => ps.some((p) => p.name === described))) throw new Error(`parameter ${described} of ${where} is in no signature`);
    }
    return (signatures = { base, variants });
  };
  const byRelease = new Map<string, SdkParam[]>();
  const members = new Map<string, SdkMember>();
  let keywords: Map<string, ReadonlySet<string>> | undefined;
  const member: SdkMember = {
    module: module.name,
    name,
    qualified: where,
    kind: spec.kind,
    doc: spec.doc,
    returns: spec.returns,
    type: spec.type,
    releases,
    internal: !!spec.internal,
    typedOnly: !!spec.typedOnly,
    retiredBuilder: !!spec.retiredBuilder,
    since: spec.since,
    closed: !!spec.closed,
    pythonType: spec.pythonType,
    node: spec.node,
    members,
    paramsIn(release) {
      const { base, variants } = parsed();
      const id = release && releases.has(release.id) ? release.id : newest(RELEASES.filter((r) => releases.has(r.id)))?.id;
      if (id === undefined) return base;
      let params = byRelease.get(id);
      if (!params) {
        const variant = variants.find((v) => v.releases.has(id));
        params = (variant?.params ?? base).filter((p) => p.releases.has(id));
        byRelease.set(id, params);
      }
      return params;
    },
    keywordReleases() {
      if (!keywords) {
        const out = new Map<string, Set<string>>();
        for (const r of RELEASES) {
          if (!releases.has(r.id)) continue;
          for (const p of member.paramsIn(r)) {
            const ids = out.get(p.name) ?? new Set<string>();
            ids.add(r.id);
            out.set(p.name, ids);
          }
        }
        keywords = out;
      }
      return keywords;
    },
  };
  for (const m of spec.members ?? []) members.set(m.name, compileMember(module, m, name, releases));
  return member;
}

function compileModule(spec: ModuleSpec): SdkModule {
  const family = spec.family ? releasesOf(spec.family) : RELEASES;
  const releases = new Set(family.map((r) => r.id));
  const members = new Map<string, SdkMember>();
  for (const m of spec.members) {
    if (members.has(m.name)) throw new Error(`${spec.name}.${m.name} is in the SDK table twice`);
    members.set(m.name, compileMember(spec, m, '', releases));
  }
  return { name: spec.name, doc: spec.doc, family: spec.family, members };
}

const MODULE_TABLE = new Map<string, SdkModule>(MODULES.map((m) => [m.name, compileModule(m)]));

// ---------------------------------------------------------------------------------------------
// Queries

/** What a query is answered for: the releases a file is checked against (see `SdkProfile.checked`). */
export interface ReleaseScope {
  /** The releases a value must be valid in one of; empty means any release. */
  checked: readonly SdkRelease[];
}

/** Any release at all: the whole table (for documentation, and for rules that accept what any version accepts). */
export const ANY_RELEASE: ReleaseScope = { checked: [] };

/**
 * Answers per set of checked releases and key, computed once and shared by every file checked against
 * the same releases (there are few such sets, so this stays small).
 */
const memos = new Map<string, Map<unknown, unknown>>();
const scopeMemos = new WeakMap<ReleaseScope, Map<unknown, unknown>>();
function memo<T>(scope: ReleaseScope, key: unknown, compute: () => T): T {
  let m = scopeMemos.get(scope);
  if (!m) {
    const id = scope.checked.map((r) => r.id).join(',');
    m = memos.get(id);
    if (!m) memos.set(id, (m = new Map()));
    scopeMemos.set(scope, m);
  }
  if (!m.has(key)) m.set(key, compute());
  return m.get(key) as T;
}

function inScope(releases: ReadonlySet<string>, scope: ReleaseScope): boolean {
  const checked = scope.checked;
  if (checked.length === 0) return releases.size > 0;
  // Asked for every SDK call of every version: a loop, not a closure per question.
  for (let i = 0; i < checked.length; i++) if (releases.has(checked[i].id)) return true;
  return false;
}

export function sdkModule(name: string): SdkModule | undefined {
  return MODULE_TABLE.get(name);
}

/** Every module of the table. */
export function sdkModules(): SdkModule[] {
  return [...MODULE_TABLE.values()];
}

/**
 * A member of a module as the scope's releases have it: `Symbol`, or an attribute such as `state.get`.
 * Undefined when no checked release has it (or the table does not know it).
 */
export function sdkMember(scope: ReleaseScope, module: string, name: string): SdkMember | undefined {
  const m = tableMember(module, name);
  return m && inScope(m.releases, scope) ? m : undefined;
}

const lookups = new Map<string, SdkMember | null>();

/** A member by module and (dotted) name, whatever the release; looked up once per name. */
function tableMember(module: string, name: string): SdkMember | undefined {
  const key = `${module} ${name}`;
  let hit = lookups.get(key);
  if (hit === undefined) {
    const [head, ...rest] = name.split('.');
    let m = MODULE_TABLE.get(module)?.members.get(head);
    for (const part of rest) m = m?.members.get(part);
    // Names come from source files: the cache stays bounded.
    if (lookups.size > 10_000) lookups.clear();
    lookups.set(key, (hit = m ?? null));
  }
  return hit ?? undefined;
}

/** The member a fully qualified name is, e.g. `blockether.vis.extension.Symbol` or `vis.state.get`. */
export function sdkMemberByQualified(scope: ReleaseScope, qualified: string): SdkMember | undefined {
  // The longest module name that prefixes it wins (`vis_lang_interface.prompt.routing`).
  let best: SdkModule | undefined;
  for (const m of MODULE_TABLE.values()) {
    if (qualified.startsWith(m.name + '.') && (!best || m.name.length > best.name.length)) best = m;
  }
  return best && sdkMember(scope, best.name, qualified.slice(best.name.length + 1));
}

/** The public members of a module in the scope's releases, in table order (internals left out). */
export function sdkMembers(scope: ReleaseScope, module: string): SdkMember[] {
  return [...(MODULE_TABLE.get(module)?.members.values() ?? [])].filter((m) => !m.internal && inScope(m.releases, scope));
}

/** Whether any known release of its family has a member of this name (internals included). */
export function everMember(module: string, name: string): boolean {
  return sdkMember(ANY_RELEASE, module, name) !== undefined;
}

/** The parameters of a member for a scope: those of its newest checked release that has it. */
export function paramsOf(member: SdkMember, scope: ReleaseScope): readonly SdkParam[] {
  return memo(scope, member, () => member.paramsIn(newest(scope.checked.filter((r) => member.releases.has(r.id)))));
}

/** Every parameter some checked release has, by name, in signature order (a parameter one of them takes is not refused). */
export function acceptedParams(member: SdkMember, scope: ReleaseScope): readonly SdkParam[] {
  return memo(scope, `params:${member.qualified}`, () => {
    const releases = (scope.checked.length ? scope.checked : RELEASES).filter((r) => member.releases.has(r.id));
    const out = new Map<string, SdkParam>();
    for (const r of releases.length ? releases : [undefined]) for (const p of member.paramsIn(r)) if (!out.has(p.name)) out.set(p.name, p);
    return [...out.values()];
  });
}

/** The names some checked release accepts as keywords. */
export function acceptedKeywords(member: SdkMember, scope: ReleaseScope): ReadonlySet<string> {
  return memo(scope, `keywords:${member.qualified}`, () => new Set(acceptedParams(member, scope).filter((p) => p.kind !== 'var_positional' && p.kind !== 'positional_only').map((p) => p.name)));
}

/** Whether the parameters take any keyword (`**kwargs`). */
export function takesAnyKeyword(params: readonly SdkParam[]): boolean {
  return params.some((p) => p.kind === 'var_keyword');
}

/** The parameter an argument binds to: the n-th positional, or a keyword. */
export function parameterAt(params: readonly SdkParam[], at: { position: number } | { keyword: string }): SdkParam | undefined {
  if ('keyword' in at) {
    return params.find((p) => p.name === at.keyword && p.kind !== 'positional_only' && p.kind !== 'var_positional') ?? params.find((p) => p.kind === 'var_keyword');
  }
  const positional = params.filter((p) => p.kind === 'positional_only' || p.kind === 'positional_or_keyword');
  return positional[at.position] ?? params.find((p) => p.kind === 'var_positional');
}

/**
 * Binds a call's arguments to parameters as Python does: positionals in order, then keywords. The
 * argument given for each named parameter; undefined when splats make the binding unknowable.
 */
export function bindCall(params: readonly SdkParam[], call: Call): Map<string, Argument> | undefined {
  if (call.args.some((a) => a.splat)) return undefined;
  const out = new Map<string, Argument>();
  let i = 0;
  for (const a of call.args) {
    if (a.name !== undefined) {
      const p = parameterAt(params, { keyword: a.name });
      if (p && p.kind !== 'var_keyword') out.set(p.name, a);
      continue;
    }
    const p = parameterAt(params, { position: i++ });
    if (p && p.kind !== 'var_positional') out.set(p.name, a);
  }
  return out;
}

/** The closed vocabulary of a parameter, with the values the scope's releases accept. */
export function vocabularyOf(param: SdkParam, scope: ReleaseScope): { vocabulary: Vocabulary; values: VocabularyValue[] } | undefined {
  if (!param.vocabulary) return undefined;
  return vocabularyIn(param.vocabulary, scope);
}

/** A vocabulary by id, with the values the scope's releases accept. */
export function vocabularyIn(id: string, scope: ReleaseScope): { vocabulary: Vocabulary; values: VocabularyValue[] } {
  return memo(scope, `vocabulary:${id}`, () => {
    const vocabulary = vocabularyById(id);
    const values = vocabulary.values.filter((v) => !v.releases || inScope(valueReleases(v), scope));
    return { vocabulary, values };
  });
}

const valueReleaseCache = new WeakMap<VocabularyValue, ReadonlySet<string>>();

/** The releases that accept a vocabulary value. */
export function valueReleases(v: VocabularyValue): ReadonlySet<string> {
  let ids = valueReleaseCache.get(v);
  if (!ids) valueReleaseCache.set(v, (ids = v.releases ? resolveReleaseSet(v.releases) : new Set(RELEASES.map((r) => r.id))));
  return ids;
}

/** The names in a vocabulary the scope's releases accept. */
export function vocabularyValues(id: string, scope: ReleaseScope = ANY_RELEASE): string[] {
  return memo(scope, `values:${id}`, () => vocabularyIn(id, scope).values.map((v) => v.value));
}

/** How a callable's name reads in Python's own TypeError messages: `symbol()` or `Extension.__init__()`. */
export function pythonCallName(member: SdkMember): string {
  const short = member.name.split('.').pop()!;
  return member.kind === 'class' ? `${short}.__init__()` : `${short}()`;
}

/** One line for a hover or completion detail: `Symbol(fn, name=None, tag="observation", ...)`. */
export function signatureText(member: SdkMember, params: readonly SdkParam[]): string {
  const parts: string[] = [];
  let starred = false;
  params.forEach((p, i) => {
    if (p.kind === 'keyword_only' && !starred) {
      parts.push('*');
      starred = true;
    }
    if (p.kind === 'var_positional') starred = true;
    const star = p.kind === 'var_positional' ? '*' : p.kind === 'var_keyword' ? '**' : '';
    const type = p.type ? `: ${p.type}` : '';
    const def = p.default !== undefined ? (p.type ? ` = ${p.default}` : `=${p.default}`) : '';
    parts.push(`${star}${p.name}${type}${def}`);
    if (p.kind === 'positional_only' && params[i + 1]?.kind !== 'positional_only') parts.push('/');
  });
  const returns = member.returns ? ` -> ${member.returns}` : '';
  return `${member.name.split('.').pop()}(${parts.join(', ')})${returns}`;
}

/** Levenshtein distance up to a bound (with case changes and swapped neighbours counting one). */
export function editDistance(a: string, b: string, bound = 2): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  const prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const same = a[i - 1] === b[j - 1] ? 0 : a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0.5 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + same);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      cur.push(d);
    }
    prev2.splice(0, prev2.length, ...prev);
    prev = cur;
  }
  return Math.ceil(prev[b.length]);
}

/** The public member of a module whose name is one edit away from `name` (a typo), if exactly one is. */
export function nearMember(module: string, name: string): SdkMember | undefined {
  if (name.length < 4) return undefined;
  const close = [...(MODULE_TABLE.get(module)?.members.values() ?? [])].filter((m) => !m.internal && editDistance(m.name, name, 1) <= 1);
  return close.length === 1 ? close[0] : undefined;
}

// ---------------------------------------------------------------------------------------------
// A model's view of the table

/** The module an SDK flavour's calls resolve into. */
export function moduleOf(flavour: SdkFlavour): string {
  return flavour === 'g1' ? G1_MODULE : TYPED_MODULE;
}

/** What a model is checked against: its SDK profile (every release when it has none). */
export function scopeOf(model: Model): ReleaseScope {
  return model.sdk && model.sdk.checked.length ? model.sdk : ANY_RELEASE;
}

/** Each call's member in the last scope it was looked up in (every rule family asks for the same calls). */
const callMembers = new WeakMap<Call, { scope: ReleaseScope; releases: string; sdk: Call['sdk']; member: SdkMember | undefined }>();

/** The releases a scope checks against, as one string (what a member lookup in it depends on). */
function releasesOfScope(scope: ReleaseScope): string {
  let ids = scopeReleases.get(scope);
  if (ids === undefined) scopeReleases.set(scope, (ids = scope.checked.map((r) => r.id).join(',')));
  return ids;
}

const scopeReleases = new WeakMap<ReleaseScope, string>();

/** The SDK member a call is, as the file's SDK version has it; undefined for other calls and members it lacks. */
export function memberOfCall(model: Model, call: Call): SdkMember | undefined {
  const sdk = call.sdk;
  if (!sdk) return undefined;
  const scope = scopeOf(model);
  const hit = callMembers.get(call);
  if (hit && hit.sdk === sdk && (hit.scope === scope || hit.releases === releasesOfScope(scope))) {
    // Each version has a profile of its own: one checked against the same releases gives the same member.
    hit.scope = scope;
    return hit.member;
  }
  const member = sdkMember(scope, moduleOf(sdk.flavour), sdk.member);
  callMembers.set(call, { scope, releases: releasesOfScope(scope), sdk, member });
  return member;
}

/** A call to an SDK member bound to the member's parameters (see `bindCall`). */
export function bindSdkCall(model: Model, call: Call): Map<string, Argument> | undefined {
  const member = memberOfCall(model, call);
  return member ? bindCall(paramsOf(member, scopeOf(model)), call) : undefined;
}

/**
 * Whether the scope's releases are in a set: true when every checked release is, false when none is,
 * undefined when they straddle it (a conflict between two sides) or the scope is every release.
 */
export function inReleases(scope: ReleaseScope, set: ReleaseSet): boolean | undefined {
  if (!scope.checked.length) return undefined;
  const ids = memo(ANY_RELEASE, set, () => resolveReleaseSet(set));
  const n = scope.checked.filter((r) => ids.has(r.id)).length;
  return n === scope.checked.length ? true : n === 0 ? false : undefined;
}

/** The tag vocabulary the file's SDK version accepts. */
export function tagsOf(model: Model): readonly string[] {
  return vocabularyValues('tag', scopeOf(model));
}

/** Python's "must be a or b" / "must be one of a, b, c" wording of a vocabulary. */
export function vocabularyList(values: readonly string[]): string {
  return values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(', ')}`;
}
