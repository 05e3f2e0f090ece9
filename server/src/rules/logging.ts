// `vis.log(level, msg)` and `vis.notify(text, level="info")` (vis-sdk.md §5.2): neither the SDK nor the host
// checks the level (it is `str()`-ed and shown as given), so a level outside the documented ones is a
// warning. Calls are checked wherever they run: in tools, callbacks and at module level.
import { pyRepr } from '../model/literals';
import type { Value } from '../model/types';
import { editDistance, vocabularyValues } from '../sdk/table';
import type { Fix, Rule } from './types';
import { fixable, perRuntimeCall } from './util';

/** Spellings people reach for, and the documented level they mean. */
const MEANT: Record<string, string> = {
  warning: 'warn',
  information: 'info',
  notice: 'info',
  critical: 'error',
  fatal: 'error',
  err: 'error',
  exception: 'error',
  failure: 'error',
  verbose: 'debug',
  ok: 'success',
  done: 'success',
  // A notification has no debug level: the quiet one is info.
  debug: 'info',
  trace: 'info',
};

/** The documented level a wrong one most likely means, if one does. */
function meant(level: string, levels: readonly string[]): string | undefined {
  const lower = level.toLowerCase();
  if (levels.includes(lower)) return lower;
  if (MEANT[lower] && levels.includes(MEANT[lower])) return MEANT[lower];
  const near = levels.filter((l) => editDistance(l, lower, 1) <= 1);
  return near.length === 1 ? near[0] : undefined;
}

/** A string literal rewritten with another value, in the literal's own quotes. */
function literal(v: Extract<Value, { kind: 'str' }>, value: string): string {
  const q = /^[rRuU]?(['"])/.exec(v.text)?.[1] ?? '"';
  return `${q}${value}${q}`;
}

function levelRule(id: string, member: 'log' | 'notify', vocab: string, param: 'level', other: 'msg' | 'text'): Rule {
  const levels = vocabularyValues(vocab);
  const list = `${levels.slice(0, -1).join(', ')} or ${levels[levels.length - 1]}`;
  return fixable(perRuntimeCall(
    id,
    [member],
    `vis.${member} levels are ${list} (any other level is shown as given).`,
    (ctx, _placed, arg) => {
      const level = arg(param);
      if (level?.kind !== 'str' || levels.includes(level.value)) return;
      const text = arg(other);
      // `vis.log("deployed", "info")`: the level and the message change places.
      if (member === 'log' && text?.kind === 'str' && levels.includes(text.value)) {
        const fix: Fix = { title: 'Put the level first', edits: [{ range: level.range, newText: text.text }, { range: text.range, newText: level.text }] };
        ctx.report(level.range, `vis.log takes the level first: vis.log(${pyRepr(text.value)}, ${pyRepr(level.value)})`, fix);
        return;
      }
      const right = meant(level.value, levels);
      const fix: Fix | undefined = right ? { title: `Change to ${pyRepr(right)}`, edits: [{ range: level.range, newText: literal(level, right) }] } : undefined;
      ctx.report(level.range, `${pyRepr(level.value)} is no vis.${member} level (${list}): Vis shows it as given${right ? `; did you mean ${pyRepr(right)}?` : ''}`, fix);
    },
    'warning',
  ));
}

export const loggingRules: Rule[] = [levelRule('LOG-001', 'log', 'log-level', 'level', 'msg'), levelRule('LOG-002', 'notify', 'notify-level', 'level', 'text')];
