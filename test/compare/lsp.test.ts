// Over LSP, with the bundled server as a child process and this test as the client: a file whose
// defaults broke every feature (`(-1)`), tools whose contract is unknown in the status item, and the
// contract comparison with the last commit — the server asks the client for committed texts
// (visAuthoring/committedText, which VS Code answers from its Git extension) and spawns nothing.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import {
  COMMITTED_TEXT_CAPABILITY,
  CommittedTextRequest,
  CompareContractsRequest,
  DocumentStatusRequest,
  PreviewDocsRequest,
  SymbolContractRequest,
  type CommittedTextParams,
  type CommittedTextResult,
  type CompareContractsResult,
  type DocumentStatusResult,
  type PreviewDocsResult,
  type SymbolContractResult,
} from '../../shared/protocol';

const bundle = path.resolve(__dirname, '..', '..', 'dist', 'server.js');

const COMMITTED = `import blockether.vis.extension as vis
from .models import Page


def page(query: str, offset: int = 0) -> Page:
    """Page through results."""


vis.register_extension(vis.Extension(name="t", description="T", alias="t", symbols=[vis.Symbol(page)]))
`;

const CURRENT = `import blockether.vis.extension as vis
from .models import Page


def page(query: str, offset: int = (-1), size: int = (3)) -> Page:
    """Page through results."""


class Kit:
    """Tools."""

    def first(self, n: int = (-1)) -> int:
        """First n."""

    def last(self) -> int:
        """Last."""


vis.register_extension(vis.Extension(name="t", description="T", alias="t", symbols=[vis.Symbol(page), vis.Symbol(Kit(), name="kit"), vis.Symbol(make_tool())]))
`;

const MODELS_COMMITTED = 'from dataclasses import dataclass\n\n\n@dataclass\nclass Page:\n    """A page."""\n    title: str\n    score: float\n';
const MODELS_NOW = 'from dataclasses import dataclass\n\n\n@dataclass\nclass Page:\n    """A page."""\n    title: str\n';

interface Client {
  conn: MessageConnection;
  child: ChildProcess;
  /** The committed files the client was asked for. */
  asked: string[];
}

async function start(dir: string, committed: boolean): Promise<Client> {
  const child = spawn(process.execPath, [bundle, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const asked: string[] = [];
  conn.onRequest('workspace/configuration', () => [{ contractFormat: 'C3' }]);
  conn.onRequest('client/registerCapability', () => null);
  conn.onNotification('textDocument/publishDiagnostics', () => undefined);
  conn.onNotification('window/logMessage', () => undefined);
  // What VS Code's Git extension would answer for HEAD: the committed entry and models; nothing else is in the commit.
  conn.onRequest(CommittedTextRequest, (p: CommittedTextParams): CommittedTextResult => {
    const file = fileURLToPath(p.uri);
    asked.push(path.relative(dir, file));
    const files: Record<string, string> = { 'extension.py': COMMITTED, 'models.py': MODELS_COMMITTED };
    return { text: files[path.relative(dir, file)] ?? null, label: `${p.ref} (1a2b3c4)` };
  });
  conn.listen();
  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(dir).href,
    capabilities: { workspace: { configuration: true }, ...(committed ? { experimental: { [COMMITTED_TEXT_CAPABILITY]: true } } : {}) },
  });
  await conn.sendNotification('initialized', {});
  return { conn, child, asked };
}

async function stop(c: Client): Promise<void> {
  try {
    await c.conn.sendRequest('shutdown');
    await c.conn.sendNotification('exit');
  } catch {
    // already gone
  }
  c.conn.dispose();
  c.child.kill();
}

describe('contracts over LSP: unknowns and the comparison with the last commit', () => {
  let dir: string;
  let uri: string;
  let client: Client;

  before(async () => {
    assert.ok(fs.existsSync(bundle), `${bundle} is missing: npm test builds it first`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-compare-lsp-'));
    fs.writeFileSync(path.join(dir, 'models.py'), MODELS_NOW);
    fs.writeFileSync(path.join(dir, 'extension.py'), CURRENT);
    uri = pathToFileURL(path.join(dir, 'extension.py')).href;
    client = await start(dir, true);
    // Requests about a document answer from an empty one until its first version is analysed: wait for its diagnostics.
    const analysed = new Promise<void>((resolve) => client.conn.onNotification('textDocument/publishDiagnostics', (p: { uri: string }) => p.uri === uri && resolve()));
    await client.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text: CURRENT } });
    await analysed;
  });

  after(async () => {
    await stop(client);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const lineOf = (needle: string) => CURRENT.split('\n').findIndex((l) => l.includes(needle));

  it('answers the contract request and the hovers on a file with parenthesised defaults', async () => {
    const line = lineOf('def page');
    const result = (await client.conn.sendRequest(SymbolContractRequest, { uri, position: { line, character: 5 } })) as SymbolContractResult;
    assert.equal((result!.contract as { signature: string }).signature, "(query: str, offset: int = -1, size: int = 3) -> 'Page'");
    assert.deepEqual(result!.unknowns, []);
    const kitLine = lineOf('vis.Symbol(Kit');
    const kitAt = CURRENT.split('\n')[kitLine].indexOf('Kit()');
    const hover = (await client.conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: kitLine, character: kitAt } })) as { contents: { value: string } };
    assert.match(hover.contents.value, /\| `kit\.first` \| observation \| `\(n: int = -1\) -> int` \|/);
    assert.match(hover.contents.value, /\| `kit\.last` \| observation \| `\(\) -> int` \|/);
  });

  it('hovers a Symbol whose contract is not known with the reason', async () => {
    const line = lineOf('vis.Symbol(make_tool())');
    const character = CURRENT.split('\n')[line].indexOf('vis.Symbol(make_tool())') + 2;
    const hover = (await client.conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character } })) as { contents: { value: string } };
    assert.equal(hover.contents.value, '**Vis Symbol** · contract not statically known: its first argument is a call result (`make_tool()`): Vis exports whatever the call returns when the module runs.');
  });

  it('lists the tools whose contract is not known in the document status', async () => {
    const status = (await client.conn.sendRequest(DocumentStatusRequest, { uri })) as DocumentStatusResult;
    assert.deepEqual(status.unknownTools, [{ where: 'make_tool()', reason: 'its first argument is a call result (`make_tool()`): Vis exports whatever the call returns when the module runs' }]);
  });

  const EXPECTED = [
    'Contract changes since HEAD (1a2b3c4): 1 tool changed, 2 added; 1 breaking change.',
    '',
    'page',
    '  parameter offset: default 0 → default -1',
    '  parameter size: int = 3 added (optional)',
    '  BREAKING field Page.score (returns) removed',
    '',
    'kit.first',
    '  tool added: kit.first(n: int = -1) -> int',
    '',
    'kit.last',
    '  tool added: kit.last() -> int',
    '',
    'make_tool()',
    '  not compared: its contract is not statically known now (its first argument is a call result (`make_tool()`): Vis exports whatever the call returns when the module runs)',
    '',
  ].join('\n');

  it('compares the contracts with the committed entry and sibling module the client provides', async () => {
    const r = (await client.conn.sendRequest(CompareContractsRequest, { uri })) as CompareContractsResult;
    assert.equal(r.text, EXPECTED);
    assert.equal(r.base, 'HEAD (1a2b3c4)');
    assert.equal(r.breaking, 1);
    assert.deepEqual(r.changes[2], { tool: 'page', kind: 'field-removed', breaking: true, message: 'field Page.score (returns) removed', before: 'score: float' });
    assert.ok(client.asked.includes('extension.py') && client.asked.includes('models.py'), JSON.stringify(client.asked));
  });

  it('ends the docs preview with the same comparison', async () => {
    const preview = (await client.conn.sendRequest(PreviewDocsRequest, { uri })) as PreviewDocsResult;
    assert.ok(preview.text.endsWith(`## Changes since HEAD (1a2b3c4) · not counted\n\n\`\`\`text\n${EXPECTED}\`\`\`\n`), preview.text);
    assert.ok(
      preview.text.includes(
        '## Tool make_tool(): contract not statically known · not counted\n\n> ' +
          `${fileURLToPath(uri)}:${lineOf('vis.Symbol(make_tool())') + 1}: its first argument is a call result (\`make_tool()\`): Vis exports whatever the call returns when the module runs. ` +
          'Vis shows the model an apropos row and a doc(name) page for it, which cannot be read without running the module.\n',
      ),
      preview.text,
    );
    assert.equal(preview.parts[preview.parts.length - 1].title, 'Changes since HEAD (1a2b3c4)');
    assert.equal(preview.parts[preview.parts.length - 1].tokens, 0);
  });

  it('says so when the editor provides no committed versions, and leaves the section out of the preview', async () => {
    const plain = await start(dir, false);
    try {
      await plain.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text: CURRENT } });
      const r = (await plain.conn.sendRequest(CompareContractsRequest, { uri })) as CompareContractsResult;
      assert.deepEqual(r, {
        base: null,
        text: 'This editor does not provide committed file versions (VS Code does, through its Git extension); run `vis-authoring contracts --diff HEAD` instead.\n',
        changes: [],
        breaking: 0,
      });
      const preview = (await plain.conn.sendRequest(PreviewDocsRequest, { uri })) as PreviewDocsResult;
      assert.ok(!preview.text.includes('Changes since'), preview.text);
      assert.deepEqual(plain.asked, []);
    } finally {
      await stop(plain);
    }
  });
});
