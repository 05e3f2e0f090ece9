// Quick fixes: the fix a rule attached to its finding, offered on the diagnostic.
import { CodeActionKind, type CodeAction } from 'vscode-languageserver/node';
import { PRODUCT } from '../../../shared/protocol';
import type { Fix } from '../rules/types';
import type { ServerContext } from './context';

export function registerCodeActions(ctx: ServerContext): void {
  ctx.connection.onCodeAction((params) => {
    const actions: CodeAction[] = [];
    for (const d of params.context.diagnostics) {
      const fix = (d.data as { fix?: Fix } | undefined)?.fix;
      if (d.source !== PRODUCT || !fix) continue;
      actions.push({
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [d],
        isPreferred: true,
        edit: { changes: { [params.textDocument.uri]: fix.edits } },
      });
    }
    return actions;
  });
}
