// Slash commands, op hooks and network filters: the typed SDK's SlashCommand, OpHook and
// NetworkFilter (vis-sdk.md §2.8) and the G1 builders vis.slash, vis.op_hook and vis.network_filter
// (§4), plus op names Vis does not know (§5.4, a warning: an unknown op silently never fires).
import { pyRepr, pyReprValue, pyStrip } from '../model/literals';
import { isCallable, isKnown, resolve } from '../model/sdk';
import type { Value } from '../model/types';
import { GATE_OPS } from '../sdk/vocabularies';
import { vocabularyValues } from '../sdk/table';
import { argumentAt, dropArgument, inList, isLiteralAt, nearestValue, reportWith } from './fixes';
import type { Rule, RuleContext } from './types';
import { fixable, perCall } from './util';

const GATE = GATE_OPS[0];
/**
 * Documented op names, in every SDK version (the G3 docs and the older names hosts still key by): the
 * op vocabulary of the SDK table. Applying only the file's version's names is issue 10's.
 */
const KNOWN_OPS = vocabularyValues('op');
const PHASES = vocabularyValues('phase');

const notCallable = (v: Value | undefined) => v !== undefined && isCallable(v) === false;

/** A bare string or a generator where a list of ops belongs, put in a list. */
function listable(ctx: RuleContext, v: Value) {
  if (v.kind === 'str' && pyStrip(v.value) !== '' && isLiteralAt(ctx, v)) return inList(v);
  if (v.kind === 'comprehension' && v.of === 'generator' && isLiteralAt(ctx, v)) return inList(v, 'Make it a list');
  return undefined;
}

/** The ops as known strings, or undefined when the list (or any item) is not statically known. */
function opsOf(ctx: RuleContext, v: Value | undefined): { items: Value[]; names: string[] } | undefined {
  if (!v || (v.kind !== 'list' && v.kind !== 'tuple')) return undefined;
  const items = v.items.map((i) => resolve(ctx.model, i));
  if (items.some((i) => i.kind !== 'str')) return undefined;
  return { items: v.items, names: items.map((i) => (i as Extract<Value, { kind: 'str' }>).value) };
}

function opNameWarnings(ctx: RuleContext, v: Value | undefined): void {
  if (!v || (v.kind !== 'list' && v.kind !== 'tuple')) return;
  for (const raw of v.items) {
    const item = resolve(ctx.model, raw);
    if (item.kind === 'str' && pyStrip(item.value) !== '' && !KNOWN_OPS.includes(item.value)) {
      reportWith(ctx, raw.range, `unknown op ${pyRepr(item.value)}: Vis finds hooks by op name, so this hook never fires; documented ops are ${KNOWN_OPS.slice(0, 8).join(', ')}`, nearestValue(ctx, item, KNOWN_OPS));
    }
  }
}

export const hookRules: Rule[] = [
  // Typed SDK (G2/G3).
  perCall('SLH-001', 'typed', 'SlashCommand', 'SlashCommand name is a non-blank string.', (ctx, _call, arg) => {
    const v = arg('name');
    if (v && isKnown(v) && (v.kind !== 'str' || pyStrip(v.value) === '')) ctx.report(v.range, 'vis.SlashCommand requires name=<non-empty string>');
  }),
  perCall('SLH-002', 'typed', 'SlashCommand', 'SlashCommand run is a callable.', (ctx, _call, arg) => {
    const v = arg('run');
    if (notCallable(v)) ctx.report(v!.range, 'vis.SlashCommand requires a callable run');
  }),
  perCall('SLH-003', 'typed', 'SlashCommand', 'SlashCommand doc and usage are text or None.', (ctx, _call, arg) => {
    for (const field of ['doc', 'usage']) {
      const v = arg(field);
      if (v && isKnown(v) && v.kind !== 'none' && v.kind !== 'str') ctx.report(v.range, `vis.SlashCommand ${field} must be text`);
    }
  }),
  fixable(perCall('HOOK-001', 'typed', 'OpHook', 'OpHook phase is before or after.', (ctx, _call, arg) => {
    const v = arg('phase');
    if (v && isKnown(v) && !(v.kind === 'str' && PHASES.includes(v.value))) reportWith(ctx, v.range, `vis.OpHook phase must be ${PHASES.join(' or ')}`, nearestValue(ctx, v, PHASES));
  })),
  perCall('HOOK-002', 'typed', 'OpHook', 'OpHook fn is a callable.', (ctx, _call, arg) => {
    const v = arg('fn');
    if (notCallable(v)) ctx.report(v!.range, 'vis.OpHook requires a callable fn');
  }),
  fixable(perCall('HOOK-003', 'typed', 'OpHook', 'OpHook ops is a non-empty list of op names (a bare string is refused).', (ctx, _call, arg) => {
    const v = arg('ops');
    if (!v || !isKnown(v) || (v.kind === 'comprehension' && v.of === 'list')) return;
    const bad =
      (v.kind !== 'list' && v.kind !== 'tuple') ||
      v.items.length === 0 ||
      v.items.some((raw) => {
        const i = resolve(ctx.model, raw);
        return isKnown(i) && (i.kind !== 'str' || pyStrip(i.value) === '');
      });
    if (bad) ctx.report(v.range, 'vis.OpHook requires a non-empty ops list', listable(ctx, v));
  })),
  perCall('HOOK-004', 'typed', 'OpHook', 'The fs_access gate has a hook of its own.', (ctx, _call, arg) => {
    const ops = opsOf(ctx, arg('ops'));
    if (ops && ops.names.includes(GATE) && ops.names.some((n) => n !== GATE)) ctx.report(arg('ops')!.range, 'vis.OpHook: a gate cannot share a hook with ordinary operations');
  }),
  fixable(perCall('HOOK-005', 'typed', 'OpHook', 'The fs_access gate is asked before, never after.', (ctx, call, arg) => {
    const ops = opsOf(ctx, arg('ops'));
    const phase = arg('phase');
    if (ops?.names.includes(GATE) && phase?.kind === 'str' && phase.value === 'after') ctx.report(phase.range, 'vis.OpHook: a gate is asked before the operation runs', dropArgument(ctx, call, argumentAt(call, phase), 'Remove phase="after" (a gate is asked before)'));
  })),
  fixable(perCall('HOOK-006', 'typed', 'OpHook', 'Op names Vis documents (an unknown op never fires).', (ctx, _call, arg) => opNameWarnings(ctx, arg('ops')), 'warning')),
  perCall('NF-001', 'typed', 'NetworkFilter', 'NetworkFilter fn is a callable.', (ctx, _call, arg) => {
    const v = arg('fn');
    if (notCallable(v)) ctx.report(v!.range, 'vis.NetworkFilter requires a callable');
  }),

  // G1 builders (Vis 0.1.41).
  perCall('G1-SL-1', 'g1', 'slash', 'vis.slash takes a non-empty name and a callable run.', (ctx, _call, arg) => {
    // A missing name or run is Python's own TypeError (both are required parameters).
    const name = arg('name');
    if (name && isKnown(name) && (name.kind !== 'str' || name.value === '')) ctx.report(name.range, 'vis.slash(name, run, ...) requires name=<non-empty string>');
    const run = arg('run');
    if (notCallable(run)) ctx.report(run!.range, 'vis.slash(name, run, ...) requires a callable run');
  }),
  fixable(perCall('G1-HK-1', 'g1', 'op_hook', 'vis.op_hook: phase before or after, a callable fn, a non-empty ops list.', (ctx, _call, arg) => {
    const phase = arg('phase');
    if (phase && isKnown(phase) && !(phase.kind === 'str' && PHASES.includes(phase.value))) {
      const shown = pyReprValue(phase);
      if (shown !== undefined) reportWith(ctx, phase.range, `vis.op_hook phase must be ${PHASES.join(' or ')}, got ${shown}`, nearestValue(ctx, phase, PHASES));
    }
    const fn = arg('fn');
    if (notCallable(fn)) ctx.report(fn!.range, 'vis.op_hook(ops, fn, ...) requires a callable fn');
    // `[str(o) for o in ops or []]`: None, an empty list or an empty string leave no op.
    const ops = arg('ops');
    const empty = ops && (ops.kind === 'none' || ((ops.kind === 'list' || ops.kind === 'tuple') && ops.items.length === 0) || (ops.kind === 'str' && ops.value === ''));
    if (empty) ctx.report(ops.range, 'vis.op_hook requires a non-empty ops list');
  })),
  perCall('G1-HK-2', 'g1', 'op_hook', 'The fs_access gate has a hook of its own.', (ctx, _call, arg) => {
    const ops = opsOf(ctx, arg('ops'));
    if (!ops || !ops.names.includes(GATE)) return;
    const others = ops.names.filter((n) => n !== GATE);
    if (others.length) ctx.report(arg('ops')!.range, `vis.op_hook: 'fs_access' is a gate and is asked, not wrapped, so it cannot share a hook with [${others.map(pyRepr).join(', ')}]`);
  }),
  fixable(perCall('G1-HK-3', 'g1', 'op_hook', 'The fs_access gate is asked before, never after.', (ctx, call, arg) => {
    const ops = opsOf(ctx, arg('ops'));
    const phase = arg('phase');
    if (ops?.names.includes(GATE) && phase?.kind === 'str' && phase.value === 'after') {
      ctx.report(phase.range, "vis.op_hook: 'fs_access' is a gate, asked before the operation runs, so phase='after' means nothing", dropArgument(ctx, call, argumentAt(call, phase), 'Remove the after phase (a gate is asked before)'));
    }
  })),
  fixable(perCall(
    'G1-HK-4',
    'g1',
    'op_hook',
    'A bare string as ops is split into characters and never fires.',
    (ctx, _call, arg) => {
      const ops = arg('ops');
      if (ops?.kind !== 'str' || ops.value === '') return;
      const chars = [...ops.value].map(pyRepr).join(', ');
      ctx.report(ops.range, `ops=${pyRepr(ops.value)} is split into its characters [${chars}], so this hook never fires; pass a list: ops=[${pyRepr(ops.value)}]`, isLiteralAt(ctx, ops) ? inList(ops) : undefined);
    },
    'warning',
  )),
  fixable(perCall('G1-HK-5', 'g1', 'op_hook', 'Op names Vis documents (an unknown op never fires).', (ctx, _call, arg) => opNameWarnings(ctx, arg('ops')), 'warning')),
  perCall('G1-NF-1', 'g1', 'network_filter', 'vis.network_filter wraps a callable.', (ctx, _call, arg) => {
    const fn = arg('fn');
    if (notCallable(fn)) ctx.report(fn!.range, 'vis.network_filter(fn) requires a callable');
  }),
];
