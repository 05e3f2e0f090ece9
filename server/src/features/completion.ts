// Completion inside calls of the Vis SDK, from the one SDK table for the file's generation and version:
// the keyword arguments a call has not been given (each with its type, and one line of the API
// reference on resolve), the values of closed vocabularies (tags, phases, op names, presenters, levels,
// routing verbs, Setting kinds...), `vis.Symbol(...)` entries for the module's functions and objects in
// `symbols=[...]`, and in `env=[...]` the variable names the module reads from `os.environ`. Nothing is
// offered outside SDK calls, so a Python language server's completion is never repeated.
import {
  CompletionItemKind,
  InsertTextFormat,
  MarkupKind,
  type CompletionItem,
  type CompletionList,
} from 'vscode-languageserver/node';
import { envNamesRead } from '../editor/environ';
import { TYPED_MODULE, G1_MODULE, qualify } from '../model/sdk';
import type { Model } from '../model/types';
import { describeReleases, RELEASES } from '../sdk/releases';
import { sdkMemberByQualified, valueReleases, vocabularyOf, ANY_RELEASE, type SdkMember, type SdkParam } from '../sdk/table';
import { at, type At } from './at';
import type { ServerContext } from './context';

export const TRIGGER_CHARACTERS = ['(', ',', '=', '"', "'"];

/** What resolve needs to find an item's documentation in the SDK table again. */
interface ItemData {
  member: string;
  param?: string;
  value?: string;
  doc?: string;
}

function keywordItems(a: At, member: SdkMember, params: readonly SdkParam[]): CompletionItem[] {
  const call = a.cursor.call!;
  // The keywords of the other arguments (a keyword right after the cursor, in its argument, counts too).
  const given = new Set(call.keywords.filter((k) => k.index !== call.index || k.start >= a.offset).map((k) => k.name));
  // Parameters the positional arguments before the cursor already bind.
  const positional = params.filter((p) => p.kind === 'positional_only' || p.kind === 'positional_or_keyword').slice(0, call.positionalBefore);
  for (const p of positional) given.add(p.name);
  return params
    .filter((p) => (p.kind === 'positional_or_keyword' || p.kind === 'keyword_only') && !given.has(p.name))
    .map((p, i) => ({
      label: `${p.name}=`,
      kind: CompletionItemKind.Property,
      detail: p.type ?? (p.default !== undefined ? `= ${p.default}` : undefined),
      sortText: `0${String(i).padStart(3, '0')}`,
      insertText: `${p.name}=`,
      data: { member: member.qualified, param: p.name } satisfies ItemData,
    }));
}

/** The values of a parameter's closed vocabulary: in a string, its content is replaced; elsewhere a quoted literal. */
function valueItems(a: At, member: SdkMember, param: SdkParam, quoted: boolean): CompletionItem[] {
  const vocab = vocabularyOf(param, a.sdkCall!.scope);
  if (!vocab) return [];
  return vocab.values.map((v, i) => valueItem(a, member, param, v.value, quoted, i, { value: v.value }));
}

function valueItem(a: At, member: SdkMember, param: SdkParam, value: string, quoted: boolean, i: number, data: Partial<ItemData>): CompletionItem {
  const s = a.cursor.string;
  const item: CompletionItem = {
    label: value,
    kind: CompletionItemKind.EnumMember,
    sortText: `0${String(i).padStart(3, '0')}`,
    filterText: value,
    data: { member: member.qualified, param: param.name, ...data } satisfies ItemData,
  };
  if (s) {
    const line = (o: number) => a.doc.positionAt(o).line;
    // Replace the string's content (on its line) with the value.
    if (line(s.start) === line(a.offset)) item.textEdit = { insert: a.range(s.start, a.offset), replace: a.range(s.start, line(s.end) === line(a.offset) ? s.end : a.offset), newText: value };
  } else if (quoted) {
    item.label = `"${value}"`;
    item.textEdit = { range: a.range(a.cursor.word.start, a.offset), newText: `"${value}"` };
  }
  return item;
}

/** The module's functions and objects that could be tools and are not exported yet, as `vis.Symbol(...)` entries. */
function symbolItems(a: At, member: SdkMember): CompletionItem[] {
  const model = a.analysis.model;
  const typed = member.module === TYPED_MODULE;
  const alias = sdkAlias(model, typed ? TYPED_MODULE : G1_MODULE);
  if (!alias) return [];
  const exported = new Set([...a.symbols(a.uri).map((i) => i.call.args[0]?.value.text), ...a.g1Tools(a.uri).map((t) => t.call.args[0]?.value.text)]);
  const out: CompletionItem[] = [];
  const builder = typed ? 'Symbol' : 'symbol';
  const add = (target: string, snippet: string, detail: string, doc?: string) => {
    if (exported.has(target)) return;
    out.push({
      label: `${alias}.${builder}(${target})`,
      kind: CompletionItemKind.Function,
      detail,
      filterText: target,
      sortText: `0${String(out.length).padStart(3, '0')}`,
      insertTextFormat: InsertTextFormat.Snippet,
      insertText: `${alias}.${builder}(${snippet})`,
      textEdit: { range: a.range(a.cursor.word.start, a.offset), newText: `${alias}.${builder}(${snippet})` },
      data: { member: member.qualified, doc } satisfies ItemData,
    });
  };
  for (const [name, bindings] of model.bindings) {
    if (name.startsWith('_') || bindings.length !== 1) continue;
    const b = bindings[0];
    // A function needs a docstring to be a tool (it becomes its doc()).
    if (b.kind === 'function' && b.decl.docstring?.trim()) add(name, name, 'function', b.decl.docstring.trim().split('\n')[0]);
    else if (typed && b.kind === 'class' && b.decl.methods.some((m) => !m.name.startsWith('_'))) add(`${name}()`, `${name}(), name="\${1:${snake(name)}}"`, 'namespace object', b.decl.docstring?.trim().split('\n')[0]);
    else if (typed && b.kind === 'assign' && b.value.kind === 'call' && model.bindings.get(b.value.call.callee)?.[0]?.kind === 'class') add(name, `${name}, name="\${1:${name}}"`, 'namespace object');
  }
  return out;
}

/** `Tools` → `tools`, `NotesTools` → `notes_tools`. */
function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** The name the module binds an SDK module to (`vis`), if it does. */
function sdkAlias(model: Model, module: string): string | undefined {
  for (const imp of model.imports) if (!imp.conditional && qualify(model, imp.local) === module) return imp.local;
  return undefined;
}

/** The environment variable names the module reads, for `env=[...]`, less those the list has. */
function envItems(a: At, member: SdkMember, param: SdkParam): CompletionItem[] {
  const call = a.cursor.call!;
  const close = a.text.indexOf(']', a.offset);
  const list = a.text.slice(call.argStart, close === -1 ? a.offset : close);
  const listed = new Set([...list.matchAll(/["']([A-Za-z_][A-Za-z0-9_]*)["']/g)].map((m) => m[1]));
  return envNamesRead(a.text)
    .filter((n) => !listed.has(n))
    .map((n, i) => ({ ...valueItem(a, member, param, n, true, i, { doc: 'Read with `os.environ` in this module.' }), kind: CompletionItemKind.Constant }));
}

export function completions(a: At): CompletionItem[] {
  const { cursor } = a;
  const sdk = a.sdkCall;
  if (cursor.comment || !sdk || cursor.nesting.length > 1) return [];
  const { member, params, param } = sdk;
  const call = cursor.call!;
  const inList = cursor.nesting.length === 1;
  if (inList && cursor.nesting[0].ch !== '[') return [];
  const isEnv = param?.name === 'env' && inList;
  if (cursor.string) {
    // A value in a string: `tag="obs|"`, `ops=["pa|"]`, `env=["|"]`.
    if (!param || cursor.string.prefix !== '') return [];
    return isEnv ? envItems(a, member, param) : valueItems(a, member, param, false);
  }
  // What the argument holds before the word being typed.
  const before = a.text.slice(call.argStart, cursor.word.start);
  if (inList) {
    // Right after `[` or `,` in a list argument: its values, or the Symbol entries of `symbols=[...]`.
    if (!param || !/[[,]\s*$/.test(before)) return [];
    if (param.holds === 'Symbol' || (param.name === 'symbols' && member.module === G1_MODULE)) return symbolItems(a, member);
    return isEnv ? envItems(a, member, param) : valueItems(a, member, param, true);
  }
  if (call.keyword !== undefined) {
    // Right after `name=`: the parameter's values.
    return param && /=\s*$/.test(before) ? valueItems(a, member, param, true) : [];
  }
  // At the start of an argument: the keywords not given yet.
  return before.trim() === '' ? keywordItems(a, member, params) : [];
}

/** One line of the API reference for an item, and what it is. */
export function resolveCompletion(item: CompletionItem): CompletionItem {
  const data = item.data as ItemData | undefined;
  const member = data && sdkMemberByQualified(ANY_RELEASE, data.member);
  if (!data || !member) return item;
  const param = data.param ? allParams(member).find((p) => p.name === data.param) : undefined;
  const lines: string[] = [];
  if (data.value !== undefined && param) {
    const value = vocabularyOf(param, ANY_RELEASE)?.values.find((v) => v.value === data.value);
    if (value) lines.push(value.doc);
    if (value?.releases) lines.push(`_Available in ${describeReleases(valueReleases(value))}._`);
  } else if (data.doc) {
    lines.push(data.doc);
  } else if (param) {
    lines.push(`\`${param.name}${param.type ? `: ${param.type}` : ''}${param.default !== undefined ? ` = ${param.default}` : ''}\` — ${param.doc ?? `a parameter of ${member.name}`}`);
    if (param.releases.size < member.releases.size) lines.push(`_Available in ${describeReleases(param.releases)}._`);
  } else {
    lines.push(member.doc);
  }
  lines.push(`(${member.module}.${member.name})`);
  return { ...item, documentation: { kind: MarkupKind.Markdown, value: lines.join('\n\n') } };
}

/** Every parameter of a member across its releases, by name. */
function allParams(member: SdkMember): SdkParam[] {
  const out = new Map<string, SdkParam>();
  for (const r of RELEASES) if (member.releases.has(r.id)) for (const p of member.paramsIn(r)) if (!out.has(p.name)) out.set(p.name, p);
  return [...out.values()];
}

export function registerCompletion(ctx: ServerContext): void {
  ctx.connection.onCompletion((params): CompletionList | null => {
    try {
      const a = at(ctx, params.textDocument.uri, params.position);
      const items = a ? completions(a) : [];
      return items.length ? { isIncomplete: false, items } : null;
    } catch (e) {
      ctx.log(`completion failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return null;
    }
  });
  ctx.connection.onCompletionResolve((item) => {
    try {
      return resolveCompletion(item);
    } catch {
      return item;
    }
  });
}
