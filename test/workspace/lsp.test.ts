// The workspace program through the bundled server over stdio, on a packaged extension on disk laid
// out as published Vis extensions are (test/helpers/project.ts): background checking of every entry and
// the modules it reaches, diagnostics on the sibling module's own lines with the exporting vis.Symbol as
// related information, re-publication after the sibling changes (in the editor and on disk), a record
// from the virtual environment in the hover, and one analysis per module version across features.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { PublishDiagnosticsParams } from 'vscode-languageserver/node';
import { PreviewDocsRequest, SymbolContractRequest, type PreviewDocsResult, type SymbolContractResult } from '../../shared/protocol';
import { startServer, type TestServer } from '../helpers/lsp';
import { NOTES, project, type Project } from '../helpers/project';

const CAPABILITIES = {
  workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true }, workspaceFolders: true },
  window: { workDoneProgress: true },
};

const summary = (p: PublishDiagnosticsParams) =>
  p.diagnostics.map((d) => ({
    code: d.code,
    line: d.range.start.line,
    character: d.range.start.character,
    message: d.message,
    related: d.relatedInformation?.map((r) => `${r.location.uri}:${r.location.range.start.line}: ${r.message}`),
  }));

describe('workspace program over stdio', () => {
  let p: Project;
  let server: TestServer;
  let toolsPublished: Promise<PublishDiagnosticsParams>;

  before(async () => {
    p = project(NOTES.files);
    const globalDir = project({}, 'vis-global-');
    server = await startServer({}, { rootUri: p.uri(''), env: { VIS_EXTENSIONS_DIR: globalDir.root, VIS_AUTHORING_TRACE: 'analysis' }, capabilities: CAPABILITIES });
    toolsPublished = server.diagnostics(p.uri(NOTES.tools), (d) => d.diagnostics.length > 0);
  });
  after(async () => {
    await server.stop();
    p.remove();
  });

  it('checks the sibling module in the background: the first mistake Vis raises for the Symbol on its own line, the exporting vis.Symbol related', async () => {
    const tools = await toolsPublished;
    const symbol = `${p.uri(NOTES.entry)}:${p.line(NOTES.entry, 'vis.Symbol(')}: exported by this vis.Symbol(...)`;
    assert.deepEqual(summary(tools), [
      {
        code: 'SYM-013',
        line: p.line(NOTES.tools, 'LIMIT = 10'),
        character: 4,
        message: "vis.Symbol(object, ...): public attribute 'notes.LIMIT' has unsupported value of type int; expose callable methods, nest a capability object, or make the attribute private",
        related: [symbol],
      },
    ]);
    // Work-done progress while indexing: begun, then ended.
    for (let i = 0; i < 100 && !server.progress.some((v) => v.kind === 'end'); i++) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual([server.progress[0].kind, server.progress[0].title, server.progress.at(-1)!.kind], ['begin', 'Vis: checking extensions', 'end']);
  });

  it('does not treat a test file in .vis/extensions as an entry (no REG-005)', async () => {
    const uri = p.uri('.vis/extensions/test_gh.py');
    const published = server.diagnostics(uri);
    server.open(uri, fs.readFileSync(p.file('.vis/extensions/test_gh.py'), 'utf8'));
    assert.deepEqual((await published).diagnostics, []);
  });

  it('re-publishes the sibling after an edit in the editor, and after a change on disk', async () => {
    const uri = p.uri(NOTES.tools);
    const text = fs.readFileSync(p.file(NOTES.tools), 'utf8');
    const opened = server.diagnostics(uri, (d) => d.version === 1);
    server.open(uri, text);
    // One Symbol, one error: the public constant comes first in the traversal; the method without a docstring after it.
    assert.deepEqual((await opened).diagnostics.map((d) => d.code), ['SYM-013']);
    const edited = server.diagnostics(uri, (d) => d.version === 2);
    server.change(uri, text.replace('        return Note(title=title, body=body)', '        """Save a note."""\n        return Note(title=title, body=body)'), 2);
    assert.deepEqual((await edited).diagnostics.map((d) => d.code), ['SYM-013']);
    await server.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });

    // On disk: the constant made private; the client reports the file change.
    const fromDisk = server.diagnostics(uri, (d) => !d.diagnostics.some((x) => x.code === 'SYM-013'));
    p.write(NOTES.tools, text.replace('LIMIT = 10', '_LIMIT = 10'));
    await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type: 2 }] });
    const disk = await fromDisk;
    assert.deepEqual(summary(disk), [
      {
        code: 'SYM-016',
        line: p.line(NOTES.tools, 'def save('),
        character: 8,
        message: 'vis.Symbol: save needs a docstring - it becomes the model-facing doc()',
        related: [`${p.uri(NOTES.entry)}:${p.line(NOTES.entry, 'vis.Symbol(')}: exported by this vis.Symbol(...)`],
      },
    ]);
  });

  it('checks the package manifest: pyproject.toml gets its MAN findings, re-published as it is edited', async () => {
    const uri = p.uri(NOTES.pyproject);
    const text = fs.readFileSync(p.file(NOTES.pyproject), 'utf8');
    const opened = server.diagnostics(uri, (d) => d.version === 1);
    server.open(uri, text.replace('name = "notes"', 'name = "jotter"'));
    assert.deepEqual(summary(await opened), [
      {
        code: 'MAN-002',
        line: 1,
        character: 7,
        message: 'Extension name must match normalized project.name',
        related: [`${p.uri(NOTES.entry)}:${p.line(NOTES.entry, 'name="notes"')}: the extension registers the name 'notes'`],
      },
    ]);
    const fixed = server.diagnostics(uri, (d) => d.version === 2);
    server.change(uri, text, 2);
    assert.deepEqual((await fixed).diagnostics, []);
    await server.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  });

  it('reads a dependency’s frozen dataclass from .venv, and analyses each module version once across features', async () => {
    const uri = p.uri(NOTES.entry);
    const text = fs.readFileSync(p.file(NOTES.entry), 'utf8');
    const analysedBefore = server.logs.filter((l) => l.includes(`analysed ${uri} open:1:`)).length;
    const published = server.diagnostics(uri, (d) => d.version === 1);
    server.open(uri, text);
    await published;
    const position = { line: p.line(NOTES.entry, 'vis.Symbol('), character: 'symbols=[vis.Sym'.length + 4 };
    const hover = (await server.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position })) as { contents: { value: string } };
    assert.ok(hover.contents.value.includes('| `notes.tidy` | observation |'), hover.contents.value);
    const contract = (await server.connection.sendRequest(SymbolContractRequest, { uri, position })) as SymbolContractResult;
    const tidy = (contract!.contract as { members: { name: string; returns: unknown }[] }).members.find((m) => m.name === 'notes.tidy');
    assert.equal(
      JSON.stringify(tidy?.returns),
      '{"kind":"record","name":"FormatResult","fields":[{"name":"text","type":{"kind":"scalar","name":"str"},"required":true,"has_default":false,"default_is_none":false},{"name":"changed","type":{"kind":"scalar","name":"bool"},"required":true,"has_default":false,"default_is_none":false}],"description":"What a formatter returns."}',
    );
    const preview = (await server.connection.sendRequest(PreviewDocsRequest, { uri })) as PreviewDocsResult;
    assert.ok(preview.text.includes('doc(notes.tidy)'), preview.text);
    // The editor features read the same analyses: the Outline, completion, signature help, definition, Ctrl+T.
    const symbols = (await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })) as { name: string }[];
    assert.deepEqual(symbols.map((x) => x.name), ['notes']);
    for (const method of ['textDocument/completion', 'textDocument/signatureHelp', 'textDocument/definition']) {
      await server.connection.sendRequest(method, { textDocument: { uri }, position });
    }
    assert.ok(((await server.connection.sendRequest('workspace/symbol', { query: 'notes.tidy' })) as { name: string }[]).some((x) => x.name === 'notes.tidy'));
    assert.equal(analysedBefore, 0);
    // Diagnostics, hover, the contract request, the preview and the editor features read one analysis of this version, and one Symbol analysis.
    assert.equal(server.logs.filter((l) => l.includes(`analysed ${uri} open:1:`)).length, 1, server.logs.join('\n'));
    assert.equal(server.logs.filter((l) => l.includes(`symbols ${uri} open:1:`)).length, 1, server.logs.join('\n'));
  });
});
