// VS Code client wiring: starts the language server, and registers the status item and commands.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { CLIENT_MARKDOWN } from '../../shared/protocol';
import { registerContractCommands } from './contracts';
import { registerContractDiff } from './contractDiff';
import { registerFormatPreview } from './formatPreview';
import { getHostState, onDidChangeHostState, registerHostFeatures, type HostConnection } from './host';
import { registerPreviews } from './previews';
import { StatusItem } from './status';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('Vis Authoring');
  context.subscriptions.push(output);
  const module = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.stdio },
    debug: { module, transport: TransportKind.stdio, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  const clientOptions: LanguageClientOptions = {
    // Untitled and unsaved Python documents are analysed too.
    documentSelector: [
      { scheme: 'file', language: 'python' },
      { scheme: 'untitled', language: 'python' },
    ],
    synchronize: { configurationSection: 'visAuthoring' },
    outputChannel: output,
    // The contract hover folds its JSON in <details>: without HTML, VS Code drops the tags and their labels.
    markdown: CLIENT_MARKDOWN,
  };
  client = new LanguageClient('visAuthoring', 'Vis Authoring', serverOptions, clientOptions);

  const status = new StatusItem(client);
  context.subscriptions.push(
    status,
    vscode.commands.registerCommand('visAuthoring.restartServer', async () => {
      output.appendLine('Restarting the Vis Authoring language server');
      await client?.restart();
      status.refresh();
    }),
    vscode.commands.registerCommand('visAuthoring.showOutput', () => output.show(true)),
    registerHostFeatures(context, output),
    onDidChangeHostState((s) => status.setHost(hostText(s))),
  );
  status.setHost(hostText(getHostState()));
  registerContractCommands(context, client);
  registerContractDiff(context, client);
  registerPreviews(context, client);
  registerFormatPreview(context, client);

  try {
    await client.start();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    output.appendLine(`The language server did not start: ${message}`);
    void vscode.window.showErrorMessage(`Vis Authoring: the language server did not start (${message}).`, 'Show Output').then((choice) => {
      if (choice) output.show(true);
    });
  }
  status.refresh();
}

function hostText(s: HostConnection): string {
  return s.state === 'connected' ? `connected (${s.baseUrl})` : s.state === 'not-running' ? 'not running' : '';
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
