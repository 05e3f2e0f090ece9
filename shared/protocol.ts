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
}

/** The Symbol contract at `position` (on `vis.Symbol(`, its first argument, or the `def` of an exported tool) and its generated doc text; null where there is none. */
export const SymbolContractRequest = 'visAuthoring/symbolContract';
export interface SymbolContractParams {
  uri: string;
  position: { line: number; character: number };
}
export type SymbolContractResult = { contract: object; doc: string } | null;

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
