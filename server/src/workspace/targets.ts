// What a command line names, as programs to run: a directory through a program of its own (its entries
// and the modules they reach, found as Vis finds them), a file through the program of the current folder.
// Shared by the `check` and `contracts` commands. No VS Code types.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { entriesOfDirectory } from './discovery';
import { Program, type ProgramOptions } from './program';
import { Workspace } from './workspace';

export interface Target {
  program: Program;
  /** The file given (one URI), or empty for a directory (its program's entries). */
  uris: string[];
  /** The path as the user spelled it, and resolved. */
  given: string;
  abs: string;
}

/**
 * The targets of `paths` (the current folder when there are none). A symlink loop is passed to `loop`
 * and skipped; a path that does not exist ends the expansion (`missing`).
 */
export function commandLineTargets(paths: string[], options: Omit<ProgramOptions, 'root' | 'entries'> = {}): { targets: Target[] } | { missing: string } {
  const files = new Workspace({ globalDir: undefined, ...options });
  files.setFolders([process.cwd()]);
  const targets: Target[] = [];
  for (const p of paths.length ? paths : ['.']) {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(p);
    } catch (e) {
      // A symlink loop is a file that cannot be read: checked in its place, so that the reader says why.
      if ((e as NodeJS.ErrnoException).code !== 'ELOOP') return { missing: p };
    }
    const abs = path.resolve(p);
    if (stat?.isDirectory()) {
      const program = new Program({ ...options, root: abs, entries: entriesOfDirectory(abs) });
      // Files do not change during a command: each file's stamp is read once (as when an editor reports changes).
      program.configure({ watched: [abs] });
      targets.push({ program, uris: [], given: p, abs });
    }
    else {
      const uri = pathToFileURL(abs).href;
      targets.push({ program: files.programFor(uri), uris: [uri], given: p, abs });
    }
  }
  return { targets };
}

/** A module's path as the user spelled the folder (or file) they gave. */
export function shownPath(t: Target, file: string): string {
  const rel = path.relative(t.abs, file);
  return rel === '' ? t.given : rel.startsWith('..') || path.isAbsolute(rel) ? file : path.join(t.given, rel);
}
