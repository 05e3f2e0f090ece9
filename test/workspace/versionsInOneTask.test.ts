// Versions of an open document analysed one after another in one task (a burst of changes handled
// together, a fix-all loop, a benchmark) keep no older version alive while the task runs. (A WeakRef
// keeps its target to the end of the task that made or read it: the edit path named earlier documents
// and models by WeakRefs, so each version analysed in the task kept its text, segments and model.)
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Analyzer } from '../../server/src/analysis';
import { initParser } from '../../server/src/parse/parser';

const tool = (i: number) => `def tool_${i}(target: str, limit: int = ${i}) -> int:\n    """Count ${i}."""\n    total = ${i}\n    total += len(target) * ${i} + limit  # ${'padding '.repeat(8)}\n    return total\n\n\n`;
const TEXT = `import blockether.vis.extension as vis\n\n${Array.from({ length: 600 }, (_, i) => tool(i)).join('')}vis.register_extension(vis.Extension(name="many", symbols=[vis.Symbol(tool_0)]))\n`;

describe('versions analysed in one task', () => {
  before(async () => {
    await initParser();
  });

  it('keep no older text, segments or model alive while the task runs', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const analyzer = new Analyzer();
    let version = 1;
    analyzer.analyze('file:///x/many.py', version++, TEXT);
    const heap = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    // Warm: what the first edits derive once (caches of the SDK table and the like).
    for (let i = 0; i < 4; i++) analyzer.analyze('file:///x/many.py', version++, TEXT.replace(`total = ${i}\n`, `total = ${i}0\n`));
    const before = heap();
    const versions = 40;
    for (let i = 0; i < versions; i++) {
      const at = TEXT.indexOf(`total = ${100 + i}\n`);
      analyzer.analyze('file:///x/many.py', version++, TEXT.slice(0, at) + 'x' + TEXT.slice(at));
      analyzer.analyze('file:///x/many.py', version++, TEXT);
    }
    const grown = heap() - before;
    // A version kept holds its text (128 KB) and its model, segments and findings besides: less than a
    // text's worth per version means none is kept (each was: 18 MB over these 80 versions).
    assert.ok(grown < 2 * versions * TEXT.length, `the heap grew ${(grown / 1048576).toFixed(1)} MB over ${2 * versions} versions analysed in one task (texts of ${(TEXT.length / 1024).toFixed(0)} KB)`);
  });
});
