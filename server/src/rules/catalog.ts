// Every rule id the product reports, in one list: the per-module rules (`allRules`), the workspace and manifest rules,
// and the checks of suppression comments and configuration. Configuration, the CLI (`explain`, SARIF),
// the documentation pages and their test read it, so a new rule needs no other registration.
import { allRules } from './index';
import { configRules } from '../config/rules';
import { manifestRules } from './manifest';
import { suppressionRules } from './suppression';
import type { Severity } from './types';
import { workspaceRules } from './workspace';

export interface RuleInfo {
  id: string;
  severity: Severity;
  summary: string;
  fixable: boolean;
}

let catalog: RuleInfo[] | undefined;

export function ruleCatalog(): RuleInfo[] {
  return (catalog ??= [...allRules, ...workspaceRules, ...manifestRules, ...suppressionRules, ...configRules].map((r) => ({
    id: r.id,
    severity: r.severity,
    summary: r.summary,
    fixable: !!r.fixable,
  })));
}

export function ruleInfo(id: string): RuleInfo | undefined {
  return ruleCatalog().find((r) => r.id === id);
}
