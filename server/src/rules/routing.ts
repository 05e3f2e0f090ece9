// `prompt.routing(...)` from vis-lang-interface (vis-lang-interface.md §2): the two ValueErrors it
// raises at import, found by evaluating the call statically. A call that cannot be evaluated is not
// reported. The messages and checks are the same in every wording, so the wording setting plays no part.
import { DEFAULT_ROUTING_VERSION } from '../routing/render';
import { evaluateRouting, routingCalls } from '../routing/evaluate';
import type { Rule } from './types';

function routingRule(id: string, summary: string, applies: (message: string) => boolean): Rule {
  return {
    id,
    severity: 'error',
    summary,
    check({ model, report, unit }) {
      for (const call of routingCalls(model)) {
        unit(call, () => {
          const result = evaluateRouting(model, call, DEFAULT_ROUTING_VERSION);
          if (result.kind === 'error' && applies(result.error.message)) report(result.range, result.error.message);
        });
      }
    },
  };
}

export const routingRules: Rule[] = [
  routingRule('ROUTE-001', 'prompt.routing verbs are names from prompt.VERBS.', (m) => m.startsWith('unknown language verbs: ')),
  routingRule('ROUTE-002', 'prompt.routing is given at least one verb.', (m) => m === 'a language extension contributes at least one verb'),
];
