// The vis-lang-interface calls a language extension makes (vis-lang-interface.md §2, §3, §5), at module
// level and where its tools and callbacks run: a call that does not bind gets Python's TypeError (LANG-001:
// `prompt.routing`'s keyword-only `notes` passed positionally, a result type built with a missing or an
// unknown field); a `Diagnostic` level outside LEVELS gets its ValueError (LANG-002); a bare string where
// a tuple of paths or suffixes is meant is read as its characters (LANG-003); `SyntaxGuard` needs a
// suffix (LANG-004). Parameters and vocabularies come from the SDK table.
import { resolve } from '../model/sdk';
import { runtimeCalls } from '../model/runtime';
import type { Call, Model, Range, Value } from '../model/types';
import { pyRepr } from '../model/literals';
import { bindCall, paramsOf, scopeOf, sdkMember, sdkMemberByQualified, vocabularyValues, type SdkMember } from '../sdk/table';
import { scopeOf as contractScope } from '../contracts/scope';
import { callError, type ParamShape } from './pycall';
import type { Rule, RuleContext } from './types';
import { derivedCache } from '../model/derived';

const LANG = 'vis_lang_interface';

interface LangCall {
  call: Call;
  member: SdkMember;
  /** The value an argument stands for where the call is written. */
  value(v: Value): Value;
}

const cache = derivedCache<LangCall[]>();

/** Every call to a vis-lang-interface member, module level and run time. */
function langCalls(model: Model): LangCall[] {
  const hit = cache.get(model);
  if (hit) return hit;
  const scope = scopeOf(model);
  const out: LangCall[] = [];
  const add = (call: Call, value: (v: Value) => Value) => {
    if (call.inner || !call.qualified?.startsWith(LANG + '.')) return;
    const member = sdkMemberByQualified(scope, call.qualified);
    if (member && (member.kind === 'class' || member.kind === 'function')) out.push({ call, member, value });
  };
  for (const call of model.calls) add(call, (v) => resolve(model, v));
  for (const r of runtimeCalls(model)) add(r.call, (v) => (v.kind === 'name' && r.local(v.name) ? v : resolve(model, v)));
  cache.set(model, out);
  return out;
}

/** Whether a member is called with a bound first argument (`self` of `__init__`, `cls` of `LintResult.of`). */
function boundFirst(model: Model, member: SdkMember): boolean {
  if (member.kind === 'class') return true;
  const dot = member.name.lastIndexOf('.');
  return dot !== -1 && sdkMember(scopeOf(model), member.module, member.name.slice(0, dot))?.kind === 'class';
}

/** Python's TypeError for a call that does not bind, at the argument that does not fit (else the callee). */
function bindError(model: Model, lc: LangCall): { message: string; range: Range } | undefined {
  const call = lc.call;
  if (call.args.some((a) => a.splat)) return undefined;
  const params = paramsOf(lc.member, scopeOf(model));
  if (!params.length && lc.member.kind === 'class') return undefined;
  const first = boundFirst(model, lc.member);
  const shape: ParamShape[] = [...(first ? [{ name: 'self', kind: 'positional_or_keyword' as const, optional: false }] : []), ...params.map((p) => ({ name: p.name, kind: p.kind, optional: !p.required }))];
  const short = lc.member.name.split('.').pop()!;
  const name = lc.member.kind === 'class' ? `${short}.__init__` : lc.member.name;
  const positional = call.args.filter((a) => a.name === undefined).length + (first ? 1 : 0);
  const error = callError(name, shape, positional, call.args.flatMap((a) => (a.name !== undefined ? [a.name] : [])));
  if (!error) return undefined;
  const keyword = /'([^']+)'$/.exec(error)?.[1];
  const byPosition = params.filter((p) => p.kind === 'positional_only' || p.kind === 'positional_or_keyword').length;
  const arg = keyword && /keyword|multiple values/.test(error) ? call.args.find((a) => a.name === keyword) : /positional arguments? but/.test(error) ? call.args.filter((a) => a.name === undefined)[byPosition] : undefined;
  return { message: error, range: arg ? (arg.nameRange ?? arg.range) : call.calleeRange };
}

function bound(model: Model, lc: LangCall): Map<string, { value: Value }> | undefined {
  // A call that does not bind raises its TypeError (LANG-001) before anything else.
  if (bindError(model, lc)) return undefined;
  const map = bindCall(paramsOf(lc.member, scopeOf(model)), lc.call);
  if (!map) return undefined;
  const out = new Map<string, { value: Value }>();
  for (const [name, a] of map) out.set(name, { value: { ...lc.value(a.value), range: a.value.range } });
  return out;
}

const LEVELS = vocabularyValues('diagnostic-level');

/** Fields that hold a tuple of strings (paths, suffixes, a command line), by member. */
const STRING_TUPLES: Record<string, string[]> = {
  FormatResult: ['changed', 'unchanged'],
  ReplSession: ['command'],
  SyntaxGuard: ['suffixes'],
};

/**
 * Whether the project's installed vis-lang-interface defines the member with other parameters than the
 * table knows (another version, or a stand-in): the installed source is what runs, so nothing is claimed.
 */
function installedDiffers(ctx: RuleContext, member: SdkMember, params: readonly string[]): boolean {
  const loader = ctx.resolver.loader;
  if (!loader) return false;
  const [head] = member.name.split('.');
  const installed = loader.load(contractScope(ctx.model), member.module);
  if (!installed) return false;
  const m = installed.model;
  const cls = m.classes.find((c) => c.name === head);
  if (cls && member.kind === 'class') return cls.fields.map((f) => f.name).join(',') !== params.join(',');
  const fn = !cls ? m.functions.find((f) => f.name === head) : undefined;
  if (fn && member.kind === 'function' && !member.name.includes('.')) return fn.params.map((p) => p.name).join(',') !== params.join(',');
  // Defined some other way (re-exported, built at run time): not known.
  return !!(cls || fn || m.bindings.has(head));
}

function each(ctx: RuleContext, check: (lc: LangCall) => void): void {
  const differs = new Map<SdkMember, boolean>();
  for (const lc of langCalls(ctx.model)) {
    let d = differs.get(lc.member);
    if (d === undefined) differs.set(lc.member, (d = installedDiffers(ctx, lc.member, paramsOf(lc.member, scopeOf(ctx.model)).map((p) => p.name))));
    if (!d) check(lc);
  }
}

export const langInterfaceRules: Rule[] = [
  {
    id: 'LANG-001',
    severity: 'error',
    summary: "A vis-lang-interface call binds as Python binds it (prompt.routing's notes is keyword-only; result types take their fields in order): Python's TypeError otherwise.",
    check(ctx) {
      each(ctx, (lc) => {
        const e = bindError(ctx.model, lc);
        if (e) ctx.report(e.range, e.message);
      });
    },
  },
  {
    id: 'LANG-002',
    severity: 'error',
    summary: "A Diagnostic level is error, warning or info: the ValueError of Diagnostic's __post_init__ otherwise.",
    check(ctx) {
      each(ctx, (lc) => {
        if (lc.member.name !== 'Diagnostic') return;
        const level = bound(ctx.model, lc)?.get('level')?.value;
        if (level?.kind === 'str' && !LEVELS.includes(level.value)) ctx.report(level.range, `level must be one of (${LEVELS.map(pyRepr).join(', ')}), not ${pyRepr(level.value)}`);
      });
    },
  },
  {
    id: 'LANG-003',
    severity: 'warning',
    summary: 'FormatResult changed/unchanged, ReplSession command and SyntaxGuard suffixes are tuples of strings: a bare string is read as its characters.',
    check(ctx) {
      each(ctx, (lc) => {
        const fields = STRING_TUPLES[lc.member.name];
        if (!fields) return;
        const args = bound(ctx.model, lc);
        for (const field of fields) {
          const v = args?.get(field)?.value;
          if (v?.kind === 'str') ctx.report(v.range, `${lc.member.name} ${field} is a tuple of strings: the bare string ${pyRepr(v.value)} is read as its characters; write (${pyRepr(v.value)},)`);
        }
      });
    },
  },
  {
    id: 'LANG-004',
    severity: 'error',
    summary: 'A SyntaxGuard covers at least one file suffix: its ValueError otherwise.',
    check(ctx) {
      each(ctx, (lc) => {
        if (lc.member.name !== 'SyntaxGuard') return;
        const v = bound(ctx.model, lc)?.get('suffixes')?.value;
        const empty = v && ((v.kind === 'str' && v.value === '') || ((v.kind === 'list' || v.kind === 'tuple') && v.items.length === 0));
        if (empty) ctx.report(v.range, 'SyntaxGuard needs at least one file suffix');
      });
    },
  },
];
