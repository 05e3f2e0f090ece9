// Which files in a directory are Vis extension entry files, the way Vis discovers them
// (vis-host.md §5): top-level *.py that are not tests or dotfiles, <dir>/extension.py, and
// <name>/current/extension.py.
import fs from 'node:fs';
import path from 'node:path';

/**
 * The files a command line names: each file as given, each directory searched the way Vis discovers
 * extensions (the current directory when none is given); `loops` are paths that are symlink loops (not
 * read), `missing` names the first path that does not exist.
 */
export function entryFilesOf(paths: string[]): { files: string[]; loops: string[] } | { missing: string } {
  const files: string[] = [];
  const loops: string[] = [];
  for (const p of paths.length ? paths : ['.']) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(p);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ELOOP') {
        loops.push(p);
        continue;
      }
      return { missing: p };
    }
    files.push(...(stat.isDirectory() ? discoverExtensionFiles(p) : [p]));
  }
  return { files, loops };
}

export function discoverExtensionFiles(dir: string): string[] {
  const out: string[] = [];
  const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.name.startsWith('.')) continue;
    if (isFile(full)) {
      if (e.name.endsWith('.py') && !e.name.startsWith('test_') && !e.name.endsWith('_test.py')) out.push(full);
    } else if (isDirectory(full)) {
      for (const candidate of [path.join(full, 'extension.py'), path.join(full, 'current', 'extension.py')]) {
        if (isFile(candidate)) out.push(candidate);
      }
    }
  }
  return out;
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
