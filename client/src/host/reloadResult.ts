// Reads the prose title of a `/reload` turn (spec §2, both generations). No `vscode` import.
//
// [0.1.41] Reloaded — configuration[ (keys)]; Python extensions: N loaded[, F failed (last-good kept):
//          <file.py> — <error>; … — see `vis-agent doctor`]; skills/agents, … rescanned[ — hook failures: …]
// [N]      the same, each failure being `Python extension <name|file>: reload failed; last-known-good
//          tools and docs are stale|not loaded; loaded fingerprint <sha>; requested fingerprint <sha>. <error>`
// The wording is prose and may change: anything not recognised is kept as the raw title.

export interface ReloadFailure {
  /** What the title names: a file (`greeter.py`, a path) or an extension name. */
  target: string;
  error: string;
  /** [N] last-known-good code is kept but stale (true) or nothing is loaded (false). */
  stale?: boolean;
  loadedFingerprint?: string;
  requestedFingerprint?: string;
  /** 1-based line the error points at, when the error text names one. */
  line?: number;
}

export interface ReloadResult {
  title: string;
  /** False when the title did not have the expected shape; then only `title` is meaningful. */
  recognized: boolean;
  loaded?: number;
  failedCount?: number;
  failures: ReloadFailure[];
  hookFailures?: string;
}

const DOCTOR = ' — see `vis-agent doctor`';
const N_FAILURE = /^Python extension (.+?): reload failed; last-known-good tools and docs are (stale|not loaded); loaded fingerprint (\S*?); requested fingerprint (\S*?)\.(?:\s+([\s\S]*))?$/;

export function stripTitle(markdown: string): string {
  let t = markdown.trim();
  const m = /^\*\*([\s\S]*)\*\*$/.exec(t);
  if (m) t = m[1].trim();
  return t;
}

export function parseReloadTitle(markdown: string): ReloadResult {
  const title = stripTitle(markdown);
  const result: ReloadResult = { title, recognized: false, failures: [] };
  const hook = /\s—\s*hook failures:\s*([\s\S]*)$/.exec(title);
  if (hook) result.hookFailures = hook[1].trim();
  const pe = /Python extensions:\s*(\d+) loaded(?:, (\d+) failed \(last-good kept\):\s*)?/.exec(title);
  if (!pe) return result;
  result.recognized = true;
  result.loaded = Number(pe[1]);
  if (pe[2] === undefined) {
    result.failedCount = 0;
    return result;
  }
  result.failedCount = Number(pe[2]);
  let rest = title.slice(pe.index + pe[0].length);
  const end = rest.indexOf(DOCTOR);
  if (end >= 0) rest = rest.slice(0, end);
  else {
    const next = rest.search(/; skills\/agents\b/);
    if (next >= 0) rest = rest.slice(0, next);
  }
  result.failures = splitFailures(rest).map(parseFailure);
  return result;
}

function splitFailures(list: string): string[] {
  // An item starts at the beginning or after "; " with either "Python extension " ([N]) or
  // "<something>.py — " ([0.1.41]). Error texts may themselves hold "; ".
  const starts: number[] = [];
  const re = list.trimStart().startsWith('Python extension ') ? /(?:^|; )(?=Python extension \S)/g : /(?:^|; )(?=[^;]*?\.py — )/g;
  for (let m; (m = re.exec(list)); ) {
    starts.push(m.index === 0 ? 0 : m.index + 2);
    if (m[0].length === 0) re.lastIndex++;
  }
  if (starts.length === 0) return list.trim() ? [list.trim()] : [];
  return starts.map((s, i) => list.slice(s, i + 1 < starts.length ? starts[i + 1] - 2 : list.length).trim()).filter(Boolean);
}

function parseFailure(item: string): ReloadFailure {
  const n = N_FAILURE.exec(item);
  if (n) {
    const error = (n[5] ?? '').trim();
    return withLine({ target: n[1], error, stale: n[2] === 'stale', loadedFingerprint: n[3], requestedFingerprint: n[4] });
  }
  const dash = item.indexOf(' — ');
  if (dash > 0) return withLine({ target: item.slice(0, dash).trim(), error: item.slice(dash + 3).trim() });
  return withLine({ target: item, error: '' });
}

function withLine(f: ReloadFailure): ReloadFailure {
  const m = /\bline (\d+)\b/.exec(f.error);
  if (m) f.line = Number(m[1]);
  return f;
}

/** One line for a notification. */
export function summarize(r: ReloadResult): string {
  if (!r.recognized) return `Vis answered: ${r.title}`;
  const parts = [`${r.loaded} loaded`];
  if (r.failedCount) parts.push(`${r.failedCount} failed: ${r.failures.map((f) => `${f.target} — ${f.error}`).join('; ')}`);
  if (r.hookFailures) parts.push(`hook failures: ${r.hookFailures}`);
  return `Vis extensions reloaded: ${parts.join(', ')}`;
}

/** Finds the `/reload` title in a turn record: the `markdown` of a prose content block. */
export function findTitle(turn: unknown): string | undefined {
  const found: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 12 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) { for (const x of v) walk(x, depth + 1); return; }
    const o = v as Record<string, unknown>;
    if (typeof o.markdown === 'string') found.push(o.markdown);
    for (const k of Object.keys(o)) if (k !== 'markdown') walk(o[k], depth + 1);
  };
  walk(turn, 0);
  return found.find((t) => /Reloaded|Python extensions?:/.test(t)) ?? found[found.length - 1];
}
