// Findings → LSP diagnostics: debounced while typing, immediate on open and save.
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { PRODUCT } from '../../../shared/protocol';
import type { Finding, Severity } from '../rules/types';
import { loadTokenizer } from '../docs/tokens';
import { analysisOf, type ServerContext } from './context';

const DEBOUNCE_MS = 150;

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function toDiagnostic(f: Finding): Diagnostic {
  return { range: f.range, severity: SEVERITY[f.severity], code: f.rule, source: PRODUCT, message: f.message, data: f.fix ? { fix: f.fix } : undefined };
}

export function registerDiagnostics(ctx: ServerContext) {
  const timers = new Map<string, NodeJS.Timeout>();

  const publish = (doc: TextDocument) => {
    timers.delete(doc.uri);
    const analysis = analysisOf(ctx, doc);
    // Once a file has been analysed, the token table for the docs previews loads in the background.
    if (analysis?.model.generation) setTimeout(() => void loadTokenizer(), 0);
    ctx.connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: analysis ? analysis.findings.map(toDiagnostic) : [] }).catch((e: unknown) => {
      ctx.log(`could not publish diagnostics for ${doc.uri}: ${e instanceof Error ? e.message : String(e)}`);
    });
  };

  const schedule = (doc: TextDocument) => {
    clearTimeout(timers.get(doc.uri));
    timers.set(doc.uri, setTimeout(() => publish(doc), DEBOUNCE_MS));
  };

  ctx.documents.onDidOpen((e) => publish(e.document));
  ctx.documents.onDidSave((e) => {
    clearTimeout(timers.get(e.document.uri));
    publish(e.document);
  });
  ctx.documents.onDidChangeContent((e) => {
    // onDidOpen also fires a content change: publish the first version at once, later ones debounced.
    if (ctx.analyzer.get(e.document.uri)) schedule(e.document);
  });
  ctx.documents.onDidClose((e) => {
    clearTimeout(timers.get(e.document.uri));
    timers.delete(e.document.uri);
    ctx.analyzer.forget(e.document.uri);
    ctx.connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] }).catch(() => undefined);
  });

  return {
    refreshAll() {
      for (const doc of ctx.documents.all()) {
        try {
          publish(doc);
        } catch (e) {
          ctx.log(`could not refresh diagnostics for ${doc.uri}: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    },
  };
}
