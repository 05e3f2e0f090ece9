// Registration: one `register`/`register_extension` (G2/G3) or `vis.extension` (G1) per entry file,
// the other generation's names, and mixing the G1 and typed SDKs. vis-sdk.md §1, §2.2.
import { TYPED_MODULE, importFlavour, isKnown, registrations, resolve, sdkCall } from '../model/sdk';
import type { Call, Model } from '../model/types';
import { scopeOf, sdkMember } from '../sdk/table';
import { isEntryName } from '../workspace/discovery';
import { REGISTRATION_NAMES, missingMembers, missingMessage } from './sdk';
import type { Rule } from './types';
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
    summary: "The other generation's registration name (and the retired G1 builders) do not exist in the typed SDK.",
    check({ model, report }) {
      if (model.generation !== 'G2' && model.generation !== 'G3') return;
      for (const m of missingMembers(model)) {
        if (!m.registration || !m.call) continue;
        const call = m.call;
        const right = ['register', 'register_extension'].find((r) => r !== m.name && sdkMember(scopeOf(model), TYPED_MODULE, r));
        const fix =
          right && m.name.startsWith('register') && call.callee.endsWith('.' + m.name)
            ? { title: `Call ${call.callee.slice(0, -m.name.length)}${right}`, edits: [{ range: call.calleeRange, newText: call.callee.slice(0, -m.name.length) + right }] }
            : undefined;
        report(call.calleeRange, missingMessage(m), fix);
      }
    },
  },
  {
    id: 'REG-005',
    severity: 'error',
    summary: 'An entry file must register its extension.',
    check({ model, path, report, role }) {
      if (!model.generation || validRegistrations(model).length > 0) return;
      // Vis looks for a registration in the entry files it discovers; a module they import needs none.
      if (role === 'module' || (role === 'unknown' && !looksLikeEntry(model, path))) return;
      // A registration call that fails (REG-003, SDK-002) is the error Vis reports, not a missing one.
      if (model.calls.some((c) => c.sdk && REGISTRATION_NAMES.includes(c.sdk.member))) return;
      const where = model.sdkImports[0]?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
      // Vis's own words: G3 hosts name the whole call (`vis.register_extension(vis.Extension(...))`).
      const call = model.generation === 'G3' ? 'vis.register_extension(vis.Extension(...))' : `${registerName(model.generation)}(...)`;
      report(where, `${path} never called ${call}`);
    },
  },
  {
    id: 'IMP-001',
    severity: 'error',
    summary: 'Do not mix `import vis` (G1) with the typed SDK.',
    check({ model, report }) {
      const typed = model.imports.filter((i) => importFlavour(i) === 'typed');
      const g1 = model.imports.filter((i) => importFlavour(i) === 'g1');
      if (typed.length === 0 || g1.length === 0) return;
      if ([...typed, ...g1].some((i) => i.conditional)) return; // a deliberate fallback import
      for (const imp of g1) {
        report(
          imp.statementRange,
          `import vis is the G1 SDK; this file uses the typed SDK (${TYPED_MODULE}), which leaves the top-level vis module alone. Remove import vis.`,
          isSingleImport(imp.statementRange) ? { title: 'Remove import vis', edits: [{ range: lineRange(imp.statementRange), newText: '' }] } : undefined,
        );
      }
    },
  },
];

/** `import vis` alone on its line, so removing the line removes nothing else. */
function isSingleImport(r: Model['imports'][number]['statementRange']): boolean {
  return r.start.line === r.end.line && r.start.character === 0 && r.end.character === 'import vis'.length;
}

function lineRange(r: Model['imports'][number]['statementRange']) {
  return { start: { line: r.start.line, character: 0 }, end: { line: r.end.line + 1, character: 0 } };
}
