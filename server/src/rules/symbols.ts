// `vis.Symbol(...)` (G2/G3): the refusals of Symbol.__post_init__ and of the namespace traversal
// (SYM-001…SYM-016, vis-sdk.md §2.3–§2.4), the first one the SDK raises per Symbol only; the activity
// guidance (SYM-008) and duplicate tool names within one Extension (SYM-017, a warning: the SDK does not
// check it).
// The analysis itself lives in server/src/contracts (it is the same traversal that builds contracts);
// rules read it from the program (`ctx.symbols()`), computed once per module version with sibling
// modules resolved, so hovers, previews and diagnostics share it. A mistake in a declaration is reported
// where it is written (the def without a docstring, the attribute's assignment), with the `vis.Symbol(...)`
// that exports it as related information, in this module or another.
import type { Issue, SymbolInfo } from '../contracts/symbols';
import { pyString } from '../fixes/edits';
import { isKnown, resolve, sdkCall } from '../model/sdk';
import type { Range } from '../model/types';
import { tagsOf } from '../sdk/table';
import { BINDING_RULE, bindingError, chainRules, withChoice, type CallFamily, type Failure, type RuleDoc } from './declaration';
import { booleanMeant, docstringSuggestion, dropArgument, isLiteralAt, nearestValue, type FixChoice } from './fixes';
import type { ReportOptions, Rule, RuleContext, Severity } from './types';
import { callsOf, inside, isIdentifier, keyword } from './util';

/**
 * An issue where the declaration is written, pointing back at the Symbol that exports it when that is
 * elsewhere; with its fix when it is in this module (a fix's edits are in this module's coordinates).
 */
function issueFailure(ctx: RuleContext, info: SymbolInfo, issue: Issue): Failure {
  const uri = issue.uri ?? ctx.model.uri;
  const choice = uri === ctx.model.uri ? issueFix(ctx, info, issue) : {};
  const related = uri === ctx.model.uri && inside(issue.range, info.call.range) ? undefined : [{ uri: ctx.model.uri, range: info.call.range, message: `exported by this ${info.call.callee}(...)` }];
  const options: ReportOptions = {};
  if (uri !== ctx.model.uri) options.uri = uri;
  if (related) options.related = related;
  return withChoice({ range: issue.range, message: issue.message, options }, choice);
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
      return booleanMeant(ctx, arg.value, 'is_hidden');
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



function reportIssue(ctx: RuleContext, info: SymbolInfo, issue: Issue): void {
  const f = issueFailure(ctx, info, issue);
  ctx.report(f.range, f.message, f.fix, f.options);
}

/** Advice the Symbol analysis finds besides the SDK's errors. */
const ADVICE = new Set(['SYM-008', 'SYM-018']);

function adviceRule(id: string, summary: string, severity: Severity): Rule {
  return {
    id,
    severity,
    summary,
    check(ctx: RuleContext) {
      // The Symbol analysis is kept per Symbol by the program (the same object while what it read is
      // unchanged): what it reports is kept with it.
      for (const info of ctx.symbols()) ctx.unit(info, () => {
        for (const issue of info.issues) if (issue.rule === id) reportIssue(ctx, info, issue);
      });
    },
  };
}

const DOCS: RuleDoc[] = [
  { id: 'SYM-001', summary: 'Symbol is_hidden must be a bool.', fixable: true },
  { id: 'SYM-003', summary: 'A Symbol name (name= or the function name) must be a public Python identifier.', fixable: true },
  { id: 'SYM-004', summary: 'A Symbol tag must be in the tag vocabulary (T2 for G2 and C1/C2, T4 for G3 with C3).', fixable: true },
  { id: 'SYM-005', summary: 'An exported function needs a docstring: it becomes the model-facing doc().' },
  { id: 'SYM-007', summary: 'Symbol activity= must be a vis.Activity declaration.' },
  { id: 'SYM-010', summary: 'A namespace Symbol tag must be in the tag vocabulary.', fixable: true },
  { id: 'SYM-011', summary: 'A namespace Symbol takes no activity=; declare it on each vis.method().', fixable: true },
  { id: 'SYM-012', summary: 'A namespace Symbol needs name=<public Python identifier>.' },
  { id: 'SYM-013', summary: 'Every public attribute of a namespace object must be callable or a nested capability object.' },
  { id: 'SYM-014', summary: 'A namespace object may not reach the same object twice.' },
  { id: 'SYM-015', summary: 'A namespace object needs at least one public method.' },
  { id: 'SYM-016', summary: 'Every public method of a namespace needs a docstring (and passes the function checks).' },
];

/** `vis.Symbol(...)` binds like any call first (its binding errors are SDK-003's). */
export const symbolFamilies: CallFamily[] = [{ flavour: 'typed', member: 'Symbol', steps: [], moduleOnly: true }];

const symbolChain = {
  units: (ctx: RuleContext) => ctx.symbols(),
  // The program keeps each Symbol's analysis between versions; reporting its issues only reads it.
  key: () => null,
  steps: [
    {
      id: BINDING_RULE,
      check: (info: SymbolInfo, ctx: RuleContext) => bindingError(ctx.model, info.call),
    },
    {
      // The issues come in the order the SDK raises them: the first error is the Symbol's.
      id: DOCS.map((d) => d.id),
      check(info: SymbolInfo, ctx: RuleContext) {
        const issue = info.issues.find((i) => !ADVICE.has(i.rule));
        return issue && { ...issueFailure(ctx, info, issue), id: issue.rule };
      },
    },
  ],
};

export const symbolRules: Rule[] = [
  ...chainRules(DOCS, [symbolChain]),
  {
    id: 'SYM-008',
    // Guidance from the docs, not an SDK error: information, so it never reads as a load failure.
    severity: 'information',
    summary: 'Every exported callable should declare an explicit vis.Activity (on each vis.method for a namespace).',
    check(ctx) {
      // A unit per Symbol analysis, as the advice rules.
      for (const info of ctx.symbols()) ctx.unit(info, () => {
        for (const issue of info.issues) if (issue.rule === 'SYM-008') reportIssue(ctx, info, issue);
        if (info.form !== 'object') return;
        for (const tool of info.tools) {
          if (tool.hasActivity || !tool.decl) continue;
          ctx.report(
            info.call.calleeRange,
            `${tool.name} has no activity: declare @vis.method(activity=vis.Activity(...)) on it; without it only engine execution evidence is shown`,
          );
        }
      });
    },
  },
  adviceRule('SYM-018', 'A class inside a namespace object becomes a tool (its constructor); probably unintended.', 'warning'),
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
