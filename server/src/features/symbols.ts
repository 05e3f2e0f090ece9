// Document symbols (the Outline, breadcrumbs, Ctrl+Shift+O) and workspace symbols (Ctrl+T) for Vis
// declarations only: the program's Outline of a module, and every tool of every extension in the
// workspace by the public name the model calls it. A Python language server lists the file's Python
// symbols; these lists hold Vis items alone, so the two never repeat each other.
import { SymbolKind, type DocumentSymbol, type SymbolInformation } from 'vscode-languageserver/node';
import type { OutlineItem, OutlineKind } from '../editor/outline';
import { fieldText, findExtension } from '../docs/extension';
import { filePathOf } from '../rules/util';
import type { ModuleTool, Program } from '../workspace/program';
import { canonicalUri } from '../workspace/program';
import { pathToFileURL } from 'node:url';
import { currentAnalysisOf, programOf, type ServerContext } from './context';

const KINDS: Record<OutlineKind, SymbolKind> = {
  extension: SymbolKind.Module,
  tool: SymbolKind.Function,
  namespace: SymbolKind.Namespace,
  member: SymbolKind.Method,
  slash: SymbolKind.Event,
  hook: SymbolKind.Event,
  filter: SymbolKind.Event,
  provider: SymbolKind.Interface,
  setting: SymbolKind.Property,
};

export function documentSymbols(items: OutlineItem[]): DocumentSymbol[] {
  // Clients refuse a symbol whose name is empty (VS Code: "name must not be falsy").
  return items.map((i) => ({ name: i.name || '(no name)', detail: i.detail, kind: KINDS[i.kind], range: i.range, selectionRange: i.selectionRange, children: documentSymbols(i.children) }));
}

/** Whether every character of the query appears in the name in order, ignoring case (what Ctrl+T filters by). */
export function fuzzyMatch(query: string, name: string): boolean {
  const q = query.toLowerCase();
  const n = name.toLowerCase();
  let i = 0;
  for (const c of n) if (c === q[i]) i++;
  return i === q.length;
}

/** The name of the extension a module's tools belong to: its own, or its entry's. */
function extensionOf(program: Program, uri: string): string | undefined {
  const own = program.module(uri)?.model;
  const ext = own && findExtension(own);
  if (ext) return own && fieldText(own, ext, 'name');
  const file = filePathOf(uri);
  const entry = file && program.entryFor(file);
  const model = entry ? program.module(pathToFileURL(entry).href)?.model : undefined;
  const entryExt = model && findExtension(model);
  return entryExt && model ? fieldText(model, entryExt, 'name') : undefined;
}

export function workspaceSymbols(program: Program, tools: ModuleTool[], query: string): SymbolInformation[] {
  const names = new Map<string, string | undefined>();
  const seen = new Set<unknown>();
  const out: SymbolInformation[] = [];
  for (const t of tools) {
    if (seen.has(t) || !fuzzyMatch(query, t.name)) continue;
    seen.add(t);
    if (!names.has(t.uri)) names.set(t.uri, extensionOf(program, t.uri));
    const ext = names.get(t.uri);
    // The def, when the tool's name is not the def's own (a Python language server lists the def by that
    // name already); else the vis.Symbol(...) that exports it.
    const atDef = t.decl && t.declUri && t.decl.name !== t.name;
    out.push({
      name: t.name,
      kind: t.name.includes('.') ? SymbolKind.Method : SymbolKind.Function,
      location: atDef ? { uri: program.clientUri(t.declUri!), range: t.decl!.nameRange } : { uri: program.clientUri(t.uri), range: t.call.args[0]?.range ?? t.call.range },
      containerName: ext ? `Vis tool · ${ext} · ${t.tag}` : `Vis tool · ${t.tag}`,
    });
  }
  return out;
}

export function registerSymbols(ctx: ServerContext): void {
  ctx.connection.onDocumentSymbol(async (params) => {
    const doc = ctx.documents.get(params.textDocument.uri);
    const analysis = doc && (await currentAnalysisOf(ctx, doc));
    if (!analysis?.model.generation) return null;
    const { program, uri } = programOf(ctx, params.textDocument.uri);
    try {
      const items = program.outline(uri);
      return items.length ? documentSymbols(items) : null;
    } catch (e) {
      ctx.log(`document symbols failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return null;
    }
  });
  ctx.connection.onWorkspaceSymbol((params) => {
    const out: SymbolInformation[] = [];
    try {
      for (const program of ctx.workspace.all()) {
        // Open documents first (they may not be indexed: `openFiles` scope, or outside the folders).
        const open = ctx.documents.all().map((d) => canonicalUri(d.uri)).filter((u) => ctx.workspace.programFor(u) === program);
        const tools = [...open.flatMap((u) => program.moduleTools(u)), ...program.workspaceTools()];
        out.push(...workspaceSymbols(program, tools, params.query));
      }
    } catch (e) {
      ctx.log(`workspace symbols failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
    return out;
  });
}
