// G1 tools (`vis.symbol(fn, ...)`, Vis 0.1.41) in the host's terms (vis-sdk.md §4): G1 has no contract
// object, so this is what the host registers from the builder's dict — the registry symbol (`name or
// fn.__name__`, a leading `<alias>_` stripped when something is left), the name the model's sandbox
// binds it under (`<alias>_<symbol>`), its arglists (the positional parameters, `& args` for `*args`),
// its tag, hidden flag and doc (the cleaned docstring). Nothing is run: a part that is not statically
// known leaves the tool without a contract, and says why.
import { cleandoc, isBlankDoc } from '../model/docstring';
import { resolve, truthy } from '../model/sdk';
import type { Call, FunctionDecl, Model } from '../model/types';
import { bindSdkCall, memberOfCall, acceptedKeywords, scopeOf as sdkScope } from '../sdk/table';
import { fieldText, findExtension } from '../docs/extension';
import { evalValue } from './objects';
import { scopeOf, type ModuleLoader } from './scope';

/** The host's view of one G1 tool, as `visAuthoring/symbolContract` returns it. */
export interface G1Contract {
  generation: 'G1';
  /** The registry symbol: `name or fn.__name__`, without a leading `<alias>_`. */
  symbol: string;
  /** What the model's sandbox calls: `<alias>_<symbol>`; null when the extension's alias is not known here. */
  sandbox_name: string | null;
  /** The extension's alias, when this file registers the extension and its alias is a known string. */
  alias: string | null;
  /** `:arglists` as the host builds it: the positional parameter names, then `&` and `args` for `*args`. */
  arglists: string[][];
  tag: 'observation' | 'mutation';
  hidden: boolean;
  /** What `doc(name)` answers: `inspect.getdoc(fn)`. */
  doc: string;
}

export interface G1ToolInfo {
  call: Call;
  /** The function, where it is a `def` the checker read. */
  decl?: FunctionDecl;
  declUri?: string;
  contract?: G1Contract;
  /** Why there is no contract. */
  unknownReason?: string;
}

export interface G1Options {
  loader?: ModuleLoader;
  path?: string;
  entry?: boolean;
}

/** The host strips a leading `<alias>_` from the symbol when something is left after it (`symbol-base-name`). */
export function g1Symbol(alias: string | null, name: string): string {
  if (!alias) return name;
  const prefix = `${alias}_`;
  return name.startsWith(prefix) && name.length > prefix.length ? name.slice(prefix.length) : name;
}

/** Every `vis.symbol(...)` of a G1 file, in the host's terms. */
export function g1Tools(model: Model, opts: G1Options = {}): G1ToolInfo[] {
  if (model.generation !== 'G1') return [];
  const calls = model.sdkCalls.get('g1.symbol') ?? [];
  if (!calls.length) return [];
  const ext = findExtension(model);
  const alias = ext ? (fieldText(model, ext, 'alias') ?? null) : null;
  const aliasKnown = !!ext && (alias !== null || !ext.fields.has('alias'));
  const scope = scopeOf(model, { path: opts.path, entry: opts.entry ?? true });
  return calls.map((call) => g1Tool(model, call, alias, aliasKnown, (v) => evalValue(scope, v, { loader: opts.loader })));
}

function g1Tool(model: Model, call: Call, alias: string | null, aliasKnown: boolean, evaluate: (v: import('../model/types').Value) => ReturnType<typeof evalValue>): G1ToolInfo {
  const info: G1ToolInfo = { call };
  const args = bindSdkCall(model, call);
  const fnArg = args?.get('fn');
  const member = memberOfCall(model, call);
  const keywords = member && acceptedKeywords(member, sdkScope(model));
  if (!args || !fnArg || !keywords || call.args.some((a) => a.name !== undefined && !keywords.has(a.name))) {
    info.unknownReason = 'its arguments are not statically known';
    return info;
  }
  const fn = evaluate(fnArg.value);
  if (fn.k !== 'function' || fn.bound || fn.origin) {
    info.unknownReason = fn.k === 'lambda' ? 'a lambda has no docstring, so vis.symbol refuses it' : 'the function is not a def the checker can read';
    return info;
  }
  info.decl = fn.decl;
  info.declUri = fn.scope.model.uri;
  const value = (name: string) => {
    const a = args.get(name);
    return a ? resolve(model, a.value) : undefined;
  };
  const name = value('name');
  const nameTruthy = name ? truthy(name) : false;
  if (nameTruthy === undefined || (nameTruthy && name!.kind !== 'str')) {
    info.unknownReason = 'its name is not statically known';
    return info;
  }
  const tag = value('tag');
  if (tag && (tag.kind !== 'str' || (tag.value !== 'observation' && tag.value !== 'mutation'))) {
    info.unknownReason = tag.kind === 'str' ? 'its tag is not observation or mutation, so vis.symbol refuses it' : 'its tag is not statically known';
    return info;
  }
  const hidden = value('is_hidden');
  const isHidden = hidden ? truthy(hidden) : false;
  if (isHidden === undefined) {
    info.unknownReason = 'its is_hidden flag is not statically known';
    return info;
  }
  if (isBlankDoc(fn.decl.docstring)) {
    info.unknownReason = 'it has no docstring, so vis.symbol refuses it';
    return info;
  }
  const argv = fn.decl.params.filter((p) => p.kind === 'positional_only' || p.kind === 'positional_or_keyword').map((p) => p.name);
  if (fn.decl.params.some((p) => p.kind === 'var_positional')) argv.push('&', 'args');
  const symbol = g1Symbol(alias, nameTruthy && name?.kind === 'str' ? name.value : fn.decl.name);
  info.contract = {
    generation: 'G1',
    symbol,
    sandbox_name: aliasKnown && alias ? `${alias}_${symbol}` : null,
    alias: aliasKnown ? alias : null,
    arglists: [argv],
    tag: tag?.kind === 'str' ? (tag.value as G1Contract['tag']) : 'observation',
    hidden: isHidden,
    doc: cleandoc(fn.decl.docstring!),
  };
  return info;
}
