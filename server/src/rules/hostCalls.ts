// Calls into the host from tools and callbacks: `vis.fs` has only the operations it lists (Python's
// AttributeError for any other, such as `vis.fs.readtext`), at module level and when the code runs.
import { runtimeCalls } from '../model/runtime';
import type { Call } from '../model/types';
import { editDistance, moduleOf, scopeOf, sdkMember } from '../sdk/table';
import type { Rule, RuleContext } from './types';

/** Every call in the file to an attribute of an SDK object (`vis.fs.readtext`), module level and run time. */
function objectCalls(ctx: RuleContext): Call[] {
  const model = ctx.model;
  const out: Call[] = [];
  for (const c of model.calls) if (c.sdk && c.sdk.member.includes('.')) out.push(c);
  for (const r of runtimeCalls(model)) if (r.call.sdk && r.call.sdk.member.includes('.')) out.push(r.call);
  return out;
}

export const hostCallRules: Rule[] = [
  {
    id: 'FS-001',
    severity: 'error',
    fixable: true,
    summary: "vis.fs has read, read_text, write, list, copy, move, remove, mkdir, stat and exists: any other attribute is Python's AttributeError.",
    check(ctx) {
      const g = ctx.model.generation;
      if (!g) return;
      const scope = scopeOf(ctx.model);
      for (const call of objectCalls(ctx)) {
        const [head, attr] = call.sdk!.member.split('.');
        const module = moduleOf(call.sdk!.flavour);
        const object = sdkMember(scope, module, head);
        if (!object?.closed || !attr || sdkMember(scope, module, `${head}.${attr}`)) continue;
        const near = [...object.members.values()].map((m) => m.name.split('.').pop()!).filter((n) => editDistance(n, attr, 2) <= 2);
        const at = call.callee.lastIndexOf(`.${attr}`);
        const right = near.length === 1 ? near[0] : undefined;
        const fix = right && at !== -1 ? { title: `Change to ${call.callee.slice(0, at + 1)}${right}`, edits: [{ range: call.calleeRange, newText: `${call.callee.slice(0, at + 1)}${right}${call.callee.slice(at + 1 + attr.length)}` }] } : undefined;
        ctx.report(call.calleeRange, `'${object.pythonType ?? head}' object has no attribute '${attr}'`, fix);
      }
    },
  },
];
