// "Vis: Copy Symbol Contract as JSON": asks the server for the contract at the cursor and puts it on
// the clipboard (2-space indented JSON, as the hover shows it).
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { t } from './l10n';
import { SymbolContractRequest, type SymbolContractParams, type SymbolContractResult } from '../../shared/protocol';

export const COPY_CONTRACT_COMMAND = 'visAuthoring.copySymbolContract';

export function registerContractCommands(context: vscode.ExtensionContext, client: LanguageClient): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(COPY_CONTRACT_COMMAND, async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) {
        void vscode.window.showWarningMessage(t('Open a Vis extension file and put the cursor on vis.Symbol(...) or an exported function.'));
        return;
      }
      const params: SymbolContractParams = {
        uri: editor.document.uri.toString(),
        position: { line: editor.selection.active.line, character: editor.selection.active.character },
      };
      const result = await client.sendRequest<SymbolContractResult>(SymbolContractRequest, params);
      if (!result) {
        void vscode.window.showWarningMessage(t('No Vis Symbol contract at the cursor: put it on vis.Symbol(...), its first argument or the def of an exported tool.'));
        return;
      }
      await vscode.env.clipboard.writeText(JSON.stringify(result.contract, null, 2));
      const name = (result.contract as { name?: string }).name ?? 'Symbol';
      void vscode.window.showInformationMessage(t('Copied the contract of {0} as JSON.', name));
    }),
  );
}
