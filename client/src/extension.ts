// VS Code client wiring: starts the language server, and registers the status item, commands and views.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { CLIENT_MARKDOWN } from '../../shared/protocol';
import { registerContractCommands } from './contracts';
import { registerContractDiff } from './contractDiff';
import { ExtensionFiles } from './extensionFiles';
import { registerFormatPreview } from './formatPreview';
import { getHostState, onDidChangeHostState, registerHostFeatures, type HostConnection } from './host';
import { setTranslator, t } from './l10n';
import { createOutput } from './log';
import { registerPreviews } from './previews';
import { registerRuleDocs, ruleDocsMiddleware } from './ruleDocs';
import { documentSelector } from './selector';
import { StatusItem } from './status';
import { gateHostFeatures, type HostBlock } from './trust';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  setTranslator(vscode.l10n.t);
  const output = createOutput();
  const log = output.log;
  context.subscriptions.push(output);
  const module = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.stdio },
    debug: { module, transport: TransportKind.stdio, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  const clientOptions: LanguageClientOptions = {
    // Untitled and unsaved Python documents are analysed too, and those of a virtual workspace.
    documentSelector: documentSelector((vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.scheme)),
    synchronize: { configurationSection: 'visAuthoring' },
    outputChannel: output.client,
    traceOutputChannel: output.trace,
    // The contract hover folds its JSON in <details>: without HTML, VS Code drops the tags and their labels.
    markdown: CLIENT_MARKDOWN,
    middleware: ruleDocsMiddleware,
  };
  client = new LanguageClient('visAuthoring', t('Vis Authoring'), serverOptions, clientOptions);

  const files = new ExtensionFiles(client);
  const status = new StatusItem(client, files);
  const hostText = (s: HostConnection) => (s.state === 'connected' ? t('connected ({0})', s.baseUrl) : s.state === 'not-running' ? t('not running') : '');
  const blockedText = (block: HostBlock) => (block === 'virtual' ? t('off in a virtual workspace') : t('needs a trusted workspace'));
  context.subscriptions.push(
    files,
    status,
    vscode.commands.registerCommand('visAuthoring.restartServer', async () => {
      log.info('Restarting the Vis Authoring language server');
      await client?.restart();
      files.refreshVisible();
    }),
    vscode.commands.registerCommand('visAuthoring.showOutput', () => log.show(true)),
    registerRuleDocs(context),
    gateHostFeatures(
      log,
      () => vscode.Disposable.from(registerHostFeatures(context, log), onDidChangeHostState((s) => status.setHost(hostText(s)))),
      (block) => status.setHost(block ? blockedText(block) : hostText(getHostState())),
    ),
  );
  registerContractCommands(context, client);
  registerContractDiff(context, client);
  registerPreviews(context, client);
  registerFormatPreview(context, client, files);

  try {
    await client.start();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    log.error(`The language server did not start: ${message}`);
    const show = t('Show Output');
    void vscode.window.showErrorMessage(t('Vis Authoring: the language server did not start ({0}).', message), show).then((choice) => {
      if (choice === show) log.show(true);
    });
  }
  status.refresh();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
