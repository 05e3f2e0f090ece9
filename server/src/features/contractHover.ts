// Symbol contracts in the editor: a hover card on `vis.Symbol(`, on the function or object passed to
// it and on the `def` of an exported tool (with the exact contract JSON and the generated doc text
// folded below), and the `visAuthoring/symbolContract` request behind "Vis: Copy Symbol Contract as JSON".
// The contracts are the program's Symbol analysis (once per module version, format and the versions of
// the sibling modules it read), the same one the diagnostics and previews read.
import type { Position } from 'vscode-languageserver/node';
import { SymbolContractRequest, type SymbolContractParams, type SymbolContractResult } from '../../../shared/protocol';
import type { Analysis } from '../analysis';
import { CONTRACT_FORMATS, contractSteps, isNamespace, typeText, type CallableContract, type ContractFormat, type SymbolInfo, type ToolInfo, type TypeSpec, type UnknownPart } from '../contracts';
import type { FunctionDecl, Range } from '../model/types';
import { currentAnalysisOf, programOf, type ServerContext } from './context';
import { addHoverSource, contains } from './hover';

/** The contracts of analysed modules, and the Symbol or tool at a position. */
export class ContractService {
  /** `symbols` gives a module's Symbol analysis (the program's, in the server). */
  constructor(private symbols: (analysis: Pick<Analysis, 'model'>, format: ContractFormat) => SymbolInfo[]) {}

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
}

export interface Target {
  info: SymbolInfo;
  /** Set when the position is on the `def` of one exported tool (a function or a namespace member). */
  tool?: ToolInfo;
}

/** The `def` line up to the end of the name (decorators excluded). */
function defRange(decl: FunctionDecl): Range {
  return { start: { line: decl.nameRange.start.line, character: 0 }, end: decl.nameRange.end };
}

export function formatOf(ctx: ServerContext): ContractFormat {
  return CONTRACT_FORMATS.includes(ctx.settings.contractFormat) ? ctx.settings.contractFormat : 'C3';
}

/** The result of `visAuthoring/symbolContract` for a target. */
export function contractResult(target: Target | undefined): SymbolContractResult {
  if (!target) return null;
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

/** The parts of a contract that are not statically known, and why: a list under the card. */
function unknownsBlock(unknowns: readonly UnknownPart[]): string | undefined {
  if (!unknowns.length) return undefined;
  const items = unknowns.map((u) => `- ${u.where}: ${u.reason.replace(/\r?\n/g, ' ')}`);
  return `**Not statically known** (the contract shows what Vis gives in the common case):\n\n${items.join('\n')}`;
}

function toolCard(c: CallableContract, hidden: boolean, unknowns: readonly UnknownPart[] = []): string {
  const out: string[] = [];
  out.push(`**${code(c.name)}** · Vis tool · tag ${code(c.tag)}${hidden ? ' · hidden' : ''}`);
  out.push(fence('python', helpHeader(c)));
  out.push(c.description);
  if (c.parameters.length) {
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
    out.push(rows.join('\n'));
  }
  out.push(returnsBlock(c.returns));
  const notes = unknownsBlock(unknowns);
  if (notes) out.push(notes);
  return out.join('\n\n');
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

export function hoverMarkdown(target: Target, format: ContractFormat): string | undefined {
  const { info, tool } = target;
  const parts: string[] = [];
  if (tool) {
    parts.push(toolCard(tool.contract, tool.hidden, tool.unknowns));
    parts.push(details(`Contract JSON (${format})`, fence('json', JSON.stringify(tool.contract, null, 2))));
    parts.push(details(`doc(${cell(tool.name)})`, fence('text', tool.doc)));
    return parts.join('\n\n');
  }
  if (!info.contract) {
    return info.unknownReason ? `**Vis Symbol** · contract not statically known: ${info.unknownReason}.` : undefined;
  }
  if (!isNamespace(info.contract)) {
    return hoverMarkdown({ info, tool: info.tools[0] }, format);
  }
  parts.push(`**${code(info.contract.name)}** · Vis namespace · ${info.tools.length} member${info.tools.length === 1 ? '' : 's'}`);
  if (info.unknownReason) parts.push(`_Partial: ${info.unknownReason}._`);
  const gaps = unknownsBlock(info.unknownTools);
  if (gaps) parts.push(gaps);
  const rows = ['| Member | Tag | Signature |', '| --- | --- | --- |'];
  for (const t of info.tools) rows.push(`| ${codeCell(t.name)}${t.hidden ? ' (hidden)' : ''} | ${t.tag} | ${codeCell(t.contract.signature)} |`);
  parts.push(rows.join('\n'));
  for (const t of info.tools) parts.push(`---\n\n${toolCard(t.contract, t.hidden, t.unknowns)}`);
  parts.push(details(`Contract JSON (${format})`, fence('json', JSON.stringify(info.contract, null, 2))));
  for (const t of info.tools) parts.push(details(`doc(${cell(t.name)})`, fence('text', t.doc)));
  return parts.join('\n\n');
}

// ---------------------------------------------------------------------------------------------
// Server wiring

export function registerContractHover(ctx: ServerContext): ContractService {
  const service = new ContractService((analysis) => {
    const { program, uri } = programOf(ctx, analysis.model.uri);
    return program.symbols(uri);
  });
  addHoverSource((analysis, position) => {
    const format = formatOf(ctx);
    const target = service.at(analysis, position, format);
    return target ? hoverMarkdown(target, format) : undefined;
  });
  ctx.connection.onRequest(SymbolContractRequest, async (params: SymbolContractParams): Promise<SymbolContractResult> => {
    const doc = ctx.documents.get(params.uri);
    const analysis = doc && (await currentAnalysisOf(ctx, doc));
    if (!analysis) return null;
    return contractResult(service.at(analysis, params.position, formatOf(ctx)));
  });
  return service;
}
