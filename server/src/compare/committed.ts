// The contracts of an extension file as another revision has them (the last commit), for "what changed
// for the model": the entry file's committed text and, read the same way, the committed text of every
// sibling module its records and tools come from. Where files come from is the caller's: the VS Code
// client answers from its Git extension, the CLI runs `git show`. The server never spawns a process.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { symbolInfos } from '../contracts/symbols';
import { contractSet, type ContractSet } from '../contracts/diff';
import type { ContractFormat } from '../contracts/types';
import { ModelBuilder } from '../model/build';
import { checkNestingLimits } from '../parse/limits';
import { disposeDocument, guarded, parseDocument } from '../parse/parser';
import { WorkspaceModules } from '../workspace/modules';

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

/** The contract set of `entryPath` in a revision. Files already known (a cache) can be passed in `known`. */
export async function revisionContracts(entryPath: string, read: ReadRevision, format: ContractFormat, known = new Map<string, string | null>()): Promise<Snapshot> {
  const entry = path.resolve(entryPath);
  const files = new Map(known);
  if (!files.has(entry)) files.set(entry, await read(entry));
  const text = files.get(entry);
  if (text === null || text === undefined) return { set: null, files };
  for (let round = 0; ; round++) {
    const wanted = new Set<string>();
    // Only the revision's files: a file it does not have, or has not been asked for yet, is absent this round.
    const modules = new WorkspaceModules((file) => {
      const abs = path.resolve(file);
      if (files.has(abs)) {
        const t = files.get(abs);
        return t === null || t === undefined ? null : { version: 0, text: t };
      }
      wanted.add(abs);
      return null;
    });
    const set = contractsOf(entry, text, modules, format);
    if (!wanted.size || round >= MAX_ROUNDS) return { set, files };
    let found = false;
    for (const f of wanted) {
      const t = await read(f).catch(() => null);
      files.set(f, t);
      found ||= t !== null;
    }
    // This round took every wanted file as absent: when the revision has none of them, it is the answer.
    if (!found) return { set, files };
  }
}

function contractsOf(entry: string, text: string, modules: WorkspaceModules, format: ContractFormat): ContractSet {
  // The committed text is the user's too: Python's nesting limits first, and parser faults contained.
  const limit = checkNestingLimits(text);
  if (limit) return { tools: [], unknown: [{ name: path.basename(entry), reason: `the committed file is not read: ${limit.message}` }] };
  const model = guarded(() => {
    const doc = parseDocument(text);
    try {
      return new ModelBuilder().build(pathToFileURL(entry).href, doc);
    } finally {
      disposeDocument(doc);
    }
  });
  const infos = symbolInfos(model, { format, loader: modules.loaderFor(entry, model), path: entry });
  return contractSet(infos);
}
