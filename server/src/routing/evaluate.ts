// `prompt.routing(...)` calls in a Python file: recognised through the declaration model (any import
// form, any alias), bound as Python binds `routing(language, alias, verbs=VERBS, *, notes=())`, and
// evaluated with the pure renderer when every argument is statically known. Nothing is ever run:
// an argument that cannot be known makes the whole call `unknown`, and callers stay silent about it.
import { pyStr } from '../model/literals';
import { qualify, resolve } from '../model/sdk';
import type { Argument, Call, Model, Range, Value } from '../model/types';
import { VERBS, renderRouting, type RoutingArgs, type RoutingError, type RoutingVersion } from './render';

/** The qualified name every spelling of the call resolves to (vis-lang-interface.md §2). */
export const ROUTING_FUNCTION = 'vis_lang_interface.prompt.routing';
/** `prompt.VERBS`: the default `verbs`, also passed explicitly. */
export const VERBS_CONSTANT = 'vis_lang_interface.prompt.VERBS';

/** How hovers and previews name each wording to the author. */
export const WORDING_LABELS: Record<RoutingVersion, string> = {
  current: 'current wording (vis-lang-interface 2.6.2 and later)',
  legacy: 'legacy wording (vis-lang-interface 2.1.0 to before 2.6.2)',
};

const PARAMS = ['language', 'alias', 'verbs'] as const;
const KEYWORDS = new Set(['language', 'alias', 'verbs', 'notes']);

export type RoutingEvaluation =
  /** The rendered block. */
  | { kind: 'text'; text: string; args: RoutingArgs }
  /** The call raises at import; `range` is the argument that causes it (always `verbs` for the ValueErrors). */
  | { kind: 'error'; error: RoutingError; range: Range; args: RoutingArgs }
  /** Not statically knowable; `reason` says why, for hovers and previews. */
  | { kind: 'unknown'; reason: string };

/** True when a call resolves to `vis_lang_interface.prompt.routing`. */
export function isRoutingCall(call: Call): boolean {
  return call.qualified === ROUTING_FUNCTION;
}

/** Every module-level `prompt.routing(...)` call, in source order. */
export function routingCalls(model: Model): Call[] {
  return model.calls.filter(isRoutingCall);
}

/** Evaluates one routing call in the given wording. */
export function evaluateRouting(model: Model, call: Call, version: RoutingVersion): RoutingEvaluation {
  const bound = bind(call);
  if ('reason' in bound) return { kind: 'unknown', reason: bound.reason };
  const language = stringArg(model, bound.args.get('language')!, 'language');
  if (typeof language !== 'string') return language;
  const alias = stringArg(model, bound.args.get('alias')!, 'alias');
  if (typeof alias !== 'string') return alias;
  const args: RoutingArgs = { language, alias };

  const verbsArg = bound.args.get('verbs');
  if (verbsArg) {
    const verbs = strings(model, verbsArg.value, false);
    if (!verbs) return { kind: 'unknown', reason: unknownReason('verbs', verbsArg) };
    args.verbs = verbs;
  }
  const notesArg = bound.args.get('notes');
  if (notesArg) {
    // A set's order is the hash order of its strings, which changes from run to run: notes keep order.
    const notes = strings(model, notesArg.value, true);
    if (!notes) return { kind: 'unknown', reason: unknownReason('notes', notesArg) };
    args.notes = notes;
  }

  const result = renderRouting(args, version);
  if (result.ok) return { kind: 'text', text: result.text, args };
  // Both ValueErrors come from `verbs`, which is then necessarily given (the default is valid).
  return { kind: 'error', error: result.error, range: verbsArg ? verbsArg.value.range : call.argsRange, args };
}

/** Python's binding of the call's arguments to `(language, alias, verbs=VERBS, *, notes=())`. */
function bind(call: Call): { args: Map<string, Argument> } | { reason: string } {
  const args = new Map<string, Argument>();
  let positional = 0;
  for (const a of call.args) {
    if (a.splat) return { reason: `its arguments are unpacked from \`${a.value.text}\`` };
    if (a.name === undefined) {
      if (positional >= PARAMS.length) return { reason: `it takes at most ${PARAMS.length} positional arguments (a TypeError in Python)` };
      args.set(PARAMS[positional++], a);
    } else {
      if (!KEYWORDS.has(a.name)) return { reason: `it has no parameter \`${a.name}\` (a TypeError in Python)` };
      if (args.has(a.name)) return { reason: `\`${a.name}\` is given twice (a TypeError in Python)` };
      args.set(a.name, a);
    }
  }
  for (const p of ['language', 'alias']) if (!args.has(p)) return { reason: `\`${p}\` is missing (a TypeError in Python)` };
  return { args };
}

function unknownReason(param: string, arg: Argument): string {
  return `\`${param}\` (\`${arg.value.text}\`) is not statically known`;
}

function stringArg(model: Model, arg: Argument, param: string): string | RoutingEvaluation {
  const s = pyStr(resolve(model, arg.value));
  return s ?? { kind: 'unknown', reason: unknownReason(param, arg) };
}

/**
 * `[str(x) for x in value]` when the iteration is statically known: lists, tuples, dict keys, the
 * characters of a string, `prompt.VERBS`, and sets when their order does not matter.
 */
function strings(model: Model, raw: Value, ordered: boolean): string[] | undefined {
  const v = resolve(model, raw);
  let items: Value[];
  switch (v.kind) {
    case 'str':
      return [...v.value];
    case 'list':
    case 'tuple':
      items = v.items;
      break;
    case 'set':
      if (ordered) return undefined;
      items = v.items;
      break;
    case 'dict':
      items = v.entries.map((e) => e.key);
      break;
    case 'name':
    case 'attribute': {
      const path = v.kind === 'name' ? v.name : v.path;
      return qualify(model, path) === VERBS_CONSTANT ? [...VERBS] : undefined;
    }
    default:
      return undefined;
  }
  const out: string[] = [];
  for (const item of items) {
    const known = resolve(model, item);
    // Sets and dicts merge equal keys (1 == 1.0 == True), so only string keys keep str() exact.
    if ((v.kind === 'set' || v.kind === 'dict') && known.kind !== 'str') return undefined;
    const s = pyStr(known);
    if (s === undefined) return undefined;
    out.push(s);
  }
  return out;
}
