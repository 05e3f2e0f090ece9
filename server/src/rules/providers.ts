// The Provider family (vis-sdk.md §2.12): `vis.Provider` and its synchronous callbacks (PRV-001, PRV-002),
// the records its callbacks return or it starts from (ProviderPreset, ProviderCredential, ProviderStatus,
// ProviderModel, ProviderLimitWindow, ProviderLimit, ProviderError, ProviderLimits: PRV-004…PRV-011),
// and the G1 builder `vis.provider` (G1-PRV-1). Each call gets the first error its record raises.
import { pyStrip } from '../model/literals';
import { functionNamed, isCallable, isKnown, resolve } from '../model/sdk';
import type { Model, Value } from '../model/types';
import { paramsOf, vocabularyValues } from '../sdk/table';
import { accepts, at, familyRules, isDeclaration, itemsOf, paramsOfCallable, withChoice, type CallCheck, type CallFamily, type Failure, type RuleDoc, type Step } from './declaration';
import { booleanMeant, nearestValue } from './fixes';
import type { Rule } from './types';

type Check = (c: CallCheck) => Failure | undefined;
const step = (id: string, check: Check): Step => ({ id, check });
const given = (v: Value | undefined): v is Value => v !== undefined && isKnown(v) && v.kind !== 'none';

/** The known value given for a field, unless it is the None the field defaults to. */
function present(c: CallCheck, field: string): Value | undefined {
  const v = c.arg(field);
  if (!v || !isKnown(v)) return undefined;
  if (v.kind === 'none' && c.member.paramsIn(undefined).find((p) => p.name === field)?.default === 'None') return undefined;
  return v;
}

/** `{name} must be nonblank text` (`nonblank`), or `{name} must be text`. */
function text(field: string, name = field, nonblank = false): Check {
  return (c) => {
    const v = present(c, field);
    if (!v) return undefined;
    if (v.kind !== 'str') return at(v, nonblank ? `${name} must be nonblank text` : `${name} must be text`);
    return nonblank && pyStrip(v.value) === '' ? at(v, `${name} must be nonblank text`) : undefined;
  };
}

function bool(field: string): Check {
  return (c) => {
    const v = present(c, field);
    return v && v.kind !== 'bool' ? withChoice(at(v, `${field} must be a boolean`), booleanMeant(c.ctx, v, field)) : undefined;
  };
}

/** A value of a closed vocabulary (compared without case: the SDK's own normalisation is not known). */
function oneOf(field: string, vocabulary: string, message: string): Check {
  return (c) => {
    const v = c.arg(field);
    if (!given(v)) return undefined;
    const values = vocabularyValues(vocabulary, c.scope);
    return v.kind === 'str' && values.includes(v.value.toLowerCase()) ? undefined : withChoice(at(v, message), nearestValue(c.ctx, v, values));
  };
}

function integer(field: string, min: number | undefined, message: string): Check {
  return (c) => {
    const v = c.arg(field);
    if (!given(v) || v.kind === 'bool') return undefined;
    return v.kind !== 'int' || (min !== undefined && v.value < min) ? at(v, message) : undefined;
  };
}

function finiteNumber(field: string): Check {
  return (c) => {
    const v = c.arg(field);
    if (!given(v) || v.kind === 'bool') return undefined;
    return (v.kind !== 'int' && v.kind !== 'float') || !Number.isFinite(v.value) ? at(v, `invalid ${field}`) : undefined;
  };
}

function declaration(field: string, member: string, message: string): Check {
  return (c) => {
    const v = c.arg(field);
    return given(v) && isDeclaration(v, member) === false ? at(v, message) : undefined;
  };
}

/** Portable JSON: str, bool, int, finite float, None, lists and tuples, str-keyed mappings. */
function jsonFailure(model: Model, v: Value, depth = 0): Failure | undefined {
  if (depth > 32) return undefined;
  switch (v.kind) {
    case 'str':
    case 'bool':
    case 'int':
    case 'none':
      return undefined;
    case 'float':
      return Number.isFinite(v.value) ? undefined : at(v, 'provider data must contain portable JSON values');
    case 'list':
    case 'tuple':
      for (const i of itemsOf(model, v)!) {
        const f = jsonFailure(model, i, depth + 1);
        if (f) return f;
      }
      return undefined;
    case 'dict':
      for (const e of v.entries) {
        const key = resolve(model, e.key);
        if (isKnown(key) && key.kind !== 'str') return at(e.key, 'provider JSON keys must be strings');
        const f = jsonFailure(model, { ...resolve(model, e.value), range: e.value.range }, depth + 1);
        if (f) return f;
      }
      return undefined;
    case 'comprehension':
      return v.of === 'list' || v.of === 'dict' ? undefined : at(v, 'provider data must contain portable JSON values');
    default:
      return isKnown(v) && !(v.kind === 'call' && !v.call.sdk) ? at(v, 'provider data must contain portable JSON values') : undefined;
  }
}

/** A JSON mapping (`extra`, `extra_body`, `subject`): `{name} must be a mapping`, then its keys and values. */
function jsonMapping(field: string, name = field): Check {
  return (c) => {
    const v = c.arg(field);
    if (!given(v)) return undefined;
    if (v.kind === 'comprehension' && v.of === 'dict') return undefined;
    if (v.kind !== 'dict') return at(v, `${name} must be a mapping`);
    return jsonFailure(c.model, v);
  };
}

/** `extra` keys may not name a declared field (compared with `-` read as `_`). */
function extraShadows(c: CallCheck): Failure | undefined {
  const v = c.arg('extra');
  if (v?.kind !== 'dict') return undefined;
  const fields = new Set(c.member.paramsIn(undefined).map((p) => p.name));
  for (const e of v.entries) {
    const key = resolve(c.model, e.key);
    if (key.kind === 'str' && fields.has(key.value.replace(/-/g, '_'))) return at(e.key, 'provider extra fields must not shadow declared fields');
  }
  return undefined;
}

function headers(field: string): Check {
  return (c) => {
    const v = c.arg(field);
    if (!given(v) || (v.kind === 'comprehension' && v.of === 'dict')) return undefined;
    if (v.kind !== 'dict') return at(v, `${field} must be a mapping`);
    for (const e of v.entries) {
      const value = resolve(c.model, e.value);
      if (isKnown(value) && value.kind !== 'str') return at(e.value, `${field} values must be strings`);
    }
    return undefined;
  };
}

const apiStyle = oneOf('api_style', 'api-style', 'provider api_style names no wire dialect');

// ---------------------------------------------------------------------------------------------
// vis.Provider's callbacks

/** The callback slots of the member, in field order, with how the host calls each (the SDK table). */
const slots = (c: CallCheck) => paramsOf(c.member, c.scope).filter((p) => p.calledWith?.positional);

/** PRV-002: each callback given is a synchronous callable that binds the positional arguments the host passes. */
function callbacks(c: CallCheck): Failure | undefined {
  for (const p of slots(c)) {
    const v = c.arg(p.name);
    if (!given(v)) continue;
    const async = v.kind === 'function' && functionNamed(c.model, v.name)?.isAsync;
    if (isCallable(v) === false || async) return at(v, `vis.Provider ${p.name} must be a synchronous callable`);
    const params = paramsOfCallable(c.model, v);
    if (params && !p.calledWith!.positional!.some((n) => accepts(params, n))) return at(v, `vis.Provider ${p.name} has an incompatible signature`);
  }
  return undefined;
}

const DOCS: RuleDoc[] = [
  { id: 'PRV-001', summary: 'Provider: a non-blank id and label, is_managed a bool, preset a vis.ProviderPreset (a dict is refused).', fixable: true },
  { id: 'PRV-002', summary: 'Provider callbacks are synchronous callables that take the arguments the host passes (none; auth_fn and on_selected_fn one; enrich_models_fn two; refresh_token_fn one or none).' },
  { id: 'PRV-004', summary: 'ProviderPreset: text fields, an api_style that names a wire dialect, non-blank default models, string headers, JSON mappings.', fixable: true },
  { id: 'PRV-005', summary: 'ProviderCredential: a non-blank token, text fields, an api_style that names a wire dialect, string headers.', fixable: true },
  { id: 'PRV-006', summary: 'ProviderStatus: is_authenticated a bool, text fields, extra a JSON mapping.', fixable: true },
  { id: 'PRV-007', summary: 'ProviderModel: a non-blank name, context an int of at least 1, bool capabilities.', fixable: true },
  { id: 'PRV-008', summary: 'ProviderLimitWindow: a kind (calendar, lifetime, rolling), a unit, a size of at least 1, resets_at_ms an int.', fixable: true },
  { id: 'PRV-009', summary: 'ProviderLimit: non-blank id, label, scope, kind, precision and source from their vocabularies, finite numbers, a ProviderLimitWindow.', fixable: true },
  { id: 'PRV-010', summary: 'ProviderError: a non-blank type and message, data a mapping.' },
  { id: 'PRV-011', summary: 'ProviderLimits: a status from its vocabulary, ProviderLimit rows, rpm and tpm ints of at least 0, error a ProviderError.', fixable: true },
  { id: 'G1-PRV-1', summary: 'vis.provider (G1): a non-empty id and label; every callback slot a callable or None.' },
];

const g1Text =
  (field: string): Check =>
  (c) => {
    const v = c.arg(field);
    return v && isKnown(v) && (v.kind !== 'str' || v.value === '') ? at(v, `vis.provider(...) requires ${field}=<non-empty string>`) : undefined;
  };

export const providerFamilies: CallFamily[] = [
  {
    flavour: 'typed',
    member: 'Provider',
    steps: [
      step('PRV-001', text('id', 'provider id', true)),
      step('PRV-001', text('label', 'provider label', true)),
      step('PRV-001', bool('is_managed')),
      step('PRV-001', declaration('preset', 'ProviderPreset', 'vis.Provider preset must be a ProviderPreset')),
      step('PRV-002', callbacks),
    ],
  },
  {
    flavour: 'typed',
    member: 'ProviderPreset',
    steps: [
      text('base_url'),
      apiStyle,
      (c: CallCheck) => {
        for (const m of itemsOf(c.model, c.arg('default_models')) ?? []) {
          if (!isKnown(m)) continue;
          if (m.kind !== 'str') return at(m, 'default_models must contain str values');
          if (pyStrip(m.value) === '') return at(m, 'default_models must be nonblank text');
        }
        return undefined;
      },
      text('responses_path'),
      headers('llm_headers'),
      jsonMapping('extra_body'),
      bool('is_hidden'),
      jsonMapping('extra'),
      extraShadows,
    ].map((check) => step('PRV-004', check)),
  },
  {
    flavour: 'typed',
    member: 'ProviderCredential',
    steps: [text('token', 'token', true), text('api_url'), apiStyle, text('responses_path'), headers('llm_headers'), text('source')].map((check) => step('PRV-005', check)),
  },
  {
    flavour: 'typed',
    member: 'ProviderStatus',
    steps: [bool('is_authenticated'), ...['error', 'source', 'provider_id', 'status', 'base_url', 'label', 'config_path'].map((f) => text(f)), jsonMapping('extra'), extraShadows].map((check) => step('PRV-006', check)),
  },
  {
    flavour: 'typed',
    member: 'ProviderModel',
    steps: [text('name', 'model name', true), integer('context', 1, 'invalid context'), bool('is_tool_call'), bool('is_image_input'), jsonMapping('extra'), extraShadows].map((check) => step('PRV-007', check)),
  },
  {
    flavour: 'typed',
    member: 'ProviderLimitWindow',
    steps: [
      text('kind', 'window kind', true),
      oneOf('kind', 'window-kind', 'invalid window kind'),
      oneOf('unit', 'window-unit', 'invalid window unit'),
      integer('size', 1, 'invalid window size'),
      integer('resets_at_ms', undefined, 'invalid resets_at_ms'),
    ].map((check) => step('PRV-008', check)),
  },
  {
    flavour: 'typed',
    member: 'ProviderLimit',
    steps: [
      text('id', 'id', true),
      text('label', 'label', true),
      text('scope', 'scope', true),
      oneOf('scope', 'limit-scope', 'invalid scope'),
      text('kind', 'kind', true),
      oneOf('kind', 'limit-kind', 'invalid kind'),
      text('precision', 'precision', true),
      oneOf('precision', 'limit-precision', 'invalid precision'),
      text('source', 'source', true),
      oneOf('source', 'limit-source', 'invalid source'),
      bool('is_unlimited'),
      finiteNumber('used'),
      finiteNumber('limit'),
      finiteNumber('remaining'),
      declaration('window', 'ProviderLimitWindow', 'window must be a ProviderLimitWindow'),
      jsonMapping('subject'),
      text('note'),
    ].map((check) => step('PRV-009', check)),
  },
  {
    flavour: 'typed',
    member: 'ProviderError',
    steps: [text('type', 'error type', true), text('message', 'error message', true), jsonMapping('data', 'error data')].map((check) => step('PRV-010', check)),
  },
  {
    flavour: 'typed',
    member: 'ProviderLimits',
    steps: [
      text('status', 'limits status', true),
      oneOf('status', 'limits-status', 'invalid limits status'),
      (c: CallCheck) => {
        const bad = (itemsOf(c.model, c.arg('limits')) ?? []).find((i) => isDeclaration(i, 'ProviderLimit') === false);
        return bad ? at(bad, 'limits must contain ProviderLimit values') : undefined;
      },
      integer('rpm', 0, 'invalid rpm'),
      integer('tpm', 0, 'invalid tpm'),
      text('note'),
      declaration('error', 'ProviderError', 'error must be a ProviderError'),
      text('provider_id', 'provider_id', true),
      integer('fetched_at_ms', undefined, 'invalid fetched_at_ms'),
    ].map((check) => step('PRV-011', check)),
  },
  {
    flavour: 'g1',
    member: 'provider',
    steps: [
      step('G1-PRV-1', g1Text('id')),
      step('G1-PRV-1', g1Text('label')),
      step('G1-PRV-1', (c) => {
        for (const p of slots(c)) {
          const v = c.arg(p.name);
          if (v && v.kind !== 'none' && isCallable(v) === false) return at(v, `vis.provider ${p.name}= must be callable or None`);
        }
        return undefined;
      }),
    ],
  },
];

export const providerRules: Rule[] = familyRules(DOCS, providerFamilies);
