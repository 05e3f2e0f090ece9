// `@vis.sequence(field=...)` (G3, vis-sdk.md §2.6): SEQ-001…SEQ-004 where the decorator is written.
import { scopeOf } from '../contracts/scope';
import { dataclassFields } from '../contracts/typespec';
import { mro } from '../contracts/objects';
import { isKnown, resolve } from '../model/sdk';
import type { ClassDecl, Decorator, Model } from '../model/types';
import { allDecorated } from './methods';
import { swapLines } from '../fixes/edits';
import { nearestValue, reportWith } from './fixes';
import type { Rule, RuleContext } from './types';
import { isIdentifier, positional } from './util';

const SEQUENCE = 'blockether.vis.extension.sequence';

type SequenceUse = { d: Decorator; cls: ClassDecl; index: number; decorators: Decorator[] };
const uses = new WeakMap<Model, SequenceUse[]>();

/** Every `@vis.sequence` decorator on a class, found once per model (decorators are qualified by the model). */
function sequenceDecorators(model: Model): SequenceUse[] {
  let out = uses.get(model);
  if (out) return out;
  out = [];
  for (const { decorators, cls } of allDecorated(model)) {
    if (!cls) continue;
    decorators.forEach((d, index) => {
      if (d.qualified === SEQUENCE) out!.push({ d, cls, index, decorators });
    });
  }
  uses.set(model, out);
  return out;
}

function rule(id: string, summary: string, check: (ctx: RuleContext, s: ReturnType<typeof sequenceDecorators>[number]) => void, fixable = false): Rule {
  return {
    id,
    severity: 'error',
    summary,
    fixable,
    check(ctx) {
      if (ctx.model.generation !== 'G3') return;
      for (const s of sequenceDecorators(ctx.model)) ctx.unit(s.d, () => check(ctx, s));
    },
  };
}

function fieldValue(ctx: RuleContext, d: Decorator) {
  const arg = d.call?.args.find((a) => a.name === 'field');
  return arg ? { arg, v: resolve(ctx.model, arg.value) } : undefined;
}

function isDataclassDecorator(_model: Model, d: Decorator): boolean {
  return d.qualified === 'dataclasses.dataclass';
}

export const sequenceRules: Rule[] = [
  rule('SEQ-001', 'vis.sequence takes field= as a keyword argument.', (ctx, { d }) => {
    if (!d.call) {
      ctx.report(d.range, 'sequence() takes 0 positional arguments but 1 was given');
      return;
    }
    if (d.call.args.some((a) => a.splat)) return;
    const pos = positional(d.call);
    // `@vis.sequence("results")` → `@vis.sequence(field="results")`: the one positional argument is the field.
    const named = pos.length === 1 && !d.call.args.some((a) => a.name === 'field') ? { title: 'Name it field=', edits: [{ range: { start: pos[0].range.start, end: pos[0].range.start }, newText: 'field=' }] } : undefined;
    if (pos.length) ctx.report({ start: pos[0].range.start, end: pos[pos.length - 1].range.end }, `sequence() takes 0 positional arguments but ${pos.length} ${pos.length === 1 ? 'was' : 'were'} given`, named);
    else if (!d.call.args.some((a) => a.name === 'field')) ctx.report(d.call.calleeRange, "sequence() missing 1 required keyword-only argument: 'field'");
  }, true),
  rule('SEQ-002', 'vis.sequence field must be a public identifier.', (ctx, { d }) => {
    const f = fieldValue(ctx, d);
    if (!f || !isKnown(f.v)) return;
    if (f.v.kind !== 'str' || !isIdentifier(f.v.value) || f.v.value.startsWith('_')) ctx.report(f.arg.value.range, 'sequence field must be a public dataclass field name');
  }),
  rule('SEQ-003', 'vis.sequence decorates a dataclass type, outside @dataclass.', (ctx, { d, cls, index, decorators }) => {
    // Decorators apply bottom-up: a @dataclass below vis.sequence has already run.
    if (decorators.slice(index + 1).some((x) => isDataclassDecorator(ctx.model, x))) return;
    // Written right below @dataclass: the two swapped, so vis.sequence gets the dataclass.
    const above = decorators[index - 1];
    if (above && isDataclassDecorator(ctx.model, above)) {
      const source = ctx.source();
      const fix = source && swapLines(source, above.range, d.range);
      ctx.report(d.range, 'sequence requires a dataclass type; apply it outside @dataclass', fix ? { title: 'Apply @vis.sequence outside @dataclass', edits: fix } : undefined);
      return;
    }
    const scope = scopeOf(ctx.model, { entry: true });
    const order = mro({ k: 'class', scope, decl: cls, outer: [] }, {});
    if (!order.complete) return;
    // A subclass of a dataclass is a dataclass too.
    if (order.classes.slice(1).some((c) => c.decl.decorators.some((x) => isDataclassDecorator(c.scope.model, x)))) return;
    ctx.report(d.range, 'sequence requires a dataclass type; apply it outside @dataclass');
  }, true),
  rule('SEQ-004', 'vis.sequence field must name one of the dataclass fields.', (ctx, { d, cls, index, decorators }) => {
    const f = fieldValue(ctx, d);
    if (!f || f.v.kind !== 'str' || !isIdentifier(f.v.value) || f.v.value.startsWith('_')) return;
    if (!decorators.slice(index + 1).some((x) => isDataclassDecorator(ctx.model, x))) return;
    const scope = scopeOf(ctx.model, { entry: true });
    const ref = { k: 'class' as const, scope, decl: cls, outer: [] };
    if (!mro(ref, {}).complete) return;
    const names = dataclassFields(ref, {}).map((x) => x.decl.name);
    if (!names.includes(f.v.value)) reportWith(ctx, f.arg.value.range, `sequence field '${f.v.value}' is not a dataclass field`, nearestValue(ctx, { ...f.v, range: f.arg.value.range }, names));
  }, true),
];
