// Findings → LSP diagnostics. A change (an edit, debounced while typing; a save; a file changed on
// disk) re-publishes every module whose results depend on it: the module, the modules that read it, and
// the modules their findings are on. With `visAuthoring.diagnostics.scope` = `workspace` (the default)
// every entry file of the folder and the modules it reaches are checked in the background, with
// work-done progress while indexing; with `openFiles`, open documents (and what their findings are on).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DiagnosticSeverity, DiagnosticTag, DidChangeWatchedFilesNotification, FileChangeType, type Connection, type Diagnostic, type FileEvent, type FileSystemWatcher } from 'vscode-languageserver/node';
import { PRODUCT } from '../../../shared/protocol';
import type { Finding, Severity } from '../rules/types';
import { filePathOf } from '../rules/util';
import type { Program } from '../workspace/program';
import { loadTokenizerSoon } from '../docs/tokens';
import { stepsInSlices } from '../slices';
import { rulePageUri } from '../docs/rulePages';
import { UNUSED } from '../rules/suppression';
import { analysisOfUri, programOf, editorFindings, workspaceScope, type ServerContext } from './context';

const DEBOUNCE_MS = 150;
/** Modules checked between two yields to the event loop while indexing, so requests are still answered. */
const INDEX_CHUNK = 25;

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** A finding as an LSP diagnostic: the rule id as its code, linked to the rule's page (`docs/rules/<ID>.md`). */
export function toDiagnostic(f: Finding, uriOf: (uri: string) => string = (u) => u): Diagnostic {
  const d: Diagnostic = { range: f.range, severity: SEVERITY[f.severity], code: f.rule, source: PRODUCT, message: f.message };
  const href = rulePageUri(f.rule);
  if (href) d.codeDescription = { href };
  // An unused suppression is greyed out, as unused code is.
  if (f.rule === UNUSED) d.tags = [DiagnosticTag.Unnecessary];
  if (f.related?.length) d.relatedInformation = f.related.map((r) => ({ location: { uri: uriOf(r.uri), range: r.range }, message: r.message }));
  return d;
}

export function registerDiagnostics(ctx: ServerContext) {
  let timer: NodeJS.Timeout | undefined;
  const pending = new Set<string>();
  /** Canonical URIs of modules with diagnostics published, so they can be cleared. */
  const published = new Set<string>();
  /** Canonical URIs the background index checks, per program. */
  const checked = new Map<Program, Set<string>>();
  let indexing: Promise<void> | undefined;
  let reindex = false;

  const isOpen = (uri: string) => programOf(ctx, uri).program.isOpen(programOf(ctx, uri).uri);

  /** Whether a module's diagnostics are shown: open, checked by the index, or reported on by an open document. */
  const shown = (program: Program, uri: string) => isOpen(uri) || (workspaceScope(ctx.settings) && !!checked.get(program)?.has(uri));

  const publishOne = (canonical: string, force = false) => {
    const { program } = programOf(ctx, canonical);
    const clientUri = program.clientUri(canonical);
    const doc = ctx.documents.get(clientUri);
    // A version still analysed in slices is published when its analysis is done, never an older one.
    if (doc && ctx.scheduler.pendingAnswer(canonical)) return;
    if (!force && !shown(program, canonical)) {
      if (published.delete(canonical)) send({ uri: clientUri, diagnostics: [] });
      return;
    }
    const analysis = analysisOfUri(ctx, canonical);
    // Once a Vis file has been analysed, the token table for the docs previews loads in the background.
    if (analysis?.model.generation) loadTokenizerSoon();
    const diagnostics = analysis ? editorFindings(ctx.settings, analysis.findings).map((f) => toDiagnostic(f, (u) => program.clientUri(u))) : [];
    if (diagnostics.length) published.add(canonical);
    else if (!published.delete(canonical) && !doc) return;
    send({ uri: clientUri, version: doc?.version, diagnostics });
  };

  /** What was last sent for each URI, so that a version is published once unless its diagnostics change. */
  const sent = new Map<string, { version?: number; key: string }>();

  /** Sends diagnostics unless the same were sent for the same version; a failure to send is logged, never an unhandled rejection. */
  const send = (params: { uri: string; version?: number; diagnostics: Diagnostic[] }) => {
    const key = JSON.stringify(params.diagnostics);
    const last = sent.get(params.uri);
    if (last && last.version === params.version && last.key === key) return;
    sent.set(params.uri, { version: params.version, key });
    ctx.connection.sendDiagnostics(params).catch((e: unknown) => ctx.log(`could not publish diagnostics for ${params.uri}: ${e instanceof Error ? e.message : String(e)}`));
  };

  /** Publishes the modules whose results depend on these (reported-on modules of open documents included). */
  const publishAffected = (uris: Iterable<string>) => {
    for (const _ of publishing(uris));
  };

  /** publishAffected, a module a step (see refreshAll). */
  function* publishing(uris: Iterable<string>): Generator<void> {
    const byProgram = new Map<Program, string[]>();
    for (const u of uris) {
      const { program, uri } = programOf(ctx, u);
      byProgram.set(program, [...(byProgram.get(program) ?? []), uri]);
    }
    for (const [program, list] of byProgram) {
      let affected: Set<string>;
      try {
        affected = program.affected(list);
      } catch (e) {
        ctx.log(`dependencies of ${list.join(', ')} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        affected = new Set(list);
      }
      // Findings that open documents put on other modules are shown even when those are not checked.
      // One module that fails never keeps the others from being published.
      for (const uri of affected) {
        guard(uri, () => publishOne(uri, list.includes(uri) && isOpen(uri)));
        yield;
      }
      for (const uri of affected) {
        if (!isOpen(uri)) continue;
        guard(uri, () => {
          for (const f of program.findings(uri)) if (f.uri && !shown(program, f.uri)) publishOne(f.uri, true);
        });
        yield;
      }
    }
  }
  /** Counts the refreshes started: a newer one stops the one in progress. */
  let refreshes = 0;

  /** Publishes modules whose files changed on disk once they are analysed, in slices (a large file never holds up requests). */
  const publishFromDisk = (uris: string[]) => {
    const analyse = () => {
      for (const u of uris) {
        const { program, uri } = programOf(ctx, u);
        program.module(uri);
      }
    };
    void ctx.scheduler
      .background(analyse)
      .catch((e) => ctx.log(`analysis of ${uris.join(', ')} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`))
      .then(() => {
        publishAffected(uris);
        publishConfig();
      });
  };

  const guard = (uri: string, work: () => void) => {
    try {
      work();
    } catch (e) {
      ctx.log(`could not publish diagnostics for ${uri}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
  };

  /** pyproject.toml files with CFG-001 findings when last looked, and what those were. */
  const configPublished = new Map<string, string>();
  /**
   * Publishes the pyproject.toml files whose `[tool.vis-authoring]` findings (CFG-001, part of their
   * analysis) changed since they were last published, those that had some before included.
   */
  const publishConfig = () => {
    const now = new Map<string, string>();
    for (const program of ctx.workspace.all()) {
      try {
        if (ctx.settings.enable) for (const c of program.configFindings()) if (c.findings.length) now.set(c.uri, JSON.stringify(c.findings));
      } catch (e) {
        ctx.log(`reading [tool.vis-authoring] failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    for (const uri of new Set([...now.keys(), ...configPublished.keys()])) {
      if (now.get(uri) !== configPublished.get(uri)) guard(uri, () => publishOne(uri, true));
    }
    configPublished.clear();
    for (const [uri, key] of now) configPublished.set(uri, key);
  };

  const schedule = (uri: string) => {
    pending.add(uri);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const uris = [...pending];
      pending.clear();
      publishAffected(uris);
    }, DEBOUNCE_MS);
  };

  /** Checks every entry of every folder and the modules they reach, publishing as it goes. */
  const index = async (): Promise<void> => {
    if (!workspaceScope(ctx.settings) || !ctx.settings.enable) {
      checked.clear();
      return;
    }
    const progress = await ctx.connection.window.createWorkDoneProgress().catch(() => undefined);
    progress?.begin('Vis: checking extensions', 0, 'finding entry files', false);
    try {
      for (const program of ctx.workspace.all()) {
        if (!program.root) continue;
        let uris: string[];
        try {
          // Every module it reads is analysed in slices, so requests are answered meanwhile.
          uris = await ctx.scheduler.background(() => program.index());
        } catch (e) {
          ctx.log(`indexing ${program.root} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
          continue;
        }
        const before = checked.get(program) ?? new Set<string>();
        checked.set(program, new Set(uris));
        for (let i = 0; i < uris.length; i++) {
          guard(uris[i], () => publishOne(uris[i]));
          if (i % INDEX_CHUNK === INDEX_CHUNK - 1) {
            progress?.report(Math.round((100 * (i + 1)) / uris.length), `${i + 1} of ${uris.length} modules in ${path.basename(program.root)}`);
            await new Promise((r) => setImmediate(r));
          }
        }
        // Modules no longer checked (an entry removed, an import dropped) lose their diagnostics.
        for (const uri of before) if (!checked.get(program)!.has(uri)) publishOne(uri);
        ctx.log(`checked ${uris.length} module${uris.length === 1 ? '' : 's'} in ${program.root} (${program.entries().length} entr${program.entries().length === 1 ? 'y' : 'ies'})`);
      }
    } finally {
      progress?.done();
      publishConfig();
    }
  };

  const runIndex = () => {
    if (indexing) {
      reindex = true;
      return indexing;
    }
    indexing = index()
      .catch((e) => ctx.log(`indexing failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`))
      .finally(() => {
        indexing = undefined;
        if (reindex) {
          reindex = false;
          void runIndex();
        }
      });
    return indexing;
  };

  // A version is published when its analysis is done: the first at once, later ones debounced while typing.
  ctx.scheduler.onAnalysed((e) => {
    if (!e.first) return schedule(e.uri);
    publishAffected([e.uri]);
    publishConfig();
  });
  ctx.documents.onDidSave((e) => {
    pending.delete(programOf(ctx, e.document.uri).uri);
    publishAffected([e.document.uri]);
  });
  ctx.documents.onDidClose((e) => {
    const { program, uri } = programOf(ctx, e.document.uri);
    pending.delete(uri);
    program.closed(uri);
    // The file on disk is what counts now: re-check it when the index checks it, else clear it.
    publishFromDisk([uri]);
    if (!checked.get(program)?.has(uri)) {
      published.delete(uri);
      send({ uri: e.document.uri, diagnostics: [] });
      // Nothing is shown for it now: what was sent need not be remembered (thousands of documents come and go).
      sent.delete(e.document.uri);
    }
  });

  return {
    /**
     * Settings changed: re-check everything shown, in slices (each open document's rules run again:
     * with hundreds open that takes a while, and requests are answered meanwhile). A newer refresh
     * stops an older one.
     */
    async refreshAll(): Promise<void> {
      const run = ++refreshes;
      const uris = new Set<string>([...published, ...ctx.documents.all().map((d) => programOf(ctx, d.uri).uri)]);
      try {
        await stepsInSlices(publishing(uris), undefined, () => run !== refreshes);
      } catch (e) {
        ctx.log(`could not publish diagnostics: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      }
      if (run !== refreshes) return;
      publishConfig();
      void runIndex();
    },
    /** Re-checks the folders in the background. */
    index: runIndex,
    /** `workspace/didChangeWatchedFiles`: files changed on disk. */
    filesChanged(changes: FileEvent[]) {
      const uris: string[] = [];
      let structural = false;
      for (const c of Array.isArray(changes) ? changes : []) {
        if (typeof c?.uri !== 'string') continue;
        const file = filePathOf(c.uri);
        if (!file) continue;
        const kind = c.type === FileChangeType.Created ? 'created' : c.type === FileChangeType.Deleted ? 'deleted' : 'changed';
        ctx.workspace.fileChanged(file, kind);
        if (kind !== 'changed' || !file.endsWith('.py')) structural = true;
        // A pyproject.toml may hold [tool.vis-authoring]: every shown module may be configured by it.
        if (path.basename(file) === 'pyproject.toml') uris.push(...published, ...ctx.documents.all().map((d) => d.uri));
        uris.push(pathToFileURL(file).href);
      }
      publishFromDisk(uris);
      if (structural) void runIndex();
    },
  };
}

/** Asks the client to watch the files the program reads (Python modules, manifests, lock files). */
export async function watchFiles(connection: Connection, globalDir: string | undefined): Promise<void> {
  const watchers: FileSystemWatcher[] = [{ globPattern: '**/*.py' }, { globPattern: '**/pyproject.toml' }, { globPattern: '**/uv.lock' }];
  if (globalDir) watchers.push({ globPattern: { baseUri: pathToFileURL(globalDir).href, pattern: '**/{*.py,pyproject.toml,uv.lock}' } });
  await connection.client.register(DidChangeWatchedFilesNotification.type, { watchers });
}
