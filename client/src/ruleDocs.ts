// Rule documentation: every diagnostic's code links to its rule's page (`docs/rules/<ID>.md`, shipped in
// the extension). The server sends a `file:` URI, which any LSP client can open; in VS Code the link runs
// **Vis: Show Rule Documentation** instead, which opens the page rendered (Markdown preview).
import * as vscode from 'vscode';
import type { Middleware } from 'vscode-languageclient/node';
import { PRODUCT } from '../../shared/protocol';
import { t } from './l10n';

export const SHOW_RULE_COMMAND = 'visAuthoring.showRuleDocumentation';

/** The command URI a diagnostic code of ours links to. */
export function ruleCommandUri(id: string): vscode.Uri {
  return vscode.Uri.parse(`command:${SHOW_RULE_COMMAND}?${encodeURIComponent(JSON.stringify([id]))}`);
}

/** Rewrites the links of our diagnostics' codes to the command that renders the page. */
export const ruleDocsMiddleware: Middleware = {
  handleDiagnostics(uri, diagnostics, next) {
    for (const d of diagnostics) {
      if (d.source === PRODUCT && typeof d.code === 'object' && d.code.target?.scheme === 'file') d.code = { value: d.code.value, target: ruleCommandUri(String(d.code.value)) };
    }
    next(uri, diagnostics);
  },
};

export function registerRuleDocs(context: vscode.ExtensionContext): vscode.Disposable {
  const pages = vscode.Uri.joinPath(context.extensionUri, 'docs', 'rules');
  return vscode.commands.registerCommand(SHOW_RULE_COMMAND, async (id?: unknown) => {
    let rule = typeof id === 'string' ? id : undefined;
    if (!rule) {
      const files = await vscode.workspace.fs.readDirectory(pages).then(
        (entries) => entries.map(([name]) => name).filter((n) => n.endsWith('.md')).map((n) => n.slice(0, -3)).sort(),
        () => [] as string[],
      );
      rule = await vscode.window.showQuickPick(files, { placeHolder: t('Which rule?') });
      if (!rule) return;
    }
    const page = vscode.Uri.joinPath(pages, `${rule}.md`);
    try {
      await vscode.workspace.fs.stat(page);
    } catch {
      void vscode.window.showWarningMessage(t('Vis Authoring has no documentation page for {0}.', rule));
      return;
    }
    await vscode.commands.executeCommand('markdown.showPreview', page);
  });
}
