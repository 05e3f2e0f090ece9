// The contributed snippets as VS Code reads them: each body joined with "\n" and parsed with VS Code's
// own snippet parser (monaco-editor ships it unchanged), so that placeholders, choices, escapes, nested
// placeholders and variables mean what they mean in the editor.
import fs from 'node:fs';
import path from 'node:path';
import { Choice, SnippetParser, Text, Variable, type Marker, type TextmateSnippet } from 'monaco-editor/editor/contrib/snippet/browser/snippetParser.js';

export interface ContributedSnippet {
  /** The key in the snippets file: the name `editor.action.insertSnippet` takes. */
  name: string;
  prefix: string;
  description: string;
  /** The body as VS Code joins it. */
  template: string;
}

export const SNIPPETS_FILE = path.join(__dirname, '..', '..', 'snippets', 'vis.code-snippets');

export function contributedSnippets(file = SNIPPETS_FILE): ContributedSnippet[] {
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, { prefix: string; description: string; body: string | string[] }>;
  return Object.entries(json).map(([name, s]) => ({
    name,
    prefix: s.prefix,
    description: s.description,
    template: Array.isArray(s.body) ? s.body.join('\n') : s.body,
  }));
}

/** Parses a snippet as `editor.action.insertSnippet` does (a final tab stop is added when missing). */
export function parseSnippet(template: string): TextmateSnippet {
  return new SnippetParser().parse(template, true, true);
}

function markers(snippet: TextmateSnippet): Marker[] {
  const all: Marker[] = [];
  snippet.walk((m) => {
    all.push(m);
    return true;
  });
  return all;
}

/** The variables a snippet uses (`$TM_FILENAME`, `${CURRENT_YEAR}`...), by name. */
export function variablesOf(snippet: TextmateSnippet): string[] {
  return markers(snippet).filter((m): m is Variable => m instanceof Variable).map((v) => v.name);
}

/** The choices of a snippet by placeholder index: `${9|a,b|}` → [9, ['a', 'b']]. */
export function choicesOf(snippet: TextmateSnippet): [number, string[]][] {
  return snippet.placeholders.filter((p) => p.choice).map((p) => [p.index, p.choice!.options.map((o) => o.value)]);
}

/**
 * The text VS Code inserts when the user tabs through without typing: every placeholder keeps its
 * default (mirrors repeat it), each choice its first option unless `pick` names another for its index.
 */
export function insertedText(template: string, pick: Record<number, string> = {}): string {
  const snippet = parseSnippet(template);
  for (const p of snippet.placeholders) {
    const choice: Choice | undefined = p.choice;
    const wanted = pick[p.index];
    if (!choice || wanted === undefined) continue;
    const at = choice.options.findIndex((o) => o.value === wanted);
    if (at < 0) throw new Error(`placeholder ${p.index} has no choice ${JSON.stringify(wanted)}`);
    choice.options.unshift(...choice.options.splice(at, 1));
  }
  return snippet.toString();
}

export { Text };
