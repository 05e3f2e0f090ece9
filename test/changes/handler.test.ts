import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import {
  createConnection,
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type Connection,
  type MessageConnection,
} from 'vscode-languageserver/node';
import { LineChangesRequest } from '../../shared/protocol';
import { registerLineChanges } from '../../server/src/changes/handler';

let server: Connection;
let client: MessageConnection;

before(() => {
  const up = new PassThrough();
  const down = new PassThrough();
  server = createConnection(up, down);
  registerLineChanges(server);
  server.listen();
  client = createMessageConnection(new StreamMessageReader(down), new StreamMessageWriter(up));
  client.listen();
});

after(() => {
  client.dispose();
  server.dispose();
});

describe('visAuthoring/lineChanges request', () => {
  it('answers the counts for two texts over JSON-RPC', async () => {
    const result = await client.sendRequest(LineChangesRequest, { before: 'a\nb\nc\n', after: 'a\nB\nc\nd\n' });
    assert.deepEqual(result, { added: 2, removed: 1 });
  });

  it('answers zeros for equal texts and counts a lost final newline', async () => {
    assert.deepEqual(await client.sendRequest(LineChangesRequest, { before: 'x\n', after: 'x\n' }), { added: 0, removed: 0 });
    assert.deepEqual(await client.sendRequest(LineChangesRequest, { before: 'x\n', after: 'x' }), { added: 1, removed: 1 });
  });

  it('rejects params without two strings as invalid', async () => {
    await assert.rejects(client.sendRequest(LineChangesRequest, { before: 'x' }), (e: { code?: number }) => e.code === -32602);
  });
});
