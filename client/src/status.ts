// A language status item for Python files: server state, the active file's SDK generation, the last
// analysis time and findings, and the Vis host connection.
import * as vscode from 'vscode';
import { State, type LanguageClient } from 'vscode-languageclient/node';
import type { DocumentStatusResult } from '../../shared/protocol';
import type { ExtensionFiles } from './extensionFiles';
import { countOf, t } from './l10n';

export class StatusItem implements vscode.Disposable {
  private item = vscode.languages.createLanguageStatusItem('visAuthoring.status', { language: 'python' });
  private disposables: vscode.Disposable[] = [];
  private host = '';

  constructor(private client: LanguageClient, private files: ExtensionFiles) {
    this.item.name = t('Vis Authoring');
    this.item.command = { title: t('Restart'), command: 'visAuthoring.restartServer', tooltip: t('Restart the Vis Authoring language server') };
    this.disposables.push(
      client.onDidChangeState(() => this.refresh()),
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        this.refresh();
        if (editor) void files.refresh(editor.document);
      }),
      files.onDidChange((uri) => {
        if (!uri || uri.toString() === vscode.window.activeTextEditor?.document.uri.toString()) this.refresh();
      }),
    );
  }

  /** The Vis host connection, shown after the analysis state ("connected", "not running"...). */
  setHost(state: string): void {
    this.host = state;
    this.refresh();
  }

  refresh(): void {
    const host = this.host ? t(' · Vis host: {0}', this.host) : '';
    if (this.client.state !== State.Running) {
      const starting = this.client.state === State.Starting;
      this.item.text = starting ? t('Vis: starting') : t('Vis: stopped');
      this.item.detail = (starting ? t('language server starting') : t('language server stopped')) + host;
      this.item.severity = starting ? vscode.LanguageStatusSeverity.Information : vscode.LanguageStatusSeverity.Warning;
      this.item.busy = starting;
      return;
    }
    this.item.busy = false;
    this.item.severity = vscode.LanguageStatusSeverity.Information;
    const doc = vscode.window.activeTextEditor?.document;
    const status = doc?.languageId === 'python' ? this.files.status(doc.uri) : undefined;
    if (!status?.generation) {
      this.item.text = t('Vis: not an extension file');
      this.item.detail = t('ready') + host;
      return;
    }
    this.item.text = status.generationAssumed ? t('Vis {0} (assumed)', status.generation) : t('Vis {0}', status.generation);
    const sdk = !status.sdk
      ? ''
      : status.sdk.conflict
        ? t(' · SDK {0}, decided by {1} (the evidence conflicts: see SDK-001)', status.sdk.release, status.sdk.decidedBy.join('; '))
        : t(' · SDK {0}, decided by {1}', status.sdk.release, status.sdk.decidedBy.join('; '));
    this.item.detail = t('{0}, {1} · analysed in {2} ms', countOf(status.errors, 'error'), countOf(status.warnings, 'warning'), status.millis) + sdk + unknownContracts(status) + host;
    if (status.errors > 0) this.item.severity = vscode.LanguageStatusSeverity.Error;
  }

  dispose(): void {
    this.item.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** ` · 2 tool contracts not statically known: search (returns: ...), make_tool() (...)`, at most three named. */
function unknownContracts(status: DocumentStatusResult): string {
  const tools = status.unknownTools ?? [];
  if (!tools.length) return '';
  const named = tools.slice(0, 3).map((u) => `${u.where} (${u.reason})`);
  const more = tools.length > 3 ? t(', and {0} more', tools.length - 3) : '';
  const list = named.join('; ') + more;
  return ' · ' + (tools.length === 1 ? t('1 tool contract not statically known: {0}', list) : t('{0} tool contracts not statically known: {1}', tools.length, list));
}
