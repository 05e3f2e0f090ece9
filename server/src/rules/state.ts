// What tools and callbacks write to durable state (`vis.state`, vis-sdk.md §5.1): plain data only (dict,
// list, str, number, bool), stored by the extension name. A set, bytes, a datetime or an instance is not
// plain data, and a tuple comes back as a list (warnings); writing None deletes the key (information).
import { classNamed, resolve } from '../model/sdk';
import { runtimeBodies, type Body } from '../model/runtime';
import type { Call, Model, Range, Value } from '../model/types';
import { pyRepr } from '../model/literals';
import type { Rule, RuleContext } from './types';
import { everyCallOf, type PlacedCall } from './util';

/** Builtins and standard types whose values are not plain data, by the name they are called through. */
const NOT_PLAIN: Record<string, string> = {
  set: 'a set',
  frozenset: 'a set',
  tuple: 'a tuple',
  bytes: 'bytes',
  bytearray: 'bytes',
  'datetime.datetime': 'a datetime',
  'datetime.date': 'a date',
  'datetime.datetime.now': 'a datetime',
  'datetime.datetime.utcnow': 'a datetime',
  'datetime.datetime.fromisoformat': 'a datetime',
  'datetime.datetime.fromtimestamp': 'a datetime',
  'datetime.date.today': 'a date',
  'pathlib.Path': 'a Path',
  'decimal.Decimal': 'a Decimal',
};

const PLAIN = 'vis.state keeps plain data (dict, list, str, number, bool)';

interface Problem {
  range: Range;
  what: string;
}

/** The first part of a value written to state that is not plain data, where it is written. */
function notPlain(model: Model, raw: Value, value: (v: Value) => Value, qualify: (dotted: string) => string | undefined, depth = 0): Problem | undefined {
  if (depth > 32) return undefined;
  const v = value(raw);
  const at = (what: string): Problem => ({ range: raw.range, what });
  switch (v.kind) {
    case 'set':
      return at('a set');
    case 'tuple':
      return at('a tuple');
    case 'bytes':
      return at('bytes');
    case 'lambda':
    case 'function':
      return at('a function');
    case 'class':
      return at('a class');
    case 'comprehension':
      return v.of === 'set' ? at('a set') : v.of === 'generator' ? at('a generator') : undefined;
    case 'list':
      for (const i of v.items) {
        const p = notPlain(model, i, value, qualify, depth + 1);
        if (p) return p;
      }
      return undefined;
    case 'dict':
      for (const e of v.entries) {
        const p = notPlain(model, e.value, value, qualify, depth + 1);
        if (p) return p;
      }
      return undefined;
    case 'call': {
      const call: Call = v.call;
      if (call.inner || call.args.some((a) => a.splat)) return undefined;
      // A builtin is called by its own name (no import binds `set`); anything else through its import.
      const name = qualify(call.callee) ?? (!model.bindings.has(call.callee) && value({ kind: 'name', name: call.callee, range: raw.range, text: call.callee }).kind === 'name' ? call.callee : undefined);
      if (name && NOT_PLAIN[name]) return at(NOT_PLAIN[name]);
      const cls = !call.callee.includes('.') ? classNamed(model, call.callee) : undefined;
      if (cls && qualify(call.callee) === undefined && value({ kind: 'name', name: call.callee, range: raw.range, text: call.callee }).kind === 'class') return at(`a ${cls.name} instance`);
      return undefined;
    }
    default:
      return undefined;
  }
}

function advice(what: string): string {
  if (what === 'a tuple') return `${PLAIN}: a tuple reads back as a list`;
  if (what === 'a set') return `${PLAIN}, not a set: store a list`;
  if (what === 'a datetime' || what === 'a date') return `${PLAIN}, not ${what}: store its isoformat() or a timestamp`;
  if (what.endsWith(' instance')) return `${PLAIN}, not ${what}: store a dict (dataclasses.asdict)`;
  return `${PLAIN}, not ${what}`;
}

/** `vis.state[key] = value` in bodies, and the values `vis.state.update(...)` and `setdefault(...)` write. */
function* writes(ctx: RuleContext): Generator<{ key?: Value; value: Value; range: Range; valueOf: (v: Value) => Value; qualify: (d: string) => string | undefined }> {
  const model = ctx.model;
  const stateOf = (b: Body, object: Value): boolean => {
    const dotted = object.kind === 'name' ? object.name : object.kind === 'attribute' ? object.path : undefined;
    const q = dotted !== undefined ? b.qualify(dotted) : undefined;
    return q === 'vis.state' || q === 'blockether.vis.extension.state';
  };
  for (const b of runtimeBodies(model)) {
    const valueOf = (v: Value) => (v.kind === 'name' && b.local(v.name) ? v : resolve(model, v));
    for (const s of b.flow.stores) if (stateOf(b, s.object)) yield { key: s.key, value: s.value, range: s.range, valueOf, qualify: b.qualify };
  }
  const placed = (members: string[]): PlacedCall[] => members.flatMap((m) => everyCallOf(ctx, m));
  for (const p of placed(['state.update'])) {
    for (const a of p.call.args) {
      if (a.splat) continue;
      if (a.name !== undefined) yield { value: a.value, range: a.range, valueOf: p.value, qualify: p.qualify };
      else {
        const d = p.value(a.value);
        if (d.kind === 'dict') for (const e of d.entries) yield { key: e.key, value: e.value, range: e.value.range, valueOf: p.value, qualify: p.qualify };
      }
    }
  }
  for (const p of placed(['state.setdefault'])) {
    const [key, value] = p.call.args;
    if (value && !value.name && !value.splat && !key.splat) yield { key: key.value, value: value.value, range: value.range, valueOf: p.value, qualify: p.qualify };
  }
}

export const stateRules: Rule[] = [
  {
    id: 'STATE-001',
    severity: 'warning',
    summary: 'Values written to vis.state are plain data: dict, list, str, number, bool (a tuple comes back as a list).',
    check(ctx) {
      for (const w of writes(ctx)) {
        const p = notPlain(ctx.model, w.value, w.valueOf, w.qualify);
        if (p) ctx.report(p.range, advice(p.what));
      }
    },
  },
  {
    id: 'STATE-002',
    severity: 'information',
    summary: 'Writing None to vis.state deletes the key: say so with del or pop.',
    check(ctx) {
      for (const w of writes(ctx)) {
        if (w.valueOf(w.value).kind !== 'none' || w.value.kind !== 'none') continue;
        const key = w.key && w.valueOf(w.key);
        const name = key?.kind === 'str' ? ` ${pyRepr(key.value)}` : '';
        ctx.report(w.value.range, `writing None deletes${name ? ` the key${name}` : ' the key'} (a stored None reads as missing): write del vis.state[${key?.kind === 'str' ? pyRepr(key.value) : '...'}] or vis.state.pop(...) to say so`);
      }
    },
  },
];
