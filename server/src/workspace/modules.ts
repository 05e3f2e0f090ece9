// The modules of a program, one analysis per module version: text → tree (incremental for open
// documents) → declaration model (pyright's SourceFile). Open documents keep their tree and statement
// fragments between versions; files read from disk are parsed, modelled and their tree freed at once.
// No VS Code types.
import type { ModuleAnalysis } from '../analysis';
import { ModelBuilder } from '../model/build';
import type { Model } from '../model/types';
import { ParseCache, disposeDocument, parseDocument } from '../parse/parser';

/**
 * The module analyses of one program, one per module version. Open documents keep their tree and
 * statement fragments between versions (incremental re-parse, re-read of changed statements only);
 * files read from disk are parsed, modelled and their tree freed at once.
 */
export class ModuleStore {
  private parses = new ParseCache();
  private builders = new Map<string, ModelBuilder>();
  private last = new Map<string, ModuleAnalysis>();
  /** How many module versions were analysed (tree → model): a version is never analysed twice. */
  analyses = 0;
  /** Called after each module version is analysed (the server's analysis trace). */
  onAnalyzed?: (analysis: ModuleAnalysis) => void;

  /** The analysis of a module version, from the cache when this stamp was analysed already. */
  analyze(uri: string, stamp: string, version: number, text: string, keepTree: boolean): ModuleAnalysis {
    const prev = this.last.get(uri);
    if (prev && prev.stamp === stamp) return prev;
    const t0 = performance.now();
    let model: Model;
    if (keepTree) {
      const doc = this.parses.get(uri, version, text);
      let builder = this.builders.get(uri);
      if (!builder) this.builders.set(uri, (builder = new ModelBuilder()));
      model = builder.build(uri, doc);
    } else {
      // A file from disk (or an editor that closed): no tree is kept.
      this.parses.delete(uri);
      this.builders.delete(uri);
      const doc = parseDocument(text);
      try {
        model = new ModelBuilder().build(uri, doc);
      } finally {
        disposeDocument(doc);
      }
    }
    this.analyses++;
    const analysis: ModuleAnalysis = { uri, version, stamp, model, millis: performance.now() - t0 };
    this.last.set(uri, analysis);
    this.onAnalyzed?.(analysis);
    return analysis;
  }

  get(uri: string): ModuleAnalysis | undefined {
    return this.last.get(uri);
  }

  /** Every module analysed so far. */
  all(): ModuleAnalysis[] {
    return [...this.last.values()];
  }

  /** Frees a module's tree (its model stays until the module changes or is forgotten). */
  release(uri: string): void {
    this.parses.delete(uri);
    this.builders.delete(uri);
  }

  forget(uri: string): void {
    this.release(uri);
    this.last.delete(uri);
  }
}

