// Go to definition, type definition and references for Vis declarations, as queries on the workspace
// program (its module graph and import roots, which a Python language server does not know: `[tool.vis]
// source_paths`, packaged layouts). Definition: from the function or object passed to `vis.Symbol(...)`
// (G1 `vis.symbol(...)`), from a callback given to an SDK declaration (`run=`, `fn=`, `render=`,
// `prompt=`...) and from a public tool name (`vis.tools["greet.hello"]`, `vis.tools.greet.hello`,
// `Catalog.help("greet.hello")`, `assert_catalog(names=[...])`) to its `def`. Type definition: from a
// tool to the records its contract returns; definition also from a record named in a tool's signature.
// References: from the `def` of an exported function to the `vis.Symbol(...)` calls that export it.
// Everywhere else the providers answer nothing, so a Python language server's answers are never repeated.
import type { Location, Position } from 'vscode-languageserver/node';
import type { SymbolInfo } from '../contracts/symbols';
import type { TypeSpec } from '../contracts/types';
import { dottedAt } from '../editor/cursor';
import { TYPED_MODULE, qualify } from '../model/sdk';
import type { FunctionDecl, Model, Range } from '../model/types';
import type { ModuleTool } from '../workspace/program';
import { at, type At } from './at';
import { contains } from './hover';
import type { ServerContext } from './context';

const location = (a: At, uri: string, range: Range): Location => ({ uri: a.program.clientUri(uri), range });

/** The SDK member a dotted callee names in this module (`Symbol`, `symbol`, `tools.x`...), with its SDK. */
function sdkMemberOf(model: Model, dotted: string | undefined): { typed: boolean; member: string } | undefined {
  const q = dotted && qualify(model, dotted);
  if (!q) return undefined;
  if (q.startsWith(TYPED_MODULE + '.')) return { typed: true, member: q.slice(TYPED_MODULE.length + 1) };
  if (q.startsWith('vis.')) return { typed: false, member: q.slice(4) };
  return undefined;
}

/** Whether the cursor is in the function or object argument of `vis.Symbol(...)` / `vis.symbol(...)`. */
function inSymbolTarget(a: At): boolean {
  const call = a.cursor.call;
  if (!call || a.cursor.nesting.length) return false;
  const m = sdkMemberOf(a.analysis.model, call.callee);
  const isSymbol = m && ((m.typed && m.member === 'Symbol') || (!m.typed && m.member === 'symbol'));
  return !!isSymbol && (call.keyword === 'fn' || (call.keyword === undefined && call.index === 0));
}

/** A public tool name written in a string or an attribute chain, when the cursor is on one. */
function toolNameAt(a: At): string | undefined {
  const { cursor, text, analysis } = a;
  const model = analysis.model;
  if (model.generation === 'G1') return undefined;
  if (cursor.string) {
    const value = text.slice(cursor.string.start, cursor.string.end);
    if (cursor.subscript && qualify(model, cursor.subscript) === `${TYPED_MODULE}.tools`) return value;
    const call = cursor.call;
    const m = sdkMemberOf(model, call?.callee);
    if (m?.typed && m.member === 'testing.assert_catalog' && (call!.keyword === 'names' || call!.keyword === 'mutations')) return value;
    // `catalog.help("name")`, `catalog.spec("name")`: a Catalog's own lookups (the receiver is not known, so only an exact tool name counts).
    if (call?.callee && /\.(help|spec)$/.test(call.callee) && call.index === 0 && !cursor.nesting.length) return value;
    return undefined;
  }
  const dotted = dottedAt(text, a.offset);
  const q = dotted && qualify(model, dotted.name);
  return q?.startsWith(`${TYPED_MODULE}.tools.`) ? q.slice(TYPED_MODULE.length + '.tools.'.length) : undefined;
}

/** The tools of the workspace and of this module (an open file may not be indexed), each once. */
function knownTools(a: At): ModuleTool[] {
  const seen = new Set<unknown>();
  return [...a.program.moduleTools(a.uri), ...a.program.workspaceTools()].filter((t) => !seen.has(t.call) && seen.add(t.call));
}

/** Where a public tool name is declared: its `def`, or the Symbol that exports a namespace of that name. */
function toolLocations(a: At, name: string): Location[] {
  const tools = knownTools(a);
  const exact = tools.filter((t) => t.name === name);
  if (exact.length) return exact.map((t) => (t.decl && t.declUri ? location(a, t.declUri, t.decl.nameRange) : location(a, t.uri, t.call.range)));
  const calls = new Map(tools.filter((t) => t.name.startsWith(`${name}.`)).map((t) => [t.call, t]));
  return [...calls.values()].map((t) => location(a, t.uri, t.call.range));
}

export function definitions(a: At): Location[] | null {
  const tool = toolNameAt(a);
  if (tool !== undefined) {
    const found = toolLocations(a, tool);
    return found.length ? found : null;
  }
  if (a.cursor.comment) return null;
  const record = recordInSignature(a);
  if (record !== undefined) return record;
  if (a.cursor.string) return null;
  const dotted = dottedAt(a.text, a.offset);
  const call = a.cursor.call;
  if (!dotted || !call || a.cursor.nesting.length || !sdkMemberOf(a.analysis.model, call.callee)) return null;
  // The Symbol's function or object; or a function given to any other SDK declaration: a callback the host calls.
  const d = a.program.declarationOf(a.uri, dotted.name);
  if (!d || (!inSymbolTarget(a) && d.kind !== 'function')) return null;
  return [location(a, d.uri, d.range)];
}

/**
 * A record type named in the signature of an exported tool (`-> Reading`, `page: "Page"`), when the cursor is
 * on it: the class, found from the tool's module as its contract resolves it. Undefined elsewhere.
 */
function recordInSignature(a: At): Location[] | null | undefined {
  const position = a.doc.positionAt(a.offset);
  const tool = exportedHere(a).find((t) => t.decl && t.declUri === a.uri && [t.decl.returnsRange, ...t.decl.params.map((p) => p.annotationRange)].some((r) => r && contains(r, position)));
  if (!tool) return undefined;
  let start = a.offset;
  let end = a.offset;
  while (start > 0 && /[\p{L}\p{N}_.]/u.test(a.text[start - 1])) start--;
  while (end < a.text.length && /[\p{L}\p{N}_]/u.test(a.text[end])) end++;
  const name = a.text.slice(start, end).replace(/^\.+/, '');
  if (!name || !recordNames(tool.contract.returns, tool.contract.parameters.map((p) => p.type)).has(name.split('.').pop()!)) return null;
  const d = a.program.declarationOf(a.uri, name);
  return d?.kind === 'class' ? [location(a, d.uri, d.range)] : null;
}

/** The `def` at a position of the module (a function, or a method of a class), by its name. */
function defAt(model: Model, position: Position): FunctionDecl | undefined {
  const inClasses = (classes: Model['classes']): FunctionDecl | undefined => {
    for (const c of classes) {
      const m = c.methods.find((f) => contains(f.nameRange, position)) ?? inClasses(c.classes);
      if (m) return m;
    }
    return undefined;
  };
  return model.functions.find((f) => contains(f.nameRange, position)) ?? inClasses(model.classes);
}

export function references(a: At, position: Position, includeDeclaration: boolean): Location[] | null {
  const decl = defAt(a.analysis.model, position);
  if (!decl) return null;
  const exports = a.program.exportsOf(a.uri, decl.nameRange);
  if (!exports.length) return null;
  const out = exports.map((t) => location(a, t.uri, t.call.args[0]?.range ?? t.call.range));
  if (includeDeclaration) out.unshift(location(a, a.uri, decl.nameRange));
  return out;
}

/** The names of the records (and references to records) in some types. */
function recordNames(t: TypeSpec, more: TypeSpec[] = [], out = new Set<string>()): Set<string> {
  for (const x of [t, ...more]) {
    if (x.kind === 'record' || x.kind === 'reference') out.add(x.name);
    for (const y of x.arguments ?? []) recordNames(y, [], out);
    for (const f of x.fields ?? []) recordNames(f.type, [], out);
  }
  return out;
}

/** The typed tools at a position: of the Symbol whose target the cursor is on, or of the exported `def` under it. */
function toolsAt(a: At, position: Position): SymbolInfo['tools'] {
  const infos = a.symbols(a.uri);
  if (inSymbolTarget(a)) return infos.find((i) => contains(i.call.range, position))?.tools ?? [];
  const decl = defAt(a.analysis.model, position);
  return decl ? exportedHere(a).filter((t) => t.decl === decl) : [];
}

/** The typed tools whose def is in this module, exported here or by the modules that import it. */
function exportedHere(a: At): SymbolInfo['tools'] {
  return [a.uri, ...a.program.dependents(a.uri)].flatMap((u) => a.symbols(u)).flatMap((i) => i.tools).filter((t) => t.declUri === a.uri);
}

export function typeDefinitions(a: At, position: Position): Location[] | null {
  const out: Location[] = [];
  const seen = new Set<string>();
  for (const tool of toolsAt(a, position)) {
    if (!tool.decl?.returns || !tool.declUri) continue;
    const names = recordNames(tool.contract.returns);
    // The records as the return annotation names them (`Page`, `models.Reading`, `"Reading"`), found from the tool's module.
    for (const m of tool.decl.returns.matchAll(/[\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)*/gu)) {
      if (!names.has(m[0].split('.').pop()!)) continue;
      const d = a.program.declarationOf(tool.declUri, m[0]);
      const key = d && `${d.uri}:${d.range.start.line}:${d.range.start.character}`;
      if (d?.kind === 'class' && !seen.has(key!)) {
        seen.add(key!);
        out.push(location(a, d.uri, d.range));
      }
    }
  }
  return out.length ? out : null;
}

export function registerNavigation(ctx: ServerContext): void {
  const guard = <T>(what: string, f: () => T | null): T | null => {
    try {
      return f();
    } catch (e) {
      ctx.log(`${what} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return null;
    }
  };
  ctx.connection.onDefinition((p) =>
    guard('definition', () => {
      const a = at(ctx, p.textDocument.uri, p.position);
      return a ? definitions(a) : null;
    }),
  );
  ctx.connection.onTypeDefinition((p) =>
    guard('type definition', () => {
      const a = at(ctx, p.textDocument.uri, p.position);
      return a ? typeDefinitions(a, p.position) : null;
    }),
  );
  ctx.connection.onReferences((p) =>
    guard('references', () => {
      const a = at(ctx, p.textDocument.uri, p.position);
      return a ? references(a, p.position, p.context.includeDeclaration) : null;
    }),
  );
}
