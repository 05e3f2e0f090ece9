// `prompt.routing(...)` from vis-lang-interface (vis-lang-interface.md §2): the two ValueErrors it
// raises at import, found by evaluating the call statically (ROUTE-001, ROUTE-002), and the verbs it
// routes the model to as `{alias}.{verb}` that the extension does not export as tools (ROUTE-003, a
// warning). A call that cannot be evaluated is not reported. The messages and checks are the same in
// every wording, so the wording setting plays no part.
import { DEFAULT_ROUTING_VERSION, VERBS } from '../routing/render';
import { evaluateRouting, routingCalls } from '../routing/evaluate';
import { pyRepr } from '../model/literals';
import { isKnown, resolve, sdkCall } from '../model/sdk';
import type { Call, Range, Value } from '../model/types';
import { nearestValue } from './fixes';
import type { Fix, Rule, RuleContext, TextEditFix } from './types';
import { callsOf, keyword } from './util';

function routingRule(id: string, summary: string, applies: (message: string) => boolean, fix?: (ctx: RuleContext, verbs: Value) => Fix | undefined): Rule {
  return {
    id,
    severity: 'error',
    summary,
    fixable: !!fix,
    check(ctx) {
      const { model, report, unit } = ctx;
      for (const call of routingCalls(model)) {
        unit(call, () => {
          const result = evaluateRouting(model, call, DEFAULT_ROUTING_VERSION);
          if (result.kind !== 'error' || !applies(result.error.message)) return;
          const verbs = call.args.find((a) => a.value.range.start.line === result.range.start.line && a.value.range.start.character === result.range.start.character);
          report(result.range, result.error.message, verbs && fix?.(ctx, resolve(model, verbs.value)));
        });
      }
    },
  };
}

/** Each unknown verb replaced by the one verb nearest to it; no fix when any of them has no single nearest verb. */
function nearestVerbs(ctx: RuleContext, verbs: Value): Fix | undefined {
  if (verbs.kind !== 'list' && verbs.kind !== 'tuple') return undefined;
  const edits: TextEditFix[] = [];
  for (const raw of verbs.items) {
    const item = resolve(ctx.model, raw);
    if (item.kind !== 'str' || (VERBS as readonly string[]).includes(item.value)) continue;
    const choice = nearestValue(ctx, item, VERBS);
    if (!choice.fix) return undefined;
    edits.push(...choice.fix.edits);
  }
  return edits.length ? { title: edits.length === 1 ? `Change to ${edits[0].newText}` : 'Change to the nearest verbs', edits } : undefined;
}

/**
 * The public names of every tool the file's one Extension exports, when all of them are statically known
 * (a written-out `symbols=` of Symbols whose analysis is complete, no splat, no language surfaces).
 */
function exportedNames(ctx: RuleContext, ext: Call): Set<string> | undefined {
  if (ext.args.some((a) => a.splat)) return undefined;
  const surfaces = keyword(ext, 'language_tools');
  if (surfaces) {
    const v = resolve(ctx.model, surfaces.value);
    if (!((v.kind === 'list' || v.kind === 'tuple') && v.items.length === 0)) return undefined;
  }
  const names = new Set<string>();
  const arg = keyword(ext, 'symbols');
  if (!arg) return names;
  const list = resolve(ctx.model, arg.value);
  if (list.kind !== 'list' && list.kind !== 'tuple') return undefined;
  const infos = new Map(ctx.symbols().map((i) => [i.call, i]));
  for (const raw of list.items) {
    const item = resolve(ctx.model, raw);
    const s = item.kind === 'call' && isKnown(item) ? sdkCall(item.call) : undefined;
    const info = item.kind === 'call' && s?.flavour === 'typed' && s.member === 'Symbol' ? infos.get(item.call) : undefined;
    if (!info || info.form === 'unknown' || info.unknownReason !== undefined) return undefined;
    for (const t of info.tools) names.add(t.name);
  }
  return names;
}

/** The argument bound to `verbs` (the third positional one, or the keyword). */
function verbsArgument(call: Call) {
  return keyword(call, 'verbs') ?? call.args.filter((a) => a.name === undefined)[2];
}

/** The verbs a routing call names, each with where it is written; undefined for the default (or `prompt.VERBS`). */
function writtenVerbs(ctx: RuleContext, call: Call): { verb: string; range: Range }[] | undefined {
  const arg = verbsArgument(call);
  const list = arg && resolve(ctx.model, arg.value);
  if (!list || (list.kind !== 'list' && list.kind !== 'tuple')) return undefined;
  return list.items.flatMap((raw) => {
    const v = resolve(ctx.model, raw);
    return v.kind === 'str' ? [{ verb: v.value, range: raw.range }] : [];
  });
}

const routeMissing: Rule = {
  id: 'ROUTE-003',
  severity: 'warning',
  summary: "The verbs prompt.routing names are tools the extension exports under the routing alias: the model is told to call `{alias}.{verb}`.",
  check(ctx) {
    const { model } = ctx;
    const exts = callsOf(model, 'typed', 'Extension');
    if (exts.length !== 1) return;
    const prompt = keyword(exts[0], 'prompt');
    const routed = prompt && resolve(model, prompt.value);
    if (routed?.kind !== 'call' || !routingCalls(model).includes(routed.call)) return;
    const call = routed.call;
    ctx.unit(call, () => {
      const result = evaluateRouting(model, call, DEFAULT_ROUTING_VERSION);
      if (result.kind !== 'text') return;
      const exported = exportedNames(ctx, exts[0]);
      if (!exported) return;
      const alias = result.args.alias;
      const missing = (verb: string) => !exported.has(`${alias}.${verb}`);
      const named = result.args.verbs ? writtenVerbs(ctx, call) : undefined;
      if (named) {
        const seen = new Set<string>();
        for (const { verb, range } of named) {
          if (seen.has(verb) || !missing(verb)) continue;
          seen.add(verb);
          const elsewhere = [...exported].find((n) => n === verb || n.endsWith(`.${verb}`));
          const exports = elsewhere ? `exports it as ${elsewhere}, not under ${alias}` : 'exports no tool by that name';
          ctx.report(range, `the routing prompt tells the model to call ${alias}.${verb}, but this extension ${exports}: export ${verb} on the Symbol named ${pyRepr(alias)}, or drop the verb`);
        }
        return;
      }
      // The default verbs, `prompt.VERBS` or verbs in a set: one finding for all of them.
      const absent = [...new Set(result.args.verbs ?? VERBS)].filter(missing);
      if (!absent.length) return;
      const given = verbsArgument(call);
      const names = absent.map((v) => `${alias}.${v}`).join(', ');
      const none = absent.length === 1 ? 'no tool by that name' : 'no tools by those names';
      ctx.report(given?.value.range ?? call.calleeRange, `the routing prompt tells the model to call ${names}${given ? '' : ' (the default verbs)'}, but this extension exports ${none}: pass verbs= with the ones it exports`);
    });
  },
};

export const routingRules: Rule[] = [
  routingRule('ROUTE-001', 'prompt.routing verbs are names from prompt.VERBS.', (m) => m.startsWith('unknown language verbs: '), nearestVerbs),
  routingRule('ROUTE-002', 'prompt.routing is given at least one verb.', (m) => m === 'a language extension contributes at least one verb'),
  routeMissing,
];
