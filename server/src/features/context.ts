// What every feature provider gets: the connection, the open documents, the analyzer and the settings.
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Analysis, Analyzer } from '../analysis';
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
}

export function defaultSettings(): Settings {
  return { enable: true, severity: {}, maxFileSize: 2_000_000, contractFormat: 'auto', langInterfaceVersion: DEFAULT_ROUTING_VERSION };
}

/** The routing wording to use: the setting when it names one the renderer knows, else the newest. */
export function routingVersionOf(settings: Settings): RoutingVersion {
  const v: unknown = settings.langInterfaceVersion;
  return v === 'current' || v === 'legacy' ? v : DEFAULT_ROUTING_VERSION;
}

export interface ServerContext {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  analyzer: Analyzer;
  settings: Settings;
  log(message: string): void;
}

/** The current analysis of an open document, or undefined when it is disabled, too large or fails. */
export function analysisOf(ctx: ServerContext, doc: TextDocument): Analysis | undefined {
  if (!ctx.settings.enable || doc.getText().length > ctx.settings.maxFileSize) return undefined;
  try {
    return ctx.analyzer.analyze(doc.uri, doc.version, doc.getText());
  } catch (e) {
    ctx.log(`analysis of ${doc.uri} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return undefined;
  }
}
