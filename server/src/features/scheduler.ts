// Which version of each open document the programs see, and analysis that never holds up the server.
//
// A document under SLICED_CHARS characters is analysed when something first asks for its current
// version (a publish, a hover), synchronously: milliseconds. A larger one is analysed in a job, in
// slices that yield to the event loop (server/src/slices.ts), and until its module analysis is done the
// programs keep seeing the last version that was analysed (before the first one: an empty document), so
// every request about it, or about a module that reads it, answers at once from the last analysis (or
// finds nothing). A newer version cancels the job of an older one before its next slice; closing the
// document cancels it too. Indexing the workspace is a job of its own over every module it analyses.
import { Emitter, type TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { ANY_MODULE, Cancelled, betweenSteps, runInSlices } from '../slices';
import { canonicalUri, type Program } from '../workspace/program';

/** Documents with at least this many characters are analysed in slices (their first analysis takes over ~50 ms). */
export const SLICED_CHARS = 50_000;

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
  /** The version the programs see instead of the current one while the current one is analysed in slices. */
  shown?: { version: number; text: string };
}

/** What the programs see of a large document before its first analysis is done: nothing. */
const NOTHING_YET = { version: -1, text: '' };

/** A document opened, changed, or had its version analysed in slices. */
export interface DocumentEvent {
  /** The editor's spelling of the URI. */
  uri: string;
  /** The URI as the programs name it. */
  canonical: string;
  /** Whether this version is analysed in slices (then `onAnalysed` follows unless a newer version comes first). */
  sliced: boolean;
  /** For `onAnalysed`: the version is the one the document opened with. */
  first?: boolean;
}

export interface SchedulerOptions {
  programOf(uri: string): Program;
  /** A document's text (`null` text is an empty document). */
  textOf(doc: TextDocument): string;
  log(message: string): void;
  /** Told of every slice (`VIS_AUTHORING_TRACE=slices`). */
  trace?: (message: string) => void;
  sliceChars?: number;
  sliceMs?: number;
}

export class Scheduler {
  private open = new Map<string, OpenState>();
  /** The version the running slice analyses: what the programs see of that document meanwhile. */
  private target?: { uri: string; version: number; text: string };
  private documentJobs: string[] = [];
  private documentLane?: Promise<void>;
  private readonly sliceChars: number;
  private readonly sliceMs: number;
  private readonly opened = new Emitter<DocumentEvent>();
  private readonly changed = new Emitter<DocumentEvent>();
  private readonly analysed = new Emitter<DocumentEvent>();
  /** A document opened (fired once; the change event that comes with didOpen is not a change). */
  readonly onOpened = this.opened.event;
  /** A document's text changed to a new version. */
  readonly onChanged = this.changed.event;
  /** A sliced version's analysis is done and the programs see it. */
  readonly onAnalysed = this.analysed.event;

  constructor(private options: SchedulerOptions) {
    this.sliceChars = options.sliceChars ?? SLICED_CHARS;
    this.sliceMs = options.sliceMs ?? SLICE_MS;
  }

  /** Follows the open documents. Listen before every feature, so they see the versions this decides. */
  listen(documents: TextDocuments<TextDocument>): void {
    documents.onDidOpen((e) => {
      const uri = canonicalUri(e.document.uri);
      const text = this.options.textOf(e.document);
      const state: OpenState = { doc: e.document, last: { version: e.document.version, text } };
      this.open.set(uri, state);
      const sliced = this.large(text);
      if (sliced) {
        state.shown = NOTHING_YET;
        this.queue(uri);
      }
      this.opened.fire({ uri: e.document.uri, canonical: uri, sliced });
    });
    documents.onDidChangeContent((e) => {
      const uri = canonicalUri(e.document.uri);
      const state = this.open.get(uri);
      const text = this.options.textOf(e.document);
      // didOpen comes with a change event of its own, for the same version and text.
      if (!state || (state.last.version === e.document.version && state.last.text === text)) return;
      const previous = state.last;
      state.doc = e.document;
      state.last = { version: e.document.version, text };
      const sliced = this.large(text);
      if (sliced) {
        // Until this version is analysed, the programs keep the one they had.
        state.shown ??= previous;
        this.queue(uri);
      } else state.shown = undefined;
      this.changed.fire({ uri: e.document.uri, canonical: uri, sliced });
    });
    documents.onDidClose((e) => {
      this.open.delete(canonicalUri(e.document.uri));
    });
  }

  private large(text: string): boolean {
    return text.length >= this.sliceChars;
  }

  /** The programs' view of an open document (their `open` callback); undefined when it is not open. */
  shown(uri: string): ShownDocument | undefined {
    const state = this.open.get(uri);
    if (!state) return undefined;
    if (this.target?.uri === uri) return { version: this.target.version, text: this.target.text, uri: state.doc.uri };
    const v = state.shown ?? state.last;
    return { version: v.version, text: v.text, uri: state.doc.uri };
  }

  /** Whether the programs see the document's current version (false while a newer one is analysed in slices). */
  isCurrent(uri: string): boolean {
    const state = this.open.get(uri);
    return !state || !state.shown;
  }

  /** Open documents whose current version is still being analysed. */
  pending(): number {
    return [...this.open.values()].filter((s) => s.shown).length;
  }

  private queue(uri: string): void {
    if (!this.documentJobs.includes(uri)) this.documentJobs.push(uri);
    this.documentLane ??= this.runDocuments().finally(() => (this.documentLane = undefined));
  }

  /** One large document at a time, in the order they changed; a job for a superseded version stops before its next slice. */
  private async runDocuments(): Promise<void> {
    for (let uri = this.documentJobs.shift(); uri !== undefined; uri = this.documentJobs.shift()) {
      const state = this.open.get(uri);
      if (!state || !state.shown) continue;
      const target = { uri, version: state.last.version, text: state.last.text };
      const first = state.shown === NOTHING_YET;
      const program = this.options.programOf(uri);
      const work = () => {
        this.target = target;
        try {
          program.module(uri);
          // The module is analysed: from now on the programs see this version.
          if (state.last.version === target.version) state.shown = undefined;
          betweenSteps();
          program.symbols(uri);
          betweenSteps();
          program.analysis(uri);
        } finally {
          this.target = undefined;
        }
      };
      const cancelled = () => (this.open.get(uri) !== state ? 'the document was closed' : state.last.version !== target.version ? 'a newer version' : undefined);
      try {
        await runInSlices(uri, work, { sliceMs: this.sliceMs, cancelled, onSlice: this.traceSlice(uri) });
        if (!cancelled()) this.analysed.fire({ uri: state.doc.uri, canonical: uri, sliced: true, first });
      } catch (e) {
        if (e instanceof Cancelled) continue;
        this.options.log(`analysis of ${uri} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      }
    }
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
