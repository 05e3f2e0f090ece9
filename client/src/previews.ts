// Model-facing docs previews in VS Code: read-only virtual documents (scheme `vis-preview`) filled by
// the server's previewDocs/previewPrompt requests (Markdown: a heading per part with its token count),
// refreshed while the source file is edited, and the two commands the server's code lenses invoke.
// The documents get the `vis-preview` language (package.json): Markdown highlighting, and word wrap on
// by default (`[vis-preview]` `editor.wordWrap`), so that long lines read in a split editor.
// Call `registerPreviews` once the client is created.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { t } from './l10n';
import {
  PreviewDocsCommand,
  PreviewDocsRequest,
  PreviewPromptCommand,
  PreviewPromptRequest,
  type PreviewDocsParams,
  type PreviewDocsResult,
} from '../../shared/protocol';

export const PREVIEW_SCHEME = 'vis-preview';
/** The language of preview documents (contributed in package.json). */
export const PREVIEW_LANGUAGE = 'vis-preview';
/** Quiet time after the last edit before open previews are asked again. */
const REFRESH_MS = 300;

type Kind = 'docs' | 'prompt';

const TITLES: Record<Kind, () => string> = { docs: () => t('model-facing docs'), prompt: () => t('prompt') };

/** `vis-preview:/extension.py · model-facing docs?kind=docs&source=<source URI>`: the tab shows the path's last segment. */
export function previewUri(source: vscode.Uri, kind: Kind): vscode.Uri {
  const name = source.path.slice(source.path.lastIndexOf('/') + 1);
  return vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${name} \u00b7 ${TITLES[kind]()}`, query: new URLSearchParams({ kind, source: source.toString() }).toString() });
}

function parsePreviewUri(uri: vscode.Uri): { kind: Kind; source: string } {
  const q = new URLSearchParams(uri.query);
  return { kind: q.get('kind') === 'prompt' ? 'prompt' : 'docs', source: q.get('source') ?? '' };
}

class PreviewProvider implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly client: LanguageClient) {}

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const { kind, source } = parsePreviewUri(uri);
    const params: PreviewDocsParams = { uri: source };
    try {
      const result = await this.client.sendRequest<PreviewDocsResult>(kind === 'docs' ? PreviewDocsRequest : PreviewPromptRequest, params, token);
      return result.text;
    } catch (e) {
      return t('The preview of {0} failed: {1}', source, e instanceof Error ? e.message : String(e)) + '\n';
    }
  }

  refresh(uri: vscode.Uri): void {
    this.changed.fire(uri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Open preview documents, optionally only those of one source file. */
function openPreviews(source?: string): vscode.Uri[] {
  return vscode.workspace.textDocuments
    .filter((d) => d.uri.scheme === PREVIEW_SCHEME && (source === undefined || parsePreviewUri(d.uri).source === source))
    .map((d) => d.uri);
}

export function registerPreviews(context: vscode.ExtensionContext, client: LanguageClient): void {
  const provider = new PreviewProvider(client);
  const timers = new Map<string, NodeJS.Timeout>();

  /** Refreshes the open previews of `source` (all of them when undefined) after REFRESH_MS of quiet. */
  const schedule = (source?: string) => {
    const key = source ?? '*';
    clearTimeout(timers.get(key));
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        for (const uri of openPreviews(source)) provider.refresh(uri);
      }, REFRESH_MS),
    );
  };

  const open = (kind: Kind) => async (arg?: string | vscode.Uri) => {
    let source = typeof arg === 'string' ? vscode.Uri.parse(arg) : (arg ?? vscode.window.activeTextEditor?.document.uri);
    // From a preview's own editor, preview its source again.
    if (source?.scheme === PREVIEW_SCHEME) source = vscode.Uri.parse(parsePreviewUri(source).source);
    if (!source) {
      void vscode.window.showInformationMessage(t('Open a Vis extension file to preview what the model sees.'));
      return;
    }
    const uri = previewUri(source, kind);
    const wasOpen = openPreviews().some((u) => u.toString() === uri.toString());
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== PREVIEW_LANGUAGE) doc = await vscode.languages.setTextDocumentLanguage(doc, PREVIEW_LANGUAGE);
    // Not a preview tab: the docs and the prompt previews stay open side by side.
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
    if (wasOpen) provider.refresh(uri);
  };

  context.subscriptions.push(
    provider,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, provider),
    vscode.commands.registerCommand(PreviewDocsCommand, open('docs')),
    vscode.commands.registerCommand(PreviewPromptCommand, open('prompt')),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.uri.scheme !== PREVIEW_SCHEME && e.contentChanges.length > 0) {
        const source = e.document.uri.toString();
        if (openPreviews(source).length > 0) schedule(source);
      }
    }),
    // The server reads its settings on its own; give it the same quiet time before asking again.
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('visAuthoring')) schedule();
    }),
    { dispose: () => timers.forEach(clearTimeout) },
  );
}
