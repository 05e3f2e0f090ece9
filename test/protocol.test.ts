// The bundled language server, started as a child process over stdio, as any LSP client starts it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from './helpers/lsp';

// Two declarations with one mistake each: each gets the one error Vis raises for it.
const BROKEN = 'import blockether.vis.extension as vis\n\nvis.register_extension(vis.Extension(name="", description="d"))\nEXT = vis.Extension(name="ext", description="d", symbols=[print])\n';
const FIXED = BROKEN.replace('name=""', 'name="greeter"').replace('name="ext"', 'name="ext", alias="ext"');

describe('language server over stdio (dist/server.js)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  it('publishes diagnostics with code, source, severity and range when a file opens', async () => {
    const uri = 'file:///tmp/vis-protocol/greeter.py';
    const published = server.diagnostics(uri);
    server.open(uri, BROKEN);
    const { diagnostics, version } = await published;
    assert.equal(version, 1);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.source, d.severity, d.message, d.range.start.line, d.range.start.character, d.range.end.character]),
      [
        ['EXT-003', 'vis-authoring', 1, 'vis.Extension requires name=<non-empty string>', 2, 42, 44],
        ['EXT-005', 'vis-authoring', 1, 'vis.Extension requires alias=<string> when symbols are declared', 3, 6, 19],
      ],
    );
  });

  it('updates diagnostics after an edit, for untitled documents too', async () => {
    const uri = 'untitled:Untitled-1';
    const first = server.diagnostics(uri);
    server.open(uri, BROKEN);
    assert.equal((await first).diagnostics.length, 2);
    const fixed = server.diagnostics(uri, (p) => p.version === 2);
    server.change(uri, FIXED, 2);
    assert.deepEqual((await fixed).diagnostics, []);
  });

  it('analyses a file of a virtual workspace (vscode-vfs:), and previews it', async () => {
    const uri = 'vscode-vfs://github/blockether/demo/.vis/extensions/greeter.py';
    const first = server.diagnostics(uri);
    server.open(uri, BROKEN);
    assert.deepEqual((await first).diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character]), [['EXT-003', 2, 42], ['EXT-005', 3, 6]]);
    const fixed = server.diagnostics(uri, (p) => p.version === 2);
    server.change(uri, FIXED, 2);
    assert.deepEqual((await fixed).diagnostics, []);
    const preview = (await server.connection.sendRequest('visAuthoring/previewDocs', { uri })) as { text: string };
    assert.match(preview.text.split('\n')[0], /^# Model-facing docs of greeter \u00b7 \d+ tokens$/);
    assert.ok(preview.text.includes(`Read statically from ${uri} (G3)`), preview.text);
  });

  it('offers the quick fix a rule attached', async () => {
    const uri = 'file:///tmp/vis-protocol/fix.py';
    const published = server.diagnostics(uri);
    server.open(uri, BROKEN);
    const { diagnostics } = await published;
    const actions = (await server.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostics[1].range,
      context: { diagnostics: [diagnostics[1]] },
    })) as { title: string; edit: { changes: Record<string, { newText: string }[]> } }[];
    assert.deepEqual(
      actions.map((a) => [a.title, a.edit.changes[uri].map((e) => e.newText)]),
      [
        ['Add alias="ext"', [', alias="ext"']],
        ['Disable EXT-005 for this line', ['  # vis: ignore[EXT-005]']],
      ],
    );
  });

  it('keeps serving after a file it cannot parse', async () => {
    const uri = 'file:///tmp/vis-protocol/garbage.py';
    const published = server.diagnostics(uri);
    server.open(uri, '\u0000)))]]]"""\n' + 'def ('.repeat(2000));
    assert.deepEqual((await published).diagnostics, []);
    const next = server.diagnostics('file:///tmp/vis-protocol/after.py');
    server.open('file:///tmp/vis-protocol/after.py', BROKEN);
    assert.equal((await next).diagnostics.length, 2);
  });

  it('refuses a file over Python\'s nesting limits with one finding, and keeps answering for the others', async () => {
    // 300 nested blocks: the kind of file a generator or a paste produces, which Python refuses to compile.
    const poison = 'import blockether.vis.extension as vis\n' + Array.from({ length: 300 }, (_, i) => `${'  '.repeat(i)}if x:\n`).join('') + `${'  '.repeat(300)}pass\n`;
    const uri = 'file:///tmp/vis-protocol/poison.py';
    const published = server.diagnostics(uri);
    server.open(uri, poison);
    assert.deepEqual(
      (await published).diagnostics.map((d) => [d.code, d.severity, d.message, d.range]),
      [['SYN-001', 1, 'IndentationError: too many levels of indentation', { start: { line: 101, character: 0 }, end: { line: 101, character: 200 } }]],
    );
    const hover = await server.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 3, character: 4 } });
    assert.equal(hover, null);
    const next = server.diagnostics('file:///tmp/vis-protocol/after-poison.py');
    server.open('file:///tmp/vis-protocol/after-poison.py', BROKEN);
    assert.deepEqual((await next).diagnostics.map((d) => d.code), ['EXT-003', 'EXT-005']);
  });

  it('survives a document opened with null text and a settings change after it', async () => {
    const other = await startServer();
    try {
      const uri = 'file:///tmp/vis-protocol/null.py';
      const published = other.diagnostics(uri);
      void other.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text: null } });
      assert.deepEqual((await published).diagnostics, []);
      void other.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
      const next = other.diagnostics('file:///tmp/vis-protocol/after-null.py');
      other.open('file:///tmp/vis-protocol/after-null.py', BROKEN);
      assert.equal((await next).diagnostics.length, 2);
      assert.equal(other.process.exitCode, null);
    } finally {
      await other.stop();
    }
  });

  it('applies per-rule severity overrides from the settings', async () => {
    const other = await startServer({ severity: { 'EXT-005': 'warning', 'EXT-003': 'off' } });
    try {
      const uri = 'file:///tmp/vis-protocol/settings.py';
      const published = other.diagnostics(uri);
      other.open(uri, BROKEN);
      assert.deepEqual(
        (await published).diagnostics.map((d) => [d.code, d.severity]),
        [['EXT-005', 2]],
      );
    } finally {
      await other.stop();
    }
  });
});
