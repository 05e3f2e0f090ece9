// One analysis pipeline for the language server, the CLI and the benchmarks:
// text → tree (incremental) → declaration model (cached per statement) → findings.
import { ModelBuilder } from './model/build';
import type { Model } from './model/types';
import { ParseCache, parseDocument, disposeDocument } from './parse/parser';
import { runRules, type SeverityOverrides } from './rules';
import type { Finding } from './rules/types';
import { applySdkProfile, type ContractFormatSetting, type VersionPin } from './sdk/profile';

export interface Analysis {
  uri: string;
  version: number;
  model: Model;
  findings: Finding[];
  /** Milliseconds spent, for the status item. */
  millis: number;
}

/** Analyses open documents, keeping their trees and statement fragments between versions. */
export class Analyzer {
  private parses = new ParseCache();
  private builders = new Map<string, ModelBuilder>();
  private last = new Map<string, Analysis>();

  /** visAuthoring.contractFormat: `auto` follows each file's SDK profile; C1/C2/C3 narrows the profile to that format. */
  contractFormat: ContractFormatSetting = 'auto';

  /** The project's vis-agent pins for a document (the workspace program's evidence); none by default. */
  pinsFor: (uri: string) => readonly VersionPin[] = () => [];

  constructor(public overrides: SeverityOverrides = {}) {}

  analyze(uri: string, version: number, text: string): Analysis {
    const prev = this.last.get(uri);
    if (prev && prev.version === version) return prev;
    const t0 = performance.now();
    const doc = this.parses.get(uri, version, text);
    let builder = this.builders.get(uri);
    if (!builder) this.builders.set(uri, (builder = new ModelBuilder()));
    const model = withEvidence(builder.build(uri, doc), this.contractFormat, this.pinsFor(uri));
    const findings = runRules(model, this.overrides, undefined, { contractFormat: this.contractFormat });
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

/**
 * The model with its SDK profile recomputed when there is evidence beyond the file itself (a chosen
 * contract format, the project's pins); the model builder already applied the file's own.
 */
function withEvidence(model: Model, contractFormat: ContractFormatSetting, pins: readonly VersionPin[]): Model {
  if (contractFormat !== 'auto' || pins.length) applySdkProfile(model, { contractFormat, pins });
  return model;
}

/** A one-off analysis of a text (CLI, tests): nothing is kept. */
export function analyzeText(
  uri: string,
  text: string,
  overrides: SeverityOverrides = {},
  contractFormat: ContractFormatSetting = 'auto',
  pins: readonly VersionPin[] = [],
): { model: Model; findings: Finding[] } {
  const doc = parseDocument(text);
  try {
    const model = withEvidence(new ModelBuilder().build(uri, doc), contractFormat, pins);
    return { model, findings: runRules(model, overrides, undefined, { contractFormat }) };
  } finally {
    disposeDocument(doc);
  }
}
