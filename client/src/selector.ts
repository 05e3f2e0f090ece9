// The documents the language server analyses: Python (and pyproject.toml) in files, untitled editors, and the file system of a
// virtual workspace (its folders' scheme, e.g. `vscode-vfs`). Our own preview documents and other
// virtual documents (git:, output:) are left out. No VS Code types, so that it is unit-tested.
export type DocumentFilter = { scheme: string; language: 'python' } | { scheme: string; pattern: string };

/** Python files, and the `pyproject.toml` of packaged extensions (the MAN rules check it; no TOML language is assumed). */
export function documentSelector(folderSchemes: readonly string[]): DocumentFilter[] {
  const schemes = ['file', 'untitled', ...folderSchemes.filter((s) => s !== 'file' && s !== 'untitled')];
  const unique = [...new Set(schemes)];
  return [...unique.map((scheme) => ({ scheme, language: 'python' as const })), ...unique.filter((s) => s !== 'untitled').map((scheme) => ({ scheme, pattern: '**/pyproject.toml' }))];
}
