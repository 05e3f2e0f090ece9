// The document notifications (didOpen, didChange, didClose, didSave) checked before TextDocuments keeps
// them: a document with a URI that is not a string, a version that is not a number or changes of the
// wrong shape is refused with a log line, instead of being kept and breaking every feature that walks
// the open documents later. A text of `null` stays allowed: it is an empty document (textOf).
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';

/** What TextDocuments listens to (vscode-languageserver does not export the type). */
type TextDocumentConnection = Parameters<TextDocuments<TextDocument>['listen']>[0];

type Log = (message: string) => void;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isPosition = (p: unknown) => isObject(p) && Number.isFinite(p.line) && Number.isFinite(p.character);

/** Why the `textDocument` of a notification cannot be kept, or undefined when it can. */
function badDocument(params: unknown, needs: { version?: boolean; text?: boolean }): string | undefined {
  if (!isObject(params) || !isObject(params.textDocument)) return 'no textDocument';
  const td = params.textDocument;
  if (typeof td.uri !== 'string' || td.uri === '') return 'its URI is not a string';
  if (needs.version && !Number.isInteger(td.version)) return 'its version is not an integer';
  if (needs.text && td.text !== null && typeof td.text !== 'string') return 'its text is not a string';
  return undefined;
}

function badChanges(params: Record<string, unknown>): string | undefined {
  const changes = params.contentChanges;
  if (!Array.isArray(changes)) return 'contentChanges is not a list';
  for (const c of changes) {
    if (!isObject(c) || typeof c.text !== 'string') return 'a change has no text';
    if ('range' in c && c.range !== undefined && !(isObject(c.range) && isPosition(c.range.start) && isPosition(c.range.end))) return 'a change has a range that is not one';
  }
  return undefined;
}

/** The connection as TextDocuments listens to it, with each document notification checked first. */
export function checkedDocumentSync(connection: Connection, log: Log): TextDocumentConnection {
  const refuse = (method: string, params: unknown, why: string) => {
    const uri = isObject(params) && isObject(params.textDocument) ? params.textDocument.uri : undefined;
    log(`${method} ignored: ${why}${typeof uri === 'string' ? ` (${uri})` : ''}`);
  };
  return Object.assign(Object.create(connection) as TextDocumentConnection, {
    onDidOpenTextDocument: (handler: Parameters<TextDocumentConnection['onDidOpenTextDocument']>[0]) =>
      connection.onDidOpenTextDocument((p) => {
        const why = badDocument(p, { version: true, text: true });
        return why ? refuse('textDocument/didOpen', p, why) : handler(p);
      }),
    onDidChangeTextDocument: (handler: Parameters<TextDocumentConnection['onDidChangeTextDocument']>[0]) =>
      connection.onDidChangeTextDocument((p) => {
        const why = badDocument(p, { version: true }) ?? badChanges(p as unknown as Record<string, unknown>);
        return why ? refuse('textDocument/didChange', p, why) : handler(p);
      }),
    onDidCloseTextDocument: (handler: Parameters<TextDocumentConnection['onDidCloseTextDocument']>[0]) =>
      connection.onDidCloseTextDocument((p) => {
        const why = badDocument(p, {});
        return why ? refuse('textDocument/didClose', p, why) : handler(p);
      }),
    onDidSaveTextDocument: (handler: Parameters<TextDocumentConnection['onDidSaveTextDocument']>[0]) =>
      connection.onDidSaveTextDocument((p) => {
        const why = badDocument(p, {});
        return why ? refuse('textDocument/didSave', p, why) : handler(p);
      }),
  });
}
