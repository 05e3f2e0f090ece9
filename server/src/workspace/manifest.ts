// Manifests Vis reads without running anything (vis-host.md §5): the PEP 723 `# /// script` block of a
// single-file extension, the `pyproject.toml` of a packaged one, and `uv.lock`. Parsed with a real TOML
// parser (toml-eslint-parser) that keeps where every key and value is written, so diagnostics on
// manifests can point at a key. Positions are LSP positions in the file the TOML comes from (for a
// PEP 723 block: in the Python file, past the `# ` comment markers). No VS Code types.
import { getStaticTOMLValue, parseTOML } from 'toml-eslint-parser';
import type { Range } from '../model/types';
import { normalizeName } from '../sdk/pep440';
import type { VersionPin } from '../sdk/profile';

/** A requirement on the `vis-agent` package (the Vis SDK), as the project pins it: one definition, the SDK profile's. */
export type { VersionPin } from '../sdk/profile';

/** Where a key is written and what its value is. */
export interface Located {
  value: unknown;
  keyRange: Range;
  valueRange: Range;
}

export interface Manifest {
  kind: 'pep723' | 'pyproject';
  file: string;
  /** The TOML as plain values (empty when it does not parse). */
  data: Record<string, unknown>;
  /** Why the TOML does not parse, and where. */
  error?: { message: string; range: Range };
  /** A key by its dotted path (`['tool', 'vis', 'source_paths']`), with its ranges. */
  at(path: readonly string[]): Located | undefined;
  /** The items of an array value with their ranges (`project.dependencies`). */
  items(path: readonly string[]): { value: unknown; range: Range }[] | undefined;
}

/** Moves a position in the TOML text to the file it comes from. */
type MapPos = (line: number, character: number) => { line: number; character: number };

interface Node {
  type: string;
  range: [number, number];
  loc: { start: { line: number; column: number }; end: { line: number; column: number } };
  [key: string]: unknown;
}

function toRange(n: Node, map: MapPos): Range {
  return { start: map(n.loc.start.line - 1, n.loc.start.column), end: map(n.loc.end.line - 1, n.loc.end.column) };
}

/** Parses TOML text into a manifest; `map` places its positions in the source file. */
export function readToml(kind: Manifest['kind'], file: string, text: string, map: MapPos = (line, character) => ({ line, character })): Manifest {
  const keys = new Map<string, Located>();
  const arrays = new Map<string, { value: unknown; range: Range }[]>();
  let data: Record<string, unknown> = {};
  let error: Manifest['error'];
  try {
    const ast = parseTOML(text) as unknown as Node;
    data = (getStaticTOMLValue(ast as never) as unknown as Record<string, unknown>) ?? {};
    const top = (ast.body as Node[])[0];
    for (const item of (top?.body as Node[]) ?? []) {
      if (item.type === 'TOMLKeyValue') keyValue(item, [], keys, arrays, map);
      else if (item.type === 'TOMLTable') {
        const prefix = (item.resolvedKey as (string | number)[]).map(String);
        const keyNode = item.key as Node;
        if (item.kind === 'standard' && !keys.has(prefix.join('\u0000'))) {
          keys.set(prefix.join('\u0000'), { value: valueAt(data, prefix), keyRange: toRange(keyNode, map), valueRange: toRange(item, map) });
        }
        for (const kv of item.body as Node[]) keyValue(kv, prefix, keys, arrays, map);
      }
    }
  } catch (e) {
    const err = e as { message?: string; lineNumber?: number; column?: number };
    const pos = map(Math.max(0, (err.lineNumber ?? 1) - 1), Math.max(0, err.column ?? 0));
    error = { message: err.message ?? String(e), range: { start: pos, end: pos } };
    data = {};
  }
  return {
    kind,
    file,
    data,
    error,
    at: (path) => keys.get(path.join('\u0000')),
    items: (path) => arrays.get(path.join('\u0000')),
  };
}

function keyValue(kv: Node, prefix: string[], keys: Map<string, Located>, arrays: Map<string, { value: unknown; range: Range }[]>, map: MapPos): void {
  const key = kv.key as Node;
  const names = (key.keys as Node[]).map((k) => String(k.type === 'TOMLBare' ? k.name : k.value));
  const path = [...prefix, ...names];
  const value = kv.value as Node;
  const located: Located = { value: getStaticTOMLValue(value as never), keyRange: toRange(key, map), valueRange: toRange(value, map) };
  keys.set(path.join('\u0000'), located);
  if (value.type === 'TOMLArray') {
    arrays.set(
      path.join('\u0000'),
      (value.elements as Node[]).map((el) => ({ value: getStaticTOMLValue(el as never), range: toRange(el, map) })),
    );
  } else if (value.type === 'TOMLInlineTable') {
    for (const inner of value.body as Node[]) keyValue(inner, path, keys, arrays, map);
  }
}

function valueAt(data: unknown, path: string[]): unknown {
  let v: unknown = data;
  for (const p of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return v;
}

// ---------------------------------------------------------------------------------------------
// PEP 723

const SCRIPT_START = /^# \/\/\/ script[ \t]*$/;

/** The PEP 723 `script` block of a Python file: its TOML and the line it starts on, if the block is well formed. */
export function scriptBlockOf(text: string): { content: string; range: Range } | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => SCRIPT_START.test(l.replace(/\r$/, '')));
  if (start < 0) return undefined;
  const content: string[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    if (line === '# ///') return { content: content.join('\n'), range: { start: { line: start, character: 0 }, end: { line: i, character: line.length } } };
    if (line !== '#' && !line.startsWith('# ')) return undefined;
    content.push(line.slice(2));
  }
  return undefined;
}

/** The manifest of a PEP 723 block that starts at `startLine` in `file` (every content line is `# ` + TOML). */
export function readScriptManifest(file: string, content: string, startLine: number): Manifest {
  // Read again with each version of the file (its SDK profile, its environment): parsed once per block.
  const key = `${file}\u0000${startLine}\u0000${content}`;
  let m = scriptManifests.get(key);
  if (!m) {
    if (scriptManifests.size > 200) scriptManifests.clear();
    scriptManifests.set(key, (m = readToml('pep723', file, content, (line, character) => ({ line: startLine + 1 + line, character: character + 2 }))));
  }
  return m;
}

const scriptManifests = new Map<string, Manifest>();

// ---------------------------------------------------------------------------------------------
// What the program reads from a manifest

/** `[tool.vis] source_paths`: a list of strings (a lone string is taken as one path). */
export function sourcePathsOf(m: Manifest): string[] | undefined {
  const v = valueAt(m.data, ['tool', 'vis', 'source_paths']);
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return undefined;
}

/** `[tool.vis] project`: a uv project directory. */
export function projectDirOf(m: Manifest): string | undefined {
  const v = valueAt(m.data, ['tool', 'vis', 'project']);
  return typeof v === 'string' ? v : undefined;
}

/** `project.name` of a pyproject.toml. */
export function projectNameOf(m: Manifest): string | undefined {
  const v = valueAt(m.data, ['project', 'name']);
  return typeof v === 'string' ? v : undefined;
}

/** The dependency requirements: `project.dependencies` (pyproject.toml) or top-level `dependencies` (PEP 723). */
export function dependenciesOf(m: Manifest): { requirement: string; range: Range }[] {
  const path = m.kind === 'pyproject' ? ['project', 'dependencies'] : ['dependencies'];
  return (m.items(path) ?? []).flatMap((i) => (typeof i.value === 'string' ? [{ requirement: i.value, range: i.range }] : []));
}

/** `[tool.vis] category` and `skills`, as written. */
export function toolVisOf(m: Manifest): { category?: unknown; skills?: unknown; sourcePaths?: unknown; project?: unknown } {
  const v = valueAt(m.data, ['tool', 'vis']);
  if (!v || typeof v !== 'object') return {};
  const t = v as Record<string, unknown>;
  return { category: t.category, skills: t.skills, sourcePaths: t.source_paths, project: t.project };
}

/** PEP 503 normalisation of a distribution name (`Vis_Agent` → `vis-agent`). */
export { normalizeName };

/** The distribution name a PEP 508 requirement names (`vis-agent[x]>=1; python_version<'4'` → `vis-agent`). */
export function requirementName(requirement: string): string | undefined {
  const m = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)/.exec(requirement);
  return m ? normalizeName(m[1]) : undefined;
}

/** The `vis-agent` requirements of a manifest. */
export function visAgentPins(m: Manifest): VersionPin[] {
  return dependenciesOf(m)
    .filter((d) => requirementName(d.requirement) === 'vis-agent')
    .map((d) => ({ source: m.kind, file: m.file, requirement: d.requirement, range: d.range }));
}

/** The locked `vis-agent` version of a uv.lock (`[[package]] name = "vis-agent" version = "…"`). */
export function lockedVisAgent(file: string, text: string): VersionPin[] {
  const m = readToml('pyproject', file, text);
  const packages = m.data.package;
  if (!Array.isArray(packages)) return [];
  const out: VersionPin[] = [];
  packages.forEach((p, i) => {
    if (!p || typeof p !== 'object') return;
    const { name, version } = p as Record<string, unknown>;
    if (typeof name !== 'string' || normalizeName(name) !== 'vis-agent' || typeof version !== 'string') return;
    out.push({ source: 'uv.lock', file, requirement: `vis-agent==${version}`, range: m.at(['package', String(i), 'version'])?.valueRange });
  });
  return out;
}
