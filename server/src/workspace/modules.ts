// Sibling modules of an extension, for cross-file types: `from .models import Reading` or
// `from mypkg.models import Reading` resolve through the extension's import roots — the entry
// file's folder, and `[tool.vis] source_paths` from its PEP 723 block or from the pyproject.toml next
// to it. Files are parsed with the same pipeline as open documents and cached; a file is read again
// when its mtime or size changes, and the editor's text wins over the disk for open documents.
// No VS Code types here: the server passes a lookup for open documents.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { scopeOf, type ModuleLoader, type ModuleScope } from '../contracts/scope';
import { ModelBuilder } from '../model/build';
import type { Model } from '../model/types';
import { DEFAULT_MAX_FILE_SIZE, checkNestingLimits } from '../parse/limits';
import { ParserFault, ParserUnavailable, disposeDocument, guarded, parseDocument } from '../parse/parser';
import { readTextFileSync } from '../../../shared/files';

/**
 * The text of a document open in the editor, by file path; undefined reads the disk. A view of another
 * revision (the committed files a contract comparison reads) answers null for a file it does not have.
 */
export type OpenDocumentLookup = (filePath: string) => { version: number; text: string } | null | undefined;

interface Entry {
  /** mtime:size for files read from disk, or `open:<version>` for open documents. */
  stamp: string;
  model: Model;
}

/** A file a contract depended on, and the version of it that was read. */
export interface Dependency {
  path: string;
  stamp: string;
}

export class WorkspaceModules {
  private cache = new Map<string, Entry>();
  /** Files parsed from disk so far (for tests and the bench). */
  reads = 0;

  constructor(
    private open: OpenDocumentLookup = () => undefined,
    /** Modules with more characters are not read (visAuthoring.maxFileSize). */
    private maxFileSize: () => number = () => DEFAULT_MAX_FILE_SIZE,
  ) {}

  /** The current stamp of a file, or undefined when it does not exist. */
  stamp(file: string): string | undefined {
    const doc = this.open(file);
    if (doc === null) return undefined;
    if (doc) return `open:${doc.version}:${doc.text.length}`;
    try {
      const st = fs.statSync(file);
      return st.isFile() ? `${st.mtimeMs}:${st.size}` : undefined;
    } catch {
      return undefined;
    }
  }

  /** The model of a Python file, from the cache when it has not changed. */
  model(file: string): Model | undefined {
    const stamp = this.stamp(file);
    if (stamp === undefined) {
      this.cache.delete(file);
      return undefined;
    }
    const hit = this.cache.get(file);
    if (hit && hit.stamp === stamp) return hit.model;
    const max = this.maxFileSize();
    const text = this.open(file)?.text ?? readText(file, max);
    if (text === undefined || text.length > max || checkNestingLimits(text)) return undefined;
    if (!stamp.startsWith('open:')) this.reads++;
    try {
      const model = guarded(() => {
        const doc = parseDocument(text);
        try {
          return new ModelBuilder().build(pathToFileURL(file).href, doc);
        } finally {
          disposeDocument(doc);
        }
      });
      this.cache.set(file, { stamp, model });
      return model;
    } catch (e) {
      if (e instanceof ParserFault || e instanceof ParserUnavailable) return undefined;
      throw e;
    }
  }

  /** True when every dependency still has the stamp it was read with. */
  fresh(deps: readonly Dependency[]): boolean {
    return deps.every((d) => this.stamp(d.path) === d.stamp);
  }

  /** A loader for the modules an entry file imports; it records the files it read in `deps`. */
  loaderFor(entryPath: string, entryModel: Model): ModuleLoader & { deps: Dependency[]; roots: string[] } {
    const roots = importRoots(entryPath, entryModel);
    const deps: Dependency[] = [];
    const self = this;
    const scopes = new Map<string, ModuleScope>();
    const looked = new Map<string, ModuleScope | undefined>();
    return {
      deps,
      roots,
      load(from: ModuleScope, name: string): ModuleScope | undefined {
        // One answer per import for the life of this loader (one contract computation).
        const key = `${name.startsWith('.') ? (from.path ?? entryPath) : ''}|${name}`;
        if (looked.has(key)) return looked.get(key);
        const found = find(from, name);
        looked.set(key, found);
        return found;
      },
    };
    function find(from: ModuleScope, name: string): ModuleScope | undefined {
        for (const file of candidates(from.path ?? entryPath, name, roots)) {
          const known = scopes.get(file);
          if (known) return known;
          const model = self.model(file);
          if (!model) continue;
          deps.push({ path: file, stamp: self.stamp(file)! });
          // Helper modules are not entry files: their annotations are strings only with the __future__ import.
          const scope = scopeOf(model, { path: file, entry: path.resolve(file) === path.resolve(entryPath) });
          scopes.set(file, scope);
          return scope;
        }
        return undefined;
    }
  }
}

/** A module's text through the guarded reader (regular files only, at most 3 bytes per allowed character). */
function readText(file: string, maxChars = DEFAULT_MAX_FILE_SIZE): string | undefined {
  const read = readTextFileSync(file, { maxBytes: maxChars * 3 });
  return read.ok ? read.text : undefined;
}

/** The files an import may name: `a/b.py` or `a/b/__init__.py` under the right folders. */
function candidates(fromPath: string, name: string, roots: string[]): string[] {
  const dots = /^\.*/.exec(name)![0].length;
  const rest = name.slice(dots).split('.').filter(Boolean);
  const bases: string[] = [];
  if (dots > 0) {
    let dir = path.dirname(fromPath);
    for (let i = 1; i < dots; i++) dir = path.dirname(dir);
    bases.push(dir);
  } else {
    if (rest[0] === 'blockether' || rest.length === 0) return [];
    bases.push(...roots);
  }
  const out: string[] = [];
  for (const base of bases) {
    const joined = path.join(base, ...rest);
    if (rest.length) out.push(joined + '.py');
    out.push(path.join(joined, '__init__.py'));
  }
  return out;
}

/** The entry file's folder, then `[tool.vis] source_paths` from its PEP 723 block or the pyproject.toml beside it. */
export function importRoots(entryPath: string, model: Model): string[] {
  const dir = path.dirname(entryPath);
  const roots = [dir];
  let extra = model.script ? sourcePaths(model.script.content) : undefined;
  if (!extra) {
    const pyproject = readText(path.join(dir, 'pyproject.toml'));
    if (pyproject) extra = sourcePaths(pyproject);
  }
  for (const p of extra ?? []) {
    const abs = path.resolve(dir, p);
    if (!roots.includes(abs)) roots.push(abs);
  }
  return roots;
}

/** `source_paths` of the `[tool.vis]` table in TOML text: a string or an array of strings. */
export function sourcePaths(toml: string): string[] | undefined {
  const lines = toml.split(/\r?\n/);
  let inTable = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\s+#.*$/, '').trim();
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header && !line.startsWith('[[')) {
      inTable = header[1].replace(/\s+/g, '').replace(/"/g, '') === 'tool.vis';
      continue;
    }
    const m = inTable ? /^source_paths\s*=\s*(.*)$/.exec(line) : /^tool\.vis\.source_paths\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[1];
    // A multi-line array: read until its closing bracket.
    while (value.startsWith('[') && !balanced(value) && i + 1 < lines.length) value += ' ' + lines[++i].replace(/\s+#.*$/, '').trim();
    return tomlStrings(value);
  }
  return undefined;
}

function balanced(s: string): boolean {
  let depth = 0;
  let quote = '';
  for (const c of s) {
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']') depth--;
  }
  return depth === 0;
}

function tomlStrings(value: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'/g;
  for (let m = re.exec(value); m; m = re.exec(value)) out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]);
  return out;
}
