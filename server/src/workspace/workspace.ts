// The programs of a workspace: one per workspace folder, and one for documents outside every folder
// (untitled documents, files opened on their own). No VS Code types.
import path from 'node:path';
import { filePathOf } from '../rules/util';
import { Program, type ProgramOptions } from './program';

export class Workspace {
  private programs: Program[] = [];
  private loose: Program;

  constructor(private options: Omit<ProgramOptions, 'root'>) {
    this.loose = new Program(options);
  }

  /** The workspace folders changed: a program per folder (kept for folders that stay). */
  setFolders(roots: string[]): void {
    const next: Program[] = [];
    for (const r of roots.map((x) => path.resolve(x))) {
      next.push(this.programs.find((p) => p.root === r) ?? new Program({ ...this.options, root: r }));
    }
    this.programs = next;
    if (this.watchedRoots !== false) this.watch(this.watchedRoots);
  }

  /** The program of the innermost folder that holds the file, else the one for loose documents. */
  programFor(uri: string): Program {
    const file = filePathOf(uri);
    let best: Program | undefined;
    if (file) {
      for (const p of this.programs) {
        const rel = path.relative(p.root!, file);
        if (!rel.startsWith('..') && !path.isAbsolute(rel) && (!best || p.root!.length > best.root!.length)) best = p;
      }
    }
    return best ?? this.loose;
  }

  /** Every program, the one for loose documents last. */
  all(): Program[] {
    return [...this.programs, this.loose];
  }

  configure(settings: Parameters<Program['configure']>[0]): void {
    Object.assign(
      this.options,
      settings.overrides ? { overrides: settings.overrides } : {},
      settings.selection ? { selection: settings.selection } : {},
      settings.contractFormat ? { contractFormat: settings.contractFormat } : {},
    );
    for (const p of this.all()) p.configure(settings);
  }

  /** The client reports file changes under these folders (the workspace folders and the global extensions directory). */
  watch(globalDir: string | undefined): void {
    this.watchedRoots = globalDir;
    for (const p of this.all()) p.configure({ watched: [...(p.root ? [p.root] : []), ...(globalDir ? [globalDir] : [])] });
  }

  private watchedRoots: string | undefined | false = false;

  fileChanged(file: string, kind: 'created' | 'changed' | 'deleted'): void {
    for (const p of this.all()) p.fileChanged(file, kind);
  }
}
