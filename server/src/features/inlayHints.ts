// Inlay hints (opt-in: `visAuthoring.inlayHints.enable`): after the function passed to `vis.Symbol(`
// (G1 `vis.symbol(`), the tool's public name when it differs from the function's name (G1: the
// alias-prefixed sandbox name), and the tag it has. Read from the program's Symbol analysis and G1 tools.
import { InlayHintKind, type InlayHint, type Range } from 'vscode-languageserver/node';
import type { Analysis } from '../analysis';
import type { Call } from '../model/types';
import type { SymbolInfo } from '../contracts/symbols';
import type { G1ToolInfo } from '../contracts/g1';
import { currentAnalysisOf, g1ToolsOf, symbolsOf, type ServerContext } from './context';
import { canonicalUri } from '../workspace/program';

interface Hint {
  call: Call;
  /** The function's own name (`fn.__name__`). */
  fnName: string;
  name: string;
  tag: string;
}

function hintsOf(analysis: Analysis, symbols: SymbolInfo[], g1: G1ToolInfo[]): Hint[] {
  if (analysis.model.generation === 'G1') {
    return g1.flatMap((t) => (t.contract && t.decl ? [{ call: t.call, fnName: t.decl.name, name: t.contract.sandbox_name ?? t.contract.symbol, tag: t.contract.tag }] : []));
  }
  return symbols.flatMap((info) => {
    const tool = info.form === 'function' ? info.tools[0] : undefined;
    return tool?.decl ? [{ call: info.call, fnName: tool.decl.name, name: tool.name, tag: tool.tag }] : [];
  });
}

const before = (a: { line: number; character: number }, b: { line: number; character: number }) => a.line < b.line || (a.line === b.line && a.character <= b.character);

export function inlayHints(analysis: Analysis, range: Range, symbols: SymbolInfo[], g1: G1ToolInfo[]): InlayHint[] {
  const out: InlayHint[] = [];
  for (const h of hintsOf(analysis, symbols, g1)) {
    const fn = h.call.args[0];
    if (!fn || !before(range.start, fn.range.end) || !before(fn.range.end, range.end)) continue;
    const label = h.name !== h.fnName ? `→ ${h.name} · ${h.tag}` : `→ ${h.tag}`;
    out.push({ position: fn.range.end, label, kind: InlayHintKind.Type, paddingLeft: true, tooltip: h.name !== h.fnName ? `The model calls this tool ${h.name}; its tag is ${h.tag}.` : `Its tag is ${h.tag}.` });
  }
  return out;
}

export function registerInlayHints(ctx: ServerContext): void {
  ctx.connection.languages.inlayHint.on(async (params) => {
    if (ctx.settings.inlayHints?.enable !== true) return [];
    const doc = ctx.documents.get(params.textDocument.uri);
    const analysis = doc && (await currentAnalysisOf(ctx, doc));
    // Hints answered from an older analysis are asked for again once the current one is done.
    if (doc && ctx.scheduler.pendingAnswer(canonicalUri(doc.uri)) && ctx.clientCapabilities?.workspace?.inlayHint?.refreshSupport) {
      ctx.scheduler.onceAnalysed(canonicalUri(doc.uri), 'inlayHint', () => void ctx.connection.languages.inlayHint.refresh().catch(() => undefined));
    }
    if (!analysis?.model.generation) return [];
    const uri = params.textDocument.uri;
    try {
      return inlayHints(analysis, params.range, symbolsOf(ctx, uri), g1ToolsOf(ctx, uri));
    } catch (e) {
      ctx.log(`inlay hints failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return [];
    }
  });
}
