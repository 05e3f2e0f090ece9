// `vis.Symbol(...)` (G2/G3): the refusals of Symbol.__post_init__ and of the namespace traversal
// (SYM-001…SYM-016, vis-sdk.md §2.3–§2.4), the activity guidance (SYM-008) and duplicate tool names
// within one Extension (SYM-017, a warning: the SDK does not check it).
// The analysis itself lives in server/src/contracts (it is the same traversal that builds contracts);
// rules read it from the program (`ctx.symbols()`), computed once per module version with sibling
// modules resolved, so hovers, previews and diagnostics share it. A mistake in a declaration that lives
// in another module is reported on that module's line, with the `vis.Symbol(...)` that exports it as
// related information.
import type { Issue, SymbolInfo } from '../contracts/symbols';
import { tagsOf } from '../sdk/table';
import { pyString } from '../fixes/edits';
import type { Range } from '../model/types';
import { docstringSuggestion, dropArgument, isLiteralAt, nearestValue, reportWith, type FixChoice } from './fixes';
import { isKnown, resolve, sdkCall } from '../model/sdk';
import type { Rule, RuleContext, Severity } from './types';
import { callsOf, isIdentifier, keyword } from './util';

/** An issue on the analysed module, or on the module that holds the declaration, pointing back at the Symbol. */
function reportIssue(ctx: RuleContext, info: SymbolInfo, issue: Issue): void {
  if (!issue.uri || issue.uri === ctx.model.uri) {
    reportWith(ctx, issue.range, issue.message, issueFix(ctx, info, issue));
    return;
  }
  ctx.report(issue.range, issue.message, undefined, {
    uri: issue.uri,
    related: [{ uri: ctx.model.uri, range: info.call.range, message: `exported by this ${info.call.callee}(...)` }],
  });
}

/** The fix of an issue the Symbol analysis found, from the argument it is written at. */
function issueFix(ctx: RuleContext, info: SymbolInfo, issue: Issue): FixChoice {
  if (issue.rule === 'SYM-005' || issue.rule === 'SYM-016') return docstringSuggestion(ctx, issue.decl);
  const arg = info.call.args.find((a) => sameRange(a.value.range, issue.range));
  if (!arg) return {};
  const v = resolve(ctx.model, arg.value);
  switch (issue.rule) {
    case 'SYM-001': {
      // `is_hidden=1` / `"true"`: the boolean meant.
      if (!isLiteralAt(ctx, arg.value)) return {};
      const meant = v.kind === 'int' && (v.value === 0 || v.value === 1) ? v.value === 1 : v.kind === 'str' && /^(true|false)$/i.test(v.value) ? v.value.toLowerCase() === 'true' : undefined;
      return meant === undefined ? {} : { fix: { title: `Write is_hidden=${meant ? 'True' : 'False'}`, edits: [{ range: arg.value.range, newText: meant ? 'True' : 'False' }] } };
    }
    case 'SYM-003': {
      // `name="read-file"` → `name="read_file"`: the same words joined by `_`.
      if (arg.name !== 'name' && info.call.args.indexOf(arg) !== 1) return {};
      if (v.kind !== 'str' || !isLiteralAt(ctx, arg.value)) return {};
      const snake = v.value.trim().replace(/[-.\s]+/g, '_');
      if (snake === v.value || !isIdentifier(snake) || snake.startsWith('_')) return {};
      const text = pyString(snake, arg.value.text);
      return { fix: { title: `Write name=${text}`, edits: [{ range: arg.value.range, newText: text }] } };
    }
    case 'SYM-004':
    case 'SYM-010':
      return nearestValue(ctx, v.kind === 'str' ? { ...v, range: arg.value.range } : undefined, tagsOf(ctx.model));
    case 'SYM-011': {
      const fix = dropArgument(ctx, info.call, arg, 'Remove activity= (declare it on each vis.method)');
      return fix ? { fix } : {};
    }
  }
  return {};
}

const sameRange = (a: Range, b: Range) => a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;

function issueRule(id: string, summary: string, severity: Severity = 'error', fixable = false): Rule {
  return {
    id,
    severity,
    summary,
    fixable,
    check(ctx: RuleContext) {
      // The Symbol analysis is kept per Symbol by the program; reporting its issues is a filter.
      for (const info of ctx.symbols()) {
        for (const issue of info.issues) if (issue.rule === id) reportIssue(ctx, info, issue);
      }
    },
  };
}

export const symbolRules: Rule[] = [
  issueRule('SYM-001', 'Symbol is_hidden must be a bool.', 'error', true),
  issueRule('SYM-003', 'A Symbol name (name= or the function name) must be a public Python identifier.', 'error', true),
  issueRule('SYM-004', 'A Symbol tag must be in the tag vocabulary (T2 for G2 and C1/C2, T4 for G3 with C3).', 'error', true),
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
  issueRule('SYM-010', 'A namespace Symbol tag must be in the tag vocabulary.', 'error', true),
  issueRule('SYM-011', 'A namespace Symbol takes no activity=; declare it on each vis.method().', 'error', true),
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
