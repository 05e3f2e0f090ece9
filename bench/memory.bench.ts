// Memory of the language server (`node dist/server.js --stdio`, driven over stdio as an editor drives it)
// with 500 open files: the generated 500-file workspace of the program benchmark (125 packages) as the
// workspace folder, indexed in the background, then every file opened, then every file closed. RSS and
// peak RSS from /proc (Linux), and RSS after a full garbage collection (what the server really keeps:
// the server runs with --expose-gc and a preloaded SIGUSR2 handler that collects, nothing else
// changed). Baseline, in the same run: the same server with no folder and nothing open.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-languageserver/node';
import { generateWorkspace } from './program.bench';

const SERVER = path.join(__dirname, '..', 'dist', 'server.js');
const FILES = 500;

/** VmRSS and VmHWM of a process, in MB. */
function memory(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

interface Server {
  child: ChildProcess;
  c: MessageConnection;
  /** Resolves once diagnostics were published for every one of `uris` (with `version` when given). */
  published(uris: string[], version?: number): Promise<void>;
  /** Resolves once the background index has checked the folder (its log line). */
  indexed: Promise<void>;
  stop(): Promise<void>;
}

/** Preloaded into the server: a full collection on SIGUSR2. */
const COLLECT = `process.on('SIGUSR2', () => { global.gc(); global.gc(); });`;

/** RSS (MB) after a full collection in the server. */
async function collected(pid: number): Promise<number> {
  process.kill(pid, 'SIGUSR2');
  await new Promise((r) => setTimeout(r, 500));
  return memory(pid).rss;
}

async function start(rootUri: string | null, preload: string): Promise<Server> {
  const child = spawn(process.execPath, ['--expose-gc', '-r', preload, SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const c = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const seen = new Map<string, number | undefined>();
  let waiting: { uris: string[]; version?: number; resolve: () => void } | undefined;
  const check = () => {
    if (waiting && waiting.uris.every((u) => seen.has(u) && (waiting!.version === undefined || seen.get(u) === waiting!.version))) {
      const w = waiting;
      waiting = undefined;
      w.resolve();
    }
  };
  c.onNotification('textDocument/publishDiagnostics', (p: { uri: string; version?: number }) => {
    seen.set(p.uri, p.version);
    check();
  });
  const indexed = new Promise<void>((resolve) => c.onNotification('window/logMessage', (p: { message: string }) => (/ checked \d+ modules? in /.test(p.message) ? resolve() : undefined)));
  c.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
  c.onRequest('client/registerCapability', () => null);
  c.onRequest('window/workDoneProgress/create', () => null);
  c.listen();
  await c.sendRequest('initialize', {
    processId: process.pid,
    rootUri,
    workspaceFolders: rootUri ? [{ uri: rootUri, name: 'bench' }] : null,
    capabilities: { workspace: { configuration: true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } }, window: { workDoneProgress: true } },
  });
  await c.sendNotification('initialized', {});
  return {
    child,
    c,
    indexed,
    published: (uris, version) =>
      new Promise((resolve) => {
        waiting = { uris, version, resolve };
        check();
      }),
    async stop() {
      await c.sendRequest('shutdown');
      await c.sendNotification('exit');
      c.dispose();
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 1500));

export default async function run(): Promise<void> {
  if (!fs.existsSync('/proc/self/status')) {
    console.log('skipped: RSS is read from /proc (Linux only)');
    return;
  }
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'vis-bench-memory-')));
  try {
    const preload = path.join(dir, 'collect.js');
    fs.writeFileSync(preload, COLLECT);
    const empty = await start(null, preload);
    await settle();
    const base = { ...memory(empty.child.pid!), gc: await collected(empty.child.pid!) };
    await empty.stop();

    generateWorkspace(dir, FILES);
    const files: string[] = [];
    (function walk(d: string) {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const f = path.join(d, e.name);
        if (e.isDirectory()) walk(f);
        else if (f.endsWith('.py')) files.push(f);
      }
    })(dir);
    const uris = files.map((f) => pathToFileURL(f).href);
    const server = await start(pathToFileURL(dir).href, preload);
    const t0 = performance.now();
    await server.indexed;
    const indexed = performance.now() - t0;
    await settle();
    const afterIndex = { ...memory(server.child.pid!), gc: await collected(server.child.pid!) };
    const t1 = performance.now();
    for (const [i, f] of files.entries()) {
      void server.c.sendNotification('textDocument/didOpen', { textDocument: { uri: uris[i], languageId: 'python', version: 1, text: fs.readFileSync(f, 'utf8') } });
    }
    await server.published(uris, 1);
    const opened = performance.now() - t1;
    await settle();
    const open = { ...memory(server.child.pid!), gc: await collected(server.child.pid!) };
    for (const uri of uris) void server.c.sendNotification('textDocument/didClose', { textDocument: { uri } });
    await settle();
    const closed = { ...memory(server.child.pid!), gc: await collected(server.child.pid!) };
    await server.stop();

    const per = (open.gc - afterIndex.gc) / files.length;
    console.log(`workspace: ${files.length} files in ${Math.round(files.length / 4)} packages; indexed in ${indexed.toFixed(0)} ms, all opened and published in ${opened.toFixed(0)} ms`);
    console.log('| server state | RSS MB | RSS after a full GC MB | peak RSS MB | ratio to the empty server (RSS) | target |');
    console.log('|---|---|---|---|---|---|');
    const row = (name: string, m: { rss: number; gc: number; peak: number }, target = '') => console.log(`| ${name} | ${m.rss.toFixed(0)} | ${m.gc.toFixed(0)} | ${m.peak.toFixed(0)} | ${(m.rss / base.rss).toFixed(2)} | ${target} |`);
    row('no folder, nothing open (baseline)', base);
    row('the workspace indexed, nothing open', afterIndex);
    row(`${files.length} files open`, open, '≤ 200 MB');
    row('all closed again', closed);
    console.log(`per open document (after a full GC): ${(per * 1024).toFixed(0)} KB beyond the indexed workspace`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
