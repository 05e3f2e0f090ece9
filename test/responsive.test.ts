// The bundled server over stdio under load: one publishDiagnostics per document version and none for a
// superseded one; a large document analysed in slices while other documents are answered, requests
// about it answered from its last analysis; a newer version cancelling an older analysis;
// $/cancelRequest; and the server-side reproducers of issue 16 (a line of 3,000 nested parentheses, a
// docstring of 30,000 identical characters).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CancellationTokenSource, ResponseError, type Hover, type PublishDiagnosticsParams } from 'vscode-languageserver/node';
import { generateExtension } from '../bench/generate';
import { DocumentStatusRequest, type DocumentStatusResult } from '../shared/protocol';
import { startServer, type TestServer } from './helpers/lsp';

// One mistake, one diagnostic: the empty name is the first error Python raises for the call.
const BROKEN = 'import blockether.vis.extension as vis\n\nvis.register_extension(vis.Extension(name="", description="d", symbols=[print]))\n';
const VALID = 'import blockether.vis.extension as vis\n\n\ndef hello(name: str) -> str:\n    """Say hello."""\n    return name\n\n\nvis.register_extension(vis.Extension(name="hi", description="d", alias="hi", symbols=[vis.Symbol(hello)]))\n';

/** Resolves once the server has published nothing for `quietMs`. */
async function settled(server: TestServer, quietMs = 400): Promise<void> {
  for (let seen = -1; seen !== server.published.length; ) {
    seen = server.published.length;
    await new Promise((r) => setTimeout(r, quietMs));
  }
}

/** The versions published for a URI, in order. */
const versionsOf = (server: TestServer, uri: string) => server.published.filter((p) => p.uri === uri).map((p) => p.version);

const codes = (p: PublishDiagnosticsParams) => p.diagnostics.map((d) => `${d.code}@${d.range.start.line}`);

const hover = (server: TestServer, uri: string, line: number, character: number) =>
  server.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character } }) as Promise<Hover | null>;

const hoverText = (h: Hover | null) => (h ? (h.contents as { value: string }).value : null);

describe('publishDiagnostics over stdio: one per document version', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  it('publishes each opened document once (200 documents: 200 publishes)', async () => {
    const uris = Array.from({ length: 200 }, (_, i) => `file:///tmp/vis-responsive/open/m${i}.py`);
    await Promise.all(uris.map((uri, i) => server.open(uri, i % 3 === 0 ? BROKEN : i % 3 === 1 ? VALID : 'print("not a Vis file")\n')));
    // Then nothing more comes.
    await settled(server);
    assert.equal(server.published.length, 200);
    for (const uri of uris) assert.deepEqual(versionsOf(server, uri), [1], uri);
    assert.deepEqual(codes(server.published.find((p) => p.uri === uris[0])!), ['EXT-003@2']);
    assert.deepEqual(codes(server.published.find((p) => p.uri === uris[1])!), ['SYM-008@8']);
    assert.deepEqual(server.published.find((p) => p.uri === uris[2])!.diagnostics, []);
  });

  it('publishes each version once while the document changes, and none for a version superseded before it was published', async () => {
    const uri = 'file:///tmp/vis-responsive/edit.py';
    server.open(uri, BROKEN);
    await settled(server);
    for (let v = 2; v <= 4; v++) {
      const next = server.diagnostics(uri, (p) => p.version === v);
      server.change(uri, v % 2 ? BROKEN : VALID, v);
      await next;
    }
    // A burst, as typing sends it: only the last version is published.
    for (let v = 5; v <= 9; v++) server.change(uri, v % 2 ? BROKEN : VALID, v);
    await settled(server);
    assert.deepEqual(versionsOf(server, uri), [1, 2, 3, 4, 9]);
    assert.deepEqual(codes(server.published.at(-1)!), ['EXT-003@2']);
  });

  it('does not publish a version again when nothing changed (a save, the same settings), and once more when its diagnostics change', async () => {
    const uri = 'file:///tmp/vis-responsive/settings.py';
    server.open(uri, BROKEN);
    await settled(server);
    const before = server.published.length;
    void server.connection.sendNotification('textDocument/didSave', { textDocument: { uri } });
    await server.configure({});
    await settled(server);
    assert.equal(server.published.length, before);
    // Other severities change what the open documents show: each is published once more, same version
    // (waited for, not only a quiet spell: on a loaded machine the server may be slower than that).
    const hinted = server.diagnostics(uri, (p) => p.diagnostics.some((d) => d.severity === 4));
    await server.configure({ severity: { 'EXT-003': 'hint' } });
    await hinted;
    await settled(server);
    const again = server.published.slice(before).filter((p) => p.uri === uri);
    assert.deepEqual(again.map((p) => [p.version, codes(p)]), [[1, ['EXT-003@2']]]);
    await server.configure({});
    await settled(server);
  });

  it('clears a closed document once', async () => {
    const uri = 'file:///tmp/vis-responsive/closed.py';
    server.open(uri, BROKEN);
    await settled(server);
    void server.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
    await settled(server);
    assert.deepEqual(server.published.filter((p) => p.uri === uri).map((p) => [p.version, p.diagnostics.length]), [[1, 1], [undefined, 0]]);
  });
});

describe('a large document analysed in slices', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  // 1,500 tools, 1.9 million characters: seconds of analysis, within visAuthoring.maxFileSize.
  const big = generateExtension(1500, 48_000).replace('name="bench"', 'name=""');
  const bigUri = 'file:///tmp/vis-responsive/big.py';
  const registration = big.split('\n').findIndex((l) => l === 'vis.register_extension(vis.Extension(');
  const tool0 = big.split('\n').findIndex((l) => l.startsWith('def tool_0('));

  it('answers for other documents while it is analysed, and null for it before its first analysis', async () => {
    assert.ok(big.length > 1_800_000 && big.length < 2_000_000, String(big.length));
    const small = 'file:///tmp/vis-responsive/small.py';
    const bigPublished = server.diagnostics(bigUri);
    server.open(bigUri, big);
    const smallPublished = server.diagnostics(small);
    server.open(small, VALID);
    assert.deepEqual(codes(await smallPublished), ['SYM-008@8']);
    const card = hoverText(await hover(server, small, 8, 88));
    assert.match(card ?? '', /hello/);
    assert.equal(await hover(server, bigUri, tool0, 5), null);
    assert.deepEqual(versionsOf(server, bigUri), [], 'the large document is still being analysed');
    const first = await bigPublished;
    assert.equal(first.version, 1);
    assert.deepEqual(first.diagnostics.filter((d) => d.severity === 1).map((d) => [d.code, d.range.start.line]), [['EXT-003', registration + 1]]);
    assert.match(hoverText(await hover(server, bigUri, tool0, 5)) ?? '', /Compute result 0 for one target\./);
  });

  it('answers requests about it from its last analysis while a newer version is analysed, and a newer version cancels the older one', async () => {
    const v3 = server.diagnostics(bigUri, (p) => p.version === 3);
    // Edits to every tool's docstring: every statement is read again (an edit in one place is analysed at once).
    server.change(bigUri, big.replaceAll('Compute result', 'Count result'), 2);
    server.change(bigUri, big.replaceAll('Compute result', 'Tally result').replace('name=""', 'name="bench"'), 3);
    const during = hoverText(await hover(server, bigUri, tool0, 5));
    assert.deepEqual(versionsOf(server, bigUri), [1], 'version 3 is still being analysed');
    assert.match(during ?? '', /Compute result 0 for one target\./);
    assert.equal((await v3).diagnostics.filter((d) => d.severity === 1).length, 0);
    await settled(server);
    assert.deepEqual(versionsOf(server, bigUri), [1, 3]);
    const now = hoverText(await hover(server, bigUri, tool0, 5));
    assert.match(now ?? '', /Tally result 0 for one target\./);
  });

  it('answers the document status at once while its 1,500 contracts are computed (contractsPending), and with every unknown tool once they are', async () => {
    const v4 = server.diagnostics(bigUri, (p) => p.version === 4);
    server.change(bigUri, big.replace('        vis.Symbol(tool_0),', '        vis.Symbol(tool_0),\n        vis.Symbol(make_tool()),'), 4);
    await v4;
    const status = () => server.connection.sendRequest(DocumentStatusRequest, { uri: bigUri }) as Promise<DocumentStatusResult>;
    const first = await status();
    assert.equal(first.contractsPending, true);
    assert.equal(first.generation, 'G3');
    assert.deepEqual(first.unknownTools, [], 'no list was computed for the document before');
    // Meanwhile the other documents are answered.
    assert.match(hoverText(await hover(server, 'file:///tmp/vis-responsive/small.py', 8, 88)) ?? '', /hello/);
    let last = first;
    for (let i = 0; i < 200 && last.contractsPending; i++) {
      await new Promise((r) => setTimeout(r, 100));
      last = await status();
    }
    assert.equal(last.contractsPending, undefined);
    assert.deepEqual(last.unknownTools, [{ where: 'make_tool()', reason: 'its first argument is a call result (`make_tool()`): Vis exports whatever the call returns when the module runs' }]);
    const { contractsPending: _, ...rest } = first;
    assert.deepEqual({ ...last, millis: 0, unknownTools: [] }, { ...rest, millis: 0 });
  });
});

describe('a settings change with 200 documents open', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  it('re-checks them in slices: a request sent once one is published again is answered before the last is', async () => {
    const n = 200;
    const uris = Array.from({ length: n }, (_, i) => `file:///tmp/vis-responsive/open_${i}.py`);
    // Each with 10 tools and a registration without a name (EXT-003): rules that take a while in all.
    const text = generateExtension(10, 300).replace('name="bench"', 'name=""');
    for (let i = 0; i < n; i += 25) await Promise.all(uris.slice(i, i + 25).map((u) => server.open(u, text)));
    const republished = () => new Set(server.published.filter((p) => uris.includes(p.uri) && p.diagnostics.some((d) => d.code === 'EXT-003' && d.severity === 2)).map((p) => p.uri)).size;
    assert.equal(republished(), 0);
    await server.configure({ severity: { 'EXT-003': 'warning' } });
    // Asked once the re-check has started.
    for (let i = 0; i < 2000 && republished() === 0; i++) await new Promise((r) => setTimeout(r, 1));
    const answer = await hover(server, 'file:///tmp/vis-responsive/small.py', 0, 0);
    const before = republished();
    assert.equal(answer, null, 'small.py is not open here');
    assert.ok(before < n, `the hover was answered after all ${n} documents were published again`);
    for (let i = 0; i < 200 && republished() < n; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(republished(), n);
  });
});

describe('cancellation and the reproducers of issue 16 over stdio', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  it('answers a cancelled request with RequestCancelled', async () => {
    // The first preview of a session waits for the token table: cancelled meanwhile, it is not answered with a preview.
    const uri = 'file:///tmp/vis-responsive/cancel.py';
    server.open(uri, 'print("not a Vis file")\n');
    const source = new CancellationTokenSource();
    const request = server.connection.sendRequest('visAuthoring/previewDocs', { uri }, source.token);
    setTimeout(() => source.cancel(), 5);
    const error = await request.then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof ResponseError, String(error));
    assert.equal(error.code, -32800);
  });

  it('a line of 3,000 nested parentheses: one SYN-001 at the 201st, and the other documents are answered', async () => {
    const uri = 'file:///tmp/vis-responsive/parens.py';
    const text = `import blockether.vis.extension as vis\n\nx = ${'('.repeat(3000)}1${')'.repeat(3000)}\n`;
    const published = server.diagnostics(uri);
    server.open(uri, text);
    assert.deepEqual(
      (await published).diagnostics.map((d) => [d.code, d.message, d.range]),
      [['SYN-001', 'SyntaxError: too many nested parentheses', { start: { line: 2, character: 204 }, end: { line: 2, character: 205 } }]],
    );
    assert.equal(await hover(server, uri, 2, 10), null);
    const other = 'file:///tmp/vis-responsive/after-parens.py';
    const next = server.diagnostics(other);
    server.open(other, BROKEN);
    assert.deepEqual(codes(await next), ['EXT-003@2']);
  });

  it('a docstring of 30,000 identical characters: previewDocs answers with its exact count, and a request after it is answered', async () => {
    const uri = 'file:///tmp/vis-responsive/docstring.py';
    const text = VALID.replace('"""Say hello."""', `"""${'a'.repeat(30_000)}"""`);
    const published = server.diagnostics(uri);
    server.open(uri, text);
    await published;
    const preview = server.connection.sendRequest('visAuthoring/previewDocs', { uri }) as Promise<{ text: string; tokens: number }>;
    const after = hover(server, uri, 8, 88);
    const [p, h] = await Promise.all([preview, after]);
    assert.match(hoverText(h) ?? '', /hello/);
    // o200k_base splits a run of one letter into pieces of at most a few characters: thousands of tokens, counted exactly.
    assert.match(p.text.split('\n')[0], /^# Model-facing docs of hi · \d+ tokens$/);
    assert.ok(p.tokens > 3000, String(p.tokens));
  });
});
