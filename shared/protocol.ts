// Custom LSP requests and notifications, defined once for the client and the server.
// Method names are `visAuthoring/<name>`; params and results are plain JSON.
export const PRODUCT = 'vis-authoring';

/** The model-facing docs of the Vis extension at `uri`, in parts, with o200k_base token counts. */
export const PreviewDocsRequest = 'visAuthoring/previewDocs';
export interface PreviewDocsParams {
  uri: string;
}
export interface PreviewDocsPart {
  title: string;
  tokens: number;
  /** Set when the count is an estimate: a part longer than 50,000 characters is counted from its first 50,000. */
  estimated?: boolean;
}
export interface PreviewDocsResult {
  text: string;
  parts: PreviewDocsPart[];
  tokens: number;
}

/** The text of the `prompt.routing(...)` call at `position`; null where there is none or it cannot be evaluated statically. */
export const RenderRoutingRequest = 'visAuthoring/renderRouting';
export interface RenderRoutingParams {
  uri: string;
  position: { line: number; character: number };
}
export type RenderRoutingResult = { text: string } | null;

/** What the server knows of a document, for the status item. */
export const DocumentStatusRequest = 'visAuthoring/documentStatus';
export interface DocumentStatusParams {
  uri: string;
}
export interface DocumentStatusResult {
  /** The SDK generation ('G1' | 'G2' | 'G3'), or null when the file does not use the Vis SDK. */
  generation: string | null;
  /** True when no registration call, pin or version-specific member tells the generation and it was assumed from the imports. */
  generationAssumed: boolean;
  /** The SDK version the file is checked against and what decided it; null when the file does not use the Vis SDK. */
  sdk?: {
    /** e.g. `extension.py @f3ef1e26 (G3, C3, 4 tags, settings; newest of the 8 G3 versions that fit)`. */
    release: string;
    /** What decided the generation and version, strongest first: `vis-agent>=0.2.45 (the PEP 723 block, line 3)`. */
    decidedBy: string[];
    /** The SDK-001 message when the evidence conflicts. */
    conflict?: string;
  } | null;
  /** Milliseconds the last analysis took. */
  millis: number;
  errors: number;
  warnings: number;
  /** Each tool whose contract is not (fully) statically known: `where` is the tool, `reason` why. */
  unknownTools: ContractUnknown[];
  /**
   * True while the contracts of a file of many tools are still being computed: `unknownTools` is then
   * the last list known for the document (an older version's, or empty). Ask again a little later.
   */
  contractsPending?: true;
}

/** The Symbol contract at `position` (on `vis.Symbol(`, its first argument, or the `def` of an exported tool) and its generated doc text; null where there is none. */
export const SymbolContractRequest = 'visAuthoring/symbolContract';
export interface SymbolContractParams {
  uri: string;
  position: { line: number; character: number };
}
/** A part of a contract that is not statically known (`where`: "parameter `limit`: default", "returns"...), and why. */
export interface ContractUnknown {
  where: string;
  reason: string;
}
export type SymbolContractResult = { contract: object; doc: string; unknowns: ContractUnknown[] } | null;

/** The prompt part of the previewDocs result alone (same params and result shape). */
export const PreviewPromptRequest = 'visAuthoring/previewPrompt';

/** Client command ids: the code lenses above a registration call invoke them with the document URI. */
export const PreviewDocsCommand = 'visAuthoring.previewDocs';
export const PreviewPromptCommand = 'visAuthoring.previewPrompt';

/** Lines `after` adds to and removes from `before`, as `git diff --minimal --numstat` counts them. */
export const LineChangesRequest = 'visAuthoring/lineChanges';
export interface LineChangesParams {
  before: string;
  after: string;
}
export interface LineChangesResult {
  added: number;
  removed: number;
}

/**
 * The HTML tags in the server's hover Markdown: the contract hover folds its JSON and `doc(name)` text in
 * `<details>` and breaks lines in table cells with `<br>`. VS Code drops HTML from Markdown unless the client
 * allows it (all three are on its allow list), so the client renders hovers with CLIENT_MARKDOWN. Command
 * links stay untrusted.
 */
export const HOVER_HTML_TAGS: readonly string[] = ['br', 'details', 'summary'];
export const CLIENT_MARKDOWN = { isTrusted: false, supportHtml: true };

/** "Vis: Compare Contracts with HEAD": what the model sees differently from the last commit, tool by tool. */
export const CompareContractsRequest = 'visAuthoring/compareContracts';
export const CompareContractsCommand = 'visAuthoring.compareContractsWithHead';
export interface CompareContractsParams {
  uri: string;
}
/** One difference, as `server/src/contracts/diff.ts` reports it (`kind`: tool-added, parameter-retyped, ...). */
export interface ContractChangeInfo {
  tool: string;
  kind: string;
  breaking: boolean;
  message: string;
  before?: string;
  after?: string;
}
export interface CompareContractsResult {
  /** What was compared with ("HEAD (1a2b3c4)"), or null when there is nothing to compare with (then `text` says why). */
  base: string | null;
  text: string;
  changes: ContractChangeInfo[];
  breaking: number;
}

/**
 * Server → client: a file's text in a revision, from the editor's Git integration (the server runs no
 * process). `text` is null when the revision does not have the file; `label` names the revision
 * ("HEAD (1a2b3c4)"). `unavailable` says why there is no revision to read (no repository, no commit).
 * Sent only to clients that set the experimental capability COMMITTED_TEXT_CAPABILITY.
 */
export const CommittedTextRequest = 'visAuthoring/committedText';
export const COMMITTED_TEXT_CAPABILITY = 'visAuthoringCommittedText';
export interface CommittedTextParams {
  uri: string;
  ref: string;
}
export type CommittedTextResult = { text: string | null; label: string } | { unavailable: string };
