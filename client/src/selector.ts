// The documents the language server analyses: Python in files, untitled editors, and the file system of a
// virtual workspace (its folders' scheme, e.g. `vscode-vfs`). Our own preview documents and other
// virtual documents (git:, output:) are left out. No VS Code types, so that it is unit-tested.
export interface PythonSelector {
  scheme: string;
  language: 'python';
}

export function documentSelector(folderSchemes: readonly string[]): PythonSelector[] {
  const schemes = ['file', 'untitled', ...folderSchemes.filter((s) => s !== 'file' && s !== 'untitled')];
  return [...new Set(schemes)].map((scheme) => ({ scheme, language: 'python' }));
}
