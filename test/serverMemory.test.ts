// The bundled server's memory over stdio stays bounded while large documents come and go. A document of
// a megabyte grows the parser's WebAssembly heap past its bound, and the runtime is replaced by a fresh
// one once the parse is done; the old runtime, its memory with it, must then be collected. (Node kept every
// replaced runtime alive in the requiring module's `children`: each cycle below added ~70 MB, and the LSP
// fuzz reached 23 GB.)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from './helpers/lsp';

/** One statement of ~1 MB: a data literal, whose parse grows the parser's heap to ~80 MB. */
const BIG = 'DATA = {\n' + Array.from({ length: 20_000 }, (_, i) => `    "key_${i}": [${i}, "value ${i}", {"n": ${i}}],\n`).join('') + '}\n';

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

describe('server memory over open/close cycles of large documents', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  it('stays bounded: six documents of a megabyte opened, analysed and closed, one after the other', async () => {
    const figures: number[] = [];
    for (let i = 0; i < 6; i++) {
      const uri = `file:///tmp/vis-memory/big_${i}.py`;
      const published = await server.open(uri, BIG);
      assert.deepEqual(published.diagnostics, [], 'a data literal is no Vis declaration');
      await server.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
      // A turn for the runtime to be replaced, then a small request so that the server has gone on.
      await new Promise((r) => setTimeout(r, 100));
      await server.connection.sendRequest('textDocument/hover', { textDocument: { uri: 'file:///tmp/vis-memory/none.py' }, position: { line: 0, character: 0 } });
      figures.push(rssMb(server.process.pid!));
    }
    const growth = figures[5] - figures[1];
    assert.ok(growth < 150, `RSS after each cycle (MB): ${figures.map(Math.round).join(', ')}: grew ${Math.round(growth)} MB over four cycles`);
  });
});
