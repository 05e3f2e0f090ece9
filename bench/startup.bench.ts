// Start-up: the bundled server spawned as an editor starts it (`node dist/server.js --stdio`), a 300-line
// extension file opened right after `initialized`, and the time from the spawn to its first published
// diagnostics (medians of interleaved runs). Baseline, in the same run: spawning Node itself (`node -e 0`
// until it exits).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { generateExtension } from './generate';
import { median } from './stats';

const SERVER = path.join(__dirname, '..', 'dist', 'server.js');
const URI = 'file:///bench/startup/extension.py';
const RUNS = 11;
/**
 * The servers' temporary directory (where the launcher keeps V8's code cache): the bench's own, so that
 * other checkouts' servers running at the same time leave it alone.
 */
const CACHE_HOME = path.join(os.tmpdir(), `vis-authoring-startup-bench-${process.getuid?.() ?? 'user'}`);

/** One start: ms to the initialize result and to the first diagnostics of the opened file. */
export async function startOnce(text: string): Promise<{ initialize: number; diagnostics: number }> {
  fs.mkdirSync(CACHE_HOME, { recursive: true, mode: 0o700 });
  const t0 = performance.now();
  const child = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, TMPDIR: CACHE_HOME } });
  const c = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  let diagnostics = 0;
  const published = new Promise<void>((resolve) =>
    c.onNotification('textDocument/publishDiagnostics', (p: { uri: string }) => {
      if (p.uri !== URI || diagnostics) return;
      diagnostics = performance.now() - t0;
      resolve();
    }),
  );
  c.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
  c.onRequest('client/registerCapability', () => null);
  c.onRequest('window/workDoneProgress/create', () => null);
  c.listen();
  await c.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: { workspace: { configuration: true } } });
  const initialize = performance.now() - t0;
  await c.sendNotification('initialized', {});
  await c.sendNotification('textDocument/didOpen', { textDocument: { uri: URI, languageId: 'python', version: 1, text } });
  await published;
  await c.sendRequest('shutdown');
  await c.sendNotification('exit');
  c.dispose();
  await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  return { initialize, diagnostics };
}

function nodeAlone(): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve) => spawn(process.execPath, ['-e', '0']).once('exit', () => resolve(performance.now() - t0)));
}

export default async function run(): Promise<void> {
  const text = generateExtension(12, 300);
  const node: number[] = [];
  const init: number[] = [];
  const first: number[] = [];
  for (let i = -1; i < RUNS; i++) {
    const n = await nodeAlone();
    const s = await startOnce(text);
    if (i < 0) continue;
    node.push(n);
    init.push(s.initialize);
    first.push(s.diagnostics);
  }
  const base = median(node);
  const bundle = path.join(path.dirname(SERVER), 'server-main.js');
  console.log(`file: ${text.split('\n').length} lines; server bundle ${(fs.statSync(bundle).size / 1e6).toFixed(2)} MB (started from V8's code cache after the first run)`);
  console.log('| measurement | median ms | ratio to Node alone | target |');
  console.log('|---|---|---|---|');
  console.log(`| spawn Node, exit (baseline) | ${base.toFixed(0)} | 1.00 | |`);
  console.log(`| spawn server → initialize result | ${median(init).toFixed(0)} | ${(median(init) / base).toFixed(2)} | |`);
  console.log(`| spawn server → first diagnostics (300-line file) | ${median(first).toFixed(0)} | ${(median(first) / base).toFixed(2)} | ≤ 250 ms |`);
}
