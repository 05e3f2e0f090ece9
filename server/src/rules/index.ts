// Every rule family, and running them over a model.
import { SliceExpired, advanced, betweenSteps, stepMemo } from '../slices';
import { symbolInfos, type SymbolInfo } from '../contracts/symbols';
import type { Resolver } from '../contracts/scope';
import { contractFormatFor, type ContractFormatSetting } from '../sdk/profile';
import type { Model } from '../model/types';
import { activityFamilies, activityRules } from './activity';
import { catalogFamilies, catalogRules } from './sdkCatalog';
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
import type { SeverityOverrides } from '../config/selection';
import type { SourceText } from '../fixes/source';
import type { Finding, ModuleRole, Rule, RuleContext, RuleUnits, Severity } from './types';
import { hostCallRules } from './hostCalls';
import { loggingRules } from './logging';
import { stateRules } from './state';
import { formRules } from './forms';
import { callbackRules } from './callbacks';
import { langInterfaceRules } from './langInterface';
import { environmentRules } from './environment';
import { designRules } from './design';
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
  ...stateRules,
  ...loggingRules,
  ...hostCallRules,
  ...formRules,
  ...callbackRules,
  ...langInterfaceRules,
  ...environmentRules,
  ...designRules,
];

export type { SeverityOverrides } from '../config/selection';

/** Options every rule may read. */
export interface RuleOptions {
  /** visAuthoring.contractFormat (`auto` by default: the file's SDK version's format). */
  contractFormat?: ContractFormatSetting;
  /** What the file is to Vis (from the program); unknown for a file on its own. */
  role?: ModuleRole;
  /** The module's Symbol analysis through the program; by default the file is analysed alone. */
  symbols?: () => SymbolInfo[];
  resolver?: Resolver;
  /** Findings of rule units kept between versions (the program's); without it every unit is checked. */
  units?: RuleUnits;
  /** The text the model was built from (for fixes); undefined when it cannot be had any more. */
  source?: () => SourceText | undefined;
  /**
   * Keep the findings that earlier errors of their call are in front of (`Finding.behind`), for the
   * program to decide with the module's suppression comments; otherwise only the first is returned.
   */
  keepMasked?: boolean;
}

/**
 * A call's first error only: an earlier error of a rule turned off stands aside for the next. Findings
 * still behind an error are dropped, or kept (`keep`) for the suppression comments to decide.
 */
function unmasked(findings: Finding[], overrides: SeverityOverrides, keep = false): Finding[] {
  const out: Finding[] = [];
  for (const f of findings) {
    if (!f.behind) {
      out.push(f);
      continue;
    }
    const behind = f.behind.filter((b) => overrides[b.rule] !== 'off');
    if (behind.length && !keep) continue;
    const { behind: _, ...rest } = f;
    out.push(behind.length ? { ...rest, behind } : rest);
  }
  return out;
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
      } catch (e) {
        if (e instanceof SliceExpired) throw e;
        // A fault in the static analysis must not take the file's other diagnostics down with it.
        return (infos = []);
      }
    });
  const units = options.units;
  let text: SourceText | undefined;
  const source = () => (text ??= options.source?.());
  // In a sliced job (server/src/slices.ts), a rule at a time: the findings of the rules that ran are
  // kept for the next slice.
  const memo = stepMemo<Model, Map<Rule, { severity: Severity; findings: Finding[] }>>('rules');
  let done = memo?.get(model);
  if (memo && !done) memo.set(model, (done = new Map()));
  // One context for every rule (rules check synchronously): what it reports goes to the rule being checked.
  let rule = rules[0];
  let severity: Severity = 'error';
  // Where reports go: the file's findings, or the findings of the unit being checked.
  let sink = findings;
  const check = (work: () => void): Finding[] => {
    const outer = sink;
    const mine: Finding[] = [];
    sink = mine;
    try {
      work();
    } finally {
      sink = outer;
    }
    return mine;
  };
  const ctx: RuleContext = {
    model,
    path,
    report: (range, message, fix, extra) => {
      const f: Finding = { rule: rule.id, severity, message, range };
      // A fix elsewhere than the module (a finding on a sibling module) is not one: edits are in this module's coordinates.
      const here = !extra?.uri || extra.uri === model.uri;
      if (fix && rule.fixable && here) f.fix = fix;
      if (extra?.suggestions?.length && here) f.suggestions = extra.suggestions;
      if (!here) f.uri = extra!.uri;
      if (extra?.related?.length) f.related = extra.related;
      if (extra?.behind?.length) f.behind = extra.behind;
      sink.push(f);
    },
    contractFormat,
    role: options.role ?? 'unknown',
    symbols,
    resolver: options.resolver ?? {},
    unit: (unit, work) => {
      const found = units ? units.findings(rule.id, unit, () => check(work)) : check(work);
      for (const f of found) sink.push(f);
    },
    source,
  };
  for (const r of rules) {
    const s = overrides[r.id] ?? r.severity;
    if (s === 'off') continue;
    const kept = done?.get(r);
    if (kept?.severity === s) {
      findings.push(...kept.findings);
      continue;
    }
    betweenSteps();
    const from = findings.length;
    rule = r;
    severity = s;
    sink = findings;
    r.check(ctx);
    done?.set(r, { severity: s, findings: findings.slice(from) });
    advanced();
  }
  return unmasked(findings, overrides, options.keepMasked).sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}
