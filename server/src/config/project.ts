// `[tool.vis-authoring]` in a pyproject.toml: the project's rule selection, shared by the editor and the
// CLI so a CI run and the editor agree.
//
//   [tool.vis-authoring]
//   select = ["ALL"]                       # rule ids, family prefixes (EXT, G1-HK) or ALL
//   ignore = ["SYM-008"]
//   severity = { HOOK-006 = "error" }      # error, warning, information, hint, off
//   [tool.vis-authoring.per-file-ignores]
//   "tests/*.py" = ["REG-005"]             # globs relative to the pyproject.toml's folder; a bare name matches at any depth
//
// A file uses the nearest pyproject.toml above it that has a `[tool.vis-authoring]` table (as ruff finds
// its `[tool.ruff]`). Mistakes in the table are findings on the pyproject.toml (CFG-001); what can be
// read of it still applies.
import path from 'node:path';
import picomatch from 'picomatch';
import type { Range } from '../model/types';
import { readToml, type Manifest } from '../workspace/manifest';
import { SEVERITIES, selectsAny, type SelectionLayer, type SeverityOrOff } from './selection';

export const TABLE = ['tool', 'vis-authoring'];

export interface PerFileIgnore {
  pattern: string;
  rules: string[];
  matches(relative: string): boolean;
}

export interface ProjectConfig {
  /** The pyproject.toml. */
  file: string;
  layer: SelectionLayer;
  perFileIgnores: PerFileIgnore[];
  /** What could not be read, and where (CFG-001). */
  problems: { message: string; range: Range }[];
}

const KEYS = ['select', 'ignore', 'severity', 'per-file-ignores'];
const ZERO: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** The `[tool.vis-authoring]` table of a pyproject.toml's text, or undefined when it has none. */
export function readProjectConfig(file: string, text: string, ruleIds: readonly string[]): ProjectConfig | undefined {
  if (!text.includes('vis-authoring')) return undefined;
  const m = readToml('pyproject', file, text);
  const table = valueAt(m.data, TABLE);
  if (m.error) {
    // A pyproject.toml that does not parse: say so only when it seems to hold our table.
    return /^\s*\[\s*tool\s*\.\s*["']?vis-authoring/m.test(text)
      ? { file, layer: {}, perFileIgnores: [], problems: [{ message: `pyproject.toml does not parse, so [tool.vis-authoring] is not applied: ${m.error.message}`, range: m.error.range }] }
      : undefined;
  }
  if (table === undefined) return undefined;
  const problems: ProjectConfig['problems'] = [];
  const config: ProjectConfig = { file, layer: {}, perFileIgnores: [], problems };
  const where = (...key: string[]) => m.at([...TABLE, ...key]);
  if (!table || typeof table !== 'object' || Array.isArray(table)) {
    problems.push({ message: '[tool.vis-authoring] must be a table', range: where()?.valueRange ?? ZERO });
    return config;
  }
  for (const key of Object.keys(table)) {
    if (!KEYS.includes(key)) problems.push({ message: `unknown key '${key}' in [tool.vis-authoring]; the keys are ${KEYS.join(', ')}`, range: where(key)?.keyRange ?? ZERO });
  }
  const t = table as Record<string, unknown>;
  for (const key of ['select', 'ignore'] as const) {
    if (!(key in t)) continue;
    const list = selectors(m, [...TABLE, key], ruleIds, problems);
    if (list) config.layer[key] = list;
  }
  if ('severity' in t) {
    const sev = t.severity;
    if (!sev || typeof sev !== 'object' || Array.isArray(sev)) problems.push({ message: 'severity must be a table of rule id = "error" | "warning" | "information" | "hint" | "off"', range: where('severity')?.valueRange ?? ZERO });
    else {
      const out: Record<string, SeverityOrOff> = {};
      for (const [id, level] of Object.entries(sev as Record<string, unknown>)) {
        const at = where('severity', id);
        if (!selectsAny(id, ruleIds)) problems.push({ message: unknownRule(id), range: at?.keyRange ?? ZERO });
        else if (typeof level !== 'string' || !SEVERITIES.includes(level as SeverityOrOff)) problems.push({ message: `severity of ${id} must be one of ${SEVERITIES.join(', ')}`, range: at?.valueRange ?? ZERO });
        else out[id] = level as SeverityOrOff;
      }
      config.layer.severity = out;
    }
  }
  if ('per-file-ignores' in t) {
    const pfi = t['per-file-ignores'];
    if (!pfi || typeof pfi !== 'object' || Array.isArray(pfi)) problems.push({ message: 'per-file-ignores must be a table of glob = [rule ids]', range: where('per-file-ignores')?.valueRange ?? ZERO });
    else {
      for (const pattern of Object.keys(pfi as Record<string, unknown>)) {
        const rules = selectors(m, [...TABLE, 'per-file-ignores', pattern], ruleIds, problems);
        if (!rules) continue;
        const glob = pattern.replace(/\\/g, '/').replace(/^\.\//, '');
        const isMatch = picomatch(glob.includes('/') ? glob : `**/${glob}`, { dot: true });
        config.perFileIgnores.push({ pattern, rules, matches: (relative) => isMatch(relative.split(path.sep).join('/')) });
      }
    }
  }
  return config;
}

function unknownRule(id: string): string {
  return `unknown rule '${id}': not a rule id, a family prefix (such as EXT or G1-HK) or ALL`;
}

/** A list of rule selectors; unknown ones are reported and left out. */
function selectors(m: Manifest, key: string[], ruleIds: readonly string[], problems: ProjectConfig['problems']): string[] | undefined {
  const located = m.at(key);
  const items = m.items(key);
  if (!items) {
    problems.push({ message: `${key[key.length - 1]} must be a list of rule ids`, range: located?.valueRange ?? ZERO });
    return undefined;
  }
  const out: string[] = [];
  for (const item of items) {
    if (typeof item.value !== 'string') problems.push({ message: `${key[key.length - 1]} must be a list of rule ids`, range: item.range });
    else if (!selectsAny(item.value, ruleIds)) problems.push({ message: unknownRule(item.value), range: item.range });
    else out.push(item.value);
  }
  return out;
}

function valueAt(data: unknown, keys: string[]): unknown {
  let v: unknown = data;
  for (const k of keys) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}
