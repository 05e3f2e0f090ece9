// Model-facing docs previews over LSP: the previewDocs and previewPrompt requests, and two code
// lenses above the registration call that open them in the client (client/src/previews.ts).
import { CodeLensRefreshRequest, LSPErrorCodes, ResponseError, type CancellationToken, type CodeLens } from 'vscode-languageserver/node';
import { canonicalUri } from '../workspace/program';
import { stepsInSlices } from '../slices';
import {
  PreviewDocsCommand,
  PreviewDocsRequest,
  PreviewPromptCommand,
  PreviewPromptRequest,
  type PreviewDocsParams,
  type PreviewDocsResult,
} from '../../../shared/protocol';
import type { Analysis } from '../analysis';
import { findExtension } from '../docs/extension';
import { previewDocs, previewPrompt, type DocsPreview, type PreviewChanges } from '../docs/preview';
import { countTokensInSlices, deferCounts, loadTokenizer } from '../docs/tokens';
import type { ToolDocSource } from '../docs/toolDocs';
import { filePathOf } from '../rules/util';
import { readTextFileSync } from '../../../shared/files';
import { analysisOfUri, currentAnalysisOf, routingVersionOf, type ServerContext } from './context';
import type { ContractComparer } from './contractDiff';

type Kind = 'docs' | 'prompt';

/**
 * `steps` computes what the tool pages read (the contracts), one tool a step: run in slices before the
 * preview is built, so that a file of thousands of tools holds up nothing.
 */
export function registerPreviews(ctx: ServerContext, tools: ToolDocSource, comparer?: ContractComparer, steps?: (analysis: Analysis) => Iterable<void>): void {
  // Built anew for each request (milliseconds; token counts are cached by text): a preview depends
  // on the document and also on sibling modules its records come from, which change on their own.
  const build = (analysis: Pick<Analysis, 'model'>, kind: Kind, changes?: PreviewChanges): DocsPreview => {
    const options = { tools, routingVersion: routingVersionOf(ctx.settings), changes };
    return kind === 'docs' ? previewDocs(analysis, options) : previewPrompt(analysis, options);
  };
  /** The docs preview ends with what changed since the last commit, where the editor provides commits. */
  const changes = async (kind: Kind, uri: string): Promise<PreviewChanges | undefined> => {
    if (kind !== 'docs' || !comparer?.available()) return undefined;
    const r = await comparer.compare(uri);
    return { title: r.base ? `Changes since ${r.base}` : 'Changes since the last commit', text: r.text };
  };

  /**
   * The preview of an open document, or of the file on disk (a preview can outlive its editor), through
   * the program. A file that is not open is read only inside a workspace folder or when it was opened in
   * this session, and only through the guarded reader: a URI naming a FIFO or a device gets its reason at once.
   */
  const request = (kind: Kind) => async (params: PreviewDocsParams, token: CancellationToken): Promise<PreviewDocsResult> => {
    // The token table loads in the background (in slices) after the first analysis; a preview that
    // comes first waits for it, without holding up other requests.
    await loadTokenizer();
    const diff = await changes(kind, params.uri);
    if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'the request was cancelled');
    const doc = ctx.documents.get(params.uri);
    let analysis: Analysis | undefined;
    let why = 'Vis Authoring is disabled, or the file failed to analyse';
    if (doc) analysis = await currentAnalysisOf(ctx, doc);
    else {
      const file = filePathOf(params.uri);
      if (file === undefined) why = 'it is not an open document or a file';
      else if (!ctx.readable(file)) why = 'it is neither open nor inside a workspace folder, so it is not read';
      else {
        analysis = analysisOfUri(ctx, params.uri);
        const read = analysis ? undefined : readTextFileSync(file, { maxBytes: ctx.settings.maxFileSize * 3 });
        if (read && !read.ok) why = read.message;
      }
    }
    let p: DocsPreview | undefined;
    if (analysis) {
      const cancelled = () => token.isCancellationRequested;
      if (steps) await stepsInSlices(steps(analysis), undefined, cancelled);
      if (cancelled()) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'the request was cancelled');
      // Texts not counted yet are counted in slices (a long docstring takes seconds), then the preview is built with them.
      const first = deferCounts(() => build(analysis, kind, diff));
      p = first.result;
      if (first.uncounted.length) {
        for (const text of first.uncounted) {
          await countTokensInSlices(text);
          if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'the request was cancelled');
        }
        p = build(analysis, kind, diff);
      }
    }
    if (!p) {
      const text = `No preview for ${params.uri}: ${why}.\n`;
      return { text, parts: [], tokens: 0 };
    }
    return { text: p.text, parts: p.parts.map((x) => ({ title: x.title, tokens: x.tokens, ...(x.estimated ? { estimated: true } : {}) })), tokens: p.tokens };
  };

  ctx.connection.onRequest(PreviewDocsRequest, request('docs'));
  ctx.connection.onRequest(PreviewPromptRequest, request('prompt'));

  // The lenses carry no token counts: building the o200k_base encoder takes seconds, which the first
  // lens of every session would otherwise block on. The counts are in the previews themselves.
  ctx.connection.onCodeLens(async (params): Promise<CodeLens[]> => {
    const doc = ctx.documents.get(params.textDocument.uri);
    const analysis = doc && (await currentAnalysisOf(ctx, doc));
    // Lenses answered from an older analysis are asked for again once the current one is done.
    if (doc && ctx.scheduler.pendingAnswer(canonicalUri(doc.uri)) && ctx.clientCapabilities?.workspace?.codeLens?.refreshSupport) {
      ctx.scheduler.onceAnalysed(canonicalUri(doc.uri), 'codeLens', () => {
        ctx.connection.sendRequest(CodeLensRefreshRequest.type).catch((err: unknown) => ctx.log(`could not refresh code lenses: ${err instanceof Error ? err.message : String(err)}`));
      });
    }
    const ext = analysis && findExtension(analysis.model);
    if (!ext) return [];
    const { range } = ext.anchor;
    const args = [params.textDocument.uri];
    return [
      { range, command: { title: 'Preview model-facing docs', command: PreviewDocsCommand, arguments: args } },
      { range, command: { title: 'Preview prompt', command: PreviewPromptCommand, arguments: args } },
    ];
  });
}
