// What a rule is and what it reports. Rules only read the declaration model.
import type { ContractFormat } from '../contracts/types';
import type { Model, Range } from '../model/types';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface TextEditFix {
  range: Range;
  newText: string;
}

export interface Fix {
  title: string;
  edits: TextEditFix[];
}

export interface Finding {
  rule: string;
  severity: Severity;
  message: string;
  range: Range;
  fix?: Fix;
}

export interface RuleContext {
  model: Model;
  /** The file's path (or URI when it has none), as Vis names it in load errors. */
  path: string;
  report(range: Range, message: string, fix?: Fix): void;
  /** The contract format contracts are rendered in: the chosen one, or the file's SDK version's (`contractFormatFor`). */
  contractFormat?: ContractFormat;
}

export interface Rule {
  /** Stable id, shown as the diagnostic code (e.g. EXT-003). */
  id: string;
  /** Severity by default: error where Vis refuses to load the file. */
  severity: Severity;
  /** One line on what the rule checks, for documentation and settings. */
  summary: string;
  check(ctx: RuleContext): void;
}
