// Findings → LSP diagnostics: debounced while typing, immediate on open and save.
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { PRODUCT } from '../../../shared/protocol';
import type { Finding, Severity } from '../rules/types';
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
  const tooLarge = new Set<string>();

  const publish = (doc: TextDocument) => {
    timers.delete(doc.uri);
    if (doc.getText().length > ctx.settings.maxFileSize && !tooLarge.has(doc.uri)) {
      tooLarge.add(doc.uri);
      ctx.log(`${doc.uri} has ${doc.getText().length} characters, more than visAuthoring.maxFileSize (${ctx.settings.maxFileSize}); not analysed`);
    }
    const analysis = analysisOf(ctx, doc);
    void ctx.connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: analysis ? analysis.findings.map(toDiagnostic) : [] });
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
    tooLarge.delete(e.document.uri);
    ctx.analyzer.forget(e.document.uri);
    void ctx.connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  return {
    refreshAll() {
      for (const doc of ctx.documents.all()) publish(doc);
    },
  };
}
