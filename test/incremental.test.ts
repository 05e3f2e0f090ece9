// Typing into a realistic extension file, one character at every position, as an editor sends it (a new
// version per keystroke, then the character removed again): a syntax or indentation error anywhere
// keeps the findings of the statements around it, and the findings after each keystroke are exactly
// those of a fresh analysis of the same text.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { Analyzer, analyzeText } from '../server/src/analysis';
import { initParser, newParser } from '../server/src/parse/parser';
import type { Finding } from '../server/src/rules/types';
import { generateExtension } from '../bench/generate';
import { cases } from './rules/familyCases';

before(async () => {
  await initParser();
});

const TEXT = fs.readFileSync(path.join(__dirname, 'fixtures', 'edits', 'notes.py'), 'utf8');
const URI = 'file:///work/notes/notes.py';

const key = (f: Finding, rows = 0) => `${f.rule}|${f.range.start.line + rows}:${f.range.start.character}-${f.range.end.line + rows}:${f.range.end.character}|${f.message}`;

/** The rows of each top-level statement of the clean file, as tree-sitter's own parse of the whole file has them. */
function statementRows(text: string): [number, number][] {
  const parser = newParser();
  const tree = parser.parse(text)!;
  try {
    assert.equal(tree.rootNode.hasError, false, 'the fixture is valid Python');
    return tree.rootNode.namedChildren.filter((n) => n!.type !== 'comment').map((n) => [n!.startPosition.row, n!.endPosition.row]);
  } finally {
    tree.delete();
    parser.delete();
  }
}

/** The text with the given rows blanked (every character but the newlines a space). */
function blanked(text: string, [from, to]: [number, number]): string {
  return text
    .split('\n')
    .map((line, row) => (row >= from && row <= to ? ' '.repeat(line.length) : line))
    .join('\n');
}

describe('typing into a realistic file', () => {
  it('keeps the findings of the statements an edit did not touch, typing at every position', () => {
    const statements = statementRows(TEXT);
    const original = analyzeText(URI, TEXT).findings;
    assert.ok(original.length >= 10, `the fixture has findings to keep (${original.length})`);
    // What each statement's findings need: those still there when that statement is gone altogether.
    const without = statements.map((rows) => new Set(analyzeText(URI, blanked(TEXT, rows)).findings.map((f) => key(f))));
    const analyzer = new Analyzer();
    let version = 1;
    analyzer.analyze(URI, version++, TEXT);
    const lineOf = (offset: number) => TEXT.slice(0, offset).split('\n').length - 1;
    const others = ['(', '"', ':', ' ', '\n', '\t', '[', ')', '#', '@', "'", '\\'];
    let checked = 0;
    let kept = 0;
    for (let at = 0; at <= TEXT.length; at++) {
      const typed = ['x', ...(at % 7 === 0 ? [others[(at / 7) % others.length]] : [])];
      for (const ch of typed) {
        const row = lineOf(at);
        const s = statements.findIndex(([a, b]) => row >= a && row <= b);
        const [from, to] = s === -1 ? [row, row] : statements[s];
        const gone = s === -1 ? undefined : without[s];
        const rows = ch === '\n' ? 1 : 0;
        const edited = TEXT.slice(0, at) + ch + TEXT.slice(at);
        const got = new Set(analyzer.analyze(URI, version++, edited).findings.map((f) => key(f)));
        for (const f of original) {
          const line = f.range.start.line;
          if (line >= from && line <= to) continue;
          if (gone && !gone.has(key(f))) continue;
          // Lines after the edited one move down when a line break was typed.
          const shift = line > row || (line === row && f.range.start.character >= at - TEXT.lastIndexOf('\n', at - 1) - 1) ? rows : 0;
          assert.ok(got.has(key(f, shift)), `typing ${JSON.stringify(ch)} at line ${row + 1}, column ${at - TEXT.lastIndexOf('\n', at - 1)} lost ${key(f)}\n${[...got].join('\n')}`);
          kept++;
        }
        checked++;
        // Back to the clean file: exactly its findings again.
        const back = analyzer.analyze(URI, version++, TEXT).findings;
        assert.deepEqual(back.map((f) => key(f)), original.map((f) => key(f)), `after removing ${JSON.stringify(ch)} at ${at}`);
      }
    }
    assert.ok(checked > TEXT.length && kept > checked * 5, `${checked} edits, ${kept} findings kept`);
  });

  it('gives after each keystroke exactly the findings of a fresh analysis of the same text', () => {
    const analyzer = new Analyzer();
    let version = 1;
    let text = TEXT;
    analyzer.analyze(URI, version++, text);
    const chars = ['x', '(', '"', '\n', ' ', ')', ':', '"""', '#', '\t'];
    let seed = 11;
    const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % k);
    for (let i = 0; i < 400; i++) {
      const at = rnd(text.length + 1);
      // Keystrokes pile up (typing, deleting), with a return to the clean file now and then.
      if (i % 40 === 39) text = TEXT;
      else if (rnd(4) === 0) text = text.slice(0, at) + text.slice(at + 1 + rnd(3));
      else text = text.slice(0, at) + chars[rnd(chars.length)] + text.slice(at);
      const got = analyzer.analyze(URI, version++, text).findings;
      const fresh = analyzeText(URI, text).findings;
      assert.deepEqual(got, fresh, `edit ${i}`);
    }
  });

  it('costs what an edit changes: one statement read, one Symbol analysed again, every other unit reused', () => {
    const text = generateExtension(40, 1000);
    const uri = 'file:///work/big/extension.py';
    const analyzer = new Analyzer();
    const { program } = analyzer;
    let version = 1;
    const first = analyzer.analyze(uri, version++, text).findings;
    const statements = program.modules.statementsRead(uri)!;
    assert.ok(statements > 80, `the file's first analysis reads every statement (${statements})`);
    const symbols = program.unitCounts(uri).symbols.computed;
    assert.equal(symbols, text.split('vis.Symbol(').length - 1, 'one Symbol analysis per vis.Symbol');
    // A line in the body of a tool function halfway down the file.
    const lines = text.split('\n');
    const row = lines.findIndex((l, i) => i > lines.length / 2 && /^ {4}total \+=/.test(l));
    const at = lines.slice(0, row).join('\n').length + 1 + 2;
    const edits: [string, string][] = [
      ['a character in the indentation (an IndentationError)', text.slice(0, at) + 'x' + text.slice(at)],
      ['the line as it was', text],
      ['an unclosed bracket', text.slice(0, at) + '(' + text.slice(at)],
      ['the line as it was', text],
    ];
    for (const [name, edited] of edits) {
      const before = program.unitCounts(uri);
      const findings = analyzer.analyze(uri, version++, edited).findings;
      const after = program.unitCounts(uri);
      assert.equal(program.modules.statementsRead(uri), 1, `${name}: statements read`);
      assert.deepEqual(findings, analyzeText(uri, edited).findings, name);
      assert.equal(after.symbols.computed - before.symbols.computed, 1, `${name}: the edited tool's Symbol analysed again`);
      assert.equal(after.symbols.reused - before.symbols.reused, symbols - 1, `${name}: every other Symbol analysis reused`);
      // The design rules (a unit per tool def) check the edited def again, and the advice rules (SYM-008,
      // SYM-018: a unit per Symbol analysis) the Symbol analysed again; no other unit.
      assert.equal(after.rules.computed - before.rules.computed, 4, `${name}: only the edited tool's rule units checked again`);
      assert.ok(after.rules.reused > before.rules.reused, `${name}: rule units reused`);
    }
    // A line break near the top: every statement below moves; none is parsed again, and every Symbol
    // analysis and rule unit is reused, its positions moved with the statement.
    const moved = text.replace('\n', '\n\n');
    const before = program.unitCounts(uri);
    assert.deepEqual(analyzer.analyze(uri, version++, moved).findings, analyzeText(uri, moved).findings);
    const after = program.unitCounts(uri);
    assert.equal(after.symbols.computed - before.symbols.computed, 0, 'a line break: Symbols analysed again');
    assert.equal(after.rules.computed - before.rules.computed, 0, 'a line break: rule units checked again');
    assert.ok(program.modules.statementsRead(uri)! <= 1, `a line break: ${program.modules.statementsRead(uri)} statements read`);
    assert.ok(program.modules.regionsScanned(uri)! <= 1, `a line break: ${program.modules.regionsScanned(uri)} regions scanned for syntax errors`);
    assert.deepEqual(analyzer.analyze(uri, version++, text).findings, first);
  });

  it('moves what it keeps with the lines added and removed above it: findings and Symbol analyses as a fresh analysis has them', () => {
    const base = generateExtension(40, 1000);
    const uri = 'file:///work/big/extension.py';
    const analyzer = new Analyzer();
    let version = 1;
    let text = base;
    // What a Symbol's analysis says with a place: its call, its issues, its tools' defs and parameter annotations.
    const placed = (a: Analyzer) =>
      a.program.symbols(uri).map((s) => ({ call: s.call.range, issues: s.issues, tools: s.tools.map((t) => [t.name, t.decl?.range, t.decl?.params.map((p) => p.annotationRange)]) }));
    analyzer.analyze(uri, version++, text);
    placed(analyzer);
    let seed = 7;
    const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % k);
    for (let i = 0; i < 120; i++) {
      const at = rnd(text.length + 1);
      const lineStart = text.lastIndexOf('\n', at - 1) + 1;
      const nl = text.indexOf('\n', at);
      const op = i % 40 === 39 ? 'back' : ['join', 'two breaks', 'break', 'blank line'][rnd(4)];
      if (op === 'back') text = base;
      else if (op === 'join' && nl >= 0) text = text.slice(0, nl) + text.slice(nl + 1);
      else if (op === 'two breaks') text = text.slice(0, at) + '\n\n' + text.slice(at);
      else if (op === 'break') text = text.slice(0, at) + '\n' + text.slice(at);
      else text = text.slice(0, lineStart) + '\n' + text.slice(lineStart);
      const expected = analyzeText(uri, text).findings;
      assert.deepEqual(analyzer.analyze(uri, version++, text).findings, expected, `edit ${i} (${op})`);
      // A new version of the same text (an editor's undo and redo): nothing moves.
      if (i % 7 === 0) assert.deepEqual(analyzer.analyze(uri, version++, text).findings, expected, `edit ${i} (${op}), the same text again`);
      const fresh = new Analyzer();
      fresh.analyze(uri, 1, text);
      assert.deepEqual(placed(analyzer), placed(fresh), `edit ${i} (${op}): Symbol analyses`);
    }
    const { symbols } = analyzer.program.unitCounts(uri);
    assert.ok(symbols.reused > symbols.computed * 4, `Symbol analyses reused across moves (${symbols.reused} reused, ${symbols.computed} computed)`);
  });

  it('moves the findings it keeps, with their fixes, when lines are added above them: every rule case as a fresh analysis has it', () => {
    const uri = 'file:///work/cases/extension.py';
    let checked = 0;
    for (const c of cases) {
      for (const text of [c.bad.replace(/\[\||\|\]/g, ''), c.good]) {
        const analyzer = new Analyzer();
        let version = 1;
        analyzer.analyze(uri, version++, text);
        const first = text.indexOf('\n') + 1;
        const lines = text.split('\n');
        const middle = lines.slice(0, Math.floor(lines.length / 2)).join('\n').length + 1;
        const edits = [text.slice(0, first) + '\n' + text.slice(first), text.slice(0, first) + '\n\n\n' + text.slice(first), text.slice(0, middle) + '\n' + text.slice(middle), text, '\n' + text];
        for (const edited of edits) {
          assert.deepEqual(analyzer.analyze(uri, version++, edited).findings, analyzeText(uri, edited).findings, `${c.rule}: ${JSON.stringify(edited)}`);
          checked++;
        }
      }
    }
    assert.equal(checked, cases.length * 10);
  });
});
