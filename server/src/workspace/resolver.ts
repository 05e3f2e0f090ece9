// Import resolution the way Python's path finder does it, without running Python: a dotted name is
// looked up along the import roots in order (a regular package `a/__init__.py` first, then a module
// `a.py`, then namespace-package portions `a/` merged across roots), and relative imports from the
// importing module's package. Directory listings are cached; a file event invalidates its folder.
// Third-party modules come from the environment's site-packages (a `.venv`/`venv` beside the project,
// or the interpreter the client names), read only. No VS Code types.
import fs from 'node:fs';
import path from 'node:path';

type Kind = 'file' | 'dir';

/** The Vis SDK itself is never read: its members are known by name (server/src/model/sdk.ts). */
export function isSdkModule(dotted: string): boolean {
  return dotted === 'vis' || dotted.startsWith('vis.') || dotted === 'blockether' || dotted === 'blockether.vis' || dotted.startsWith('blockether.vis.');
}

export class ModuleResolver {
  private listings = new Map<string, Map<string, Kind> | null>();
  /** Directory listings read so far (for tests and the bench). */
  reads = 0;

  private list(dir: string): Map<string, Kind> | null {
    const hit = this.listings.get(dir);
    if (hit !== undefined) return hit;
    let out: Map<string, Kind> | null = null;
    try {
      out = new Map();
      this.reads++;
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        let kind: Kind | undefined = e.isFile() ? 'file' : e.isDirectory() ? 'dir' : undefined;
        if (!kind && e.isSymbolicLink()) {
          try {
            const st = fs.statSync(path.join(dir, e.name));
            kind = st.isFile() ? 'file' : st.isDirectory() ? 'dir' : undefined;
          } catch {
            kind = undefined;
          }
        }
        if (kind) out.set(e.name, kind);
      }
    } catch {
      out = null;
    }
    this.listings.set(dir, out);
    return out;
  }

  /** Forgets what is known of a path and its folder (a file was created, deleted or renamed). */
  invalidate(p: string): void {
    this.listings.delete(p);
    this.listings.delete(path.dirname(p));
  }

  clear(): void {
    this.listings.clear();
  }

  isFile(p: string): boolean {
    return this.list(path.dirname(p))?.get(path.basename(p)) === 'file';
  }

  isDir(p: string): boolean {
    return this.list(path.dirname(p))?.get(path.basename(p)) === 'dir';
  }

  /**
   * The file of an absolute module (`a.b.c`) along `roots`: `…/c.py` or `…/c/__init__.py`. Undefined
   * when it is not found, when it is a namespace package (no file), or when it is the Vis SDK.
   */
  resolve(roots: readonly string[], dotted: string): string | undefined {
    if (!dotted || isSdkModule(dotted)) return undefined;
    return this.walk(roots, dotted.split('.'));
  }

  /** A relative import (`from ..pkg import x`: `dots` = 2, `rest` = 'pkg') from the module in `fromFile`. */
  resolveRelative(fromFile: string, dots: number, rest: string): string | undefined {
    let dir = path.dirname(fromFile);
    for (let i = 1; i < dots; i++) dir = path.dirname(dir);
    if (!rest) return this.isFile(path.join(dir, '__init__.py')) ? path.join(dir, '__init__.py') : undefined;
    return this.walk([dir], rest.split('.'));
  }

  private walk(roots: readonly string[], parts: string[]): string | undefined {
    let paths: readonly string[] = roots;
    let file: string | undefined;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      const portions: string[] = [];
      let pkg: string | undefined;
      let mod: string | undefined;
      for (const dir of paths) {
        const listing = this.list(dir);
        if (!listing) continue;
        const sub = path.join(dir, part);
        if (listing.get(part) === 'dir' && this.list(sub)?.get('__init__.py') === 'file') {
          pkg = sub;
          break;
        }
        if (listing.get(`${part}.py`) === 'file') {
          mod = path.join(dir, `${part}.py`);
          break;
        }
        if (listing.get(part) === 'dir') portions.push(sub);
      }
      if (mod) return i === parts.length - 1 ? mod : undefined;
      if (pkg) {
        paths = [pkg];
        file = path.join(pkg, '__init__.py');
      } else if (portions.length) {
        paths = portions;
        file = undefined;
      } else return undefined;
    }
    return file;
  }
}

// ---------------------------------------------------------------------------------------------
// The environment's site-packages

/** The site-packages folders of a virtual environment (`lib/python3.X/site-packages`, or `Lib/site-packages` on Windows). */
export function sitePackagesOf(venv: string, resolver?: ModuleResolver): string[] {
  const out: string[] = [];
  const isDir = (p: string) => (resolver ? resolver.isDir(p) : safeIsDir(p));
  const lib = path.join(venv, 'lib');
  let names: string[] = [];
  try {
    names = fs.readdirSync(lib).filter((n) => /^(python|pypy)\d/.test(n)).sort().reverse();
  } catch {
    names = [];
  }
  for (const n of names) if (isDir(path.join(lib, n, 'site-packages'))) out.push(path.join(lib, n, 'site-packages'));
  if (isDir(path.join(venv, 'Lib', 'site-packages'))) out.push(path.join(venv, 'Lib', 'site-packages'));
  return out;
}

/** The environment an interpreter path belongs to: `<venv>/bin/python` → `<venv>` (with its `pyvenv.cfg`), else its prefix. */
export function environmentOfInterpreter(python: string): string | undefined {
  const bin = path.dirname(path.resolve(python));
  const prefix = path.dirname(bin);
  if (safeIsFile(path.join(prefix, 'pyvenv.cfg'))) return prefix;
  if (safeIsFile(path.join(bin, 'pyvenv.cfg'))) return bin; // Windows layouts keep python.exe at the root
  return prefix;
}

/** The virtual environments in a folder: `.venv` and `venv`. */
export function venvsIn(dir: string): string[] {
  return ['.venv', 'venv'].map((n) => path.join(dir, n)).filter((p) => safeIsFile(path.join(p, 'pyvenv.cfg')) || safeIsDir(path.join(p, 'lib')));
}

/**
 * The import roots an environment adds: its site-packages, then the folders its `.pth` files name
 * (editable installs, as uv and pip write them). Lines that `import` something are skipped: they are
 * code, and nothing is run.
 */
export function environmentRoots(venvs: readonly string[]): string[] {
  const out: string[] = [];
  for (const venv of venvs) {
    for (const site of sitePackagesOf(venv)) {
      if (!out.includes(site)) out.push(site);
      let pths: string[] = [];
      try {
        pths = fs.readdirSync(site).filter((n) => n.endsWith('.pth')).sort();
      } catch {
        pths = [];
      }
      for (const pth of pths) {
        let text = '';
        try {
          text = fs.readFileSync(path.join(site, pth), 'utf8').slice(0, 65536);
        } catch {
          continue;
        }
        for (const raw of text.split(/\r?\n/)) {
          const line = raw.trim();
          if (!line || line.startsWith('#') || /^import[ \t]/.test(line)) continue;
          const p = path.resolve(site, line);
          if (safeIsDir(p) && !out.includes(p)) out.push(p);
        }
      }
    }
  }
  return out;
}

function safeIsDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function safeIsFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}
