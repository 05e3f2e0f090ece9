// Language server wiring only: connection, documents, settings, and the feature providers.
import {
  createConnection,
  DidChangeConfigurationNotification,
  LSPErrorCodes,
  ProposedFeatures,
  ResponseError,
  type Message,
  type RequestMessage,
  TextDocuments,
  TextDocumentSyncKind,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { CODE_ACTION_KINDS, registerCodeActions } from './features/codeActions';
import { formatOf, formatSetting, registerContractHover } from './features/contractHover';
import { registerDiagnostics, watchFiles } from './features/diagnostics';
import { registerHover } from './features/hover';
import { registerLineChanges } from './changes/handler';
import { registerInlayHints } from './features/inlayHints';
import { registerNavigation } from './features/navigation';
import { registerSymbols } from './features/symbols';
import { TRIGGER_CHARACTERS, registerCompletion } from './features/completion';
import { SIGNATURE_TRIGGERS, registerSignatureHelp } from './features/signatureHelp';
import { registerSdkHover } from './features/sdkHover';
import { registerPreviews } from './features/previews';
import { registerRouting } from './features/routing';
import { contractToolDocSource } from './docs/toolDocs';
import { registerStatus } from './features/status';
import { Scheduler } from './features/scheduler';
import type { ServerContext, Settings } from './features/context';
import { FileAccess, defaultSettings, selectorsOf, settingsFrom, textOf } from './features/context';
import { makeSpareNow, onParserReady, parserStarted } from './parse/parser';
import { COMMITTED_TEXT_CAPABILITY, PRODUCT } from '../../shared/protocol';
import { registerContractDiff } from './features/contractDiff';
import { filePathOf } from './rules/util';
import { globalExtensionsDir } from './workspace/discovery';
import { Workspace } from './workspace/workspace';
import { FrameChecker } from './framing';
import { checkedDocumentSync } from './features/documentSync';
import { format } from 'node:util';

// A request cancelled ($/cancelRequest) before it is handled is answered at once with RequestCancelled.
const strategy = {
  cancelUndispatched: (message: Message) => ({ jsonrpc: '2.0', id: (message as RequestMessage).id, error: new ResponseError(LSPErrorCodes.RequestCancelled, 'the request was cancelled').toJson() }),
};
// Over stdio, frames are checked before vscode-jsonrpc reads them (a bad header is dropped, not a
// stall), and console output goes to the client's log, never into the protocol stream.
const stdio = process.argv.includes('--stdio');
const connection = stdio
  ? createConnection(ProposedFeatures.all, process.stdin.pipe(new FrameChecker((m) => connection.console.warn(`[${PRODUCT}] ${m}`))), process.stdout, strategy)
  : createConnection(ProposedFeatures.all, strategy);
if (stdio) {
  for (const level of ['log', 'info', 'debug', 'warn', 'error'] as const) {
    console[level] = (...args: unknown[]) => connection.console[level === 'debug' ? 'log' : level](format(...args));
  }
}
const documents = new TextDocuments(TextDocument);
// Which version of each open document the programs see (every version is analysed in slices); it follows
// the documents before any feature does.
const traced = (what: string) => new RegExp(`\\b${what}\\b`).test(process.env.VIS_AUTHORING_TRACE ?? '');
const scheduler = new Scheduler({
  programOf: (uri) => ctx.workspace.programFor(uri),
  textOf,
  log: (m) => ctx.log(m),
  // VIS_AUTHORING_TRACE=slices logs the time of every analysis slice.
  trace: traced('slices') ? (m) => ctx.log(`trace: ${m}`) : undefined,
});
scheduler.listen(documents);
// The parser's first spare runtime is made once the first document is analysed (see SPARE_AFTER_MS).
const firstAnalysed = scheduler.onAnalysed(() => {
  firstAnalysed.dispose();
  // After its diagnostics are written (the connection writes them in promise jobs after this listener's).
  setImmediate(makeSpareNow);
});
const globalDir = globalExtensionsDir();
const ctx: ServerContext = {
  connection,
  documents,
  scheduler,
  workspace: new Workspace({
    open: (uri) => scheduler.shown(uri),
    globalDir,
    // VIS_AUTHORING_TRACE=analysis logs each module version analysed and each Symbol analysis (tests, diagnosis).
    trace: traced('analysis') ? (m) => connection.console.log(`[${PRODUCT}] trace: ${m}`) : undefined,
  }),
  settings: defaultSettings(),
  log: (message) => connection.console.log(`[${PRODUCT}] ${message}`),
  readable: (file) => access.readable(file),
};
const access = new FileAccess(() => ctx.workspace.all().flatMap((p) => (p.root ? [p.root] : [])));
documents.onDidOpen((e) => access.opened(e.document.uri));
let canPullConfiguration = false;
let clientProvidesCommits = false;
let canWatchFiles = false;
let canFollowFolders = false;
/** How long after the parser's first runtime its first spare is made at the latest, when no document was analysed before (server/src/parse/parser.ts: parserStarted). */
const SPARE_AFTER_MS = 2000;
let canRefreshInlayHints = false;

// The parser's WebAssembly compiles while the client sends `initialize`, which waits only for the first
// runtime (its spares follow once the first document is analysed, so that they do not hold up its diagnostics).
void parserStarted(SPARE_AFTER_MS).catch(() => undefined);

connection.onInitialize(async (params): Promise<InitializeResult> => {
  await parserStarted();
  ctx.clientCapabilities = params.capabilities;
  canPullConfiguration = !!params.capabilities.workspace?.configuration;
  clientProvidesCommits = (params.capabilities.experimental as Record<string, unknown> | undefined)?.[COMMITTED_TEXT_CAPABILITY] === true;
  canWatchFiles = !!params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration;
  canFollowFolders = !!params.capabilities.workspace?.workspaceFolders;
  canRefreshInlayHints = !!params.capabilities.workspace?.inlayHint?.refreshSupport;
  ctx.workspace.setFolders((params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : [])).flatMap((u) => filePathOf(u) ?? []));
  const options = params.initializationOptions as Partial<Settings> | undefined;
  if (options) applySettings(options, false);
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      codeActionProvider: { codeActionKinds: CODE_ACTION_KINDS, resolveProvider: true },
      hoverProvider: true,
      definitionProvider: true,
      typeDefinitionProvider: true,
      referencesProvider: true,
      inlayHintProvider: true,
      // The label names our group in the Outline next to a Python language server's.
      documentSymbolProvider: { label: 'Vis' },
      workspaceSymbolProvider: true,
      completionProvider: { triggerCharacters: TRIGGER_CHARACTERS, resolveProvider: true },
      signatureHelpProvider: { triggerCharacters: SIGNATURE_TRIGGERS, retriggerCharacters: ['='] },
      codeLensProvider: { resolveProvider: false },
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
    serverInfo: { name: PRODUCT },
  };
});

connection.onInitialized(async () => {
  if (canPullConfiguration) {
    await connection.client.register(DidChangeConfigurationNotification.type, undefined);
    await pullSettings(false);
  }
  if (canWatchFiles) {
    await watchFiles(connection, globalDir).then(
      () => ctx.workspace.watch(globalDir),
      (e) => ctx.log(`file watchers not registered: ${e instanceof Error ? e.message : String(e)}`),
    );
  }
  if (canFollowFolders) {
    connection.workspace.onDidChangeWorkspaceFolders((e) => {
      const current = ctx.workspace.all().flatMap((p) => (p.root ? [p.root] : []));
      const removed = new Set(e.removed.flatMap((f) => filePathOf(f.uri) ?? []));
      ctx.workspace.setFolders([...current.filter((r) => !removed.has(r)), ...e.added.flatMap((f) => filePathOf(f.uri) ?? [])]);
      void diagnostics.index();
    });
  }
  void diagnostics.index();
});

connection.onDidChangeConfiguration(async (change) => {
  if (canPullConfiguration) await pullSettings(true);
  else if (change.settings?.visAuthoring) applySettings(change.settings.visAuthoring, true);
});

connection.onDidChangeWatchedFiles((params) => diagnostics.filesChanged(params.changes));

async function pullSettings(refresh: boolean): Promise<void> {
  const [s, python] = (await connection.workspace.getConfiguration([{ section: 'visAuthoring' }, { section: 'python' }])) as [Partial<Settings> | null, { defaultInterpreterPath?: unknown } | null];
  const interpreter = typeof python?.defaultInterpreterPath === 'string' && python.defaultInterpreterPath && python.defaultInterpreterPath !== 'python' ? python.defaultInterpreterPath : undefined;
  if (s) applySettings(s, refresh, interpreter);
}

function applySettings(s: unknown, refresh: boolean, interpreter?: string): void {
  const { settings, problems } = settingsFrom(s);
  for (const p of problems) ctx.log(p);
  ctx.settings = settings;
  const selection = { select: selectorsOf(ctx.settings.select), ignore: selectorsOf(ctx.settings.ignore) };
  ctx.workspace.configure({ overrides: ctx.settings.severity ?? {}, selection, contractFormat: formatSetting(ctx), maxFileSize: ctx.settings.maxFileSize, interpreter });
  if (refresh) {
    void diagnostics.refreshAll();
    if (canRefreshInlayHints) void connection.languages.inlayHint.refresh().catch(() => undefined);
  }
}

const diagnostics = registerDiagnostics(ctx);
registerCodeActions(ctx);
registerHover(ctx);
const contracts = registerContractHover(ctx);
registerStatus(ctx, (analysis) => contracts.infos(analysis, formatOf(ctx, analysis.model)));
registerRouting(ctx);
// After the contract and routing cards: the SDK's own names.
registerSdkHover(ctx);
registerNavigation(ctx);
registerInlayHints(ctx);
registerSymbols(ctx);
registerCompletion(ctx);
registerSignatureHelp(ctx);
registerLineChanges(connection);
const comparer = registerContractDiff(ctx, contracts, () => clientProvidesCommits);
// The previews' doc(name) pages come from the contracts the hovers show (sibling modules resolved).
registerPreviews(ctx, contractToolDocSource((model) => formatOf(ctx, model), (analysis) => contracts.infos(analysis, formatOf(ctx, analysis.model))), comparer, (analysis) => contracts.steps(analysis, formatOf(ctx, analysis.model)));

// After two parser faults in a row no parser is ready for a moment; when a fresh one is, every open
// document is analysed again.
onParserReady(() => {
  ctx.log('the Python parser was restarted after a fault');
  void diagnostics.refreshAll();
});

// Nothing a client sends may end the server: a failure is logged, and the server keeps serving.
process.on('unhandledRejection', (reason) => ctx.log(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`));
process.on('uncaughtException', (e) => ctx.log(`uncaught exception: ${e.stack ?? e.message}`));

// Document notifications of the wrong shape are logged and ignored, never kept.
documents.listen(checkedDocumentSync(connection, (m) => ctx.log(m)));
connection.listen();
