// A callable contract (vis-sdk.md §3.1, §3.3, §3.4): parameters, signature text in format C1/C2/C3,
// `default_source` for literal defaults, and the return TypeSpec.
import type { FunctionDecl, Param, Value } from '../model/types';
import { valueOf } from './constants';
import { pyStrRepr } from './pyrepr';
import { defaultSource, isUnknown } from './pyvalue';
import type { ModuleScope } from './scope';
import { annotationType, type TypeContext } from './typespec';
import type { CallableContract, ContractFormat, ParameterSpec, TypeSpec, UnknownPart } from './types';

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
  return new FunctionSource(scope, fn, bound);
}

/**
 * A function's source: its parameters are read when the contract is built (the model reads them on first
 * use), through a getter of the class (defining one on each object cost a runtime call apiece).
 */
class FunctionSource implements CallableSource {
  readonly returns: string | undefined;

  constructor(
    readonly scope: ModuleScope,
    private readonly fn: FunctionDecl,
    readonly bound: boolean,
  ) {
    this.returns = fn.returns;
  }

  get params(): ParamSource[] {
    return this.fn.params;
  }
}

/** A dataclass field's `default_factory`: the signature shows the sentinel `<factory>`, an object Vis does not render. */
export function factoryDefault(range: Value['range']): Value {
  return { kind: 'unknown', range, text: FACTORY };
}
const FACTORY = '<factory>';

/**
 * The contract of a callable. Every part is computed on its own: a part that cannot be known is
 * reported in `unknowns` (where, and why) and gets the value the SDK gives in the common case, and a
 * fault in one part never takes the others down.
 */
export function callableContract(
  src: CallableSource,
  name: string,
  tag: string,
  description: string,
  format: ContractFormat,
  ctx: TypeContext,
  unknowns: UnknownPart[] = [],
): CallableContract {
  const note = (where: string) => (reason: string) => {
    if (!unknowns.some((u) => u.where === where && u.reason === reason)) unknowns.push({ where, reason });
  };
  const guarded = <T>(where: string, fallback: T, compute: (ctx: TypeContext) => T): T => {
    try {
      return compute({ ...ctx, note: note(where) });
    } catch (e) {
      note(where)(`internal error, not computed: ${e instanceof Error ? e.message : String(e)}`);
      return fallback;
    }
  };
  let params = src.params;
  if (src.bound && params.length && (params[0].kind === 'positional_only' || params[0].kind === 'positional_or_keyword')) params = params.slice(1);
  const parameters: ParameterSpec[] = [];
  const rendered: { p: ParamSource; annotation?: string; default?: string }[] = [];
  for (const p of params) {
    const variadic = p.kind === 'var_positional' || p.kind === 'var_keyword';
    const hasDefault = p.defaultValue !== undefined && !variadic;
    const def = hasDefault ? guarded(`parameter \`${p.name}\`: default`, { isNone: false, source: null }, (c) => defaultOf(src.scope, p.defaultValue!, format, c)) : undefined;
    const isNone = def?.isNone ?? false;
    const type = guarded(`parameter \`${p.name}\`: type`, unresolvedType(p.annotation), (c) => annotationType(p.annotation, src.scope, c));
    const spec: ParameterSpec = {
      name: p.name,
      kind: p.kind,
      required: !hasDefault && !variadic,
      has_default: hasDefault,
      default_is_none: isNone,
    } as ParameterSpec;
    let source: string | null = null;
    if (format === 'C3') {
      source = def?.source ?? null;
      spec.default_source = source;
    }
    spec.type = type;
    parameters.push(spec);
    const shown = !hasDefault ? undefined : format === 'C3' ? (source ?? '...') : isNone ? 'None' : '...';
    rendered.push({ p, annotation: format === 'C1' || p.annotation === undefined ? undefined : typeSource(type), default: shown });
  }
  const returns = guarded('returns', unresolvedType(src.returns), (c) => annotationType(src.returns, src.scope, c));
  let signature = signatureText(rendered);
  if (format === 'C1') signature = signature.slice(1, -1);
  else if (src.returns !== undefined) signature += ` -> ${typeSource(returns)}`;
  return { version: 1, name, tag, description, signature, parameters, returns };
}

function unresolvedType(annotation: string | undefined): TypeSpec {
  return annotation === undefined ? { kind: 'any', name: 'Any' } : { kind: 'unresolved', name: annotation };
}

/** `default is None`, and in C3 `default_source`, of a default as Python evaluates it when the `def` runs. */
function defaultOf(scope: ModuleScope, v: Value, format: ContractFormat, ctx: TypeContext): { isNone: boolean; source: string | null } {
  if (v.kind === 'unknown' && v.text === FACTORY) return { isNone: false, source: null };
  const value = valueOf(v, scope, ctx);
  const text = v.text.length > 60 ? v.text.slice(0, 57) + '...' : v.text;
  if (isUnknown(value)) {
    ctx.note?.(`\`${text}\`: ${value.reason}${format === 'C3' ? '; shown as `...` with default_source null' : ''}`);
    return { isNone: false, source: null };
  }
  if (format !== 'C3') return { isNone: value.t === 'None', source: null };
  const source = defaultSource(value);
  if (source !== null && typeof source === 'object') {
    ctx.note?.(`\`${text}\`: ${source.reason}`);
    return { isNone: false, source: null };
  }
  return { isNone: value.t === 'None', source };
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
