// `vis.Extension(...)` (G2/G3): Python's binding of its keyword-only fields (EXT-001, EXT-002, EXT-012),
// then the checks of Extension.__post_init__ in the order it makes them (EXT-003…EXT-011). vis-sdk.md §2.1.
import { TYPED_MODULE, isCallable, isKnown, resolve, sdkCall, truthy } from '../model/sdk';
import { pyStrip } from '../model/literals';
import type { Model, Value } from '../model/types';
import type { Fix, Rule, RuleContext } from './types';
import { addArgument, aliasOf, inList, isLiteralAt } from './fixes';
import { pyString, quoteLike } from '../fixes/edits';
import { acceptedParams, scopeOf, sdkMember } from '../sdk/table';
import { at, familyRules, itemsOf, type CallCheck, type CallFamily, type Failure, type RuleDoc } from './declaration';
import { isEnvName, typedModuleAlias } from './util';

/** Collection fields of the file's `Extension` and the declaration class each must hold (from the SDK table). */
function collections(model: Model): { field: string; cls: string }[] {
  const member = sdkMember(scopeOf(model), TYPED_MODULE, 'Extension');
  return member ? acceptedParams(member, scopeOf(model)).flatMap((p) => (p.holds ? [{ field: p.name, cls: p.holds }] : [])) : [];
}

/** The fields of the file's `Extension`, in the order the dataclass declares them. */
function fields(model: Model): string[] {
  const member = sdkMember(scopeOf(model), TYPED_MODULE, 'Extension');
  return member ? acceptedParams(member, scopeOf(model)).map((p) => p.name) : [];
}

/** Positional arguments named after the fields they stand for, in the dataclass's field order. */
function nameTheArguments(c: CallCheck): Fix | undefined {
  const pos = c.call.args.filter((a) => a.name === undefined && !a.splat);
  const named = new Set(c.call.args.flatMap((a) => (a.name ? [a.name] : [])));
  const all = fields(c.model);
  const names = all.slice(0, pos.length);
  if (!pos.length || pos.length > all.length || names.some((f) => named.has(f))) return undefined;
  return { title: `Name the arguments (${names.map((f) => `${f}=`).join(', ')})`, edits: pos.map((a, i) => ({ range: { start: a.range.start, end: a.range.start }, newText: `${names[i]}=` })) };
}

const isBlankOrNotStr = (v: Value) => v.kind !== 'str' || pyStrip(v.value) === '';

function requireText(field: 'name' | 'description') {
  return (c: CallCheck): Failure | undefined => {
    const v = c.arg(field);
    if (v && isKnown(v) && isBlankOrNotStr(v)) return at(v, `vis.Extension requires ${field}=<non-empty string>`);
    return undefined;
  };
}

function aliasWithSymbols(c: CallCheck): Failure | undefined {
  const symbols = c.arg('symbols');
  if (!symbols || truthy(symbols) !== true) return undefined;
  const alias = c.arg('alias');
  if (alias ? !isKnown(alias) || !isBlankOrNotStr(alias) : !c.absent('alias')) return undefined;
  const message = 'vis.Extension requires alias=<string> when symbols are declared';
  if (alias) return at(alias, message);
  // No alias at all: the cause is the declaration, not the list of its symbols.
  const anchor = c.written('name') ?? c.written('description');
  const name = c.arg('name');
  const value = aliasOf(name?.kind === 'str' ? name.value : 'ext');
  const fix = anchor ? addArgument(c.ctx, c.call, `alias=${pyString(value, quoteLike(c.call))}`, `Add alias="${value}"`, anchor) : undefined;
  return { range: c.call.calleeRange, message, fix };
}

function stringFields(c: CallCheck): Failure | undefined {
  for (const field of ['version', 'kind', 'alias']) {
    const v = c.arg(field);
    const written = c.written(field)?.value;
    if (!v || !written || !isKnown(v) || v.kind === 'none' || v.kind === 'str') continue;
    // A number where text belongs, quoted as written (`version=1.2` → `version="1.2"`).
    const quoted = (v.kind === 'int' || v.kind === 'float') && written.kind === v.kind && isLiteralAt(c.ctx, written) ? pyString(written.text, quoteLike(c.call)) : undefined;
    return at(v, `vis.Extension ${field} must be a string`, { fix: quoted ? { title: `Write ${field}=${quoted}`, edits: [{ range: written.range, newText: quoted }] } : undefined });
  }
  return undefined;
}

function callableFields(c: CallCheck): Failure | undefined {
  for (const field of ['ctx', 'activation']) {
    const v = c.arg(field);
    if (v && v.kind !== 'none' && isCallable(v) === false) return at(v, `vis.Extension ${field} must be a callable`);
  }
  return undefined;
}

function prompt(c: CallCheck): Failure | undefined {
  const v = c.arg('prompt');
  if (v && v.kind !== 'none' && v.kind !== 'str' && isCallable(v) === false) return at(v, 'vis.Extension prompt must be text or a callable');
  return undefined;
}

function collectionsHold(c: CallCheck): Failure | undefined {
  const alias = typedModuleAlias(c.model);
  for (const { field, cls } of collections(c.model)) {
    const written = c.written(field);
    const v = c.arg(field);
    // A list comprehension is a list, of items that are not known.
    if (!written || !v || !isKnown(v) || (v.kind === 'comprehension' && v.of === 'list')) continue;
    const message = `vis.Extension ${field} must contain ${cls} declarations`;
    if (v.kind !== 'list' && v.kind !== 'tuple') return at(v, message, { fix: wrapFix(c.ctx, v, written.value, cls) });
    for (const raw of v.items) {
      const item = resolve(c.model, raw);
      if (!isKnown(item)) continue;
      if (item.kind === 'call') {
        const s = sdkCall(item.call);
        if (!s) continue; // a call to the author's own function: its result is unknown
        if (s.flavour === 'typed' && s.member === cls) continue;
      }
      // Python stops at the first bare function; the fix wraps every one of the list, so one fix (and one
      // pass of fix all) repairs what the SDK would refuse one at a time.
      const bare = field === 'symbols' && item.kind === 'function' && alias ? v.items.filter((r) => resolve(c.model, r).kind === 'function') : [];
      const fix: Fix | undefined = bare.length
        ? {
            title: bare.length === 1 ? `Wrap in ${alias}.Symbol(...)` : `Wrap the ${bare.length} bare functions in ${alias}.Symbol(...)`,
            edits: bare.map((r) => ({ range: r.range, newText: `${alias}.Symbol(${r.text})` })),
          }
        : undefined;
      return at(raw, message, { fix });
    }
  }
  return undefined;
}

function envList(c: CallCheck): Failure | undefined {
  const v = c.arg('env');
  if (v && isKnown(v) && v.kind !== 'list' && v.kind !== 'tuple' && !(v.kind === 'comprehension' && v.of === 'list')) {
    const written = c.written('env')!.value;
    return at(v, 'vis.Extension env must be a list or tuple of environment variable names', { fix: v.kind === 'str' && isLiteralAt(c.ctx, written) ? inList(written) : undefined });
  }
  return undefined;
}

function envEntries(c: CallCheck): Failure | undefined {
  for (const item of itemsOf(c.model, c.arg('env')) ?? []) {
    if (isKnown(item) && (item.kind !== 'str' || !isEnvName(item.value))) return at(item, 'vis.Extension env entries must be environment variable names');
  }
  return undefined;
}

/**
 * A collection written as something else: a lone declaration put in a list (`symbols=vis.Symbol(f)` →
 * `symbols=[vis.Symbol(f)]`), a generator or a set made a list. Written in place only (not a name bound elsewhere).
 */
function wrapFix(ctx: RuleContext, v: Value, written: Value, cls: string): Fix | undefined {
  if (!isLiteralAt(ctx, written)) return undefined;
  if (v.kind === 'comprehension' && v.of === 'generator') return inList(written, 'Make it a list');
  if (v.kind === 'set' && written.kind === 'set' && written.text.startsWith('{') && written.text.endsWith('}')) {
    const end = written.range.end;
    return {
      title: 'Make it a list',
      edits: [
        { range: { start: written.range.start, end: { line: written.range.start.line, character: written.range.start.character + 1 } }, newText: '[' },
        { range: { start: { line: end.line, character: end.character - 1 }, end }, newText: ']' },
      ],
    };
  }
  if (v.kind !== 'call') return undefined;
  const s = sdkCall(v.call);
  if (s?.flavour !== 'typed' || s.member !== cls) return undefined;
  return inList(written, `Put the ${cls} in a list`);
}

const DOCS: RuleDoc[] = [
  { id: 'EXT-001', summary: 'Extension takes keyword arguments only.', fixable: true },
  { id: 'EXT-002', summary: 'Extension requires name= and description=.' },
  { id: 'EXT-003', summary: 'Extension name must be a non-blank string.' },
  { id: 'EXT-004', summary: 'Extension description must be a non-blank string.' },
  { id: 'EXT-005', summary: 'An Extension that declares symbols needs an alias.', fixable: true },
  { id: 'EXT-006', summary: 'Extension version, kind and alias are strings or None.', fixable: true },
  { id: 'EXT-007', summary: 'Extension ctx and activation are callables or None.' },
  { id: 'EXT-008', summary: 'Extension prompt is text, a callable or None.' },
  { id: 'EXT-009', summary: 'Extension collections are lists or tuples of the matching declarations.', fixable: true },
  { id: 'EXT-010', summary: 'Extension env is a list or tuple of names.', fixable: true },
  { id: 'EXT-011', summary: 'Extension env entries are environment variable names.' },
  { id: 'EXT-012', summary: "Extension takes only the fields of the file's SDK version (language_tools= and settings= exist in some versions only).", fixable: true },
];

export const extensionFamilies: CallFamily[] = [
  {
    flavour: 'typed',
    member: 'Extension',
    binding: { unexpected: 'EXT-012', multiple: 'EXT-012', positional: 'EXT-001', missing: 'EXT-002' },
    positionalFix: nameTheArguments,
    steps: [
      { id: 'EXT-003', check: requireText('name') },
      { id: 'EXT-004', check: requireText('description') },
      { id: 'EXT-005', check: aliasWithSymbols },
      { id: 'EXT-006', check: stringFields },
      { id: 'EXT-007', check: callableFields },
      { id: 'EXT-008', check: prompt },
      { id: 'EXT-009', check: collectionsHold },
      { id: 'EXT-010', check: envList },
      { id: 'EXT-011', check: envEntries },
    ],
  },
];

export const extensionRules: Rule[] = familyRules(DOCS, extensionFamilies);
