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

/** The prompt part of the previewDocs result alone (same params and result shape). */
export const PreviewPromptRequest = 'visAuthoring/previewPrompt';

/** Client command ids: the code lenses above a registration call invoke them with the document URI. */
export const PreviewDocsCommand = 'visAuthoring.previewDocs';
export const PreviewPromptCommand = 'visAuthoring.previewPrompt';
