// The fixes rules attach, built from the model and the module's text (server/src/fixes/edits.ts does
// the text work). Each returns what `ctx.report` takes: the safe fix, and suggestions when the edit is a
// guess among several (quick fixes only). A rule that uses one declares `fixable: true`, and its page
// (docs/rules/<ID>.md) shows the fix.
import { docstringStub, insertArgument, listOf, nearest, pyString, removeArgument } from '../fixes/edits';
import type { Argument, Call, FunctionDecl, Value } from '../model/types';
import type { Fix, RuleContext } from './types';

export interface FixChoice {
  fix?: Fix;
  suggestions?: Fix[];
}

/** Reports with a fix choice. */
export function reportWith(ctx: RuleContext, range: Value['range'], message: string, choice: FixChoice = {}): void {
  ctx.report(range, message, choice.fix, choice.suggestions?.length ? { suggestions: choice.suggestions } : undefined);
}

/**
 * A near-miss string literal replaced by the nearest valid value (`"pach"` → `"patch"`): the fix when one
 * is nearest, suggestions when several are. Nothing when the value is near none, or is not a literal.
 */
export function nearestValue(ctx: RuleContext, written: Value | undefined, candidates: readonly string[]): FixChoice {
  if (!written || written.kind !== 'str' || !isLiteralAt(ctx, written)) return {};
  const { names, unique } = nearest(written.value, candidates);
  const fixes = names.map((n) => ({ title: `Change to ${pyString(n, written.text)}`, edits: [{ range: written.range, newText: pyString(n, written.text) }] }));
  return unique ? { fix: fixes[0] } : { suggestions: fixes };
}

/**
 * A keyword the callee does not take renamed to the nearest one it does (`symbol=` → `symbols=`), when
 * that one is not given already.
 */
export function nearestKeyword(call: Call, arg: Argument, accepted: Iterable<string>): FixChoice {
  if (arg.name === undefined || !arg.nameRange) return {};
  const given = new Set(call.args.flatMap((a) => (a.name !== undefined ? [a.name] : [])));
  const { names, unique } = nearest(arg.name, [...accepted].filter((k) => !given.has(k)));
  const fixes = names.map((n) => ({ title: `Rename to ${n}=`, edits: [{ range: arg.nameRange!, newText: n }] }));
  return unique ? { fix: fixes[0] } : { suggestions: fixes };
}

/**
 * Whether a value is the literal written at its range (not a name bound to it elsewhere: a fix then
 * belongs where the value is written, which the rule does not see).
 */
export function isLiteralAt(ctx: RuleContext, v: Value): boolean {
  const source = ctx.source();
  if (!source || source.slice(v.range) !== v.text || v.kind === 'name' || v.kind === 'attribute' || v.kind === 'member' || v.kind === 'unknown') return false;
  return v.kind !== 'str' || /^[rRuU]?["']/.test(v.text);
}

/**
 * A boolean written as another literal whose meaning is plain: `1`/`0` and `"true"`/`"false"` (any case)
 * become `True`/`False`. Anything else (`"yes"`, `2`) is the author's to decide: no fix.
 */
export function booleanMeant(ctx: RuleContext, written: Value | undefined, field: string): FixChoice {
  if (!written || !isLiteralAt(ctx, written)) return {};
  const meant = written.kind === 'int' && (written.value === 0 || written.value === 1) ? written.value === 1 : written.kind === 'str' && /^(true|false)$/i.test(written.value) ? written.value.toLowerCase() === 'true' : undefined;
  if (meant === undefined) return {};
  const text = meant ? 'True' : 'False';
  return { fix: { title: `Write ${field}=${text}`, edits: [{ range: written.range, newText: text }] } };
}

/** A bare string literal put in a list (`"toml"` → `["toml"]`), when `ok` says the string is one item the list holds. */
export function stringInList(ctx: RuleContext, written: Value | undefined, ok: (s: string) => boolean): FixChoice {
  return written?.kind === 'str' && isLiteralAt(ctx, written) && ok(written.value) ? { fix: inList(written) } : {};
}

/** A bare value put in a list (`"patch"` → `["patch"]`, a generator → a list). */
export function inList(written: Value, title = 'Put it in a list'): Fix {
  return { title, edits: listOf(written) };
}

/** An argument the SDK refuses, dropped with its comma. */
export function dropArgument(ctx: RuleContext, call: Call, arg: Argument | undefined, title: string): Fix | undefined {
  const source = ctx.source();
  if (!source || !arg) return undefined;
  return { title, edits: removeArgument(call, arg, source) };
}

/** The argument of a call whose value is written at `value`'s range. */
export function argumentAt(call: Call, value: Value | undefined): Argument | undefined {
  if (!value) return undefined;
  const r = value.range;
  return call.args.find((a) => a.value.range.start.line === r.start.line && a.value.range.start.character === r.start.character && a.value.range.end.line === r.end.line && a.value.range.end.character === r.end.character);
}

/** A keyword argument added in the call's layout (after `after`, else last). */
export function addArgument(ctx: RuleContext, call: Call, text: string, title: string, after?: Argument): Fix | undefined {
  const source = ctx.source();
  return source ? { title, edits: insertArgument(call, text, source, after) } : undefined;
}

/** A docstring stub for a function (a suggestion: the model reads it, so only the author can write it). */
export function docstringSuggestion(ctx: RuleContext, fn: FunctionDecl | undefined): FixChoice {
  const source = ctx.source();
  const edits = fn && source && docstringStub(fn, source);
  return edits ? { suggestions: [{ title: `Add a docstring to ${fn!.name}`, edits, preferred: false }] } : {};
}

/** A slug of a name for an alias: lower case, runs of other characters as `_`. */
export function aliasOf(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'ext';
}
