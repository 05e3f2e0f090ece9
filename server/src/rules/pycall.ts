// Python's own TypeError for a call that does not fit a function's parameters (CPython's order: keyword
// errors, then too many positional arguments, then missing ones), for callbacks Vis calls and for calls the
// rules can bind (vis-lang-interface's result types, `prompt.routing`).
import type { ParamKind } from '../model/types';
import { pythonNameList } from './util';

export interface ParamShape {
  name: string;
  kind: ParamKind;
  /** It has a default (or is `*args` / `**kwargs`). */
  optional: boolean;
}

/** Python's message for calling `name(...)` with `positional` positional arguments and these keywords, or undefined when it binds. */
export function callError(name: string, params: readonly ParamShape[], positional: number, keywords: readonly string[]): string | undefined {
  const byPosition = params.filter((p) => p.kind === 'positional_only' || p.kind === 'positional_or_keyword');
  const varPositional = params.some((p) => p.kind === 'var_positional');
  const varKeyword = params.some((p) => p.kind === 'var_keyword');
  const fn = `${name}()`;
  const bound = new Set(byPosition.slice(0, positional).map((p) => p.name));
  for (const k of keywords) {
    const p = params.find((q) => q.name === k && q.kind !== 'var_positional' && q.kind !== 'var_keyword');
    if (!p || p.kind === 'positional_only') {
      if (!varKeyword) return p ? `${fn} got some positional-only arguments passed as keyword arguments: '${k}'` : `${fn} got an unexpected keyword argument '${k}'`;
      continue;
    }
    if (bound.has(k)) return `${fn} got multiple values for argument '${k}'`;
    bound.add(k);
  }
  if (positional > byPosition.length && !varPositional) {
    const required = byPosition.filter((p) => !p.optional).length;
    const takes = required === byPosition.length ? `${byPosition.length} positional argument${byPosition.length === 1 ? '' : 's'}` : `from ${required} to ${byPosition.length} positional arguments`;
    return `${fn} takes ${takes} but ${positional} ${positional === 1 ? 'was' : 'were'} given`;
  }
  const missing = byPosition.filter((p) => !p.optional && !bound.has(p.name)).map((p) => p.name);
  if (missing.length) return `${fn} missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${pythonNameList(missing)}`;
  const missingKw = params.filter((p) => p.kind === 'keyword_only' && !p.optional && !bound.has(p.name)).map((p) => p.name);
  if (missingKw.length) return `${fn} missing ${missingKw.length} required keyword-only argument${missingKw.length === 1 ? '' : 's'}: ${pythonNameList(missingKw)}`;
  return undefined;
}
