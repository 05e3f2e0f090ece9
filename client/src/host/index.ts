// Host features for VS Code: reload, state view, host log, connection status.
// extension.ts calls registerHostFeatures(context, output); the modules it uses, apart from
// reloadFeature.ts and stateView.ts, have no `vscode` import and are unit-tested on their own.
import * as os from 'node:os';
import * as vscode from 'vscode';
import { newestGatewayLog } from './logs';
import { HostPaths, logsDir } from './paths';
import { ReloadFeature } from './reloadFeature';
import { StateView } from './stateView';
import { HostConnection, HostStatusMonitor } from './status';

export type { HostConnection } from './status';

const stateEmitter = new vscode.EventEmitter<HostConnection>();
let monitor: HostStatusMonitor | undefined;

/** Fires when the host connection changes (connected / not running). */
export const onDidChangeHostState: vscode.Event<HostConnection> = stateEmitter.event;

/** The last known host connection state ('unknown' before the first check). */
export function getHostState(): HostConnection {
  return monitor?.current ?? { state: 'unknown' };
}

/** Checks the host now and returns the fresh state. */
export function refreshHostState(): Promise<HostConnection> {
  return monitor?.refresh() ?? Promise.resolve({ state: 'unknown' });
}

export function registerHostFeatures(context: vscode.ExtensionContext, output: vscode.OutputChannel): vscode.Disposable {
  const paths: HostPaths = { home: os.homedir(), env: process.env };
  const dbSetting = () => vscode.workspace.getConfiguration('visAuthoring.host').get<string>('databasePath', '') || undefined;
  const preferDb = () => dbSetting() ?? process.env.VIS_DB_PATH;
  monitor = new HostStatusMonitor(paths, preferDb);
  const gatewayDb = () => {
    const s = monitor?.current;
    return s?.state === 'connected' ? s.db : undefined;
  };

  const openHostLog = async () => {
    const s = await (monitor?.refresh() ?? Promise.resolve(undefined));
    const log = await newestGatewayLog(paths, s?.state === 'connected' ? s.pid : undefined);
    if (!log) {
      void vscode.window.showInformationMessage(`No Vis gateway log under ${logsDir(paths)} yet: Vis writes one when its gateway starts.`);
      return;
    }
    if (s?.state === 'connected' && !log.matchesPid) output.appendLine(`[host] no log file for gateway pid ${s.pid}; opening the newest: ${log.file}`);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(log.file));
    await vscode.window.showTextDocument(doc, { preview: false });
  };

  const state = new StateView(paths, gatewayDb, output);
  const reload = new ReloadFeature({
    context, output, paths,
    preferDb: () => preferDb() ?? gatewayDb(),
    openHostLog,
    afterReload: () => { state.refreshSoon(); void monitor?.refresh(); },
  });
  const sub = monitor.onChange((s) => {
    stateEmitter.fire(s);
    // The gateway's db may differ from the default: re-read the state from the right file.
    state.refreshSoon();
  });
  monitor.start();

  const disposable = vscode.Disposable.from(
    reload,
    state,
    sub,
    vscode.commands.registerCommand('visAuthoring.openHostLog', openHostLog),
    { dispose: () => { monitor?.stop(); monitor = undefined; } },
  );
  context.subscriptions.push(disposable);
  return disposable;
}
