// Every rule family, and running them over a model.
import type { Model } from '../model/types';
import { extensionRules } from './extension';
import { g1Rules } from './g1';
import { registrationRules } from './registration';
import { routingRules } from './routing';
import type { Finding, Rule, Severity } from './types';
import { pathOf } from './util';

export const allRules: Rule[] = [...registrationRules, ...extensionRules, ...g1Rules, ...routingRules];

/** Per-rule severity overrides from the settings; `off` silences a rule. */
export type SeverityOverrides = Record<string, Severity | 'off'>;

export function runRules(model: Model, overrides: SeverityOverrides = {}, rules: Rule[] = allRules): Finding[] {
  if (!model.generation) return [];
  const findings: Finding[] = [];
  const path = pathOf(model.uri);
  for (const rule of rules) {
    const severity = overrides[rule.id] ?? rule.severity;
    if (severity === 'off') continue;
    rule.check({
      model,
      path,
      report: (range, message, fix) => findings.push({ rule: rule.id, severity, message, range, fix }),
    });
  }
  return findings.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}
