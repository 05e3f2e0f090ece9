// What the model will see differently between two versions of an extension file: its tools' contracts
// compared, tool by tool. Tools are matched by public name, and a removed tool and an added one that
// come from the same `def` (or have the same contract) are a rename. Changes are marked breaking where
// a call the model could make before fails now, or a result it relied on changes shape:
// - a tool removed or renamed; a parameter removed; a new required parameter; a parameter that is
//   now required, can no longer be passed by position or by keyword, or moved position;
// - a parameter type narrowed (some value it accepted is refused now); a return type widened or
//   changed (the model may get values it did not before); a field removed from a returned record, or
//   a required field added to a record the model passes in.
// Added tools and optional parameters, widened parameter types, narrowed returns, tag, hidden,
// description and default changes are reported and not breaking.
import type { SymbolInfo } from './symbols';
import { typeText } from './doc';
import type { CallableContract, FieldSpec, ParameterSpec, TypeSpec } from './types';

export interface ToolSnapshot {
  name: string;
  tag: string;
  hidden: boolean;
  contract: CallableContract;
  /** The `def` the tool comes from (`search`, `Items.put`), to tell a rename from a removal. */
  origin?: string;
}

export interface ContractSet {
  tools: ToolSnapshot[];
  /** Tools whose contract is not statically known (not compared), with the reason. */
  unknown: { name: string; reason: string }[];
}

export type ChangeKind =
  | 'tool-added'
  | 'tool-removed'
  | 'tool-renamed'
  | 'tag'
  | 'hidden'
  | 'description'
  | 'parameter-added'
  | 'parameter-removed'
  | 'parameter-retyped'
  | 'parameter-required'
  | 'parameter-optional'
  | 'parameter-kind'
  | 'parameter-moved'
  | 'parameter-default'
  | 'returns-retyped'
  | 'field-added'
  | 'field-removed'
  | 'field-retyped'
  | 'field-required'
  | 'field-optional'
  | 'not-compared';

export interface ContractChange {
  /** The tool's current name (its old name when it was removed). */
  tool: string;
  kind: ChangeKind;
  breaking: boolean;
  /** One line, what the model sees differently. */
  message: string;
  /** Before and after, as the model reads them (types as in doc(name)), where that applies. */
  before?: string;
  after?: string;
}

export interface ContractDiff {
  changes: ContractChange[];
  breaking: number;
  /** Tools in the new version that differ from the old one (renamed or changed), added, removed. */
  changed: number;
  added: number;
  removed: number;
}

/** The tools of a file's Symbols, as compared: each known tool, and each Symbol or member that is not known. */
export function contractSet(infos: SymbolInfo[]): ContractSet {
  const tools: ToolSnapshot[] = [];
  const unknown: ContractSet['unknown'] = [];
  for (const info of infos) {
    for (const t of info.tools) {
      const owner = t.decl && info.form === 'object' ? t.name.split('.').slice(0, -1).join('.') : '';
      tools.push({ name: t.name, tag: t.tag, hidden: t.hidden, contract: t.contract, origin: t.decl ? `${t.declUri ?? ''}#${owner}.${t.decl.name}` : undefined });
    }
    for (const u of info.unknownTools) unknown.push({ name: u.where, reason: u.reason });
  }
  return { tools, unknown };
}

/** What changed from `before` to `after`, tool by tool. */
export function compareContracts(before: ContractSet, after: ContractSet): ContractDiff {
  const changes: ContractChange[] = [];
  const oldByName = new Map(before.tools.map((t) => [t.name, t]));
  const newNames = new Set(after.tools.map((t) => t.name));
  const removed = before.tools.filter((t) => !newNames.has(t.name));
  const renamedFrom = new Map<ToolSnapshot, ToolSnapshot>();
  for (const t of after.tools) {
    if (oldByName.has(t.name)) continue;
    const from = removed.find((r) => !isTaken(renamedFrom, r) && r.origin !== undefined && r.origin === t.origin) ?? removed.find((r) => !isTaken(renamedFrom, r) && sameShape(r, t));
    if (from) renamedFrom.set(t, from);
  }
  let changed = 0;
  let added = 0;
  for (const t of after.tools) {
    const from = oldByName.get(t.name) ?? renamedFrom.get(t);
    if (!from) {
      added++;
      changes.push({ tool: t.name, kind: 'tool-added', breaking: false, message: `tool added${t.hidden ? ' (hidden)' : ''}: ${header(t.contract)}`, after: header(t.contract) });
      continue;
    }
    const own: ContractChange[] = [];
    if (from.name !== t.name) {
      own.push({ tool: t.name, kind: 'tool-renamed', breaking: true, message: `tool renamed from ${from.name}: calls to ${from.name} fail`, before: from.name, after: t.name });
    }
    compareTool(from, t, own);
    if (own.length) changed++;
    changes.push(...own);
  }
  const gone = removed.filter((r) => !isTaken(renamedFrom, r));
  for (const r of gone) changes.push({ tool: r.name, kind: 'tool-removed', breaking: true, message: `tool removed (was ${header(r.contract)})`, before: header(r.contract) });
  const stillUnknown = new Set(after.unknown.map((u) => u.name));
  for (const u of after.unknown) changes.push({ tool: u.name, kind: 'not-compared', breaking: false, message: `not compared: its contract is not statically known now (${u.reason})` });
  for (const u of before.unknown) {
    if (!stillUnknown.has(u.name)) changes.push({ tool: u.name, kind: 'not-compared', breaking: false, message: `not compared: its contract was not statically known before (${u.reason})` });
  }
  return { changes, breaking: changes.filter((c) => c.breaking).length, changed, added, removed: gone.length };
}

function isTaken(map: Map<ToolSnapshot, ToolSnapshot>, r: ToolSnapshot): boolean {
  for (const v of map.values()) if (v === r) return true;
  return false;
}

/** The same contract apart from the name: a rename. */
function sameShape(a: ToolSnapshot, b: ToolSnapshot): boolean {
  const strip = (c: CallableContract) => JSON.stringify({ ...c, name: '' });
  return strip(a.contract) === strip(b.contract);
}

/** `name(signature)` as Catalog.help heads a tool. */
function header(c: CallableContract): string {
  return c.signature.startsWith('(') ? `${c.name}${c.signature}` : `${c.name}(${c.signature})`;
}

function compareTool(a: ToolSnapshot, b: ToolSnapshot, out: ContractChange[]): void {
  const tool = b.name;
  const push = (kind: ChangeKind, breaking: boolean, message: string, before?: string, after?: string) => out.push({ tool, kind, breaking, message, before, after });
  if (a.tag !== b.tag) push('tag', false, `tag ${a.tag} → ${b.tag}`, a.tag, b.tag);
  if (a.hidden !== b.hidden) push('hidden', false, b.hidden ? 'now hidden: the model no longer finds it with apropos' : 'no longer hidden: the model finds it with apropos', String(a.hidden), String(b.hidden));
  if (a.contract.description !== b.contract.description) {
    push('description', false, `description changed${lineChange(a.contract.description, b.contract.description)}`, a.contract.description, b.contract.description);
  }
  const oldParams = a.contract.parameters;
  const newParams = b.contract.parameters;
  for (const p of oldParams) {
    if (!newParams.some((q) => q.name === p.name)) push('parameter-removed', true, `parameter ${p.name} removed (was ${paramText(p)}): calls that pass it fail`, paramText(p));
  }
  const positional = (ps: ParameterSpec[]) => ps.filter((p) => p.kind === 'positional_only' || p.kind === 'positional_or_keyword').map((p) => p.name);
  const oldPos = positional(oldParams);
  const newPos = positional(newParams);
  for (const q of newParams) {
    const p = oldParams.find((x) => x.name === q.name);
    if (!p) {
      const required = q.required;
      push('parameter-added', required, `parameter ${paramText(q)} added${required ? ' (required): calls without it fail' : ' (optional)'}`, undefined, paramText(q));
      continue;
    }
    if (p.required !== q.required) {
      if (q.required) push('parameter-required', true, `parameter ${q.name} is now required: calls without it fail`, 'optional', 'required');
      else push('parameter-optional', false, `parameter ${q.name} is now optional (${defaultText(q)})`, 'required', 'optional');
    } else if (!q.required && defaultText(p) !== defaultText(q)) {
      push('parameter-default', false, `parameter ${q.name}: ${defaultText(p)} → ${defaultText(q)}`, defaultText(p), defaultText(q));
    }
    if (p.kind !== q.kind) {
      const canPos = (k: string) => k === 'positional_only' || k === 'positional_or_keyword';
      const canKw = (k: string) => k === 'positional_or_keyword' || k === 'keyword_only';
      const lost = (canPos(p.kind) && !canPos(q.kind) ? ['by position'] : []).concat(canKw(p.kind) && !canKw(q.kind) ? ['by keyword'] : []);
      const variadic = (k: string) => k === 'var_positional' || k === 'var_keyword';
      const breaking = lost.length > 0 || variadic(p.kind) !== variadic(q.kind);
      push('parameter-kind', breaking, `parameter ${q.name}: ${p.kind} → ${q.kind}${lost.length ? `: it can no longer be passed ${lost.join(' or ')}` : ''}`, p.kind, q.kind);
    } else if (canPosition(p) && oldPos.indexOf(p.name) !== newPos.indexOf(q.name)) {
      push('parameter-moved', true, `parameter ${q.name} moved from position ${oldPos.indexOf(p.name) + 1} to ${newPos.indexOf(q.name) + 1}: positional calls pass it another value`, String(oldPos.indexOf(p.name) + 1), String(newPos.indexOf(q.name) + 1));
    }
    compareType(p.type, q.type, 'input', `parameter ${q.name}`, tool, out, 0);
  }
  compareType(a.contract.returns, b.contract.returns, 'output', 'returns', tool, out, 0);
}

function canPosition(p: ParameterSpec): boolean {
  return p.kind === 'positional_only' || p.kind === 'positional_or_keyword';
}

/** `: old → new` of the first line that differs (with its number when it is not the first), or the lines added or removed at the end. */
function lineChange(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const nonBlank = (lines: string[]) => firstLine(lines.slice(i).find((l) => l.trim()) ?? '');
  if (i >= a.length) return `: lines added: ${nonBlank(b)}`;
  if (i >= b.length) return `: lines removed: ${nonBlank(a)}`;
  return `${i ? ` at line ${i + 1}` : ''}: ${firstLine(a[i]) || '(blank)'} → ${firstLine(b[i]) || '(blank)'}`;
}

function firstLine(s: string): string {
  const line = s.split('\n')[0];
  return line.length > 80 ? line.slice(0, 77) + '...' : line;
}

function paramText(p: ParameterSpec): string {
  const star = p.kind === 'var_positional' ? '*' : p.kind === 'var_keyword' ? '**' : '';
  const def = p.required || star ? '' : ` = ${p.default_source ?? (p.default_is_none ? 'None' : '...')}`;
  return `${star}${p.name}: ${typeText(p.type)}${def}`;
}

function defaultText(p: ParameterSpec): string {
  if (p.kind === 'var_positional' || p.kind === 'var_keyword') return 'variadic';
  if (p.required) return 'required';
  return `default ${p.default_source ?? (p.default_is_none ? 'None' : '...')}`;
}

/**
 * Types compared where the model meets them: an input (parameter, or a record the model passes in) may
 * widen but not narrow; an output (returns) may narrow but not widen. Records of the same name are
 * compared field by field; other differences are one retype.
 */
function compareType(a: TypeSpec, b: TypeSpec, direction: 'input' | 'output', where: string, tool: string, out: ContractChange[], depth: number): void {
  if (depth > 8 || JSON.stringify(a) === JSON.stringify(b)) return;
  // An Annotated note, or a record's docstring: what doc(name) shows beside the type.
  if ((a.description ?? '') !== (b.description ?? '')) {
    out.push({ tool, kind: 'description', breaking: false, message: `${where}: description ${JSON.stringify(firstLine(a.description ?? ''))} → ${JSON.stringify(firstLine(b.description ?? ''))}`, before: a.description, after: b.description });
  }
  if (a.kind === 'record' && b.kind === 'record' && a.name === b.name) {
    compareFields(a, b, direction, where, tool, out, depth);
    return;
  }
  // The same structure around records: compare inside (list[Page] and list[Page] with a field changed).
  if (a.kind === b.kind && a.name === b.name && a.kind !== 'literal' && (a.arguments?.length ?? 0) === (b.arguments?.length ?? 0) && !!a.variadic === !!b.variadic && typeText(a) === typeText(b)) {
    (a.arguments ?? []).forEach((x, i) => compareType(x, b.arguments![i], direction, where, tool, out, depth + 1));
    return;
  }
  const before = typeText(a);
  const after = typeText(b);
  if (before === after) return;
  const widened = isSubtype(a, b);
  const narrowed = isSubtype(b, a);
  const breaking = direction === 'input' ? !widened : !narrowed;
  const how = widened && !narrowed ? 'widened' : narrowed && !widened ? 'narrowed' : 'changed';
  const consequence = !breaking ? '' : direction === 'input' ? ': values it accepted may be refused' : ': the model may get values it did not before';
  const kind: ChangeKind = where === 'returns' ? 'returns-retyped' : where.startsWith('field ') ? 'field-retyped' : 'parameter-retyped';
  out.push({ tool, kind, breaking, message: `${where}: ${before} → ${after} (${how})${consequence}`, before, after });
}

function compareFields(a: TypeSpec, b: TypeSpec, direction: 'input' | 'output', where: string, tool: string, out: ContractChange[], depth: number): void {
  const oldFields = a.fields ?? [];
  const newFields = b.fields ?? [];
  const at = (f: FieldSpec) => `field ${b.name}.${f.name}${where === 'returns' ? ' (returns)' : ` (${where})`}`;
  for (const f of oldFields) {
    if (newFields.some((g) => g.name === f.name)) continue;
    // Removed from a result: code reading it breaks; removed from an input: passing it fails.
    out.push({ tool, kind: 'field-removed', breaking: true, message: `${at(f)} removed`, before: `${f.name}: ${typeText(f.type)}` });
  }
  for (const g of newFields) {
    const f = oldFields.find((x) => x.name === g.name);
    if (!f) {
      const breaking = direction === 'input' && g.required;
      out.push({ tool, kind: 'field-added', breaking, message: `${at(g)} added${breaking ? ' (required): records passed without it fail' : ''}`, after: `${g.name}: ${typeText(g.type)}` });
      continue;
    }
    if (f.required !== g.required) {
      const breaking = direction === 'input' && g.required;
      out.push({ tool, kind: g.required ? 'field-required' : 'field-optional', breaking, message: `${at(g)} is now ${g.required ? 'required' : 'optional'}`, before: f.required ? 'required' : 'optional', after: g.required ? 'required' : 'optional' });
    }
    compareType(f.type, g.type, direction, at(g), tool, out, depth + 1);
  }
  if ((a.sequence_field ?? null) !== (b.sequence_field ?? null)) {
    out.push({ tool, kind: 'field-retyped', breaking: direction === 'output', message: `${b.name} (${where}): sequence field ${a.sequence_field ?? 'none'} → ${b.sequence_field ?? 'none'}`, before: a.sequence_field, after: b.sequence_field });
  }
}

/** Every value of `a` is a value of `b` (as far as TypeSpecs tell: records and opaque types by name). */
export function isSubtype(a: TypeSpec, b: TypeSpec, depth = 0): boolean {
  if (depth > 16) return false;
  if (b.kind === 'any') return true;
  if (a.kind === 'any') return false;
  if (a.kind === 'union') return (a.arguments ?? []).every((m) => isSubtype(m, b, depth + 1));
  if (b.kind === 'union') {
    if (a.kind === 'literal') return (a.values ?? []).every((v) => (b.arguments ?? []).some((m) => isSubtype({ kind: 'literal', name: 'Literal', values: [v] }, m, depth + 1)));
    return (b.arguments ?? []).some((m) => isSubtype(a, m, depth + 1));
  }
  switch (a.kind) {
    case 'null':
      return b.kind === 'null' || (b.kind === 'literal' && (b.values ?? []).includes(null));
    case 'literal':
      return (a.values ?? []).every((v) => literalIn(v, b));
    case 'scalar':
      if (b.kind !== 'scalar') return false;
      return a.name === b.name || (a.name === 'bool' && (b.name === 'int' || b.name === 'float')) || (a.name === 'int' && b.name === 'float');
    case 'generic': {
      if (b.kind !== 'generic' || a.name !== b.name) return false;
      const aa = a.arguments ?? [];
      const ba = b.arguments ?? [];
      if (!ba.length) return true;
      if (b.variadic) return aa.every((x) => isSubtype(x, ba[0], depth + 1));
      if (a.variadic || aa.length !== ba.length) return false;
      return aa.every((x, i) => isSubtype(x, ba[i], depth + 1));
    }
    default:
      return a.kind === b.kind && a.name === b.name;
  }
}

function literalIn(v: string | number | boolean | null, b: TypeSpec): boolean {
  if (b.kind === 'literal') return (b.values ?? []).some((w) => w === v && typeof w === typeof v);
  if (v === null) return b.kind === 'null';
  if (b.kind !== 'scalar') return false;
  if (typeof v === 'string') return b.name === 'str';
  if (typeof v === 'boolean') return b.name === 'bool' || b.name === 'int' || b.name === 'float';
  return b.name === 'int' || b.name === 'float';
}

/** The comparison as text: a summary line, then each changed tool with its changes, breaking ones marked. */
export function diffText(diff: ContractDiff, label: string): string {
  if (!diff.changes.length) return `No contract changes since ${label}: the model sees the same tools.\n`;
  const counts = [
    diff.changed && `${diff.changed} tool${diff.changed === 1 ? '' : 's'} changed`,
    diff.added && `${diff.added} added`,
    diff.removed && `${diff.removed} removed`,
  ].filter(Boolean);
  const lines = [`Contract changes since ${label}: ${counts.join(', ') || 'nothing compared'}; ${diff.breaking} breaking change${diff.breaking === 1 ? '' : 's'}.`];
  const byTool = new Map<string, ContractChange[]>();
  for (const c of diff.changes) byTool.set(c.tool, [...(byTool.get(c.tool) ?? []), c]);
  for (const [tool, changes] of byTool) {
    lines.push('', tool);
    for (const c of changes) lines.push(`  ${c.breaking ? 'BREAKING ' : ''}${c.message}`);
  }
  return lines.join('\n') + '\n';
}
