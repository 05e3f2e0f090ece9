// A language status item for Python files: server state, the active file's SDK generation,
// the last analysis time and findings, and (when wired) the Vis host connection.
import * as vscode from 'vscode';
import { State, type LanguageClient } from 'vscode-languageclient/node';
import { DocumentStatusRequest, type DocumentStatusResult } from '../../shared/protocol';
import { t } from './l10n';

export class StatusItem implements vscode.Disposable {
  private item = vscode.languages.createLanguageStatusItem('visAuthoring.status', { language: 'python' });
  private disposables: vscode.Disposable[] = [];
  private host = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(private client: LanguageClient) {
    this.item.name = 'Vis Authoring';
    this.item.command = { title: 'Restart', command: 'visAuthoring.restartServer' };
    this.disposables.push(
      client.onDidChangeState(() => this.refresh()),
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === vscode.window.activeTextEditor?.document) this.refreshSoon();
      }),
    );
  }

  /** The Vis host connection, shown after the analysis state ("connected", "not running"...). */
  setHost(state: string): void {
    this.host = state;
    this.refresh();
  }

  refreshSoon(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), 400);
  }

  async refresh(): Promise<void> {
    const host = this.host ? ` · Vis host: ${this.host}` : '';
    if (this.client.state !== State.Running) {
      this.item.text = this.client.state === State.Starting ? 'Vis: starting' : 'Vis: stopped';
      this.item.detail = `language server ${this.client.state === State.Starting ? 'starting' : 'stopped'}${host}`;
      this.item.severity = this.client.state === State.Starting ? vscode.LanguageStatusSeverity.Information : vscode.LanguageStatusSeverity.Warning;
      this.item.busy = this.client.state === State.Starting;
      return;
    }
    this.item.busy = false;
    this.item.severity = vscode.LanguageStatusSeverity.Information;
    const doc = vscode.window.activeTextEditor?.document;
    let status: DocumentStatusResult | null = null;
    if (doc?.languageId === 'python') {
      try {
        status = await this.client.sendRequest<DocumentStatusResult | null>(DocumentStatusRequest, { uri: doc.uri.toString() });
      } catch {
        status = null;
      }
    }
    if (!status || !status.generation) {
      this.item.text = 'Vis: not an extension file';
      this.item.detail = `ready${host}`;
      return;
    }
    const generation = `${status.generation}${status.generationAssumed ? ' (assumed)' : ''}`;
    this.item.text = `Vis ${generation}`;
    this.item.detail = `${status.errors} errors, ${status.warnings} warnings${unknownContracts(status)} · analysed in ${status.millis} ms${host}`;
    if (status.errors > 0) this.item.severity = vscode.LanguageStatusSeverity.Error;
  }

  dispose(): void {
    clearTimeout(this.timer);
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
