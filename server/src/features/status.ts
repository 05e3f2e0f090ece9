// The document status request behind the client's language status item. It answers at once from the
// document's last finished analysis; the part that needs every tool's contract (the tools whose contract
// is not statically known) is computed in slices, shared by the requests that ask meanwhile: when it is
// not done within CONTRACTS_WAIT_MS the answer carries the last list known for the document (an older
// version's, or none), says `contractsPending`, and the client asks again a little later.
import { DocumentStatusRequest, type ContractUnknown, type DocumentStatusParams, type DocumentStatusResult } from '../../../shared/protocol';
import type { Analysis } from '../analysis';
import { contractSteps, type SymbolInfo } from '../contracts';
import { stepsInSlices } from '../slices';
import { describeProfile } from '../sdk/profile';
import { currentAnalysisOf, editorFindings, type ServerContext } from './context';

/** How long a status request waits for the contracts of a file of many tools before it answers without them. */
export const CONTRACTS_WAIT_MS = 100;

/** `contracts` gives the Symbols of an analysis with their contracts (the ones hovers show). */
export function registerStatus(ctx: ServerContext, contracts: (analysis: Analysis) => SymbolInfo[] = () => []): void {
  /** The unknown tools of a Symbol analysis, once every contract in it is computed. */
  const unknown = new WeakMap<SymbolInfo[], ContractUnknown[]>();
  /** The contracts of a Symbol analysis being computed (one computation, whoever asks). */
  const computing = new WeakMap<SymbolInfo[], Promise<void>>();
  /** The last unknown tools computed for each open document. */
  const last = new Map<string, ContractUnknown[]>();
  ctx.documents.onDidClose((e) => last.delete(e.document.uri));

  /** Computes the contracts of `infos` in slices (stopped once the document moved on or closed), then lists the unknown tools. */
  const compute = (uri: string, version: number, infos: SymbolInfo[]): Promise<void> => {
    let job = computing.get(infos);
    if (!job) {
      const stale = () => ctx.documents.get(uri)?.version !== version;
      let finished = false;
      const steps = function* () {
        yield* contractSteps(infos);
        finished = true;
      };
      job = stepsInSlices(steps(), undefined, stale)
        .then(() => {
          if (!finished) return;
          const list = unknownTools(infos);
          unknown.set(infos, list);
          last.set(uri, list);
        })
        .catch((e: unknown) => ctx.log(`the contracts of ${uri} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`))
        .finally(() => computing.delete(infos));
      computing.set(infos, job);
    }
    return job;
  };

  ctx.connection.onRequest(DocumentStatusRequest, async (params: DocumentStatusParams): Promise<DocumentStatusResult | null> => {
    const doc = ctx.documents.get(params.uri);
    const analysis = doc && (await currentAnalysisOf(ctx, doc));
    if (!doc || !analysis) return null;
    const infos = contracts(analysis);
    if (!unknown.has(infos)) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([compute(params.uri, doc.version, infos), new Promise<void>((r) => (timer = setTimeout(r, CONTRACTS_WAIT_MS)))]);
      clearTimeout(timer);
    }
    const known = unknown.get(infos);
    const findings = editorFindings(ctx.settings, analysis.findings);
    return {
      generation: analysis.model.generation ?? null,
      generationAssumed: analysis.model.generationAssumed,
      sdk: (analysis.model.sdk && describeProfile(analysis.model.sdk)) ?? null,
      millis: Math.round(analysis.millis * 10) / 10,
      errors: findings.filter((f) => f.severity === 'error').length,
      warnings: findings.filter((f) => f.severity === 'warning').length,
      unknownTools: known ?? last.get(params.uri) ?? [],
      ...(known ? {} : { contractsPending: true }),
    };
  });
}

/** Each tool whose contract is not (fully) known statically: by name, with the first reason. */
export function unknownTools(infos: SymbolInfo[]): ContractUnknown[] {
  const out: ContractUnknown[] = [];
  for (const info of infos) {
    for (const u of info.unknownTools) out.push(u);
    for (const t of info.tools) {
      const [first, ...rest] = t.unknowns;
      if (first) out.push({ where: t.name, reason: `${first.where}: ${first.reason}${rest.length ? ` (and ${rest.length} more)` : ''}` });
    }
  }
  return out;
}
