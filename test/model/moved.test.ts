// A statement moved by lines added above it is a moved copy of its fragment: what a function body binds
// (its locals, a Set) must survive the copy, so the runtime-call rules read it after a line break as they
// do in a fresh analysis (a bug made the copy a plain object: a TypeError, taken for a parser fault).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Analyzer, analyzeText } from '../../server/src/analysis';
import { initParser, parserFaults } from '../../server/src/parse/parser';

before(async () => {
  await initParser();
});

const TEXT = [
  'import blockether.vis.extension as vis',
  '',
  '',
  'def greet(name: str) -> str:',
  '    """Greet one person."""',
  '    count = 1',
  '    vis.lgo("info", f"hi {name} {count}")',
  '    return name',
  '',
  '',
  'vis.register_extension(vis.Extension(name="g", description="d", alias="g", symbols=[vis.Symbol(greet, tag="observation")]))',
  '',
].join('\n');

const shown = (a: { findings: { rule: string; message: string; range: unknown }[] }) => a.findings.map((f) => [f.rule, f.message, f.range]);

describe('moved statements', () => {
  it('keeps a function body’s locals when lines are added above it', () => {
    const analyzer = new Analyzer();
    const faults = parserFaults();
    const first = analyzer.analyze('file:///moved.py', 1, TEXT);
    assert.ok(first.findings.length > 0, 'the misspelt vis.lgo is reported');
    for (let v = 2; v <= 4; v++) {
      const text = '\n'.repeat(v - 1) + TEXT;
      assert.deepEqual(shown(analyzer.analyze('file:///moved.py', v, text)), shown(analyzeText('file:///fresh.py', text)));
    }
    assert.equal(parserFaults(), faults);
  });
});
