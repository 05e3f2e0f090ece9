// Through the bundled server: `node dist/server.js --stdio` as a child process speaking LSP.
// initialize, didOpen, hover on vis.Symbol( → the Markdown carries the contract; the custom request
// returns the contract object and doc; the contractFormat setting switches the format.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { PreviewDocsRequest, SymbolContractRequest, type PreviewDocsResult, type SymbolContractResult } from '../../shared/protocol';
import { previewPart } from '../helpers/preview';

const root = path.resolve(__dirname, '..', '..');
const bundle = path.join(root, 'dist', 'server.js');

const SOURCE = `from __future__ import annotations
from dataclasses import dataclass
from typing import Annotated
import blockether.vis.extension as vis
from .models import Reading

@dataclass
class Page:
    """One page of results."""
    title: Annotated[str, "The page title."]

def search(query: str, *, limit: int = 10) -> list[Page]:
    """Search the pages."""

def measure(target: str) -> Reading:
    """Measure one target."""

vis.register_extension(vis.Extension(name="t", description="T", alias="t", symbols=[
    vis.Symbol(search, activity=vis.Activity("generic")),
    vis.Symbol(measure, name="probe", activity=vis.Activity("generic")),
]))
`;

describe('language server (stdio)', () => {
  let child: ChildProcess;
  let conn: MessageConnection;
  let dir: string;
  let uri: string;
  let settings: Record<string, unknown> = { contractFormat: 'C3' };

  before(async () => {
    assert.ok(fs.existsSync(bundle), `${bundle} is missing: npm test builds it first (or run npm run build)`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-lsp-'));
    fs.writeFileSync(path.join(dir, 'models.py'), 'from dataclasses import dataclass\n\n@dataclass\nclass Reading:\n    """A reading."""\n    value: float\n');
    const file = path.join(dir, 'extension.py');
    fs.writeFileSync(file, SOURCE);
    uri = pathToFileURL(file).href;
    child = spawn(process.execPath, [bundle, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
    conn = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    conn.onRequest('workspace/configuration', () => [settings]);
    conn.onRequest('client/registerCapability', () => null);
    conn.onNotification('textDocument/publishDiagnostics', () => undefined);
    conn.onNotification('window/logMessage', () => undefined);
    conn.listen();
    await conn.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(dir).href, capabilities: { workspace: { configuration: true } } });
    await conn.sendNotification('initialized', {});
    // Requests about a document answer from an empty one until its first version is analysed: wait for its diagnostics.
    const analysed = new Promise<void>((resolve) => conn.onNotification('textDocument/publishDiagnostics', (p: { uri: string }) => p.uri === uri && resolve()));
    await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text: SOURCE } });
    await analysed;
  });

  after(async () => {
    try {
      await conn.sendRequest('shutdown');
      await conn.sendNotification('exit');
    } catch {
      // already gone
    }
    conn.dispose();
    child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const lineOf = (needle: string) => SOURCE.split('\n').findIndex((l) => l.includes(needle));

  it('hovers vis.Symbol( with the card, the exact contract JSON and the doc text', async () => {
    const line = lineOf('vis.Symbol(search');
    const hover = (await conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character: 8 } })) as { contents: { kind: string; value: string } };
    const md = hover.contents.value;
    assert.equal(hover.contents.kind, 'markdown');
    assert.ok(md.includes('search(query: str, *, limit: int = 10) -> list[\'Page\']'), md);
    assert.ok(md.includes('| `limit` | `int` | keyword_only | `10` |'), md);
    assert.ok(md.includes('The page title.'), md);
    const result = (await conn.sendRequest(SymbolContractRequest, { uri, position: { line, character: 8 } })) as SymbolContractResult;
    assert.ok(result);
    assert.ok(md.includes('```json\n' + JSON.stringify(result.contract, null, 2) + '\n```'), 'contract JSON in the hover');
    assert.ok(md.includes(result.doc), 'doc text in the hover');
    assert.ok(result.doc.startsWith('Search the pages.\n\nEffect: observation\n\nParameters:\n- query: str (positional_or_keyword; required)\n- limit: int (keyword_only; default 10)'), result.doc);
  });

  it('resolves a record imported from a sibling module', async () => {
    const line = lineOf('vis.Symbol(measure');
    const result = (await conn.sendRequest(SymbolContractRequest, { uri, position: { line, character: 20 } })) as SymbolContractResult;
    assert.equal(
      JSON.stringify((result!.contract as { returns: unknown }).returns),
      '{"kind":"record","name":"Reading","fields":[{"name":"value","type":{"kind":"scalar","name":"float"},"required":true,"has_default":false,"default_is_none":false}],"description":"A reading."}',
    );
  });

  it('previews the doc(probe) page the hover shows, with the record from the sibling module', async () => {
    const line = lineOf('vis.Symbol(measure');
    const result = (await conn.sendRequest(SymbolContractRequest, { uri, position: { line, character: 20 } })) as SymbolContractResult;
    assert.ok(result!.doc.includes('Returns: Reading\nA reading.\n\nModel schemas:\nReading — A reading.\n- value: float'), result!.doc);
    const preview = (await conn.sendRequest(PreviewDocsRequest, { uri })) as PreviewDocsResult;
    const page = previewPart(preview.text, 'Tool probe: doc(probe)');
    assert.equal(page, result!.doc, preview.text);
  });

  it('follows a change to the sibling module in the next preview, with the open document unchanged', async () => {
    const models = path.join(dir, 'models.py');
    const before = fs.readFileSync(models, 'utf8');
    // A later mtime for sure, whatever the file system's time resolution.
    fs.writeFileSync(models, before + '    unit: str = "s"\n');
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(models, later, later);
    try {
      const preview = (await conn.sendRequest(PreviewDocsRequest, { uri })) as PreviewDocsResult;
      assert.ok(preview.text.includes('Reading — A reading.\n- value: float\n- unit: str (has default)'), preview.text);
    } finally {
      fs.writeFileSync(models, before);
      const again = new Date(Date.now() + 10000);
      fs.utimesSync(models, again, again);
    }
  });

  it('hovers the def of an exported tool', async () => {
    const line = lineOf('def measure');
    const hover = (await conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character: 6 } })) as { contents: { value: string } };
    assert.ok(hover.contents.value.includes('**`probe`** · Vis tool'), hover.contents.value);
  });

  it('follows visAuthoring.contractFormat', async () => {
    settings = { contractFormat: 'C1' };
    await conn.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    const line = lineOf('vis.Symbol(search');
    let result: SymbolContractResult = null;
    for (let i = 0; i < 50; i++) {
      result = (await conn.sendRequest(SymbolContractRequest, { uri, position: { line, character: 8 } })) as SymbolContractResult;
      if ((result?.contract as { signature?: string }).signature === 'query, *, limit=...') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal((result!.contract as { signature: string }).signature, 'query, *, limit=...');
  });
});
