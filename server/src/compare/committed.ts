// The contracts of an extension file as another revision has them (the last commit), for "what changed
// for the model": a program whose modules are the revision's text of the entry and of every sibling
// module its records and tools come from. Where the texts come from is the caller's: the VS Code client
// answers from its Git extension, the CLI runs `git show`. The server never spawns a process.
//
// Modules are found where they are on disk now (the import environment of the working tree) and their
// text is the revision's; a module the revision does not have, and third-party code in the environment,
// is read from disk.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { contractSet, type ContractSet } from '../contracts/diff';
import { contractSteps } from '../contracts/symbols';
import { filePathOf } from '../rules/util';
import type { ContractFormatSetting } from '../sdk/profile';
import { Program } from '../workspace/program';

/** A file's text in the revision, null when the revision does not have it. May throw with a message. */
export type ReadRevision = (filePath: string) => Promise<string | null>;

/** Sibling modules are asked for in rounds: each round may import modules the previous one did not reach. */
const MAX_ROUNDS = 6;

export interface Snapshot {
  /** Null when the entry file is not in the revision (every current tool is then added). */
  set: ContractSet | null;
  /** The files read from the revision (absolute paths), with null for those it does not have. */
  files: Map<string, string | null>;
}

/** Runs the analysis of a round; the server runs it in slices (a committed file can be large), the CLI at once. */
export type Analyse = <T>(work: () => T) => Promise<T>;
/** Runs steps (computing contracts); the server runs them in slices, the CLI at once. */
export type Steps = (steps: Iterable<unknown>) => Promise<void>;

/** The contract set of `entryPath` in a revision. Files already read (a cache) can be passed in `known`. */
export async function revisionContracts(
  entryPath: string,
  read: ReadRevision,
  format: ContractFormatSetting,
  known = new Map<string, string | null>(),
  analyse: Analyse = async (work) => work(),
  steps: Steps = async (s) => void [...s],
): Promise<Snapshot> {
  const entry = path.resolve(entryPath);
  const entryUri = pathToFileURL(entry).href;
  const files = new Map(known);
  if (!files.has(entry)) files.set(entry, await read(entry));
  if (files.get(entry) === null) return { set: null, files };
  for (let round = 0; ; round++) {
    const wanted = new Set<string>();
    let external: string[] | undefined;
    let resolving = false;
    const program: Program = new Program({
      contractFormat: format,
      keepTrees: false,
      entries: [{ path: entry, dir: path.dirname(entry), scope: 'project', packaged: path.basename(entry) === 'extension.py' }],
      open: (uri) => {
        const file = filePathOf(uri);
        if (!file) return undefined;
        const abs = path.resolve(file);
        if (files.has(abs)) {
          const text = files.get(abs);
          return text === null || text === undefined ? undefined : { version: 0, text };
        }
        // Third-party code is not the project's history: as installed. The environment itself reads
        // the manifests through here; while it is being worked out they are read from disk.
        if (external === undefined) {
          if (resolving) return undefined;
          resolving = true;
          try {
            external = program.environment(entryUri)?.external ?? [];
          } finally {
            resolving = false;
          }
        }
        if (!external.some((d) => !path.relative(d, abs).startsWith('..'))) wanted.add(abs);
        // This round reads it from disk; the next one reads the revision's text.
        return undefined;
      },
    });
    const infos = await analyse(() => program.symbols(entryUri));
    await steps(contractSteps(infos));
    const set = contractSet(infos);
    if (!wanted.size || round >= MAX_ROUNDS) return { set, files };
    let found = false;
    for (const f of wanted) {
      const t = await read(f).catch(() => null);
      files.set(f, t);
      found ||= t !== null;
    }
    // Every wanted module is one the revision does not have: this round read them as the next would.
    if (!found) return { set, files };
  }
}
