// The document status request behind the client's language status item.
import { DocumentStatusRequest, type DocumentStatusParams, type DocumentStatusResult } from '../../../shared/protocol';
import { describeProfile } from '../sdk/profile';
import { analysisOf, type ServerContext } from './context';

export function registerStatus(ctx: ServerContext): void {
  ctx.connection.onRequest(DocumentStatusRequest, (params: DocumentStatusParams): DocumentStatusResult | null => {
    const doc = ctx.documents.get(params.uri);
    const analysis = doc && analysisOf(ctx, doc);
    if (!analysis) return null;
    return {
      generation: analysis.model.generation ?? null,
      generationAssumed: analysis.model.generationAssumed,
      sdk: (analysis.model.sdk && describeProfile(analysis.model.sdk)) ?? null,
      millis: Math.round(analysis.millis * 10) / 10,
      errors: analysis.findings.filter((f) => f.severity === 'error').length,
      warnings: analysis.findings.filter((f) => f.severity === 'warning').length,
    };
  });
}
