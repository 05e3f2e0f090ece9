// The in-editor e2e harness: helpers the checks use, and the loop that runs them inside real VS Code.
// It runs in VS Code's extension host (code-server), next to the installed vis-authoring extension.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

export const PRODUCT_ID = 'vis-authoring.vis-authoring';
export const SOURCE = 'vis-authoring';

/** A diagnostic as the checks compare it: plain data, 0-based positions. */
export interface Diag {
  code: string;
  message: string;
  severity: 'error' | 'warning' | 'information' | 'hint';
  range: [number, number, number, number];
}

export interface Check {
  name: string;
  /** A soft check records what it observes; its failure does not fail the run. */
  soft?: boolean;
  /** Default 20 s. */
  timeoutMs?: number;
  /** Throws on failure; the value it returns is recorded as `observed`. */
  run(t: CheckContext): Promise<unknown>;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  soft: boolean;
  ms: number;
  observed?: unknown;
  error?: string;
}

export interface HarnessResult {
  ok: boolean;
  vscodeVersion: string;
  product?: { id: string; version?: string; active: boolean };
  totalMs: number;
  checks: CheckResult[];
  error?: string;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const SEVERITY = ['error', 'warning', 'information', 'hint'] as const;

export function toDiag(d: vscode.Diagnostic): Diag {
  const code = typeof d.code === 'object' && d.code !== null ? d.code.value : d.code;
  return {
    code: String(code ?? ''),
    message: d.message,
    severity: SEVERITY[d.severity],
    range: [d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character],
  };
}

export class CheckContext {
  /**
   * @param logUri the harness extension's log folder (`<logs>/exthost1/<extension id>`): output channels of
   * every extension are written next to it, under `output_logging_*` (VS Code 1.100).
   */
  constructor(readonly workspace: vscode.Uri, readonly logUri?: vscode.Uri) {}

  /** A file of the workspace fixture (test/e2e/fixtures/workspace, copied per run). */
  uri(name: string): vscode.Uri {
    return vscode.Uri.joinPath(this.workspace, name);
  }

  async open(name: string): Promise<vscode.TextEditor> {
    const doc = await vscode.workspace.openTextDocument(this.uri(name));
    return vscode.window.showTextDocument(doc, { preview: false });
  }

  /** The vis-authoring diagnostics VS Code holds for the file now, in document order. */
  diagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
    return vscode.languages
      .getDiagnostics(uri)
      .filter((d) => d.source === SOURCE)
      .sort((a, b) => a.range.start.compareTo(b.range.start));
  }

  /** Waits until the file's vis-authoring diagnostics satisfy `ready`; throws with what was last seen. */
  async waitForDiagnostics(uri: vscode.Uri, ready: (ds: Diag[]) => boolean, timeoutMs = 15000): Promise<vscode.Diagnostic[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ds = this.diagnostics(uri);
      if (ready(ds.map(toDiag))) return ds;
      if (Date.now() > deadline) {
        throw new Error(`diagnostics not as expected after ${timeoutMs} ms; last seen: ${JSON.stringify(ds.map(toDiag))}`);
      }
      await sleep(100);
    }
  }

  /** Waits until the file's vis-authoring diagnostic codes are exactly `codes` (in document order). */
  waitForCodes(uri: vscode.Uri, codes: string[], timeoutMs?: number): Promise<vscode.Diagnostic[]> {
    return this.waitForDiagnostics(uri, (ds) => ds.map((d) => d.code).join(',') === codes.join(','), timeoutMs);
  }

  async until<T>(what: string, get: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 15000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = await get();
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await sleep(100);
    }
  }

  /** The position of the `nth` (0-based) occurrence of `needle` in the document, plus `offset` characters. */
  find(doc: vscode.TextDocument, needle: string, offset = 0, nth = 0): vscode.Position {
    let at = -1;
    for (let i = 0; i <= nth; i++) {
      at = doc.getText().indexOf(needle, at + 1);
      if (at < 0) throw new Error(`${JSON.stringify(needle)} (#${nth}) not found in ${doc.uri.path}`);
    }
    return doc.positionAt(at + offset);
  }

  /** The Markdown of the hovers at a position (all providers, as VS Code merges them). */
  async hover(uri: vscode.Uri, at: vscode.Position): Promise<string> {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, at);
    return hoverText(hovers).join('\n\n');
  }

  /** Waits until the hover at a position contains `needle` (the server answers once the file is analysed). */
  waitForHover(uri: vscode.Uri, at: vscode.Position, needle: string, timeoutMs = 15000): Promise<string> {
    let last = '';
    return this.until(`a hover containing ${JSON.stringify(needle)} at ${at.line}:${at.character}`, async () => {
      last = await this.hover(uri, at);
      return last.includes(needle) && last;
    }, timeoutMs).catch((e) => { throw Object.assign(e as Error, { observed: { lastHover: last } }); });
  }

  /**
   * The text of an output channel as VS Code logs it: a log channel (LogOutputChannel) in
   * `<extension id>/<name>.log`, a plain one in `output_logging_*\/<n>-<name>.log`, both next to logUri.
   */
  outputChannelText(name: string): string {
    if (!this.logUri) throw new Error('no log folder: the harness was activated without an extension context');
    const exthost = path.dirname(this.logUri.fsPath);
    const logFile = path.join(exthost, PRODUCT_ID, `${name}.log`);
    let text = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
    for (const dir of fs.readdirSync(exthost).filter((d) => d.startsWith('output_logging_')).sort()) {
      for (const f of fs.readdirSync(path.join(exthost, dir))) {
        if (f.replace(/^\d+-/, '') === `${name}.log`) text += fs.readFileSync(path.join(exthost, dir, f), 'utf8');
      }
    }
    return text;
  }

  /** Waits until an output channel has a line that contains `needle`; returns that line. */
  waitForOutputLine(channel: string, needle: string, timeoutMs = 15000): Promise<string> {
    return this.until(`a line containing ${JSON.stringify(needle)} in the ${channel} output`, () =>
      this.outputChannelText(channel).split('\n').find((l) => l.includes(needle)), timeoutMs)
      .catch((e) => { throw Object.assign(e as Error, { observed: { output: this.outputChannelText(channel).split('\n').slice(-20) } }); });
  }

  /** Waits until an open document whose URI satisfies `match` has text satisfying `ready` (polls, and wakes on changes). */
  async waitForDocument(what: string, match: (uri: vscode.Uri) => boolean, ready: (text: string) => boolean, timeoutMs = 15000): Promise<vscode.TextDocument> {
    const find = () => vscode.workspace.textDocuments.find((d) => match(d.uri) && ready(d.getText()));
    let wake: (() => void) | undefined;
    const sub = vscode.workspace.onDidChangeTextDocument((e) => { if (match(e.document.uri)) wake?.(); });
    try {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const doc = find();
        if (doc) return doc;
        const left = deadline - Date.now();
        if (left <= 0) {
          const seen = vscode.workspace.textDocuments.filter((d) => match(d.uri)).map((d) => ({ uri: d.uri.toString(), text: d.getText().slice(0, 2000) }));
          throw Object.assign(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`), { observed: { documents: seen } });
        }
        await new Promise<void>((r) => { const t = setTimeout(r, Math.min(left, 200)); wake = () => { clearTimeout(t); r(); }; });
        wake = undefined;
      }
    } finally {
      sub.dispose();
    }
  }
}

/** Markdown/plain text of hover contents. */
export function hoverText(hovers: vscode.Hover[] | undefined): string[] {
  return (hovers ?? []).flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)));
}

function withTimeout<T>(p: Promise<T>, ms: number, name: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`check "${name}" timed out after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Runs the checks in order and writes the result JSON to `out` (atomically: a temp file, then rename).
 * Before writing, `finish` arranges the workbench for the runner's screenshot.
 */
export async function runChecks(checks: Check[], out: string, filter: string[], finish: (t: CheckContext) => Promise<void>, logUri?: vscode.Uri): Promise<void> {
  const t0 = Date.now();
  const product = vscode.extensions.getExtension(PRODUCT_ID);
  const result: HarnessResult = { ok: false, vscodeVersion: vscode.version, totalMs: 0, checks: [] };
  try {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new Error('no workspace folder is open');
    const t = new CheckContext(folder.uri, logUri);
    for (const check of checks) {
      if (filter.length && !filter.some((f) => check.name.includes(f))) continue;
      const started = Date.now();
      const r: CheckResult = { name: check.name, ok: false, soft: !!check.soft, ms: 0 };
      try {
        r.observed = await withTimeout(check.run(t), check.timeoutMs ?? 20000, check.name);
        r.ok = true;
      } catch (e) {
        r.error = e instanceof Error ? (e.stack ?? e.message) : String(e);
        const observed = (e as { observed?: unknown }).observed;
        if (observed !== undefined) r.observed = observed;
      }
      r.ms = Date.now() - started;
      result.checks.push(r);
    }
    await finish(t);
    result.ok = result.checks.length > 0 && result.checks.every((c) => c.ok || c.soft);
  } catch (e) {
    result.error = e instanceof Error ? (e.stack ?? e.message) : String(e);
  }
  result.product = product ? { id: product.id, version: product.packageJSON?.version, active: product.isActive } : undefined;
  result.totalMs = Date.now() - t0;
  fs.writeFileSync(out + '.tmp', JSON.stringify(result, null, 2));
  fs.renameSync(out + '.tmp', out);
}
