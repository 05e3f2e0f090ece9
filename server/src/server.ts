// Language server wiring only: connection, documents, settings, and the feature providers.
import {
  createConnection,
  DidChangeConfigurationNotification,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { Analyzer } from './analysis';
import { registerCodeActions } from './features/codeActions';
import { formatOf, registerContractHover } from './features/contractHover';
import { registerDiagnostics } from './features/diagnostics';
import { registerHover } from './features/hover';
import { registerLineChanges } from './changes/handler';
import { registerPreviews } from './features/previews';
import { registerRouting } from './features/routing';
import { contractToolDocSource } from './docs/toolDocs';
import { registerStatus } from './features/status';
import type { ServerContext, Settings } from './features/context';
import { FileAccess, defaultSettings } from './features/context';
import { initParser, onParserReady } from './parse/parser';
import { COMMITTED_TEXT_CAPABILITY, PRODUCT } from '../../shared/protocol';
import { registerContractDiff } from './features/contractDiff';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const access = new FileAccess();
const ctx: ServerContext = {
  connection,
  documents,
  analyzer: new Analyzer(),
  settings: defaultSettings(),
  log: (message) => connection.console.log(`[${PRODUCT}] ${message}`),
  readable: (file) => access.readable(file),
};
documents.onDidOpen((e) => access.opened(e.document.uri));
let canPullConfiguration = false;
let clientProvidesCommits = false;

connection.onInitialize(async (params): Promise<InitializeResult> => {
  await initParser();
  canPullConfiguration = !!params.capabilities.workspace?.configuration;
  clientProvidesCommits = (params.capabilities.experimental as Record<string, unknown> | undefined)?.[COMMITTED_TEXT_CAPABILITY] === true;
  access.setFolders(params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []));
  const options = params.initializationOptions as Partial<Settings> | undefined;
  if (options) applySettings(options);
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      codeActionProvider: { codeActionKinds: ['quickfix'] },
      hoverProvider: true,
      codeLensProvider: { resolveProvider: false },
    },
    serverInfo: { name: PRODUCT },
  };
});

connection.onInitialized(async () => {
  if (canPullConfiguration) {
    await connection.client.register(DidChangeConfigurationNotification.type, undefined);
    await pullSettings();
  }
});

connection.onDidChangeConfiguration(async (change) => {
  if (canPullConfiguration) await pullSettings();
  else if (change.settings?.visAuthoring) applySettings(change.settings.visAuthoring);
});

async function pullSettings(): Promise<void> {
  const s = (await connection.workspace.getConfiguration('visAuthoring')) as Partial<Settings> | null;
  if (s) applySettings(s);
}

function applySettings(s: Partial<Settings>): void {
  ctx.settings = { ...defaultSettings(), ...s };
  ctx.analyzer.overrides = ctx.settings.severity ?? {};
  ctx.analyzer.maxFileSize = ctx.settings.maxFileSize;
  ctx.analyzer.contractFormat = formatOf(ctx);
  ctx.analyzer.invalidate();
  diagnostics.refreshAll();
}

const diagnostics = registerDiagnostics(ctx);
registerCodeActions(ctx);
registerHover(ctx);
const contracts = registerContractHover(ctx);
registerStatus(ctx, (analysis) => contracts.infos(analysis, formatOf(ctx)));
registerRouting(ctx);
registerLineChanges(connection);
const comparer = registerContractDiff(ctx, contracts, () => clientProvidesCommits);
// The previews' doc(name) pages come from the contracts the hovers show (sibling modules resolved).
registerPreviews(ctx, contractToolDocSource(() => formatOf(ctx), (analysis) => contracts.infos(analysis, formatOf(ctx))), comparer);

// After two parser faults in a row no parser is ready for a moment; when a fresh one is, every open
// document is analysed again.
onParserReady(() => {
  ctx.log('the Python parser was restarted after a fault');
  ctx.analyzer.invalidate();
  diagnostics.refreshAll();
});

// Nothing a client sends may end the server: a failure is logged, and the server keeps serving.
process.on('unhandledRejection', (reason) => ctx.log(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`));
process.on('uncaughtException', (e) => ctx.log(`uncaught exception: ${e.stack ?? e.message}`));

documents.listen(connection);
connection.listen();
