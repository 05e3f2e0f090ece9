// The SDK a file is written for, from everything the project shows (vis-sdk.md §0.2): the SDK module it
// imports, the `vis-agent` requirement pinned in PEP 723, `pyproject.toml` or `uv.lock`, the contract
// format the user chose, the registration call, and the members, keywords and tag values only some
// releases have (`vis.sequence`, the T4 tags, `language_tools=`, `settings=`...). Each piece of evidence
// is the set of releases it fits; the profile is what fits all of them.
//
// Precedence: a pin or an explicit contract format is authoritative, so a registration call or member
// that does not fit it is the file's mistake (its own rule reports it: REG-003, SDK-002, SYM-004...).
// Without one, two pieces of in-file evidence that no release has both are a conflict: reported once, at
// the registration call, naming both sides (SDK-001), and the rules accept what either side accepts
// instead of flagging the rest.
import type { ContractFormat } from '../contracts/types';
import { TYPED_MODULE, allDecorators, registrations, resolve } from '../model/sdk';
import type { Call, Generation, Model, Range, Value } from '../model/types';
import { filePathOf } from '../rules/util';
import { readScriptManifest, visAgentPins } from '../workspace/manifest';
import { releasesAdmitting, visAgentInterval } from './pep440';
import { RELEASES, describeReleases, newest, release, releasesOf, type SdkFamily, type SdkRelease } from './releases';
import { ANY_RELEASE, moduleOf, sdkMember, valueReleases, vocabularyValues, type ReleaseScope, type SdkMember } from './table';
import { vocabularyById } from './vocabularies';
import { derivedCache } from '../model/derived';

/** A `vis-agent` requirement the project pins, as the workspace program reports it per module. */
export interface VersionPin {
  source: 'pep723' | 'pyproject' | 'uv.lock';
  /** The file that holds it (a path, or the document's URI when it has none). */
  file: string;
  /** The requirement as written (`vis-agent>=0.2.45`), or the locked version (`0.2.45`, uv.lock). */
  requirement: string;
  range?: Range;
}

/** What the profile is computed from, besides the model. */
export interface SdkEvidenceInput {
  /** Pins of the project (pyproject.toml, uv.lock, or the PEP 723 block when the program read it). */
  pins?: readonly VersionPin[];
  /** `visAuthoring.contractFormat`: `auto` follows the evidence, C1/C2/C3 narrows to releases with that format. */
  contractFormat?: ContractFormatSetting;
}

export type ContractFormatSetting = 'auto' | ContractFormat;

export type EvidenceKind = 'import' | 'pin' | 'setting' | 'registration' | 'member' | 'keyword' | 'tag';

export interface SdkEvidence {
  kind: EvidenceKind;
  /** How the evidence reads: `vis.register(...)`, `tag 'verification'`, `vis-agent>=0.2.45 in the PEP 723 block`. */
  text: string;
  /** Where it is written in this file (pins may be in another file: `file`). */
  range?: Range;
  file?: string;
  /** The releases it fits. */
  releases: ReadonlySet<string>;
}

export interface SdkConflict {
  /** The registration call when there is one, else where the second side is written. */
  range: Range;
  message: string;
  sides: [SdkEvidence, SdkEvidence];
}

export interface SdkProfile extends ReleaseScope {
  family?: SdkFamily;
  /** The generation the file is written for; undefined when it does not use the Vis SDK. */
  generation?: Generation;
  /** No registration call, pin or generation-specific member decided it: assumed from the imports. */
  generationAssumed: boolean;
  /** The releases that fit all the evidence that holds (oldest first). */
  candidates: readonly SdkRelease[];
  /**
   * What rules check against: the newest candidate, or on a conflict the newest release of each side. A
   * member, keyword or value is accepted when one of these releases accepts it.
   */
  checked: readonly SdkRelease[];
  /** The release hovers and completion describe: the newest candidate. */
  release?: SdkRelease;
  /** The contract format of `release` (undefined for G1, which has no contracts). */
  contract?: ContractFormat;
  /** The tag vocabulary the checked releases accept. */
  tags: readonly string[];
  /** The evidence that decided the profile, strongest first. */
  decidedBy: readonly SdkEvidence[];
  /** Evidence that does not fit a pin or the chosen contract format: its own rule reports it. */
  overruled: readonly SdkEvidence[];
  conflict?: SdkConflict;
  /** Pins that were read but say nothing about the SDK (another package, a URL, a bad specifier), with why. */
  ignoredPins: readonly { pin: VersionPin; reason: string }[];
}

const NO_PINS: SdkProfile['ignoredPins'] = [];
const NOT_VIS: SdkProfile = { generationAssumed: false, candidates: [], checked: [], tags: [], decidedBy: [], overruled: [], ignoredPins: [] };

/** The contract format hovers, previews and rules render: the chosen one, or with `auto` the file's SDK version's (C3 when it has none). */
export function contractFormatFor(profile: SdkProfile | undefined, setting: ContractFormatSetting = 'auto'): ContractFormat {
  if (setting === 'C1' || setting === 'C2' || setting === 'C3') return setting;
  return profile?.contract ?? 'C3';
}

/** Computes the profile and stores it on the model (`model.sdk`, `model.generation`). */
export function applySdkProfile(model: Model, input: SdkEvidenceInput = {}): SdkProfile {
  const profile = sdkProfile(model, input);
  model.sdk = profile;
  model.generation = profile.generation;
  model.generationAssumed = profile.generationAssumed;
  // A call to a member this SDK version lacks raises: its result is not a declaration.
  for (const call of model.calls) {
    if (call.sdk) call.sdk.missing = profile.checked.length > 0 && !sdkMember(profile, moduleOf(call.sdk.flavour), call.sdk.member.split('.')[0]);
  }
  return profile;
}

/** The SDK profile of a model, from its own evidence (imports, calls, its PEP 723 block) and `input`. */
export function sdkProfile(model: Model, input: SdkEvidenceInput = {}): SdkProfile {
  const typedImport = model.sdkImports.find((s) => s.flavour === 'typed');
  const g1Import = model.sdkImports.find((s) => s.flavour === 'g1');
  if (!typedImport && !g1Import) return NOT_VIS;
  const registration = registrations(model)[0];
  const family: SdkFamily = registration ? (registration.kind === 'G1' ? 'g1' : 'typed') : typedImport ? 'typed' : 'g1';
  const imported = family === 'typed' ? (typedImport ?? g1Import)! : (g1Import ?? typedImport)!;
  const familyIds = OF_FAMILY.get(family)!;
  const importEvidence: SdkEvidence = { kind: 'import', text: `import ${imported.text}`, range: imported.range, releases: familyIds };

  let current: ReadonlySet<string> = familyIds;
  const decidedBy: SdkEvidence[] = [];
  const overruled: SdkEvidence[] = [];
  let conflict: { a: SdkEvidence; b: SdkEvidence } | undefined;
  /** On a conflict: the releases the second side fits (its own rules check against their newest). */
  let conflictSideB: ReadonlySet<string> | undefined;
  let authoritative = false;

  // 1. Pins: the versions of vis-agent the project admits.
  const { pins, ignored } = readPins(model, input.pins ?? []);
  if (pins.length) {
    let admitted: ReadonlySet<string> = ALL_IDS;
    for (const p of pins) admitted = intersect(admitted, p.releases);
    if (admitted.size === 0) admitted = pins[0].releases; // pins that contradict each other: the most precise one
    const within = intersect(current, admitted);
    if (within.size) {
      current = within;
      authoritative = true;
      decidedBy.push(...pins);
    } else {
      conflict = { a: pins[0], b: registration ? registrationEvidence(registration.call, registration.kind) : importEvidence };
    }
  }
  const base = current;

  /** Narrows to the releases a piece of evidence fits; what fits none is overruled, or a conflict. */
  const narrow = (e: SdkEvidence): void => {
    if (e.kind !== 'registration' && [...current].every((id) => e.releases.has(id))) return; // fits every candidate: says nothing
    const within = intersect(current, e.releases);
    if (within.size) {
      if (within.size < current.size || e.kind === 'registration') decidedBy.push(e);
      current = within;
    } else if (authoritative) {
      overruled.push(e);
    } else if (!conflict) {
      // The side that excludes it: the first evidence no release shares with it, else the latest one.
      const a = decidedBy.find((d) => intersect(d.releases, e.releases).size === 0) ?? decidedBy[decidedBy.length - 1] ?? importEvidence;
      conflict = { a, b: e };
      conflictSideB = intersect(base, e.releases);
    }
  };
  // 2. The registration call.
  if (registration) narrow(registrationEvidence(registration.call, registration.kind));

  // 3. The contract format the user chose narrows the release, when a release of that generation has it.
  if (input.contractFormat && input.contractFormat !== 'auto' && family === 'typed') {
    const fmt = input.contractFormat;
    const within = new Set([...current].filter((id) => release(id).contract === fmt));
    if (within.size) {
      current = within;
      authoritative = true;
      decidedBy.push({ kind: 'setting', text: `visAuthoring.contractFormat ${fmt}`, releases: within });
    }
  }

  // 4. The members, keywords and tags only some releases have.
  if (family === 'typed') for (const e of markers(model)) narrow(e);

  const candidates = releaseList(current);
  const newestCandidate = newest(candidates)!;
  const sideB = conflictSideB && newest(releaseList(conflictSideB));
  const checked = sideB && sideB.id !== newestCandidate.id ? [newestCandidate, sideB] : [newestCandidate];
  const scope: ReleaseScope = { checked };
  const generation = registration && !decidedBy.some((d) => d.kind === 'pin') ? registration.kind : newestCandidate.generation;
  const decidedGeneration = decidedBy.some((d) => d.kind === 'pin' || d.kind === 'registration' || (d.kind !== 'setting' && spansOneGeneration(d.releases)));
  return {
    family,
    generation,
    generationAssumed: !decidedGeneration,
    candidates,
    checked,
    release: newestCandidate,
    contract: newestCandidate.contract,
    tags: vocabularyValues('tag', scope),
    decidedBy: decidedBy.length ? decidedBy : [importEvidence],
    overruled: overruled.length ? overruled : NONE,
    conflict: conflict && conflictOf(conflict.a, conflict.b, registration?.call),
    ignoredPins: ignored.length ? ignored : NO_PINS,
  };
}

/** The profile in words, for the language status item: the release checked against and what decided it. */
export function describeProfile(profile: SdkProfile): { release: string; decidedBy: string[]; conflict?: string } | undefined {
  const r = profile.release;
  if (!r || !profile.generation) return undefined;
  const traits = [r.contract, `${vocabularyValues('tag', { checked: [r] }).length} tags`, r.ls ? 'language_tools' : '', r.st ? 'settings' : ''].filter(Boolean);
  const gens = [...new Set(profile.candidates.map((c) => c.generation))].join(' and ');
  const fits = profile.candidates.length > 1 ? `newest of the ${profile.candidates.length} ${gens} versions that fit` : 'the one version that fits';
  return {
    release: `${r.label} (${[profile.generation, ...traits].join(', ')}; ${fits})`,
    decidedBy: profile.decidedBy.map((e) => (e.kind === 'import' ? `${evidenceText(e)}, no registration call` : evidenceText(e))),
    conflict: profile.conflict?.message,
  };
}

function spansOneGeneration(ids: ReadonlySet<string>): boolean {
  return new Set([...ids].map((id) => release(id).generation)).size === 1;
}

const lists = new WeakMap<ReadonlySet<string>, readonly SdkRelease[]>();

/** The releases of an interned set, in order (one array per set). */
function releaseList(ids: ReadonlySet<string>): readonly SdkRelease[] {
  let list = lists.get(ids);
  if (!list) lists.set(ids, (list = RELEASES.filter((r) => ids.has(r.id))));
  return list;
}

/** Release sets by their members: every profile that narrows to the same releases shares one set. */
const interned = new Map<string, ReadonlySet<string>>();

function intersect(a: ReadonlySet<string>, b: ReadonlySet<string>): ReadonlySet<string> {
  const ids = [...a].filter((x) => b.has(x));
  const key = ids.join(',');
  let set = interned.get(key);
  if (!set) interned.set(key, (set = new Set(ids)));
  return set;
}

const OF_GENERATION = new Map<Generation, ReadonlySet<string>>((['G1', 'G2', 'G3'] as const).map((g) => [g, new Set(RELEASES.filter((r) => r.generation === g).map((r) => r.id))]));
const ALL_IDS: ReadonlySet<string> = new Set(RELEASES.map((r) => r.id));
const OF_FAMILY = new Map<SdkFamily, ReadonlySet<string>>((['g1', 'typed'] as const).map((f) => [f, new Set(releasesOf(f).map((r) => r.id))]));

function registrationEvidence(call: Call, kind: Generation): SdkEvidence {
  return { kind: 'registration', text: `${call.callee}(...)`, range: call.calleeRange, releases: OF_GENERATION.get(kind)! };
}

function lineOf(e: SdkEvidence): string {
  if (!e.range) return '';
  return e.file ? ` (${e.file}, line ${e.range.start.line + 1})` : ` (line ${e.range.start.line + 1})`;
}

/** `vis.register(...) (line 5)` or `vis-agent>=0.2.45 in the PEP 723 block (line 3)`. */
export function evidenceText(e: SdkEvidence): string {
  return e.kind === 'pin' ? e.text : `${e.text}${lineOf(e)}`;
}

function conflictOf(a: SdkEvidence, b: SdkEvidence, registration: Call | undefined): SdkConflict {
  const message =
    `The SDK version evidence conflicts: ${evidenceText(a)} needs ${describeReleases(a.releases)}, ` +
    `but ${evidenceText(b)} needs ${describeReleases(b.releases)}, and no Vis SDK version has both. ` +
    'Change the one that does not match the Vis that runs this extension.';
  return { range: registration?.calleeRange ?? b.range ?? a.range!, message, sides: [a, b] };
}

// ---------------------------------------------------------------------------------------------
// Pins

interface PinEvidence extends SdkEvidence {
  pin: VersionPin;
}

const WHERE: Record<VersionPin['source'], string> = { pep723: 'the PEP 723 block', pyproject: 'pyproject.toml', 'uv.lock': 'uv.lock' };

const pinCache = new WeakMap<VersionPin, Map<boolean, PinEvidence | { reason: string }>>();

/** A pin as evidence (or why it says nothing about the SDK); one per pin object, as the program shares them. */
/** The releases each requirement admits (a file's pins are read again with each of its versions). */
const admitted = new Map<string, ReadonlySet<string>>();

function readPin(pin: VersionPin, sameFile: boolean): PinEvidence | { reason: string } {
  let byPlace = pinCache.get(pin);
  if (!byPlace) pinCache.set(pin, (byPlace = new Map()));
  const hit = byPlace.get(sameFile);
  if (hit) return hit;
  const read = visAgentInterval(pin.requirement);
  let out: PinEvidence | { reason: string };
  if (!read) out = { reason: 'it does not constrain the vis-agent version' };
  else if ('error' in read) out = { reason: read.error };
  else {
    let releases = admitted.get(pin.requirement);
    if (!releases) admitted.set(pin.requirement, (releases = intersect(new Set(releasesAdmitting(read.interval).map((r) => r.id)), ALL_IDS)));
    const line = pin.range ? `, line ${pin.range.start.line + 1}` : '';
    const where = pin.source === 'pep723' && sameFile ? `${WHERE.pep723}${line}` : `${pin.source === 'pep723' ? `the PEP 723 block of ${pin.file}` : pin.file}${line}`;
    const requirement = /^\s*[0-9]/.test(pin.requirement) ? `vis-agent==${pin.requirement.trim()}` : pin.requirement.trim();
    out = { kind: 'pin', text: `${requirement} (${where})`, range: sameFile ? pin.range : undefined, file: sameFile ? undefined : pin.file, releases, pin };
  }
  byPlace.set(sameFile, out);
  return out;
}

function readPins(model: Model, given: readonly VersionPin[]): { pins: PinEvidence[]; ignored: { pin: VersionPin; reason: string }[] } {
  const all = [...given];
  // The file's own PEP 723 block, unless the program already read it.
  if (!given.some((p) => p.source === 'pep723')) all.push(...scriptPins(model));
  const pins: PinEvidence[] = [];
  const ignored: { pin: VersionPin; reason: string }[] = [];
  for (const pin of all) {
    const sameFile = pin.file === model.uri || pin.file === filePathOf(model.uri);
    const read = readPin(pin, sameFile);
    if ('reason' in read) ignored.push({ pin, reason: read.reason });
    else pins.push(read);
  }
  // The most precise pin first (a lock before a range), so it wins when pins contradict each other.
  const rank = { 'uv.lock': 0, pep723: 1, pyproject: 2 };
  pins.sort((x, y) => rank[x.pin.source] - rank[y.pin.source]);
  return { pins, ignored };
}

/** The `vis-agent` requirements in the file's own PEP 723 `# /// script` block, with their ranges. */
export function scriptPins(model: Model): VersionPin[] {
  const script = model.script;
  if (!script) return [];
  return visAgentPins(readScriptManifest(filePathOf(model.uri) ?? model.uri, script.content, script.range.start.line));
}

// ---------------------------------------------------------------------------------------------
// Markers: what only some typed releases have

const markerCache = derivedCache<readonly SdkEvidence[]>();
const NONE: readonly SdkEvidence[] = [];

const deepest = new Map<string, SdkMember | null>();

/** The deepest member of the typed module a dotted name reaches (`tools.spel.reserve` → `tools`). */
function typedMemberOf(dotted: string): SdkMember | undefined {
  let hit = deepest.get(dotted);
  if (hit === undefined) {
    hit = null;
    const parts = dotted.split('.');
    for (let n = parts.length; n > 0 && !hit; n--) hit = sdkMember(ANY_RELEASE, TYPED_MODULE, parts.slice(0, n).join('.')) ?? null;
    if (deepest.size > 10_000) deepest.clear();
    deepest.set(dotted, hit);
  }
  return hit ?? undefined;
}

const TYPED_IDS = new Set(releasesOf('typed').map((r) => r.id));
const narrower = (ids: ReadonlySet<string>) => ids.size > 0 && ids.size < TYPED_IDS.size;

/** The evidence each SDK call of a kept statement gave, while it names the same member (`call.sdk` is the same object then). */
const callMarkers = new WeakMap<Call, { sdk: Call['sdk']; found: SdkEvidence[] }>();

function markers(model: Model): readonly SdkEvidence[] {
  const hit = markerCache.get(model);
  if (hit) return hit;
  const out: SdkEvidence[] = [];
  const seen = new Set<string>();
  const add = (e: SdkEvidence) => {
    const key = `${e.kind}:${e.text}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(e);
  };
  const memberEvidence = (member: SdkMember, text: string, range: Range): SdkEvidence | undefined => {
    if (member.name === 'register' || member.name === 'register_extension') return undefined; // the registration is evidence of its own
    return narrower(member.releases) ? { kind: 'member', text, range, releases: member.releases } : undefined;
  };
  const memberMarker = (member: SdkMember, text: string, range: Range) => {
    const e = memberEvidence(member, text, range);
    if (e) add(e);
  };
  for (const imp of model.imports) {
    if (imp.module !== TYPED_MODULE || imp.name === undefined) continue;
    const m = sdkMember(ANY_RELEASE, TYPED_MODULE, imp.name);
    if (m) memberMarker(m, `from ${TYPED_MODULE} import ${imp.name}`, imp.range);
  }
  const decorators = [...model.functions.flatMap((f) => f.decorators), ...model.classes.flatMap(allDecorators)];
  for (const d of decorators) {
    if (d.call || !d.qualified?.startsWith(TYPED_MODULE + '.')) continue;
    const m = typedMemberOf(d.qualified.slice(TYPED_MODULE.length + 1));
    if (m) memberMarker(m, `@${d.name}`, d.range);
  }
  for (const call of model.calls) {
    if (call.sdk?.flavour !== 'typed') continue;
    const kept = callMarkers.get(call);
    if (kept?.sdk === call.sdk) {
      for (const e of kept.found) add(e);
      continue;
    }
    const member = typedMemberOf(call.sdk.member);
    if (!member) continue;
    const found: SdkEvidence[] = [];
    const own = memberEvidence(member, `${call.callee}(...)`, call.calleeRange);
    if (own) found.push(own);
    // Keywords only some releases take (`settings=`, `language_tools=`, `hint=`).
    const params = member.keywordReleases();
    for (const a of call.args) {
      if (a.name === undefined) continue;
      const releases = params.get(a.name);
      if (releases && narrower(releases)) found.push({ kind: 'keyword', text: `${call.callee}(${a.name}=...)`, range: a.nameRange ?? a.range, releases });
    }
    // Tag values only some releases accept.
    const tag = tagArgument(member, call);
    if (tag) {
      const v = resolve(model, tag.value);
      const value = v.kind === 'str' ? vocabularyById('tag').values.find((x) => x.value === v.value) : undefined;
      if (value?.releases) found.push({ kind: 'tag', text: `tag '${value.value}'`, range: tag.value.range, releases: valueReleases(value) });
    }
    for (const e of found) add(e);
    // What a call is evidence of is its own (its ranges move with it), unless its tag is a name or a call
    // (what the module binds it to may change).
    if (!tag || (tag.value.kind !== 'name' && tag.value.kind !== 'call')) callMarkers.set(call, { sdk: call.sdk, found });
  }
  out.sort((x, y) => x.range!.start.line - y.range!.start.line || x.range!.start.character - y.range!.start.character);
  markerCache.set(model, out.length ? out : NONE);
  return out;
}

/** The `tag` argument of a Symbol (keyword or third positional) or method call. */
function tagArgument(member: SdkMember, call: Call): { value: Value } | undefined {
  if (member.name !== 'Symbol' && member.name !== 'method') return undefined;
  const kw = call.args.find((a) => a.name === 'tag');
  if (kw) return kw;
  if (member.name !== 'Symbol' || call.args.some((a) => a.splat)) return undefined;
  return call.args.filter((a) => a.name === undefined)[2];
}

const profileKeys = new WeakMap<SdkProfile, string>();

/**
 * What a profile says, where it is written aside (a profile is computed again for each version of a file;
 * two that say the same give every rule the same answers): for results kept between versions.
 */
export function sameProfile(a: unknown, b: unknown): boolean {
  return profileKey(a as SdkProfile | undefined) === profileKey(b as SdkProfile | undefined);
}

function profileKey(p: SdkProfile | undefined): string {
  if (!p) return '';
  let key = profileKeys.get(p);
  if (key === undefined) {
    const ids = (rs: readonly SdkRelease[]) => rs.map((r) => r.id);
    const evidence = (es: readonly SdkEvidence[]) => es.map((e) => [e.kind, e.text, e.file ?? '', [...e.releases].sort()]);
    key = JSON.stringify([
      p.family ?? '',
      p.generation ?? '',
      p.generationAssumed,
      ids(p.candidates),
      ids(p.checked),
      p.release?.id ?? '',
      p.contract ?? '',
      p.tags,
      p.conflict?.message ?? '',
      evidence(p.decidedBy),
      evidence(p.overruled),
      p.ignoredPins.map((x) => [x.pin.source, x.pin.file, x.pin.requirement, x.reason]),
    ]);
    profileKeys.set(p, key);
  }
  return key;
}
