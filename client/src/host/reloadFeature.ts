// VS Code side of "Vis: Reload Vis Extensions" and reload-on-save: progress, summary, diagnostics.
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { t } from '../l10n';
import { HostError } from './errors';
import { GatewayClient, Operation, SessionStore, operation } from './gateway';
import { HostPaths, globalExtensionsDir } from './paths';
import { ReloadFailure, ReloadResult, summarize } from './reloadResult';
import { ExtensionRoots, failureFiles, findExtensionRoots, triggersReload } from './sourceRoots';

const SESSIONS_KEY = 'visAuthoring.host.sessions';
const SAVE_DEBOUNCE_MS = 800;

export interface ReloadDeps {
  context: vscode.ExtensionContext;
  output: vscode.OutputChannel;
  paths: HostPaths;
  preferDb: () => string | undefined;
  openHostLog: () => Promise<void>;
  afterReload: () => void;
}

export class ReloadFeature implements vscode.Disposable {
  private client: GatewayClient | undefined;
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('vis host');
  /** Diagnostics per workspace root, so a project-scoped reload replaces only its own. */
  private readonly byRoot = new Map<string, Map<string, vscode.Diagnostic[]>>();
  private readonly roots = new Map<string, ExtensionRoots>();
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly store: SessionStore;

  constructor(private readonly deps: ReloadDeps) {
    const state = deps.context.workspaceState;
    this.store = {
      get: (k) => state.get<Record<string, string>>(SESSIONS_KEY, {})[k],
      set: (k, v) => {
        const all = { ...state.get<Record<string, string>>(SESSIONS_KEY, {}) };
        if (v) all[k] = v; else delete all[k];
        return state.update(SESSIONS_KEY, all);
      },
    };
    this.disposables.push(
      this.diagnostics,
      vscode.commands.registerCommand('visAuthoring.reloadHost', () => this.reloadCommand()),
      vscode.workspace.onDidSaveTextDocument((doc) => this.onSave(doc)),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.roots.clear()),
    );
  }

  dispose(): void {
    for (const t of this.pending.values()) clearTimeout(t);
    for (const d of this.disposables) d.dispose();
    void this.client?.close();
    this.client = undefined;
  }

  private log(line: string): void {
    this.deps.output.appendLine(`[host] ${line}`);
  }

  private settings() {
    const c = vscode.workspace.getConfiguration('visAuthoring.host');
    return {
      reloadOnSave: c.get<boolean>('reloadOnSave', false),
      timeoutMs: Math.max(5, c.get<number>('reloadTimeoutSeconds', 300)) * 1000,
    };
  }

  private async connect(op: Operation): Promise<GatewayClient> {
    if (this.client) return this.client;
    const client = await GatewayClient.connect({
      paths: this.deps.paths,
      clientVersion: String(this.deps.context.extension.packageJSON.version ?? '0.0.0'),
      preferDb: this.deps.preferDb(),
      log: (l) => this.log(l),
    }, op);
    this.client = client;
    return client;
  }

  private async dropClient(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    await c?.close();
  }

  private folderFor(uri?: vscode.Uri): string {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const f = (uri && vscode.workspace.getWorkspaceFolder(uri)) ?? folders[0];
    return f ? f.uri.fsPath : os.homedir();
  }

  private extensionDirs(root: string): string[] {
    return [path.join(root, '.vis', 'extensions'), globalExtensionsDir(this.deps.paths)];
  }

  private async rootsOf(root: string): Promise<ExtensionRoots> {
    let r = this.roots.get(root);
    if (!r) {
      r = await findExtensionRoots(this.extensionDirs(root));
      this.roots.set(root, r);
    }
    return r;
  }

  private async reloadCommand(): Promise<void> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    let root = this.folderFor(vscode.window.activeTextEditor?.document.uri);
    if (folders.length > 1 && !vscode.window.activeTextEditor) {
      const pick = await vscode.window.showWorkspaceFolderPick({ placeHolder: t('Reload the Vis extensions of which folder?') });
      if (!pick) return;
      root = pick.uri.fsPath;
    }
    await this.reload(root, 'command');
  }

  private onSave(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== 'file') return;
    const file = doc.uri.fsPath;
    const root = this.folderFor(doc.uri);
    this.background((async () => {
      const name = path.basename(file);
      // A saved manifest or entry file may declare new source roots.
      if (name === 'pyproject.toml' || this.extensionDirs(root).some((d) => file.startsWith(d + path.sep))) this.roots.delete(root);
      if (!this.settings().reloadOnSave) return;
      if (!triggersReload(file, await this.rootsOf(root))) return;
      clearTimeout(this.pending.get(root));
      this.pending.set(root, setTimeout(() => {
        this.pending.delete(root);
        this.background(this.reload(root, 'save'));
      }, SAVE_DEBOUNCE_MS));
    })());
  }

  /** Work nobody awaits: a failure is logged, never an unhandled rejection. */
  private background(p: PromiseLike<unknown>): void {
    Promise.resolve(p).catch((e) => this.log(`unexpected failure: ${(e as Error)?.stack ?? String(e)}`));
  }

  /** Runs one reload per root at a time; a save during a reload queues exactly one more. */
  async reload(root: string, mode: 'command' | 'save'): Promise<void> {
    const busy = this.running.get(root);
    if (busy) {
      if (mode === 'save') { this.again.add(root); return; }
      await busy;
    }
    const run = this.reloadOnce(root, mode).finally(() => {
      this.running.delete(root);
      if (this.again.delete(root)) this.background(this.reload(root, 'save'));
    });
    this.running.set(root, run);
    return run;
  }

  private async reloadOnce(root: string, mode: 'command' | 'save'): Promise<void> {
    const { timeoutMs } = this.settings();
    this.log(`reload ${root} (${mode})`);
    try {
      const outcome = await vscode.window.withProgress(
        { location: mode === 'command' ? vscode.ProgressLocation.Notification : vscode.ProgressLocation.Window, title: t('Vis: reloading extensions'), cancellable: mode === 'command' },
        async (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          // One deadline for the whole reload: discovery, connect, the turn, and a retry after a lost gateway.
          const op = operation(timeoutMs, abort.signal);
          const onProgress = (m: string) => progress.report({ message: m });
          let client = await this.connect(op);
          try {
            return await client.reload(root, this.store, { timeoutMs, op, onProgress });
          } catch (e) {
            if (!(e instanceof HostError && e.code === 'unreachable')) throw e;
            // The gateway we knew is gone: look again once (a new one may be running).
            await this.dropClient();
            client = await this.connect(op);
            return client.reload(root, this.store, { timeoutMs, op, onProgress });
          }
        },
      );
      this.log(`${outcome.result.title} (turn ${outcome.turnId}, ${outcome.durationMs} ms)`);
      await this.showDiagnostics(root, outcome.result);
      this.deps.afterReload();
      await this.notify(outcome.result, mode);
    } catch (e) {
      // Rediscover next time unless the gateway itself is fine (a slow turn, or the wrong folder).
      if (!(e instanceof HostError && (e.code === 'timeout' || e.code === 'wrong-project'))) await this.dropClient();
      this.fail(e, mode);
    }
  }

  private async notify(r: ReloadResult, mode: 'command' | 'save'): Promise<void> {
    const text = summarize(r);
    if (r.recognized && !r.failedCount && !r.hookFailures) {
      if (mode === 'command') void vscode.window.showInformationMessage(text);
      else vscode.window.setStatusBarMessage(`$(check) ${text}`, 5000);
      return;
    }
    const openLog = t('Open Host Log');
    const choice = await vscode.window.showWarningMessage(text, openLog);
    if (choice === openLog) await this.deps.openHostLog();
  }

  private fail(e: unknown, mode: 'command' | 'save'): void {
    if (!(e instanceof HostError)) {
      this.log(`reload failed: ${(e as Error).stack ?? String(e)}`);
      this.background(vscode.window.showErrorMessage(t('Vis reload failed: {0}', (e as Error)?.message ?? String(e))));
      return;
    }
    this.log(`reload failed [${e.code}]: ${e.text}`);
    if (mode === 'save' && e.code === 'no-gateway') {
      vscode.window.setStatusBarMessage(`$(info) ${t('Vis is not running: its next start loads your files')}`, 5000);
      return;
    }
    const openLog = t('Open Host Log');
    const openSettings = t('Open Settings');
    const actions = e.code === 'timeout' || e.code === 'turn-failed' || e.code === 'http' ? [openLog, openSettings] : e.code === 'bad-answer' || e.code === 'unreachable' ? [openLog] : [];
    this.background(Promise.resolve(vscode.window.showErrorMessage(e.text, ...actions)).then(async (choice) => {
      if (choice === openLog) await this.deps.openHostLog();
      if (choice === openSettings) await vscode.commands.executeCommand('workbench.action.openSettings', 'visAuthoring.host');
    }));
  }

  private async showDiagnostics(root: string, r: ReloadResult): Promise<void> {
    const mine = new Map<string, vscode.Diagnostic[]>();
    for (const f of r.failures) {
      const file = await this.fileOf(f, root);
      if (!file) {
        this.log(`could not map the failure of ${f.target} to a file: ${f.error}`);
        continue;
      }
      const line = Math.max(0, (f.line ?? 1) - 1);
      const d = new vscode.Diagnostic(new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER), diagnosticText(f), vscode.DiagnosticSeverity.Error);
      d.source = 'vis host';
      const key = vscode.Uri.file(file).toString();
      mine.set(key, [...(mine.get(key) ?? []), d]);
    }
    this.byRoot.set(root, mine);
    this.diagnostics.clear();
    const merged = new Map<string, vscode.Diagnostic[]>();
    for (const m of this.byRoot.values()) for (const [k, ds] of m) merged.set(k, [...(merged.get(k) ?? []), ...ds]);
    for (const [k, ds] of merged) this.diagnostics.set(vscode.Uri.parse(k), ds);
  }

  private async fileOf(f: ReloadFailure, root: string): Promise<string | undefined> {
    for (const candidate of failureFiles(f.target, this.extensionDirs(root))) {
      if (await fsp.stat(candidate).then((s) => s.isFile(), () => false)) return candidate;
    }
    return undefined;
  }
}

function diagnosticText(f: ReloadFailure): string {
  const kept = f.stale === false ? t('nothing of it is loaded') : t('its last good version stays loaded');
  return t('Vis could not load this extension on /reload ({0}): {1}', kept, f.error || t('no error text'));
}
