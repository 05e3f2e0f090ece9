// The lowercase G1 SDK of Vis 0.1.41 (`import vis`): `vis.extension(...)` and `vis.symbol(...)`.
// Every builder accepts positional arguments. vis-sdk.md §4.
import { functionNamed, isCallable, isKnown, resolve, truthy } from '../model/sdk';
import { pyRepr, pyReprValue, pyStr, pyStrip } from '../model/literals';
import type { Call } from '../model/types';
import { tagsOf, vocabularyList } from '../sdk/table';
import type { Rule, RuleContext } from './types';
import { addArgument, aliasOf, docstringSuggestion, inList, isLiteralAt, nearestValue, reportWith } from './fixes';
import { pyString, quoteLike } from '../fixes/edits';
import { callsOf, fixable, isEnvName, keyword, perCall, unexpectedKeywordRule, type BoundArg } from './util';

const requireG1Text = (field: 'name' | 'description') => (ctx: RuleContext, call: Call, arg: BoundArg) => {
  const v = arg(field);
  if (v && !isKnown(v)) return;
  if (!v || v.kind !== 'str' || v.value === '') {
    ctx.report(v?.range ?? call.calleeRange, `vis.extension(...) requires ${field}=<non-empty string>`);
  }
};

export const g1Rules: Rule[] = [
  {
    id: 'G1-EXT-1',
    severity: 'error',
    summary: 'vis.extension(...) is called once per file.',
    check({ model, report }) {
      if (model.generation !== 'G1') return;
      for (const call of callsOf(model, 'g1', 'extension').slice(1)) report(call.range, 'vis.extension() may only be called once per file');
    },
  },
  perCall('G1-EXT-2', 'g1', 'extension', 'vis.extension name is a non-empty string.', requireG1Text('name')),
  perCall('G1-EXT-3', 'g1', 'extension', 'vis.extension description is a non-empty string.', requireG1Text('description')),
  fixable(perCall('G1-EXT-4', 'g1', 'extension', 'vis.extension needs an alias when symbols are declared.', (ctx, call, arg) => {
    const symbols = arg('symbols');
    if (!symbols || truthy(symbols) !== true) return;
    const alias = arg('alias');
    if (alias && truthy(alias) !== false) return;
    // Added after name= when it is given by keyword (a positional name keeps its place).
    const nameArg = keyword(call, 'name');
    const name = arg('name');
    const value = aliasOf(name?.kind === 'str' ? name.value : 'ext');
    const fix = !alias && nameArg ? addArgument(ctx, call, `alias=${pyString(value, quoteLike(call))}`, `Add alias="${value}"`, nameArg) : undefined;
    ctx.report(alias?.range ?? symbols.range, 'vis.extension(...) requires alias=<string> when symbols= is declared', fix);
  })),
  perCall('G1-EXT-5', 'g1', 'extension', 'vis.extension ctx is a callable.', (ctx, _call, arg) => {
    const v = arg('ctx');
    if (v && v.kind !== 'none' && isCallable(v) === false) ctx.report(v.range, 'vis.extension(...) ctx= must be a callable (env) -> dict of session contributions');
  }),
  fixable(perCall('G1-EXT-6', 'g1', 'extension', 'vis.extension env is a list of names.', (ctx, _call, arg) => {
    const v = arg('env');
    if (!v) return;
    const notIterable = ['int', 'float', 'complex', 'bool', 'function', 'lambda', 'ellipsis'].includes(v.kind);
    if (v.kind === 'str' || notIterable) ctx.report(v.range, 'vis.extension(...) env= must be a list of environment variable names', v.kind === 'str' && isLiteralAt(ctx, v) ? inList(v) : undefined);
  })),
  perCall('G1-EXT-7', 'g1', 'extension', 'vis.extension env entries are environment variable names.', (ctx, _call, arg) => {
    const v = arg('env');
    if (!v || (v.kind !== 'list' && v.kind !== 'tuple' && v.kind !== 'set')) return;
    for (const raw of v.items) {
      const s = pyStr(resolve(ctx.model, raw));
      if (s !== undefined && !isEnvName(s)) ctx.report(raw.range, `vis.extension(...) env= entries must be environment variable names, got ${pyRepr(s)}`);
    }
  }),
  unexpectedKeywordRule('G1-EXT-8', 'g1', 'extension', 'vis.extension takes only its declared parameters.'),
  perCall('G1-SYM-1', 'g1', 'symbol', 'vis.symbol wraps a callable.', (ctx, _call, arg) => {
    const fn = arg('fn');
    if (fn && isCallable(fn) === false) ctx.report(fn.range, 'vis.symbol(fn, ...) requires a callable');
  }),
  fixable(perCall('G1-SYM-2', 'g1', 'symbol', 'vis.symbol tag is observation or mutation.', (ctx, _call, arg) => {
    const tag = arg('tag');
    const tags = tagsOf(ctx.model);
    if (!tag || !isKnown(tag) || (tag.kind === 'str' && tags.includes(tag.value))) return;
    const shown = pyReprValue(tag);
    if (shown !== undefined) reportWith(ctx, tag.range, `vis.symbol tag must be ${vocabularyList(tags)}, got ${shown}`, nearestValue(ctx, tag, tags));
  })),
  perCall('G1-SYM-3', 'g1', 'symbol', 'A vis.symbol function has a docstring.', (ctx, _call, arg) => {
    const fn = arg('fn');
    if (!fn) return;
    const name = fn.kind === 'lambda' ? '<lambda>' : fn.kind === 'function' ? fn.name : undefined;
    if (name === undefined) return;
    const decl = fn.kind === 'function' ? functionNamed(ctx.model, fn.name) : undefined;
    if (fn.kind === 'function' && !decl) return;
    if (!decl?.docstring || pyStrip(decl.docstring) === '') {
      reportWith(ctx, fn.range, `vis.symbol: ${name} needs a docstring - it becomes the model-facing doc()`, docstringSuggestion(ctx, decl));
    }
  }),
  // The keywords of the older docs (G0) and the typed SDK's activity=: removal offered as a quick fix.
  unexpectedKeywordRule('G1-SYM-4', 'g1', 'symbol', 'vis.symbol takes only the parameters of its SDK version (fn, name, tag, is_hidden).', ['schema', 'description', 'result', 'is_native_tool', 'render', 'color_role', 'activity']),
];
