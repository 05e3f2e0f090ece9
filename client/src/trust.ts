// Workspace trust and virtual workspaces. Analysis never runs the workspace's code, so diagnostics,
// hovers, previews and the format count work in Restricted Mode and on virtual file systems. What
// talks to a Vis host or reads its files (reload, reload on save, the Vis State view and its vis.db,
// the host log, the host status) starts only in a trusted workspace on the local file system. Until
// then its commands say why they are off, and the Vis State view shows a welcome text (package.json
// `viewsWelcome`) with a link to manage trust. Granting trust starts the host features at once.
import * as vscode from 'vscode';
import { t } from './l10n';

/** Why the host features are off; undefined when they can run. */
export type HostBlock = 'untrusted' | 'virtual';

/** The commands that talk to a Vis host or read its files, with what each one does (for the message). */
const HOST_COMMANDS: Record<string, () => string> = {
  'visAuthoring.reloadHost': () => t('Reload Vis Extensions sends /reload to the Vis gateway running on this machine'),
  'visAuthoring.openHostLog': () => t('Open Host Log opens the log of the Vis gateway from your home folder'),
  'visAuthoring.refreshState': () => t('The Vis State view reads your Vis database (vis.db)'),
  'visAuthoring.openStateValue': () => t('The Vis State view reads your Vis database (vis.db)'),
};
export const STATE_VIEW = 'visAuthoring.state';

export function hostBlock(): HostBlock | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length > 0 && folders.every((f) => f.uri.scheme !== 'file')) return 'virtual';
  return vscode.workspace.isTrusted ? undefined : 'untrusted';
}

export function blockReason(block: HostBlock): string {
  return block === 'virtual'
    ? t('Vis host features are off in a virtual workspace: they work with a Vis running on this machine and a project folder on disk.')
    : t('Vis host features are off in Restricted Mode: they talk to the Vis running on this machine and read its files. Diagnostics, hovers and previews still work, as nothing in the workspace is run.');
}

/**
 * Registers the host features now when they may run, else stand-ins that explain, and the real ones
 * once the workspace is trusted. `onBlocked` hears the reason while they are off (undefined once on).
 */
export function gateHostFeatures(
  log: vscode.LogOutputChannel,
  register: () => vscode.Disposable,
  onBlocked: (block: HostBlock | undefined) => void,
): vscode.Disposable {
  let features: vscode.Disposable | undefined;
  let standIns: vscode.Disposable | undefined;
  const start = () => {
    standIns?.dispose();
    standIns = undefined;
    features = register();
    onBlocked(undefined);
  };
  const block = hostBlock();
  if (!block) {
    start();
    return { dispose: () => features?.dispose() };
  }
  log.info(blockReason(block));
  standIns = registerStandIns(log, block);
  onBlocked(block);
  const granted = vscode.workspace.onDidGrantWorkspaceTrust(() => {
    if (hostBlock()) return;
    log.info('The workspace is trusted now: starting the Vis host features.');
    start();
  });
  return {
    dispose: () => {
      granted.dispose();
      standIns?.dispose();
      features?.dispose();
    },
  };
}

function registerStandIns(log: vscode.LogOutputChannel, block: HostBlock): vscode.Disposable {
  const manage = t('Manage Workspace Trust');
  const commands = Object.entries(HOST_COMMANDS).map(([id, what]) =>
    vscode.commands.registerCommand(id, async () => {
      const message =
        block === 'virtual'
          ? t('{0}, so it is not available in a virtual workspace.', what())
          : t('{0}, so it needs a trusted workspace. Diagnostics, hovers and previews work in Restricted Mode.', what());
      log.info(`[host] ${id} is off: ${message}`);
      const picked = block === 'untrusted' ? await vscode.window.showWarningMessage(message, manage) : await vscode.window.showInformationMessage(message);
      if (picked === manage) await vscode.commands.executeCommand('workbench.trust.manage');
    }),
  );
  // An empty view, so that VS Code shows the view's welcome text instead of "no data provider".
  const empty: vscode.TreeDataProvider<never> = { getTreeItem: (e) => e, getChildren: () => [] };
  return vscode.Disposable.from(...commands, vscode.window.registerTreeDataProvider(STATE_VIEW, empty));
}
