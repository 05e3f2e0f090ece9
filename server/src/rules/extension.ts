// `vis.Extension(...)` (G2/G3): the checks of Extension.__post_init__ and of Python's own call binding.
// vis-sdk.md §2.1.
import { TYPED_MODULE, isCallable, isKnown, resolve, sdkCall, truthy } from '../model/sdk';
import { pyStrip } from '../model/literals';
import type { Call, Model, Value } from '../model/types';
import type { Fix, Rule, RuleContext } from './types';
import { addArgument, aliasOf, inList, isLiteralAt } from './fixes';
import { pyString, quoteLike } from '../fixes/edits';
import { acceptedParams, scopeOf, sdkMember } from '../sdk/table';
import { callsOf, hasSplat, isEnvName, keyword, positional, pythonNameList, reportUnexpectedKeywords, typedModuleAlias, valueOr } from './util';

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

function extensions(model: Model): Call[] {
  return callsOf(model, 'typed', 'Extension');
}

function rule(id: string, summary: string, check: (ctx: RuleContext, call: Call) => void, fixable = false): Rule {
  return {
    id,
    severity: 'error',
    summary,
    fixable,
    check(ctx) {
      for (const call of extensions(ctx.model)) ctx.unit(call, () => check(ctx, call));
    },
  };
}

const isBlankOrNotStr = (v: Value) => v.kind !== 'str' || pyStrip(v.value) === '';

function requireText(field: 'name' | 'description') {
  return (ctx: RuleContext, call: Call) => {
    const arg = keyword(call, field);
    if (!arg) return; // EXT-002 reports it
    const v = resolve(ctx.model, arg.value);
    if (isKnown(v) && isBlankOrNotStr(v)) ctx.report(arg.value.range, `vis.Extension requires ${field}=<non-empty string>`);
  };
}

export const extensionRules: Rule[] = [
  rule(
    'EXT-001',
    'Extension takes keyword arguments only.',
    (ctx, call) => {
      if (hasSplat(call, '*')) return;
      const pos = positional(call);
      if (pos.length === 0) return;
      const range = { start: pos[0].range.start, end: pos[pos.length - 1].range.end };
      // Each positional argument named after the field it stands for, in the dataclass's field order.
      const named = new Set(call.args.flatMap((a) => (a.name ? [a.name] : [])));
      const all = fields(ctx.model);
      const names = all.slice(0, pos.length);
      const fix: Fix | undefined =
        pos.length <= all.length && !names.some((f) => named.has(f))
          ? { title: `Name the arguments (${names.map((f) => `${f}=`).join(', ')})`, edits: pos.map((a, i) => ({ range: { start: a.range.start, end: a.range.start }, newText: `${names[i]}=` })) }
          : undefined;
      ctx.report(range, `Extension.__init__() takes 1 positional argument but ${pos.length + 1} were given`, fix);
    },
    true,
  ),
  rule('EXT-002', 'Extension requires name= and description=.', (ctx, call) => {
    if (hasSplat(call, '**')) return;
    const missing = ['name', 'description'].filter((f) => !keyword(call, f));
    if (missing.length === 0) return;
    const s = missing.length === 1 ? '' : 's';
    ctx.report(call.calleeRange, `Extension.__init__() missing ${missing.length} required keyword-only argument${s}: ${pythonNameList(missing)}`);
  }),
  rule('EXT-003', 'Extension name must be a non-blank string.', requireText('name')),
  rule('EXT-004', 'Extension description must be a non-blank string.', requireText('description')),
  rule('EXT-005', 'An Extension that declares symbols needs an alias.', (ctx, call) => {
    const symbols = keyword(call, 'symbols');
    if (!symbols || truthy(resolve(ctx.model, symbols.value)) !== true) return;
    const aliasArg = keyword(call, 'alias');
    const alias = valueOr(ctx.model, aliasArg, call);
    if (!isKnown(alias) || !isBlankOrNotStr(alias)) return;
    let fix: Fix | undefined;
    if (!aliasArg) {
      const nameArg = keyword(call, 'name');
      const name = nameArg && resolve(ctx.model, nameArg.value);
      const anchor = nameArg ?? keyword(call, 'description');
      const value = aliasOf(name?.kind === 'str' ? name.value : 'ext');
      if (anchor) fix = addArgument(ctx, call, `alias=${pyString(value, quoteLike(call))}`, `Add alias="${value}"`, anchor);
    }
    ctx.report(aliasArg ? aliasArg.value.range : symbols.range, 'vis.Extension requires alias=<string> when symbols are declared', fix);
  }, true),
  rule('EXT-006', 'Extension version, kind and alias are strings or None.', (ctx, call) => {
    for (const field of ['version', 'kind', 'alias']) {
      const arg = keyword(call, field);
      if (!arg) continue;
      const v = resolve(ctx.model, arg.value);
      if (!isKnown(v) || v.kind === 'none' || v.kind === 'str') continue;
      // A number where text belongs, quoted as written (`version=1.2` → `version="1.2"`).
      const quoted = (v.kind === 'int' || v.kind === 'float') && arg.value.kind === v.kind && isLiteralAt(ctx, arg.value) ? pyString(arg.value.text, quoteLike(call)) : undefined;
      ctx.report(arg.value.range, `vis.Extension ${field} must be a string`, quoted ? { title: `Write ${field}=${quoted}`, edits: [{ range: arg.value.range, newText: quoted }] } : undefined);
    }
  }, true),
  rule('EXT-007', 'Extension ctx and activation are callables or None.', (ctx, call) => {
    for (const field of ['ctx', 'activation']) {
      const arg = keyword(call, field);
      if (!arg) continue;
      const v = resolve(ctx.model, arg.value);
      if (v.kind !== 'none' && isCallable(v) === false) ctx.report(arg.value.range, `vis.Extension ${field} must be a callable`);
    }
  }),
  rule('EXT-008', 'Extension prompt is text, a callable or None.', (ctx, call) => {
    const arg = keyword(call, 'prompt');
    if (!arg) return;
    const v = resolve(ctx.model, arg.value);
    if (v.kind !== 'none' && v.kind !== 'str' && isCallable(v) === false) ctx.report(arg.value.range, 'vis.Extension prompt must be text or a callable');
  }),
  rule('EXT-009', 'Extension collections are lists or tuples of the matching declarations.', (ctx, call) => {
    const alias = typedModuleAlias(ctx.model);
    for (const { field, cls } of collections(ctx.model)) {
      const arg = keyword(call, field);
      if (!arg) continue;
      const message = `vis.Extension ${field} must contain ${cls} declarations`;
      const v = resolve(ctx.model, arg.value);
      // A list comprehension is a list, of items that are not known.
      if (!isKnown(v) || (v.kind === 'comprehension' && v.of === 'list')) continue;
      if (v.kind !== 'list' && v.kind !== 'tuple') {
        ctx.report(arg.value.range, message, wrapFix(ctx, v, arg.value, cls));
        continue;
      }
      for (const raw of v.items) {
        const item = resolve(ctx.model, raw);
        if (!isKnown(item)) continue;
        if (item.kind === 'call') {
          const s = sdkCall(item.call);
          if (!s) continue; // a call to the author's own function: its result is unknown
          if (s.flavour === 'typed' && s.member === cls) continue;
        }
        const fix: Fix | undefined =
          field === 'symbols' && item.kind === 'function' && alias
            ? { title: `Wrap in ${alias}.Symbol(...)`, edits: [{ range: raw.range, newText: `${alias}.Symbol(${raw.text})` }] }
            : undefined;
        ctx.report(raw.range, message, fix);
      }
    }
  }, true),
  rule('EXT-010', 'Extension env is a list or tuple of names.', (ctx, call) => {
    const arg = keyword(call, 'env');
    if (!arg) return;
    const v = resolve(ctx.model, arg.value);
    if (isKnown(v) && v.kind !== 'list' && v.kind !== 'tuple' && !(v.kind === 'comprehension' && v.of === 'list')) {
      const fix = v.kind === 'str' && isLiteralAt(ctx, arg.value) ? inList(arg.value) : undefined;
      ctx.report(arg.value.range, 'vis.Extension env must be a list or tuple of environment variable names', fix);
    }
  }, true),
  rule('EXT-011', 'Extension env entries are environment variable names.', (ctx, call) => {
    const arg = keyword(call, 'env');
    if (!arg) return;
    const v = resolve(ctx.model, arg.value);
    if (v.kind !== 'list' && v.kind !== 'tuple') return;
    for (const raw of v.items) {
      const item = resolve(ctx.model, raw);
      if (!isKnown(item)) continue;
      if (item.kind !== 'str' || !isEnvName(item.value)) ctx.report(raw.range, 'vis.Extension env entries must be environment variable names');
    }
  }),
  rule('EXT-012', "Extension takes only the fields of the file's SDK version (language_tools= and settings= exist in some versions only).", reportUnexpectedKeywords, true),
];

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
