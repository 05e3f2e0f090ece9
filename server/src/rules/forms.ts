// Dialogs and live views (vis-sdk.md §5.3): `vis.ask(title, fields, **options)`, the form builders and
// `vis.live(title, nodes, **options)`. The SDK's own TypeErrors on the field specs and their validators
// (MISC-009, with the other typed-SDK calls) come first: a dialog they refuse never reaches the engine.
// Then what the engine refuses in the request (ASK-002, its words as the outside host words them), one
// error per dialog, the first one met; every key is snake_case
// (ASK-001 for forms, LIVE-001 for live views); live node ids are given and unique (LIVE-002). A form whose
// fields are not all statically known is checked as far as it is known, never guessed.
import { functionNamed } from '../model/sdk';
import { pyRepr, pyStrip } from '../model/literals';
import type { Argument, Call, Param, Range, Value } from '../model/types';
import { moduleOf, scopeOf, sdkMemberByQualified, sdkMembers, vocabularyValues, type SdkMember } from '../sdk/table';
import type { Fix, Rule, RuleContext } from './types';
import { everyCallOf, fixable, type PlacedCall } from './util';

/** A field spec or node as the host receives it: its keys, where each is written. */
interface Node {
  /** `type` as given (plaintext by default for a form field). */
  type?: string;
  keys: Map<string, { value: Value; keyRange: Range }>;
  /** Child nodes of a group, when all are known. */
  children?: (Node | undefined)[];
  range: Range;
  /** Built by a builder (a dict, so no SDK TypeError). */
  built: boolean;
}

const FIELD_TYPES = vocabularyValues('field-type');
const DECORATIONS = vocabularyValues('form-node').filter((t) => t !== 'group');

/** snake_case: lower-case letters, digits and underscores. */
function snake(key: string): string | undefined {
  if (!/[A-Z-]/.test(key)) return undefined;
  return key
    .replace(/-/g, '_')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase();
}

/** The SDK member a call in the form is, through the imports where it is written. */
function memberOf(ctx: RuleContext, placed: PlacedCall, call: Call): SdkMember | undefined {
  if (call.inner) return undefined;
  const q = placed.qualify(call.callee);
  return q ? sdkMemberByQualified(scopeOf(ctx.model), q) : undefined;
}

/** A node from a value written in a form or a view: a dict display or a builder call; undefined when not known. */
function nodeOf(ctx: RuleContext, placed: PlacedCall, raw: Value, depth = 0): Node | 'not a dict' | undefined {
  if (depth > 16) return undefined;
  const v = placed.value(raw);
  if (v.kind === 'dict') {
    const keys = new Map<string, { value: Value; keyRange: Range }>();
    for (const e of v.entries) {
      const k = placed.value(e.key);
      if (k.kind !== 'str') return undefined;
      keys.set(k.value, { value: e.value, keyRange: e.key.range });
    }
    const type = keys.get('type') && placed.value(keys.get('type')!.value);
    const fields = keys.get('fields') && placed.value(keys.get('fields')!.value);
    const children = fields && (fields.kind === 'list' || fields.kind === 'tuple') ? fields.items.map((i) => asNode(nodeOf(ctx, placed, i, depth + 1))) : undefined;
    return { type: type?.kind === 'str' ? type.value : type ? undefined : 'plaintext', keys, children, range: raw.range, built: false };
  }
  if (v.kind === 'call') {
    const member = memberOf(ctx, placed, v.call);
    if (!member?.node || v.call.args.some((a) => a.splat)) return undefined;
    const keys = new Map<string, { value: Value; keyRange: Range }>();
    const positional = v.call.args.filter((a) => a.name === undefined);
    for (const a of v.call.args) if (a.name !== undefined) keys.set(a.name, { value: a.value, keyRange: a.nameRange ?? a.range });
    const type = member.node.type;
    if (type === 'group') {
      const items = positional.filter((a, i) => !(i === 0 && placed.value(a.value).kind === 'str'));
      return { type, keys, children: items.map((a) => asNode(nodeOf(ctx, placed, a.value, depth + 1))), range: raw.range, built: true };
    }
    // `vis.select("env", [...])`: the name, then (for a choice) the options, positionally.
    if (positional[0]) keys.set(type === 'heading' || type === 'paragraph' ? 'text' : 'name', { value: positional[0].value, keyRange: positional[0].range });
    if (positional[1] && (type === 'select' || type === 'multiselect')) keys.set('options', { value: positional[1].value, keyRange: positional[1].range });
    return { type, keys, range: raw.range, built: true };
  }
  if (v.kind === 'str' || v.kind === 'int' || v.kind === 'float' || v.kind === 'bool' || v.kind === 'none' || v.kind === 'list' || v.kind === 'tuple' || v.kind === 'set') return 'not a dict';
  return undefined;
}

function asNode(n: Node | 'not a dict' | undefined): Node | undefined {
  return n === 'not a dict' ? undefined : n;
}

interface Refusal {
  rule: 'MISC-009' | 'engine';
  message: string;
  range: Range;
}

/** Python's `_validator_arity`: 1 or 2 positional parameters (or `*args`), no required keyword-only one. */
function validatorFits(params: readonly Param[]): boolean {
  let positional = 0;
  let required = 0;
  for (const p of params) {
    if (p.kind === 'positional_only' || p.kind === 'positional_or_keyword') {
      positional++;
      if (p.defaultValue === undefined) required++;
    } else if (p.kind === 'var_positional') return true;
    else if (p.kind === 'keyword_only' && p.defaultValue === undefined) return false;
  }
  return positional >= 1 && required <= 2;
}

/** The parameters of a validator, when it is a lambda or a module-level function (else unknown). */
function paramsOfCallable(ctx: RuleContext, placed: PlacedCall, raw: Value): readonly Param[] | undefined {
  const v = placed.value(raw);
  if (v.kind === 'lambda') return v.params;
  if (v.kind === 'function') {
    const fn = functionNamed(ctx.model, v.name);
    return fn && !fn.decorators.length ? fn.params : undefined;
  }
  return undefined;
}

const NOT_CALLABLE = new Set(['str', 'bytes', 'int', 'float', 'complex', 'bool', 'dict', 'set', 'comprehension']);

/** The SDK's TypeErrors on one field spec and its validators (`_field_specs`), walking into groups. */
function specRefusal(ctx: RuleContext, placed: PlacedCall, raw: Value, depth = 0): Refusal | undefined {
  const node = nodeOf(ctx, placed, raw);
  if (node === 'not a dict') return { rule: 'MISC-009', message: 'each field spec is a dict of snake_case string keys', range: raw.range };
  if (!node) return undefined;
  const validate = node.keys.get('validate');
  if (validate) {
    const v = placed.value(validate.value);
    const checks = v.kind === 'list' || v.kind === 'tuple' ? v.items : v.kind === 'none' ? [] : [validate.value];
    const notCallable = (c: Value) => NOT_CALLABLE.has(placed.value(c).kind);
    if ((v.kind === 'list' || v.kind === 'tuple') && (v.items.length === 0 || v.items.some(notCallable))) return validateMessage(validate.value.range);
    if (v.kind !== 'list' && v.kind !== 'tuple' && v.kind !== 'none' && notCallable(validate.value)) return validateMessage(validate.value.range);
    for (const c of checks) {
      const params = paramsOfCallable(ctx, placed, c);
      if (params && !validatorFits(params)) return { rule: 'MISC-009', message: 'a validate function takes the value, or the value and every value - this one takes neither', range: c.range };
    }
    if (v.kind !== 'none') {
      const name = node.keys.get('name') ?? node.keys.get('id');
      const n = name && placed.value(name.value);
      if (!name || (n && (n.kind === 'str' ? pyStrip(n.value) === '' : n.kind === 'none'))) return { rule: 'MISC-009', message: 'a field with validate needs a name', range: validate.keyRange };
    }
  }
  // Only a dict spec's `fields` are walked by the SDK; a builder's children were already checked where built.
  if (!node.built && depth < 16) {
    const fields = node.keys.get('fields');
    const f = fields && placed.value(fields.value);
    if (f && (f.kind === 'list' || f.kind === 'tuple')) {
      for (const child of f.items) {
        const r = specRefusal(ctx, placed, child, depth + 1);
        if (r) return r;
      }
    }
  }
  return undefined;
}

function validateMessage(range: Range): Refusal {
  return { rule: 'MISC-009', message: 'validate is a function, or a list of functions, taking the value (and optionally every value) and answering None or a message string', range };
}

/** What the engine refuses in a request (`_check_request`, `_check_node`), or undefined when it is fine or not known. */
function requestRefusal(placed: PlacedCall, title: Value | undefined, nodes: (Node | undefined)[], fieldsRange: Range): Refusal | undefined {
  if (title?.kind === 'str' && pyStrip(title.value) === '') return { rule: 'engine', message: 'a request needs a title', range: title.range };
  const seen = new Set<string>();
  const refuse = (message: string, range: Range): Refusal => ({ rule: 'engine', message, range });
  const str = (n: Node, key: string) => {
    const k = n.keys.get(key);
    const v = k && placed.value(k.value);
    return v?.kind === 'str' ? v.value : undefined;
  };
  const num = (n: Node, key: string, dflt: number): number | undefined => {
    const k = n.keys.get(key);
    if (!k) return dflt;
    const v = placed.value(k.value);
    return v.kind === 'int' || v.kind === 'float' ? v.value : undefined;
  };
  let known = true;
  const check = (n: Node | undefined): Refusal | undefined => {
    if (!n || n.type === undefined) {
      known = false;
      return undefined;
    }
    if (n.type === 'group') {
      if (!n.children) {
        known = false;
        return undefined;
      }
      if (n.children.length === 0) return refuse('a group must arrange at least one field', n.range);
      for (const c of n.children) {
        const r = check(c);
        if (r) return r;
      }
      return undefined;
    }
    if (DECORATIONS.includes(n.type)) {
      const name = n.keys.get('name');
      const v = name && placed.value(name.value);
      if (v && (v.kind === 'str' ? v.value !== '' : v.kind !== 'none' && v.kind !== 'bool' && v.kind !== 'int')) return refuse(`a ${n.type} reads, it does not answer, so it takes no name`, name!.keyRange);
      return undefined;
    }
    if (!FIELD_TYPES.includes(n.type)) return refuse(`unknown field type ${pyRepr(n.type)} — one of ${[...FIELD_TYPES].sort().join(', ')}`, n.keys.get('type')?.value.range ?? n.range);
    // `id` is the synonym of `name` (vis-sdk.md §5.3).
    const nameOf = n.keys.has('name') ? 'name' : 'id';
    const nameKey = n.keys.get(nameOf);
    const nameValue = nameKey && placed.value(nameKey.value);
    if (nameKey && nameValue?.kind !== 'str') {
      if (nameValue?.kind === 'none') return refuse('every field needs a name: it is what keys the answer', nameKey.value.range);
      known = false;
      return undefined;
    }
    const name = str(n, nameOf);
    if (name === undefined || pyStrip(name) === '') return refuse('every field needs a name: it is what keys the answer', nameKey?.value.range ?? n.range);
    if (seen.has(name)) return refuse(`two fields are named ${pyRepr(name)}`, nameKey!.value.range);
    seen.add(name);
    if (n.type === 'select' || n.type === 'multiselect') {
      const o = n.keys.get('options');
      const v = o && placed.value(o.value);
      if (!o || v?.kind === 'none' || ((v?.kind === 'list' || v?.kind === 'tuple') && v.items.length === 0)) return refuse(`${pyRepr(name)} is a ${n.type} and needs options to pick from`, o?.value.range ?? n.range);
    }
    if (n.type === 'otp') {
      const boxes = num(n, 'max_length', NaN);
      const fallback = Number.isNaN(boxes ?? 0) ? num(n, 'min_length', 6) : boxes;
      if (fallback !== undefined && Number.isInteger(fallback) && fallback > 12) return refuse(`${pyRepr(name)} asks for ${fallback} boxes, more than the 12 a dialog fits`, n.keys.get('max_length')?.value.range ?? n.keys.get('min_length')?.value.range ?? n.range);
    }
    if (n.type === 'range') {
      const low = num(n, 'min', 0);
      const high = num(n, 'max', 100);
      const step = num(n, 'step', 1);
      if (low !== undefined && high !== undefined && low >= high) return refuse(`${pyRepr(name)} has min ${pyNumber(low)} and max ${pyNumber(high)}: a track needs room`, n.keys.get('max')?.value.range ?? n.keys.get('min')!.value.range);
      if (step !== undefined && step <= 0) return refuse(`${pyRepr(name)} has step ${pyNumber(step)}: a track advances`, n.keys.get('step')!.value.range);
    }
    return undefined;
  };
  for (const n of nodes) {
    const r = check(n);
    if (r) return r;
  }
  if (known && seen.size === 0) return refuse('a request needs at least one field that answers', fieldsRange);
  return undefined;
}

/** A number as Python prints it (`1.0` for a float written so). */
function pyNumber(n: number, text?: string): string {
  return text && /^[0-9.eE+-]+$/.test(text) ? text : String(n);
}

/** The first refusal of one `vis.ask(...)` call: the SDK's TypeErrors, then the engine's. */
function askRefusal(ctx: RuleContext, placed: PlacedCall): Refusal | undefined {
  const call = placed.call;
  if (call.args.some((a) => a.splat)) return undefined;
  const [titleArg, fieldsArg] = call.args.filter((a) => a.name === undefined);
  const byName = (n: string) => call.args.find((a) => a.name === n);
  const title = titleArg ?? byName('title');
  const fields = fieldsArg ?? byName('fields');
  if (!fields) return undefined;
  const f = placed.value(fields.value);
  const known = ['list', 'tuple', 'str', 'dict', 'set', 'int', 'float', 'bool', 'none'].includes(f.kind);
  if (!known) return undefined;
  if ((f.kind !== 'list' && f.kind !== 'tuple') || f.items.length === 0) return { rule: 'MISC-009', message: 'a form needs a non-empty list of field specs', range: fields.value.range };
  for (const item of f.items) {
    const r = specRefusal(ctx, placed, item);
    if (r) return r;
  }
  return requestRefusal(placed, title && placed.value(title.value), f.items.map((i) => asNode(nodeOf(ctx, placed, i))), fields.value.range);
}

/** The engine's refusals (ASK-002), on dialogs the SDK lets through: where its TypeErrors come first (MISC-009), the engine never sees the request. */
const askRequests: Rule = {
  id: 'ASK-002',
  severity: 'error',
  summary: 'What the engine refuses in a vis.ask request: a blank title, an unknown field type, a field without a name, two fields with one name, a choice without options, too many otp boxes, a range with no room, no field that answers.',
  check(ctx) {
    for (const placed of everyCallOf(ctx, 'ask')) {
      const r = askRefusal(ctx, placed);
      if (r?.rule === 'engine') ctx.report(r.range, r.message);
    }
  },
};

/** camelCase and kebab-case keys, with the snake_case spelling Vis names. */
function keyRule(id: string, where: 'form' | 'live', summary: string): Rule {
  return {
    id,
    severity: 'error',
    summary,
    check(ctx) {
      const g = ctx.model.generation;
      if (!g) return;
      const module = moduleOf(g === 'G1' ? 'g1' : 'typed');
      const report = (key: string, range: Range, what: string, isName: boolean, text?: string) => {
        const right = snake(key);
        if (!right) return;
        const fix: Fix = { title: `Change to ${right}`, edits: [{ range, newText: isName ? right : (text ?? '"').replace(/^([rRuU]?)(['"]).*\2$/s, `$1$2${right}$2`) }] };
        ctx.report(range, `${what} ${pyRepr(key)} is not snake_case: Vis refuses it; write ${pyRepr(right)}`, fix);
      };
      const keywords = (call: Call, what: string) => {
        for (const a of call.args) if (a.name !== undefined) report(a.name, a.nameRange ?? a.range, what, true);
      };
      const dictKeys = (placed: PlacedCall, raw: Value, depth = 0) => {
        const v = placed.value(raw);
        if (depth > 16) return;
        if (v.kind === 'dict') {
          for (const e of v.entries) {
            const k = placed.value(e.key);
            if (k.kind === 'str') report(k.value, e.key.range, where === 'form' ? 'field key' : 'node key', false, e.key.text);
            if (k.kind === 'str' && k.value === 'fields') dictKeys(placed, e.value, depth + 1);
          }
        } else if (v.kind === 'list' || v.kind === 'tuple') for (const i of v.items) dictKeys(placed, i, depth + 1);
      };
      // The builders' keywords, wherever the builders are called.
      // (A builder of both, `row` or `heading`, is checked once, as a form's.)
      for (const member of sdkMembers(scopeOf(ctx.model), module)) {
        const used = member.node?.in;
        if (!used || (where === 'form' ? used === 'live' : used !== 'live')) continue;
        for (const placed of everyCallOf(ctx, member.name)) keywords(placed.call, where === 'form' ? 'field key' : 'node key');
      }
      // The dialog's or the view's own options, and the dict specs written in it.
      for (const placed of everyCallOf(ctx, where === 'form' ? 'ask' : 'live')) {
        const options = placed.call.args.filter((a: Argument) => a.name !== undefined && a.name !== 'title' && a.name !== 'fields' && a.name !== 'nodes');
        for (const a of options) report(a.name!, a.nameRange ?? a.range, where === 'form' ? 'dialog option' : 'view option', true);
        const items = placed.call.args.find((a) => a.name === (where === 'form' ? 'fields' : 'nodes')) ?? placed.call.args.filter((a) => a.name === undefined)[1];
        if (items) dictKeys(placed, items.value);
      }
    },
  };
}

/** Live node ids: given, and one node per id (`_live_check_node`). */
const liveIds: Rule = {
  id: 'LIVE-002',
  severity: 'error',
  summary: 'Every node of a vis.live view has a non-blank id, and no two nodes share one.',
  check(ctx) {
    for (const placed of everyCallOf(ctx, 'live')) {
      const nodesArg = placed.call.args.find((a) => a.name === 'nodes') ?? placed.call.args.filter((a) => a.name === undefined)[1];
      if (!nodesArg || placed.call.args.some((a) => a.splat)) continue;
      const list = placed.value(nodesArg.value);
      if (list.kind !== 'list' && list.kind !== 'tuple') continue;
      const seen = new Set<string>();
      const walk = (raw: Value, depth: number): boolean => {
        const v = placed.value(raw);
        if (v.kind !== 'call' || depth > 16) return false;
        const member = memberOf(ctx, placed, v.call);
        if (!member?.node || v.call.args.some((a) => a.splat)) return false;
        const positional = v.call.args.filter((a) => a.name === undefined);
        const first = positional[0] && placed.value(positional[0].value);
        const isGroup = member.node.type === 'group';
        // A row or column in a live view takes its id first; the other nodes take it as their first argument.
        const id = first?.kind === 'str' ? first.value : undefined;
        if (first && first.kind !== 'str' && !isGroup) return false;
        if (id !== undefined || !isGroup) {
          if (id === undefined || pyStrip(id) === '') {
            ctx.report(positional[0]?.value.range ?? v.call.calleeRange, `a ${member.node.type} node needs an id`);
            return true;
          }
          if (seen.has(id)) {
            ctx.report(positional[0].value.range, `two nodes answer to ${pyRepr(id)}`);
            return true;
          }
          seen.add(id);
        }
        if (isGroup) for (const child of positional.slice(id !== undefined ? 1 : 0)) if (walk(child.value, depth + 1)) return true;
        return false;
      };
      for (const item of list.items) if (walk(item, 0)) break;
    }
  },
};

export const formRules: Rule[] = [
  fixable(keyRule('ASK-001', 'form', 'Field keys, builder keywords and dialog options are snake_case: Vis refuses camelCase and kebab-case keys.')),
  askRequests,
  fixable(keyRule('LIVE-001', 'live', 'Live-view node keywords and view options are snake_case: Vis refuses camelCase keys.')),
  liveIds,
];
