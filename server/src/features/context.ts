// What every feature provider gets: the connection, the open documents, the workspace programs and the settings.
import path from 'node:path';
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import { filePathOf } from '../rules/util';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_MAX_FILE_SIZE, type Analysis } from '../analysis';
import { canonicalUri, type Program } from '../workspace/program';
import type { Workspace } from '../workspace/workspace';
import type { Scheduler } from './scheduler';
import type { SeverityOverrides } from '../rules';
import type { ContractFormat } from '../contracts/types';
import { DEFAULT_ROUTING_VERSION, type RoutingVersion } from '../routing/render';

export interface Settings {
  enable: boolean;
  severity: SeverityOverrides;
  /** Files larger than this many characters are not analysed. */
  maxFileSize: number;
  /** Contract signature/default format: C1, C2 or C3 (visAuthoring.contractFormat). */
  contractFormat: ContractFormat;
  /** The vis-lang-interface wording `prompt.routing(...)` is rendered in. */
  langInterfaceVersion: RoutingVersion;
  /** `workspace`: every extension the folder holds is checked in the background; `openFiles`: open documents only. */
  diagnostics: { scope: 'workspace' | 'openFiles' };
}

export function defaultSettings(): Settings {
  return { enable: true, severity: {}, maxFileSize: DEFAULT_MAX_FILE_SIZE, contractFormat: 'C3', langInterfaceVersion: DEFAULT_ROUTING_VERSION, diagnostics: { scope: 'workspace' } };
}

/** The routing wording to use: the setting when it names one the renderer knows, else the newest. */
export function routingVersionOf(settings: Settings): RoutingVersion {
  const v: unknown = settings.langInterfaceVersion;
  return v === 'current' || v === 'legacy' ? v : DEFAULT_ROUTING_VERSION;
}

export interface ServerContext {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  /** Which version of each open document the programs see; large documents analysed in slices. */
  scheduler: Scheduler;
  workspace: Workspace;
  settings: Settings;
  log(message: string): void;
  /** Whether a file that is not open may be read from disk: inside a workspace folder, or opened in this session. */
  readable(file: string): boolean;
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

/** The current analysis of an open document, or undefined when it is disabled or fails. */
export function analysisOf(ctx: ServerContext, doc: TextDocument): Analysis | undefined {
  return analysisOfUri(ctx, doc.uri);
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
