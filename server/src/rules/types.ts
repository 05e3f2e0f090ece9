// What a rule is and what it reports. Rules read the declaration model, and through the program what
// other modules declare (the Symbol analysis across modules, classes found through imports).
import type { SymbolInfo } from '../contracts/symbols';
import type { Resolver } from '../contracts/scope';
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

/** Another place that explains a finding (LSP relatedInformation). */
export interface RelatedLocation {
  uri: string;
  range: Range;
  message: string;
}

export interface Finding {
  rule: string;
  severity: Severity;
  message: string;
  range: Range;
  fix?: Fix;
  /** The module the finding belongs to when it is not the analysed one (a declaration in a sibling module). */
  uri?: string;
  related?: RelatedLocation[];
}

/** Where a finding goes when it is not on the analysed module, and what explains it. */
export interface ReportOptions {
  uri?: string;
  related?: RelatedLocation[];
}

/** What a module is to Vis: an entry file it loads, a module an entry imports, or not known (a file on its own). */
export type ModuleRole = 'entry' | 'module' | 'unknown';

export interface RuleContext {
  model: Model;
  /** The file's path (or URI when it has none), as Vis names it in load errors. */
  path: string;
  report(range: Range, message: string, fix?: Fix, options?: ReportOptions): void;
  /** The contract format contracts are rendered in: the chosen one, or the file's SDK version's (`contractFormatFor`). */
  contractFormat?: ContractFormat;
  /** Whether Vis loads the file as an entry (REG-005 applies only to entries). */
  role: ModuleRole;
  /** The module's `vis.Symbol(...)` declarations, analysed once through the program (sibling modules resolved). */
  symbols(): SymbolInfo[];
  /** Finds the modules the file imports (classes and records defined elsewhere). */
  resolver: Resolver;
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
