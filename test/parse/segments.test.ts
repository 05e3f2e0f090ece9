// Cutting a file into its top-level statements from the text: on valid files the statements are exactly
// those tree-sitter finds parsing the whole file; a new version's segments (and line starts), found from
// the last one's, are exactly those of the new text; broken statements are cut where the next one starts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { generateExtension } from '../../bench/generate';
import { allStatements, diffEdit, initParser, newParser, parseDocument, wholeCommentSpans } from '../../server/src/parse/parser';
import { lineStartsOf, resegment, resegmentInParts, segmentProgress, segmentText, segmentTextInParts, type BrokenCheck, type Segment } from '../../server/src/parse/segments';
import { SliceExpired, runInSlices, sliceModule } from '../../server/src/slices';

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

  /** Pauses at every `every`-th segment start it is asked about. */
  const pausing = (every: number) => {
    let asked = 0;
    return () => ++asked % every === 0;
  };
  /** Runs a segmenting in parts to its end; the segments and the number of parts. */
  const inParts = (part: (p: ReturnType<typeof segmentProgress>) => Segment[] | undefined) => {
    const progress = segmentProgress();
    for (let parts = 1; ; parts++) {
      const out = part(progress);
      if (out) return { segments: out, parts };
      assert.ok(parts < 1e6);
    }
  };

  it('segments a text in parts exactly as in one pass, with the broken-statement check and its recoveries counted across parts', () => {
    const parser = newParser();
    // Whether a segment's text parses (segments cut inside a stray triple quote are checked so).
    const broken = (text: string): BrokenCheck => (seg) => {
      const tree = parser.parse(text.slice(seg.start, seg.end))!;
      try {
        return tree.rootNode.hasError;
      } finally {
        tree.delete();
      }
    };
    const texts = [
      ...pythonFiles().map((f) => fs.readFileSync(f, 'utf8')),
      generateExtension(20, 600),
      // Unclosed brackets past the most recoveries one pass makes, and stray triple quotes.
      Array.from({ length: 90 }, (_, i) => `x${i} = foo(${i},\n`).join(''),
      Array.from({ length: 30 }, (_, i) => `def f${i}():\n    """Doc.""x"\n    return 1\n\n\nH${i} = [1]\n`).join(''),
    ];
    let paused = 0;
    for (const text of texts) {
      for (const every of [1, 2, 7]) {
        const whole = segmentText(text, broken(text));
        const { segments, parts } = inParts((p) => segmentTextInParts(text, p, pausing(every), broken(text)));
        assert.deepEqual(shape(segments), shape(whole));
        if (parts > 1) paused++;
      }
    }
    parser.delete();
    assert.ok(paused > 50, `${paused} texts segmented in more than one part`);
  });

  it('finds the segments of a new version in parts exactly as in one pass', () => {
    const base = generateExtension(30, 900);
    let seed = 5;
    const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % k);
    const chars = ['x', '(', ')', '"""', '\n', '[', '@', '#', "'", '', '\ndef z():\n', '\nfoo(\n'];
    let text = base;
    let segments = segmentText(text);
    let paused = 0;
    for (let i = 0; i < 400; i++) {
      const at = rnd(text.length);
      const next = i % 50 === 49 ? base : text.slice(0, at) + chars[rnd(chars.length)] + text.slice(at + (rnd(3) === 0 ? rnd(6) : 0));
      const edit = diffEdit(text, next);
      const once = resegment(segments, next, edit);
      const { segments: again, parts } = inParts((p) => resegmentInParts(segments, next, edit, p, pausing(1 + (i % 3))));
      if (parts > 1) paused++;
      assert.deepEqual(shape(again), shape(once), `edit ${i}`);
      assert.deepEqual(again.map((s) => s.from && [s.from.seg.start, s.from.rows]), once.map((s) => s.from && [s.from.seg.start, s.from.rows]), `unchanged segments after edit ${i}`);
      for (const s of again) delete s.from;
      text = next;
      segments = again;
    }
    assert.ok(paused > 100, `${paused} edits segmented in more than one part`);
  });

  it('segments a large document in a sliced job over several slices, as outside one', async () => {
    const text = generateExtension(300, 9000);
    const uri = 'file:///tmp/segments/big.py';
    let slices = 0;
    const doc = await runInSlices(uri, () => sliceModule(uri, () => parseDocument(text)), { sliceMs: 1, onSlice: () => slices++ });
    assert.ok(slices > 3, `${slices} slices`);
    assert.deepEqual(shape(doc.segments), shape(parseDocument(text).segments));
  });

  it('gives a later slice the document segmented in an earlier one, as it was, when work after the segmenting ran out of time', async () => {
    // A text and an edit of it: each segmented in the first slice, then the work after it (the model
    // build, the joins) runs out of time twice, and each later slice asks for the document again.
    const old = parseDocument(generateExtension(5, 150));
    const text = old.text.replace('def ', 'def  ');
    for (const [uri, parse] of [
      ['file:///tmp/segments/done.py', () => parseDocument(text)],
      ['file:///tmp/segments/done-edit.py', () => parseDocument(text, old, diffEdit(old.text, text))],
    ] as const) {
      const docs: ReturnType<typeof parseDocument>[] = [];
      const doc = await runInSlices(uri, () =>
        sliceModule(uri, () => {
          docs.push(parse());
          if (docs.length < 3) throw new SliceExpired();
          return docs.at(-1)!;
        }),
      );
      assert.equal(docs.length, 3);
      assert.ok(docs.every((d) => d === doc));
      assert.deepEqual(shape(doc.segments), shape(parseDocument(text).segments), uri);
    }
  });

  it('starts a segmenting in parts over when the next part is asked for the same text from another old version', async () => {
    const text = generateExtension(50, 1500);
    const uri = 'file:///tmp/segments/again.py';
    const old = parseDocument('x = 1\n');
    let calls = 0;
    // The first slice cuts part of the text as a first version; the next ones are asked for it as an edit of `old`.
    const doc = await runInSlices(uri, () => sliceModule(uri, () => (++calls === 1 ? parseDocument(text) : parseDocument(text, old, diffEdit(old.text, text)))), { sliceMs: 0 });
    assert.ok(calls > 2, `${calls} slices`);
    assert.equal(doc.editRows?.from.deref(), old);
    assert.deepEqual(shape(doc.segments), shape(parseDocument(text).segments));
  });

  it('finds the comments of a whole document in parts in a sliced job, as in one scan', async () => {
    const text = generateExtension(100, 3000) + Array.from({ length: 400 }, (_, i) => `# note ${i} "not a string\nx${i} = "# not a comment"  # a comment\n`).join('');
    const uri = 'file:///tmp/segments/comments.py';
    const doc = parseDocument(text);
    const once = wholeCommentSpans(doc)!;
    assert.ok(once.length > 1600);
    let slices = 0;
    const parts = await runInSlices(uri, () => sliceModule(uri, () => wholeCommentSpans(doc)), { sliceMs: 0, onSlice: () => slices++ });
    assert.ok(slices > 1, `${slices} slices`);
    assert.deepEqual([...parts!], [...once]);
  });
});
