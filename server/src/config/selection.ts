// Which rules run on a file and at what severity, from layers of configuration applied in order: the
// project's `[tool.vis-authoring]`, then the editor's settings (or the command line's options). As in
// ruff, a layer's `select` starts the set afresh and its `ignore` takes rules out of it; inside one
// layer the most specific selector decides (an exact id beats a family prefix, which beats ALL), and
// `ignore` wins a tie. `per-file-ignores` apply last.
import type { Severity } from '../rules/types';

export type SeverityOrOff = Severity | 'off';

/** Per-rule severity overrides; `off` silences a rule. */
export type SeverityOverrides = Record<string, SeverityOrOff>;

export interface SelectionLayer {
  select?: readonly string[];
  ignore?: readonly string[];
  /** Severity by rule id (or family prefix). */
  severity?: Readonly<SeverityOverrides>;
}

export const SEVERITIES: readonly SeverityOrOff[] = ['error', 'warning', 'information', 'hint', 'off'];

/**
 * How specifically a selector names a rule: `ALL` matches every rule (0), a family prefix matches the
 * ids that continue it after a `-` (its length: `G1` < `G1-EXT` < `G1-EXT-1`), an exact id matches
 * itself (longest). -1 when it does not match.
 */
export function specificity(selector: string, id: string): number {
  if (selector === 'ALL') return 0;
  if (selector === id) return selector.length + 1;
  return id.startsWith(selector + '-') ? selector.length : -1;
}

/** Whether a selector names at least one of the ids. */
export function selectsAny(selector: string, ids: readonly string[]): boolean {
  return ids.some((id) => specificity(selector, id) >= 0);
}

function decide(layer: SelectionLayer, id: string, enabled: boolean): boolean {
  let best = -1;
  let on = enabled;
  for (const s of layer.select ?? []) {
    const k = specificity(s, id);
    if (k > best) (best = k), (on = true);
  }
  for (const s of layer.ignore ?? []) {
    const k = specificity(s, id);
    if (k >= best && k >= 0) (best = k), (on = false);
  }
  if (best < 0 && layer.select?.length) return false;
  return on;
}

function severityIn(map: Readonly<SeverityOverrides> | undefined, id: string): SeverityOrOff | undefined {
  let best = -1;
  let out: SeverityOrOff | undefined;
  for (const [k, v] of Object.entries(map ?? {})) {
    const s = specificity(k, id);
    if (s > best && SEVERITIES.includes(v)) (best = s), (out = v);
  }
  return out;
}

/**
 * The severity (or `off`) of every rule, given each rule's default severity, the layers in order
 * (project first) and the rules a `per-file-ignores` entry turns off for the file.
 */
export function resolveSelection(defaults: ReadonlyMap<string, Severity>, layers: readonly SelectionLayer[], fileIgnores: readonly string[] = []): SeverityOverrides {
  const out: SeverityOverrides = {};
  for (const [id, severity] of defaults) {
    let enabled = true;
    let level: SeverityOrOff = severity;
    for (const layer of layers) {
      enabled = decide(layer, id, enabled);
      level = severityIn(layer.severity, id) ?? level;
    }
    if (fileIgnores.some((s) => specificity(s, id) >= 0)) enabled = false;
    out[id] = enabled ? level : 'off';
  }
  return out;
}
