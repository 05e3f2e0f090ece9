// `vis.Catalog(symbols)` (G2/G3, vis-sdk.md §2.7): a sequence of Symbols (CAT-001) whose visible top-level
// names are unique (CAT-002), and its lookups `catalog.spec(name)` / `catalog.help(name)` on a catalog bound
// to a module-level name (CAT-003…CAT-005), wherever they are called (tests call them). A name is only
// reported unknown when every Symbol of the catalog is fully known.
import type { SymbolInfo } from '../contracts/symbols';
import { pyRepr } from '../model/literals';
import { allFunctions, isKnown, resolve } from '../model/sdk';
import type { Call, Model, Value } from '../model/types';
import { at, declarationCalls, familyRules, isDeclaration, itemsOf, type CallCheck, type CallFamily, type Failure, type RuleDoc } from './declaration';
import { nearestValue, reportWith } from './fixes';
import type { Rule, RuleContext } from './types';

/** The Symbol analysis of each item of a catalog, or undefined when an item is not a Symbol this module analysed. */
function symbolsOf(ctx: RuleContext, items: Value[]): (SymbolInfo | undefined)[] {
  const infos = ctx.symbols();
  return items.map((i) => (i.kind === 'call' ? infos.find((x) => x.call === i.call) : undefined));
}

function sequence(c: CallCheck): Failure | undefined {
  const v = c.arg('symbols');
  if (!v || !isKnown(v) || (v.kind === 'comprehension' && v.of === 'list')) return undefined;
  const message = 'Catalog requires a sequence of Symbol declarations';
  const items = itemsOf(c.model, v);
  if (!items) return at(v, message);
  const bad = items.find((i) => isDeclaration(i, 'Symbol') === false);
  return bad ? at(bad, message) : undefined;
}

function duplicates(c: CallCheck): Failure | undefined {
  const items = itemsOf(c.model, c.arg('symbols'));
  if (!items) return undefined;
  const infos = symbolsOf(c.ctx, items);
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const info = infos[i];
    // Hidden Symbols are left out of the catalog.
    if (!info?.name || info.hidden !== false) continue;
    if (seen.has(info.name)) return at(items[i], `Duplicate catalog name: ${info.name}`);
    seen.add(info.name);
  }
  return undefined;
}

/** The names a catalog resolves (visible roots, members and the namespaces between), when every Symbol is fully known. */
function catalogNames(ctx: RuleContext, catalog: Call): Set<string> | undefined {
  const arg = catalog.args.find((a) => a.name === 'symbols') ?? catalog.args.find((a) => a.name === undefined && !a.splat);
  const items = arg && itemsOf(ctx.model, resolve(ctx.model, arg.value));
  if (!items || catalog.args.some((a) => a.splat)) return undefined;
  const names = new Set<string>();
  for (const info of symbolsOf(ctx, items)) {
    if (!info?.name || info.hidden === undefined || info.unknownReason || info.unknownTools.length) return undefined;
    if (info.hidden) continue;
    if (info.form === 'function') names.add(info.name);
    for (const t of info.form === 'object' ? info.tools : []) {
      if (t.hidden) continue;
      const parts = t.name.split('.');
      for (let n = 1; n <= parts.length; n++) names.add(parts.slice(0, n).join('.'));
    }
  }
  return names;
}

/** `NAME.spec(...)` / `NAME.help(...)` where NAME is bound once, at module level, to a `vis.Catalog(...)`. */
function lookups(model: Model): { call: Call; method: 'spec' | 'help'; catalog: Call }[] {
  const out: { call: Call; method: 'spec' | 'help'; catalog: Call }[] = [];
  const catalogs = new Set(declarationCalls(model, 'typed', 'Catalog'));
  if (!catalogs.size) return out;
  const calls = [...model.calls, ...allFunctions(model).filter((f) => /\.(spec|help)\(/.test(f.source)).flatMap((f) => f.calls)];
  for (const call of calls) {
    const m = /^([\p{L}_][\p{L}\p{N}_]*)\.(spec|help)$/u.exec(call.callee);
    if (!m) continue;
    const v = resolve(model, { kind: 'name', name: m[1], range: call.calleeRange, text: m[1] });
    if (v.kind === 'call' && catalogs.has(v.call)) out.push({ call, method: m[2] as 'spec' | 'help', catalog: v.call });
  }
  return out;
}

function lookupRule(id: string, summary: string, check: (ctx: RuleContext, l: ReturnType<typeof lookups>[number], name: Value | undefined) => void, fixable = false): Rule {
  return {
    id,
    severity: 'error',
    summary,
    ...(fixable ? { fixable: true } : {}),
    check(ctx) {
      if (ctx.model.generation !== 'G2' && ctx.model.generation !== 'G3') return;
      for (const l of lookups(ctx.model)) {
        if (l.call.args.some((a) => a.splat)) continue;
        const a = l.call.args.find((x) => x.name === 'name') ?? l.call.args.find((x) => x.name === undefined);
        check(ctx, l, a && { ...resolve(ctx.model, a.value), range: a.value.range });
      }
    },
  };
}

const DOCS: RuleDoc[] = [
  { id: 'CAT-001', summary: 'Catalog takes a sequence (list or tuple) of Symbol declarations.' },
  { id: 'CAT-002', summary: 'The visible Symbols of a Catalog have distinct top-level names.' },
];

export const catalogFamilies: CallFamily[] = [{ flavour: 'typed', member: 'Catalog', steps: [{ id: 'CAT-001', check: sequence }, { id: 'CAT-002', check: duplicates }] }];

export const catalogRules: Rule[] = [
  ...familyRules(DOCS, catalogFamilies),
  lookupRule('CAT-003', 'Catalog.spec(name) takes a string or None.', (ctx, l, name) => {
    if (l.method === 'spec' && name && isKnown(name) && name.kind !== 'str' && name.kind !== 'none') ctx.report(name.range, 'Catalog name must be a string or None');
  }),
  lookupRule('CAT-004', 'Catalog.spec(name) and Catalog.help(name) name a visible tool or namespace of the catalog.', (ctx, l, name) => {
    if (name?.kind !== 'str') return;
    const names = catalogNames(ctx, l.catalog);
    if (names && !names.has(name.value)) reportWith(ctx, name.range, `Unknown catalog name: ${pyRepr(name.value)}`, nearestValue(ctx, name, [...names]));
  }, true),
  lookupRule('CAT-005', 'Catalog.help(name) takes a string.', (ctx, l, name) => {
    if (l.method === 'help' && name && isKnown(name) && name.kind !== 'str') ctx.report(name.range, 'Catalog name must be a string');
  }),
];
