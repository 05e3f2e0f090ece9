// The parser's WebAssembly heap only grows; a large file's parse grows it past the bound, and the runtime
// is replaced once the parse is done (no tree outlives the reading of its statement), so the memory goes
// back. Documents go on being analysed on the fresh runtime, the large one included.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { generateExtension } from '../../bench/generate';
import { Analyzer } from '../../server/src/analysis';
import { HEAP_BOUND, INITIAL_HEAP, initParser, parserHeap } from '../../server/src/parse/parser';

before(async () => {
  await initParser();
});

const nextTurn = () => new Promise((r) => setImmediate(r));
/** Lets the background work make a new spare runtime. */
const spareMade = () => new Promise((r) => setTimeout(r, 300));

describe('the parser heap', () => {
  it('is given back after a large file is parsed, and analysis goes on on the fresh runtime', async () => {
    await spareMade();
    const big = generateExtension(1200, 32000);
    const analyzer = new Analyzer();
    const before = parserHeap().recycles;
    const first = analyzer.analyze('file:///big.py', 1, big);
    assert.ok(parserHeap().bytes > HEAP_BOUND, `the heap grew to ${parserHeap().bytes} bytes`);
    await nextTurn();
    await nextTurn();
    assert.equal(parserHeap().recycles, before + 1);
    assert.equal(parserHeap().bytes, INITIAL_HEAP);
    // An edit of the large file, and another document, on the fresh runtime.
    const at = big.indexOf('def tool_300(');
    const edited = analyzer.analyze('file:///big.py', 2, big.slice(0, at) + 'x' + big.slice(at));
    assert.equal(edited.findings.filter((f) => f.rule !== 'SYN-002').length, first.findings.length - 1, 'tool_300 is no longer a function, so its Symbol has no activity finding');
    assert.deepEqual(edited.findings.filter((f) => f.rule === 'SYN-002').map((f) => `${f.range.start.line}: ${f.message}`), [`${big.slice(0, at).split('\n').length - 1}: invalid syntax`]);
    assert.deepEqual(
      analyzer.analyze('file:///small.py', 1, 'import blockether.vis.extension as vis\n\nvis.register_extension(vis.Extension(name="", description="d"))\n').findings.map((f) => f.rule),
      ['EXT-003'],
    );
    await spareMade();
  });
});
