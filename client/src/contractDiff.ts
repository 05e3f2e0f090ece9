// "Vis: Compare Contracts with HEAD": what the model will see differently from the last commit. The
// committed files come from VS Code's built-in Git extension (its API, no process of ours); the server
// asks for them (CommittedTextRequest), compares the two contract sets and returns the text, which opens
// in a read-only side document that follows edits. Call `registerContractDiff` before the client starts:
// it declares the capability in the client's initialize request.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient, StaticFeature } from 'vscode-languageclient/node';
import {
  COMMITTED_TEXT_CAPABILITY,
  CommittedTextRequest,
  CompareContractsCommand,
  CompareContractsRequest,
  type CommittedTextParams,
  type CommittedTextResult,
  type CompareContractsResult,
} from '../../shared/protocol';
import { t } from './l10n';

export const CONTRACT_DIFF_SCHEME = 'vis-contract-diff';
const REFRESH_MS = 300;

// The parts of the Git extension's API (extensions/git/src/api/git.d.ts, version 1) used here.
interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitAPI;
}
interface GitAPI {
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: vscode.Event<'uninitialized' | 'initialized'>;
  readonly repositories: Repository[];
  readonly onDidOpenRepository: vscode.Event<Repository>;
  getRepository(uri: vscode.Uri): Repository | null;
  openRepository?(root: vscode.Uri): Promise<Repository | null>;
}
interface Repository {
  readonly rootUri: vscode.Uri;
  readonly state: { readonly HEAD: { readonly commit?: string } | undefined; readonly onDidChange: vscode.Event<void> };
  show(ref: string, path: string): Promise<string>;
}

/** `vis-contract-diff:/extension.py · contract changes?source=<uri>`: the tab shows the file's name. */
function diffUri(source: vscode.Uri): vscode.Uri {
  const name = source.path.slice(source.path.lastIndexOf('/') + 1);
  return vscode.Uri.from({ scheme: CONTRACT_DIFF_SCHEME, path: `/${name} \u00b7 ${t('contract changes since HEAD')}`, query: new URLSearchParams({ source: source.toString() }).toString() });
}

const sourceOf = (uri: vscode.Uri) => new URLSearchParams(uri.query).get('source') ?? '';

/** The Git extension's API once it is initialised, or why it is not there. */
async function gitApi(): Promise<GitAPI | string> {
  const ext = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!ext) return t("VS Code's Git extension is not installed or is disabled");
  const exports = ext.isActive ? ext.exports : await ext.activate();
  if (!exports.enabled) return t("VS Code's Git extension is disabled (git.enabled)");
  const api = exports.getAPI(1);
  if (api.state !== 'initialized') {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5000);
      const sub = api.onDidChangeState((s) => {
        if (s === 'initialized') {
          clearTimeout(timer);
          sub.dispose();
          resolve();
        }
      });
    });
  }
  return api;
}

async function repositoryOf(api: GitAPI, uri: vscode.Uri): Promise<Repository | null> {
  const known = api.getRepository(uri);
  if (known || !api.openRepository) return known;
  // A repository VS Code has not opened yet (a folder outside the workspace): ask the Git extension to open it.
  const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri ?? vscode.Uri.file(path.dirname(uri.fsPath));
  return (await api.openRepository(folder).catch(() => null)) ?? api.getRepository(uri);
}

/** The Git extension reports a path that the commit does not have as FileNotFound (or in git's own words). */
function notInCommit(e: unknown): boolean {
  const err = e as { gitErrorCode?: string; stderr?: string; message?: string };
  return err.gitErrorCode === 'FileNotFound' || /does not exist in|exists on disk, but not in|does not exist/.test(`${err.stderr ?? ''} ${err.message ?? ''}`);
}

/** Answers the server's CommittedTextRequest from the Git extension, with committed texts cached per commit. */
function committedText(): (params: CommittedTextParams) => Promise<CommittedTextResult> {
  const cache = new Map<string, string | null>();
  return async (params) => {
    const uri = vscode.Uri.parse(params.uri);
    if (uri.scheme !== 'file') return { unavailable: t('{0} is not a file on disk', params.uri) };
    const api = await gitApi();
    if (typeof api === 'string') return { unavailable: api };
    const repo = await repositoryOf(api, uri);
    if (!repo) return { unavailable: t('{0} is not in a git repository', path.basename(uri.fsPath)) };
    const commit = repo.state.HEAD?.commit;
    if (!commit) return { unavailable: t('the repository has no commit yet') };
    const label = `${params.ref} (${commit.slice(0, 7)})`;
    const key = `${commit}\n${uri.fsPath}`;
    if (!cache.has(key)) {
      try {
        cache.set(key, await repo.show(commit, uri.fsPath));
      } catch (e) {
        if (!notInCommit(e)) return { unavailable: t('git could not read {0} at {1}: {2}', path.basename(uri.fsPath), label, e instanceof Error ? e.message : String(e)) };
        cache.set(key, null);
      }
      if (cache.size > 500) cache.delete(cache.keys().next().value!);
    }
    return { text: cache.get(key)!, label };
  };
}

class ContractDiffProvider implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly client: LanguageClient) {}

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const source = sourceOf(uri);
    try {
      const result = await this.client.sendRequest<CompareContractsResult>(CompareContractsRequest, { uri: source }, token);
      return result.text;
    } catch (e) {
      return t('The contract comparison of {0} failed: {1}', source, e instanceof Error ? e.message : String(e)) + '\n';
    }
  }

  refresh(uri: vscode.Uri): void {
    this.changed.fire(uri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

const openDiffs = (source?: string) =>
  vscode.workspace.textDocuments.filter((d) => d.uri.scheme === CONTRACT_DIFF_SCHEME && (source === undefined || sourceOf(d.uri) === source)).map((d) => d.uri);

export function registerContractDiff(context: vscode.ExtensionContext, client: LanguageClient): void {
  const feature: StaticFeature = {
    fillClientCapabilities(capabilities) {
      capabilities.experimental = { ...(capabilities.experimental as object | undefined), [COMMITTED_TEXT_CAPABILITY]: true };
    },
    initialize() {},
    getState: () => ({ kind: 'static' }),
    clear() {},
  };
  client.registerFeature(feature);
  client.onRequest(CommittedTextRequest, committedText());

  const provider = new ContractDiffProvider(client);
  let timer: NodeJS.Timeout | undefined;
  const refreshSoon = (source?: string) => {
    clearTimeout(timer);
    timer = setTimeout(() => openDiffs(source).forEach((u) => provider.refresh(u)), REFRESH_MS);
  };
  let watching = false;
  /** A commit (HEAD moves) changes what the comparison is against. */
  const watchHead = async () => {
    if (watching) return;
    const api = await gitApi();
    if (typeof api === 'string') return;
    watching = true;
    const watch = (r: Repository) => context.subscriptions.push(r.state.onDidChange(() => refreshSoon()));
    api.repositories.forEach(watch);
    context.subscriptions.push(api.onDidOpenRepository(watch));
  };

  context.subscriptions.push(
    provider,
    vscode.workspace.registerTextDocumentContentProvider(CONTRACT_DIFF_SCHEME, provider),
    vscode.commands.registerCommand(CompareContractsCommand, async (arg?: string | vscode.Uri) => {
      let source = typeof arg === 'string' ? vscode.Uri.parse(arg) : (arg ?? vscode.window.activeTextEditor?.document.uri);
      if (source?.scheme === CONTRACT_DIFF_SCHEME) source = vscode.Uri.parse(sourceOf(source));
      if (!source) {
        void vscode.window.showInformationMessage(t('Open a Vis extension file to compare its tool contracts with the last commit.'));
        return;
      }
      void watchHead();
      const uri = diffUri(source);
      const wasOpen = openDiffs().some((u) => u.toString() === uri.toString());
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
      if (wasOpen) provider.refresh(uri);
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.uri.scheme !== CONTRACT_DIFF_SCHEME && e.contentChanges.length && openDiffs(e.document.uri.toString()).length) refreshSoon(e.document.uri.toString());
    }),
    { dispose: () => clearTimeout(timer) },
  );
}
