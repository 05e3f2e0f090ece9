// `vis.Symbol(...)` (G2/G3): the refusals of Symbol.__post_init__ and of the namespace traversal
// (SYM-001…SYM-016, vis-sdk.md §2.3–§2.4), the activity guidance (SYM-008) and duplicate tool names
// within one Extension (SYM-017, a warning: the SDK does not check it).
// The analysis itself lives in server/src/contracts (it is the same traversal that builds contracts);
// rules read it from the program (`ctx.symbols()`), computed once per module version with sibling
// modules resolved, so hovers, previews and diagnostics share it. A mistake in a declaration that lives
// in another module is reported on that module's line, with the `vis.Symbol(...)` that exports it as
// related information.
import type { Issue, SymbolInfo } from '../contracts/symbols';
import { isKnown, resolve, sdkCall } from '../model/sdk';
import type { Rule, RuleContext, Severity } from './types';
import { callsOf, keyword } from './util';

/** An issue on the analysed module, or on the module that holds the declaration, pointing back at the Symbol. */
function reportIssue(ctx: RuleContext, info: SymbolInfo, issue: Issue): void {
  if (!issue.uri || issue.uri === ctx.model.uri) {
    ctx.report(issue.range, issue.message);
    return;
  }
  ctx.report(issue.range, issue.message, undefined, {
    uri: issue.uri,
    related: [{ uri: ctx.model.uri, range: info.call.range, message: `exported by this ${info.call.callee}(...)` }],
  });
}

function issueRule(id: string, summary: string, severity: Severity = 'error'): Rule {
  return {
    id,
    severity,
    summary,
    check(ctx: RuleContext) {
      // The Symbol analysis is kept per Symbol by the program; reporting its issues is a filter.
      for (const info of ctx.symbols()) {
        for (const issue of info.issues) if (issue.rule === id) reportIssue(ctx, info, issue);
      }
    },
  };
}

export const symbolRules: Rule[] = [
  issueRule('SYM-001', 'Symbol is_hidden must be a bool.'),
  issueRule('SYM-003', 'A Symbol name (name= or the function name) must be a public Python identifier.'),
  issueRule('SYM-004', 'A Symbol tag must be in the tag vocabulary (T2 for G2 and C1/C2, T4 for G3 with C3).'),
  issueRule('SYM-005', 'An exported function needs a docstring: it becomes the model-facing doc().'),
  issueRule('SYM-007', 'Symbol activity= must be a vis.Activity declaration.'),
  {
    id: 'SYM-008',
    // Guidance from the docs, not an SDK error: information, so it never reads as a load failure.
    severity: 'information',
    summary: 'Every exported callable should declare an explicit vis.Activity (on each vis.method for a namespace).',
    check(ctx) {
      for (const info of ctx.symbols()) {
        for (const issue of info.issues) if (issue.rule === 'SYM-008') reportIssue(ctx, info, issue);
        if (info.form !== 'object') continue;
        for (const tool of info.tools) {
          if (tool.hasActivity || !tool.decl) continue;
          ctx.report(
            info.call.calleeRange,
            `${tool.name} has no activity: declare @vis.method(activity=vis.Activity(...)) on it; without it only engine execution evidence is shown`,
          );
        }
      }
    },
  },
  issueRule('SYM-010', 'A namespace Symbol tag must be in the tag vocabulary.'),
  issueRule('SYM-011', 'A namespace Symbol takes no activity=; declare it on each vis.method().'),
  issueRule('SYM-012', 'A namespace Symbol needs name=<public Python identifier>.'),
  issueRule('SYM-013', 'Every public attribute of a namespace object must be callable or a nested capability object.'),
  issueRule('SYM-014', 'A namespace object may not reach the same object twice.'),
  issueRule('SYM-015', 'A namespace object needs at least one public method.'),
  issueRule('SYM-016', 'Every public method of a namespace needs a docstring (and passes the function checks).'),
  issueRule('SYM-018', 'A class inside a namespace object becomes a tool (its constructor); probably unintended.', 'warning'),
  {
    id: 'SYM-017',
    severity: 'warning',
    summary: 'Two Symbols with the same public name in one Extension (the SDK does not check it; the host behaviour is undefined).',
    check(ctx) {
      const infos = new Map(ctx.symbols().map((i) => [i.call, i]));
      for (const ext of callsOf(ctx.model, 'typed', 'Extension')) {
        const arg = keyword(ext, 'symbols');
        const list = arg && resolve(ctx.model, arg.value);
        if (!list || (list.kind !== 'list' && list.kind !== 'tuple')) continue;
        const seen = new Map<string, boolean>();
        for (const raw of list.items) {
          const item = resolve(ctx.model, raw);
          if (item.kind !== 'call' || !isKnown(item)) continue;
          const s = sdkCall(item.call);
          if (s?.flavour !== 'typed' || s.member !== 'Symbol') continue;
          const info = infos.get(item.call);
          if (!info?.name) continue;
          if (seen.has(info.name)) {
            ctx.report(raw.range, `Duplicate tool name '${info.name}' in this Extension: another Symbol already exports it, and the SDK does not check it (which one the model gets is not defined)`);
          }
          seen.set(info.name, true);
        }
      }
    },
  },
];
