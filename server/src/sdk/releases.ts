// The known releases of the Vis Python SDK, oldest first within each family: the lowercase G1 `vis`
// module (Vis 0.1.41 and the docs before it) and the versions of the typed `blockether.vis.extension`
// module (G2 `register`, G3 `register_extension`) with the sub-variants they carry: the contract format
// (C1/C2/C3), the tag vocabulary (T2/T4), `language_tools` (LS) and `settings` (ST).
//
// Commit dates of the typed module are not known; the versions are ordered by the features each has and
// by file size. Where a version's contract format or tag vocabulary is not confirmed by its code, the
// release says so (`assumed`). vis-agent versions map to a family as published packages show it: Vis
// 0.1.41 ships the G1 `vis` package; a package pinning `vis-agent>=0.1.45` calls `vis.register`; packages
// pinning `vis-agent>=0.2.10` call `vis.register_extension`.
import type { ContractFormat } from '../contracts/types';
import type { Generation } from '../model/types';

export type SdkFamily = 'g1' | 'typed';

export interface SdkRelease {
  /** Stable id: `vis-0.1.41`, `g1-docs`, or the typed module's commit prefix (`f3ef1e26`). */
  id: string;
  family: SdkFamily;
  generation: Generation;
  /** How people name it: `Vis 0.1.41`, `extension.py @f3ef1e26`. */
  label: string;
  /** The contract format of `Symbol.contract` (typed releases). */
  contract?: ContractFormat;
  tags: 'T2' | 'T4';
  /** `language_tools=[vis.LanguageSurface(...)]` exists. */
  ls: boolean;
  /** `settings=[vis.Setting(...)]` exists. */
  st: boolean;
  /** What is inferred rather than read from the release's code. */
  assumed?: string;
  /** The vis-agent versions this release can be (PEP 440; an open side is unbounded). */
  versions: VersionSpan;
}

export interface VersionSpan {
  /** Lowest version, inclusive unless `minExclusive`. */
  min?: string;
  minExclusive?: boolean;
  /** Highest version, exclusive unless `maxInclusive`. */
  max?: string;
  maxInclusive?: boolean;
}

const G1_DOCS: VersionSpan = { max: '0.1.41' };
const VIS_0_1_41: VersionSpan = { min: '0.1.41', max: '0.1.41', maxInclusive: true };
/** After Vis 0.1.41 and before 0.2.10 (the first version seen with `register_extension`). */
const G2_VERSIONS: VersionSpan = { min: '0.1.41', minExclusive: true, max: '0.2.10' };
/** After 0.1.45 (which still has `register`), open above. */
const G3_VERSIONS: VersionSpan = { min: '0.1.45', minExclusive: true };

function g2(id: string, assumed?: string): SdkRelease {
  return { id, family: 'typed', generation: 'G2', label: `extension.py @${id}`, contract: 'C1', tags: 'T2', ls: false, st: false, assumed, versions: G2_VERSIONS };
}

function g3(id: string, contract: ContractFormat, tags: 'T2' | 'T4', extra: { ls?: boolean; st?: boolean; assumed?: string } = {}): SdkRelease {
  return { id, family: 'typed', generation: 'G3', label: `extension.py @${id}`, contract, tags, ls: !!extra.ls, st: !!extra.st, assumed: extra.assumed, versions: G3_VERSIONS };
}

const G2_BY_SIZE = 'placed in G2 by file size; its contract format is assumed to be C1';

/** Every known release, oldest first: the G1 family, then the typed family. */
export const RELEASES: readonly SdkRelease[] = [
  {
    id: 'g1-docs',
    family: 'g1',
    generation: 'G1',
    label: 'G1 before Vis 0.1.41',
    tags: 'T2',
    ls: false,
    st: false,
    assumed: 'known from the extending.md of its time, not from its code',
    versions: G1_DOCS,
  },
  { id: 'vis-0.1.41', family: 'g1', generation: 'G1', label: 'Vis 0.1.41', tags: 'T2', ls: false, st: false, versions: VIS_0_1_41 },
  g2('4f9b7a0d', G2_BY_SIZE),
  g2('6c6262c7', G2_BY_SIZE),
  g2('094c17aa', G2_BY_SIZE),
  g2('35eef153', 'its contract format is assumed to be C1'),
  g2('a0f888fa', G2_BY_SIZE),
  g2('47799230'),
  g2('ca8f6e5c', G2_BY_SIZE),
  g2('69cebad1', G2_BY_SIZE),
  g2('00b3a0c1'),
  g3('0bb5b5a4', 'C1', 'T2'),
  g3('1a8b6ead', 'C2', 'T2', { ls: true }),
  g3('f16a4d6f', 'C2', 'T2', { assumed: 'its contract format (C2) and tags (T2) are assumed from its neighbours' }),
  g3('9aa9dbe6', 'C2', 'T2', { assumed: 'its contract format (C2) and tags (T2) are assumed from its neighbours' }),
  g3('fb4b47f0', 'C3', 'T4', { st: true, assumed: 'its contract format (C3) is assumed by size and features' }),
  g3('a95f9ddb', 'C3', 'T4', { st: true, assumed: 'its contract format (C3), tags (T4) and settings are assumed by size and features' }),
  g3('b7cc997a', 'C3', 'T4', { st: true, assumed: 'its contract format (C3), tags (T4) and settings are assumed by size and features' }),
  g3('f3ef1e26', 'C3', 'T4', { st: true }),
];

const BY_ID = new Map(RELEASES.map((r, i) => [r.id, { r, i }]));

export function release(id: string): SdkRelease {
  const hit = BY_ID.get(id);
  if (!hit) throw new Error(`unknown SDK release ${id}`);
  return hit.r;
}

/** The position of a release in RELEASES (older releases of a family come first). */
export function releaseIndex(id: string): number {
  return BY_ID.get(id)?.i ?? -1;
}

export function familyOf(generation: Generation): SdkFamily {
  return generation === 'G1' ? 'g1' : 'typed';
}

export function releasesOf(family: SdkFamily): SdkRelease[] {
  return RELEASES.filter((r) => r.family === family);
}

/** The newest of some releases (the one rules check against when nothing narrows further). */
export function newest(releases: Iterable<SdkRelease>): SdkRelease | undefined {
  let best: SdkRelease | undefined;
  for (const r of releases) if (!best || releaseIndex(r.id) > releaseIndex(best.id)) best = r;
  return best;
}

/** Which releases a member, parameter or vocabulary value exists in. */
export interface ReleaseSet {
  /** Releases of these generations. */
  gen?: readonly Generation[];
  /** From this release on, within its family (inclusive). */
  from?: string;
  /** Up to this release, within its family (inclusive). */
  to?: string;
  /** Exactly these releases. */
  only?: readonly string[];
  /** Any of these releases are left out. */
  except?: readonly string[];
}

// Checks that changed between releases without a parameter or vocabulary value to carry the change.
/** The Activity limits (32 blocks, 8 sections, 32 KiB, 16,384-character text, 16 columns, 200 rows) and their messages: G2. */
export const ACTIVITY_LIMITS: ReleaseSet = { gen: ['G2'] };
/** Presentations without the limits, and their messages (PRES-004, PRES-005; no PRES-006): from @1a8b6ead on. */
export const PRESENTATIONS_UNLIMITED: ReleaseSet = { from: '1a8b6ead' };
/** Content blocks without the limits, and tables with paths (BLK-001, BLK-004): from @f16a4d6f on. */
export const BLOCKS_UNLIMITED: ReleaseSet = { from: 'f16a4d6f' };

/** The release ids a set stands for, out of `within` (a family's releases, or all of them). */
export function resolveReleaseSet(set: ReleaseSet, within: readonly SdkRelease[] = RELEASES): Set<string> {
  const out = new Set<string>();
  const from = set.from !== undefined ? BY_ID.get(set.from) : undefined;
  const to = set.to !== undefined ? BY_ID.get(set.to) : undefined;
  if ((set.from !== undefined && !from) || (set.to !== undefined && !to)) throw new Error(`unknown SDK release in ${JSON.stringify(set)}`);
  for (const r of within) {
    const i = releaseIndex(r.id);
    if (set.only && !set.only.includes(r.id)) continue;
    if (set.gen && !set.gen.includes(r.generation)) continue;
    if (from && (r.family !== from.r.family || i < from.i)) continue;
    if (to && (r.family !== to.r.family || i > to.i)) continue;
    if (set.except?.includes(r.id)) continue;
    out.add(r.id);
  }
  return out;
}

/**
 * How a set of releases reads in a message, generation by generation: `G2`, `G3 from extension.py
 * @fb4b47f0 on`, `G2 and G3 up to extension.py @1a8b6ead`, `only extension.py @1a8b6ead (G3)`.
 */
export function describeReleases(ids: ReadonlySet<string>): string {
  const rs = RELEASES.filter((r) => ids.has(r.id));
  if (rs.length === 0) return 'no known SDK version';
  if (rs.length === 1) return `only ${rs[0].label} (${rs[0].generation})`;
  const parts: string[] = [];
  for (const g of [...new Set(rs.map((r) => r.generation))]) {
    const all = RELEASES.filter((r) => r.generation === g);
    const first = all.findIndex((r) => ids.has(r.id));
    const last = all.length - 1 - [...all].reverse().findIndex((r) => ids.has(r.id));
    const contiguous = all.slice(first, last + 1).every((r) => ids.has(r.id));
    if (contiguous && first === 0 && last === all.length - 1) parts.push(g);
    else if (contiguous && last === all.length - 1) parts.push(`${g} from ${all[first].label} on`);
    else if (contiguous && first === 0) parts.push(`${g} up to ${all[last].label}`);
    else if (contiguous) parts.push(`${g} from ${all[first].label} to ${all[last].label}`);
    else parts.push(`${g} (${all.filter((r) => ids.has(r.id)).map((r) => r.label).join(', ')})`);
  }
  return parts.join(' and ');
}
