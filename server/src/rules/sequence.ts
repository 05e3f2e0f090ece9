// `@vis.sequence(field=...)` (G3, vis-sdk.md §2.6): SEQ-001…SEQ-004 where the decorator is written.
import { scopeOf } from '../contracts/scope';
import { dataclassFields } from '../contracts/typespec';
import { mro } from '../contracts/objects';
import { isKnown, resolve } from '../model/sdk';
import type { ClassDecl, Decorator, Model } from '../model/types';
import { allDecorated } from './methods';
import { chainRules, withChoice, type Failure, type RuleDoc } from './declaration';
import { swapLines } from '../fixes/edits';
import { nearestValue } from './fixes';
import type { Rule, RuleContext } from './types';
import { isIdentifier, positional } from './util';
import { derivedCache } from '../model/derived';

const SEQUENCE = 'blockether.vis.extension.sequence';

type SequenceUse = { d: Decorator; cls: ClassDecl; index: number; decorators: Decorator[] };
const uses = derivedCache<SequenceUse[]>();

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

function fieldValue(ctx: RuleContext, d: Decorator) {
  const arg = d.call?.args.find((a) => a.name === 'field');
  return arg ? { arg, v: resolve(ctx.model, arg.value) } : undefined;
}

function isDataclassDecorator(_model: Model, d: Decorator): boolean {
  return d.qualified === 'dataclasses.dataclass';
}

type Check = (s: SequenceUse, ctx: RuleContext) => Failure | undefined;

/** `sequence(*, field)` binds first: Python's TypeError for a bare `@vis.sequence` or a positional field. */
const binding: Check = ({ d }) => {
  if (!d.call) return { range: d.range, message: 'sequence() takes 0 positional arguments but 1 was given' };
  if (d.call.args.some((a) => a.splat)) return undefined;
  const pos = positional(d.call);
  // `@vis.sequence("results")` → `@vis.sequence(field="results")`: the one positional argument is the field.
  const named = pos.length === 1 && !d.call.args.some((a) => a.name === 'field') ? { title: 'Name it field=', edits: [{ range: { start: pos[0].range.start, end: pos[0].range.start }, newText: 'field=' }] } : undefined;
  if (pos.length) return { range: { start: pos[0].range.start, end: pos[pos.length - 1].range.end }, message: `sequence() takes 0 positional arguments but ${pos.length} ${pos.length === 1 ? 'was' : 'were'} given`, fix: named };
  if (!d.call.args.some((a) => a.name === 'field')) return { range: d.call.calleeRange, message: "sequence() missing 1 required keyword-only argument: 'field'" };
  return undefined;
};

const publicField: Check = ({ d }, ctx) => {
  const f = fieldValue(ctx, d);
  if (!f || !isKnown(f.v)) return undefined;
  return f.v.kind !== 'str' || !isIdentifier(f.v.value) || f.v.value.startsWith('_') ? { range: f.arg.value.range, message: 'sequence field must be a public dataclass field name' } : undefined;
};

const dataclassType: Check = ({ d, cls, index, decorators }, ctx) => {
  // Decorators apply bottom-up: a @dataclass below vis.sequence has already run.
  if (decorators.slice(index + 1).some((x) => isDataclassDecorator(ctx.model, x))) return undefined;
  // Written right below @dataclass: the two swapped, so vis.sequence gets the dataclass.
  const above = decorators[index - 1];
  if (above && isDataclassDecorator(ctx.model, above)) {
    const source = ctx.source();
    const edits = source && swapLines(source, above.range, d.range);
    return { range: d.range, message: 'sequence requires a dataclass type; apply it outside @dataclass', fix: edits ? { title: 'Apply @vis.sequence outside @dataclass', edits } : undefined };
  }
  const scope = scopeOf(ctx.model, { entry: true });
  const order = mro({ k: 'class', scope, decl: cls, outer: [] }, {});
  if (!order.complete) return undefined;
  // A subclass of a dataclass is a dataclass too.
  if (order.classes.slice(1).some((c) => c.decl.decorators.some((x) => isDataclassDecorator(c.scope.model, x)))) return undefined;
  return { range: d.range, message: 'sequence requires a dataclass type; apply it outside @dataclass' };
};

const existingField: Check = ({ d, cls, index, decorators }, ctx) => {
  const f = fieldValue(ctx, d);
  if (!f || f.v.kind !== 'str' || !isIdentifier(f.v.value) || f.v.value.startsWith('_')) return undefined;
  if (!decorators.slice(index + 1).some((x) => isDataclassDecorator(ctx.model, x))) return undefined;
  const scope = scopeOf(ctx.model, { entry: true });
  const ref = { k: 'class' as const, scope, decl: cls, outer: [] };
  if (!mro(ref, {}).complete) return undefined;
  const names = dataclassFields(ref, {}).map((x) => x.decl.name);
  return names.includes(f.v.value) ? undefined : withChoice({ range: f.arg.value.range, message: `sequence field '${f.v.value}' is not a dataclass field` }, nearestValue(ctx, { ...f.v, range: f.arg.value.range }, names));
};

const DOCS: RuleDoc[] = [
  { id: 'SEQ-001', summary: 'vis.sequence takes field= as a keyword argument.', fixable: true },
  { id: 'SEQ-002', summary: 'vis.sequence field must be a public identifier.' },
  { id: 'SEQ-003', summary: 'vis.sequence decorates a dataclass type, outside @dataclass.', fixable: true },
  { id: 'SEQ-004', summary: 'vis.sequence field must name one of the dataclass fields.', fixable: true },
];

export const sequenceRules: Rule[] = chainRules(DOCS, [
  {
    units: (ctx: RuleContext) => (ctx.model.generation === 'G3' ? sequenceDecorators(ctx.model) : []),
    key: (s: SequenceUse) => s.d,
    steps: [
      { id: 'SEQ-001', check: binding },
      { id: 'SEQ-002', check: publicField },
      { id: 'SEQ-003', check: dataclassType },
      { id: 'SEQ-004', check: existingField },
    ],
  },
]);
