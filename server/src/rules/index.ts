// Every rule family, and running them over a model.
import type { ContractFormat } from '../contracts/types';
import type { Model } from '../model/types';
import { extensionRules } from './extension';
import { fileRules } from './file';
import { g1Rules } from './g1';
import { hookRules } from './hooks';
import { methodRules } from './methods';
import { registrationRules } from './registration';
import { routingRules } from './routing';
import { sequenceRules } from './sequence';
import { symbolRules } from './symbols';
import type { Finding, Rule, Severity } from './types';
import { pathOf } from './util';

export const allRules: Rule[] = [...fileRules, ...registrationRules, ...extensionRules, ...g1Rules, ...hookRules, ...symbolRules, ...methodRules, ...sequenceRules, ...routingRules];

/** Per-rule severity overrides from the settings; `off` silences a rule. */
export type SeverityOverrides = Record<string, Severity | 'off'>;

/** Options every rule may read. */
export interface RuleOptions {
  contractFormat?: ContractFormat;
}

export function runRules(model: Model, overrides: SeverityOverrides = {}, rules: Rule[] = allRules, options: RuleOptions = {}): Finding[] {
  // A file that was not parsed has only its file-level finding (and none when it is not a Vis file).
  if (model.unanalysed) rules = rules.filter((r) => fileRules.includes(r));
  else if (!model.generation) return [];
  const findings: Finding[] = [];
  const path = pathOf(model.uri);
  for (const rule of rules) {
    const severity = overrides[rule.id] ?? rule.severity;
    if (severity === 'off') continue;
    rule.check({
      model,
      path,
      report: (range, message, fix) => findings.push({ rule: rule.id, severity, message, range, fix }),
      contractFormat: options.contractFormat,
    });
  }
  return findings.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}
