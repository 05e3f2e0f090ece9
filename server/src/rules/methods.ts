// `@vis.method(...)` (G2/G3, vis-sdk.md §2.5): MTH-001…MTH-004, checked where the decorator is
// written (on a method at any class depth, or called at module level).
import { reprValue } from '../contracts/symbols';
import { tagsOf, vocabularyList } from '../sdk/table';
import { isCallable, isKnown, qualify, resolve, sdkCall } from '../model/sdk';
import type { Call, ClassDecl, Decorator, FunctionDecl, Model } from '../model/types';
import { nearestValue, reportWith } from './fixes';
import type { Rule, RuleContext } from './types';
import { callsOf, positional, reportUnexpectedKeywords } from './util';

const METHOD = 'blockether.vis.extension.method';

type Decorated = { decorators: Decorator[]; fn?: FunctionDecl; cls?: ClassDecl };

/** Per declaration (they keep their identity while their statement does not change): its decorated parts. */
const decoratedParts = new WeakMap<FunctionDecl | ClassDecl, Decorated[]>();
const decoratedOfModel = new WeakMap<Model, Decorated[]>();

function partsOfClass(c: ClassDecl): Decorated[] {
  let parts = decoratedParts.get(c);
  if (!parts) {
    parts = [{ decorators: c.decorators, cls: c }, ...c.methods.map((m) => ({ decorators: m.decorators, fn: m })), ...c.classes.flatMap(partsOfClass)];
    decoratedParts.set(c, parts);
  }
  return parts;
}

function partsOfFunction(f: FunctionDecl): Decorated {
  let parts = decoratedParts.get(f);
  if (!parts) decoratedParts.set(f, (parts = [{ decorators: f.decorators, fn: f }]));
  return parts[0];
}

/** Every decorator in the file with the function it decorates, classes at any depth included. */
export function allDecorated(model: Model): Decorated[] {
  let out = decoratedOfModel.get(model);
  if (!out) {
    out = [];
    for (const f of model.functions) out.push(partsOfFunction(f));
    for (const c of model.classes) out.push(...partsOfClass(c));
    decoratedOfModel.set(model, out);
  }
  return out;
}

function isMethodDecorator(_model: Model, d: Decorator): boolean {
  return d.qualified === METHOD;
}

const methodCallCache = new WeakMap<Model, Call[]>();

/** Every `vis.method(...)` call: module-level ones and those in decorators of methods (found once per model). */
function methodCalls(model: Model): Call[] {
  let cached = methodCallCache.get(model);
  if (!cached) {
    const calls = new Set<Call>(callsOf(model, 'typed', 'method'));
    for (const { decorators } of allDecorated(model)) for (const d of decorators) if (d.call && isMethodDecorator(model, d)) calls.add(d.call);
    methodCallCache.set(model, (cached = [...calls]));
  }
  return cached;
}

function rule(id: string, summary: string, check: (ctx: RuleContext, call: Call) => void, fixable = false): Rule {
  return {
    id,
    severity: 'error',
    summary,
    fixable,
    check(ctx) {
      if (ctx.model.generation !== 'G2' && ctx.model.generation !== 'G3') return;
      for (const call of methodCalls(ctx.model)) ctx.unit(call, () => check(ctx, call));
    },
  };
}

export const methodRules: Rule[] = [
  rule('MTH-001', 'vis.method tag must be in the tag vocabulary.', (ctx, call) => {
    const arg = call.args.find((a) => a.name === 'tag');
    if (!arg) return;
    const v = resolve(ctx.model, arg.value);
    if (!isKnown(v)) return;
    const vocab = tagsOf(ctx.model);
    if (v.kind === 'str' && vocab.includes(v.value)) return;
    reportWith(ctx, arg.value.range, `vis.method tag must be ${vocabularyList(vocab)}, got ${reprValue(v)}`, nearestValue(ctx, v.kind === 'str' ? { ...v, range: arg.value.range } : undefined, vocab));
  }, true),
  rule('MTH-002', 'vis.method activity= must be a vis.Activity declaration.', (ctx, call) => {
    const arg = call.args.find((a) => a.name === 'activity');
    if (!arg) return;
    const v = resolve(ctx.model, arg.value);
    if (!isKnown(v) || v.kind === 'none') return;
    if (v.kind === 'call') {
      const s = sdkCall(v.call);
      if (!s || (s.flavour === 'typed' && s.member === 'Activity')) return;
    }
    ctx.report(arg.value.range, 'activity must be a vis.Activity declaration');
  }),
  {
    id: 'MTH-003',
    severity: 'error',
    summary: 'vis.method must decorate a callable (not a property).',
    check(ctx) {
      const { model } = ctx;
      if (model.generation !== 'G2' && model.generation !== 'G3') return;
      for (const { decorators } of allDecorated(model)) {
        decorators.forEach((d, i) => {
          if (!isMethodDecorator(model, d)) return;
          // Decorators apply bottom-up: vis.method receives what the decorator below it returned.
          const below = decorators[i + 1];
          const q = below?.name ? (qualify(model, below.name) ?? below.name) : undefined;
          const shadowed = below?.name === 'property' && model.bindings.has('property');
          if ((q === 'property' && !shadowed) || q === 'functools.cached_property' || /\.(setter|getter|deleter)$/.test(below?.name ?? '')) {
            ctx.report(d.range, 'vis.method(...) requires a callable method');
          }
        });
      }
      // vis.method(value) called directly with a value that is not callable.
      for (const call of callsOf(model, 'typed', 'method')) {
        const first = positional(call)[0];
        if (!first) continue;
        const v = resolve(model, first.value);
        if (v.kind !== 'none' && isCallable(v) === false) ctx.report(first.range, 'vis.method(...) requires a callable method');
      }
    },
  },
  rule('MTH-004', 'vis.method takes at most one positional argument, and keywords tag, is_hidden, activity.', (ctx, call) => {
    if (call.args.some((a) => a.splat)) return;
    const pos = positional(call);
    if (pos.length > 1) {
      ctx.report({ start: pos[1].range.start, end: pos[pos.length - 1].range.end }, `method() takes from 0 to 1 positional arguments but ${pos.length} were given`);
    }
    reportUnexpectedKeywords(ctx, call);
  }),
];
