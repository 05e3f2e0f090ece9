// The Outline of a Vis extension file: the extension it registers, and under it its tools (by the public
// name the model calls them, with their tag; a namespace with its members), slash commands, op hooks,
// network filters, providers and settings. A module that declares tools or hooks for an entry elsewhere
// gets them at the top level. Read from the declaration model and the program's Symbol analysis.
import type { SymbolInfo } from '../contracts/symbols';
import type { G1ToolInfo } from '../contracts/g1';
import { fieldText, findExtension, slashCommands } from '../docs/extension';
import { resolve } from '../model/sdk';
import type { Argument, Call, Model, Range, Value } from '../model/types';

export type OutlineKind = 'extension' | 'tool' | 'namespace' | 'member' | 'slash' | 'hook' | 'filter' | 'provider' | 'setting';

export interface OutlineItem {
  kind: OutlineKind;
  name: string;
  detail: string;
  /** The whole declaration, in this module. */
  range: Range;
  /** What to select when the item is picked (inside `range`). */
  selectionRange: Range;
  children: OutlineItem[];
}

/** Binds a call to an SDK member's parameters (the SDK table's binding). */
export type Bind = (call: Call) => Map<string, Argument> | undefined;

const within = (inner: Range, outer: Range) =>
  (inner.start.line > outer.start.line || (inner.start.line === outer.start.line && inner.start.character >= outer.start.character)) &&
  (inner.end.line < outer.end.line || (inner.end.line === outer.end.line && inner.end.character <= outer.end.character));

const item = (kind: OutlineKind, name: string, detail: string, range: Range, selectionRange: Range, children: OutlineItem[] = []): OutlineItem => ({
  kind,
  name,
  detail,
  range,
  selectionRange: within(selectionRange, range) ? selectionRange : range,
  children,
});

function flags(tag: string | undefined, hidden: boolean | undefined): string {
  return [tag, hidden ? 'hidden' : undefined].filter(Boolean).join(' · ');
}

function typedTools(model: Model, infos: SymbolInfo[]): OutlineItem[] {
  return infos.map((info) => {
    const target = info.call.args[0];
    const selection = target?.range ?? info.call.calleeRange;
    if (info.form === 'object') {
      const members = info.tools.map((t) => {
        const here = t.decl && t.declUri === model.uri;
        return item('member', t.name, flags(t.tag, t.hidden), here ? t.decl!.range : info.call.range, here ? t.decl!.nameRange : selection);
      });
      return item('namespace', info.name ?? target?.value.text ?? '?', `${members.length} tool${members.length === 1 ? '' : 's'}${info.hidden ? ' · hidden' : ''}`, info.call.range, selection, members);
    }
    const tool = info.tools[0];
    return item('tool', info.name ?? target?.value.text ?? '?', flags(tool?.tag, info.hidden), info.call.range, selection);
  });
}

function g1ToolItems(tools: G1ToolInfo[]): OutlineItem[] {
  return tools.map((t) => {
    const target = t.call.args[0];
    const c = t.contract;
    return item('tool', c ? (c.sandbox_name ?? c.symbol) : (target?.value.text ?? '?'), c ? flags(c.tag, c.hidden) : '', t.call.range, target?.range ?? t.call.calleeRange);
  });
}

/** A value as the outline names it: a known string, else its source text. */
function text(model: Model, v: Value | undefined): string | undefined {
  if (!v) return undefined;
  const r = resolve(model, v);
  return r.kind === 'str' ? r.value : v.text;
}

function callsOf(model: Model, ...keys: string[]): Call[] {
  return keys.flatMap((k) => model.sdkCalls.get(k) ?? []).sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

function hooks(model: Model, bind: Bind): OutlineItem[] {
  return callsOf(model, 'typed.OpHook', 'g1.op_hook').map((call) => {
    const args = bind(call);
    const ops = args?.get('ops') && resolve(model, args.get('ops')!.value);
    const names = ops && (ops.kind === 'list' || ops.kind === 'tuple') ? ops.items.map((o) => text(model, o) || '""').join(', ') : (ops?.text ?? '?');
    const phase = text(model, args?.get('phase')?.value) ?? 'before';
    return item('hook', `${phase} ${names}`, args?.get('fn')?.value.text ?? '', call.range, args?.get('ops')?.value.range ?? call.calleeRange);
  });
}

function filters(model: Model, bind: Bind): OutlineItem[] {
  return callsOf(model, 'typed.NetworkFilter', 'g1.network_filter').map((call) => {
    const fn = bind(call)?.get('fn');
    return item('filter', 'network filter', fn?.value.text ?? '', call.range, fn?.value.range ?? call.calleeRange);
  });
}

function named(model: Model, bind: Bind, kind: OutlineKind, keys: string[], id: string, label: string): OutlineItem[] {
  return callsOf(model, ...keys).map((call) => {
    const args = bind(call);
    const idArg = args?.get(id);
    return item(kind, text(model, idArg?.value) ?? '?', text(model, args?.get(label)?.value) ?? '', call.range, idArg?.value.range ?? call.calleeRange);
  });
}

/** The module's Outline items. */
export function outline(model: Model, infos: SymbolInfo[], g1: G1ToolInfo[], bind: Bind): OutlineItem[] {
  if (!model.generation) return [];
  const ext = findExtension(model);
  const slash = ext
    ? (slashCommands(model, ext) ?? []).map((s) => item('slash', `/${s.name}`, s.usage ?? (s.doc ? s.doc.split('\n')[0] : ''), s.range, s.range))
    : [];
  const children = [
    ...(model.generation === 'G1' ? g1ToolItems(g1) : typedTools(model, infos)),
    ...slash,
    ...hooks(model, bind),
    ...filters(model, bind),
    ...named(model, bind, 'provider', ['typed.Provider', 'g1.provider'], 'id', 'label'),
    ...named(model, bind, 'setting', ['typed.Setting'], 'id', 'label'),
  ];
  if (!ext) return children;
  const declaration = ext.declaration ?? ext.anchor;
  const name = fieldText(model, ext, 'name');
  const alias = fieldText(model, ext, 'alias');
  const nameArg = ext.fields.get('name');
  // A blank name= (EXT-003) still gets an Outline entry: editors refuse a symbol without a name.
  return [item('extension', name || '(extension)', [ext.generation, alias ? `alias ${alias}` : undefined].filter(Boolean).join(' · '), declaration.range, nameArg?.value.range ?? declaration.calleeRange, children)];
}
