// A callable contract (vis-sdk.md §3.1, §3.3, §3.4): parameters, signature text in format C1/C2/C3,
// `default_source` for literal defaults, and the return TypeSpec.
import { resolve } from '../model/sdk';
import type { FunctionDecl, Param, Value } from '../model/types';
import { parseIntExact } from './pyexpr';
import { pyBytesRepr, pyFloatRepr, pyImagRepr, pyStrRepr } from './pyrepr';
import { lookupName, type ModuleScope } from './scope';
import { annotationType, isNoneValue, type TypeContext } from './typespec';
import type { CallableContract, ContractFormat, ParameterSpec, TypeSpec } from './types';

/** A parameter as the contract sees it: from a `def`, or from a dataclass field of a class used as a tool. */
export interface ParamSource {
  name: string;
  kind: Param['kind'];
  annotation?: string;
  defaultValue?: Value;
}

export interface CallableSource {
  scope: ModuleScope;
  params: ParamSource[];
  /** Source text of the return annotation; undefined when none is declared. */
  returns?: string;
  /** A bound method: the first positional parameter (`self`/`cls`) is dropped. */
  bound: boolean;
}

export function functionSource(scope: ModuleScope, fn: FunctionDecl, bound: boolean): CallableSource {
  // The parameters are read when the contract is built (the model reads them on first use).
  return {
    scope,
    get params() {
      return fn.params;
    },
    returns: fn.returns,
    bound,
  };
}

export function callableContract(src: CallableSource, name: string, tag: string, description: string, format: ContractFormat, ctx: TypeContext): CallableContract {
  let params = src.params;
  if (src.bound && params.length && (params[0].kind === 'positional_only' || params[0].kind === 'positional_or_keyword')) params = params.slice(1);
  const parameters: ParameterSpec[] = [];
  const rendered: { p: ParamSource; annotation?: string; default?: string }[] = [];
  for (const p of params) {
    const variadic = p.kind === 'var_positional' || p.kind === 'var_keyword';
    const hasDefault = p.defaultValue !== undefined && !variadic;
    const isNone = hasDefault && isNoneValue(src.scope, p.defaultValue!);
    const type = annotationType(p.annotation, src.scope, ctx);
    const spec: ParameterSpec = {
      name: p.name,
      kind: p.kind,
      required: !hasDefault && !variadic,
      has_default: hasDefault,
      default_is_none: isNone,
    } as ParameterSpec;
    let source: string | null = null;
    if (format === 'C3') {
      source = hasDefault ? defaultSource(src.scope, p.defaultValue!) : null;
      spec.default_source = source;
    }
    spec.type = type;
    parameters.push(spec);
    const shown = !hasDefault ? undefined : format === 'C3' ? (source ?? '...') : isNone ? 'None' : '...';
    rendered.push({ p, annotation: format === 'C1' || p.annotation === undefined ? undefined : typeSource(type), default: shown });
  }
  const returns = annotationType(src.returns, src.scope, ctx);
  let signature = signatureText(rendered);
  if (format === 'C1') signature = signature.slice(1, -1);
  else if (src.returns !== undefined) signature += ` -> ${typeSource(returns)}`;
  return { version: 1, name, tag, description, signature, parameters, returns };
}

/** `str(inspect.Signature)` without the return: separators `/` and `*` where Python puts them. */
function signatureText(params: { p: ParamSource; annotation?: string; default?: string }[]): string {
  const out: string[] = [];
  let posOnly = false;
  let kwSeparator = true;
  for (const { p, annotation, default: def } of params) {
    let s = p.name;
    if (annotation !== undefined) s += `: ${annotation}`;
    if (def !== undefined) s += annotation !== undefined ? ` = ${def}` : `=${def}`;
    if (p.kind === 'var_positional') s = '*' + s;
    else if (p.kind === 'var_keyword') s = '**' + s;
    if (p.kind === 'positional_only') posOnly = true;
    else if (posOnly) {
      out.push('/');
      posOnly = false;
    }
    if (p.kind === 'var_positional') kwSeparator = false;
    else if (p.kind === 'keyword_only' && kwSeparator) {
      out.push('*');
      kwSeparator = false;
    }
    out.push(s);
  }
  if (posOnly) out.push('/');
  return `(${out.join(', ')})`;
}

/** How a TypeSpec is written in a C2/C3 signature (`_contract_type_source`). */
export function typeSource(t: TypeSpec): string {
  switch (t.kind) {
    case 'any':
    case 'null':
    case 'scalar':
      return t.name;
    case 'literal':
      return `Literal[${(t.values ?? []).map(literalRepr).join(', ')}]`;
    case 'union':
      return (t.arguments ?? []).map(typeSource).join(' | ');
    case 'generic': {
      const args = t.arguments ?? [];
      if (!args.length) return t.name;
      return `${t.name}[${args.map(typeSource).join(', ')}${t.variadic ? ', ...' : ''}]`;
    }
    default:
      return pyStrRepr(t.name);
  }
}

export function literalRepr(v: string | number | boolean | null): string {
  if (v === null) return 'None';
  if (typeof v === 'string') return pyStrRepr(v);
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  return String(v);
}

// ---------------------------------------------------------------------------------------------
// default_source (C3)

const BUDGET = 4096;
const MAX_DEPTH = 8;

class TooLarge extends Error {}

/** The default as Python source when it is a literal of an exact built-in type; null otherwise. */
export function defaultSource(scope: ModuleScope, v: Value): string | null {
  try {
    const s = render(scope, v, 0, { used: 0 }, 0);
    return s !== undefined && s.length <= BUDGET ? s : null;
  } catch (e) {
    if (e instanceof TooLarge) return null;
    throw e;
  }
}

function render(scope: ModuleScope, raw: Value, depth: number, budget: { used: number }, hops: number): string | undefined {
  const v = resolve(scope.model, raw);
  const out = renderValue(scope, v, depth, budget, hops);
  if (out !== undefined) {
    budget.used += out.length;
    if (out.length > BUDGET) throw new TooLarge();
  }
  return out;
}

function renderValue(scope: ModuleScope, v: Value, depth: number, budget: { used: number }, hops: number): string | undefined {
  switch (v.kind) {
    case 'none':
      return 'None';
    case 'ellipsis':
      return '...';
    case 'bool':
      return v.value ? 'True' : 'False';
    case 'int': {
      const text = v.text.replace(/\s+/g, '');
      const neg = text.startsWith('-');
      const body = text.replace(/^[-+]+/, '');
      const n = parseIntExact(body);
      const minus = (text.match(/-/g) ?? []).length % 2 === 1 && neg;
      if (body.length > BUDGET) throw new TooLarge();
      return (minus && n !== 0n ? '-' : '') + n.toString();
    }
    case 'float':
      return Number.isFinite(v.value) ? pyFloatRepr(v.value) : undefined;
    case 'complex':
      if (!Number.isFinite(v.value)) return undefined;
      return pyImagRepr(Math.abs(v.value), v.text.trim().startsWith('-'));
    case 'str':
      return pyStrRepr(v.value);
    case 'bytes':
      return v.value === undefined ? undefined : pyBytesRepr(v.value);
    case 'tuple':
    case 'list':
    case 'set': {
      if (depth >= MAX_DEPTH) return undefined;
      const items: string[] = [];
      for (const item of v.items) {
        const s = render(scope, item, depth + 1, budget, hops);
        if (s === undefined) return undefined;
        if (budget.used > BUDGET) throw new TooLarge();
        items.push(s);
      }
      if (v.kind === 'tuple') return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
      if (v.kind === 'list') return `[${items.join(', ')}]`;
      return items.length ? `{${setOrder(v.items.map((i) => resolve(scope.model, i)), items).join(', ')}}` : 'set()';
    }
    case 'dict': {
      if (depth >= MAX_DEPTH) return undefined;
      const keys: string[] = [];
      const values: string[] = [];
      for (const e of v.entries) {
        const k = render(scope, e.key, depth + 1, budget, hops);
        const val = render(scope, e.value, depth + 1, budget, hops);
        if (k === undefined || val === undefined) return undefined;
        if (budget.used > BUDGET) throw new TooLarge();
        // A repeated key keeps its first position and takes the last value.
        const i = keys.indexOf(k);
        if (i === -1) {
          keys.push(k);
          values.push(val);
        } else values[i] = val;
      }
      return `{${keys.map((k, i) => `${k}: ${values[i]}`).join(', ')}}`;
    }
    case 'call': {
      // `set()`, `tuple()`, `list()`, `dict()`: empty built-ins (unless the name is rebound).
      if (v.call.args.length) return undefined;
      const empty: Record<string, string> = { set: 'set()', tuple: '()', list: '[]', dict: '{}' };
      const out = empty[v.call.callee];
      if (!out) return undefined;
      const o = lookupName(scope, v.call.callee, {});
      return o.k === 'extclass' && o.module === 'builtins' ? out : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The order Python prints a set in. Small non-negative ints (and bools) hash to themselves and sit
 * in ascending slots of the table; other sets keep source order (their order depends on hashing
 * that is not knowable statically, e.g. randomised str hashes). Duplicates are dropped.
 */
function setOrder(values: Value[], items: string[]): string[] {
  const unique: { key: string; text: string; n?: number }[] = [];
  values.forEach((v, i) => {
    const n = v.kind === 'int' ? Number(v.value) : v.kind === 'bool' ? (v.value ? 1 : 0) : undefined;
    const key = n !== undefined ? `n:${n}` : items[i];
    if (!unique.some((u) => u.key === key)) unique.push({ key, text: items[i], n });
  });
  let size = 8;
  while (unique.length * 5 >= (size - 1) * 3) size *= 4;
  if (unique.every((u) => u.n !== undefined && Number.isInteger(u.n) && u.n >= 0 && u.n < size)) {
    return [...unique].sort((a, b) => a.n! - b.n!).map((u) => u.text);
  }
  return unique.map((u) => u.text);
}
