// Every rule family, and running them over a model.
import { contractFormatFor, type ContractFormatSetting } from '../sdk/profile';
import type { Model } from '../model/types';
import { extensionRules } from './extension';
import { g1Rules } from './g1';
import { hookRules } from './hooks';
import { methodRules } from './methods';
import { registrationRules } from './registration';
import { routingRules } from './routing';
import { sdkRules } from './sdk';
import { sequenceRules } from './sequence';
import { symbolRules } from './symbols';
import type { Finding, Rule, Severity } from './types';
import { pathOf } from './util';

export const allRules: Rule[] = [...sdkRules, ...registrationRules, ...extensionRules, ...g1Rules, ...hookRules, ...symbolRules, ...methodRules, ...sequenceRules, ...routingRules];

/** Per-rule severity overrides from the settings; `off` silences a rule. */
export type SeverityOverrides = Record<string, Severity | 'off'>;

/** Options every rule may read. */
export interface RuleOptions {
  /** visAuthoring.contractFormat (`auto` by default: the file's SDK version's format). */
  contractFormat?: ContractFormatSetting;
}

export function runRules(model: Model, overrides: SeverityOverrides = {}, rules: Rule[] = allRules, options: RuleOptions = {}): Finding[] {
  if (!model.generation) return [];
  const findings: Finding[] = [];
  const path = pathOf(model.uri);
  const contractFormat = contractFormatFor(model.sdk, options.contractFormat);
  for (const rule of rules) {
    const severity = overrides[rule.id] ?? rule.severity;
    if (severity === 'off') continue;
    rule.check({
      model,
      path,
      report: (range, message, fix) => findings.push({ rule: rule.id, severity, message, range, fix }),
      contractFormat,
    });
  }
  return findings.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}
