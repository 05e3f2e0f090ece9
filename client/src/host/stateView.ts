// VS Code side of the "Vis State" tree (extension → key → value) and read-only JSON documents.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { t } from '../l10n';
import { describeMillis } from './instant';
import { NippyValue } from './nippy';
import { HostPaths, chooseDatabase } from './paths';
import { StateDbError } from './sqlite';
import { StateEntry, StateSnapshot, readState } from './state';
import { children, preview, shape, toJson } from './valueText';

export const STATE_SCHEME = 'vis-state';

type Node =
  | { kind: 'ext'; name: string; count: number; hidden: number }
  | { kind: 'entry'; ext: string; entry: StateEntry }
  | { kind: 'value'; label: string; value: NippyValue; id: string };

export class StateView implements vscode.TreeDataProvider<Node>, vscode.TextDocumentContentProvider, vscode.Disposable {
  private snapshot: StateSnapshot | undefined;
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly docChanged = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.docChanged.event;
  private readonly view: vscode.TreeView<Node>;
  private readonly disposables: vscode.Disposable[] = [];
  private watcher: vscode.FileSystemWatcher | undefined;
  private watchedDir: string | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;
  private stale = true;

  constructor(private readonly paths: HostPaths, private readonly gatewayDb: () => string | undefined, private readonly output: vscode.OutputChannel) {
    this.view = vscode.window.createTreeView('visAuthoring.state', { treeDataProvider: this, showCollapseAll: true });
    this.disposables.push(
      this.view, this.changed, this.docChanged,
      vscode.workspace.registerTextDocumentContentProvider(STATE_SCHEME, this),
      vscode.commands.registerCommand('visAuthoring.refreshState', () => this.refresh()),
      vscode.commands.registerCommand('visAuthoring.openStateValue', (ext?: string | Node, key?: string) =>
        typeof ext === 'object' ? (ext.kind === 'entry' ? this.open(ext.ext, ext.entry.key) : undefined) : this.open(ext, key)),
      this.view.onDidChangeVisibility((e) => { if (e.visible && this.stale) this.refreshNow(); }),
      vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('visAuthoring.host.databasePath')) this.refreshSoon(); }),
    );
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    this.watcher?.dispose();
    for (const d of this.disposables) d.dispose();
  }

  /** Re-reads soon (coalesced); reads only while the view is visible, else marks it stale. */
  refreshSoon(): void {
    if (!this.view.visible) { this.stale = true; return; }
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => this.refreshNow(), 1000);
  }

  /** A refresh nobody awaits: an unexpected failure is logged, never an unhandled rejection. */
  private refreshNow(): void {
    this.refresh().catch((e) => this.output.appendLine(`[state] unexpected failure: ${(e as Error)?.stack ?? String(e)}`));
  }

  async refresh(): Promise<void> {
    this.stale = false;
    const setting = vscode.workspace.getConfiguration('visAuthoring.host').get<string>('databasePath', '');
    const db = await chooseDatabase(this.paths, { setting, gatewayDb: this.gatewayDb() });
    this.watch(path.dirname(db.file));
    try {
      this.snapshot = await readState(db.file);
      const n = this.snapshot.extensions.reduce((a, e) => a + e.entries.length, 0);
      const unreadable = this.snapshot.unreadable;
      for (const u of unreadable) this.output.appendLine(`[state] ${u}`);
      const note = unreadable.length ? t('{0} damaged rows could not be read (see Vis: Show Output).', unreadable.length) : undefined;
      this.view.message = this.snapshot.extensions.length ? note : [t('No vis.state values in {0}.', db.file), note].filter(Boolean).join(' ');
      this.view.description = `${n} key${n === 1 ? '' : 's'}`;
    } catch (e) {
      this.snapshot = undefined;
      this.view.description = undefined;
      const msg = (e as Error).message;
      const fix = e instanceof StateDbError && e.code === 'missing'
        ? ` Vis creates it on first start; set visAuthoring.host.databasePath if your Vis uses another (${db.source}).`
        : e instanceof StateDbError && e.code === 'busy' ? '' : ' (read-only; nothing was changed)';
      this.view.message = `${msg}${fix}`;
      this.output.appendLine(`[state] ${msg}`);
    }
    this.changed.fire(undefined);
    for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === STATE_SCHEME) this.docChanged.fire(doc.uri);
  }

  private watch(dir: string): void {
    if (this.watchedDir === dir) return;
    this.watcher?.dispose();
    this.watchedDir = dir;
    this.watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(dir), 'vis.db*'));
    const on = () => this.refreshSoon();
    this.watcher.onDidChange(on);
    this.watcher.onDidCreate(on);
    this.watcher.onDidDelete(on);
  }

  getChildren(node?: Node): Node[] {
    const s = this.snapshot;
    if (!s) return [];
    if (!node) return s.extensions.map((e) => ({ kind: 'ext', name: e.name, count: e.entries.length, hidden: e.hiddenNil }));
    if (node.kind === 'ext') return (s.extensions.find((e) => e.name === node.name)?.entries ?? []).map((entry) => ({ kind: 'entry', ext: node.name, entry }));
    const value = node.kind === 'entry' ? node.entry.value : node.value;
    if (value === undefined) return [];
    const base = node.kind === 'entry' ? `${node.ext}/${node.entry.key}` : node.id;
    return (children(value) ?? []).map(([label, v]) => ({ kind: 'value', label, value: v, id: `${base}/${label}` }));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'ext') {
      const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Collapsed);
      item.description = `${node.count} key${node.count === 1 ? '' : 's'}${node.hidden ? `, ${node.hidden} nil hidden` : ''}`;
      item.iconPath = new vscode.ThemeIcon('extensions');
      item.id = `ext:${node.name}`;
      return item;
    }
    if (node.kind === 'entry') {
      const e = node.entry;
      const expandable = e.value !== undefined && children(e.value) !== undefined;
      const item = new vscode.TreeItem(e.key, expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
      item.id = `entry:${node.ext}/${e.rawKey}`;
      if (e.error) {
        item.description = `cannot decode: ${e.error}`;
        item.iconPath = new vscode.ThemeIcon('warning');
        item.tooltip = `${e.rawKey}\n${e.bytes} bytes\n${e.error}`;
      } else {
        item.description = preview(e.value!, 60);
        item.iconPath = new vscode.ThemeIcon('symbol-key');
        const when = e.updatedAt ? `\n${t('updated {0}', describeMillis(e.updatedAt))}` : '';
        item.tooltip = `${shape(e.value!)}, ${e.bytes} bytes stored${when}${e.keyError ? `\n${e.keyError}: ${e.rawKey}` : ''}`;
      }
      item.command = { command: 'visAuthoring.openStateValue', title: 'Open State Value', arguments: [node.ext, e.key] };
      item.contextValue = 'visStateEntry';
      return item;
    }
    const expandable = children(node.value) !== undefined;
    const item = new vscode.TreeItem(node.label, expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `value:${node.id}`;
    item.description = expandable ? shape(node.value) : preview(node.value, 80);
    item.tooltip = preview(node.value, 400);
    return item;
  }

  private async open(ext?: string, key?: string): Promise<void> {
    if (!this.snapshot) await this.refresh();
    const s = this.snapshot;
    if (!s) { void vscode.window.showWarningMessage(this.view.message ?? 'The Vis database could not be read.'); return; }
    if (ext === undefined || key === undefined) {
      const picks = s.extensions.flatMap((e) => e.entries.map((x) => ({ label: x.key, description: e.name, detail: x.error ? `cannot decode: ${x.error}` : preview(x.value!, 100), ext: e.name })));
      const pick = await vscode.window.showQuickPick(picks, { placeHolder: 'Open which vis.state value?', matchOnDescription: true });
      if (!pick) return;
      ext = pick.ext;
      key = pick.label;
    }
    const uri = vscode.Uri.from({ scheme: STATE_SCHEME, path: `/${ext}/${key.replace(/[\\/]/g, '_')}.json`, query: new URLSearchParams({ ext, key }).toString() });
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const q = new URLSearchParams(uri.query);
    const ext = q.get('ext') ?? '';
    const key = q.get('key') ?? '';
    const entry = this.snapshot?.extensions.find((e) => e.name === ext)?.entries.find((x) => x.key === key);
    if (!entry) return JSON.stringify({ error: `no vis.state value ${JSON.stringify(key)} for extension ${JSON.stringify(ext)} (any more)` }, null, 2);
    if (entry.error) return JSON.stringify({ error: `cannot decode this value: ${entry.error}`, key: entry.rawKey, bytes: entry.bytes }, null, 2);
    return `${toJson(entry.value!)}\n`;
  }
}
