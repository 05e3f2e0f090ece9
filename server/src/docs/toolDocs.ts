// Each tool's model-facing text for the docs preview: public name, hidden flag, apropos row and the
// `doc(name)` page. Typed-SDK tools whose contract is statically known get the page the SDK
// generates from the contract (server/src/contracts, vis-sdk.md §3.5); G1 tools, and typed tools
// whose contract is not known, get their cleaned docstring.
import type { Analysis } from '../analysis';
import { symbolInfos, type SymbolInfo } from '../contracts/symbols';
import type { ContractFormat, UnknownPart } from '../contracts/types';
import { cleandoc } from '../model/docstring';
import { classNamed, flavourOf, functionNamed, qualify, resolve, sdkCall } from '../model/sdk';
import type { ClassDecl, FunctionDecl, Model, Range, Value } from '../model/types';
import { keyword, pathOf } from '../rules/util';
import { bindSdkCall } from '../sdk/table';
import { fieldItems, fieldText, findExtension } from './extension';

export interface ToolDoc {
  /** The name the model calls the tool by (`hello`, `store.items.put`; G1: `alias_hello`). */
  name: string;
  /** Declared hidden (`is_hidden=True`, or `@vis.method(is_hidden=True)` on a namespace member). */
  hidden: boolean;
  /** The tool's row in `apropos(...)` results: the first line of its docstring. Empty when it has none. */
  apropos: string;
  /** The page `doc(name)` returns. Empty when the tool has no docstring. */
  doc: string;
  /** Where the tool is declared. */
  range: Range;
  /** Set when nothing of the tool's contract is statically known: why (its page is then not shown). */
  unknown?: string;
  /** Parts of a known contract that are not statically known, and why. */
  unknowns?: UnknownPart[];
}

export interface ToolDocSource {
  /** The tools of the extension the analysed file registers, in declaration order. */
  tools(analysis: Pick<Analysis, 'model'>): ToolDoc[];
}

/**
 * Tools by contract where the contract is known, by docstring otherwise. `contracts` gives the Symbol
 * contracts of an analysis; the server passes the program's (records imported from sibling modules
 * resolved, the same analysis the diagnostics and hovers read), the default reads the file alone.
 */
export function contractToolDocSource(
  format: (model: Model) => ContractFormat,
  contracts: (analysis: Pick<Analysis, 'model'>) => SymbolInfo[] = ({ model }) => symbolInfos(model, { format: format(model) }),
): ToolDocSource {
  return {
    tools(analysis) {
      const { model } = analysis;
      const ext = findExtension(model);
      if (!ext) return [];
      if (ext.generation === 'G1') return docstringToolDocSource.tools(analysis);
      const infos = new Map(contracts(analysis).map((i) => [i.call, i]));
      const out: ToolDoc[] = [];
      for (const item of fieldItems(model, ext, 'symbols') ?? []) {
        const info = item.kind === 'call' ? infos.get(item.call) : undefined;
        if (info && info.tools.length > 0 && info.contract) {
          for (const t of info.tools) {
            const description = 'members' in t.contract ? '' : t.contract.description;
            out.push({ name: t.name, hidden: t.hidden, apropos: description.split('\n')[0], doc: t.doc, range: item.range, unknowns: t.unknowns });
          }
          // Members of a namespace that are not known: listed, not dropped.
          for (const u of info.unknownTools) out.push(unknownTool(u.where, u.reason, item.range, info.hidden ?? false));
          continue;
        }
        const docs = docstringDocs(model, ext, item);
        if (info?.unknownTools.length) {
          // Without a contract the docstring is the closest text to the page, where there is one; said so.
          if (docs.length) out.push(...docs.map((d) => ({ ...d, unknown: info.unknownTools[0].reason })));
          else for (const u of info.unknownTools) out.push(unknownTool(u.where, u.reason, item.range, info.hidden ?? false));
        } else if (info || docs.length) out.push(...docs);
        else out.push(...undeclared(model, item));
      }
      return out;
    },
  };
}

/** Tools by their cleaned docstring (inspect.getdoc): G1 `vis.symbol`, and typed Symbols whose contract is not known. */
export const docstringToolDocSource: ToolDocSource = {
  tools({ model }) {
    const ext = findExtension(model);
    if (!ext) return [];
    return (fieldItems(model, ext, 'symbols') ?? []).flatMap((item) => [...docstringDocs(model, ext, item), ...undeclared(model, item)]);
  },
};

function unknownTool(name: string, reason: string, range: Range, hidden: boolean): ToolDoc {
  return { name, hidden, apropos: '', doc: '', range, unknown: reason };
}

/** An entry of `symbols=` that is not a Symbol declaration the checker can read: a tool (or several) it cannot describe. */
function undeclared(model: Model, item: Value): ToolDoc[] {
  if (item.kind === 'call') {
    const s = sdkCall(item.call);
    if ((s?.flavour === 'typed' && s.member === 'Symbol') || (s?.flavour === 'g1' && s.member === 'symbol')) return [];
    return [unknownTool(item.text, `a call result (\`${item.text}\`): the tool or tools it returns are not known statically`, item.range, false)];
  }
  if (item.kind === 'name' || item.kind === 'attribute') {
    return [unknownTool(item.text, `\`${item.text}\` is not bound to a Symbol declaration the checker can read in ${pathOf(model.uri).split('/').pop()}`, item.range, false)];
  }
  return [unknownTool(item.text, `\`${item.text}\` is not a Symbol declaration`, item.range, false)];
}

function docstringDocs(model: Model, ext: NonNullable<ReturnType<typeof findExtension>>, item: Value): ToolDoc[] {
  if (item.kind !== 'call') return [];
  const s = sdkCall(item.call);
  const typed = s?.flavour === 'typed' && s.member === 'Symbol';
  if (!typed && !(s?.flavour === 'g1' && s.member === 'symbol')) return [];
  const args = bindSdkCall(model, item.call);
  const fnArg = args?.get('fn');
  if (!args || !fnArg) return [];
  const fn = resolve(model, fnArg.value);
  const nameValue = args.get('name') && resolve(model, args.get('name')!.value);
  const name = nameValue?.kind === 'str' ? nameValue.value : undefined;
  const hidden = isTrue(model, args.get('is_hidden')?.value);
  const out: ToolDoc[] = [];
  if (fn.kind === 'function') {
    const decl = functionNamed(model, fn.name);
    if (!decl) return [];
    const base = name ?? fn.name;
    const alias = ext.generation === 'G1' ? fieldText(model, ext, 'alias') : undefined;
    out.push({ ...docOf(decl), name: ext.generation === 'G1' ? g1ToolName(alias, base) : base, hidden, range: item.range });
  } else if (typed && fn.kind === 'call' && name !== undefined) {
    const cls = classNamed(model, fn.call.callee);
    if (cls) namespaceMembers(model, cls, name, hidden, out, new Set());
  }
  return out;
}

function docOf(fn: FunctionDecl): { apropos: string; doc: string } {
  const doc = fn.docstring === undefined ? '' : cleandoc(fn.docstring);
  return { apropos: doc.split('\n')[0], doc };
}

function isTrue(model: Model, v: Value | undefined): boolean {
  const r = v && resolve(model, v);
  return r?.kind === 'bool' && r.value;
}

/** G1 binds `<alias>_<symbol>`, where the symbol drops a leading `<alias>_` if anything is left (vis-sdk.md §4). */
function g1ToolName(alias: string | undefined, base: string): string {
  if (!alias) return base;
  const prefix = `${alias}_`;
  return `${prefix}${base.startsWith(prefix) && base.length > prefix.length ? base.slice(prefix.length) : base}`;
}

function namespaceMembers(model: Model, cls: ClassDecl, prefix: string, hidden: boolean, out: ToolDoc[], seen: Set<ClassDecl>): void {
  if (seen.has(cls)) return;
  seen.add(cls);
  for (const m of cls.methods) {
    if (m.name.startsWith('_') || m.decorators.some((d) => d.name === 'property')) continue;
    out.push({ ...docOf(m), name: `${prefix}.${m.name}`, hidden: methodHidden(model, m) ?? hidden, range: m.nameRange });
  }
  for (const a of cls.selfAssignments) {
    const v = resolve(model, a.value);
    const nested = !a.name.startsWith('_') && v.kind === 'call' ? classNamed(model, v.call.callee) : undefined;
    if (nested) namespaceMembers(model, nested, `${prefix}.${a.name}`, hidden, out, seen);
  }
}

/** `@vis.method(is_hidden=...)` on a namespace method; undefined when the method inherits the Symbol's flag. */
function methodHidden(model: Model, m: FunctionDecl): boolean | undefined {
  for (const d of m.decorators) {
    const s = d.name ? flavourOf(qualify(model, d.name)) : undefined;
    if (s?.flavour !== 'typed' || s.member !== 'method' || !d.call) continue;
    const arg = keyword(d.call, 'is_hidden');
    if (arg) return isTrue(model, arg.value);
  }
  return undefined;
}
