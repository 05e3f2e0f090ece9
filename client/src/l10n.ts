// Runtime messages go through t(): in VS Code it is vscode.l10n.t (installed at activation by
// extension.ts); elsewhere (unit tests, host code run outside the editor) the English text with its
// {0}, {1}… placeholders filled. This module has no VS Code types, so host code can use it.
export type L10nArg = string | number | boolean;
type Translate = (message: string, ...args: L10nArg[]) => string;

const english: Translate = (message, ...args) => message.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole));

let impl: Translate = english;

/** Installs the editor's translator (vscode.l10n.t). */
export function setTranslator(fn: Translate): void {
  impl = fn;
}

/** A user-facing message, localised. */
export function t(message: string, ...args: L10nArg[]): string {
  return impl(message, ...args);
}
