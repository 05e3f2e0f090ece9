// Long runs of comment lines: tree-sitter-python's scanner takes time in the square of such a run after a
// statement (a block of 8,000 commented-out lines took 18 s), so where a part of a file has many comment
// lines tree-sitter reads them as spaces. The model is the same as with the comments read: the same
// declarations, findings and ranges, suppression comments honoured, and a string whose lines start with
// `#` read as written.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Analyzer } from '../../server/src/analysis';
import { initParser } from '../../server/src/parse/parser';

before(async () => {
  await initParser();
});

const lines = (n: number, line: string) => line.repeat(n);
const describeAnalysis = (a: ReturnType<Analyzer['analyze']>) => ({
  findings: a.findings.map((f) => `${f.rule}@${f.range.start.line}:${f.range.start.character}-${f.range.end.line}:${f.range.end.character}`),
  functions: a.model.functions.map((f) => `${f.name}@${f.range.start.line} ${JSON.stringify(f.docstring)}`),
});

describe('runs of comment lines', () => {
  it('give the model and findings of the same file with blank lines in their place, and a string of #-lines stays as written', () => {
    const doc = `"""Tools.\n${lines(150, '# not a comment: inside the docstring\n')}"""\n`;
    const body = (filler: (n: number) => string) =>
      'import blockether.vis.extension as vis\n\n\n' +
      `def hello(name: str) -> str:\n    ${doc.replace(/\n(?!$)/g, '\n    ')}${filler(300)}    return name  # the result\n${filler(4000)}\n` +
      `vis.register_extension(vis.Extension(name="", description="d", symbols=[hello]))  # vis: ignore[EXT-009]\n${filler(8000)}`;
    const commented = body((n) => lines(n, '    # commented(out, code)\n'));
    const blank = body((n) => lines(n, '\n'));
    assert.equal(commented.split('\n').length, blank.split('\n').length);
    const a = describeAnalysis(new Analyzer().analyze('file:///c/commented.py', 1, commented));
    const b = describeAnalysis(new Analyzer().analyze('file:///c/blank.py', 1, blank));
    assert.deepEqual(a, b);
    // EXT-003 on the empty name; EXT-009 (symbols=[hello]) suppressed by its comment.
    // EXT-003 on the empty name, the call's first error; its EXT-009 (symbols=[hello]) is suppressed by its comment.
    assert.deepEqual(a.findings, ['EXT-003@4458:42-4458:44']);
    assert.equal(a.functions.length, 1);
    assert.ok(a.functions[0].includes('# not a comment: inside the docstring'), a.functions[0]);
  });
});
