// The level of a line vscode-languageclient writes to its output channel, without VS Code types so
// that it is unit-tested. Its lines look like `[Error - 10:11:12 AM] Server process exited with code 0.`
// (the level padded to five characters); a line without that prefix continues the previous record or
// is the server's own stderr.
export type LogLevelName = 'trace' | 'debug' | 'info' | 'warn' | 'error';

const PREFIX = /^\[(Trace|Debug|Info|Warn|Error)\s*-\s*[^\]]*\]\s?/;
const LEVELS: Record<string, LogLevelName> = { Trace: 'trace', Debug: 'debug', Info: 'info', Warn: 'warn', Error: 'error' };

export function classifyClientLine(line: string): { level: LogLevelName; text: string } {
  const m = PREFIX.exec(line);
  if (!m) return { level: 'info', text: line };
  const text = line.slice(m[0].length);
  // A clean exit (our restart, or VS Code stopping the server) is not an error.
  if (/^Server process exited with code 0\.?$/.test(text)) return { level: 'info', text: 'The language server process exited cleanly (code 0).' };
  return { level: LEVELS[m[1]], text };
}
