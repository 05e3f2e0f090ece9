// Custom LSP requests and notifications, defined once for the client and the server.
// Method names are `visAuthoring/<name>`; params and results are plain JSON.
export const PRODUCT = 'vis-authoring';

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
