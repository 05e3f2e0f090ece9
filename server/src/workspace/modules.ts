// The modules of a program, one analysis per module version: text → tree (incremental for open
// documents) → declaration model (pyright's SourceFile). Open documents keep their tree and statement
// fragments between versions; files read from disk are parsed, modelled and their tree freed at once.
// No VS Code types.
import type { ModuleAnalysis } from '../analysis';
import { ModelBuilder, emptyModel } from '../model/build';
import { trackModel } from '../model/reads';
import type { Model, Range } from '../model/types';
import { DEFAULT_MAX_FILE_SIZE } from '../parse/limits';
import { NO_SUPPRESSIONS, readSuppressions } from '../rules/suppression';
import { DocumentCache, ParserFault, guarded, parseDocument } from '../parse/parser';
import { memoInSlice, sliceModule } from '../slices';
import type { RowMapper } from './units';

/**
 * The module analyses of one program, one per module version. Open documents keep their segments and
 * statement fragments between versions (a new version re-reads only the statements an edit touched);
 * files read from disk are segmented and modelled afresh. No tree outlives the reading of its statement.
 */
export class ModuleStore {
  private parses = new DocumentCache();
  private builders = new Map<string, ModelBuilder>();
  private last = new Map<string, ModuleAnalysis>();
  /** How many module versions were analysed (tree → model): a version is never analysed twice. */
  analyses = 0;
  /** Called after each module version is analysed (the server's analysis trace). */
  onAnalyzed?: (analysis: ModuleAnalysis) => void;

  /**
   * The analysis of a module version, from the cache when this stamp was analysed already. Nothing a
   * file holds can make this throw: a file over `maxFileSize` characters or over Python's nesting
   * limits is not parsed, and a parser fault is retried once on the fresh runtime; either way the
   * model is empty and says why (`model.unanalysed`, reported as SYN-001 or ANA-001).
   */
  analyze(uri: string, stamp: string, version: number, text: string, keepTree: boolean, maxFileSize = DEFAULT_MAX_FILE_SIZE): ModuleAnalysis {
    const prev = this.last.get(uri);
    if (prev && prev.stamp === stamp) return prev;
    // Inside a sliced job for this module, parsing and reading stop when the slice's time is up
    // (SliceExpired, through to the job) and go on in the next slice from what the memo kept.
    return sliceModule(uri, () => this.analyzeVersion(uri, stamp, version, text, keepTree, maxFileSize));
  }

  private analyzeVersion(uri: string, stamp: string, version: number, text: string, keepTree: boolean, maxFileSize: number): ModuleAnalysis {
    // A sliced job's time counts from its first slice.
    const t0 = memoInSlice('start', stamp, () => performance.now());
    const build = (fresh: boolean): Model => {
      const doc = keepTree && !fresh ? this.parses.get(uri, version, text) : parseDocument(text);
      // Python's nesting limits, found while segmenting: such a file is not parsed at all.
      if (doc.limit) return unanalysedModel(uri, text, 'SYN-001', doc.limit.message, doc.limit.range);
      if (keepTree && !fresh) {
        let builder = this.builders.get(uri);
        if (!builder) this.builders.set(uri, (builder = new ModelBuilder()));
        return builder.build(uri, doc);
      }
      // A file from disk (or an editor that closed, or a retry after a fault): nothing is kept.
      this.parses.delete(uri);
      this.builders.delete(uri);
      return new ModelBuilder().build(uri, doc);
    };
    let model: Model;
    if (text.length > maxFileSize) {
      model = unanalysedModel(uri, text, 'ANA-001', `This file has ${text.length} characters, more than visAuthoring.maxFileSize (${maxFileSize}): it is not analysed`);
    } else {
      try {
        model = guarded(() => build(false));
      } catch (e) {
        if (!(e instanceof ParserFault)) throw e;
        try {
          model = guarded(() => build(true));
        } catch (again) {
          if (!(again instanceof ParserFault)) throw again;
          model = unanalysedModel(uri, text, 'ANA-001', `vis-authoring could not analyse this file: the parser failed (${again.reason})`);
        }
      }
    }
    this.analyses++;
    const suppressions = model.unanalysed?.rule === 'ANA-001' && text.length > maxFileSize ? NO_SUPPRESSIONS : readSuppressions(text);
    const analysis: ModuleAnalysis = { uri, version, stamp, model, millis: performance.now() - t0, suppressions };
    this.last.set(uri, analysis);
    this.onAnalyzed?.(analysis);
    return analysis;
  }

  get(uri: string): ModuleAnalysis | undefined {
    return this.last.get(uri);
  }

  /** Where the rows of an open document's statements went from build to build (its model builder), or undefined for a file read from disk. */
  rowMapper(uri: string): RowMapper | undefined {
    return this.builders.get(uri);
  }

  /** How many top-level statements the last version of an open document parsed and read (tests and the benchmarks). */
  statementsRead(uri: string): number | undefined {
    return this.builders.get(uri)?.read;
  }

  /** Regions the last build of a module scanned for Python's syntax errors (tests and the benchmarks). */
  regionsScanned(uri: string): number | undefined {
    return this.builders.get(uri)?.scanned;
  }

  /** Every module analysed so far. */
  all(): ModuleAnalysis[] {
    return [...this.last.values()];
  }

  /** A document closed: what is kept for its next version goes (its model stays until the module changes or is forgotten). */
  release(uri: string): void {
    this.parses.delete(uri);
    this.builders.delete(uri);
  }

  forget(uri: string): void {
    this.release(uri);
    this.last.delete(uri);
  }
}


/** Files that import the Vis SDK, told from the text alone (for files that are not parsed). */
const SDK_IMPORT = /^[ \t]*(?:import[ \t]+(?:[\w.]+(?:[ \t]+as[ \t]+\w+)?[ \t]*,[ \t]*)*(?:vis|blockether\.vis[\w.]*)\b|from[ \t]+(?:blockether\.vis|vis)\b)/m;

/** The model of a file that was not parsed: empty, and saying why (for files that import the Vis SDK only). */
export function unanalysedModel(uri: string, text: string, rule: 'SYN-001' | 'ANA-001', message: string, range?: Range): Model {
  const nl = text.indexOf('\n');
  const firstLine = nl === -1 ? text.length : nl;
  const model = emptyModel(uri);
  if (SDK_IMPORT.test(text)) model.unanalysed = { rule, message, range: range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: Math.min(firstLine, 10_000) } } };
  return trackModel(model);
}
