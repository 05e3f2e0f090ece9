// Hover: a thin provider that asks each hover source, in order, for a card at the position.
import type { Hover, Position } from 'vscode-languageserver/node';
import type { Analysis } from '../analysis';
import { currentAnalysisOf, type ServerContext } from './context';

/** A hover source: Markdown for the position, or undefined when it has nothing to say there. `uri` is the document's, as the client names it. */
export type HoverSource = (analysis: Analysis, position: Position, ctx: ServerContext, uri: string) => string | undefined;

const sources: HoverSource[] = [];

/** Features add their hover sources here (contracts, routing, ...). */
export function addHoverSource(source: HoverSource): void {
  sources.push(source);
}

export function registerHover(ctx: ServerContext): void {
  ctx.connection.onHover(async (params): Promise<Hover | null> => {
    const doc = ctx.documents.get(params.textDocument.uri);
    const analysis = doc && (await currentAnalysisOf(ctx, doc));
    if (!analysis) return null;
    for (const source of sources) {
      const value = source(analysis, params.position, ctx, params.textDocument.uri);
      if (value) return { contents: { kind: 'markdown', value } };
    }
    return null;
  });
}

/** True when `pos` lies within `range` (ends inclusive). */
export function contains(range: { start: Position; end: Position }, pos: Position): boolean {
  const after = pos.line > range.start.line || (pos.line === range.start.line && pos.character >= range.start.character);
  const before = pos.line < range.end.line || (pos.line === range.end.line && pos.character <= range.end.character);
  return after && before;
}
