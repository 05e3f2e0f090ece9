// Which open Python documents are Vis extension files, as the server sees them (its documentStatus
// request: the SDK generation, errors, warnings, analysis time). The status item and the format count
// read it; the context key `visAuthoring.extensionFiles` (the URIs, as strings) lets menus show only on
// extension files (`resource in visAuthoring.extensionFiles`).
import * as vscode from 'vscode';
import { State, type LanguageClient } from 'vscode-languageclient/node';
import { DocumentStatusRequest, type DocumentStatusResult } from '../../shared/protocol';

export const EXTENSION_FILES_CONTEXT = 'visAuthoring.extensionFiles';
/** Quiet time after an edit before the server is asked again. */
const EDIT_QUIET_MS = 400;

export class ExtensionFiles implements vscode.Disposable {
  private readonly statuses = new Map<string, DocumentStatusResult>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri | undefined>();
  /** Fires with a document's URI when what is known of it changed, with undefined when all may have. */
  readonly onDidChange = this.changed.event;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly disposables: vscode.Disposable[] = [];
  private published = '';

  constructor(private readonly client: LanguageClient) {
    this.disposables.push(
      this.changed,
      client.onDidChangeState(() => this.refreshVisible()),
      vscode.window.onDidChangeVisibleTextEditors(() => this.refreshVisible()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0 && this.isVisible(e.document)) this.refreshSoon(e.document);
      }),
      // The server publishes a version once it is analysed (a large file takes a while): ask again then.
      vscode.languages.onDidChangeDiagnostics((e) => {
        for (const uri of e.uris) {
          const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
          if (document && this.isVisible(document)) this.refreshSoon(document);
        }
      }),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri)),
    );
  }

  /** The last known status of a document (undefined before the server answered, or for a closed one). */
  status(uri: vscode.Uri): DocumentStatusResult | undefined {
    return this.statuses.get(uri.toString());
  }

  /** Whether the server reads the document as a Vis extension file (it uses the Vis SDK). */
  isExtensionFile(uri: vscode.Uri): boolean {
    return !!this.status(uri)?.generation;
  }

  /** Asks the server about a Python document now. */
  async refresh(document: vscode.TextDocument): Promise<DocumentStatusResult | undefined> {
    if (document.languageId !== 'python' || this.client.state !== State.Running) return undefined;
    const key = document.uri.toString();
    let status: DocumentStatusResult | null;
    try {
      status = await this.client.sendRequest<DocumentStatusResult | null>(DocumentStatusRequest, { uri: key });
    } catch {
      status = null;
    }
    if (status) this.statuses.set(key, status);
    else this.statuses.delete(key);
    // The contracts of a file of many tools were still being computed: their list follows.
    if (status?.contractsPending) this.refreshSoon(document);
    this.publish();
    this.changed.fire(document.uri);
    return status ?? undefined;
  }

  refreshVisible(): void {
    for (const editor of vscode.window.visibleTextEditors) void this.refresh(editor.document);
  }

  private refreshSoon(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      void this.refresh(document);
    }, EDIT_QUIET_MS));
  }

  private isVisible(document: vscode.TextDocument): boolean {
    return document.languageId === 'python' && vscode.window.visibleTextEditors.some((e) => e.document === document);
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    if (this.statuses.delete(key)) {
      this.publish();
      this.changed.fire(uri);
    }
  }

  private publish(): void {
    const files = [...this.statuses].filter(([, s]) => s.generation).map(([uri]) => uri).sort();
    const value = JSON.stringify(files);
    if (value === this.published) return;
    this.published = value;
    void vscode.commands.executeCommand('setContext', EXTENSION_FILES_CONTEXT, files);
  }

  dispose(): void {
    this.timers.forEach(clearTimeout);
    for (const d of this.disposables) d.dispose();
  }
}
