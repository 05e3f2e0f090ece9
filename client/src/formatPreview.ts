// Format preview: what the Python formatter would change in the active Vis extension file, as `+A −R`
// lines in the status bar and as a diff against a read-only copy of the formatted text, with an
// "Apply Formatting" action on the diff's title. Nothing is written until that action.
//
// The formatter is the one "Format Document" uses (formatter.ts). Its edits come from
// `vscode.executeFormatDocumentProvider`, the only API for them: it asks the formatters registered for
// the file in VS Code's order and answers the first edits given, or nothing, both when there is no
// formatter and when the file is formatted already; the formatter choice tells those apart.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { LineChangesRequest, type LineChangesParams, type LineChangesResult } from '../../shared/protocol';
import type { ExtensionFiles } from './extensionFiles';
import { chooseFormatter, type FormatterChoice, type InstalledExtension } from './formatter';
import { countOf, t } from './l10n';
import { applyTextEdits, formatNumstat } from './textEdits';

export const PREVIEW_SCHEME = 'vis-format-preview';
export const PREVIEW_COMMAND = 'visAuthoring.previewFormatChanges';
export const REFRESH_COMMAND = 'visAuthoring.refreshFormatChanges';
export const APPLY_COMMAND = 'visAuthoring.applyFormatChanges';
const STATUS_SETTING = 'visAuthoring.formatPreview.statusBar';
const FORMATTER_SETTING = 'editor.defaultFormatter';
const OPEN_SETTINGS = 'workbench.action.openSettings';

/** What formatting the document would do, or why it cannot be told. */
type Preview =
  | { kind: 'changes'; formatter: string; formatted: string; edits: vscode.TextEdit[]; version: number; counts: LineChangesResult }
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

function installedExtensions(): InstalledExtension[] {
  return vscode.extensions.all.map((e) => {
    const json = e.packageJSON as { displayName?: string; categories?: string[]; activationEvents?: string[]; contributes?: { languages?: { id?: string }[] } };
    return {
      id: e.id,
      displayName: json.displayName,
      categories: json.categories,
      activationEvents: json.activationEvents,
      languages: (json.contributes?.languages ?? []).map((l) => l.id ?? ''),
    };
  });
}

/** The formatter Format Document would use for the document. */
function formatterFor(document: vscode.TextDocument, self: string): FormatterChoice {
  // Read for the document's language, so that a `[python]` value wins over the plain one.
  const chosen = vscode.workspace.getConfiguration('editor', { languageId: document.languageId, uri: document.uri }).get<string | null>('defaultFormatter');
  return chooseFormatter(chosen, installedExtensions(), self);
}

export function registerFormatPreview(context: vscode.ExtensionContext, client: LanguageClient, files: ExtensionFiles): void {
  const self = context.extension.id;
  const contents = new PreviewContents();
  const status = vscode.window.createStatusBarItem('visAuthoring.formatPreview', vscode.StatusBarAlignment.Right, 100);
  status.name = t('Vis: Format Changes');
  status.command = PREVIEW_COMMAND;
  /** The last preview per source URI, for Apply Formatting. */
  const shown = new Map<string, Extract<Preview, { kind: 'changes' }>>();
  let sequence = 0;
  let statusShown = false;
  const showItem = (show: boolean) => {
    statusShown = show;
    if (show) status.show();
    else status.hide();
  };

  async function preview(document: vscode.TextDocument): Promise<Preview> {
    const version = document.version;
    const formatter = formatterFor(document, self);
    switch (formatter.kind) {
      case 'default-missing':
        return { kind: 'no-formatter', message: t('editor.defaultFormatter for Python names {0}, which is not installed or is disabled.', formatter.id) };
      case 'several':
        return {
          kind: 'no-formatter',
          message: t('There are several Python formatters ({0}) and none is the default, so Format Document would ask which to use. Set editor.defaultFormatter for Python.', formatter.names.join(', ')),
        };
    }
    const edits = await vscode.commands.executeCommand<vscode.TextEdit[] | undefined>('vscode.executeFormatDocumentProvider', document.uri, formattingOptions(document));
    if (document.version !== version) throw new vscode.CancellationError();
    const name = formatter.kind === 'unknown' ? t('the Python formatter') : formatter.name;
    const before = document.getText();
    if (!edits || edits.length === 0) {
      if (formatter.kind === 'unknown') {
        return { kind: 'no-formatter', message: t('No Python formatter is installed, or the one in use has nothing to change. Install one (Ruff, Black Formatter...) to see what it would change.') };
      }
      return { kind: 'changes', formatter: name, formatted: before, edits: [], version, counts: { added: 0, removed: 0 } };
    }
    const formatted = applyTextEdits(before, edits);
    const params: LineChangesParams = { before, after: formatted };
    const counts = await client.sendRequest<LineChangesResult>(LineChangesRequest, params);
    return { kind: 'changes', formatter: name, formatted, edits, version, counts };
  }

  function statusEnabled(): boolean {
    return vscode.workspace.getConfiguration().get<boolean>(STATUS_SETTING, true);
  }

  function tooltip(text: string, commands: string[]): vscode.MarkdownString {
    const md = new vscode.MarkdownString(text);
    md.isTrusted = { enabledCommands: commands };
    return md;
  }

  /** Shows a preview's counts in the status bar, unless a newer refresh started since `mine`. */
  function showStatus(result: Preview, mine: number): void {
    if (mine !== sequence) return;
    showItem(true);
    if (result.kind === 'changes') {
      status.text = `$(diff) ${formatNumstat(result.counts)}`;
      const summary = result.edits.length === 0
        ? t('**{0}** has nothing to change in this file.', escapeMarkdown(result.formatter))
        : t('Formatting with **{0}** would add {1} and remove {2}. Nothing is written until you apply it.', escapeMarkdown(result.formatter), countOf(result.counts.added, 'line'), countOf(result.counts.removed, 'line'));
      status.tooltip = tooltip(`${summary}\n\n[${t('Preview the changes')}](command:${PREVIEW_COMMAND})`, [PREVIEW_COMMAND]);
    } else {
      status.text = `$(diff) ${t('no formatter')}`;
      const settings = `command:${OPEN_SETTINGS}?${encodeURIComponent(JSON.stringify(`@lang:python ${FORMATTER_SETTING}`))}`;
      status.tooltip = tooltip(`${escapeMarkdown(result.message)}\n\n[${t('Open Settings')}](${settings})`, [OPEN_SETTINGS]);
    }
  }

  function showFailure(e: unknown, mine: number): void {
    if (mine !== sequence) return;
    if (e instanceof vscode.CancellationError) {
      status.text = `$(diff) ${t('format')}`;
      status.tooltip = t('The file changed while the formatter ran; save it or run Vis: Refresh Format Changes Count.');
    } else {
      status.text = `$(warning) ${t('format')}`;
      status.tooltip = t('The format preview failed: {0}', e instanceof Error ? e.message : String(e));
    }
  }

  async function refresh(active = vscode.window.activeTextEditor?.document): Promise<Preview | undefined> {
    const mine = ++sequence;
    const document = sourceOf(active);
    if (!isPython(document) || !statusEnabled()) {
      showItem(false);
      return undefined;
    }
    // The count is for Vis extension files only.
    if (!files.status(document.uri)) await files.refresh(document);
    if (mine !== sequence) return undefined;
    if (!files.isExtensionFile(document.uri)) {
      showItem(false);
      return undefined;
    }
    status.text = '$(sync~spin) ' + t('format');
    status.tooltip = t('Asking the Python formatter for its edits (nothing is written)');
    showItem(true);
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
    const open = t('Open Settings');
    const picked = await vscode.window.showWarningMessage(message, open);
    if (picked === open) await vscode.commands.executeCommand(OPEN_SETTINGS, `@lang:python ${FORMATTER_SETTING}`);
  }

  async function openDiff(document: vscode.TextDocument, result: Extract<Preview, { kind: 'changes' }>): Promise<void> {
    const right = previewUri(document);
    contents.set(right, result.formatted);
    shown.set(document.uri.toString(), result);
    const name = path.posix.basename(document.uri.path);
    const title = t('{0} ↔ formatted ({1})', name, formatNumstat(result.counts));
    await vscode.commands.executeCommand('vscode.diff', document.uri, right, title, { preview: true });
  }

  async function previewCommand(): Promise<void> {
    const document = sourceOf(vscode.window.activeTextEditor?.document);
    if (!isPython(document)) {
      void vscode.window.showInformationMessage(t('Open a Vis extension file to preview what its formatter would change.'));
      return;
    }
    const mine = ++sequence;
    let result: Preview;
    try {
      result = await preview(document);
    } catch (e) {
      showFailure(e, mine);
      void vscode.window.showErrorMessage(t('The format preview failed: {0}', e instanceof Error ? e.message : String(e)));
      return;
    }
    // The status bar shows the active file, which this is.
    if (!files.status(document.uri)) await files.refresh(document);
    if (statusEnabled() && files.isExtensionFile(document.uri)) showStatus(result, mine);
    if (result.kind === 'no-formatter') {
      // Not awaited: the notification stays up until dismissed, and the command should not wait for it.
      void showNoFormatter(result.message);
      return;
    }
    await openDiff(document, result);
  }

  /** "Apply Formatting" on the diff's title: the previewed edits, if the file is still as previewed. */
  async function applyCommand(arg?: vscode.Uri): Promise<void> {
    const uri = arg?.scheme === PREVIEW_SCHEME ? arg : vscode.window.activeTextEditor?.document.uri;
    const source = uri?.scheme === PREVIEW_SCHEME ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.query) : undefined;
    const result = source && shown.get(source.uri.toString());
    if (!source || !result) {
      void vscode.window.showInformationMessage(t('Run Vis: Preview Format Changes first; Apply Formatting applies what its diff shows.'));
      return;
    }
    if (source.version !== result.version) {
      // The file changed since the diff was made: show the formatter's edits for the file as it is now.
      const fresh = await preview(source).catch(() => undefined);
      if (fresh?.kind === 'changes') await openDiff(source, fresh);
      void vscode.window.showInformationMessage(t('{0} changed since this preview was made; the preview is updated. Apply it again to format.', path.posix.basename(source.uri.path)));
      return;
    }
    if (result.edits.length > 0) {
      const edit = new vscode.WorkspaceEdit();
      edit.set(source.uri, result.edits);
      if (!(await vscode.workspace.applyEdit(edit))) {
        void vscode.window.showErrorMessage(t('VS Code did not apply the formatting to {0}.', path.posix.basename(source.uri.path)));
        return;
      }
    }
    shown.delete(source.uri.toString());
    const diffs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === previewUri(source).toString());
    await vscode.window.tabGroups.close(diffs);
    await vscode.window.showTextDocument(source, { preview: false });
    void refresh(source);
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
    vscode.commands.registerCommand(APPLY_COMMAND, applyCommand),
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      // Moving into a preview's diff keeps the count of the file it previews (shown again if a moment
      // without an active editor, as the diff opens, hid it).
      if (editor?.document.uri.scheme !== PREVIEW_SCHEME || !statusShown) void refresh(editor?.document);
    }),
    // A file becomes (or stops being) an extension file as it is edited.
    files.onDidChange((uri) => {
      const active = vscode.window.activeTextEditor?.document;
      if (active && uri?.toString() === active.uri.toString() && files.isExtensionFile(uri) !== statusShown) void refresh(active);
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
    vscode.extensions.onDidChange(() => void refresh()),
  );
  void refresh();
}

/** Text shown as Markdown literally (the messages name settings such as editor.defaultFormatter). */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]<>()#+!|]/g, '\\$&');
}
