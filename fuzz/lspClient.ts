// A JSON-RPC client of our own for the LSP fuzz target: it starts the bundled server
// (`node dist/server.js --stdio`), frames messages itself (so it can also write frames no real
// client writes), times every request, answers the server's own requests as an editor does, and
// notices when the server exits.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

export interface Answer {
  ms: number;
  result?: unknown;
  error?: { code: number; message: string };
  /** No answer within the timeout (the request is forgotten). */
  timedOut?: boolean;
}

export interface ServerOptions {
  serverPath: string;
  rootUri: string;
  settings: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  /** Node options for the server process (`--cpu-prof`, ...). */
  execArgv?: string[];
}

export class LspProcess {
  readonly child: ChildProcess;
  /** The server's log messages (window/logMessage, stderr) since the last `takeLogs`. */
  private logs: string[] = [];
  /** The last diagnostics published per URI. */
  readonly diagnostics = new Map<string, { version?: number; diagnostics: unknown[] }>();
  publishes = 0;
  /** workspace/configuration requests answered so far. */
  configurations = 0;
  capabilities: Record<string, unknown> = {};
  exited?: string;
  private nextId = 1;
  private pending = new Map<number | string, { start: number; resolve: (a: Answer) => void; timer: NodeJS.Timeout }>();
  private buffer = Buffer.alloc(0);

  /** What the client answers workspace/configuration with (change it, then send didChangeConfiguration). */
  settings: Record<string, unknown>;

  constructor(private options: ServerOptions) {
    this.settings = options.settings;
    this.child = spawn(process.execPath, [...(options.execArgv ?? []), options.serverPath, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
    this.child.stdout!.on('data', (d: Buffer) => this.onData(d));
    this.child.stderr!.on('data', (d: Buffer) => this.logs.push(`stderr: ${d.toString('utf8')}`));
    this.child.stdin!.on('error', () => undefined);
    this.child.on('exit', (code, signal) => {
      this.exited = `the server exited (${signal ?? `code ${code}`})`;
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer);
        p.resolve({ ms: performance.now() - p.start, timedOut: true });
        this.pending.delete(id);
      }
    });
  }

  async initialize(): Promise<Answer> {
    const a = await this.request('initialize', {
      processId: process.pid,
      rootUri: this.options.rootUri,
      workspaceFolders: [{ uri: this.options.rootUri, name: 'fuzz' }],
      capabilities: {
        workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true }, workspaceFolders: true },
        window: { workDoneProgress: true },
        experimental: { visAuthoringCommittedText: true },
      },
      initializationOptions: this.settings,
    }, 30_000);
    this.capabilities = ((a.result as { capabilities?: Record<string, unknown> } | undefined)?.capabilities) ?? {};
    this.notify('initialized', {});
    return a;
  }

  /** Sends didChangeConfiguration and waits until the server has asked for the settings again (at most 5 s). */
  async reconfigure(settings: Record<string, unknown>): Promise<void> {
    this.settings = settings;
    const before = this.configurations;
    this.notify('workspace/didChangeConfiguration', { settings: null });
    const deadline = performance.now() + 5000;
    while (this.configurations === before && !this.exited && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  }

  /** Logs since the last call. */
  takeLogs(): string[] {
    return this.logs.splice(0);
  }

  /** Resident set size of the server process, in MB (Linux /proc), or 0 when unknown. */
  rssMb(): number {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${this.child.pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : 0;
    } catch {
      return 0;
    }
  }

  request(method: string, params: unknown, timeoutMs = 10_000): Promise<Answer> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const start = performance.now();
      if (this.exited) return resolve({ ms: 0, timedOut: true });
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ ms: performance.now() - start, timedOut: true });
      }, timeoutMs);
      this.pending.set(id, { start, resolve, timer });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  send(message: unknown): void {
    this.writeBody(Buffer.from(JSON.stringify(message), 'utf8'));
  }

  /** A well-framed body (whatever it holds). */
  writeBody(body: Buffer): void {
    this.writeRaw(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  }

  writeRaw(bytes: Buffer): void {
    if (process.env.FUZZ_TRACE) console.error(`  [lsp] > ${JSON.stringify(bytes.subarray(0, 200).toString("latin1"))}`);
    if (!this.exited && this.child.stdin!.writable) this.child.stdin!.write(bytes);
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    await this.request('shutdown', null, 5000);
    this.notify('exit', null);
    await new Promise((r) => {
      const t = setTimeout(() => (this.child.kill('SIGKILL'), r(null)), 3000);
      this.child.once('exit', () => (clearTimeout(t), r(null)));
    });
  }

  private onData(d: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, d]);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      const m = /Content-Length: (\d+)/i.exec(this.buffer.subarray(0, end).toString('ascii'));
      if (!m) throw new Error(`the server sent a frame without Content-Length: ${this.buffer.subarray(0, end).toString('ascii')}`);
      const length = Number(m[1]);
      if (this.buffer.length < end + 4 + length) return;
      const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      this.buffer = this.buffer.subarray(end + 4 + length);
      this.onMessage(JSON.parse(body) as { id?: number | string; method?: string; params?: any; result?: unknown; error?: Answer['error'] });
    }
  }

  private onMessage(m: { id?: number | string; method?: string; params?: any; result?: unknown; error?: Answer['error'] }): void {
    if (m.method && m.id !== undefined) {
      // The server asks the editor something: answer as VS Code would.
      let result: unknown = null;
      if (m.method === 'workspace/configuration') this.configurations++;
      if (m.method === 'workspace/configuration') result = (m.params?.items ?? []).map((i: { section?: string }) => (i.section === 'visAuthoring' ? this.settings : {}));
      else if (m.method === 'visAuthoring/committedText') result = { unavailable: 'the fuzz client has no repository' };
      this.send({ jsonrpc: '2.0', id: m.id, result });
      return;
    }
    if (m.method) {
      if (m.method === 'textDocument/publishDiagnostics') {
        this.publishes++;
        this.diagnostics.set(m.params.uri, { version: m.params.version, diagnostics: m.params.diagnostics });
      } else if (m.method === 'window/logMessage' || m.method === 'window/showMessage') this.logs.push(String(m.params?.message));
      return;
    }
    const p = m.id !== undefined ? this.pending.get(m.id) : undefined;
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(m.id!);
    p.resolve({ ms: performance.now() - p.start, result: m.result, error: m.error });
  }
}
