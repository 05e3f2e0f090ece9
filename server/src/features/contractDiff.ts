// "What changed for the model since the last commit": the compareContracts request behind "Vis: Compare
// Contracts with HEAD", and the same comparison for the docs preview. The committed files come from the
// client (CommittedTextRequest, answered from VS Code's Git extension); the server compares the two
// contract sets and spawns nothing.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CommittedTextRequest,
  CompareContractsRequest,
  type CommittedTextResult,
  type CompareContractsParams,
  type CompareContractsResult,
} from '../../../shared/protocol';
import type { Analysis } from '../analysis';
import { revisionContracts } from '../compare/committed';
import { compareContracts, contractSet, diffText, type ContractSet } from '../contracts/diff';
import type { ContractFormatSetting } from '../sdk/profile';
import { filePathOf } from '../rules/util';
import { analysisOfUri, currentAnalysisOf, type ServerContext } from './context';
import { formatOf, formatSetting, type ContractService } from './contractHover';
import { stepsInSlices } from '../slices';

const REF = 'HEAD';

export interface ContractComparer {
  /** The comparison of a document (open, or read from disk) with its last commit. */
  compare(uri: string): Promise<CompareContractsResult>;
  /** Whether the client provides committed files (else there is nothing to compare with). */
  available(): boolean;
}

class Unavailable extends Error {}

export function registerContractDiff(ctx: ServerContext, contracts: ContractService, clientProvidesCommits: () => boolean): ContractComparer {
  // Committed texts and contract sets per entry file, keyed by the revision label (it names the commit).
  const cache = new Map<string, { label: string; format: ContractFormatSetting; files: Map<string, string | null>; set: ContractSet | null }>();

  async function compare(uri: string): Promise<CompareContractsResult> {
    const none = (text: string): CompareContractsResult => ({ base: null, text: text + '\n', changes: [], breaking: 0 });
    const entry = filePathOf(uri);
    if (!entry) return none(`${uri} is not a file on disk, so it has no committed version.`);
    if (!clientProvidesCommits()) return none('This editor does not provide committed file versions (VS Code does, through its Git extension); run `vis-authoring contracts --diff HEAD` instead.');
    const analysis = await current(uri);
    if (!analysis) return none(`${path.basename(entry)} is not analysed (Vis Authoring is disabled, or the file is too large or unreadable).`);
    // The committed revision is read with the setting, not this file's format: when its pin or
    // registration differs, the model saw contracts in another format, and that is a change too.
    const format = formatSetting(ctx);
    let label = REF;
    const read = async (file: string): Promise<string | null> => {
      const r = (await ctx.connection.sendRequest(CommittedTextRequest, { uri: pathToFileURL(file).href, ref: REF })) as CommittedTextResult | null;
      if (!r) throw new Unavailable('the editor gave no answer');
      if ('unavailable' in r) throw new Unavailable(r.unavailable);
      label = r.label;
      return r.text;
    };
    try {
      const entryText = await read(entry);
      const hit = cache.get(entry);
      let set: ContractSet | null;
      if (hit && hit.label === label && hit.format === format && hit.files.get(path.resolve(entry)) === entryText) set = hit.set;
      else {
        const snapshot = await revisionContracts(entry, read, format, new Map([[path.resolve(entry), entryText]]), (work) => ctx.scheduler.background(work), (steps) => stepsInSlices(steps));
        set = snapshot.set;
        cache.set(entry, { label, format, files: snapshot.files, set });
      }
      // Every tool's contract, computed in slices (thousands of tools take seconds).
      const nowFormat = formatOf(ctx, analysis.model);
      await stepsInSlices(contracts.steps(analysis, nowFormat));
      const now = contractSet(contracts.infos(analysis, nowFormat));
      const diff = compareContracts(set ?? { tools: [], unknown: [] }, now);
      const head = set ? '' : `${path.basename(entry)} is not in ${label}: every tool is new.\n`;
      return { base: label, text: head + diffText(diff, label), changes: diff.changes, breaking: diff.breaking };
    } catch (e) {
      if (e instanceof Unavailable) return none(`No committed version to compare with: ${e.message}.`);
      ctx.log(`contract comparison of ${uri} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return none(`The comparison failed: ${e instanceof Error ? e.message : String(e)}.`);
    }
  }

  /** The open document's analysis, else the file on disk. */
  async function current(uri: string): Promise<Pick<Analysis, 'model'> | undefined> {
    const doc = ctx.documents.get(uri);
    if (doc) return currentAnalysisOf(ctx, doc);
    // A file that is not open is read only inside a workspace folder or when it was opened this session.
    const file = filePathOf(uri);
    return file && ctx.readable(file) ? analysisOfUri(ctx, uri) : undefined;
  }

  ctx.connection.onRequest(CompareContractsRequest, (params: CompareContractsParams) => compare(params.uri));
  return { compare, available: clientProvidesCommits };
}
