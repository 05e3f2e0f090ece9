// Language server wiring only: connection, documents, settings and the providers.
import { createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { initParser } from './parse/parser';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);

connection.onInitialize(async () => {
  await initParser();
  return { capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental } };
});

documents.listen(connection);
connection.listen();
