// The documentation page of each rule: `docs/rules/<ID>.md`, shipped beside `dist/` in the extension
// (and the npm package), so every diagnostic links to its page (`codeDescription.href`, a `file:` URI any
// LSP client can open) and `vis-authoring explain RULE-ID` prints it.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readTextFileSync } from '../../../shared/files';

let dir: string | null | undefined;
let pages: Set<string> | undefined;

/** The folder of the rule pages: `docs/rules` in the nearest folder above this code that has one (dist/.. when bundled). */
export function rulePagesDir(): string | undefined {
  if (dir === undefined) {
    dir = null;
    for (let d = __dirname, i = 0; i < 5; i++, d = path.dirname(d)) {
      const candidate = path.join(d, 'docs', 'rules');
      if (fs.existsSync(candidate)) {
        dir = candidate;
        break;
      }
    }
  }
  return dir ?? undefined;
}

function pageIds(): Set<string> {
  if (!pages) {
    const d = rulePagesDir();
    pages = new Set(d ? fs.readdirSync(d).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3)) : []);
  }
  return pages;
}

/** The `file:` URI of a rule's page, or undefined when it has none. */
export function rulePageUri(id: string): string | undefined {
  const d = rulePagesDir();
  return d && pageIds().has(id) ? pathToFileURL(path.join(d, `${id}.md`)).href : undefined;
}

/** The Markdown text of a rule's page. */
export function rulePage(id: string): string | undefined {
  const d = rulePagesDir();
  if (!d || !pageIds().has(id)) return undefined;
  const r = readTextFileSync(path.join(d, `${id}.md`), { maxBytes: 1_000_000 });
  return r.ok ? r.text : undefined;
}
