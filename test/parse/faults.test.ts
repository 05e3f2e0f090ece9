// Parser faults are contained: a trap inside tree-sitter (simulated with the parser's test hook, a
// WebAssembly.RuntimeError thrown from inside a parse) replaces the runtime with a fresh one, the
// document that caused it gets one ANA-001 finding, and every other document keeps working.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Analyzer, analyzeText } from '../../server/src/analysis';
import { initParser, injectParserFault, parserEpoch, parserFaults } from '../../server/src/parse/parser';

before(async () => {
  await initParser();
});

const GOOD = 'import blockether.vis.extension as vis\n\nvis.register_extension(vis.Extension(name="", description="d"))\n';
/** Lets the background work make a new spare runtime after a fault. */
const spareMade = () => new Promise((r) => setTimeout(r, 300));

describe('parser faults', () => {
  it('retries once on a fresh runtime: one fault leaves no trace in the findings', async () => {
    const analyzer = new Analyzer();
    analyzer.analyze('file:///a.py', 1, GOOD);
    const epoch = parserEpoch();
    const faults = parserFaults();
    injectParserFault(1);
    const a = analyzer.analyze('file:///a.py', 2, GOOD.replace('"d"', '"dd"'));
    assert.deepEqual(a.findings.map((f) => f.rule), ['EXT-003']);
    assert.equal(parserFaults(), faults + 1);
    assert.equal(parserEpoch(), epoch + 1);
    await spareMade();
  });

  it('gives a document that faults again on the fresh runtime one ANA-001 finding, and keeps the others working', async () => {
    const analyzer = new Analyzer();
    analyzer.analyze('file:///other.py', 1, GOOD);
    injectParserFault(2);
    const poison = analyzer.analyze('file:///poison.py', 1, GOOD);
    assert.deepEqual(poison.findings.map((f) => [f.rule, f.severity, f.message, f.range]), [
      [
        'ANA-001',
        'warning',
        'vis-authoring could not analyse this file: the parser failed (RuntimeError: memory access out of bounds)',
        { start: { line: 0, character: 0 }, end: { line: 0, character: 38 } },
      ],
    ]);
    // The same version is not parsed again.
    const analysed = analyzer.program.modules.analyses;
    assert.deepEqual(analyzer.analyze('file:///poison.py', 1, GOOD).findings, poison.findings);
    assert.equal(analyzer.program.modules.analyses, analysed);
    await spareMade();
    // Other documents: a new version of an open one is analysed on the fresh runtime.
    assert.deepEqual(analyzer.analyze('file:///other.py', 2, GOOD.replace('name=""', 'name="x"')).findings, []);
    // The poison document's next version is tried again.
    assert.deepEqual(analyzer.analyze('file:///poison.py', 2, GOOD + '\n').findings.map((f) => f.rule), ['EXT-003']);
  });

  it('says nothing about a file that does not import the Vis SDK', async () => {
    await spareMade();
    injectParserFault(2);
    assert.deepEqual(analyzeText('file:///plain.py', 'x = 1\n').findings, []);
    await spareMade();
  });
});
