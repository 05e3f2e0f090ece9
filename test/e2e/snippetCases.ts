// Where each contributed snippet is inserted, for the unit test (test/contributions.test.ts) and the
// real-editor check (harness/src/checks.ts). Each case starts from a fixture under
// fixtures/workspace/snippets/ that has an error the snippet's text replaces, so that the editor
// check sees the diagnostics change (the server analysed the new text) before it asserts none.

export interface SnippetCase {
  /** The snippet's key in snippets/vis.code-snippets (what editor.action.insertSnippet takes). */
  name: string;
  prefix: string;
  /** The fixture, relative to fixtures/workspace. */
  file: string;
  /** The text the snippet replaces (its first occurrence after `after`, when given); undefined: the whole file. */
  replaces?: string;
  after?: string;
  /** The fixture's diagnostic codes before the insertion, in document order. */
  before: string[];
  generation: 'G1' | 'G2' | 'G3';
}

export const SNIPPET_CASES: SnippetCase[] = [
  { name: 'Vis extension (G3, register_extension)', prefix: 'vis-extension', file: 'snippets/g3.py', before: ['EXT-002'], generation: 'G3' },
  { name: 'Vis extension (G2, register)', prefix: 'vis-extension-g2', file: 'snippets/g2.py', before: ['EXT-002'], generation: 'G2' },
  { name: 'Vis extension (G1, vis.extension)', prefix: 'vis-extension-g1', file: 'snippets/g1.py', before: ['G1-EXT-2'], generation: 'G1' },
  {
    name: 'Vis tool (function + Symbol)', prefix: 'vis-tool', file: 'snippets/tool.py', generation: 'G3', before: ['SYM-005'],
    replaces: 'def lookup(query: str) -> str:\n    raise NotImplementedError\n',
  },
  { name: 'Vis Symbol', prefix: 'vis-symbol', file: 'snippets/symbol.py', replaces: 'fn', after: 'symbols=[', before: ['EXT-009'], generation: 'G3' },
];

/** The offsets of the text a case replaces in its fixture. */
export function replacedSpan(fixture: string, c: SnippetCase): [number, number] {
  if (c.replaces === undefined) return [0, fixture.length];
  const from = c.after === undefined ? 0 : fixture.indexOf(c.after);
  const at = from < 0 ? -1 : fixture.indexOf(c.replaces, from);
  if (at < 0) throw new Error(`${c.file} has no ${JSON.stringify(c.replaces)}${c.after ? ` after ${JSON.stringify(c.after)}` : ''}`);
  return [at, at + c.replaces.length];
}

/** The fixture text with the snippet's inserted text in place. */
export function withInserted(fixture: string, c: SnippetCase, inserted: string): string {
  const [start, end] = replacedSpan(fixture, c);
  return fixture.slice(0, start) + inserted + fixture.slice(end);
}
