// Cutting a file into its top-level statements from the text: on valid files the statements are exactly
// those tree-sitter finds parsing the whole file; a new version's segments (and line starts), found from
// the last one's, are exactly those of the new text; broken statements are cut where the next one starts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { generateExtension } from '../../bench/generate';
import { allStatements, diffEdit, initParser, newParser, parseDocument } from '../../server/src/parse/parser';
import { lineStartsOf, resegment, segmentText, type Segment } from '../../server/src/parse/segments';

before(async () => {
  await initParser();
});

const root = path.join(__dirname, '..', '..');

/** Every Python file of the repository's examples and test fixtures. */
function pythonFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory() && e.name !== 'node_modules') walk(full);
      else if (e.name.endsWith('.py')) out.push(full);
    }
  };
  walk(path.join(root, 'examples'));
  walk(path.join(root, 'test'));
  return out;
}

const shape = (segments: Segment[]) => segments.map((s) => [s.start, s.end, s.row, s.broken, s.limit?.message]);

describe('segments', () => {
  it('gives every valid file the statements tree-sitter finds in the whole file', () => {
    const parser = newParser();
    const texts = [...pythonFiles().map((f) => fs.readFileSync(f, 'utf8')), generateExtension(40, 1200)];
    let compared = 0;
    for (const text of texts) {
      const tree = parser.parse(text)!;
      try {
        if (tree.rootNode.hasError) continue;
        const whole = tree.rootNode.namedChildren.map((n) => `${n!.type}@${n!.startIndex}-${n!.endIndex}`);
        const { statements, trees } = allStatements(parseDocument(text));
        const parts = statements.map((n) => `${n.type}@${n.startIndex}-${n.endIndex}`);
        for (const t of trees) t.delete();
        assert.deepEqual(parts, whole);
        compared++;
      } finally {
        tree.delete();
      }
    }
    parser.delete();
    assert.ok(compared >= 20, `${compared} files compared`);
  });

  it('keeps decorators, else/elif/except/finally clauses, continuations and brackets with their statement', () => {
    const text = '@a\n# c\n@b(\n  1)\ndef f():\n  pass\nelse_ = 1\nif x:\n  pass\nelif y:\n  pass\nelse:\n  pass\ntry:\n  pass\nexcept E:\n  pass\nfinally:\n  pass\nx = 1 + \\\n2\nfoo(\na=1,\n)\n';
    assert.deepEqual(
      segmentText(text).map((s) => text.slice(s.start, s.end).split('\n')[0]),
      ['@a', 'else_ = 1', 'if x:', 'try:', 'x = 1 + \\', 'foo('],
    );
  });

  it('cuts a statement with an unclosed bracket or triple quote where the next statement starts', () => {
    const cut = (text: string) => segmentText(text).map((s) => `${s.row}${s.broken ? '!' : ''}:${text.slice(s.start, s.end).split('\n')[0]}`);
    assert.deepEqual(cut('x = foo(1,\n\ndef b():\n    pass\n\ny = [\n'), ['0!:x = foo(1,', '2:def b():', '5!:y = ['], 'an unclosed call');
    assert.deepEqual(cut('def a():\n    """Doc.""x"\n    return 1\n\n\nHOOKS = [1]\n\ndef b():\n    """B."""\n'), ['0!:def a():', '5:HOOKS = [1]', '7:def b():'], 'a broken docstring');
    assert.deepEqual(cut('"""Module.""x"\n\nimport os\n\ndef f():\n    """F."""\n'), ['0!:"""Module.""x"', '2:import os', '4:def f():'], 'a broken module docstring');
  });

  it('finds the segments of a new version from the old ones, exactly as from the new text', () => {
    const base = generateExtension(30, 900);
    let seed = 3;
    const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % k);
    const chars = ['x', ' ', '(', ')', '"', '"""', '\n', '\t', '[', '@', '#', '\\', "'", '', 'else:', '\ndef z():\n'];
    let text = base;
    let segments = segmentText(text);
    for (let i = 0; i < 1500; i++) {
      const at = rnd(text.length);
      const next = i % 50 === 49 ? base : text.slice(0, at) + chars[rnd(chars.length)] + text.slice(at + (rnd(3) === 0 ? rnd(6) : 0));
      const edit = diffEdit(text, next);
      const again = resegment(segments, next, edit);
      assert.deepEqual(shape(again), shape(segmentText(next)), `edit ${i}`);
      assert.deepEqual([...lineStartsOf(next, lineStartsOf(text), edit)], [...lineStartsOf(next)], `line starts after edit ${i}`);
      // A segment said to be unchanged has the text it had.
      for (const s of again) if (s.from) assert.equal(next.slice(s.start, s.end), text.slice(s.from.seg.start, s.from.seg.end));
      for (const s of again) delete s.from;
      text = next;
      segments = again;
    }
  });
});
