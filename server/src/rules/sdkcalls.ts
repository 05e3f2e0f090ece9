// The other typed-SDK calls with errors of their own (vis-sdk.md §2.13), wherever they are called (a tool
// body, a hook, a render callback): `vis.block` (its arguments only: `hint=` exists from @fb4b47f0 on),
// `vis.repair` (MISC-002), the shells (MISC-003, also G1), calling `vis.tools` itself (MISC-004),
// `vis.council.wake` kinds (MISC-005, a warning: only its type names them), live `vis.heading` /
// `vis.paragraph` options (MISC-006) and the SDK's own refusals of `vis.ask` forms (MISC-009). The
// engine's refusals of a form's keys and field types (§5.3) are checked with the other runtime calls.
import { pyRepr } from '../model/literals';
import { isCallable, isKnown, resolve } from '../model/sdk';
import type { SdkFlavour, Value } from '../model/types';
import { memberOfCall, vocabularyList, vocabularyValues } from '../sdk/table';
import { accepts, at, callRule, familyRules, itemsOf, paramsOfCallable, type CallCheck, type CallFamily, type Failure, type RuleDoc } from './declaration';
import type { Rule } from './types';

const isDict = (v: Value) => v.kind === 'dict' || (v.kind === 'comprehension' && v.of === 'dict');

function repair(c: CallCheck): Failure | undefined {
  const source = c.arg('source');
  if (source && isKnown(source) && source.kind !== 'str') return at(source, 'Repair source must be a string');
  const notes = c.arg('notes');
  if (!notes || !isKnown(notes) || notes.kind === 'str' || (notes.kind === 'comprehension' && notes.of === 'list')) return undefined;
  const items = itemsOf(c.model, notes);
  const bad = !items || items.length === 0 || items.some((i) => isKnown(i) && i.kind !== 'str');
  return bad ? at(notes, 'Repair notes must be a non-empty sequence of strings') : undefined;
}

function shell(c: CallCheck): Failure | undefined {
  const opts = c.arg('opts');
  const name = c.member.name;
  return opts && isKnown(opts) && !isDict(opts) ? at(opts, `${name} takes one options map — use ${name}({'command': 'ls'})`) : undefined;
}

/** A key of a field spec dict, resolved. */
function entry(c: CallCheck, spec: Extract<Value, { kind: 'dict' }>, key: string): Value | undefined {
  const e = spec.entries.find((x) => {
    const k = resolve(c.model, x.key);
    return k.kind === 'str' && k.value === key;
  });
  return e && { ...resolve(c.model, e.value), range: e.value.range };
}

/** `vis.ask(title, fields)`: the SDK's TypeErrors, before the engine sees the form. */
function askForm(c: CallCheck): Failure | undefined {
  const fields = c.arg('fields');
  if (!fields || !isKnown(fields) || (fields.kind === 'comprehension' && fields.of === 'list')) return undefined;
  const items = itemsOf(c.model, fields);
  if (!items || !items.length) return at(fields, 'a form needs a non-empty list of field specs');
  for (const spec of items) {
    // A form builder (`vis.plaintext(...)`) returns a field spec dict.
    if (!isKnown(spec) || (spec.kind === 'call' && memberOfCall(c.model, spec.call)?.returns === 'dict')) continue;
    if (spec.kind !== 'dict') return isDict(spec) ? undefined : at(spec, 'each field spec is a dict of snake_case string keys');
    const key = spec.entries.map((e) => resolve(c.model, e.key)).find((k) => isKnown(k) && k.kind !== 'str');
    if (key) return at(key, 'each field spec is a dict of snake_case string keys');
    const validate = entry(c, spec, 'validate');
    if (!validate || validate.kind === 'none') continue;
    const fns = itemsOf(c.model, validate) ?? [validate];
    for (const fn of fns) {
      if (isCallable(fn) === false) return at(fn, 'validate is a function, or a list of functions, taking the value (and optionally every value) and answering None or a message string');
      const params = paramsOfCallable(c.model, fn);
      if (params && !accepts(params, 1) && !accepts(params, 2)) return at(fn, 'a validate function takes the value, or the value and every value - this one takes neither');
    }
    const named = [entry(c, spec, 'name'), entry(c, spec, 'id')];
    if (named.every((n) => n === undefined) && spec.entries.every((e) => isKnown(resolve(c.model, e.key)))) return at(spec, 'a field with validate needs a name');
  }
  return undefined;
}

/** `heading(id, text, level=...)` is a live node: options without the text are refused. */
function liveOptions(c: CallCheck): Failure | undefined {
  const options = c.call.args.find((a) => a.name !== undefined && a.name !== 'text' && a.name !== 'live_text');
  if (!options || c.call.args.some((a) => a.splat)) return undefined;
  const live = c.arg('live_text');
  return !live || live.kind === 'none' ? { range: options.nameRange ?? options.range, message: `live ${c.member.name} options require both id and text` } : undefined;
}

const DOCS: RuleDoc[] = [
  { id: 'MISC-002', summary: 'vis.repair takes the corrected source as a string and a non-empty list of notes.' },
  { id: 'MISC-003', summary: "vis.shell, vis.jailed_shell and vis.jailed_shell_session take one options map, such as {'command': 'ls'}." },
  { id: 'MISC-004', summary: 'vis.tools is not a tool: call one of its tools, such as vis.tools.spel.reserve(...).' },
  { id: 'MISC-006', summary: 'Live vis.heading / vis.paragraph options come with both the id and the text.' },
  { id: 'MISC-009', summary: "vis.ask takes a non-empty list of field specs, each a dict of string keys, validators that take the value (and every value), and a name for a validated field." },
];

const shells = (flavour: SdkFlavour): CallFamily[] => ['shell', 'jailed_shell', 'jailed_shell_session'].map((member) => ({ flavour, member, steps: [{ id: 'MISC-003', check: shell }] }));

export const sdkCallFamilies: CallFamily[] = [
  // No checks of its own: its arguments are str()-coerced; `hint=` binds only where the SDK has it.
  { flavour: 'typed', member: 'block', steps: [] },
  { flavour: 'g1', member: 'block', steps: [] },
  { flavour: 'typed', member: 'repair', steps: [{ id: 'MISC-002', check: repair }] },
  ...shells('typed'),
  ...shells('g1'),
  { flavour: 'typed', member: 'tools', steps: [{ id: 'MISC-004', check: (c) => ({ range: c.call.calleeRange, message: 'vis.tools is not a tool; call one, such as vis.tools.spel.reserve(...)' }) }] },
  { flavour: 'typed', member: 'heading', steps: [{ id: 'MISC-006', check: liveOptions }] },
  { flavour: 'typed', member: 'paragraph', steps: [{ id: 'MISC-006', check: liveOptions }] },
  { flavour: 'typed', member: 'ask', steps: [{ id: 'MISC-009', check: askForm }] },
  { flavour: 'g1', member: 'ask', steps: [{ id: 'MISC-009', check: askForm }] },
];

export const sdkCallRules: Rule[] = [
  ...familyRules(DOCS, sdkCallFamilies),
  callRule({ id: 'MISC-005', summary: 'vis.council.wake kind is complain, coordination or informational (only its type says so; the SDK passes any other on).' }, 'typed', 'council.wake', (c) => {
    const kind = c.arg('kind');
    const kinds = vocabularyValues('council-kind', c.scope);
    if (kind && isKnown(kind) && !(kind.kind === 'str' && kinds.includes(kind.value))) {
      c.ctx.report(kind.range, `council.wake kind must be ${vocabularyList(kinds)}${kind.kind === 'str' ? `, got ${pyRepr(kind.value)}` : ''}: its type names no other kind`);
    }
  }),
];
