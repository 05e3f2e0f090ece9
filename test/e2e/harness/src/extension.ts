// Entry point of the e2e harness extension. It does nothing unless VIS_E2E_RESULT names a result file
// (set by scripts/e2e/run.mjs in code-server's environment, which the extension host inherits).
import * as vscode from 'vscode';
import { checks, registerQuoteFormatter, restrictedChecks, useStateFixture } from './checks';
import { CheckContext, runChecks } from './harness';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function activate(context: vscode.ExtensionContext): void {
  const out = process.env.VIS_E2E_RESULT;
  if (!out) return;
  context.subscriptions.push(registerQuoteFormatter());
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (workspace) registerScenes(context, new CheckContext(workspace, context.logUri));
  const filter = (process.env.VIS_E2E_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const restricted = process.env.VIS_E2E_MODE === 'restricted';
  void runChecks(restricted ? restrictedChecks : checks, out, filter, async (t) => {
    // Leave the workbench as the runner's screenshot should show it: the first fixture alone, Problems panel open.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('notifications.hideToasts');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(t.uri('missing_alias.py')), { preview: false });
    await vscode.commands.executeCommand('workbench.actions.view.problems');
  }, context.logUri);
}

/**
 * Commands the runner's DOM checks start from the command palette (titles in package.json), each
 * arranging the workbench for one screenshot after the harness result is written.
 */
function registerScenes(context: vscode.ExtensionContext, t: CheckContext): void {
  /** A clean workbench: no editors, no panel, no notification toasts (the notification center keeps them). */
  const clear = async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('notifications.hideToasts');
  };
  context.subscriptions.push(
    vscode.commands.registerCommand('visE2e.sceneHover', async () => {
      await clear();
      const editor = await t.open('probe/extension.py');
      const at = t.find(editor.document, 'vis.Symbol(', 6);
      editor.selection = new vscode.Selection(at, at);
      editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.AtTop);
      await sleep(300); // let the palette hand the focus back to the editor
      await vscode.commands.executeCommand('editor.action.showHover');
    }),
    vscode.commands.registerCommand('visE2e.scenePreview', async () => {
      await clear();
      await t.open('preview/extension.py');
      await vscode.commands.executeCommand('visAuthoring.previewDocs');
    }),
    vscode.commands.registerCommand('visE2e.scenePlainFile', async () => {
      await clear();
      await t.open('plain.py');
    }),
    vscode.commands.registerCommand('visE2e.sceneFormat', async () => {
      await clear();
      await t.open('format_me.py');
      await vscode.commands.executeCommand('visAuthoring.refreshFormatChanges');
      await vscode.commands.executeCommand('visAuthoring.previewFormatChanges');
    }),
    vscode.commands.registerCommand('visE2e.sceneRestricted', async () => {
      await clear();
      await t.open('missing_alias.py');
      await vscode.commands.executeCommand('visAuthoring.state.focus');
      await vscode.commands.executeCommand('workbench.actions.view.problems');
      void vscode.commands.executeCommand('visAuthoring.reloadHost');
    }),
    vscode.commands.registerCommand('visE2e.sceneState', async () => {
      await useStateFixture();
      await clear();
      await vscode.commands.executeCommand('visAuthoring.state.focus');
      await vscode.commands.executeCommand('visAuthoring.refreshState');
    }),
  );
}

export function deactivate(): void {}
