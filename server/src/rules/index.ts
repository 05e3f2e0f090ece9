// Every rule family, and running them over a model.
import { symbolInfos, type SymbolInfo } from '../contracts/symbols';
import type { Resolver } from '../contracts/scope';
import { contractFormatFor, type ContractFormatSetting } from '../sdk/profile';
import type { Model } from '../model/types';
import { activityFamilies, activityRules } from './activity';
import { catalogFamilies, catalogRules } from './catalog';
import { bindingRule } from './declaration';
import { extensionFamilies, extensionRules } from './extension';
import { fileRules } from './file';
import { g1Families, g1Rules } from './g1';
import { hookFamilies, hookRules } from './hooks';
import { languageFamilies, languageRules } from './language';
import { methodFamilies, methodRules } from './methods';
import { providerFamilies, providerRules } from './providers';
import { registrationRules } from './registration';
import { routingRules } from './routing';
import { sdkCallFamilies, sdkCallRules } from './sdkcalls';
import { sdkRules } from './sdk';
import { settingFamilies, settingRules } from './settings';
import { sequenceRules } from './sequence';
import { symbolFamilies, symbolRules } from './symbols';
import type { Finding, ModuleRole, Rule, Severity } from './types';
import { pathOf } from './util';

/** The SDK calls whose arguments are bound as Python binds them (SDK-003 for those without a binding rule of their own). */
const families = [
  ...extensionFamilies,
  ...g1Families,
  ...hookFamilies,
  ...symbolFamilies,
  ...methodFamilies,
  ...catalogFamilies,
  ...languageFamilies,
  ...settingFamilies,
  ...activityFamilies,
  ...providerFamilies,
  ...sdkCallFamilies,
];

export const allRules: Rule[] = [
  ...fileRules,
  ...sdkRules,
  bindingRule(families),
  ...registrationRules,
  ...extensionRules,
  ...g1Rules,
  ...hookRules,
  ...symbolRules,
  ...methodRules,
  ...sequenceRules,
  ...catalogRules,
  ...languageRules,
  ...settingRules,
  ...activityRules,
  ...providerRules,
  ...sdkCallRules,
  ...routingRules,
];

/** Per-rule severity overrides from the settings; `off` silences a rule. */
export type SeverityOverrides = Record<string, Severity | 'off'>;

/** Options every rule may read. */
export interface RuleOptions {
  /** visAuthoring.contractFormat (`auto` by default: the file's SDK version's format). */
  contractFormat?: ContractFormatSetting;
  /** What the file is to Vis (from the program); unknown for a file on its own. */
  role?: ModuleRole;
  /** The module's Symbol analysis through the program; by default the file is analysed alone. */
  symbols?: () => SymbolInfo[];
  resolver?: Resolver;
}

export function runRules(model: Model, overrides: SeverityOverrides = {}, rules: Rule[] = allRules, options: RuleOptions = {}): Finding[] {
  // A file that was not parsed has only its file-level finding (and none when it is not a Vis file).
  if (model.unanalysed) rules = rules.filter((r) => fileRules.includes(r));
  else if (!model.generation) return [];
  const findings: Finding[] = [];
  const path = pathOf(model.uri);
  const contractFormat = contractFormatFor(model.sdk, options.contractFormat);
  let infos: SymbolInfo[] | undefined;
  const symbols =
    options.symbols ??
    (() => {
      try {
        return (infos ??= symbolInfos(model, { format: contractFormat }));
      } catch {
        // A fault in the static analysis must not take the file's other diagnostics down with it.
        return (infos = []);
      }
    });
  for (const rule of rules) {
    const severity = overrides[rule.id] ?? rule.severity;
    if (severity === 'off') continue;
    rule.check({
      model,
      path,
      report: (range, message, fix, extra) => findings.push({ rule: rule.id, severity, message, range, fix, ...(extra?.uri && extra.uri !== model.uri ? { uri: extra.uri } : {}), ...(extra?.related?.length ? { related: extra.related } : {}) }),
      contractFormat,
      role: options.role ?? 'unknown',
      symbols,
      resolver: options.resolver ?? {},
    });
  }
  return findings.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}
