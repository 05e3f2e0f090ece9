// Registration: one `register`/`register_extension` (G2/G3) or `vis.extension` (G1) per entry file,
// the other generation's names, and mixing the G1 and typed SDKs. vis-sdk.md §1, §2.2.
import { TYPED_MODULE, importFlavour, isKnown, registrations, resolve, sdkCall } from '../model/sdk';
import type { Call, ImportBinding, Model } from '../model/types';
import type { SourceText } from '../fixes/source';
import { scopeOf, sdkMember } from '../sdk/table';
import { isEntryName } from '../workspace/discovery';
import { REGISTRATION_NAMES, missingMembers, missingMessage } from './sdk';
import type { Fix, Rule } from './types';
import { callsOf, keyword } from './util';

/** The registration call's name in a generation. */
export function registerName(gen: 'G1' | 'G2' | 'G3'): string {
  return gen === 'G1' ? 'vis.extension' : gen === 'G2' ? 'vis.register' : 'vis.register_extension';
}

/** The registrations that count: those of the file's own generation. */
function validRegistrations(model: Model) {
  return registrations(model).filter((r) => r.kind === model.generation);
}

function extensionName(model: Model, call: Call): string {
  const arg = call.args[0];
  let v = arg ? resolve(model, arg.value) : undefined;
  if (model.generation === 'G1') v = keyword(call, 'name') ? resolve(model, keyword(call, 'name')!.value) : v;
  else if (v?.kind === 'call') {
    const name = keyword(v.call, 'name');
    v = name ? resolve(model, name.value) : undefined;
  }
  return v?.kind === 'str' ? v.value : '?';
}

/**
 * For a file the program does not place (an untitled document, a file outside any project): whether it
 * looks like an entry file. A top-level test file of an extensions directory is never one.
 */
function looksLikeEntry(model: Model, path: string): boolean {
  const parts = path.split(/[\\/]/);
  const base = parts[parts.length - 1];
  if (parts[parts.length - 2] === 'extensions' && parts[parts.length - 3] === '.vis') return isEntryName(base);
  if (base === 'extension.py') return true;
  return callsOf(model, 'typed', 'Extension').length > 0;
}

export const registrationRules: Rule[] = [
  {
    id: 'REG-001',
    severity: 'error',
    summary: 'register/register_extension takes an Extension declaration.',
    check({ model, report }) {
      for (const r of registrations(model)) {
        if (r.kind === 'G1' || r.kind !== model.generation) continue;
        const arg = r.call.args[0];
        if (!arg || arg.splat) continue;
        const v = resolve(model, arg.value);
        if (!isKnown(v)) continue;
        if (v.kind === 'call') {
          const s = sdkCall(v.call);
          if (!s || (s.flavour === 'typed' && s.member === 'Extension')) continue;
        }
        report(arg.range, `${registerName(r.kind)} requires an Extension declaration`);
      }
    },
  },
  {
    id: 'REG-002',
    severity: 'error',
    summary: 'Only one registration per file.',
    check({ model, report }) {
      const regs = validRegistrations(model);
      if (model.generation === 'G1' || regs.length < 2) return;
      const name = extensionName(model, regs[0].call);
      const fn = registerName(model.generation!);
      for (const r of regs.slice(1)) {
        report(
          r.call.range,
          `${fn}() may only be called once per file; extension '${name}' is already registered. Keep a single registration in the entrypoint. ` +
            'If this happened during an import, the entrypoint may be shadowing a package or module with the same name. ' +
            'Rename the entrypoint (e.g. demo.py -> demo_bridge.py); the public alias can stay unchanged.',
        );
      }
    },
  },
  {
    id: 'REG-003',
    severity: 'error',
    fixable: true,
    summary: "The other generation's registration name (and the retired G1 builders) do not exist in the typed SDK.",
    check({ model, report }) {
      if (model.generation !== 'G2' && model.generation !== 'G3') return;
      for (const m of missingMembers(model)) {
        if (!m.registration || !m.call) continue;
        const call = m.call;
        const right = ['register', 'register_extension'].find((r) => r !== m.name && sdkMember(scopeOf(model), TYPED_MODULE, r));
        const fix = m.name.startsWith('register') ? (right ? renameRegistration(model, call, m.name, right) : undefined) : retiredFix(call, m.name);
        report(call.calleeRange, missingMessage(m), fix);
      }
    },
  },
  {
    id: 'REG-005',
    severity: 'error',
    summary: 'An entry file must register its extension.',
    fixable: true,
    check({ model, path, report, role, source }) {
      if (!model.generation || validRegistrations(model).length > 0) return;
      // Vis looks for a registration in the entry files it discovers; a module they import needs none.
      if (role === 'module' || (role === 'unknown' && !looksLikeEntry(model, path))) return;
      // A registration call that fails (REG-003, SDK-002) is the error Vis reports, not a missing one.
      if (model.calls.some((c) => c.sdk && REGISTRATION_NAMES.includes(c.sdk.member))) return;
      const where = model.sdkImports[0]?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
      // Vis's own words: G3 hosts name the whole call (`vis.register_extension(vis.Extension(...))`).
      const call = model.generation === 'G3' ? 'vis.register_extension(vis.Extension(...))' : `${registerName(model.generation)}(...)`;
      report(where, `${path} never called ${call}`, registrationFix(model, source()));
    },
  },
  {
    id: 'IMP-001',
    severity: 'error',
    fixable: true,
    summary: 'Do not mix `import vis` (G1) with the typed SDK.',
    check({ model, report, source }) {
      const typed = model.imports.filter((i) => importFlavour(i) === 'typed');
      const g1 = model.imports.filter((i) => importFlavour(i) === 'g1');
      if (typed.length === 0 || g1.length === 0) return;
      if ([...typed, ...g1].some((i) => i.conditional)) return; // a deliberate fallback import
      for (const imp of g1) {
        report(
          imp.statementRange,
          `import vis is the G1 SDK; this file uses the typed SDK (${TYPED_MODULE}), which leaves the top-level vis module alone. Remove import vis.`,
          removeImport(imp, source()),
        );
      }
    },
  },
];

/** `import vis` removed: its line when it is alone on it, else `vis` from `import os, vis`. */
function removeImport(imp: ImportBinding, source: SourceText | undefined): Fix | undefined {
  const r = imp.statementRange;
  if (!source || r.start.line !== r.end.line || imp.local !== 'vis' || imp.aliased) return undefined;
  const title = 'Remove import vis';
  const line = source.line(r.start.line);
  const statement = line.slice(r.start.character, r.end.character);
  const rest = line.slice(r.end.character);
  if (statement === 'import vis' && r.start.character === 0 && /^\s*(#.*)?$/.test(rest)) {
    return { title, edits: [{ range: { start: { line: r.start.line, character: 0 }, end: { line: r.start.line + 1, character: 0 } }, newText: '' }] };
  }
  const names = statement.replace(/^import\s+/, '').split(',').map((n) => n.trim());
  if (!/^import\s/.test(statement) || names.length < 2 || names.filter((n) => n === 'vis').length !== 1 || names.some((n) => !/^[\w.]+(\s+as\s+\w+)?$/.test(n))) return undefined;
  return { title, edits: [{ range: r, newText: `import ${names.filter((n) => n !== 'vis').join(', ')}` }] };
}

/** `vis.register` ↔ `vis.register_extension`, when the file has no registration of its generation (else it would be a second one). */
function renameRegistration(model: Model, call: Call, wrong: string, right: string): Fix | undefined {
  if (!call.callee.endsWith('.' + wrong) || validRegistrations(model).length) return undefined;
  const name = call.callee.slice(0, -wrong.length) + right;
  return { title: `Call ${name}`, edits: [{ range: call.calleeRange, newText: name }] };
}

/** A retired G1 builder to the typed declaration, whose parameters come in the same order. */
const TYPED_NAMES: Record<string, string> = { symbol: 'Symbol', slash: 'SlashCommand', op_hook: 'OpHook', network_filter: 'NetworkFilter', provider: 'Provider' };

function retiredFix(call: Call, member: string): Fix | undefined {
  const typed = TYPED_NAMES[member];
  if (!typed || !call.callee.endsWith('.' + member)) return undefined;
  const name = call.callee.slice(0, -member.length) + typed;
  return { title: `Use ${name}`, edits: [{ range: call.calleeRange, newText: name }] };
}

/**
 * The registration of the file's one `vis.Extension(...)`: `NAME = vis.Extension(...)` gets
 * `vis.register_extension(NAME)` appended at the end of the file; a statement of its own is wrapped.
 */
function registrationFix(model: Model, source: SourceText | undefined): Fix | undefined {
  const gen = model.generation;
  const calls = callsOf(model, 'typed', 'Extension');
  if (!source || (gen !== 'G2' && gen !== 'G3') || calls.length !== 1) return undefined;
  const call = calls[0];
  const prefix = call.callee.slice(0, -'Extension'.length);
  const fn = `${prefix}${gen === 'G2' ? 'register' : 'register_extension'}`;
  const before = source.line(call.range.start.line).slice(0, call.range.start.character);
  const after = source.line(call.range.end.line).slice(call.range.end.character);
  if (!/^\s*(#.*)?$/.test(after)) return undefined;
  const assigned = /^(\w+)\s*=\s*$/.exec(before);
  if (assigned) {
    const bindings = model.bindings.get(assigned[1]);
    if (bindings?.length !== 1) return undefined;
    const end = source.end();
    const text = source.text;
    const eol = source.eol();
    const lead = text === '' || text.endsWith('\n') ? '' : eol;
    return { title: `Register it: ${fn}(${assigned[1]})`, edits: [{ range: { start: end, end }, newText: `${lead}${fn}(${assigned[1]})${eol}` }] };
  }
  if (before !== '') return undefined;
  return {
    title: `Register it with ${fn}(...)`,
    edits: [
      { range: { start: call.range.start, end: call.range.start }, newText: `${fn}(` },
      { range: { start: call.range.end, end: call.range.end }, newText: ')' },
    ],
  };
}
