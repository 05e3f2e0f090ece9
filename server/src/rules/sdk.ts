// The SDK a file is written for (vis-sdk.md §0.2, §1): evidence that no SDK version fits at once
// (SDK-001, reported once at the registration call), and members the file's SDK version does not have —
// Python's AttributeError (`module 'vis' has no attribute 'Symbol'`), or its ImportError for a `from`
// import (SDK-002). The other generation's registration name and the retired G1 builders on the typed SDK
// keep their own id (REG-003, registration.ts); both read `missingMembers`.
import { runtimeCalls } from '../model/runtime';
import { G1_MODULE, TYPED_MODULE, allDecorators, importFlavour } from '../model/sdk';
import type { Call, Model, Range } from '../model/types';
import { ANY_RELEASE, everMember, moduleOf, nearMember, scopeOf, sdkMember, sdkMembers, type SdkMember } from '../sdk/table';
import type { Fix, Rule } from './types';
import { derivedCache } from '../model/derived';

export interface MissingMember {
  /** `blockether.vis.extension` or `vis`. */
  module: string;
  /** The attribute Python looks up on the module (the first name after it). */
  name: string;
  range: Range;
  /** Through `from module import name`: Python's ImportError, raised at the import. */
  fromImport: boolean;
  /** The call it is read for, when it is called. */
  call?: Call;
  /** REG-003's: the other generation's registration function, or a G1 dict builder on the typed SDK. */
  registration: boolean;
  /** The member the name is one edit away from (a typo). */
  nearest?: SdkMember;
}

/** The registration functions of every generation. */
export const REGISTRATION_NAMES = ['register', 'register_extension', 'extension'];
/** The G1 dict builders the typed SDK retired (`vis.symbol`, `vis.slash`...). */
const RETIRED = sdkMembers(ANY_RELEASE, G1_MODULE).filter((m) => m.retiredBuilder).map((m) => m.name);
/** Names REG-003 reports on the typed SDK, at the call. */
const REG_003_NAMES = new Set([...REGISTRATION_NAMES, ...RETIRED]);

/** `import vis` next to the typed SDK, both unconditional: Python fails at the import (IMP-001), not later. */
export function mixesSdks(model: Model): boolean {
  const flavours = model.imports.filter((i) => !i.conditional).map(importFlavour);
  return flavours.includes('typed') && flavours.includes('g1');
}

const cache = derivedCache<readonly MissingMember[]>();
const NONE: readonly MissingMember[] = [];

/**
 * The SDK attributes the file reads at import time (module-level calls, decorators, `from` imports), or when
 * its tools and callbacks run (calls in function bodies and lambdas), that its SDK version's module does not have. A name no release has is reported only when Vis certainly
 * lacks it: a typed declaration read from the G1 module, a G1 builder read from the typed one, or one
 * edit away from a real member. Anything else stays silent.
 */
export function missingMembers(model: Model): readonly MissingMember[] {
  const hit = cache.get(model);
  if (hit) return hit;
  const out: MissingMember[] = [];
  if (model.generation) {
    const scope = scopeOf(model);
    const check = (module: string, name: string, range: Range, fromImport: boolean, call?: Call) => {
      if (name.startsWith('_') || sdkMember(scope, module, name)) return;
      const typed = module === TYPED_MODULE;
      const ever = everMember(module, name);
      const registration = typed && REG_003_NAMES.has(name) && (ever || RETIRED.includes(name));
      const nearest = ever ? undefined : nearMember(module, name);
      const certain = ever || registration || nearest !== undefined || (!typed && sdkMember(ANY_RELEASE, TYPED_MODULE, name)?.typedOnly === true);
      if (certain) out.push({ module, name, range, fromImport, call, registration, nearest });
    };
    // Module-level calls fail at import; calls in tools and callbacks when they run (Python's same error).
    for (const call of [...model.calls, ...runtimeCalls(model).map((r) => r.call)]) {
      if (!call.sdk) continue;
      const fromImport = !call.callee.includes('.');
      // A name imported with `from` fails at the import: reported there, unless REG-003 reports the call.
      const name = call.sdk.member.split('.')[0];
      const module = moduleOf(call.sdk.flavour);
      if (fromImport && !(module === TYPED_MODULE && REG_003_NAMES.has(name))) continue;
      check(module, name, call.calleeRange, fromImport, call);
    }
    for (const d of [...model.functions.flatMap((f) => f.decorators), ...model.classes.flatMap(allDecorators)]) {
      if (d.call || !d.name?.includes('.')) continue;
      const module = d.qualified?.startsWith(TYPED_MODULE + '.') ? TYPED_MODULE : d.qualified?.startsWith(G1_MODULE + '.') ? G1_MODULE : undefined;
      if (module) check(module, d.qualified!.slice(module.length + 1).split('.')[0], { start: { line: d.range.start.line, character: d.range.start.character + 1 }, end: d.range.end }, false);
    }
    for (const imp of model.imports) {
      if (imp.name === undefined || (imp.module !== TYPED_MODULE && imp.module !== G1_MODULE)) continue;
      if (imp.module === TYPED_MODULE && REG_003_NAMES.has(imp.name)) continue;
      check(imp.module, imp.name, imp.range, true);
    }
  }
  cache.set(model, out.length ? out : NONE);
  return out;
}

/** Python's own message for a missing module attribute. */
export function missingMessage(m: MissingMember): string {
  return m.fromImport ? `cannot import name '${m.name}' from '${m.module}'` : `module '${m.module}' has no attribute '${m.name}'`;
}

function typoFix(m: MissingMember): Fix | undefined {
  if (!m.nearest) return undefined;
  const right = m.nearest.name;
  if (m.call && !m.fromImport) {
    const callee = m.call.callee;
    const at = callee.lastIndexOf(`.${m.name}`);
    if (at === -1) return undefined;
    const text = `${callee.slice(0, at + 1)}${right}${callee.slice(at + 1 + m.name.length)}`;
    return { title: `Change to ${text}`, edits: [{ range: m.call.calleeRange, newText: text }] };
  }
  return { title: `Change to ${right}`, edits: [{ range: m.range, newText: right }] };
}

export const sdkRules: Rule[] = [
  {
    id: 'SDK-001',
    severity: 'error',
    summary: 'The SDK version evidence (pins, registration call, version-specific members and tags) must fit one SDK version; reported once, at the registration call.',
    check({ model, report }) {
      const conflict = model.sdk?.conflict;
      if (conflict) report(conflict.range, conflict.message);
    },
  },
  {
    id: 'SDK-002',
    severity: 'error',
    summary: "An SDK member the file's SDK version does not have: Python's AttributeError (or ImportError for a from import).",
    fixable: true,
    check({ model, report }) {
      if (mixesSdks(model)) return; // IMP-001: the import fails first
      for (const m of missingMembers(model)) if (!m.registration) report(m.range, missingMessage(m), typoFix(m));
    },
  },
];
