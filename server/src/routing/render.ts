// Pure evaluation of vis-lang-interface's `prompt.routing(language, alias, verbs=VERBS, *, notes=())`
// (shared/spec/vis-lang-interface.md §2). Same text and the same ValueError messages as the Python
// code, for both wordings the spec knows. Works on already-known argument values: recognising the
// call in a Python file is the declaration model's job, not this module's.
import { pyStrip } from '../model/literals';
import { ROUTING_VERBS } from '../sdk/vocabularies';

/** The public verbs, in contract order (the same in every cited version): the SDK table's routing vocabulary. */
export const VERBS = ROUTING_VERBS;

export type Verb = (typeof VERBS)[number];

const TOOLCHAIN_VERBS: readonly Verb[] = ['format_code', 'lint_code', 'run_tests', 'build'];
const REPL_VERBS: readonly Verb[] = ['repl_start', 'repl_status', 'repl_connect', 'repl_eval', 'repl_stop'];

/**
 * The prompt wording, named as the spec names it:
 * - `current`: prompt.py @1b00fc79 (v2.6.2), unchanged in v2.7.0 (@45d872fa);
 * - `legacy`: prompt.py @abe830d9 (v2.1.0), @25fb514e and the docstring-reflow version.
 */
export type RoutingVersion = 'current' | 'legacy';
export const DEFAULT_ROUTING_VERSION: RoutingVersion = 'current';

export interface RoutingArgs {
  language: string;
  alias: string;
  /** `undefined` means the argument was omitted: the default is the whole VERBS tuple. */
  verbs?: readonly string[];
  notes?: readonly string[];
}

export type RoutingError = { type: 'ValueError' | 'TypeError'; message: string };
export type RoutingResult = { ok: true; text: string } | { ok: false; error: RoutingError };

const SENTENCES: Record<RoutingVersion, { toolchain: (language: string) => string; repl: (alias: string) => string }> = {
  current: {
    toolchain: (language) =>
      `Use these verbs, not a shell command, to format, lint and test ${language}. Read their typed result; do not parse output.`,
    repl: (alias) =>
      'A REPL stays alive after the call that started it, and nothing in the context shows that it is alive. ' +
      `\`${alias}.repl_status\` tells you; \`${alias}.repl_stop\` ends it. ` +
      'Evaluate in a live REPL to check a change without a new toolchain startup.',
  },
  legacy: {
    toolchain: (language) =>
      `These verbs are the ${language} toolchain here: reach for them instead of a shell line that runs the formatter, ` +
      'the linter or the test command, and read the typed result they answer rather than parsing output.',
    repl: (alias) =>
      'A REPL outlives the call that started it and nothing reprints that it is alive: ' +
      `\`${alias}.repl_status\` is what says so, \`${alias}.repl_stop\` is what ends it. ` +
      "Evaluating in a live one is how you check a change without paying the toolchain's startup again.",
  },
};

export function renderRouting(args: RoutingArgs, version: RoutingVersion = DEFAULT_ROUTING_VERSION): RoutingResult {
  const { language, alias } = args;
  // dict.fromkeys(str(v) for v in verbs): first occurrence wins, insertion order kept.
  const named = new Set(args.verbs ?? VERBS);
  const known = new Set<string>(VERBS);
  const unknown = [...named].filter((v) => !known.has(v));
  if (unknown.length > 0) {
    return valueError('unknown language verbs: ' + unknown.sort(compareCodePoints).join(', '));
  }
  if (named.size === 0) return valueError('a language extension contributes at least one verb');

  const row = (group: readonly Verb[]) =>
    group
      .filter((v) => named.has(v))
      .map((v) => `${alias}.${v}`)
      .join(' \u00b7 ');
  const toolchainRow = row(TOOLCHAIN_VERBS);
  const replRow = row(REPL_VERBS);
  const sentences = SENTENCES[version];

  const lines = [`${alias} surface active \u2014 ${language} through its own toolchain:`];
  if (toolchainRow) lines.push('  ' + toolchainRow);
  if (replRow) lines.push('  ' + replRow);
  if (toolchainRow) lines.push(sentences.toolchain(language));
  if (replRow) lines.push(sentences.repl(alias));
  for (const note of args.notes ?? []) {
    const stripped = pyStrip(note);
    if (stripped) lines.push(stripped);
  }
  return { ok: true, text: lines.join('\n') };
}

function valueError(message: string): RoutingResult {
  return { ok: false, error: { type: 'ValueError', message } };
}


/** Python's string ordering: by code point (JS `<` compares UTF-16 code units, which differs for astral characters). */
export function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const ca = ia.next();
    const cb = ib.next();
    if (ca.done || cb.done) return ca.done ? (cb.done ? 0 : -1) : 1;
    const d = ca.value.codePointAt(0)! - cb.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}
