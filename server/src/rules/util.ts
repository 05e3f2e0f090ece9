// Small readers over calls in the model, shared by the rule families.
import { fileURLToPath } from 'node:url';
import { runtimeCallsOf } from '../model/runtime';
import { TYPED_MODULE, qualify, resolve } from '../model/sdk';
import type { Argument, Call, Model, Range, Value } from '../model/types';
import { dropArgument, nearestKeyword, reportWith } from './fixes';
import { acceptedKeywords, bindSdkCall, memberOfCall, paramsOf, pythonCallName, scopeOf, takesAnyKeyword } from '../sdk/table';
import type { Rule, RuleContext, Severity } from './types';

/** Calls in the file that resolve to the given SDK member. */
export function callsOf(model: Model, flavour: 'typed' | 'g1', member: string): Call[] {
  return model.sdkCalls.get(`${flavour}.${member}`) ?? [];
}

/** Whether range `r` lies within `outer`. */
export function inside(r: Range, outer: Range): boolean {
  return (
    (r.start.line > outer.start.line || (r.start.line === outer.start.line && r.start.character >= outer.start.character)) &&
    (r.end.line < outer.end.line || (r.end.line === outer.end.line && r.end.character <= outer.end.character))
  );
}

export function keyword(call: Call, name: string): Argument | undefined {
  return call.args.find((a) => a.name === name);
}

export function positional(call: Call): Argument[] {
  return call.args.filter((a) => a.name === undefined && !a.splat);
}

export function hasSplat(call: Call, kind?: '*' | '**'): boolean {
  return call.args.some((a) => (kind ? a.splat === kind : !!a.splat));
}

/** The resolved value of an argument, or of Python's default `None` when it was not given. */
export function valueOr(model: Model, arg: Argument | undefined, call: Call): Value {
  if (!arg) return { kind: 'none', range: call.calleeRange, text: 'None' };
  return resolve(model, arg.value);
}

/** The local name through which the file reaches the typed SDK module (e.g. `vis`), if any. */
export function typedModuleAlias(model: Model): string | undefined {
  for (const imp of model.imports) {
    if (qualify(model, imp.local) === TYPED_MODULE) return imp.local;
  }
  return undefined;
}

/** Python's isidentifier() for ASCII and the common Unicode letters. */
export function isIdentifier(s: string): boolean {
  return /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u.test(s);
}

/** Python's "missing N required keyword-only argument(s): 'a' and 'b'" list. */
export function pythonNameList(names: string[]): string {
  const q = names.map((n) => `'${n}'`);
  if (q.length <= 1) return q.join('');
  if (q.length === 2) return `${q[0]} and ${q[1]}`;
  return `${q.slice(0, -1).join(', ')}, and ${q[q.length - 1]}`;
}

/** The file system path of a `file:` URI, or undefined for any other URI. */
export function filePathOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** A file system path for a document URI (Vis names files by path in its load errors); other URIs as they are. */
export function pathOf(uri: string): string {
  return filePathOf(uri) ?? uri;
}

/** The environment-variable-name test the SDK applies (non-empty, no leading digit, alnum or `_` only). */
export function isEnvName(s: string): boolean {
  return s.length > 0 && !/^\p{Nd}/u.test(s) && /^[\p{L}\p{N}_]+$/u.test(s);
}

/** Whether the file is written for that SDK: G1 for `g1`, G2 or G3 for `typed`. */
function ofFlavour(ctx: RuleContext, flavour: 'typed' | 'g1'): boolean {
  const g = ctx.model.generation;
  return flavour === 'g1' ? g === 'G1' : g === 'G2' || g === 'G3';
}

/** An argument of a bound call: its resolved value, reported at the range where it is written. */
export type BoundArg = (name: string) => Value | undefined;

/**
 * A rule over every call to one SDK member in files of that SDK (G1 for `g1`, G2/G3 for `typed`),
 * with the call's arguments bound to the member's parameters in the file's SDK version (the SDK table).
 * Calls whose binding splats make unknowable are skipped; a parameter that was not given reads as undefined.
 */
export function perCall(
  id: string,
  flavour: 'typed' | 'g1',
  member: string,
  summary: string,
  check: (ctx: RuleContext, call: Call, arg: BoundArg) => void,
  severity: Severity = 'error',
): Rule {
  return {
    id,
    severity,
    summary,
    check(ctx) {
      if (!ofFlavour(ctx, flavour)) return;
      for (const call of callsOf(ctx.model, flavour, member)) {
        ctx.unit(call, () => {
          const bound = bindSdkCall(ctx.model, call);
          if (!bound) return;
          check(ctx, call, (name) => {
            const a = bound.get(name);
            return a ? { ...resolve(ctx.model, a.value), range: a.value.range } : undefined;
          });
        });
      }
    },
  };
}

/**
 * Python's own TypeError for a keyword the callee does not declare in the file's SDK version (in files of
 * that SDK), with the nearest declared keyword as the fix. `removable` keywords (those of older docs) are
 * offered for removal.
 */
export function unexpectedKeywordRule(id: string, flavour: 'typed' | 'g1', member: string, summary: string, removable: readonly string[] = []): Rule {
  return {
    id,
    severity: 'error',
    summary,
    fixable: true,
    check(ctx) {
      if (!ofFlavour(ctx, flavour)) return;
      for (const call of callsOf(ctx.model, flavour, member)) ctx.unit(call, () => reportUnexpectedKeywords(ctx, call, removable));
    },
  };
}

/**
 * Reports each keyword argument of an SDK call that no checked release of its member accepts, with the
 * nearest accepted keyword as its fix (`symbol=` → `symbols=`); `removable` ones are offered for removal.
 */
export function reportUnexpectedKeywords(ctx: RuleContext, call: Call, removable: readonly string[] = []): void {
  const member = memberOfCall(ctx.model, call);
  if (!member) return;
  const scope = scopeOf(ctx.model);
  if (takesAnyKeyword(paramsOf(member, scope))) return;
  const accepted = acceptedKeywords(member, scope);
  for (const a of call.args) {
    if (a.name === undefined || accepted.has(a.name)) continue;
    const choice = nearestKeyword(call, a, accepted);
    const drop = removable.includes(a.name) ? dropArgument(ctx, call, a, `Remove ${a.name}=`) : undefined;
    if (drop) choice.suggestions = [...(choice.suggestions ?? []), { ...drop, preferred: false }];
    reportWith(ctx, a.nameRange ?? a.range, `${pythonCallName(member)} got an unexpected keyword argument '${a.name}'`, choice);
  }
}

/** A rule whose findings may carry a safe fix (its page shows it). */
export function fixable(rule: Rule): Rule {
  return { ...rule, fixable: true };
}

/** A call to an SDK member, and how the values written in it resolve where it is (a body's locals are not the module's). */
export interface PlacedCall {
  call: Call;
  /** The value an argument stands for: the module's binding of a name, unless the name is local there. */
  value(v: Value): Value;
  /** The qualified name a dotted name refers to where the call is written. */
  qualify(dotted: string): string | undefined;
}

/**
 * Every call to an SDK member of the file's SDK (the same name in G1's `vis` and the typed module: `log`,
 * `state.update`, `ask`...), wherever it is written: at module level, in function bodies and in lambdas.
 */
export function everyCallOf(ctx: RuleContext, member: string): PlacedCall[] {
  const model = ctx.model;
  const g = model.generation;
  const flavour = g === 'G1' ? 'g1' : g === 'G2' || g === 'G3' ? 'typed' : undefined;
  if (!flavour) return [];
  const out: PlacedCall[] = callsOf(model, flavour, member).map((call) => ({ call, value: (v) => resolve(model, v), qualify: (d) => qualify(model, d, call.range.start) }));
  for (const r of runtimeCallsOf(model, flavour, member)) {
    out.push({ call: r.call, value: (v) => (v.kind === 'name' && r.local(v.name) ? v : resolve(model, v)), qualify: r.qualify });
  }
  return out;
}

/**
 * A rule over every call to SDK members wherever it runs (`everyCallOf`), its arguments bound to the
 * member's parameters in the file's SDK version; calls whose binding splats make unknowable are skipped.
 */
export function perRuntimeCall(id: string, members: string[], summary: string, check: (ctx: RuleContext, call: PlacedCall, arg: BoundArg) => void, severity: Severity = 'error'): Rule {
  return {
    id,
    severity,
    summary,
    check(ctx) {
      for (const member of members) {
        for (const placed of everyCallOf(ctx, member)) {
          const bound = bindSdkCall(ctx.model, placed.call);
          if (!bound) continue;
          check(ctx, placed, (name) => {
            const a = bound.get(name);
            return a ? { ...placed.value(a.value), range: a.value.range } : undefined;
          });
        }
      }
    },
  };
}
