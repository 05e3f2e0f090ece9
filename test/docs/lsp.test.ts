// The built language server (dist/server.js, made by `npm test`'s build step) over stdio, as an
// editor drives it: code lenses, the preview requests, the routing hover and request, and live
// diagnostics and previews after an edit and a settings change.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { StreamMessageReader, StreamMessageWriter, createMessageConnection, type MessageConnection } from 'vscode-languageserver/node';
import { pathToFileURL } from 'node:url';
import type { PreviewDocsResult } from '../../shared/protocol';

const ROOT = path.join(__dirname, '..', '..');
const SERVER = path.join(ROOT, 'dist', 'server.js');
const SOURCE_PATH = path.join(__dirname, 'fixtures', 'lang_python.py');
const URI = 'file:///work/ext/lang_python.py';
// The workspace: the fixtures folder, and a folder with a FIFO in it (made per run).
const SCRATCH = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-preview-'));
const FIFO = path.join(SCRATCH, 'pipe.py');

let server: ChildProcess;
let conn: MessageConnection;
const diagnostics = new Map<string, { code: string; message: string; line: number }[]>();
const waiters: (() => void)[] = [];

before(async () => {
  execFileSync('mkfifo', [FIFO]);
  assert.ok(fs.existsSync(SERVER), `${SERVER} is missing: run npm test (it builds first) or npm run build`);
  server = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  conn = createMessageConnection(new StreamMessageReader(server.stdout!), new StreamMessageWriter(server.stdin!));
  conn.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: { code: string; message: string; severity: number; range: { start: { line: number } } }[] }) => {
    // Errors and warnings only: the information-level guidance (SYM-008) is not what these tests are about.
    const shown = p.diagnostics.filter((d) => d.severity <= 2);
    diagnostics.set(p.uri, shown.map((d) => ({ code: d.code, message: d.message, line: d.range.start.line })));
    for (const w of waiters.splice(0)) w();
  });
  conn.onNotification('window/logMessage', () => undefined);
  conn.listen();
  const init = await conn.sendRequest<{ capabilities: Record<string, unknown> }>('initialize', {
    processId: process.pid,
    rootUri: null,
    workspaceFolders: [path.join(__dirname, 'fixtures'), SCRATCH].map((p, i) => ({ uri: pathToFileURL(p).href, name: `w${i}` })),
    capabilities: {},
    initializationOptions: { langInterfaceVersion: 'current' },
  });
  assert.deepEqual(init.capabilities.codeLensProvider, { resolveProvider: false });
  await conn.sendNotification('initialized', {});
  await conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: URI, languageId: 'python', version: 1, text: fs.readFileSync(SOURCE_PATH, 'utf8') },
  });
  // Requests about a document answer from an empty one until its first version is analysed.
  while (!diagnostics.has(URI)) await new Promise<void>((r) => waiters.push(r));
});

after(async () => {
  await conn.sendRequest('shutdown');
  await conn.sendNotification('exit');
  conn.dispose();
  server.kill();
  fs.rmSync(SCRATCH, { recursive: true, force: true });
});

/** Waits for the next diagnostics that satisfy `ok`. */
async function diagnosticsWhere(ok: (d: { code: string; message: string; line: number }[]) => boolean) {
  for (let i = 0; i < 50; i++) {
    const d = diagnostics.get(URI);
    if (d && ok(d)) return d;
    await new Promise<void>((resolve) => {
      waiters.push(resolve);
      setTimeout(resolve, 100);
    });
  }
  assert.fail(`no matching diagnostics; last: ${JSON.stringify(diagnostics.get(URI))}`);
}

describe('language server over stdio', () => {
  it('puts two code lenses above the registration call, invoking the client commands with the URI', async () => {
    const lenses = await conn.sendRequest('textDocument/codeLens', { textDocument: { uri: URI } });
    const range = { start: { line: 32, character: 0 }, end: { line: 40, character: 1 } };
    assert.deepEqual(lenses, [
      { range, command: { title: 'Preview model-facing docs', command: 'visAuthoring.previewDocs', arguments: [URI] } },
      { range, command: { title: 'Preview prompt', command: 'visAuthoring.previewPrompt', arguments: [URI] } },
    ]);
  });

  it('answers previewDocs with the text, the parts and the total', async () => {
    const r = await conn.sendRequest<PreviewDocsResult>('visAuthoring/previewDocs', { uri: URI });
    assert.equal(r.text, fs.readFileSync(path.join(__dirname, 'fixtures', 'lang_python.preview.md'), 'utf8'));
    assert.deepEqual(r.parts, [
      { title: 'Snapshot row', tokens: 18 },
      { title: 'Prompt: prompt.routing, current wording (vis-lang-interface 2.6.2 and later)', tokens: 135 },
      { title: 'Tool format_code: apropos row', tokens: 14 },
      { title: 'Tool format_code: doc(format_code)', tokens: 43 },
      // FormatResult and TestResult come from vis_lang_interface, which is not in the workspace: said, not counted.
      { title: 'Tool format_code: not statically known', tokens: 0 },
      { title: 'Tool run_tests: apropos row', tokens: 16 },
      { title: 'Tool run_tests: doc(run_tests)', tokens: 39 },
      { title: 'Tool run_tests: not statically known', tokens: 0 },
    ]);
    assert.equal(r.tokens, 265);
  });

  it('hovers the routing call with the rendered block, and answers renderRouting', async () => {
    const hover = await conn.sendRequest<{ contents: { kind: string; value: string } }>('textDocument/hover', {
      textDocument: { uri: URI },
      position: { line: 11, character: 12 },
    });
    const block = [
      'py surface active \u2014 Python through its own toolchain:',
      '  py.format_code \u00b7 py.lint_code \u00b7 py.run_tests',
      '  py.repl_start \u00b7 py.repl_eval \u00b7 py.repl_stop',
      'Use these verbs, not a shell command, to format, lint and test Python. Read their typed result; do not parse output.',
      'A REPL stays alive after the call that started it, and nothing in the context shows that it is alive. `py.repl_status` tells you; `py.repl_stop` ends it. Evaluate in a live REPL to check a change without a new toolchain startup.',
      "Tests run with the project's own pytest configuration.",
    ].join('\n');
    assert.deepEqual(hover.contents, {
      kind: 'markdown',
      value: `**prompt.routing** \u2014 the text the model reads, current wording (vis-lang-interface 2.6.2 and later)\n\n\`\`\`text\n${block}\n\`\`\``,
    });
    assert.deepEqual(await conn.sendRequest('visAuthoring/renderRouting', { uri: URI, position: { line: 14, character: 4 } }), { text: block });
    assert.equal(await conn.sendRequest('visAuthoring/renderRouting', { uri: URI, position: { line: 20, character: 4 } }), null);
  });

  it('follows an edit: the diagnostic appears and the preview shows the error', async () => {
    // Line 9: VERBS = ("format_code", ... ); rename the first verb to one that does not exist.
    await conn.sendNotification('textDocument/didChange', {
      textDocument: { uri: URI, version: 2 },
      contentChanges: [{ range: { start: { line: 9, character: 10 }, end: { line: 9, character: 21 } }, text: 'format' }],
    });
    // The call raises, so ROUTE-003 (the fixture routes verbs it does not export under `py`) has nothing to say.
    assert.deepEqual(await diagnosticsWhere((d) => d.some((x) => x.code === 'ROUTE-001')), [{ code: 'ROUTE-001', message: 'unknown language verbs: format', line: 14 }]);
    const r = await conn.sendRequest<PreviewDocsResult>('visAuthoring/previewPrompt', { uri: URI });
    assert.equal(
      r.text,
      [
        '# Prompt of lang-python \u00b7 0 tokens',
        '',
        'Read statically from /work/ext/lang_python.py (G3); nothing was run. Tokens are counted in o200k_base; each part is counted on its own, and the total is their sum.',
        '',
        '## Prompt: prompt.routing raises \u00b7 not counted',
        '',
        '> prompt.routing(...) (/work/ext/lang_python.py:12) raises ValueError: unknown language verbs: format. The module fails to import, so Vis does not load the extension.',
        '',
      ].join('\n'),
    );
  });

  it('renders the wording the settings name', async () => {
    await conn.sendNotification('textDocument/didChange', {
      textDocument: { uri: URI, version: 3 },
      contentChanges: [{ range: { start: { line: 9, character: 10 }, end: { line: 9, character: 16 } }, text: 'format_code' }],
    });
    // Valid again: only the advice that its tools are not exported under the routing alias `py`.
    const advice = await diagnosticsWhere((d) => d.length > 0 && d.every((x) => x.code === 'ROUTE-003'));
    assert.deepEqual(advice.map((x) => x.line), [9, 9, 9, 9, 9, 9]);
    await conn.sendNotification('workspace/didChangeConfiguration', { settings: { visAuthoring: { langInterfaceVersion: 'legacy' } } });
    const r = await conn.sendRequest<PreviewDocsResult>('visAuthoring/previewPrompt', { uri: URI });
    assert.deepEqual(r.parts, [{ title: 'Prompt: prompt.routing, legacy wording (vis-lang-interface 2.1.0 to before 2.6.2)', tokens: 155 }]);
  });

  it('previews a file that is not open from disk', async () => {
    const uri = 'file://' + path.join(__dirname, 'fixtures', 'greeter.py');
    const r = await conn.sendRequest<PreviewDocsResult>('visAuthoring/previewDocs', { uri });
    assert.equal(r.tokens, 278);
    assert.equal(r.parts.length, 16);
  });

  it('reads no file outside the workspace, and refuses a FIFO or a device at once', async () => {
    const outside = pathToFileURL(path.join(ROOT, 'examples', 'extensions', 'greeter.py')).href;
    for (const [uri, why] of [
      [outside, 'it is neither open nor inside a workspace folder, so it is not read'],
      [pathToFileURL(FIFO).href, `${FIFO} is a named pipe (FIFO); only regular files are read`],
      ['file:///dev/zero', 'it is neither open nor inside a workspace folder, so it is not read'],
    ]) {
      const r = await conn.sendRequest<PreviewDocsResult>('visAuthoring/previewDocs', { uri });
      assert.deepEqual(r, { text: `No preview for ${uri}: ${why}.\n`, parts: [], tokens: 0 });
    }
  });
});
