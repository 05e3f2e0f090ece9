// The cursor context (server/src/editor/cursor.ts) at markers in inline Python: the call, the argument,
// the keywords given before and after the cursor, the brackets in between and the string the cursor is in.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cursorContext } from '../../server/src/editor/cursor';
import { fourslash } from '../helpers/fourslash';

function at(marked: string, marker = 'c') {
  const f = fourslash(marked);
  const lines = f.text.split('\n');
  const p = f.markers[marker];
  const offset = lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const ctx = cursorContext(f.text, offset);
  return {
    callee: ctx.call?.callee,
    index: ctx.call?.index,
    keyword: ctx.call?.keyword,
    positionalBefore: ctx.call?.positionalBefore,
    keywords: ctx.call?.keywords.map((k) => k.name),
    closed: ctx.call?.close !== undefined,
    nesting: ctx.nesting.map((n) => n.ch + (n.target ?? '')).join(''),
    subscript: ctx.subscript,
    string: ctx.string && f.text.slice(ctx.string.start, ctx.string.end),
    comment: ctx.comment,
    word: ctx.word.text,
  };
}

describe('cursor context', () => {
  it('finds the call, its argument and the keywords on both sides of the cursor', () => {
    assert.deepEqual(at('vis.Symbol(search, na/*c*/, tag="mutation")\n'), {
      callee: 'vis.Symbol', index: 1, keyword: undefined, positionalBefore: 1, keywords: ['tag'], closed: true, nesting: '', subscript: undefined, string: undefined, comment: false, word: 'na',
    });
  });

  it('knows the keyword of the argument the cursor is in, and the string it is in', () => {
    const r = at('vis.Symbol(search, tag="obs/*c*/", name="x")\n');
    assert.deepEqual([r.callee, r.index, r.keyword, r.keywords, r.string, r.word], ['vis.Symbol', 1, 'tag', ['tag', 'name'], 'obs', 'obs']);
  });

  it('goes through the brackets of an argument to the call', () => {
    const r = at('vis.Extension(name="n", env=["A", /*c*/\n');
    assert.deepEqual([r.callee, r.keyword, r.nesting, r.closed, r.keywords], ['vis.Extension', 'env', '[', false, ['name', 'env']]);
    const ops = at('vis.OpHook(["patch", "/*c*/"], fn)\n');
    assert.deepEqual([ops.callee, ops.index, ops.keyword, ops.nesting, ops.string], ['vis.OpHook', 0, undefined, '[', '']);
  });

  it('reads a call inside a function body, an unclosed call, and stops at the next top-level statement', () => {
    const body = at('def tool():\n    """Doc (with a paren."""\n    vis.log(/*c*/\n\ndef other(name=1):\n    pass\n');
    assert.deepEqual([body.callee, body.index, body.closed, body.keywords], ['vis.log', 0, false, []]);
    const nested = at('vis.register_extension(vis.Extension(name="x", symbols=[vis.Symbol(f, /*c*/)]))\n');
    assert.deepEqual([nested.callee, nested.index, nested.nesting], ['vis.Symbol', 1, '']);
  });

  it('answers at every offset of arbitrary text, inside its bounds', () => {
    // Seeded: brackets, quotes, comments, escapes and names in any order, as a file being typed has them.
    let seed = 13;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const pieces = ['(', ')', '[', ']', '{', '}', '"', "'", '"""', '#', '\\', '\n', '  ', ',', '=', '==', 'vis.Symbol', 'f', 'tag', 'r"', '*', ':='];
    for (let n = 0; n < 60; n++) {
      const text = Array.from({ length: 40 }, () => pieces[rand(pieces.length)]).join('');
      for (let offset = 0; offset <= text.length; offset++) {
        const c = cursorContext(text, offset);
        assert.ok(c.word.start >= 0 && c.word.start <= offset);
        if (c.string) assert.ok(c.string.start <= offset && offset <= c.string.end && c.string.end <= text.length, JSON.stringify([text, offset]));
        if (c.call) assert.ok(c.call.open < offset && c.call.argStart <= offset, JSON.stringify([text, offset]));
      }
    }
  });

  it('knows the name a bracket subscripts', () => {
    const r = at('def t():\n    return vis.tools["greet./*c*/"](x)\n');
    assert.deepEqual([r.callee, r.subscript, r.string], [undefined, 'vis.tools', 'greet.']);
    assert.equal(at('x = [/*c*/]\n').subscript, undefined);
    assert.equal(at('def t():\n    return [/*c*/]\n').subscript, undefined);
  });

  it('is not fooled by strings, comments, comparisons and walrus', () => {
    const r = at('f(a == 1, "x, y=(", b := 2, # c=(\n  /*c*/)\n');
    assert.deepEqual([r.callee, r.index, r.keyword, r.keywords, r.positionalBefore], ['f', 3, undefined, [], 3]);
    assert.equal(at('f(x)  # vis.Symbol(/*c*/\n').comment, true);
    assert.equal(at('def g(/*c*/a, b): pass\n').callee, undefined);
    assert.equal(at('x = r"\\"(" + f(/*c*/)\n').callee, 'f');
    // An unterminated string at the end of the file; a cursor between the quotes of a triple quote.
    assert.equal(at('vis.Symbol(f, tag="obs/*c*/').string, 'obs');
    assert.equal(at('f(x, "/*c*/""doc""")\n').string, undefined);
  });
});
