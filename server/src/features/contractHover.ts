// Symbol contracts in the editor: a hover card on `vis.Symbol(` (G1: `vis.symbol(`), on the function or
// object passed to it and on the `def` of an exported tool, and the `visAuthoring/symbolContract` request
// behind "Vis: Copy Symbol Contract as JSON". The card is compact by default (`visAuthoring.hover.contract`):
// the public name, signature and description in at most six lines, then the parameter and record tables,
// the exact contract JSON and the generated doc text folded below; `full` shows the tables unfolded, `off`
// shows no card. The contracts are the program's Symbol analysis (once per module version, format and the
// versions of the sibling modules it read), the same one the diagnostics and previews read; G1 tools are
// the program's G1 tools, in the host's terms.
import type { Position } from 'vscode-languageserver/node';
import { SymbolContractRequest, type SymbolContractParams, type SymbolContractResult } from '../../../shared/protocol';
import type { Analysis } from '../analysis';
import { CONTRACT_FORMATS, contractSteps, isNamespace, typeText, type CallableContract, type ContractFormat, type SymbolInfo, type ToolInfo, type TypeSpec, type UnknownPart } from '../contracts';
import type { G1Contract, G1ToolInfo } from '../contracts/g1';
import type { FunctionDecl, Model, Range } from '../model/types';
import { contractFormatFor, type ContractFormatSetting } from '../sdk/profile';
import { currentAnalysisOf, g1ToolsOf, symbolsOf, type ServerContext } from './context';
import { addHoverSource, contains } from './hover';

/** The contracts of analysed modules, and the Symbol or tool at a position. */
export class ContractService {
  /** `symbols` gives a module's Symbol analysis (the program's, in the server); `g1` its G1 tools. */
  constructor(
    private symbols: (analysis: Pick<Analysis, 'model'>, format: ContractFormat) => SymbolInfo[],
    private g1: (analysis: Pick<Analysis, 'model'>) => G1ToolInfo[] = () => [],
  ) {}

  /** Also for the docs preview. */
  infos(analysis: Pick<Analysis, 'model'>, format: ContractFormat): SymbolInfo[] {
    return this.symbols(analysis, format);
  }

  /** The steps that compute every tool's contract and page, to run in slices before reading them all. */
  steps(analysis: Pick<Analysis, 'model'>, format: ContractFormat): Iterable<void> {
    return contractSteps(this.infos(analysis, format));
  }

  /** The Symbol or tool at a position: on the call, on its first argument, or on the `def` of an exported function. */
  at(analysis: Analysis, position: Position, format: ContractFormat): Target | undefined {
    if (analysis.model.generation === 'G1') return this.g1At(analysis, position);
    const infos = this.infos(analysis, format);
    for (const info of infos) {
      const fn = info.call.args[0];
      if (contains(info.call.calleeRange, position) || (fn && contains(fn.range, position))) return { info };
    }
    for (const info of infos) {
      for (const tool of info.tools) {
        if (tool.decl && tool.declUri === analysis.uri && contains(defRange(tool.decl), position)) return { info, tool };
      }
    }
    for (const info of infos) if (contains(info.call.range, position)) return { info };
    return undefined;
  }

  /** The G1 tool at a position: on `vis.symbol(`, its first argument, the `def` of its function, or anywhere in the call. */
  private g1At(analysis: Analysis, position: Position): Target | undefined {
    const tools = this.g1(analysis);
    const hit =
      tools.find((t) => contains(t.call.calleeRange, position) || (t.call.args[0] && contains(t.call.args[0].range, position))) ??
      tools.find((t) => t.decl && t.declUri === analysis.uri && contains(defRange(t.decl), position)) ??
      tools.find((t) => contains(t.call.range, position));
    return hit && { g1: hit };
  }
}

/** What a contract hover or request is about: a typed Symbol (or one of its tools), or a G1 tool. */
export type Target = TypedTarget | { g1: G1ToolInfo };

export interface TypedTarget {
  info: SymbolInfo;
  /** Set when the position is on the `def` of one exported tool (a function or a namespace member). */
  tool?: ToolInfo;
}

/** `visAuthoring.hover.contract`: the compact card (default), the full card, or no card. */
export type ContractHoverMode = 'compact' | 'full' | 'off';

export function contractHoverMode(ctx: ServerContext): ContractHoverMode {
  const mode: unknown = ctx.settings.hover?.contract;
  return mode === 'full' || mode === 'off' ? mode : 'compact';
}

/** The `def` line up to the end of the name (decorators excluded). */
function defRange(decl: FunctionDecl): Range {
  return { start: { line: decl.nameRange.start.line, character: 0 }, end: decl.nameRange.end };
}

/** visAuthoring.contractFormat as set (`auto` when it names no format). */
export function formatSetting(ctx: ServerContext): ContractFormatSetting {
  const s = ctx.settings.contractFormat;
  return CONTRACT_FORMATS.includes(s as ContractFormat) ? s : 'auto';
}

/** The contract format of a file: the chosen one, or its SDK version's (`auto`). */
export function formatOf(ctx: ServerContext, model: Model): ContractFormat {
  return contractFormatFor(model.sdk, formatSetting(ctx));
}

/** The result of `visAuthoring/symbolContract` for a target. */
export function contractResult(target: Target | undefined): SymbolContractResult {
  if (!target) return null;
  if ('g1' in target) return target.g1.contract ? { contract: target.g1.contract, doc: target.g1.contract.doc, unknowns: [] } : null;
  if (target.tool) return { contract: target.tool.contract, doc: target.tool.doc, unknowns: target.tool.unknowns };
  const { info } = target;
  if (!info.contract) return null;
  if (!isNamespace(info.contract)) return { contract: info.contract, doc: info.tools[0]?.doc ?? '', unknowns: info.tools[0]?.unknowns ?? [] };
  const unknowns = [...info.unknownTools, ...info.tools.flatMap((t) => t.unknowns.map((u) => ({ where: `${t.name}: ${u.where}`, reason: u.reason })))];
  return { contract: info.contract, doc: info.tools.map((t) => `${helpHeader(t.contract)}\n\n${t.doc}`).join('\n\n'), unknowns };
}

/** `Catalog.help` header: `name(signature)` in C1, `name<signature>` in C2/C3 (the signature has its parentheses). */
function helpHeader(c: CallableContract): string {
  return c.signature.startsWith('(') ? `${c.name}${c.signature}` : `${c.name}(${c.signature})`;
}

// ---------------------------------------------------------------------------------------------
// Markdown

const cell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
const code = (s: string) => '`' + s.replace(/`/g, "'") + '`';
/**
 * A code span inside a table cell. GFM splits a row at every unescaped `|`, code spans included, and
 * turns `\|` back into `|` inside them; nothing else is unescaped there, so backslashes stay as they are.
 */
const codeCell = (s: string) => code(s).replace(/\|/g, '\\|');

function fence(lang: string, text: string): string {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

/** The card's first lines: the public name with its tag and hidden flag, then the signature. */
/** A tag as the card shows it: struck through and explained when the SDK version refuses it. */
const tagText = (tag: string, invalid?: string) => (invalid ? `~~${code(tag)}~~ (invalid: ${cell(invalid)})` : code(tag));

function toolHead(c: CallableContract, hidden: boolean, invalidTag?: string): string[] {
  return [`**${code(c.name)}** · Vis tool · tag ${tagText(c.tag, invalidTag)}${hidden ? ' · hidden' : ''}`, fence('python', helpHeader(c))];
}

function parameterTable(c: CallableContract): string | undefined {
  if (!c.parameters.length) return undefined;
  const rows = ['| Parameter | Type | Kind | Default | Description |', '| --- | --- | --- | --- | --- |'];
  for (const p of c.parameters) {
    const def =
      p.kind === 'var_positional' || p.kind === 'var_keyword'
        ? 'variadic'
        : p.required
          ? 'required'
          : p.default_source != null
            ? codeCell(p.default_source)
            : p.default_is_none
              ? code('None')
              : 'has default';
    rows.push(`| ${codeCell(p.name)} | ${codeCell(typeText(p.type))} | ${p.kind} | ${def} | ${cell(p.type.description ?? '')} |`);
  }
  return rows.join('\n');
}

/** The parts of a contract that are not statically known, and why: a list under the card. */
function unknownsBlock(unknowns: readonly UnknownPart[]): string | undefined {
  if (!unknowns.length) return undefined;
  const items = unknowns.map((u) => `- ${u.where}: ${u.reason.replace(/\r?\n/g, ' ')}`);
  return `**Not statically known** (the contract shows what Vis gives in the common case):\n\n${items.join('\n')}`;
}

/** The compact card's one line about what is not statically known (the list is folded with the tables). */
function unknownsLine(count: number): string | undefined {
  return count ? `_${count} part${count === 1 ? ' is' : 's are'} not statically known (below)._` : undefined;
}

/** The parameter table, the return record and what is not statically known, as the card shows them. */
function tables(c: CallableContract, unknowns: readonly UnknownPart[] = []): string {
  return [parameterTable(c), returnsBlock(c.returns), unknownsBlock(unknowns)].filter((x) => x !== undefined).join('\n\n');
}

function toolCard(c: CallableContract, hidden: boolean, unknowns: readonly UnknownPart[] = [], invalidTag?: string): string {
  return [...toolHead(c, hidden, invalidTag), c.description, tables(c, unknowns)].join('\n\n');
}

/** The first line of a description: what apropos shows, and the compact card's line. */
function firstLine(text: string): string {
  return text.split('\n')[0];
}

function returnsBlock(t: TypeSpec): string {
  const lines = [`**Returns** ${code(typeText(t))}${t.description ? ` — ${cell(t.description)}` : ''}`];
  const record = firstRecord(t);
  if (record?.fields?.length) {
    if (record !== t) lines.push(`\n${code(record.name)}${record.description ? ` — ${cell(record.description)}` : ''}`);
    if (record.sequence_field) lines.push(`\nSequence over ${code(record.sequence_field)}.`);
    const rows = ['', '| Field | Type | Required | Description |', '| --- | --- | --- | --- |'];
    for (const f of record.fields) rows.push(`| ${codeCell(f.name)} | ${codeCell(typeText(f.type))} | ${f.required ? 'yes' : 'no'} | ${cell(f.type.description ?? '')} |`);
    lines.push(rows.join('\n'));
  }
  return lines.join('\n');
}

/** The record a return type is about: itself, or the record inside a container or union. */
function firstRecord(t: TypeSpec, depth = 0): TypeSpec | undefined {
  if (t.kind === 'record') return t;
  if (depth > 4) return undefined;
  for (const a of t.arguments ?? []) {
    const r = firstRecord(a, depth + 1);
    if (r) return r;
  }
  return undefined;
}

function details(summary: string, body: string): string {
  return `<details><summary>${summary}</summary>\n\n${body}\n\n</details>`;
}

/** How many lines the compact card shows before what it folds. */
export const COMPACT_LINES = 6;

/**
 * The hover card of a target. `compact` (the default): the public name, signature and description in at
 * most six lines, the tables, the contract JSON and the doc text folded below; `full`: the tables shown.
 */
export function hoverMarkdown(target: Target, format: ContractFormat, mode: 'compact' | 'full' = 'compact'): string | undefined {
  if ('g1' in target) return g1Markdown(target.g1, mode);
  const { info, tool } = target;
  const parts: string[] = [];
  if (tool) {
    const c = tool.contract;
    if (mode === 'full') parts.push(toolCard(c, tool.hidden, tool.unknowns, tool.invalidTag));
    else parts.push(...toolHead(c, tool.hidden, tool.invalidTag), firstLine(c.description), ...[unknownsLine(tool.unknowns.length)].filter((x) => x !== undefined), details('Parameters and returns', tables(c, tool.unknowns)));
    parts.push(details(`Contract JSON (${format})`, fence('json', JSON.stringify(c, null, 2))));
    parts.push(details(`doc(${cell(tool.name)})`, fence('text', tool.doc)));
    return parts.join('\n\n');
  }
  if (!info.contract) {
    return info.unknownReason ? `**Vis Symbol** · contract not statically known: ${info.unknownReason}.` : undefined;
  }
  if (!isNamespace(info.contract)) {
    return hoverMarkdown({ info, tool: info.tools[0] }, format, mode);
  }
  parts.push(`**${code(info.contract.name)}** · Vis namespace · ${info.tools.length} member${info.tools.length === 1 ? '' : 's'}`);
  const partial = info.unknownReason ? `_Partial: ${info.unknownReason}._` : undefined;
  if (partial) parts.push(partial);
  const gaps = unknownsBlock(info.unknownTools);
  const rows = ['| Member | Tag | Signature |', '| --- | --- | --- |'];
  for (const t of info.tools) rows.push(`| ${codeCell(t.name)}${t.hidden ? ' (hidden)' : ''} | ${t.tag} | ${codeCell(t.contract.signature)} |`);
  const cards = info.tools.map((t) => `---\n\n${toolCard(t.contract, t.hidden, t.unknowns, t.invalidTag)}`);
  if (mode === 'full') {
    parts.push(...(gaps ? [gaps] : []), rows.join('\n'), ...cards);
  } else {
    const unknown = unknownsLine(info.unknownTools.length + info.tools.reduce((n, t) => n + t.unknowns.length, 0));
    if (unknown) parts.push(unknown);
    // One line per member, as many as fit in the compact lines; the table and the cards are folded.
    const room = COMPACT_LINES - parts.length;
    const shown = info.tools.length <= room ? info.tools : info.tools.slice(0, room - 1);
    const list = shown.map((t) => `- ${code(helpHeader(t.contract))} · ${t.tag}${t.hidden ? ' · hidden' : ''}`);
    if (shown.length < info.tools.length) list.push(`- … and ${info.tools.length - shown.length} more`);
    if (list.length) parts.push(list.join('\n'));
    parts.push(details('Members', [...(gaps ? [gaps] : []), rows.join('\n'), ...cards].join('\n\n')));
  }
  parts.push(details(`Contract JSON (${format})`, fence('json', JSON.stringify(info.contract, null, 2))));
  for (const t of info.tools) parts.push(details(`doc(${cell(t.name)})`, fence('text', t.doc)));
  return parts.join('\n\n');
}

/** How the model calls a G1 tool: its sandbox name and positional parameters (`*args` for `& args`). */
function g1CallText(c: G1Contract): string {
  const argv = c.arglists[0] ?? [];
  const rest = argv.indexOf('&');
  const params = rest === -1 ? argv : [...argv.slice(0, rest), `*${argv[rest + 1]}`];
  return `${c.sandbox_name ?? c.symbol}(${params.join(', ')})`;
}

/** The `:arglists` as Clojure prints them: `[n & args]`. */
function arglistsText(c: G1Contract): string {
  return c.arglists.map((a) => `[${a.join(' ')}]`).join(' ');
}

function g1Markdown(tool: G1ToolInfo, mode: 'compact' | 'full'): string | undefined {
  const c = tool.contract;
  if (!c) return tool.unknownReason ? `**Vis tool (G1)** · no contract: ${tool.unknownReason}.` : undefined;
  const name = c.sandbox_name ?? c.symbol;
  const registry =
    c.sandbox_name !== null
      ? `Registry symbol ${code(c.symbol)} · alias ${code(c.alias ?? '')} · arglists ${code(arglistsText(c))}`
      : `Registry symbol ${code(c.symbol)} · arglists ${code(arglistsText(c))} · the sandbox binds it as ${code(`<alias>_${c.symbol}`)}, under the alias of the extension that registers it`;
  return [
    `**${code(name)}** · Vis tool (G1) · tag ${code(c.tag)}${c.hidden ? ' · hidden' : ''}`,
    fence('python', g1CallText(c)),
    mode === 'full' ? c.doc : firstLine(c.doc),
    registry,
    details('Host registration (JSON)', fence('json', JSON.stringify(c, null, 2))),
    details(`doc(${cell(name)})`, fence('text', c.doc)),
  ].join('\n\n');
}

// ---------------------------------------------------------------------------------------------
// Server wiring

export function registerContractHover(ctx: ServerContext): ContractService {
  const service = new ContractService(
    (analysis) => symbolsOf(ctx, analysis.model.uri),
    (analysis) => g1ToolsOf(ctx, analysis.model.uri),
  );
  addHoverSource((analysis, position) => {
    const mode = contractHoverMode(ctx);
    if (mode === 'off') return undefined;
    const format = formatOf(ctx, analysis.model);
    const target = service.at(analysis, position, format);
    return target ? hoverMarkdown(target, format, mode) : undefined;
  });
  ctx.connection.onRequest(SymbolContractRequest, async (params: SymbolContractParams): Promise<SymbolContractResult> => {
    const doc = ctx.documents.get(params.uri);
    const analysis = doc && (await currentAnalysisOf(ctx, doc));
    if (!analysis) return null;
    return contractResult(service.at(analysis, params.position, formatOf(ctx, analysis.model)));
  });
  return service;
}
