// The G1 → G3 migration of one file (`import vis` → `import blockether.vis.extension as vis`):
//   vis.extension(...)        → vis.register_extension(vis.Extension(...)), positional arguments as keywords;
//                               `EXT = vis.extension(...)` → `EXT = vis.Extension(...)` and `vis.register_extension(EXT)`
//   vis.symbol(fn, ...)       → vis.Symbol(fn, ...), with name= where the G1 tool name differs from G3's: G1
//                               exposes a tool as `<alias>_<name>` (a leading `<alias>_` dropped first), G3 as
//                               its Symbol name, so the model keeps calling the tool what it called it
//   vis.slash / vis.op_hook / vis.network_filter / vis.provider → SlashCommand / OpHook / NetworkFilter / Provider
// Everything else stays as written: names, tags, docstrings, comments and formatting. Only edits that
// keep behaviour are made; where one cannot be (a G1 error still in the file, a bare-string `ops` that
// G1 splits into characters, a provider whose preset and callbacks are dicts in G1 and typed records in
// G3, a name that is not known statically), the action is disabled and says why. The result is analysed
// before it is offered: it must be a G3 file without errors.
import type { TextEdit } from 'vscode-languageserver/node';
import type { Analysis } from '../analysis';
import { scanComments } from '../model/comments';
import { TYPED_MODULE, resolve } from '../model/sdk';
import type { Call, Model } from '../model/types';
import type { Finding } from '../rules/types';
import { hasSplat, positional } from '../rules/util';
import { bindSdkCall, everMember, memberOfCall, paramsOf, scopeOf } from '../sdk/table';
import type { Program } from '../workspace/program';
import { SourceText, applyEdits } from './source';

export type Migration = { edits: TextEdit[] } | { reason: string };

const TYPED_IMPORT = 'blockether.vis.extension';
const RENAMES: Record<string, string> = { symbol: 'Symbol', slash: 'SlashCommand', op_hook: 'OpHook', network_filter: 'NetworkFilter', provider: 'Provider' };

/** The tool name G1 exposes for a symbol: `<alias>_<name>`, a leading `<alias>_` of the name dropped first. */
export function g1ToolName(alias: string, name: string): string {
  const base = name.startsWith(alias + '_') && name.length > alias.length + 1 ? name.slice(alias.length + 1) : name;
  return `${alias}_${base}`;
}

const cache = new Map<string, { stamp: string; migration: Migration }>();

/** The migration of a G1 file, or why it cannot be made safely (computed once per module version). */
export function migrationToG3(program: Program, uri: string, text: string, analysis: Analysis): Migration {
  const hit = cache.get(uri);
  if (hit?.stamp === analysis.stamp) return hit.migration;
  const migration = compute(program, uri, text, analysis);
  if (cache.size > 32) cache.clear();
  cache.set(uri, { stamp: analysis.stamp, migration });
  return migration;
}

function compute(program: Program, uri: string, text: string, analysis: Analysis): Migration {
  const plan = planMigration(analysis.model, text, analysis);
  if ('reason' in plan) return plan;
  const migrated = applyEdits(text, plan.edits);
  // The result must be a G3 file Vis loads: analysed as the module's next version would be.
  const after = program.withText(uri, migrated, () => program.analysis(uri));
  if (!after || after.model.generation !== 'G3') return { reason: 'the migrated file would not be a G3 extension' };
  const error = after.findings.find((f) => f.severity === 'error' && !f.uri);
  if (error) return { reason: `the migrated file would have an error on line ${error.range.start.line + 1}: [${error.rule}] ${error.message}` };
  return plan;
}

/** The edits of the migration, from the model and text alone (not yet checked by analysing the result). */
export function planMigration(model: Model, text: string, analysis: { findings: readonly Finding[] }): Migration {
  if (model.generation !== 'G1') return { reason: 'this file is not a G1 extension (import vis)' };
  const error = analysis.findings.find((f) => f.severity === 'error' && !f.uri);
  if (error) return { reason: `fix the file's errors first (line ${error.range.start.line + 1}: [${error.rule}] ${error.message})` };
  const source = new SourceText(text);
  const edits: TextEdit[] = [];
  const eol = source.eol();

  // Imports: `import vis` and `import vis as v` become the typed module under the same local name.
  const g1Imports = model.imports.filter((i) => i.module === 'vis' || i.module.startsWith('vis.'));
  if (!g1Imports.length) return { reason: 'this file has no import vis' };
  for (const imp of g1Imports) {
    if (imp.name !== undefined || imp.module !== 'vis') return { reason: `rewrite "${source.slice(imp.statementRange)}" by hand: only import vis is migrated` };
    if (imp.conditional) return { reason: 'import vis is inside a block: migrate it by hand' };
    const statement = source.slice(imp.statementRange);
    const names = statement.replace(/^import\s+/, '').split(',').map((n) => n.trim());
    if (!/^import\s/.test(statement) || names.some((n) => !/^[\w.]+(\s+as\s+\w+)?$/.test(n))) return { reason: `rewrite "${statement}" by hand` };
    const others = names.filter((n) => !/^vis(\s+as\s+\w+)?$/.test(n));
    const typed = `import ${TYPED_IMPORT} as ${imp.local}`;
    edits.push({ range: imp.statementRange, newText: others.length ? `import ${others.join(', ')}${eol}${' '.repeat(imp.statementRange.start.character)}${typed}` : typed });
  }

  const calls = model.calls.filter((c) => c.sdk?.flavour === 'g1');
  const extensions = calls.filter((c) => c.sdk!.member === 'extension');
  if (extensions.length !== 1) return { reason: extensions.length ? 'this file calls vis.extension(...) more than once' : 'this file never calls vis.extension(...)' };
  const ext = extensions[0];
  const bound = bindSdkCall(model, ext);
  if (!bound || hasSplat(ext)) return { reason: 'vis.extension(...) takes *args or **kwargs here: migrate it by hand' };
  const aliasValue = bound.get('alias') && resolve(model, bound.get('alias')!.value);
  const alias = aliasValue?.kind === 'str' ? aliasValue.value : undefined;

  // G1 builders used where the model does not see them (inside functions) would be left behind.
  const rewritten = new Set(calls.map((c) => `${c.calleeRange.start.line}:${c.calleeRange.start.character}`));
  const comments = scanComments(text).comments;
  const local = g1Imports[0].local;
  const member = new RegExp(`(?<![\\w.])${local}\\.([A-Za-z_]\\w*)`, 'g');
  for (let m = member.exec(text); m; m = member.exec(text)) {
    const pos = source.positionAt(m.index);
    if (comments.some((c) => c.line === pos.line && c.character <= pos.character)) continue;
    const builder = m[1] === 'extension' || Object.hasOwn(RENAMES, m[1]);
    if (builder && !rewritten.has(`${pos.line}:${pos.character}`)) return { reason: `${m[0]} on line ${pos.line + 1} is not a declaration at module level: migrate it by hand` };
    // Everything else the file reads from vis must exist in the typed SDK under the same name.
    if (!builder && !everMember(TYPED_MODULE, m[1])) return { reason: `${m[0]} (line ${pos.line + 1}) has no counterpart in the typed SDK: migrate it by hand` };
  }

  for (const call of calls) {
    const member = call.sdk!.member;
    const prefix = call.callee.slice(0, call.callee.length - member.length);
    if (member === 'extension') {
      const r = extensionEdits(model, call, prefix, source, eol);
      if ('reason' in r) return r;
      edits.push(...r.edits);
      continue;
    }
    const typed = RENAMES[member];
    if (!typed) continue; // vis.state, vis.log, vis.ok...: the typed module has them under the same name
    if (hasSplat(call)) return { reason: `${call.callee}(...) takes *args or **kwargs here: migrate it by hand` };
    edits.push({ range: call.calleeRange, newText: prefix + typed });
    if (member === 'symbol') {
      const r = symbolName(model, call, alias);
      if ('reason' in r) return r;
      edits.push(...r.edits);
    } else if (member === 'op_hook') {
      const ops = bindSdkCall(model, call)?.get('ops');
      const v = ops && resolve(model, ops.value);
      if (v?.kind === 'str') return { reason: `ops=${v.text} on line ${v.range.start.line + 1} is split into characters by G1 and never fires; fix G1-HK-4 first (ops=[${v.text}])` };
    } else if (member === 'provider') {
      const b = bindSdkCall(model, call);
      const preset = b?.get('preset');
      if (preset && resolve(model, preset.value).kind !== 'none') return { reason: 'a provider preset is a dict in G1 and a vis.ProviderPreset in G3: migrate the provider by hand' };
      const callbacks = [...(b?.entries() ?? [])].filter(([name]) => name.endsWith('_fn'));
      if (callbacks.length) return { reason: 'provider callbacks return dicts in G1 and typed records (vis.ProviderCredential, vis.ProviderStatus...) in G3: migrate the provider by hand' };
    }
  }
  return { edits };
}

/** `vis.extension(...)` → the typed declaration and its registration; positional arguments become keywords. */
function extensionEdits(model: Model, call: Call, prefix: string, source: SourceText, eol: string): Migration {
  const edits: TextEdit[] = [];
  const member = memberOfCall(model, call);
  const params = member ? paramsOf(member, scopeOf(model)).map((p) => p.name) : [];
  const pos = positional(call);
  if (pos.length > params.length) return { reason: 'vis.extension(...) takes more positional arguments than it has parameters' };
  pos.forEach((a, i) => edits.push({ range: { start: a.range.start, end: a.range.start }, newText: `${params[i]}=` }));
  const before = source.line(call.range.start.line).slice(0, call.range.start.character);
  const after = source.line(call.range.end.line).slice(call.range.end.character);
  if (!/^\s*(#.*)?$/.test(after)) return { reason: 'vis.extension(...) is part of a longer statement: migrate it by hand' };
  const assigned = /^(\w+)\s*=\s*$/.exec(before);
  if (assigned) {
    // `EXT = vis.extension(...)`: the declaration keeps its name, registered on the next line.
    edits.push({ range: call.calleeRange, newText: `${prefix}Extension` });
    const end = source.lineEnd(call.range.end.line);
    edits.push({ range: { start: end, end }, newText: `${eol}${prefix}register_extension(${assigned[1]})` });
  } else if (before === '') {
    edits.push({ range: call.calleeRange, newText: `${prefix}register_extension(${prefix}Extension` });
    edits.push({ range: { start: call.range.end, end: call.range.end }, newText: ')' });
  } else return { reason: 'vis.extension(...) is not a statement of its own at module level: migrate it by hand' };
  return { edits };
}

/** The name= that keeps a G1 symbol's tool name in G3 (none when the function's name already is it). */
function symbolName(model: Model, call: Call, alias: string | undefined): Migration {
  const bound = bindSdkCall(model, call);
  const fn = bound?.get('fn');
  const fnValue = fn && resolve(model, fn.value);
  const nameArg = bound?.get('name');
  const nameValue = nameArg && resolve(model, nameArg.value);
  const where = `${call.callee}(...) on line ${call.range.start.line + 1}`;
  if (alias === undefined) return { reason: `the extension's alias is not a string here, so the tool name of ${where} is not known` };
  const given = nameValue !== undefined && nameValue.kind !== 'none';
  const g1Name = given ? (nameValue.kind === 'str' ? nameValue.value : undefined) : fnValue?.kind === 'function' ? fnValue.name : undefined;
  if (!fn || g1Name === undefined) return { reason: `the tool name of ${where} is not known statically` };
  const wanted = g1ToolName(alias, g1Name);
  const quoted = JSON.stringify(wanted);
  if (nameArg) return { edits: given && nameValue.kind === 'str' && nameValue.value === wanted ? [] : [{ range: nameArg.value.range, newText: quoted }] };
  if (fnValue?.kind === 'function' && fnValue.name === wanted) return { edits: [] };
  return { edits: [{ range: { start: fn.range.end, end: fn.range.end }, newText: `, name=${quoted}` }] };
}
