// Which saved files should trigger a reload: files under the extension directories and the source
// roots extensions declare (spec §5). No `vscode` import.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { parse as parseToml } from 'smol-toml';

export interface ExtensionRoots {
  /** `<ws>/.vis/extensions` and the global extensions directory. */
  extensionDirs: string[];
  /** `[tool.vis] source_paths` and `project` directories declared by extensions. */
  sourceRoots: string[];
}

/** The `# /// script` … `# ///` block of a single-file extension (PEP 723), as TOML text. */
export function scriptBlock(text: string): string | undefined {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => /^# \/\/\/ script\s*$/.test(l));
  if (start < 0) return undefined;
  const body: string[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    if (/^# \/\/\/\s*$/.test(lines[i])) return body.join('\n');
    if (!lines[i].startsWith('#')) return undefined;
    body.push(lines[i].replace(/^# ?/, ''));
  }
  return undefined;
}

function declared(toml: string, baseDir: string): string[] {
  let doc: any;
  try { doc = parseToml(toml); } catch { return []; }
  const vis = doc?.tool?.vis;
  if (!vis || typeof vis !== 'object') return [];
  const out: string[] = [];
  if (Array.isArray(vis.source_paths)) for (const p of vis.source_paths) if (typeof p === 'string') out.push(path.resolve(baseDir, p));
  if (typeof vis.project === 'string') out.push(path.resolve(baseDir, vis.project));
  return out;
}

async function readHead(file: string): Promise<string | undefined> {
  try {
    const fh = await fsp.open(file, 'r');
    try {
      const buf = Buffer.alloc(65536);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      return buf.toString('utf8', 0, bytesRead);
    } finally {
      await fh.close();
    }
  } catch {
    return undefined;
  }
}

export async function findExtensionRoots(extensionDirs: string[]): Promise<ExtensionRoots> {
  const roots = new Set<string>();
  for (const dir of extensionDirs) {
    let entries: import('node:fs').Dirent[] = [];
    try { entries = await fsp.readdir(dir, { withFileTypes: true }); } catch { continue; }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isFile() && e.name.endsWith('.py')) {
        const block = scriptBlock((await readHead(full)) ?? '');
        if (block) declared(block, dir).forEach((r) => roots.add(r));
      } else if (e.isDirectory() && !e.name.startsWith('.')) {
        for (const pkg of [full, path.join(full, 'current')]) {
          const toml = await readHead(path.join(pkg, 'pyproject.toml'));
          if (toml) declared(toml, pkg).forEach((r) => roots.add(r));
        }
      }
    }
  }
  return { extensionDirs, sourceRoots: [...roots].sort() };
}

function inside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** Does saving this file call for a reload? Python files and manifests under the roots. */
export function triggersReload(file: string, roots: ExtensionRoots): boolean {
  const name = path.basename(file);
  if (!(name.endsWith('.py') || name === 'pyproject.toml' || name === 'uv.lock')) return false;
  return [...roots.extensionDirs, ...roots.sourceRoots].some((d) => inside(file, d));
}

/** Candidate files for a failure target (a file name, a path or an extension name). */
export function failureFiles(target: string, extensionDirs: string[]): string[] {
  if (path.isAbsolute(target)) return [target];
  const out: string[] = [];
  for (const dir of extensionDirs) {
    if (target.endsWith('.py')) out.push(path.join(dir, target));
    else out.push(path.join(dir, `${target}.py`), path.join(dir, target, 'extension.py'), path.join(dir, target, 'current', 'extension.py'));
  }
  return out;
}
