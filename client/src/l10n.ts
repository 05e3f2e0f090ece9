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

/**
 * A count with its noun, singular for 1 and plural otherwise: "1 error", "2 errors", "0 warnings".
 * Each form is a message of its own, so that a translation can word both.
 */
const COUNTED = {
  error: (n: number) => (n === 1 ? t('1 error') : t('{0} errors', n)),
  warning: (n: number) => (n === 1 ? t('1 warning') : t('{0} warnings', n)),
  line: (n: number) => (n === 1 ? t('1 line') : t('{0} lines', n)),
} as const;

export function countOf(n: number, noun: keyof typeof COUNTED): string {
  return COUNTED[noun](n);
}
