// The language status item's request over LSP (the bundled server on stdio): the SDK version a document
// is checked against and what decided it, and `visAuthoring.contractFormat` following the profile.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DocumentStatusRequest, SymbolContractRequest, type DocumentStatusResult } from '../../shared/protocol';
import { startServer, type TestServer } from '../helpers/lsp';

const PINNED = [
  '# /// script',
  '# dependencies = ["vis-agent>=0.2.45"]',
  '# ///',
  'import blockether.vis.extension as vis',
  '',
  'def check(limit: int = 3):',
  '    """Run the checks."""',
  '',
  'vis.register(vis.Extension(name="acme", description="Acme.", alias="acme", symbols=[vis.Symbol(check, tag="verification")]))',
  '',
].join('\n');

const LS = [
  'import blockether.vis.extension as vis',
  '',
  'def check(limit: int = 3):',
  '    """Run the checks."""',
  '',
  'vis.register_extension(vis.Extension(name="acme", description="Acme.", alias="acme", symbols=[vis.Symbol(check)], language_tools=[]))',
  '',
].join('\n');

describe('SDK profile over LSP', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  it('the status names the version and what decided it, and the diagnostics follow it', async () => {
    const uri = 'file:///tmp/vis-sdk-status/extension.py';
    const published = server.diagnostics(uri);
    server.open(uri, PINNED);
    const { diagnostics } = await published;
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.message]),
      [
        ['REG-003', "module 'blockether.vis.extension' has no attribute 'register'"],
        ['SYM-008', 'vis.Symbol check has no activity=: declare vis.Activity(...) so the tool call is presented; without it only engine execution evidence is shown'],
      ],
    );
    const status = (await server.connection.sendRequest(DocumentStatusRequest, { uri })) as DocumentStatusResult;
    assert.equal(status.generation, 'G3');
    assert.equal(status.generationAssumed, false);
    assert.deepEqual(status.sdk, {
      release: 'extension.py @f3ef1e26 (G3, C3, 4 tags, settings; newest of the 4 G3 versions that fit)',
      decidedBy: ['vis-agent>=0.2.45 (the PEP 723 block, line 2)', "tag 'verification' (line 9)"],
    });
  });

  it('contractFormat auto renders the contract in the format of the file\'s SDK version (C2 for language_tools)', async () => {
    const uri = 'file:///tmp/vis-sdk-status/ls.py';
    const published = server.diagnostics(uri);
    server.open(uri, LS);
    await published;
    const result = (await server.connection.sendRequest(SymbolContractRequest, { uri, position: { line: 5, character: 100 } })) as { contract: { signature: string } } | null;
    assert.equal(result?.contract.signature, '(limit: int = ...)', 'C2 masks the literal default');
  });
});
