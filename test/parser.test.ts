import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { DocumentCache, allStatements, diffEdit, initParser, parseDocument } from '../server/src/parse/parser';

before(async () => {
  await initParser();
});

const outline = (text: string) => {
  const { statements, trees } = allStatements(parseDocument(text));
  try {
    return statements.map((n) => `${n.startPosition.row}:${n.type}:${text.slice(n.startIndex, n.endIndex).split('\n')[0]}`);
  } finally {
    for (const t of trees) t.delete();
  }
};

describe('parser', () => {
  it('parses a clean file into its top-level statements', () => {
    assert.deepEqual(outline('import os\n\ndef f(x):\n    return x\n\nclass C:\n    pass\n'), [
      '0:import_statement:import os',
      '2:function_definition:def f(x):',
      '5:class_definition:class C:',
    ]);
  });

  it('keeps the statements after an unclosed call at the top level', () => {
    const text = 'import os\n\nx = foo(1, 2,\n\ndef b(x):\n    """doc"""\n    return x\n\nvis.register_extension(vis.Extension(\n    name="a",\n\nclass C:\n    pass\n';
    assert.deepEqual(outline(text), [
      '0:import_statement:import os',
      '2:expression_statement:x = foo(1, 2,',
      '4:function_definition:def b(x):',
      '8:expression_statement:vis.register_extension(vis.Extension(',
      '11:class_definition:class C:',
    ]);
  });

  it('recovers when the file starts with the broken statement', () => {
    assert.deepEqual(outline('foo(\n\ndef b():\n    pass\n'), ['0:expression_statement:foo(', '2:function_definition:def b():']);
  });

  it('does not resume inside a string of the broken statement', () => {
    const text = 'x = f("""\ndef not_a_function():\n""",\n\ndef real():\n    pass\n';
    assert.deepEqual(outline(text), ['0:expression_statement:x = f("""', '4:function_definition:def real():']);
  });

  it('computes the smallest single edit between two texts', () => {
    assert.deepEqual(diffEdit('abcdef', 'abXYef'), { start: 2, oldEnd: 4, newEnd: 4, oldText: 'abcdef' });
    assert.deepEqual(diffEdit('aaa', 'aaaa'), { start: 3, oldEnd: 3, newEnd: 4, oldText: 'aaa' });
  });

  it('segments a new version from the last one: the same segments as a fresh parse, unchanged ones marked', () => {
    const cache = new DocumentCache();
    const v1 = 'def f(x):\n    return x\n\ndef g():\n    pass\n\nclass C:\n    pass\n';
    const v2 = v1.replace('return x', 'return x + 1\n    # more');
    const first = cache.get('file:///a.py', 1, v1);
    const doc = cache.get('file:///a.py', 2, v2);
    const shape = (d: typeof doc) => d.segments.map((s) => [s.start, s.end, s.row, s.broken]);
    assert.deepEqual(shape(doc), shape(parseDocument(v2)));
    // def g and class C are the same text one row further down; def f changed.
    assert.deepEqual(
      doc.segments.map((s) => s.from && [first.segments.indexOf(s.from.seg), s.from.rows]),
      [undefined, [1, 1], [2, 1]],
    );
    assert.equal(cache.get('file:///a.py', 2, v2), doc);
  });
});
