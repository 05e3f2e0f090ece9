import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyTextEdits, formatNumstat, lineStarts, offsetAt, type PlainTextEdit } from '../../client/src/textEdits';
import { lineChanges } from '../../server/src/changes/lineChanges';

const edit = (sl: number, sc: number, el: number, ec: number, newText: string): PlainTextEdit => ({
  range: { start: { line: sl, character: sc }, end: { line: el, character: ec } },
  newText,
});

describe('applyTextEdits', () => {
  it('returns the text as it is without edits', () => {
    assert.equal(applyTextEdits('a\nb\n', []), 'a\nb\n');
  });

  it('applies edits given in any order against the original positions', () => {
    const text = "x = {'a':1}\ny=2\n";
    const edits = [edit(1, 1, 1, 2, ' = '), edit(0, 5, 0, 8, '"a"'), edit(0, 9, 0, 9, ' ')];
    assert.equal(applyTextEdits(text, edits), 'x = {"a": 1}\ny = 2\n');
    assert.equal(applyTextEdits(text, [...edits].reverse()), 'x = {"a": 1}\ny = 2\n');
  });

  it('replaces the whole document, as formatters that return one edit do', () => {
    const text = 'def f( a ):\n  return a\n';
    const formatted = 'def f(a):\n    return a\n';
    assert.equal(applyTextEdits(text, [edit(0, 0, 2, 0, formatted)]), formatted);
    assert.equal(applyTextEdits(text, [edit(0, 0, 99, 0, formatted)]), formatted);
  });

  it('keeps the given order of inserts at one place, and puts them before a replacement starting there', () => {
    assert.equal(applyTextEdits('ab', [edit(0, 1, 0, 1, '1'), edit(0, 1, 0, 1, '2')]), 'a12b');
    assert.equal(applyTextEdits('abc', [edit(0, 1, 0, 2, 'X'), edit(0, 1, 0, 1, '1')]), 'a1Xc');
  });

  it('counts lines with CRLF and lone CR endings as VS Code does', () => {
    assert.deepEqual(lineStarts('a\r\nb\rc\nd'), [0, 3, 5, 7]);
    const text = 'a\r\nb\r\n';
    assert.equal(applyTextEdits(text, [edit(1, 0, 1, 1, 'B'), edit(2, 0, 2, 0, 'c\r\n')]), 'a\r\nB\r\nc\r\n');
  });

  it('clamps a character past the end of its line to before the line break', () => {
    const text = 'ab\r\ncd';
    const starts = lineStarts(text);
    assert.equal(offsetAt(text, starts, { line: 0, character: 10 }), 2);
    assert.equal(offsetAt(text, starts, { line: 1, character: 10 }), 6);
    assert.equal(offsetAt(text, starts, { line: 5, character: 0 }), 6);
    assert.equal(offsetAt(text, starts, { line: -1, character: 3 }), 0);
    assert.equal(applyTextEdits(text, [edit(0, 5, 0, 9, '!')]), 'ab!\r\ncd');
  });

  it('handles astral characters by UTF-16 offsets, as VS Code positions are', () => {
    assert.equal(applyTextEdits('😀x\n', [edit(0, 2, 0, 3, 'y')]), '😀y\n');
  });

  it('rejects overlapping edits', () => {
    assert.throws(() => applyTextEdits('abcdef', [edit(0, 0, 0, 3, 'X'), edit(0, 2, 0, 4, 'Y')]), /overlapping/);
  });

  it('feeds the count the status bar shows', () => {
    const text = 'import os\nx=1\ny=2\n';
    const formatted = applyTextEdits(text, [edit(1, 1, 1, 2, ' = '), edit(3, 0, 3, 0, '\nz = 3\n')]);
    assert.equal(formatted, 'import os\nx = 1\ny=2\n\nz = 3\n');
    assert.equal(formatNumstat(lineChanges(text, formatted)), '+3 \u22121');
  });
});
