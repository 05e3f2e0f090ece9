// Custom LSP requests and notifications, defined once for the client and the server.
// Method names are `visAuthoring/<name>`; params and results are plain JSON.
export const PRODUCT = 'vis-authoring';
