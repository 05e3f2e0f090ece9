// Format preview: what the Python formatter would change in the active file, as `+A −R` lines in the
// status bar and as a diff against a read-only copy of the formatted text. Nothing is written.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { LineChangesRequest, type LineChangesParams, type LineChangesResult } from '../../shared/protocol';
import { applyTextEdits, formatNumstat } from './textEdits';

export const PREVIEW_SCHEME = 'vis-format-preview';
export const PREVIEW_COMMAND = 'visAuthoring.previewFormatChanges';
export const REFRESH_COMMAND = 'visAuthoring.refreshFormatChanges';
const STATUS_SETTING = 'visAuthoring.formatPreview.statusBar';
const FORMATTER_SETTING = 'editor.defaultFormatter';

/** What formatting the document would do, or why it cannot be told. */
type Preview =
  | { kind: 'changes'; formatted: string; counts: LineChangesResult }
  | { kind: 'no-formatter'; message: string };

/** Formatted copies shown in diff editors, by preview URI; read-only (a content provider's documents are). */
class PreviewContents implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  set(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  forget(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }

  dispose(): void {
    this.changed.dispose();
    this.texts.clear();
  }
}

/** The preview URI of a document: same path (so the language and icon follow), original URI in the query. */
function previewUri(document: vscode.TextDocument): vscode.Uri {
  return vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: document.uri.path, query: document.uri.toString() });
}

/** The document a preview shows the formatting of; any other document is itself. */
function sourceOf(document: vscode.TextDocument | undefined): vscode.TextDocument | undefined {
  if (document?.uri.scheme !== PREVIEW_SCHEME) return document;
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === document.uri.query);
}

function isPython(document: vscode.TextDocument | undefined): document is vscode.TextDocument {
  return document?.languageId === 'python' && document.uri.scheme !== PREVIEW_SCHEME;
}

/** Tab size and indentation of the editor showing `document`, else the settings for it. */
function formattingOptions(document: vscode.TextDocument): vscode.FormattingOptions {
  const editor = vscode.window.visibleTextEditors.find((e) => e.document === document);
  const config = vscode.workspace.getConfiguration('editor', document);
  const tabSize = editor?.options.tabSize;
  const insertSpaces = editor?.options.insertSpaces;
  return {
    tabSize: typeof tabSize === 'number' ? tabSize : config.get<number>('tabSize', 4),
    insertSpaces: typeof insertSpaces === 'boolean' ? insertSpaces : config.get<boolean>('insertSpaces', true),
  };
}

/**
 * Why the formatter gave no edits. VS Code's `vscode.executeFormatDocumentProvider` answers undefined
 * both when no formatter is registered and when every formatter has nothing to change, so this says
 * which one the settings point to.
 */
function noEditsReason(document: vscode.TextDocument): Preview {
  const chosen = vscode.workspace.getConfiguration('editor', document).get<string | null>('defaultFormatter');
  if (chosen && vscode.extensions.getExtension(chosen)) {
    return { kind: 'changes', formatted: document.getText(), counts: { added: 0, removed: 0 } };
  }
  const message = chosen
    ? `No formatter is available for Python: \`${FORMATTER_SETTING}\` for \`[python]\` names ${chosen}, which is not installed.`
    : `No formatter gave edits for this Python file. Install a Python formatter and set \`${FORMATTER_SETTING}\` for \`[python]\` to it; if one is set up already, the file is formatted.`;
  return { kind: 'no-formatter', message };
}

export function registerFormatPreview(context: vscode.ExtensionContext, client: LanguageClient): void {
  const contents = new PreviewContents();
  const status = vscode.window.createStatusBarItem('visAuthoring.formatPreview', vscode.StatusBarAlignment.Right, 100);
  status.name = 'Vis: Format Changes';
  status.command = PREVIEW_COMMAND;
  let sequence = 0;

  async function preview(document: vscode.TextDocument): Promise<Preview> {
    const version = document.version;
    const edits = await vscode.commands.executeCommand<vscode.TextEdit[] | undefined>(
      'vscode.executeFormatDocumentProvider',
      document.uri,
      formattingOptions(document),
    );
    if (!edits || edits.length === 0) return noEditsReason(document);
    const before = document.getText();
    if (document.version !== version) throw new vscode.CancellationError();
    const formatted = applyTextEdits(before, edits);
    const params: LineChangesParams = { before, after: formatted };
    const counts = await client.sendRequest<LineChangesResult>(LineChangesRequest, params);
    return { kind: 'changes', formatted, counts };
  }

  function statusEnabled(): boolean {
    return vscode.workspace.getConfiguration().get<boolean>(STATUS_SETTING, true);
  }

  /** Shows a preview's counts in the status bar, unless a newer refresh started since `mine`. */
  function showStatus(result: Preview, mine: number): void {
    if (mine !== sequence) return;
    if (result.kind === 'changes') {
      status.text = `$(diff) ${formatNumstat(result.counts)}`;
      status.tooltip = `Vis: formatting would add ${result.counts.added} and remove ${result.counts.removed} lines (nothing is written). Click to preview.`;
    } else {
      status.text = '$(diff) no formatter';
      status.tooltip = result.message;
    }
  }

  function showFailure(e: unknown, mine: number): void {
    if (mine !== sequence) return;
    if (e instanceof vscode.CancellationError) {
      status.text = '$(diff) format';
      status.tooltip = 'Vis: the file changed while the formatter ran; save it or run Vis: Refresh Format Changes Count.';
    } else {
      status.text = '$(warning) format';
      status.tooltip = `Vis: the format preview failed: ${e instanceof Error ? e.message : String(e)}`;
    }
  }

  async function refresh(shown = vscode.window.activeTextEditor?.document): Promise<Preview | undefined> {
    const mine = ++sequence;
    const document = sourceOf(shown);
    if (!isPython(document) || !statusEnabled()) {
      status.hide();
      return undefined;
    }
    status.text = '$(sync~spin) format';
    status.tooltip = 'Vis: asking the Python formatter for its edits (nothing is written)';
    status.show();
    try {
      const result = await preview(document);
      showStatus(result, mine);
      return result;
    } catch (e) {
      showFailure(e, mine);
      return undefined;
    }
  }

  async function showNoFormatter(message: string): Promise<void> {
    const open = 'Open Settings';
    const picked = await vscode.window.showWarningMessage(message, open);
    if (picked === open) {
      await vscode.commands.executeCommand('workbench.action.openSettings', `@lang:python ${FORMATTER_SETTING}`);
    }
  }

  async function previewCommand(): Promise<void> {
    const document = sourceOf(vscode.window.activeTextEditor?.document);
    if (!isPython(document)) {
      void vscode.window.showInformationMessage('Vis: open a Python file to preview what its formatter would change.');
      return;
    }
    const mine = ++sequence;
    let result: Preview;
    try {
      result = await preview(document);
    } catch (e) {
      showFailure(e, mine);
      void vscode.window.showErrorMessage(`Vis: the format preview failed: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    // The status bar shows the active file, which this is.
    if (statusEnabled()) showStatus(result, mine);
    if (result.kind === 'no-formatter') {
      // Not awaited: the notification stays up until dismissed, and the command should not wait for it.
      void showNoFormatter(result.message);
      return;
    }
    const right = previewUri(document);
    contents.set(right, result.formatted);
    const name = path.posix.basename(document.uri.path);
    const title = `${name} ↔ formatted (${formatNumstat(result.counts)})`;
    await vscode.commands.executeCommand('vscode.diff', document.uri, right, title, { preview: true });
  }

  async function refreshCommand(): Promise<void> {
    const result = await refresh();
    if (result?.kind === 'no-formatter') void showNoFormatter(result.message);
  }

  context.subscriptions.push(
    contents,
    status,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, contents),
    vscode.commands.registerCommand(PREVIEW_COMMAND, previewCommand),
    vscode.commands.registerCommand(REFRESH_COMMAND, refreshCommand),
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      // Moving into a preview's diff keeps the count of the file it previews.
      if (editor?.document.uri.scheme !== PREVIEW_SCHEME) void refresh(editor?.document);
    }),
    vscode.workspace.onDidSaveTextDocument((document) => {
      if (document === vscode.window.activeTextEditor?.document) void refresh(document);
    }),
    vscode.workspace.onDidCloseTextDocument((document) => {
      if (document.uri.scheme === PREVIEW_SCHEME) contents.forget(document.uri);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(STATUS_SETTING) || e.affectsConfiguration(FORMATTER_SETTING)) void refresh();
    }),
  );
  void refresh();
}
