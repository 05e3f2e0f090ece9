// Slash commands, op hooks and network filters: the typed SDK's SlashCommand, OpHook and
// NetworkFilter (vis-sdk.md §2.8) and the G1 builders vis.slash, vis.op_hook and vis.network_filter
// (§4), each call getting the first error its constructor raises; plus op names the file's SDK version
// does not document (§5.4, a warning: an unknown op silently never fires).
import { pyRepr, pyReprValue, pyStrip } from '../model/literals';
import { isCallable, isKnown, resolve } from '../model/sdk';
import type { Model, Value } from '../model/types';
import { GATE_OPS } from '../sdk/vocabularies';
import { scopeOf, vocabularyValues } from '../sdk/table';
import { at, callRule, familyRules, withChoice, type CallCheck, type CallFamily, type Failure, type RuleDoc } from './declaration';
import { argumentAt, dropArgument, inList, isLiteralAt, nearestValue, reportWith } from './fixes';
import type { Rule, RuleContext } from './types';

const GATE = GATE_OPS[0];

/** The op names the file's SDK version documents (the G3 docs; older G1 docs list a few more). */
const knownOps = (model: Model) => vocabularyValues('op', scopeOf(model));
const phases = (model: Model) => vocabularyValues('phase', scopeOf(model));

const notCallable = (v: Value | undefined): v is Value => v !== undefined && isCallable(v) === false;

/** A bare string or a generator where a list of ops belongs, put in a list. */
function listable(ctx: RuleContext, v: Value) {
  if (v.kind === 'str' && pyStrip(v.value) !== '' && isLiteralAt(ctx, v)) return inList(v);
  if (v.kind === 'comprehension' && v.of === 'generator' && isLiteralAt(ctx, v)) return inList(v, 'Make it a list');
  return undefined;
}

/** The ops as known strings, or undefined when the list (or any item) is not statically known. */
function opsOf(model: Model, v: Value | undefined): string[] | undefined {
  if (!v || (v.kind !== 'list' && v.kind !== 'tuple')) return undefined;
  const items = v.items.map((i) => resolve(model, i));
  if (items.some((i) => i.kind !== 'str')) return undefined;
  return items.map((i) => (i as Extract<Value, { kind: 'str' }>).value);
}

function opNameWarnings(ctx: RuleContext, v: Value | undefined): void {
  if (!v || (v.kind !== 'list' && v.kind !== 'tuple')) return;
  const known = knownOps(ctx.model);
  for (const raw of v.items) {
    const item = resolve(ctx.model, raw);
    if (item.kind === 'str' && pyStrip(item.value) !== '' && !known.includes(item.value)) {
      reportWith(ctx, raw.range, `unknown op ${pyRepr(item.value)}: Vis finds hooks by op name, so this hook never fires; documented ops are ${known.filter((o) => o !== 'grep').join(', ')}`, nearestValue(ctx, item, known));
    }
  }
}

const check = (id: string, fn: (c: CallCheck) => Failure | undefined) => ({ id, check: fn });

const DOCS: RuleDoc[] = [
  { id: 'SLH-001', summary: 'SlashCommand name is a non-blank string.' },
  { id: 'SLH-002', summary: 'SlashCommand run is a callable.' },
  { id: 'SLH-003', summary: 'SlashCommand doc and usage are text or None.' },
  { id: 'HOOK-001', summary: 'OpHook phase is before or after.', fixable: true },
  { id: 'HOOK-002', summary: 'OpHook fn is a callable.' },
  { id: 'HOOK-003', summary: 'OpHook ops is a non-empty list of op names (a bare string is refused).', fixable: true },
  { id: 'HOOK-004', summary: 'The fs_access gate has a hook of its own.' },
  { id: 'HOOK-005', summary: 'The fs_access gate is asked before, never after.', fixable: true },
  { id: 'NF-001', summary: 'NetworkFilter fn is a callable.' },
  { id: 'G1-SL-1', summary: 'vis.slash takes a non-empty name and a callable run.' },
  { id: 'G1-HK-1', summary: 'vis.op_hook: phase before or after, a callable fn, a non-empty ops list.', fixable: true },
  { id: 'G1-HK-2', summary: 'The fs_access gate has a hook of its own.' },
  { id: 'G1-HK-3', summary: 'The fs_access gate is asked before, never after.', fixable: true },
  { id: 'G1-NF-1', summary: 'vis.network_filter wraps a callable.' },
];

export const hookFamilies: CallFamily[] = [
  // Typed SDK (G2/G3).
  {
    flavour: 'typed',
    member: 'SlashCommand',
    steps: [
      check('SLH-001', (c) => {
        const v = c.arg('name');
        return v && isKnown(v) && (v.kind !== 'str' || pyStrip(v.value) === '') ? at(v, 'vis.SlashCommand requires name=<non-empty string>') : undefined;
      }),
      check('SLH-002', (c) => {
        const v = c.arg('run');
        return notCallable(v) ? at(v, 'vis.SlashCommand requires a callable run') : undefined;
      }),
      check('SLH-003', (c) => {
        for (const field of ['doc', 'usage']) {
          const v = c.arg(field);
          if (v && isKnown(v) && v.kind !== 'none' && v.kind !== 'str') return at(v, `vis.SlashCommand ${field} must be text`);
        }
        return undefined;
      }),
    ],
  },
  {
    flavour: 'typed',
    member: 'OpHook',
    steps: [
      check('HOOK-001', (c) => {
        const v = c.arg('phase');
        const known = phases(c.model);
        return v && isKnown(v) && !(v.kind === 'str' && known.includes(v.value)) ? withChoice(at(v, `vis.OpHook phase must be ${known.join(' or ')}`), nearestValue(c.ctx, v, known)) : undefined;
      }),
      check('HOOK-002', (c) => {
        const v = c.arg('fn');
        return notCallable(v) ? at(v, 'vis.OpHook requires a callable fn') : undefined;
      }),
      check('HOOK-003', (c) => {
        const v = c.arg('ops');
        if (!v || !isKnown(v) || (v.kind === 'comprehension' && v.of === 'list')) return undefined;
        const bad =
          (v.kind !== 'list' && v.kind !== 'tuple') ||
          v.items.length === 0 ||
          v.items.some((raw) => {
            const i = resolve(c.model, raw);
            return isKnown(i) && (i.kind !== 'str' || pyStrip(i.value) === '');
          });
        return bad ? at(v, 'vis.OpHook requires a non-empty ops list', { fix: listable(c.ctx, v) }) : undefined;
      }),
      check('HOOK-004', (c) => {
        const ops = opsOf(c.model, c.arg('ops'));
        return ops && ops.includes(GATE) && ops.some((n) => n !== GATE) ? at(c.arg('ops')!, 'vis.OpHook: a gate cannot share a hook with ordinary operations') : undefined;
      }),
      check('HOOK-005', (c) => {
        const phase = c.arg('phase');
        return opsOf(c.model, c.arg('ops'))?.includes(GATE) && phase?.kind === 'str' && phase.value === 'after'
          ? at(phase, 'vis.OpHook: a gate is asked before the operation runs', { fix: dropArgument(c.ctx, c.call, argumentAt(c.call, phase), 'Remove phase="after" (a gate is asked before)') })
          : undefined;
      }),
    ],
  },
  {
    flavour: 'typed',
    member: 'NetworkFilter',
    steps: [
      check('NF-001', (c) => {
        const v = c.arg('fn');
        return notCallable(v) ? at(v, 'vis.NetworkFilter requires a callable') : undefined;
      }),
    ],
  },

  // G1 builders (Vis 0.1.41). A missing name or run is Python's own TypeError (SDK-003).
  {
    flavour: 'g1',
    member: 'slash',
    steps: [
      check('G1-SL-1', (c) => {
        const v = c.arg('name');
        return v && isKnown(v) && (v.kind !== 'str' || v.value === '') ? at(v, 'vis.slash(name, run, ...) requires name=<non-empty string>') : undefined;
      }),
      check('G1-SL-1', (c) => {
        const v = c.arg('run');
        return notCallable(v) ? at(v, 'vis.slash(name, run, ...) requires a callable run') : undefined;
      }),
    ],
  },
  {
    flavour: 'g1',
    member: 'op_hook',
    steps: [
      check('G1-HK-1', (c) => {
        const phase = c.arg('phase');
        const known = phases(c.model);
        if (!phase || !isKnown(phase) || (phase.kind === 'str' && known.includes(phase.value))) return undefined;
        const shown = pyReprValue(phase);
        return shown !== undefined ? withChoice(at(phase, `vis.op_hook phase must be ${known.join(' or ')}, got ${shown}`), nearestValue(c.ctx, phase, known)) : undefined;
      }),
      check('G1-HK-1', (c) => {
        const fn = c.arg('fn');
        return notCallable(fn) ? at(fn, 'vis.op_hook(ops, fn, ...) requires a callable fn') : undefined;
      }),
      // `[str(o) for o in ops or []]`: None, an empty list or an empty string leave no op.
      check('G1-HK-1', (c) => {
        const ops = c.arg('ops');
        const empty = ops && (ops.kind === 'none' || ((ops.kind === 'list' || ops.kind === 'tuple') && ops.items.length === 0) || (ops.kind === 'str' && ops.value === ''));
        return empty ? at(ops, 'vis.op_hook requires a non-empty ops list') : undefined;
      }),
      check('G1-HK-2', (c) => {
        const ops = opsOf(c.model, c.arg('ops'));
        const others = ops?.includes(GATE) ? ops.filter((n) => n !== GATE) : [];
        return others.length ? at(c.arg('ops')!, `vis.op_hook: 'fs_access' is a gate and is asked, not wrapped, so it cannot share a hook with [${others.map(pyRepr).join(', ')}]`) : undefined;
      }),
      check('G1-HK-3', (c) => {
        const phase = c.arg('phase');
        return opsOf(c.model, c.arg('ops'))?.includes(GATE) && phase?.kind === 'str' && phase.value === 'after'
          ? at(phase, "vis.op_hook: 'fs_access' is a gate, asked before the operation runs, so phase='after' means nothing", { fix: dropArgument(c.ctx, c.call, argumentAt(c.call, phase), 'Remove the after phase (a gate is asked before)') })
          : undefined;
      }),
    ],
  },
  {
    flavour: 'g1',
    member: 'network_filter',
    steps: [
      check('G1-NF-1', (c) => {
        const fn = c.arg('fn');
        return notCallable(fn) ? at(fn, 'vis.network_filter(fn) requires a callable') : undefined;
      }),
    ],
  },
];

export const hookRules: Rule[] = [
  ...familyRules(DOCS, hookFamilies),
  callRule({ id: 'HOOK-006', summary: "Op names the file's SDK version documents (an unknown op never fires).", fixable: true }, 'typed', 'OpHook', (c) => opNameWarnings(c.ctx, c.arg('ops'))),
  callRule({ id: 'G1-HK-4', summary: 'A bare string as ops is split into characters and never fires.', fixable: true }, 'g1', 'op_hook', (c) => {
    const ops = c.arg('ops');
    if (ops?.kind !== 'str' || ops.value === '') return;
    const chars = [...ops.value].map(pyRepr).join(', ');
    c.ctx.report(ops.range, `ops=${pyRepr(ops.value)} is split into its characters [${chars}], so this hook never fires; pass a list: ops=[${pyRepr(ops.value)}]`, isLiteralAt(c.ctx, ops) ? inList(ops) : undefined);
  }),
  callRule({ id: 'G1-HK-5', summary: "Op names the file's SDK version documents (an unknown op never fires).", fixable: true }, 'g1', 'op_hook', (c) => opNameWarnings(c.ctx, c.arg('ops'))),
];
