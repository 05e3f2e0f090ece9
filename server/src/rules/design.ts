// Tool-design advice from the SDK's docs (vis-sdk.md §5.6), on the tools the file's Symbols export (the
// Symbol analysis, shared with the contract rules): a credential written as a parameter's literal default,
// which the contract exports for the model to read (DESIGN-001), a docstring whose first line retypes
// the signature, when that line is the tool's apropos preview (DESIGN-002), and a parameter or return the
// contract shows as an opaque name where the model needs its structure (DESIGN-003). Warnings: Vis loads
// such tools.
import type { SymbolInfo, ToolInfo } from '../contracts/symbols';
import { opaqueOrigin, type OpaqueOrigin } from '../contracts/typespec';
import type { TypeSpec } from '../contracts/types';
import { isDataclass, scopeOf } from '../contracts/scope';
import type { Call, ClassDecl, FunctionDecl, ImportBinding, Model, Range } from '../model/types';
import { importsToken } from '../model/sdk';
import { derivedCache } from '../model/derived';
import { pyRepr } from '../model/literals';
import type { Rule, RuleContext } from './types';
import { inside } from './util';

/** Parameter names that hold a credential: `token`, `api_key`, `github_token`, `password`... (the last word names it). */
const CREDENTIAL = /(?:^|_)(?:token|secret|password|passwd|passphrase|api_?key|apikey|access_key|private_key|credentials?)$/i;
/** Tokens that are positions, not credentials (`page_token`, `next_token`). */
const POSITION = /^(?:page|next|prev|previous|continuation|cursor|sync|resume|start|end)_token$/i;
/** A word every name CREDENTIAL matches contains: a def whose text has none has no such parameter, and its parameters are not read. */
const CREDENTIAL_WORD = /token|secret|passw|passphrase|api_?key|access_key|private_key|credential/i;

/** A tool the file's Symbols export, with the model that holds its def and the exporting Symbol. */
interface ExportedDef {
  tool: ToolInfo;
  model: Model;
  info: SymbolInfo;
}

/** The exported defs of each list of Symbol analyses, and those of them in the file itself (the design rules all read them). */
const defs = new WeakMap<readonly SymbolInfo[], { all: Map<FunctionDecl, ExportedDef>; local: FunctionDecl[] }>();

/** Every tool the file's Symbols export whose def the checker read, once each: in this module or a sibling one. */
function defsOf(ctx: RuleContext): { all: Map<FunctionDecl, ExportedDef>; local: FunctionDecl[] } {
  const infos = ctx.symbols();
  const kept = defs.get(infos);
  if (kept) return kept;
  const all = new Map<FunctionDecl, ExportedDef>();
  for (const info of infos) {
    for (const tool of info.tools) {
      const model = !tool.declUri || tool.declUri === ctx.model.uri ? ctx.model : tool.declModel;
      if (tool.decl && model && !all.has(tool.decl)) all.set(tool.decl, { tool, model, info });
    }
  }
  const entry = { all, local: [...all].filter(([, d]) => d.model === ctx.model).map(([fn]) => fn) };
  defs.set(infos, entry);
  return entry;
}

const exportedDefs = (ctx: RuleContext) => defsOf(ctx).all;
/** The tools defined in this file, once each (a function exported twice is one definition). */
const toolDefs = (ctx: RuleContext) => defsOf(ctx).local;

// DESIGN-003: the contract engine says which opaque types are an Enum, a TypedDict, a NamedTuple, a path or a
// bare list/dict/tuple (contracts/typespec.ts `opaqueOrigin`); the rule reads the tool's contract.

/** What the model is shown instead, and what to write, per kind of opaque type. */
const OPAQUE: Record<OpaqueOrigin, { what: (name: string) => string; advice: (name: string) => string }> = {
  enum: { what: (n) => `${n}, an Enum`, advice: (n) => `the model sees only its name, '${n} (opaque)', not its values; use a Literal[...] of its values` },
  typeddict: { what: (n) => `${n}, a TypedDict`, advice: (n) => `the model sees only its name, '${n} (opaque)', not its fields; make it a @dataclass record, whose fields the contract shows` },
  namedtuple: { what: (n) => `${n}, a NamedTuple`, advice: (n) => `the model sees only its name, '${n} (opaque)', not its fields; make it a @dataclass record, whose fields the contract shows` },
  path: { what: (n) => n, advice: (n) => `the model sees only the name '${n} (opaque)'; take the path as a str` },
  bare: { what: (n) => `a bare ${n}`, advice: (n) => `the model sees only the name '${n} (opaque)'; name its item types (${n === 'dict' ? 'dict[str, str]' : n === 'tuple' ? 'tuple[str, ...]' : 'list[str]'}) or use a @dataclass record` },
};

/**
 * The first opaque type of a kind the docs warn against, in a type or the unions and generics it is made of
 * (not in record fields). A bare list, dict or tuple counts only as a parameter's own type (or a member of
 * its union): the model then cannot tell what to pass; inside a generic or as a return it reads the value.
 */
function warnedOpaque(t: TypeSpec, bare: boolean, depth = 0): { spec: TypeSpec; origin: OpaqueOrigin } | undefined {
  if (depth > 32) return undefined;
  const origin = t.kind === 'opaque' ? opaqueOrigin(t) : undefined;
  if (origin && (origin !== 'bare' || bare)) return { spec: t, origin };
  if (t.kind !== 'union' && t.kind !== 'generic') return undefined;
  for (const a of t.arguments ?? []) {
    const found = warnedOpaque(a, bare && t.kind === 'union', depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Typing's own names and the SDK: no annotation built from them alone is one of the warned kinds. */
const SAFE_MODULES = new Set(['typing', 'typing_extensions', 'collections.abc', '__future__', 'dataclasses', 'blockether.vis.extension']);

/**
 * Whether the signature of a def may hold an opaque type of a warned kind, from its text alone: a bare
 * list/dict/tuple, or a name the module binds to something other than a dataclass or a typing form. The
 * contract (which reads the parameters) is built only for the defs that may; the engine decides.
 */
function mayHoldOpaque(model: Model, fn: FunctionDecl): boolean {
  const header = signatureText(fn);
  if (/\b(?:list|dict|tuple)\b(?!\s*\[)/.test(header)) return true;
  const names = typeNames(model);
  if (names.size > 16) {
    for (const m of header.matchAll(/[A-Za-z_]\w*/g)) if (names.has(m[0])) return true;
    return false;
  }
  for (const name of names) {
    for (let i = header.indexOf(name); i !== -1; i = header.indexOf(name, i + 1)) {
      if (!/\w/.test(header[i - 1] ?? '') && !/\w/.test(header[i + name.length] ?? '')) return true;
    }
  }
  return false;
}

const typeNamesOf = derivedCache<Set<string>>();

/** Whether each class is a dataclass, and under which imports that was found. */
const dataclasses = new WeakMap<ClassDecl, { imports: readonly ImportBinding[]; dataclass: boolean }>();

/** The names the module binds to something that may be a warned type: anything but a def, a dataclass or a typing form (once per model). */
function typeNames(model: Model): Set<string> {
  let names = typeNamesOf.get(model);
  if (names) return names;
  names = new Set();
  const scope = scopeOf(model);
  const imports = importsToken(model.imports);
  // What decorates a class qualifies through the module's imports alone: a kept class under the same imports is what it was.
  const dataclass = (cls: ClassDecl): boolean => {
    const kept = dataclasses.get(cls);
    if (kept?.imports === imports) return kept.dataclass;
    const is = isDataclass(scope, cls);
    dataclasses.set(cls, { imports, dataclass: is });
    return is;
  };
  for (const [name, bindings] of model.bindings) {
    for (const b of bindings) {
      if (b.kind === 'function' || (b.kind === 'class' && dataclass(b.decl))) continue;
      if (b.kind === 'import' && SAFE_MODULES.has(b.binding.module) && b.binding.name !== 'NamedTuple' && b.binding.name !== 'TypedDict') continue;
      names.add(name);
      break;
    }
  }
  typeNamesOf.set(model, names);
  return names;
}

/** The `def` line(s) through the body's first line: parameters, annotations, defaults and the return annotation. */
function signatureText(fn: FunctionDecl): string {
  const lines = fn.bodyStart ? fn.bodyStart.line - fn.nameRange.start.line : 0;
  let end = 0;
  for (let i = 0; i <= lines; i++) {
    const nl = fn.text.indexOf('\n', end);
    if (nl === -1) return fn.text;
    end = nl + 1;
  }
  return fn.text.slice(0, end);
}

function opaqueMessage(where: string, nested: boolean, found: { spec: TypeSpec; origin: OpaqueOrigin }): string {
  const o = OPAQUE[found.origin];
  return `${where} ${nested ? 'holds' : 'is'} ${o.what(found.spec.name)}: ${o.advice(found.spec.name)}`;
}

// DESIGN-004: what runs when Vis imports the module (its top level and the registration call's arguments;
// not def, lambda or class bodies, nor `if __name__ == "__main__":`) and does IO, logs in or starts work.

type Effect = 'file' | 'network' | 'process' | 'socket' | 'thread' | 'sleep';

const EFFECTS: Record<Effect, string> = {
  file: 'reads or writes a file',
  network: 'makes a network request',
  process: 'runs a process',
  socket: 'opens a socket',
  thread: 'starts background work',
  sleep: 'holds up loading',
};

const HTTP_VERBS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'request'];
/** Functions that do IO when called, by qualified name. */
const IO_FUNCTIONS = new Map<string, Effect>([
  ['io.open', 'file'],
  ['builtins.open', 'file'],
  ...HTTP_VERBS.map((v) => [`requests.${v}`, 'network'] as [string, Effect]),
  ...[...HTTP_VERBS, 'stream'].map((v) => [`httpx.${v}`, 'network'] as [string, Effect]),
  ['urllib.request.urlopen', 'network'],
  ['urllib.request.urlretrieve', 'network'],
  ...['run', 'call', 'check_call', 'check_output', 'Popen', 'getoutput', 'getstatusoutput'].map((f) => [`subprocess.${f}`, 'process'] as [string, Effect]),
  ['os.system', 'process'],
  ['os.popen', 'process'],
  ['socket.socket', 'socket'],
  ['socket.create_connection', 'socket'],
  ['socket.create_server', 'socket'],
  ['time.sleep', 'sleep'],
]);
/** Methods that do IO when called on an object a call of the class made: `Path("x").read_text()`, `threading.Thread(...).start()`. */
const IO_METHODS = new Map<string, { methods: Set<string>; effect: Effect }>([
  ...['Path', 'PosixPath', 'WindowsPath'].map((c) => [
    `pathlib.${c}`,
    { methods: new Set(['read_text', 'read_bytes', 'write_text', 'write_bytes', 'open', 'mkdir', 'touch', 'unlink', 'rmdir', 'rename', 'replace', 'iterdir', 'glob', 'rglob']), effect: 'file' as Effect },
  ] as const),
  ['threading.Thread', { methods: new Set(['start']), effect: 'thread' }],
  ['threading.Timer', { methods: new Set(['start']), effect: 'thread' }],
  ['multiprocessing.Process', { methods: new Set(['start']), effect: 'thread' }],
]);

const IO_METHOD_NAMES = new Set([...IO_METHODS.values()].flatMap((m) => [...m.methods]));
const METHOD = /\.\s*([A-Za-z_]\w*)$/;

/** What a module-level call does, when its callee resolves certainly to one that does IO; how to name it. */
function ioEffect(model: Model, call: Call): { effect: Effect; shown: string } | undefined {
  if (call.inner) return undefined;
  if (call.receiver) {
    // `Path("x").read_text()`: the class the receiver call makes, and the method.
    const method = METHOD.exec(call.callee)?.[1];
    const io = call.receiver.qualified ? IO_METHODS.get(call.receiver.qualified) : undefined;
    return method && io?.methods.has(method) ? { effect: io.effect, shown: `${call.receiver.callee}(...).${method}(...)` } : undefined;
  }
  if (call.callee === 'open' && !model.bindings.has('open')) return { effect: 'file', shown: 'open(...)' };
  const direct = call.qualified ? IO_FUNCTIONS.get(call.qualified) : undefined;
  if (direct) return { effect: direct, shown: `${call.callee}(...)` };
  // `t.start()` where `t = threading.Thread(...)` is the module's one binding of `t`.
  const m = /^([A-Za-z_]\w*)\.([A-Za-z_]\w*)$/.exec(call.callee);
  if (!m || !IO_METHOD_NAMES.has(m[2])) return undefined;
  const bindings = model.bindings.get(m[1]);
  if (bindings?.length !== 1 || bindings[0].kind !== 'assign' || bindings[0].value.kind !== 'call') return undefined;
  const made = bindings[0].value.call;
  const io = made.qualified ? IO_METHODS.get(made.qualified) : undefined;
  return io?.methods.has(m[2]) ? { effect: io.effect, shown: `${call.callee}(...)` } : undefined;
}

/** Test modules are not imported by Vis. */
const TEST_FILE = /(?:^|[\\/])(?:test_[^\\/]*|[^\\/]*_test|conftest)\.py$/;

export const designRules: Rule[] = [
  {
    id: 'DESIGN-004',
    severity: 'warning',
    summary: 'An extension module does no IO, logs in nowhere and starts no background work when Vis imports it (at every load and /reload).',
    check(ctx) {
      const { model } = ctx;
      if (TEST_FILE.test(ctx.path)) return;
      // A few string and map lookups per call: cheaper than keeping per-call results (a rule unit) would be.
      for (const call of model.calls) {
        const io = ioEffect(model, call);
        if (!io) continue;
        // A static factory's calls are in its def body (reported where it is called, not here); `__main__` blocks never run on import.
        if (model.mainBlocks.some((b) => inside(call.range, b)) || [...model.factories.keys()].some((fn) => inside(call.range, fn.range))) continue;
        ctx.report(call.calleeRange, `${io.shown} ${EFFECTS[io.effect]} when Vis imports the extension, on every load and /reload: do it in the tool or callback that needs it`);
      }
    },
  },
  {
    id: 'DESIGN-003',
    severity: 'warning',
    summary: "A tool's parameters and return are not an Enum, TypedDict, NamedTuple, Path or bare list/dict/tuple: the contract shows those as (opaque), only their name.",
    check(ctx) {
      for (const [fn, { tool, model, info }] of exportedDefs(ctx)) {
        if (!mayHoldOpaque(model, fn)) continue;
        const contract = tool.contract;
        const unknown = new Set(tool.unknowns.map((u) => u.where));
        if (unknown.has('contract')) continue;
        // A def in a sibling module gets the finding there, with the Symbol that exports it.
        const elsewhere = model !== ctx.model ? { uri: model.uri, related: [{ uri: ctx.model.uri, range: info.call.range, message: `exported by this ${info.call.callee}(...)` }] } : undefined;
        const report = (t: TypeSpec, range: Range | undefined, where: string, bare: boolean) => {
          const found = range && warnedOpaque(t, bare);
          if (found) ctx.report(range!, opaqueMessage(where, found.spec !== t, found), undefined, elsewhere);
        };
        for (const p of contract.parameters) {
          // What is not statically known about a type is not judged.
          if (unknown.has(`parameter \`${p.name}\`: type`)) continue;
          report(p.type, fn.params.find((x) => x.name === p.name)?.annotationRange, `parameter '${p.name}'`, true);
        }
        if (!unknown.has('returns')) report(contract.returns, fn.returnsRange, 'the return type', false);
      }
    },
  },
  {
    id: 'DESIGN-001',
    severity: 'warning',
    summary: "A tool parameter that holds a credential has no literal default: the contract exports literal defaults for the model to read.",
    check(ctx) {
      for (const fn of toolDefs(ctx)) {
        // A unit per def: what it reports depends on the def alone.
        ctx.unit(fn, () => {
          if (!CREDENTIAL_WORD.test(fn.text)) return;
          for (const p of fn.params) {
            const d = p.defaultValue;
            if (!d || d.kind !== 'str' || d.value === '' || !CREDENTIAL.test(p.name) || POSITION.test(p.name)) continue;
            ctx.report(d.range, `${p.name} defaults to a literal ${pyRepr(d.value.length > 4 ? d.value.slice(0, 4) + '…' : d.value)}: the tool's contract shows literal defaults to the model; read the credential from a declared env= variable or a setting when the tool runs`);
          }
        });
      }
    },
  },
  {
    id: 'DESIGN-002',
    severity: 'warning',
    summary: "A tool's docstring does not open by retyping its signature: the first line is the tool's apropos preview.",
    check(ctx) {
      for (const fn of toolDefs(ctx)) {
        ctx.unit(fn, () => {
          // Only a first line that names the def can retype its signature (most do not: no pattern is made for them).
          if (!fn.docstring?.includes(fn.name)) return;
          const first = fn.docstring.split('\n').find((l) => l.trim() !== '')?.trim();
          if (!first) return;
          const escaped = fn.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          if (!new RegExp(`^(?:def\\s+)?${escaped}\\s*\\(`).test(first)) return;
          ctx.report(fn.nameRange, `the docstring of ${fn.name} opens with its signature: the first line is the tool's apropos preview and the model already sees the signature; say what the tool does`);
        });
      }
    },
  },
];
