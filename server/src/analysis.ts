// One analysis per module version: text → tree (incremental for open documents) → declaration model.
// This is the per-module half of the pipeline (pyright's SourceFile); the workspace program
// (server/src/workspace/program.ts) joins modules on top of it (imports, Symbol analysis across
// modules, rules, cross-file checks). Every feature, the CLI and the benchmarks read both through the
// program, so a module version is parsed and modelled once, whoever asks.
import type { Model } from './model/types';
import type { SeverityOverrides } from './rules';
import type { Finding } from './rules/types';
import type { Suppressions } from './rules/suppression';
import type { ContractFormatSetting, VersionPin } from './sdk/profile';
import { Program } from './workspace/program';

export { DEFAULT_MAX_FILE_SIZE } from './parse/limits';

/** One version of one module, analysed: its declaration model. */
export interface ModuleAnalysis {
  uri: string;
  /** The document version for an open document; 0 for a file read from disk. */
  version: number;
  /** What tells this version from the next: `open:<version>:<length>` or the file's `mtime:size`. */
  stamp: string;
  model: Model;
  /** Milliseconds the parse and model took. */
  millis: number;
  /** Its suppression comments (`# vis: ignore[...]`). */
  suppressions: Suppressions;
}

/** A module analysis with the findings the program reports for it (its own, and those other modules put on it). */
export interface Analysis extends ModuleAnalysis {
  findings: Finding[];
}

/**
 * Analyses documents one at a time, keeping their trees between versions: a program without a
 * workspace folder, for benchmarks and tests that feed texts version by version.
 */
export class Analyzer {
  readonly program: Program;
  private texts = new Map<string, { version: number; text: string }>();

  constructor(overrides: SeverityOverrides = {}, contractFormat: ContractFormatSetting = 'auto') {
    this.program = new Program({ open: (uri) => this.texts.get(uri), overrides, contractFormat });
  }

  analyze(uri: string, version: number, text: string): Analysis {
    this.texts.set(uri, { version, text });
    const a = this.program.analysis(uri);
    if (!a) throw new Error(`${uri} could not be analysed`);
    return a;
  }
}

/**
 * A one-off analysis of a text (tests, previews of unopened files): nothing is kept. `pins`, when given,
 * stand for the project's vis-agent pins (what the program reads from pyproject.toml and uv.lock).
 */
export function analyzeText(
  uri: string,
  text: string,
  overrides: SeverityOverrides = {},
  contractFormat: ContractFormatSetting = 'auto',
  pins?: readonly VersionPin[],
): Analysis {
  const evidence = pins && (() => ({ pins: [...pins] }));
  const program = new Program({ open: (u) => (u === uri ? { version: 1, text } : undefined), overrides, contractFormat, keepTrees: false, evidence });
  const a = program.analysis(uri);
  if (!a) throw new Error(`${uri} could not be analysed`);
  return a;
}
