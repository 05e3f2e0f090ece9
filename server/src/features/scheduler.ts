// Which version of each open document the programs see, and analysis that never holds up the server.
//
// Every version of an open document is analysed in a job, in slices that yield to the event loop
// (server/src/slices.ts); the first slice runs at once, so a small document is analysed before the next
// message is read, as it was before. Until a version's module analysis is done, the programs keep
// seeing the last version that was analysed (before the first one: an empty document), so every request
// about it, or about a module that reads it, answers at once from the last analysis (or finds nothing),
// and a large file, or a small one that makes the parser's recovery slow, holds up nothing. A newer
// version cancels the job of an older one before its next slice; closing the document cancels it too.
// Jobs of different documents take turns. Indexing the workspace is a job of its own over every module
// it analyses.
import { Emitter, type TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { ParserUnavailable, parserReady } from '../parse/parser';
import { ANY_MODULE, Cancelled, betweenSteps, runInSlices } from '../slices';
import type { Analysis } from '../analysis';
import type { SymbolInfo } from '../contracts/symbols';
import type { G1ToolInfo } from '../contracts/g1';
import { canonicalUri, type Program } from '../workspace/program';

/** A slice's time, in milliseconds (pyright's foreground slice). */
export const SLICE_MS = 50;

export interface ShownDocument {
  version: number;
  text: string;
  /** The editor's spelling of the document's URI. */
  uri: string;
}

interface OpenState {
  doc: TextDocument;
  /** The version and text of the last change seen (the document object itself changes in place). */
  last: { version: number; text: string };
  /** The version the programs see instead of the current one while the current one is analysed. */
  shown?: { version: number; text: string };
  /** Requests waiting for the current version (see `whenCurrent`). */
  waiters: (() => void)[];
  /** The current version's analysis is done (module, Symbols and rules): requests may ask the programs for it. */
  complete: boolean;
  /** The last analysis a job finished, of this version or an older one: what requests answer from meanwhile. */
  analysis?: Analysis;
  /** Its Symbol analysis (what requests answer from meanwhile, with `analysis`). */
  symbols?: SymbolInfo[];
  /** Its G1 tools (likewise). */
  g1?: G1ToolInfo[];
}

/** What the programs see of a document before its first analysis is done: nothing. */
const NOTHING_YET = { version: -1, text: '' };

/** A document's version was analysed and the programs see it. */
export interface AnalysedEvent {
  /** The editor's spelling of the URI. */
  uri: string;
  /** The URI as the programs name it. */
  canonical: string;
  /** The version is the one the document opened with. */
  first: boolean;
}

export interface SchedulerOptions {
  programOf(uri: string): Program;
  /** A document's text (`null` text is an empty document). */
  textOf(doc: TextDocument): string;
  log(message: string): void;
  /** Told of every slice (`VIS_AUTHORING_TRACE=slices`). */
  trace?: (message: string) => void;
  sliceMs?: number;
}

export class Scheduler {
  private open = new Map<string, OpenState>();
  /** The version the running slice analyses: what the programs see of that document meanwhile. */
  private target?: { uri: string; version: number; text: string };
  private readonly sliceMs: number;
  private readonly analysed = new Emitter<AnalysedEvent>();
  /** A version's analysis is done and the programs see it (not fired for a version superseded first). */
  readonly onAnalysed = this.analysed.event;

  constructor(private options: SchedulerOptions) {
    this.sliceMs = options.sliceMs ?? SLICE_MS;
  }

  /** Follows the open documents. Listen before every feature, so they see the versions this decides. */
  listen(documents: TextDocuments<TextDocument>): void {
    documents.onDidOpen((e) => {
      const uri = canonicalUri(e.document.uri);
      const state: OpenState = { doc: e.document, last: { version: e.document.version, text: this.options.textOf(e.document) }, shown: NOTHING_YET, waiters: [], complete: false };
      this.open.set(uri, state);
      this.analyse(uri, state);
    });
    documents.onDidChangeContent((e) => {
      const uri = canonicalUri(e.document.uri);
      const state = this.open.get(uri);
      const text = this.options.textOf(e.document);
      // didOpen comes with a change event of its own, for the same version and text.
      if (!state || (state.last.version === e.document.version && state.last.text === text)) return;
      // Until this version is analysed, the programs keep the one they had.
      state.shown ??= state.last;
      state.doc = e.document;
      state.last = { version: e.document.version, text };
      state.complete = false;
      this.analyse(uri, state);
    });
    documents.onDidClose((e) => {
      const uri = canonicalUri(e.document.uri);
      const state = this.open.get(uri);
      this.open.delete(uri);
      if (state) wake(state);
    });
  }

  /** The programs' view of an open document (their `open` callback); undefined when it is not open. */
  shown(uri: string): ShownDocument | undefined {
    const state = this.open.get(uri);
    if (!state) return undefined;
    if (this.target?.uri === uri) return { version: this.target.version, text: this.target.text, uri: state.doc.uri };
    const v = state.shown ?? state.last;
    return { version: v.version, text: v.text, uri: state.doc.uri };
  }

  /**
   * Resolves once the document's current version is analysed, or after `maxMs` (then requests answer
   * from the last analysis); at once for a document that is analysed or not open.
   */
  whenCurrent(uri: string, maxMs: number): Promise<void> {
    const state = this.open.get(uri);
    if (!state || state.complete) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, maxMs);
      state.waiters.push(done);
    });
  }

  /**
   * Calls `then` once, when the document's current version has been analysed: for answers given from an
   * older analysis that the client can be asked to fetch again (code lenses, inlay hints). One call per
   * `key` and document however often it is asked for.
   */
  onceAnalysed(uri: string, key: string, then: () => void): void {
    const k = `${key}\u0000${uri}`;
    if (this.later.has(k)) return;
    this.later.add(k);
    const d = this.onAnalysed((e) => {
      if (e.canonical !== uri) return;
      d.dispose();
      this.later.delete(k);
      then();
    });
  }
  private later = new Set<string>();

  /**
   * What a request about an open document answers from while its current version is still being
   * analysed: the last analysis a job finished (an older version's, or undefined before the first).
   * Undefined when the document is not open or its current version is analysed: the programs have it,
   * and a request asks them. A request never analyses a version itself while its job runs in slices:
   * rules over a file of megabytes take seconds, and every other request would wait behind them.
   */
  pendingAnswer(uri: string): { analysis: Analysis | undefined; symbols: SymbolInfo[]; g1: G1ToolInfo[] } | undefined {
    const state = this.open.get(uri);
    return state && !state.complete ? { analysis: state.analysis, symbols: state.symbols ?? [], g1: state.g1 ?? [] } : undefined;
  }

  /** Open documents whose current version is still being analysed. */
  pending(): number {
    return [...this.open.values()].filter((s) => s.shown).length;
  }

  /** Analyses the document's current version in a job; its first slice runs now. */
  private analyse(uri: string, state: OpenState): void {
    const target = { uri, version: state.last.version, text: state.last.text };
    const first = state.shown === NOTHING_YET;
    const program = this.options.programOf(uri);
    const work = () => {
      this.target = target;
      try {
        program.module(uri);
        // The module is analysed: from now on the programs see this version.
        state.shown = undefined;
        betweenSteps();
        const symbols = program.symbols(uri);
        betweenSteps();
        const g1 = program.g1Tools(uri);
        betweenSteps();
        const analysis = program.analysis(uri);
        if (state.last.version === target.version) {
          state.analysis = analysis;
          state.symbols = symbols;
          state.g1 = g1;
          state.complete = true;
          wake(state);
        }
      } finally {
        this.target = undefined;
      }
    };
    const cancelled = () => (this.open.get(uri) !== state ? 'the document was closed' : state.last.version !== target.version ? 'a newer version' : undefined);
    runInSlices(uri, work, { sliceMs: this.sliceMs, cancelled, onSlice: this.traceSlice(uri) }).then(
      () => {
        if (!cancelled()) this.analysed.fire({ uri: state.doc.uri, canonical: uri, first });
      },
      (e: unknown) => {
        if (e instanceof Cancelled) return;
        if (e instanceof ParserUnavailable) {
          // Two parser faults in a row left no runtime for a moment: the job runs again once one is ready.
          void parserReady().then(() => {
            if (!cancelled()) this.analyse(uri, state);
          });
          return;
        }
        this.options.log(`analysis of ${uri} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        // The programs analyse it when asked, as for a file on disk.
        if (!cancelled()) {
          state.shown = undefined;
          state.complete = true;
          wake(state);
        }
      },
    );
  }

  /**
   * Runs work that analyses many modules (indexing a workspace) in slices, every module it analyses
   * sliced; between slices requests are answered and documents' jobs go on. `work` must be safe to run
   * again from the top: the program caches every module it finished.
   */
  background<T>(work: () => T): Promise<T> {
    return runInSlices(ANY_MODULE, work, { sliceMs: this.sliceMs, onSlice: this.traceSlice('background') });
  }

  private traceSlice(what: string): ((ms: number) => void) | undefined {
    const trace = this.options.trace;
    return trace && ((ms) => trace(`slice ${what} ${ms.toFixed(1)} ms`));
  }
}

function wake(state: OpenState): void {
  for (const w of state.waiters.splice(0)) w();
}
