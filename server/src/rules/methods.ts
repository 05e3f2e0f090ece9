// `@vis.method(...)` (G2/G3, vis-sdk.md §2.5): MTH-001…MTH-004, checked where the decorator is
// written (on a method at any class depth, or called at module level), the first error of each call only.
import { reprValue } from '../contracts/symbols';
import { tagsOf, vocabularyList } from '../sdk/table';
import { isCallable, isKnown, qualify } from '../model/sdk';
import type { ClassDecl, Decorator, FunctionDecl, Model } from '../model/types';
import { at, familyRules, isDeclaration, withChoice, type CallFamily, type RuleDoc } from './declaration';
import { nearestValue } from './fixes';
import type { Rule, RuleContext } from './types';
import { derivedCache } from '../model/derived';

const METHOD = 'blockether.vis.extension.method';

type Decorated = { decorators: Decorator[]; fn?: FunctionDecl; cls?: ClassDecl };

/** Per declaration (they keep their identity while their statement does not change): its decorated parts. */
const decoratedParts = new WeakMap<FunctionDecl | ClassDecl, Decorated[]>();
const decoratedOfModel = derivedCache<Decorated[]>();

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

/** MTH-003 where it is not about the call's arguments: vis.method written above a property. */
function decoratesProperty(ctx: RuleContext): void {
  const { model } = ctx;
  if (model.generation !== 'G2' && model.generation !== 'G3') return;
  for (const { decorators } of allDecorated(model)) {
    decorators.forEach((d, i) => {
      if (d.qualified !== METHOD) return;
      // Decorators apply bottom-up: vis.method receives what the decorator below it returned.
      const below = decorators[i + 1];
      const q = below?.name ? (qualify(model, below.name) ?? below.name) : undefined;
      const shadowed = below?.name === 'property' && model.bindings.has('property');
      if ((q === 'property' && !shadowed) || q === 'functools.cached_property' || /\.(setter|getter|deleter)$/.test(below?.name ?? '')) {
        ctx.report(d.range, 'vis.method(...) requires a callable method');
      }
    });
  }
}

const DOCS: RuleDoc[] = [
  { id: 'MTH-001', summary: 'vis.method tag must be in the tag vocabulary.', fixable: true },
  { id: 'MTH-002', summary: 'vis.method activity= must be a vis.Activity declaration.' },
  { id: 'MTH-003', summary: 'vis.method must decorate a callable (not a property).', also: decoratesProperty },
  { id: 'MTH-004', summary: 'vis.method takes at most one positional argument, and keywords tag, is_hidden, activity.' },
];

export const methodFamilies: CallFamily[] = [
  {
    flavour: 'typed',
    member: 'method',
    binding: 'MTH-004',
    steps: [
      {
        id: 'MTH-001',
        check(c) {
          const v = c.arg('tag');
          if (!v || !isKnown(v)) return undefined;
          const vocab = tagsOf(c.model);
          return v.kind === 'str' && vocab.includes(v.value) ? undefined : withChoice(at(v, `vis.method tag must be ${vocabularyList(vocab)}, got ${reprValue(v)}`), nearestValue(c.ctx, v.kind === 'str' ? v : undefined, vocab));
        },
      },
      {
        id: 'MTH-002',
        check(c) {
          const v = c.arg('activity');
          return v && v.kind !== 'none' && isDeclaration(v, 'Activity') === false ? at(v, 'activity must be a vis.Activity declaration') : undefined;
        },
      },
      {
        // vis.method(value) called directly with a value that is not callable.
        id: 'MTH-003',
        check(c) {
          const v = c.arg('fn');
          return v && v.kind !== 'none' && isCallable(v) === false ? at(c.written('fn')!, 'vis.method(...) requires a callable method') : undefined;
        },
      },
    ],
  },
];

export const methodRules: Rule[] = familyRules(DOCS, methodFamilies);
