// What every feature provider gets: the connection, the open documents, the workspace programs and the settings.
import path from 'node:path';
import type { ClientCapabilities, Connection, TextDocuments } from 'vscode-languageserver/node';
import { filePathOf } from '../rules/util';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_MAX_FILE_SIZE, type Analysis } from '../analysis';
import { canonicalUri, type Program } from '../workspace/program';
import type { SymbolInfo } from '../contracts/symbols';
import type { G1ToolInfo } from '../contracts/g1';
import type { Workspace } from '../workspace/workspace';
import type { Scheduler } from './scheduler';
import type { SeverityOverrides } from '../rules';
import type { ContractFormatSetting } from '../sdk/profile';
import { DEFAULT_ROUTING_VERSION, type RoutingVersion } from '../routing/render';

export interface Settings {
  enable: boolean;
  severity: SeverityOverrides;
  /** Files larger than this many characters are not analysed. */
  maxFileSize: number;
  /** visAuthoring.contractFormat: `auto` (each file's SDK version's format) or C1, C2, C3. */
  contractFormat: ContractFormatSetting;
  /** The vis-lang-interface wording `prompt.routing(...)` is rendered in. */
  langInterfaceVersion: RoutingVersion;
  /** `workspace`: every extension the folder holds is checked in the background; `openFiles`: open documents only. */
  diagnostics: { scope: 'workspace' | 'openFiles' };
  /** Python's syntax errors (the SYN rules) as diagnostics in the editor; the CLI always reports them. */
  showSyntaxErrors: boolean;
  /** Rules to run (ids, family prefixes or ALL), over the project's `[tool.vis-authoring]`; empty: as the project says. */
  select: string[];
  /** Rules not to run, over the project's. */
  ignore: string[];
  /** The contract hover card: `compact` (six lines, the rest folded), `full`, or `off`. */
  hover: { contract: 'compact' | 'full' | 'off' };
  /** Inlay hints after `vis.Symbol(fn`: the public tool name and the effective tag (off by default). */
  inlayHints: { enable: boolean };
}

export function defaultSettings(): Settings {
  return {
    enable: true,
    severity: {},
    maxFileSize: DEFAULT_MAX_FILE_SIZE,
    contractFormat: 'auto',
    langInterfaceVersion: DEFAULT_ROUTING_VERSION,
    diagnostics: { scope: 'workspace' },
    showSyntaxErrors: true,
    select: [],
    ignore: [],
    hover: { contract: 'compact' },
    inlayHints: { enable: false },
  };
}

/**
 * Settings as the client sent them, each of the wrong type replaced by its default (settings.json is
 * edited by hand: VS Code only warns about a value its schema does not allow), with what was replaced.
 */
export function settingsFrom(raw: unknown): { settings: Settings; problems: string[] } {
  const d = defaultSettings();
  const problems: string[] = [];
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { settings: d, problems: raw === null || raw === undefined ? [] : [`visAuthoring: expected an object of settings, got ${JSON.stringify(raw)}; using the defaults`] };
  const s = { ...(raw as Record<string, unknown>) };
  const bad = (key: string, expected: string, fallback: unknown) => {
    problems.push(`visAuthoring.${key}: expected ${expected}, got ${JSON.stringify(s[key])?.slice(0, 80)}; using ${JSON.stringify(fallback)}`);
    s[key] = fallback;
  };
  if ('enable' in s && typeof s.enable !== 'boolean') bad('enable', 'true or false', d.enable);
  if ('maxFileSize' in s && !(typeof s.maxFileSize === 'number' && s.maxFileSize >= 1000)) bad('maxFileSize', 'a number of at least 1000', d.maxFileSize);
  for (const key of ['contractFormat', 'langInterfaceVersion'] as const) if (key in s && typeof s[key] !== 'string') bad(key, 'a string', d[key]);
  if ('diagnostics' in s) {
    const scope = (s.diagnostics as { scope?: unknown } | null)?.scope;
    if (scope !== 'workspace' && scope !== 'openFiles') bad('diagnostics', '{"scope": "workspace" | "openFiles"}', d.diagnostics);
  }
  for (const key of ['select', 'ignore'] as const) if (key in s && !Array.isArray(s[key])) bad(key, 'an array of rule ids or prefixes', d[key]);
  if ('showSyntaxErrors' in s && typeof s.showSyntaxErrors !== 'boolean') bad('showSyntaxErrors', 'true or false', d.showSyntaxErrors);
  if ('severity' in s) {
    const sev = s.severity;
    if (!sev || typeof sev !== 'object' || Array.isArray(sev)) bad('severity', 'an object of rule ids', d.severity);
    else {
      const levels = ['error', 'warning', 'information', 'hint', 'off'];
      const kept = Object.fromEntries(Object.entries(sev).filter(([, v]) => levels.includes(v as string)));
      for (const [id, v] of Object.entries(sev)) if (!(id in kept)) problems.push(`visAuthoring.severity.${id}: expected one of ${levels.join(', ')}, got ${JSON.stringify(v)}; ignored`);
      s.severity = kept;
    }
  }
  return { settings: { ...d, ...(s as Partial<Settings>) }, problems };
}

/** The findings the editor shows: all of them, or all but Python's syntax errors (`visAuthoring.showSyntaxErrors`). */
export function editorFindings<T extends { rule: string }>(settings: Settings, findings: T[]): T[] {
  return settings.showSyntaxErrors === false ? findings.filter((f) => !f.rule.startsWith('SYN-')) : findings;
}

/** The routing wording to use: the setting when it names one the renderer knows, else the newest. */
export function routingVersionOf(settings: Settings): RoutingVersion {
  const v: unknown = settings.langInterfaceVersion;
  return v === 'current' || v === 'legacy' ? v : DEFAULT_ROUTING_VERSION;
}

export interface ServerContext {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  /** Which version of each open document the programs see; every version analysed in slices. */
  scheduler: Scheduler;
  /** What the client said it supports (set at initialize). */
  clientCapabilities?: ClientCapabilities;
  workspace: Workspace;
  settings: Settings;
  log(message: string): void;
  /** Whether a file that is not open may be read from disk: inside a workspace folder, or opened in this session. */
  readable(file: string): boolean;
}

/** A settings list of rule selectors: the strings of an array, anything else none. */
export function selectorsOf(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim()) : [];
}

/** A document's text; a client that sent no text (`null`) gets an empty document, not a crash. */
export function textOf(doc: TextDocument): string {
  const text: unknown = doc.getText();
  return typeof text === 'string' ? text : '';
}

/** Whether the workspace is checked in the background (`visAuthoring.diagnostics.scope`). */
export function workspaceScope(settings: Settings): boolean {
  return settings.diagnostics?.scope !== 'openFiles';
}

/** The program a document belongs to, and the document's URI as the program names it. */
export function programOf(ctx: ServerContext, uri: string): { program: Program; uri: string } {
  const canonical = canonicalUri(uri);
  return { program: ctx.workspace.programFor(canonical), uri: canonical };
}

/**
 * The current analysis of a module (open or on disk), or undefined when it is disabled or fails. A
 * file that is too large or that the parser cannot take is analysed too: into one finding that says why.
 */
export function analysisOfUri(ctx: ServerContext, uri: string): Analysis | undefined {
  if (!ctx.settings.enable) return undefined;
  const { program, uri: canonical } = programOf(ctx, uri);
  try {
    return program.analysis(canonical);
  } catch (e) {
    ctx.log(`analysis of ${uri} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return undefined;
  }
}

/**
 * The analysis of an open document: its current version's once that is analysed, else the last one its
 * analysis job finished (an older version's, or undefined before the first); undefined when disabled or
 * when it fails. Never analyses a version whose job is still running (see Scheduler.pendingAnswer).
 */
export function analysisOf(ctx: ServerContext, doc: TextDocument): Analysis | undefined {
  const pending = ctx.scheduler.pendingAnswer(canonicalUri(doc.uri));
  if (pending) return ctx.settings.enable ? pending.analysis : undefined;
  return analysisOfUri(ctx, doc.uri);
}

/**
 * The Symbol analysis of a module for a request: the program's, or, while an open document's current
 * version is still being analysed, the one that goes with the last analysis its job finished (asking the
 * program would run the join on the request path: seconds for a file of thousands of tools, with every
 * other request waiting behind it).
 */
export function symbolsOf(ctx: ServerContext, uri: string): SymbolInfo[] {
  const { program, uri: canonical } = programOf(ctx, uri);
  return ctx.scheduler.pendingAnswer(canonical)?.symbols ?? program.symbols(canonical);
}

/** The G1 tools of a module for a request: the program's, or the last finished analysis's while an open document's current version is analysed (see symbolsOf). */
export function g1ToolsOf(ctx: ServerContext, uri: string): G1ToolInfo[] {
  const { program, uri: canonical } = programOf(ctx, uri);
  return ctx.scheduler.pendingAnswer(canonical)?.g1 ?? program.g1Tools(canonical);
}

/** How long a request waits for its document's current version before it answers from the last analysis. */
export const READY_WAIT_MS = 60;

/**
 * For requests: the analysis of an open document's current version when it is ready within
 * READY_WAIT_MS (a small document's is ready at once), else the last analysis there is (or undefined
 * before the first one is done).
 */
export async function currentAnalysisOf(ctx: ServerContext, doc: TextDocument): Promise<Analysis | undefined> {
  await ctx.scheduler.whenCurrent(canonicalUri(doc.uri), READY_WAIT_MS);
  return analysisOf(ctx, doc);
}

/** Which files that are not open the server may read: those inside a workspace folder, or opened in this session. */
export class FileAccess {
  private seen = new Set<string>();

  constructor(private folders: () => string[]) {}

  opened(uri: string): void {
    const file = filePathOf(uri);
    if (file) this.seen.add(path.resolve(file));
  }

  readable(file: string): boolean {
    const abs = path.resolve(file);
    return this.seen.has(abs) || this.folders().some((f) => {
      const rel = path.relative(f, abs);
      return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
    });
  }
}
