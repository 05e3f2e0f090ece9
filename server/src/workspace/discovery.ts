// Which files are Vis extension entry files, found the way Vis discovers them (vis-host.md §5):
// the global extensions directory (`VIS_EXTENSIONS_DIR`, else `~/.vis/extensions`) and the project's
// `.vis/extensions`; in each, top-level `*.py` that are not tests (`test_*.py`, `*_test.py`) or
// dotfiles, `<dir>/extension.py` (a package extension, with a `pyproject.toml` beside it when
// packaged) and `<name>/current/extension.py` (an installed version), sorted by name and
// deduplicated on their canonical path. A workspace folder that is itself an extension package
// (`extension.py` at its root) is an entry too: that is how an extension's own repository looks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type EntryScope = 'global' | 'project' | 'workspace';

export interface EntryFile {
  path: string;
  /** The extensions directory it was found in (for a workspace package: the folder itself). */
  dir: string;
  scope: EntryScope;
  /** An `extension.py` with a `pyproject.toml` beside it. */
  packaged: boolean;
}

/** The global extensions directory: `VIS_EXTENSIONS_DIR`, else `~/.vis/extensions`. */
export function globalExtensionsDir(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  return env.VIS_EXTENSIONS_DIR ? path.resolve(env.VIS_EXTENSIONS_DIR) : path.join(home, '.vis', 'extensions');
}

/** A project's extensions directory. */
export function projectExtensionsDir(root: string): string {
  return path.join(root, '.vis', 'extensions');
}

const byName = (a: fs.Dirent, b: fs.Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Whether a top-level file of an extensions directory is an entry (not a test and not a dotfile). */
export function isEntryName(name: string): boolean {
  return name.endsWith('.py') && !name.startsWith('.') && !name.startsWith('test_') && !name.endsWith('_test.py');
}

/** The entry files of one extensions directory, in Vis's order. A missing directory has none. */
export function extensionEntries(dir: string, scope: EntryScope): EntryFile[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true }).sort(byName);
  } catch {
    return [];
  }
  const out: EntryFile[] = [];
  const seen = new Set<string>();
  const add = (file: string) => {
    const canonical = realpath(file);
    if (seen.has(canonical)) return;
    seen.add(canonical);
    out.push({ path: file, dir, scope, packaged: isFile(path.join(path.dirname(file), 'pyproject.toml')) });
  };
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const full = path.join(dir, e.name);
    const kind = kindOf(full, e);
    if (kind === 'file') {
      if (isEntryName(e.name)) add(full);
    } else if (kind === 'dir') {
      for (const candidate of [path.join(full, 'extension.py'), path.join(full, 'current', 'extension.py')]) {
        if (isFile(candidate)) add(candidate);
      }
    }
  }
  return out;
}

/** The entry files Vis would load for a project: global ones first, then the project's, then the folder itself as a package. */
export function projectEntries(root: string, globalDir: string | undefined): EntryFile[] {
  const out: EntryFile[] = [];
  const project = projectExtensionsDir(root);
  if (globalDir && path.resolve(globalDir) !== path.resolve(project)) out.push(...extensionEntries(globalDir, 'global'));
  out.push(...extensionEntries(project, 'project'));
  if (isExtensionsDir(root, globalDir)) out.push(...extensionEntries(root, 'project'));
  else if (isFile(path.join(root, 'extension.py'))) out.push({ path: path.join(root, 'extension.py'), dir: root, scope: 'workspace', packaged: isFile(path.join(root, 'pyproject.toml')) });
  const seen = new Set<string>();
  return out.filter((e) => {
    const key = realpath(e.path);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A folder that is itself an extensions directory (`…/.vis/extensions`, or the global one). */
export function isExtensionsDir(dir: string, globalDir?: string): boolean {
  const abs = path.resolve(dir);
  return (path.basename(abs) === 'extensions' && path.basename(path.dirname(abs)) === '.vis') || (!!globalDir && abs === path.resolve(globalDir));
}

/** The entries of a directory given on the command line: a project root, an extensions directory, or a package. */
export function entriesOfDirectory(dir: string, globalDir?: string): EntryFile[] {
  if (isExtensionsDir(dir, globalDir)) return extensionEntries(dir, 'project');
  if (fs.existsSync(projectExtensionsDir(dir)) || isFile(path.join(dir, 'extension.py'))) return projectEntries(dir, undefined);
  // Any other folder is read as an extensions directory, the way Vis scans one.
  return extensionEntries(dir, 'project');
}

/** Kept for callers that want paths only: the entry files of one extensions directory. */
export function discoverExtensionFiles(dir: string): string[] {
  return extensionEntries(dir, 'project').map((e) => e.path);
}

function kindOf(full: string, e: fs.Dirent): 'file' | 'dir' | undefined {
  if (e.isFile()) return 'file';
  if (e.isDirectory()) return 'dir';
  if (!e.isSymbolicLink()) return undefined;
  try {
    const st = fs.statSync(full);
    return st.isFile() ? 'file' : st.isDirectory() ? 'dir' : undefined;
  } catch {
    return undefined;
  }
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}
