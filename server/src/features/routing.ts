// `prompt.routing(...)` in the editor: a hover with the rendered block (or the error it raises, or
// why it cannot be evaluated), and the renderRouting request. The diagnostics are rules/routing.ts.
import type { Position } from 'vscode-languageserver/node';
import { RenderRoutingRequest, type RenderRoutingParams, type RenderRoutingResult } from '../../../shared/protocol';
import type { Analysis } from '../analysis';
import type { Call } from '../model/types';
import { WORDING_LABELS, evaluateRouting, routingCalls } from '../routing/evaluate';
import type { RoutingVersion } from '../routing/render';
import { currentAnalysisOf, routingVersionOf, type ServerContext } from './context';
import { addHoverSource, contains } from './hover';

/** The innermost routing call at a position. */
function routingCallAt(analysis: Analysis, position: Position): Call | undefined {
  return routingCalls(analysis.model)
    .filter((c) => contains(c.range, position))
    .at(-1);
}

/** Markdown for a routing call: the rendered block in a code fence, the error, or why it is not evaluated. */
export function routingHover(analysis: Pick<Analysis, 'model'>, call: Call, version: RoutingVersion): string {
  const r = evaluateRouting(analysis.model, call, version);
  if (r.kind === 'unknown') return `**prompt.routing** \u2014 not evaluated statically: ${r.reason}.`;
  if (r.kind === 'error') {
    return `**prompt.routing** raises \`${r.error.type}: ${r.error.message}\` when the module is imported, so Vis does not load the extension.`;
  }
  const fence = '`'.repeat(Math.max(3, ...[...r.text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  // No token count here: the first count of a session builds the encoder, seconds a hover cannot wait.
  return `**prompt.routing** \u2014 the text the model reads, ${WORDING_LABELS[version]}\n\n${fence}text\n${r.text}\n${fence}`;
}

export function registerRouting(ctx: ServerContext): void {
  addHoverSource((analysis, position, ctx) => {
    const call = routingCallAt(analysis, position);
    return call && routingHover(analysis, call, routingVersionOf(ctx.settings));
  });

  ctx.connection.onRequest(RenderRoutingRequest, async (params: RenderRoutingParams): Promise<RenderRoutingResult> => {
    const doc = ctx.documents.get(params.uri);
    const analysis = doc && (await currentAnalysisOf(ctx, doc));
    const call = analysis && routingCallAt(analysis, params.position);
    if (!analysis || !call) return null;
    const r = evaluateRouting(analysis.model, call, routingVersionOf(ctx.settings));
    return r.kind === 'text' ? { text: r.text } : null;
  });
}
