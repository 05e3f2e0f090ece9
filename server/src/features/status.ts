// The document status request behind the client's language status item.
import { DocumentStatusRequest, type ContractUnknown, type DocumentStatusParams, type DocumentStatusResult } from '../../../shared/protocol';
import type { Analysis } from '../analysis';
import { contractSteps, type SymbolInfo } from '../contracts';
import { stepsInSlices } from '../slices';
import { describeProfile } from '../sdk/profile';
import { currentAnalysisOf, editorFindings, type ServerContext } from './context';

/** `contracts` gives the Symbols of an analysis with their contracts (the ones hovers show). */
export function registerStatus(ctx: ServerContext, contracts: (analysis: Analysis) => SymbolInfo[] = () => []): void {
  ctx.connection.onRequest(DocumentStatusRequest, async (params: DocumentStatusParams): Promise<DocumentStatusResult | null> => {
    const doc = ctx.documents.get(params.uri);
    const analysis = doc && (await currentAnalysisOf(ctx, doc));
    if (!analysis) return null;
    // Every tool's contract (their unknown parts are listed), computed in slices for a file of many tools.
    const infos = contracts(analysis);
    await stepsInSlices(contractSteps(infos));
    const findings = editorFindings(ctx.settings, analysis.findings);
    return {
      generation: analysis.model.generation ?? null,
      generationAssumed: analysis.model.generationAssumed,
      sdk: (analysis.model.sdk && describeProfile(analysis.model.sdk)) ?? null,
      millis: Math.round(analysis.millis * 10) / 10,
      errors: findings.filter((f) => f.severity === 'error').length,
      warnings: findings.filter((f) => f.severity === 'warning').length,
      unknownTools: unknownTools(infos),
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
