// `prompt.routing(...)` from vis-lang-interface (vis-lang-interface.md §2): the two ValueErrors it
// raises at import, found by evaluating the call statically. A call that cannot be evaluated is not
// reported. The messages and checks are the same in every wording, so the wording setting plays no part.
import { DEFAULT_ROUTING_VERSION, VERBS } from '../routing/render';
import { evaluateRouting, routingCalls } from '../routing/evaluate';
import { resolve } from '../model/sdk';
import type { Value } from '../model/types';
import { nearestValue } from './fixes';
import type { Fix, Rule, RuleContext, TextEditFix } from './types';

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

export const routingRules: Rule[] = [
  routingRule('ROUTE-001', 'prompt.routing verbs are names from prompt.VERBS.', (m) => m.startsWith('unknown language verbs: '), nearestVerbs),
  routingRule('ROUTE-002', 'prompt.routing is given at least one verb.', (m) => m === 'a language extension contributes at least one verb'),
];
