// `vis.Setting(...)` (vis-sdk.md §2.10, the SDK versions with settings): the list checks of
// Setting.__post_init__ (SET-001), what the host's setting_declaration refuses at construction (SET-002:
// the only declaration that calls the host when it is built), and the default each kind needs (SET-003,
// SET-004), the first error of each Setting only.
import { isKnown, resolve } from '../model/sdk';
import { pyRepr } from '../model/literals';
import type { Value } from '../model/types';
import { vocabularyList, vocabularyValues } from '../sdk/table';
import { at, declarationCalls, familyRules, itemsOf, withChoice, type CallCheck, type CallFamily, type Failure, type RuleDoc, type Step } from './declaration';
import { booleanMeant, nearestValue, stringInList } from './fixes';
import type { Rule } from './types';

const step = (id: string, check: (c: CallCheck) => Failure | undefined): Step => ({ id, check });
const isList = (v: Value) => v.kind === 'list' || v.kind === 'tuple' || (v.kind === 'comprehension' && v.of === 'list');
/** The kind the Setting declares (`boolean` when not given), or undefined when it is not known. */
function kindOf(c: CallCheck): string | undefined {
  const v = c.arg('type');
  if (!v) return c.absent('type') ? 'boolean' : undefined;
  return v.kind === 'str' ? v.value : undefined;
}

function lists(c: CallCheck): Failure | undefined {
  const scopes = c.arg('scopes');
  if (scopes && isKnown(scopes) && scopes.kind !== 'none' && !isList(scopes)) {
    // `scopes="project"` → `["project"]`: one scope the list holds.
    return withChoice(at(scopes, 'Setting scopes must be a list or tuple'), stringInList(c.ctx, scopes, (s) => vocabularyValues('setting-scope', c.scope).includes(s)));
  }
  const choices = c.arg('choices');
  if (choices && isKnown(choices) && !isList(choices)) return at(choices, 'Setting choices must be a list or tuple');
  return undefined;
}

/** What the host refuses when the Setting is built (its exact words are the host's; these say the same). */
function host(c: CallCheck): Failure | undefined {
  const id = c.arg('id');
  if (id && isKnown(id) && (id.kind !== 'str' || !/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/.test(id.value))) {
    return at(id, `Setting id must be lower-case snake_case, such as 'show_hints'${id.kind === 'str' ? `, not ${pyRepr(id.value)}` : ''}: Vis refuses the declaration and the extension does not load`);
  }
  if (id?.kind === 'str') {
    const all = declarationCalls(c.model, 'typed', 'Setting');
    const sameId = (other: (typeof all)[number]) => {
      const a = other.args.find((x) => x.name === 'id');
      const v = a && resolve(c.model, a.value);
      return v?.kind === 'str' && v.value === id.value;
    };
    if (all.slice(0, all.indexOf(c.call)).some(sameId)) {
      return at(id, `Setting id ${pyRepr(id.value)} is declared twice: ids are unique across Vis and every loaded extension, so Vis refuses the second and the extension does not load`);
    }
  }
  const type = c.arg('type');
  const kinds = vocabularyValues('setting-type', c.scope);
  if (type && isKnown(type) && !(type.kind === 'str' && kinds.includes(type.value))) {
    return withChoice(at(type, `Setting type must be ${vocabularyList(kinds)}: Vis refuses the declaration and the extension does not load`), nearestValue(c.ctx, type, kinds));
  }
  const scopes = itemsOf(c.model, c.arg('scopes'));
  if (scopes) {
    const known = vocabularyValues('setting-scope', c.scope);
    if (!scopes.length) return at(c.arg('scopes')!, 'Setting scopes must name at least one scope (global, project, group, session): Vis refuses the declaration and the extension does not load');
    const seen = new Set<string>();
    for (const s of scopes) {
      if (!isKnown(s)) continue;
      if (s.kind !== 'str' || !known.includes(s.value)) return withChoice(at(s, `Setting scopes are ${known.join(', ')}: Vis refuses the declaration and the extension does not load`), nearestValue(c.ctx, s, known));
      if (seen.has(s.value)) return at(s, `Setting scope ${pyRepr(s.value)} is listed twice: Vis refuses the declaration and the extension does not load`);
      seen.add(s.value);
    }
  }
  return undefined;
}

function booleanDefault(c: CallCheck): Failure | undefined {
  if (kindOf(c) !== 'boolean') return undefined;
  const v = c.arg('default');
  return v && isKnown(v) && v.kind !== 'bool' ? withChoice(at(v, 'A boolean setting requires a boolean default'), booleanMeant(c.ctx, v, 'default')) : undefined;
}

function choiceDefault(c: CallCheck): Failure | undefined {
  if (kindOf(c) !== 'enum') return undefined;
  const message = 'A choice setting requires a default from its string choices';
  const choices = itemsOf(c.model, c.arg('choices'));
  const bad = choices?.find((x) => isKnown(x) && x.kind !== 'str');
  if (bad) return at(bad, message);
  const v = c.arg('default');
  if (!v || !isKnown(v)) return undefined;
  if (v.kind !== 'str') return at(v, message);
  // An empty tuple when choices is not given.
  const values = c.absent('choices') ? [] : choices;
  if (!values || values.some((x) => !isKnown(x))) return undefined;
  return values.some((x) => x.kind === 'str' && x.value === v.value) ? undefined : at(v, message);
}

const DOCS: RuleDoc[] = [
  { id: 'SET-001', summary: 'Setting scopes and choices are lists or tuples.', fixable: true },
  { id: 'SET-002', summary: 'What Vis refuses when a Setting is built: an id that is not lower-case snake_case or is declared twice, a type other than boolean or enum, scopes that are empty, repeated or not global, project, group, session.', fixable: true },
  { id: 'SET-003', summary: 'A boolean setting has a bool default.', fixable: true },
  { id: 'SET-004', summary: 'An enum setting has string choices and a default among them.' },
];

export const settingFamilies: CallFamily[] = [
  { flavour: 'typed', member: 'Setting', steps: [step('SET-001', lists), step('SET-002', host), step('SET-003', booleanDefault), step('SET-004', choiceDefault)] },
];

export const settingRules: Rule[] = familyRules(DOCS, settingFamilies);
