// Environment variables (vis-sdk.md §1 Registration, EXT-010/011): registration resolves the variables an
// extension declares in `env=` through the host (`declare_env`), so a variable is there for the extension
// once it is declared and registered. A read at import, above the registration (ENV-001), runs before
// that; a read of a variable `env=` does not name (ENV-002) depends on the environment Vis happened to be
// started in. Reads are `os.environ[NAME]`, `os.environ.get(NAME)` and `os.getenv(NAME)` with a literal
// name, at module level and where tools and callbacks run; the shell's own variables (HOME, PATH...) and
// Vis's (VIS_*) are never the extension's to declare. Files that do not register, and registrations whose
// `env=` is not written out, are not judged.
import { qualify, registrations, resolve } from '../model/sdk';
import { runtimeBodies, runtimeCalls } from '../model/runtime';
import type { Call, Model, Range, Value } from '../model/types';
import { pyRepr } from '../model/literals';
import type { Rule } from './types';
import { derivedCache } from '../model/derived';

interface Read {
  name: string;
  /** The whole read (`os.environ["ACME_KEY"]`). */
  range: Range;
  /** At module level: it runs at import. */
  atImport: boolean;
}

/** System and shell variables nobody declares. */
const AMBIENT = new Set(['HOME', 'PATH', 'USER', 'USERNAME', 'LOGNAME', 'SHELL', 'PWD', 'OLDPWD', 'TMPDIR', 'TEMP', 'TMP', 'LANG', 'LANGUAGE', 'TERM', 'TZ', 'EDITOR', 'VISUAL', 'PAGER', 'HOSTNAME', 'DISPLAY', 'CI', 'PYTHONPATH', 'VIRTUAL_ENV', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_RUNTIME_DIR', 'NO_COLOR', 'COLUMNS', 'LINES', 'SSH_AUTH_SOCK', 'APPDATA', 'LOCALAPPDATA', 'USERPROFILE', 'SYSTEMROOT', 'COMSPEC']);

function ambient(name: string): boolean {
  return AMBIENT.has(name) || name.startsWith('LC_') || name.startsWith('VIS_');
}

const ENVIRON = 'os.environ';
const GETTERS = new Set(['os.environ.get', 'os.getenv', 'os.environ.setdefault', 'os.environ.pop']);

/** `X[...]` written as text: `os.environ["ACME_KEY"]` (the model keeps a module-level subscript as text). */
const SUBSCRIPT = /^([A-Za-z_][\w.]*)\[\s*(?:'([A-Za-z_]\w*)'|"([A-Za-z_]\w*)")\s*\]$/;

const cache = derivedCache<Read[]>();

function reads(model: Model): Read[] {
  const hit = cache.get(model);
  if (hit) return hit;
  const out: Read[] = [];
  const fromCall = (call: Call, q: string | undefined, atImport: boolean) => {
    if (!q || !GETTERS.has(q) || call.args.some((a) => a.splat)) return;
    const first = call.args[0];
    const v = first && first.name === undefined ? resolve(model, first.value) : undefined;
    if (v?.kind === 'str') out.push({ name: v.value, range: call.range, atImport });
  };
  for (const call of model.calls) if (!call.inner) fromCall(call, call.qualified ?? qualify(model, call.callee, call.range.start), true);
  for (const list of model.bindings.values()) {
    for (const b of list) {
      if (b.kind !== 'assign' || b.value.kind !== 'unknown') continue;
      const m = SUBSCRIPT.exec(b.value.text);
      if (m && qualify(model, m[1], b.value.range.start) === ENVIRON) out.push({ name: m[2] ?? m[3], range: b.value.range, atImport: true });
    }
  }
  for (const r of runtimeCalls(model)) if (!r.call.inner) fromCall(r.call, r.qualify(r.call.callee), false);
  for (const body of runtimeBodies(model)) {
    for (const s of body.flow.subscripts) {
      const object: Value = s.object;
      const dotted = object.kind === 'name' ? object.name : object.kind === 'attribute' ? object.path : undefined;
      if (!dotted || body.qualify(dotted) !== ENVIRON) continue;
      const key = s.key.kind === 'name' && body.local(s.key.name) ? s.key : resolve(model, s.key);
      if (key.kind === 'str') out.push({ name: key.value, range: s.range, atImport: false });
    }
  }
  out.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  cache.set(model, out);
  return out;
}

/** The file's one registration, and the names its `env=` declares (undefined: not written out). */
function declared(model: Model): { call: Call; names?: Set<string> } | undefined {
  const regs = registrations(model);
  if (regs.length !== 1) return undefined;
  const reg = regs[0];
  let decl: Call | undefined = reg.call;
  if (reg.kind !== 'G1') {
    const arg = reg.call.args[0];
    const v = arg && resolve(model, arg.value);
    decl = v?.kind === 'call' ? v.call : undefined;
  }
  if (!decl || decl.args.some((a) => a.splat)) return { call: reg.call };
  const env = decl.args.find((a) => a.name === 'env');
  if (!env) return { call: reg.call, names: new Set() };
  const list = resolve(model, env.value);
  if (list.kind !== 'list' && list.kind !== 'tuple') return { call: reg.call };
  const names = new Set<string>();
  for (const item of list.items) {
    const v = resolve(model, item);
    if (v.kind !== 'str') return { call: reg.call };
    names.add(v.value);
  }
  return { call: reg.call, names };
}

const before = (a: Range, b: Range) => a.start.line < b.start.line || (a.start.line === b.start.line && a.start.character < b.start.character);

export const environmentRules: Rule[] = [
  {
    id: 'ENV-001',
    severity: 'warning',
    summary: 'An environment variable read at import, before the registration resolves the declared env: read it when a tool runs.',
    check(ctx) {
      const reg = declared(ctx.model);
      if (!reg) return;
      for (const r of reads(ctx.model)) {
        // An undeclared one is ENV-002's (one finding per read).
        if (!r.atImport || ambient(r.name) || !before(r.range, reg.call.range) || (reg.names && !reg.names.has(r.name))) continue;
        ctx.report(r.range, `${pyRepr(r.name)} is read at import, before the registration resolves the declared env: read it in the tool or callback that needs it`);
      }
    },
  },
  {
    id: 'ENV-002',
    severity: 'warning',
    summary: 'An environment variable the extension reads is declared in env= (Vis resolves the declared ones).',
    check(ctx) {
      const reg = declared(ctx.model);
      if (!reg?.names) return;
      for (const r of reads(ctx.model)) {
        if (ambient(r.name) || reg.names.has(r.name)) continue;
        ctx.report(r.range, `${pyRepr(r.name)} is read but not declared in env=: Vis resolves only the variables an extension declares; add it to env=`);
      }
    },
  },
];
