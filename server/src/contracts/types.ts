// The Symbol contract (vis-sdk.md §3.1): plain JSON objects whose key order is the order the SDK
// builds them in, so `JSON.stringify` prints exactly what `json.dumps(symbol.contract)` prints.

/** C1: bare signature, masked defaults; C2: annotated signature, masked defaults; C3: literal defaults and `default_source`. */
export type ContractFormat = 'C1' | 'C2' | 'C3';

export const CONTRACT_FORMATS: readonly ContractFormat[] = ['C1', 'C2', 'C3'];

export type TypeKind = 'any' | 'null' | 'scalar' | 'opaque' | 'record' | 'reference' | 'union' | 'literal' | 'generic' | 'unresolved';

export interface TypeSpec {
  kind: TypeKind;
  name: string;
  /** record: the fields (in the key position the SDK gives them). */
  fields?: FieldSpec[];
  /** generic/union. For a variadic tuple `variadic` comes before `arguments`. */
  variadic?: true;
  arguments?: TypeSpec[];
  values?: (string | number | boolean | null)[];
  description?: string;
  sequence_field?: string;
}

export interface FieldSpec {
  name: string;
  type: TypeSpec;
  required: boolean;
  has_default: boolean;
  default_is_none: boolean;
}

export type ParameterKind = 'positional_only' | 'positional_or_keyword' | 'var_positional' | 'keyword_only' | 'var_keyword';

export interface ParameterSpec {
  name: string;
  kind: ParameterKind;
  required: boolean;
  has_default: boolean;
  default_is_none: boolean;
  /** C3 only: the literal default as Python source, or null. */
  default_source?: string | null;
  type: TypeSpec;
}

export interface CallableContract {
  version: 1;
  name: string;
  tag: string;
  description: string;
  signature: string;
  parameters: ParameterSpec[];
  returns: TypeSpec;
}

export interface NamespaceContract {
  version: 1;
  name: string;
  members: CallableContract[];
}

export type Contract = CallableContract | NamespaceContract;

/**
 * A part of a contract that is not known statically, and why: the part then holds what the SDK gives
 * in the common case (an opaque type, a null default_source), and hovers and previews say so.
 */
export interface UnknownPart {
  /** The part: "parameter `limit`: default", "returns", "tool". */
  where: string;
  /** Why, as a clause: "a call result (`make()`): the value is what the call returns at import time". */
  reason: string;
}

export function isNamespace(c: Contract): c is NamespaceContract {
  return (c as NamespaceContract).members !== undefined;
}
