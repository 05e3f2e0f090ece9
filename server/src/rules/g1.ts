// The lowercase G1 SDK of Vis 0.1.41 (`import vis`): `vis.extension(...)` and `vis.symbol(...)`, each call
// getting the first error its builder raises. Every builder accepts positional arguments. vis-sdk.md §4.
import { functionNamed, isCallable, isKnown, resolve, truthy } from '../model/sdk';
import { pyRepr, pyReprValue, pyStr, pyStrip } from '../model/literals';
import type { Rule } from './types';
import { tagsOf, vocabularyList } from '../sdk/table';
import { at, familyRules, withChoice, type CallCheck, type CallFamily, type Failure, type RuleDoc } from './declaration';
import { addArgument, aliasOf, docstringSuggestion, inList, isLiteralAt, nearestValue } from './fixes';
import { pyString, quoteLike } from '../fixes/edits';
import { callsOf, isEnvName } from './util';

const requireG1Text =
  (field: 'name' | 'description') =>
  (c: CallCheck): Failure | undefined => {
    const v = c.arg(field);
    if (v && !isKnown(v)) return undefined;
    if (!v && !c.absent(field)) return undefined;
    if (!v || v.kind !== 'str' || v.value === '') return { range: v?.range ?? c.call.calleeRange, message: `vis.extension(...) requires ${field}=<non-empty string>` };
    return undefined;
  };

const DOCS: RuleDoc[] = [
  { id: 'G1-EXT-1', summary: 'vis.extension(...) is called once per file.' },
  { id: 'G1-EXT-2', summary: 'vis.extension name is a non-empty string.' },
  { id: 'G1-EXT-3', summary: 'vis.extension description is a non-empty string.' },
  { id: 'G1-EXT-4', summary: 'vis.extension needs an alias when symbols are declared.', fixable: true },
  { id: 'G1-EXT-5', summary: 'vis.extension ctx is a callable.' },
  { id: 'G1-EXT-6', summary: 'vis.extension env is a list of names.', fixable: true },
  { id: 'G1-EXT-7', summary: 'vis.extension env entries are environment variable names.' },
  { id: 'G1-EXT-8', summary: 'vis.extension takes only its declared parameters.', fixable: true },
  { id: 'G1-SYM-1', summary: 'vis.symbol wraps a callable.' },
  { id: 'G1-SYM-2', summary: 'vis.symbol tag is in the tag vocabulary of the SDK version (observation or mutation).', fixable: true },
  { id: 'G1-SYM-3', summary: 'A vis.symbol function has a docstring.' },
  { id: 'G1-SYM-4', summary: 'vis.symbol takes only the parameters of its SDK version (fn, name, tag, is_hidden; hidden before Vis 0.1.41).', fixable: true },
];

export const g1Families: CallFamily[] = [
  {
    flavour: 'g1',
    member: 'extension',
    binding: 'G1-EXT-8',
    steps: [
      {
        id: 'G1-EXT-1',
        check: (c) => (callsOf(c.model, 'g1', 'extension').indexOf(c.call) > 0 ? { range: c.call.range, message: 'vis.extension() may only be called once per file' } : undefined),
      },
      { id: 'G1-EXT-2', check: requireG1Text('name') },
      { id: 'G1-EXT-3', check: requireG1Text('description') },
      {
        id: 'G1-EXT-4',
        check(c) {
          const symbols = c.arg('symbols');
          if (!symbols || truthy(symbols) !== true) return undefined;
          const alias = c.arg('alias');
          if (alias ? truthy(alias) !== false : !c.absent('alias')) return undefined;
          // Added after name= when it is given by keyword (a positional name keeps its place).
          const nameArg = c.call.args.find((a) => a.name === 'name');
          const name = c.arg('name');
          const value = aliasOf(name?.kind === 'str' ? name.value : 'ext');
          const fix = !alias && nameArg ? addArgument(c.ctx, c.call, `alias=${pyString(value, quoteLike(c.call))}`, `Add alias="${value}"`, nameArg) : undefined;
          return { range: alias?.range ?? symbols.range, message: 'vis.extension(...) requires alias=<string> when symbols= is declared', fix };
        },
      },
      {
        id: 'G1-EXT-5',
        check(c) {
          const v = c.arg('ctx');
          return v && v.kind !== 'none' && isCallable(v) === false ? at(v, 'vis.extension(...) ctx= must be a callable (env) -> dict of session contributions') : undefined;
        },
      },
      {
        id: 'G1-EXT-6',
        check(c) {
          const v = c.arg('env');
          const notIterable = v && ['int', 'float', 'complex', 'bool', 'function', 'lambda', 'ellipsis'].includes(v.kind);
          return v && (v.kind === 'str' || notIterable) ? at(v, 'vis.extension(...) env= must be a list of environment variable names', { fix: v.kind === 'str' && isLiteralAt(c.ctx, v) ? inList(v) : undefined }) : undefined;
        },
      },
      {
        id: 'G1-EXT-7',
        check(c) {
          const v = c.arg('env');
          if (!v || (v.kind !== 'list' && v.kind !== 'tuple' && v.kind !== 'set')) return undefined;
          for (const raw of v.items) {
            const s = pyStr(resolve(c.model, raw));
            if (s !== undefined && !isEnvName(s)) return at(raw, `vis.extension(...) env= entries must be environment variable names, got ${pyRepr(s)}`);
          }
          return undefined;
        },
      },
    ],
  },
  {
    flavour: 'g1',
    member: 'symbol',
    binding: 'G1-SYM-4',
    // The keywords of the older docs (G0) and the typed SDK's activity=: removal offered as a quick fix.
    removable: ['schema', 'description', 'result', 'is_native_tool', 'render', 'color_role', 'activity'],
    steps: [
      {
        id: 'G1-SYM-1',
        check(c) {
          const fn = c.arg('fn');
          return fn && isCallable(fn) === false ? at(fn, 'vis.symbol(fn, ...) requires a callable') : undefined;
        },
      },
      {
        id: 'G1-SYM-2',
        check(c) {
          const tag = c.arg('tag');
          const tags = tagsOf(c.model);
          if (!tag || !isKnown(tag) || (tag.kind === 'str' && tags.includes(tag.value))) return undefined;
          const shown = pyReprValue(tag);
          return shown !== undefined ? withChoice(at(tag, `vis.symbol tag must be ${vocabularyList(tags)}, got ${shown}`), nearestValue(c.ctx, tag, tags)) : undefined;
        },
      },
      {
        id: 'G1-SYM-3',
        check(c) {
          const fn = c.arg('fn');
          if (!fn) return undefined;
          const name = fn.kind === 'lambda' ? '<lambda>' : fn.kind === 'function' ? fn.name : undefined;
          if (name === undefined) return undefined;
          const decl = fn.kind === 'function' ? functionNamed(c.model, fn.name) : undefined;
          if (fn.kind === 'function' && !decl) return undefined;
          if (decl?.docstring && pyStrip(decl.docstring) !== '') return undefined;
          // The cause is the def without a docstring; the call is where Vis raises.
          const related = decl ? { related: [{ uri: c.model.uri, range: fn.range, message: 'exported by this vis.symbol(...)' }] } : undefined;
          return withChoice({ range: decl ? decl.nameRange : fn.range, message: `vis.symbol: ${name} needs a docstring - it becomes the model-facing doc()`, options: related }, docstringSuggestion(c.ctx, decl));
        },
      },
    ],
  },
];

export const g1Rules: Rule[] = familyRules(DOCS, g1Families);
