// The extension's output: one LogOutputChannel ("Vis Authoring", levels and timestamps) for our own
// messages and the language client's, and a plain channel for the LSP trace (`visAuthoring.trace.server`),
// created on its first line.
//
// vscode-languageclient 9 writes its messages to an OutputChannel as `[Error - 10:11:12 AM] text`
// lines. `languageClientOutput` turns each into a record of the matching level (the LogOutputChannel
// adds its own timestamp). A server process that exits with code 0 has stopped cleanly (a restart, or
// VS Code shutting down): that is logged at info, not as the client's "[Error] Server process exited
// with code 0".
import * as vscode from 'vscode';
import { classifyClientLine, type LogLevelName } from './logLines';

export const OUTPUT_NAME = 'Vis Authoring';
const TRACE_NAME = 'Vis Authoring (LSP trace)';

export interface Output {
  log: vscode.LogOutputChannel;
  /** Give this to the LanguageClient as `outputChannel`. */
  client: vscode.OutputChannel;
  /** Give this to the LanguageClient as `traceOutputChannel`. */
  trace: vscode.OutputChannel;
}

export function createOutput(): Output & vscode.Disposable {
  const log = vscode.window.createOutputChannel(OUTPUT_NAME, { log: true });
  let traceChannel: vscode.OutputChannel | undefined;
  const traceOut = () => (traceChannel ??= vscode.window.createOutputChannel(TRACE_NAME));
  return {
    log,
    client: lineChannel(log, (line) => {
      const { level, text } = classifyClientLine(line);
      write(log, level, text);
    }),
    trace: {
      name: TRACE_NAME,
      append: (v) => traceOut().append(v),
      appendLine: (v) => traceOut().appendLine(v),
      replace: (v) => traceOut().replace(v),
      clear: () => traceChannel?.clear(),
      show: (a?: unknown, b?: boolean) => traceOut().show(typeof a === 'boolean' ? a : b),
      hide: () => traceChannel?.hide(),
      dispose: () => traceChannel?.dispose(),
    } as vscode.OutputChannel,
    dispose: () => {
      log.dispose();
      traceChannel?.dispose();
    },
  };
}

function write(log: vscode.LogOutputChannel, level: LogLevelName, text: string): void {
  log[level](text);
}

/** An OutputChannel that hands each complete line to `onLine` (`append` may carry parts of lines). */
function lineChannel(log: vscode.LogOutputChannel, onLine: (line: string) => void): vscode.OutputChannel {
  let pending = '';
  const take = (text: string) => {
    pending += text;
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      onLine(pending.slice(0, nl).replace(/\r$/, ''));
      pending = pending.slice(nl + 1);
    }
  };
  return {
    name: log.name,
    append: take,
    appendLine: (v: string) => take(`${v}\n`),
    replace: (v: string) => {
      pending = '';
      take(v);
    },
    clear: () => log.clear(),
    show: (a?: unknown, b?: boolean) => log.show(typeof a === 'boolean' ? a : b),
    hide: () => log.hide(),
    // The LogOutputChannel is disposed with the extension, not by the client.
    dispose: () => undefined,
  } as vscode.OutputChannel;
}
