// A minimal LSP client for protocol tests: starts the bundled server (`node dist/server.js --stdio`)
// as a child process and speaks JSON-RPC to it over stdio.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver/node';

export interface TestServer {
  connection: MessageConnection;
  process: ChildProcess;
  /** Resolves with the next diagnostics published for `uri` that satisfy `accept`. */
  diagnostics(uri: string, accept?: (p: PublishDiagnosticsParams) => boolean): Promise<PublishDiagnosticsParams>;
  /**
   * Opens a document; the promise resolves once the server published its first diagnostics (its first
   * version is analysed: until then requests about it answer from an empty document). Await it before
   * asking about the document.
   */
  open(uri: string, text: string, version?: number): Promise<PublishDiagnosticsParams>;
  change(uri: string, text: string, version: number): void;
  /**
   * Sends new `visAuthoring` settings as a client does (workspace/didChangeConfiguration, then the server
   * pulls them) and resolves once the server has been answered.
   */
  configure(settings: unknown): Promise<void>;
  /** What the server answered to initialize. */
  capabilities: Record<string, unknown>;
  /** The server's log messages (window/logMessage) so far. */
  logs: string[];
  /** Every publishDiagnostics the server sent, in order. */
  published: PublishDiagnosticsParams[];
  /** The work-done progress notifications the server sent ($/progress values). */
  progress: { kind: string; title?: string; message?: string }[];
  stop(): Promise<void>;
}

export interface StartOptions {
  /** The workspace folder (rootUri and workspaceFolders). */
  rootUri?: string;
  /** Extra environment for the server process (e.g. VIS_EXTENSIONS_DIR, VIS_AUTHORING_TRACE). */
  env?: NodeJS.ProcessEnv;
  /** Client capabilities beyond workspace/configuration. */
  capabilities?: Record<string, unknown>;
  /** Another language server to start instead (its script and arguments, run with this Node). */
  server?: string[];
}

export async function startServer(initializationOptions: unknown = {}, options: StartOptions = {}): Promise<TestServer> {
  const serverPath = path.join(__dirname, '..', '..', 'dist', 'server.js');
  const child = spawn(process.execPath, options.server ?? [serverPath, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const waiting: { uri: string; accept: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  /** Opened documents waiting for their first publish: these see a publish without taking it from `waiting`. */
  const opening: typeof waiting = [];
  const published: PublishDiagnosticsParams[] = [];
  connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    published.push(p);
    const i = waiting.findIndex((w) => w.uri === p.uri && w.accept(p));
    if (i !== -1) waiting.splice(i, 1)[0].resolve(p);
    for (const w of opening.filter((o) => o.uri === p.uri && o.accept(p))) {
      opening.splice(opening.indexOf(w), 1);
      w.resolve(p);
    }
  });
  const logs: string[] = [];
  const progress: TestServer['progress'] = [];
  connection.onNotification('window/logMessage', (p: { message: string }) => logs.push(p.message));
  connection.onNotification('$/progress', (p: { value: TestServer['progress'][number] }) => progress.push(p.value));
  connection.onRequest('window/workDoneProgress/create', () => null);
  let settings = initializationOptions;
  const pulled: (() => void)[] = [];
  connection.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) => {
    setImmediate(() => pulled.splice(0).forEach((r) => r()));
    return p.items.map((i) => (i.section === 'visAuthoring' ? settings : {}));
  });
  connection.onRequest('client/registerCapability', () => null);
  connection.listen();
  const initialized = (await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: options.rootUri ?? null,
    workspaceFolders: options.rootUri ? [{ uri: options.rootUri, name: 'root' }] : null,
    capabilities: { workspace: { configuration: true }, ...options.capabilities },
    initializationOptions,
  })) as { capabilities: Record<string, unknown> };
  await connection.sendNotification('initialized', {});
  return {
    connection,
    process: child,
    capabilities: initialized.capabilities,
    logs,
    published,
    progress,
    diagnostics(uri, accept = () => true) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} within 10 s`)), 10_000);
        waiting.push({ uri, accept, resolve: (p) => (clearTimeout(timer), resolve(p)) });
      });
    },
    configure(next) {
      settings = next;
      const done = new Promise<void>((resolve) => pulled.push(resolve));
      void connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
      return done;
    },
    open(uri, text, version = 1) {
      const analysed = new Promise<PublishDiagnosticsParams>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} version ${version} within 10 s`)), 10_000);
        // A caller that does not wait for it does not wait for its timer either.
        timer.unref();
        opening.push({ uri, accept: (p) => p.version === version, resolve: (p) => (clearTimeout(timer), resolve(p)) });
      });
      // Nor does it see an unhandled rejection.
      analysed.catch(() => undefined);
      void connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version, text } });
      return analysed;
    },
    change(uri, text, version) {
      void connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
    },
    async stop() {
      await connection.sendRequest('shutdown');
      await connection.sendNotification('exit');
      connection.dispose();
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    },
  };
}
