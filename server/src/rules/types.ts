// What a rule is and what it reports. Rules read the declaration model, and through the program what
// other modules declare (the Symbol analysis across modules, classes found through imports).
import type { SymbolInfo } from '../contracts/symbols';
import type { Resolver } from '../contracts/scope';
import type { ContractFormat } from '../contracts/types';
import type { Model, Range } from '../model/types';
import type { SourceText } from '../fixes/source';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface TextEditFix {
  range: Range;
  newText: string;
}

/**
 * An edit that resolves a finding. Edits are in the module's coordinates, applied together (as an LSP
 * WorkspaceEdit is); they change as little text as possible so the author's formatting and comments stay.
 */
export interface Fix {
  title: string;
  edits: TextEditFix[];
  /** The obvious fix for the finding (LSP `isPreferred`): Auto Fix applies it. Default true for `Finding.fix`. */
  preferred?: boolean;
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
  /** The safe fix: offered as the quick fix, and applied by fix-all and `check --fix`. */
  fix?: Fix;
  /** Other edits that may be what the author meant (a near miss with several candidates): quick fixes only, never applied by fix-all. */
  suggestions?: Fix[];
  /** The module the finding belongs to when it is not the analysed one (a declaration in a sibling module). */
  uri?: string;
  related?: RelatedLocation[];
  /**
   * The earlier errors of the same call (in the order the SDK checks) that Python raises before this one.
   * Only the program keeps such findings (`RuleOptions.keepMasked`): one is shown when every earlier error
   * is suppressed, and otherwise only keeps its suppression in use (`shownFindings`).
   */
  behind?: { rule: string; range: Range }[];
}

/** Where a finding goes when it is not on the analysed module, and what explains it. */
export interface ReportOptions {
  uri?: string;
  related?: RelatedLocation[];
  /** Quick fixes that are not safe enough for fix-all (see `Finding.suggestions`). */
  suggestions?: Fix[];
  /** See `Finding.behind`. */
  behind?: { rule: string; range: Range }[];
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
  /**
   * Checks one unit (a call, a decorator, a Symbol: any object of the model that stands for one
   * statement's part). In the program, what the check reports is kept with what it read from the models,
   * and reused for a later version while none of that changed: write per-unit checks through this. A
   * unit's fix reads the text (`source`) only at the ranges of model objects the check read: those keep
   * their identity only while their statement's text and place are the same.
   */
  unit(unit: object, check: () => void): void;
  /**
   * The text of the module version the model was built from, for fixes that need more than the model's
   * ranges (read when first asked); undefined when it cannot be had, and then no such fix is made.
   */
  source(): SourceText | undefined;
}

/** Keeps the findings of rule units between versions (the program's; see RuleContext.unit). */
export interface RuleUnits {
  findings(rule: string, unit: object, check: () => Finding[]): Finding[];
}

/** What every rule is, wherever it runs (per module, across the workspace, on suppressions or configuration). */
export interface RuleMeta {
  /** Stable id, shown as the diagnostic code (e.g. EXT-003). */
  id: string;
  /** Severity by default: error where Vis refuses to load the file. */
  severity: Severity;
  /** One line on what the rule checks, for documentation and settings. */
  summary: string;
  /**
   * Whether some of its findings carry a safe fix (`Finding.fix`). Its documentation page
   * (`docs/rules/<id>.md`) shows the fix; a fix reported by a rule that does not declare it is dropped.
   */
  fixable?: boolean;
}

export interface Rule extends RuleMeta {
  check(ctx: RuleContext): void;
}
