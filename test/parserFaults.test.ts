// Parser faults over stdio: a document that traps the parser on its runtime and again on the fresh one
// it is retried on must not leave the other documents without a parser. (Right after two faults in a
// row no runtime was ready for a moment: a hover on another document, which reads its function's
// parameters lazily, answered null and the log recorded the failure.) The faults are the server's test
// hook: with VIS_AUTHORING_TEST_FAULT set, every parse of a text holding its value traps.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fs from 'node:fs';
import { startServer, type TestServer } from './helpers/lsp';

/** The WebAssembly memories alive in a process (V8 reserves 4 GiB or more of address space for each; nothing else maps that much). */
function wasmMemories(pid: number): number {
  let n = 0;
  for (const line of fs.readFileSync(`/proc/${pid}/maps`, 'utf8').split('\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) /.exec(line);
    if (m && parseInt(m[2], 16) - parseInt(m[1], 16) >= 4 * 2 ** 30) n++;
  }
  return n;
}

const MARKER = 'TRAP-THE-PARSER';
const GOOD = 'import blockether.vis.extension as vis\n\n\ndef hello(name: str, times: int = 2) -> str:\n    """Say hello."""\n    return name\n\n\nvis.register_extension(vis.Extension(name="hi", description="d", alias="hi", symbols=[vis.Symbol(hello)]))\n';
const POISON = GOOD.replace('"""Say hello."""', `"""Say hello. ${MARKER}"""`);

describe('a document that faults the parser twice in a row (over stdio)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({}, { env: { VIS_AUTHORING_TEST_FAULT: MARKER } });
  });
  after(async () => {
    await server.stop();
  });

  it('gets one ANA-001 finding, while hovers on other documents answer from their analysis at once', async () => {
    // Two spares are ready a second after start-up.
    await new Promise((r) => setTimeout(r, 1500));
    const line = GOOD.split('\n').length - 2;
    const at = { line, character: GOOD.split('\n')[line].indexOf('Symbol(hello') + 8 };
    const hovers: unknown[] = [];
    for (let round = 0; round < 3; round++) {
      // A fresh document each round, so that its parameters are read for the first time by the hover.
      const good = `file:///tmp/vis-faults/good_${round}.py`;
      await server.open(good, GOOD);
      const poison = `file:///tmp/vis-faults/poison_${round}.py`;
      const published = server.diagnostics(poison);
      void server.open(poison, POISON);
      const hover = server.connection.sendRequest('textDocument/hover', { textDocument: { uri: good }, position: at });
      assert.deepEqual(
        (await published).diagnostics.map((d) => [d.code, d.message]),
        [['ANA-001', 'vis-authoring could not analyse this file: the parser failed (RuntimeError: memory access out of bounds)']],
      );
      hovers.push(await hover);
      // Time for the spares to be made again.
      await new Promise((r) => setTimeout(r, 600));
    }
    for (const h of hovers) assert.match(JSON.stringify(h), /times: int = 2/, `the hover answered ${JSON.stringify(h)}`);
    assert.deepEqual(server.logs.filter((l) => /failed|restarting|unhandled|uncaught/.test(l)), []);
  });

  it('stops faulting once two poison documents opened together have their finding: no runtime after runtime', async () => {
    // The first document uses the runtime and its spare; the second finds no runtime and waits for one.
    // It must then fault at most twice (on the runtime and on a spare) and get its finding. (It waited
    // for a runtime alone, faulted on it, found no spare, waited again, and so on, for as long as the
    // server ran: a new runtime every few hundred milliseconds, none of them collected for a while.)
    await new Promise((r) => setTimeout(r, 1500));
    const uris = ['file:///tmp/vis-faults/both_a.py', 'file:///tmp/vis-faults/both_b.py'];
    const published = uris.map((u) => server.diagnostics(u));
    for (const u of uris) void server.open(u, POISON);
    for (const p of published) assert.deepEqual((await p).diagnostics.map((d) => d.code), ['ANA-001']);
    const pid = server.process.pid!;
    const counts: number[] = [];
    for (let k = 0; k < 10; k++) {
      await new Promise((r) => setTimeout(r, 200));
      counts.push(wasmMemories(pid));
    }
    // The current runtime, its two spares, and those dropped and not yet collected: a handful, not growing.
    assert.ok(Math.max(...counts) <= 8 && counts[9] <= counts[0], `WebAssembly memories alive: ${counts.join(', ')}`);
    const good = 'file:///tmp/vis-faults/after_both.py';
    assert.deepEqual((await server.open(good, GOOD)).diagnostics.map((d) => d.code), ['SYM-008']);
  });
});
