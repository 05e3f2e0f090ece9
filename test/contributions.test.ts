// The manifest's static contributions: snippets expand to valid extension files, grammars match.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { analyzeText } from '../server/src/analysis';
import { initParser } from '../server/src/parse/parser';

const root = path.join(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

/** A snippet body as VS Code inserts it when every placeholder keeps its default. */
function expand(body: string[]): string {
  const text = body.join('\n');
  const defaults = new Map<string, string>();
  const once = text.replace(/\$\{(\d+)(?::([^}]*)|\|([^,|}]*)[^}]*\|)\}/g, (_m, n: string, def?: string, choice?: string) => {
    const v = def ?? choice ?? '';
    defaults.set(n, v);
    return v;
  });
  return once.replace(/\$(\d+)/g, (_m, n: string) => defaults.get(n) ?? '');
}

before(async () => {
  await initParser();
});

describe('snippets', () => {
  const snippets = JSON.parse(fs.readFileSync(path.join(root, 'snippets', 'vis.code-snippets'), 'utf8')) as Record<string, { prefix: string; body: string[] }>;
  const files: [string, string][] = [
    ['vis-extension', 'G3'],
    ['vis-extension-g2', 'G2'],
    ['vis-extension-g1', 'G1'],
  ];
  for (const [prefix, generation] of files) {
    it(`${prefix} expands to a valid ${generation} extension file`, () => {
      const snippet = Object.values(snippets).find((s) => s.prefix === prefix)!;
      const { model, findings } = analyzeText('file:///work/.vis/extensions/new.py', expand(snippet.body) + '\n');
      assert.equal(model.generation, generation);
      assert.equal(model.generationAssumed, false);
      assert.deepEqual(findings, []);
    });
  }

  it('are contributed for Python', () => {
    assert.deepEqual(manifest.contributes.snippets, [{ language: 'python', path: './snippets/vis.code-snippets' }]);
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
