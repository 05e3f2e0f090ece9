// One analysis pipeline for the language server, the CLI and the benchmarks:
// text → tree (incremental) → declaration model (cached per statement) → findings.
//
// Nothing a file holds can take the pipeline down: Python's nesting limits and the size limit are
// checked before parsing, and a fault inside the parser is contained (parse/parser.ts `guarded`):
// the file gets one finding that says why it was not analysed, and every other file keeps working.
import type { ContractFormat } from './contracts/types';
import { ModelBuilder } from './model/build';
import type { Model, Range } from './model/types';
import { DEFAULT_MAX_FILE_SIZE, checkNestingLimits } from './parse/limits';

export { DEFAULT_MAX_FILE_SIZE };
import { ParseCache, ParserFault, disposeDocument, guarded, parseDocument } from './parse/parser';
import { runRules, type SeverityOverrides } from './rules';
import type { Finding } from './rules/types';

export interface Analysis {
  uri: string;
  version: number;
  model: Model;
  findings: Finding[];
  /** Milliseconds spent, for the status item. */
  millis: number;
}

/** The analysis settings the pipeline reads. */
export interface AnalysisOptions {
  overrides?: SeverityOverrides;
  contractFormat?: ContractFormat;
  /** Files with more characters than this are not parsed (visAuthoring.maxFileSize). */
  maxFileSize?: number;
}

/** Analyses open documents, keeping their trees and statement fragments between versions. */
export class Analyzer {
  private parses = new ParseCache();
  private builders = new Map<string, ModelBuilder>();
  private last = new Map<string, Analysis>();

  /** The contract format (visAuthoring.contractFormat); rules read it for the tag vocabulary. */
  contractFormat: ContractFormat = 'C3';
  maxFileSize = DEFAULT_MAX_FILE_SIZE;

  constructor(public overrides: SeverityOverrides = {}) {}

  analyze(uri: string, version: number, text: string): Analysis {
    const prev = this.last.get(uri);
    if (prev && prev.version === version) return prev;
    const t0 = performance.now();
    const options = { overrides: this.overrides, contractFormat: this.contractFormat, maxFileSize: this.maxFileSize };
    const { model, findings } = analyse(uri, text, options, (fresh) => {
      if (fresh) this.builders.delete(uri);
      let builder = this.builders.get(uri);
      if (!builder) this.builders.set(uri, (builder = new ModelBuilder()));
      if (fresh) this.parses.delete(uri);
      return builder.build(uri, this.parses.get(uri, version, text));
    });
    const analysis = { uri, version, model, findings, millis: performance.now() - t0 };
    this.last.set(uri, analysis);
    return analysis;
  }

  /** The latest analysis of a document, if any. */
  get(uri: string): Analysis | undefined {
    return this.last.get(uri);
  }

  forget(uri: string): void {
    this.parses.delete(uri);
    this.builders.delete(uri);
    this.last.delete(uri);
  }

  /** Drops cached results so the next analysis re-runs the rules (after a settings change). */
  invalidate(): void {
    this.last.clear();
  }
}

/** A one-off analysis of a text (CLI, tests): nothing is kept. */
export function analyzeText(uri: string, text: string, overrides: SeverityOverrides = {}, contractFormat: ContractFormat = 'C3', maxFileSize = DEFAULT_MAX_FILE_SIZE): { model: Model; findings: Finding[] } {
  return analyse(uri, text, { overrides, contractFormat, maxFileSize }, () => {
    const doc = parseDocument(text);
    try {
      return new ModelBuilder().build(uri, doc);
    } finally {
      disposeDocument(doc);
    }
  });
}

/**
 * The pipeline around `build` (which parses and builds the model; `fresh` asks it to start from
 * nothing, with no cached tree): limits first, then the build, contained; a fault is retried once on
 * the fresh runtime, and a second fault makes the file one ANA-001 finding.
 */
function analyse(uri: string, text: string, options: AnalysisOptions, build: (fresh: boolean) => Model): { model: Model; findings: Finding[] } {
  const rules = (model: Model) => runRules(model, options.overrides, undefined, { contractFormat: options.contractFormat });
  const maxFileSize = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
  if (text.length > maxFileSize) {
    return refused(uri, text, 'ANA-001', `This file has ${text.length} characters, more than visAuthoring.maxFileSize (${maxFileSize}): it is not analysed`, rules);
  }
  const limit = checkNestingLimits(text);
  if (limit) return refused(uri, text, 'SYN-001', limit.message, rules, limit.range);
  let model: Model;
  try {
    model = guarded(() => build(false));
  } catch (e) {
    if (!(e instanceof ParserFault)) throw e;
    try {
      model = guarded(() => build(true));
    } catch (again) {
      if (!(again instanceof ParserFault)) throw again;
      return refused(uri, text, 'ANA-001', `vis-authoring could not analyse this file: the parser failed (${again.reason})`, rules);
    }
  }
  try {
    return { model, findings: guarded(() => rules(model)) };
  } catch (e) {
    if (!(e instanceof ParserFault)) throw e;
    return refused(uri, text, 'ANA-001', `vis-authoring could not analyse this file: a check failed (${e.reason})`, rules);
  }
}

/** Files that import the Vis SDK, told from the text alone (for files that are not parsed). */
const SDK_IMPORT = /^[ \t]*(?:import[ \t]+(?:[\w.]+(?:[ \t]+as[ \t]+\w+)?[ \t]*,[ \t]*)*(?:vis|blockether\.vis[\w.]*)\b|from[ \t]+(?:blockether\.vis|vis)\b)/m;

/** A file that was not analysed: an empty model, and one finding that says why (for Vis files only). */
function refused(uri: string, text: string, rule: 'SYN-001' | 'ANA-001', message: string, rules: (m: Model) => Finding[], range?: Range): { model: Model; findings: Finding[] } {
  const firstLine = text.slice(0, Math.max(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n')));
  const model: Model = {
    uri,
    lineCount: 1,
    imports: [],
    sdkImports: [],
    generationAssumed: false,
    futureAnnotations: false,
    functions: [],
    classes: [],
    bindings: new Map(),
    calls: [],
    sdkCalls: new Map(),
    recovered: [],
    syntaxErrors: [],
  };
  if (SDK_IMPORT.test(text)) model.unanalysed = { rule, message, range: range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: Math.min(firstLine.length, 10_000) } } };
  return { model, findings: rules(model) };
}
