// The `vis-agent` requirement of a project, read with PEP 508/440 semantics: which SDK releases the
// versions it admits can be. A specifier set (`>=0.2.45`, `==0.1.41`, `~=0.2.26`, `==0.2.*`, ranges) is
// turned into one interval of versions (`!=` excludes single versions and never narrows a family); the
// interval is compared with each release's version span. Version parsing and ordering are PEP 440's, by
// @renovatebot/pep440.
import { compare, explain, valid } from '@renovatebot/pep440';
import { parse as parseSpecifier } from '@renovatebot/pep440/lib/specifier';
import { RELEASES, type SdkRelease, type VersionSpan } from './releases';

export interface Requirement {
  /** The normalized distribution name (`vis-agent`). */
  name: string;
  /** The version specifier set (`>=0.2.45,<1`), empty when there is none. */
  specifier: string;
  /** A direct reference (`name @ url`): its version is not known. */
  url?: string;
  /** The environment marker after `;`, if any. */
  marker?: string;
}

/** PEP 503 name normalization: lowercase, runs of `-`, `_` and `.` become one `-`. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** A PEP 508 requirement (`vis-agent[x]>=0.2.45; python_version >= "3.11"`), or undefined when it is not one. */
export function parseRequirement(text: string): Requirement | undefined {
  const m = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*(.*)$/s.exec(text);
  if (!m) return undefined;
  let rest = m[2].trim();
  let marker: string | undefined;
  let url: string | undefined;
  if (rest.startsWith('@')) {
    const semi = rest.search(/\s;/);
    url = (semi === -1 ? rest.slice(1) : rest.slice(1, semi)).trim();
    marker = semi === -1 ? undefined : rest.slice(semi + 2).trim();
    return { name: normalizeName(m[1]), specifier: '', url, marker };
  }
  const semi = rest.indexOf(';');
  if (semi !== -1) {
    marker = rest.slice(semi + 1).trim();
    rest = rest.slice(0, semi).trim();
  }
  if (rest.startsWith('(') && rest.endsWith(')')) rest = rest.slice(1, -1).trim();
  if (rest && !/^(===|~=|==|!=|<=|>=|<|>)/.test(rest)) return undefined;
  return { name: normalizeName(m[1]), specifier: rest, marker };
}

interface Bound {
  version: string;
  inclusive: boolean;
}

/** The versions a specifier set admits, as one interval (an open side is unbounded). */
export interface VersionInterval {
  lo?: Bound;
  hi?: Bound;
}

function bumped(release: number[], epoch: number): string {
  const next = [...release];
  next[next.length - 1] += 1;
  return `${epoch ? `${epoch}!` : ''}${next.join('.')}`;
}

/** The tighter of two bounds on one side: the higher lower bound, or the lower upper bound (exclusive wins a tie). */
function tighter(side: 'lo' | 'hi', a: Bound | undefined, b: Bound): Bound {
  if (!a) return b;
  const c = compare(a.version, b.version) * (side === 'lo' ? 1 : -1);
  if (c !== 0) return c > 0 ? a : b;
  return a.inclusive ? b : a;
}

/**
 * The interval of versions a specifier set admits, or a reason when it is not a valid PEP 440
 * specifier set. An empty specifier admits every version.
 */
export function specifierInterval(specifier: string): VersionInterval | { error: string } {
  if (!specifier.trim()) return {};
  const clauses = parseSpecifier(specifier) as ReturnType<typeof parseSpecifier> | null;
  if (!clauses) return { error: `'${specifier}' is not a PEP 440 version specifier` };
  let lo: Bound | undefined;
  let hi: Bound | undefined;
  for (const c of clauses) {
    const { operator, version } = c;
    if (!version) return { error: `'${specifier}' has no comparable version` };
    const parsed = explain(version);
    const release = parsed?.release ?? [];
    const epoch = parsed?.epoch ?? 0;
    switch (operator) {
      case '>=':
        lo = tighter('lo', lo, { version, inclusive: true });
        break;
      case '>':
        lo = tighter('lo', lo, { version, inclusive: false });
        break;
      case '<=':
        hi = tighter('hi', hi, { version, inclusive: true });
        break;
      case '<':
        hi = tighter('hi', hi, { version, inclusive: false });
        break;
      case '==':
      case '===':
        if (c.prefix) {
          lo = tighter('lo', lo, { version, inclusive: true });
          hi = tighter('hi', hi, { version: bumped(release, epoch), inclusive: false });
        } else {
          lo = tighter('lo', lo, { version, inclusive: true });
          hi = tighter('hi', hi, { version, inclusive: true });
        }
        break;
      case '~=':
        lo = tighter('lo', lo, { version, inclusive: true });
        hi = tighter('hi', hi, { version: bumped(release.slice(0, -1), epoch), inclusive: false });
        break;
      default:
        // `!=` leaves out single versions: it never narrows which releases a range can be.
        break;
    }
  }
  return { lo, hi };
}

function spanBounds(span: VersionSpan): VersionInterval {
  return {
    lo: span.min !== undefined ? { version: span.min, inclusive: !span.minExclusive } : undefined,
    hi: span.max !== undefined ? { version: span.max, inclusive: !!span.maxInclusive } : undefined,
  };
}

/** Whether some version lies below `hi` and at or above `lo` (both optional). */
function below(lo: Bound | undefined, hi: Bound | undefined): boolean {
  if (!lo || !hi) return true;
  const c = compare(lo.version, hi.version);
  return c < 0 || (c === 0 && lo.inclusive && hi.inclusive);
}

export function overlaps(a: VersionInterval, b: VersionInterval): boolean {
  return below(a.lo, b.hi) && below(b.lo, a.hi);
}

/** The releases whose vis-agent versions a requirement admits. */
export function releasesAdmitting(interval: VersionInterval, releases: readonly SdkRelease[] = RELEASES): SdkRelease[] {
  return releases.filter((r) => overlaps(interval, spanBounds(r.versions)));
}

/**
 * A pin's text read as a vis-agent version constraint: a full requirement (`vis-agent>=0.2.45`), a bare
 * specifier (`>=0.2.45`) or a locked version (`0.2.45`). Undefined when it names another package, has no
 * version (a URL) or does not parse.
 */
export function visAgentInterval(text: string): { interval: VersionInterval; specifier: string } | { error: string } | undefined {
  // Requirements are read again with each version of the file that pins them: parsed once each.
  if (intervals.has(text)) return intervals.get(text);
  if (intervals.size > 1000) intervals.clear();
  const read = readVisAgentInterval(text);
  intervals.set(text, read);
  return read;
}

const intervals = new Map<string, ReturnType<typeof readVisAgentInterval>>();

function readVisAgentInterval(text: string): { interval: VersionInterval; specifier: string } | { error: string } | undefined {
  const t = text.trim();
  if (valid(t)) return { interval: specifierInterval(`==${t}`) as VersionInterval, specifier: `==${t}` };
  if (/^(===|~=|==|!=|<=|>=|<|>)/.test(t)) {
    const interval = specifierInterval(t);
    return 'error' in interval ? interval : { interval, specifier: t };
  }
  const req = parseRequirement(t);
  if (!req || req.name !== 'vis-agent' || req.url !== undefined) return undefined;
  const interval = specifierInterval(req.specifier);
  return 'error' in interval ? interval : { interval, specifier: req.specifier };
}
