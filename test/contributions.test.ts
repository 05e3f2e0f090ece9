// The manifest's static contributions: snippets expand to valid extension files, grammars match.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import type { Node } from 'web-tree-sitter';
import { analyzeText } from '../server/src/analysis';
import { initParser, newParser } from '../server/src/parse/parser';
import { SNIPPET_CASES, withInserted } from './e2e/snippetCases';
import { Text, choicesOf, contributedSnippets, insertedText, parseSnippet, variablesOf } from './helpers/snippets';

const root = path.join(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

before(async () => {
  await initParser();
});

/** Syntax errors as tree-sitter sees the text: ERROR nodes and MISSING tokens, with their rows. */
function syntaxErrors(text: string): string[] {
  const parser = newParser();
  const tree = parser.parse(text)!;
  const found: string[] = [];
  const visit = (n: Node) => {
    if (n.isError || n.isMissing) found.push(`${n.isMissing ? 'MISSING ' : ''}${n.type} at ${n.startPosition.row + 1}:${n.startPosition.column + 1}`);
    else if (n.hasError) for (const c of n.children) if (c) visit(c);
  };
  visit(tree.rootNode);
  tree.delete();
  parser.delete();
  return found;
}

describe('snippets', () => {
  const snippets = contributedSnippets();
  const fixtures = path.join(root, 'test', 'e2e', 'fixtures', 'workspace');

  it('are contributed for Python, one file, and each has a case of its own', () => {
    assert.deepEqual(manifest.contributes.snippets, [{ language: 'python', path: './snippets/vis.code-snippets' }]);
    assert.deepEqual(snippets.map((s) => [s.name, s.prefix]), SNIPPET_CASES.map((c) => [c.name, c.prefix]));
  });

  for (const c of SNIPPET_CASES) {
    const snippet = () => snippets.find((s) => s.name === c.name)!;

    it(`${c.prefix}: tab stops 1..n in order, a final tab stop, no variables, nothing left unparsed`, () => {
      const parsed = parseSnippet(snippet().template);
      const indexes = [...new Set(parsed.placeholders.map((p) => p.index))].sort((a, b) => a - b);
      const n = indexes.length - 1;
      assert.deepEqual(indexes, Array.from({ length: n + 1 }, (_, i) => i), 'placeholders 0..n without gaps');
      assert.deepEqual(variablesOf(parsed), []);
      // Text the grammar did not take as syntax keeps its `$`: there is none in these Python files.
      assert.doesNotMatch(parsed.toString(), /\$/);
    });

    it(`${c.prefix}: the inserted text parses without an error node and checks clean as ${c.generation}`, () => {
      const fixture = fs.readFileSync(path.join(fixtures, c.file), 'utf8');
      const text = withInserted(fixture, c, insertedText(snippet().template));
      assert.deepEqual(syntaxErrors(text), []);
      const { model, findings } = analyzeText(`file:///work/${c.file}`, text);
      assert.equal(model.generation, c.generation);
      assert.equal(model.generationAssumed, false);
      assert.deepEqual(findings.map((f) => `${f.rule}: ${f.message}`), []);
    });

    it(`${c.prefix}: every choice checks clean`, () => {
      const fixture = fs.readFileSync(path.join(fixtures, c.file), 'utf8');
      for (const [index, options] of choicesOf(parseSnippet(snippet().template))) {
        for (const option of options) {
          const text = withInserted(fixture, c, insertedText(snippet().template, { [index]: option }));
          const { findings } = analyzeText(`file:///work/${c.file}`, text);
          assert.deepEqual(findings.map((f) => `${f.rule}: ${f.message}`), [], `choice ${index} = ${option}`);
        }
      }
    });

    it(`${c.prefix}: the fixture it replaces starts with ${c.before.join(', ')}`, () => {
      const { findings } = analyzeText(`file:///work/${c.file}`, fs.readFileSync(path.join(fixtures, c.file), 'utf8'));
      assert.deepEqual(findings.filter((f) => f.severity === 'error').map((f) => f.rule), c.before);
    });
  }

  it('the G3 snippet, tabbed through with a new name and parameter, returns an f-string that closes', () => {
    // What a user gets after typing `hello`, Tab, `who`: the mirrors of $1 and $2 follow.
    const g3 = snippets.find((s) => s.prefix === 'vis-extension')!;
    const parsed = parseSnippet(g3.template);
    for (const p of parsed.placeholders) {
      if (p.index === 1 || p.index === 2) for (const child of [...p.children]) if (child instanceof Text) child.value = p.index === 1 ? 'hello' : 'who';
    }
    const text = parsed.toString();
    assert.ok(text.includes('def hello(who: str) -> str:\n    """Greet one person by name."""\n    return f"hi {who}"\n'), text);
    assert.ok(text.includes('symbols=[vis.Symbol(hello, tag="observation"'), text);
    assert.deepEqual(syntaxErrors(text), []);
  });
});

describe('grammars', () => {
  for (const g of manifest.contributes.grammars as { scopeName: string; path: string }[]) {
    it(`${g.path} is valid JSON with its declared scope`, () => {
      const grammar = JSON.parse(fs.readFileSync(path.join(root, g.path), 'utf8'));
      assert.equal(grammar.scopeName, g.scopeName);
    });
  }

  it('the injection grammar marks SDK declarations and registration calls', () => {
    const grammar = JSON.parse(fs.readFileSync(path.join(root, 'syntaxes', 'vis-injection.tmLanguage.json'), 'utf8'));
    const declaration = new RegExp(grammar.repository.declaration.match);
    const registration = new RegExp(grammar.repository.registration.match);
    assert.deepEqual([...'x = vis.Symbol(f)'.match(declaration)!].slice(1), ['vis', 'Symbol']);
    assert.deepEqual([...'vis.register_extension(ext)'.match(registration)!].slice(1), ['vis', 'register_extension']);
    assert.equal('vis.registered'.match(registration), null);
  });
});
