// Which formatter VS Code's "Format Document" uses for a Python file, without VS Code types:
// the `[python]` `editor.defaultFormatter` when it names an installed extension; else, with no default,
// the one Python formatter installed; with several and no default, VS Code asks the user to pick one.
//
// Extensions register formatters at run time, and the API has no list of them. An installed extension
// is taken as a Python formatter when its manifest says both that it formats (category "Formatters")
// and that it is about Python (it activates on Python files or contributes the language), as Ruff,
// Black Formatter, autopep8 and yapf do.

export interface InstalledExtension {
  id: string;
  displayName?: string;
  categories?: readonly string[];
  activationEvents?: readonly string[];
  /** Language ids from `contributes.languages`. */
  languages?: readonly string[];
}

export type FormatterChoice =
  | { kind: 'default'; id: string; name: string }
  | { kind: 'default-missing'; id: string }
  | { kind: 'single'; id: string; name: string }
  | { kind: 'several'; names: string[] }
  | { kind: 'unknown' };

const PYTHON_ACTIVATION = /^(onLanguage:python|workspaceContains:.*\.py|workspaceContains:.*(pyproject\.toml|setup\.cfg|requirements\.txt))$/i;

export function isPythonFormatter(e: InstalledExtension): boolean {
  if (!(e.categories ?? []).some((c) => c.toLowerCase() === 'formatters')) return false;
  return (e.activationEvents ?? []).some((a) => PYTHON_ACTIVATION.test(a)) || (e.languages ?? []).includes('python');
}

/** VS Code compares extension ids without case. */
function sameId(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * @param defaultFormatter `editor.defaultFormatter` as VS Code reads it for the document (`[python]` first)
 * @param installed the enabled extensions, ours included (it is not a formatter and is left out)
 */
export function chooseFormatter(defaultFormatter: string | null | undefined, installed: readonly InstalledExtension[], self: string): FormatterChoice {
  const others = installed.filter((e) => !sameId(e.id, self));
  if (defaultFormatter) {
    const chosen = others.find((e) => sameId(e.id, defaultFormatter));
    return chosen ? { kind: 'default', id: chosen.id, name: chosen.displayName || chosen.id } : { kind: 'default-missing', id: defaultFormatter };
  }
  const formatters = others.filter(isPythonFormatter);
  if (formatters.length === 1) return { kind: 'single', id: formatters[0].id, name: formatters[0].displayName || formatters[0].id };
  if (formatters.length > 1) return { kind: 'several', names: formatters.map((e) => e.displayName || e.id).sort() };
  return { kind: 'unknown' };
}
