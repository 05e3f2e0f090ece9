// Callback shapes (vis-sdk.md §5.5, vis-lang-interface.md §5): the functions a declaration hands to Vis
// (`prompt`, `activation`, `ctx`, a slash command's `run`, a hook's or a network filter's `fn`, the
// LanguageSurface handlers, SyntaxGuard's `check` and `repair`) are called with the arguments the SDK
// table lists for them (`ParamSpec.calls`). A callback that cannot take them fails with Python's
// TypeError every time it is called (CB-001). What a callback returns is judged only where it is written
// as a literal: a `ctx` that returns no dict or a reserved key (CB-002), a slash command that returns
// neither a result nor text (CB-003), an after hook that returns `vis.block(...)`, which Vis ignores
// (CB-004). A callback the checker cannot see (a decorated function, a method, an instance, a name bound
// twice) is never judged.
import { functionNamed, qualify, resolve } from '../model/sdk';
import type { Call, Model, Param, Range, Value } from '../model/types';
import { pyRepr } from '../model/literals';
import { bindCall, paramsOf, scopeOf, sdkMemberByQualified, vocabularyValues, type SdkMember, type SdkParam } from '../sdk/table';
import { callError } from './pycall';
import type { Rule, RuleContext } from './types';

/** A callback written in a declaration, as far as it can be seen. */
interface Callback {
  /** The declaration's member and the parameter it is passed to. */
  member: SdkMember;
  param: SdkParam;
  call: Call;
  /** Where it is written in the declaration. */
  range: Range;
  /** Its name as Python's TypeError names it (`<lambda>` for a lambda). */
  name: string;
  params: readonly Param[];
  /** What it returns, where each return is written (a lambda's body is its one return). */
  returns: Value[];
  /** Where a `def` is named (the range to report a shape on), or the lambda. */
  at: Range;
}

/** Per SDK scope: the member a qualified name calls when it takes callbacks (null when it takes none). */
const withCallbacks = new WeakMap<object, Map<string, SdkMember | null>>();

function memberWithCallbacks(model: Model, qualified: string): SdkMember | undefined {
  const scope = scopeOf(model);
  let memo = withCallbacks.get(scope);
  if (!memo) withCallbacks.set(scope, (memo = new Map()));
  let m = memo.get(qualified);
  if (m === undefined) {
    const member = sdkMemberByQualified(scope, qualified);
    m = member && paramsOf(member, scope).some((p) => p.calls) ? member : null;
    memo.set(qualified, m);
  }
  return m ?? undefined;
}

/** The module-level declaration calls of the file that take callbacks (SDK and vis-lang-interface). */
function declarations(model: Model): { call: Call; member: SdkMember }[] {
  const out: { call: Call; member: SdkMember }[] = [];
  for (const call of model.calls) {
    if (call.inner || !call.qualified) continue;
    const member = memberWithCallbacks(model, call.qualified);
    if (member) out.push({ call, member });
  }
  return out;
}

/** The callbacks one declaration call hands over, as far as they can be seen. */
function callbacksOf(model: Model, call: Call, member: SdkMember): Callback[] {
  const out: Callback[] = [];
  const params = paramsOf(member, scopeOf(model));
  const bound = bindCall(params, call);
  if (!bound) return out;
  for (const param of params) {
    const arg = param.calls && bound.get(param.name);
    if (!arg) continue;
    const v = resolve(model, arg.value);
    if (v.kind === 'lambda') out.push({ member, param, call, range: arg.value.range, name: '<lambda>', params: v.params, returns: v.body ? [v.body] : [], at: v.range });
    else if (v.kind === 'function') {
      const fn = functionNamed(model, v.name);
      // A decorator may change what is called; a wrapper is not judged.
      if (!fn || fn.decorators.length) continue;
      out.push({ member, param, call, range: arg.value.range, name: fn.name, params: fn.params, returns: fn.body.flow.returns, at: fn.nameRange });
    }
  }
  return out;
}

/** What a callback is handed, in the words of the TypeError Python raises when it cannot take it. */
function shapeError(cb: Callback): string | undefined {
  const calls = cb.param.calls!;
  const positional = calls.filter((p) => p.kind === 'positional_only' || p.kind === 'positional_or_keyword').length;
  const keywords = calls.filter((p) => p.kind === 'keyword_only').map((p) => p.name);
  const shape = cb.params.map((p) => ({ name: p.name, kind: p.kind, optional: p.defaultValue !== undefined || p.default !== undefined || p.kind === 'var_positional' || p.kind === 'var_keyword' }));
  return callError(cb.name, shape, positional, keywords);
}

/** How a declaration names the callback in a message: `Extension prompt`, `SlashCommand run`. */
function where(cb: Callback): string {
  return `${cb.member.name.split('.').pop()} ${cb.param.name}`;
}

function calledWith(cb: Callback): string {
  return cb.param.calls!.map((p) => (p.kind === 'keyword_only' ? `${p.name}=...` : p.name)).join(', ');
}

/** A literal's kind in words, for values that are certainly not what a callback should return. */
function literalKind(v: Value): string | undefined {
  switch (v.kind) {
    case 'int':
    case 'float':
      return 'a number';
    case 'bool':
      return 'a bool';
    case 'list':
      return 'a list';
    case 'tuple':
      return 'a tuple';
    case 'set':
      return 'a set';
    case 'str':
      return 'text';
    case 'dict':
      return 'a dict';
    default:
      return undefined;
  }
}

/** Whether a value is a call to the SDK's `block` (G1 `vis.block`, typed `vis.block`). */
function isBlock(model: Model, v: Value): boolean {
  if (v.kind !== 'call' || v.call.inner) return false;
  const q = qualify(model, v.call.callee);
  return q === 'vis.block' || q === 'blockether.vis.extension.block';
}

const RESERVED = vocabularyValues('ctx-reserved');

/** Checks the callbacks of each declaration, one unit per declaration call (kept while what it read is unchanged). */
function forEach(ctx: RuleContext, params: string[] | undefined, members: string[] | undefined, check: (cb: Callback) => void): void {
  for (const { call, member } of declarations(ctx.model)) {
    if (members && !members.includes(member.name)) continue;
    ctx.unit(call, () => {
      for (const cb of callbacksOf(ctx.model, call, member)) if (!params || params.includes(cb.param.name)) check(cb);
    });
  }
}

export const callbackRules: Rule[] = [
  {
    id: 'CB-001',
    severity: 'error',
    summary: 'A callback takes the arguments Vis calls it with (prompt, activation and ctx: env; a slash command: ctx; a hook or filter: the call; SyntaxGuard check: sources, root): Python\'s TypeError otherwise, every time.',
    check(ctx) {
      forEach(ctx, undefined, undefined, (cb) => {
        const error = shapeError(cb);
        if (error) ctx.report(cb.range, `${error}: the ${where(cb)} is called with (${calledWith(cb)})`);
      });
    },
  },
  {
    id: 'CB-002',
    severity: 'warning',
    summary: 'An Extension ctx returns a dict with string keys, none of them reserved (engine_ and session_ keys; session_env is the sanctioned one).',
    check(ctx) {
      forEach(ctx, ['ctx'], ['Extension', 'extension'], (cb) => {
        for (const raw of cb.returns) {
          const v = resolve(ctx.model, raw);
          const kind = literalKind(v);
          if (kind && v.kind !== 'dict') {
            ctx.report(raw.range, `ctx returns a dict of what the extension adds to the session context, not ${kind}`);
            continue;
          }
          if (v.kind !== 'dict') continue;
          for (const e of v.entries) {
            const k = resolve(ctx.model, e.key);
            if (k.kind === 'str' && k.value !== 'session_env' && RESERVED.some((prefix) => k.value.startsWith(prefix))) {
              ctx.report(e.key.range, `ctx key ${pyRepr(k.value)} is reserved: Vis keeps the engine_ and session_ keys (session_env is the one an extension may add); put it under a key of the extension's own`);
            } else if (k.kind !== 'str' && literalKind(k)) ctx.report(e.key.range, `ctx keys are strings, not ${literalKind(k)}`);
          }
        }
      });
    },
  },
  {
    id: 'CB-003',
    severity: 'warning',
    summary: 'A slash command returns vis.ok(...), vis.err(...) or text.',
    check(ctx) {
      forEach(ctx, ['run'], ['SlashCommand', 'slash'], (cb) => {
        for (const raw of cb.returns) {
          const kind = literalKind(resolve(ctx.model, raw));
          if (kind && kind !== 'text') ctx.report(raw.range, `a slash command returns vis.ok(...), vis.err(...) or text, not ${kind}`);
        }
      });
    },
  },
  {
    id: 'CB-004',
    severity: 'warning',
    summary: "An after hook's return is ignored: vis.block(...) there refuses nothing (the operation already ran).",
    check(ctx) {
      forEach(ctx, ['fn'], ['OpHook', 'op_hook'], (cb) => {
        const phase = cb.call.args.find((a) => a.name === 'phase') ?? cb.call.args.filter((a) => a.name === undefined)[2];
        const p = phase && resolve(ctx.model, phase.value);
        if (p?.kind !== 'str' || p.value !== 'after') return;
        for (const raw of cb.returns) {
          if (isBlock(ctx.model, raw)) ctx.report(raw.range, "an after hook's return is ignored: this vis.block(...) refuses nothing, the operation already ran; refuse it in a before hook (phase=\"before\")");
        }
      });
    },
  },
];
