// The bundled language server (dist/server.js) over stdio, as an editor and a broken client drive it:
// mutated Vis files (the examples and test files, cut, spliced, bracketed, re-indented, with stray
// quotes, NULs and lone surrogates) opened and edited incrementally, with every request kind after
// each change; deeply nested and oversized documents (some past visAuthoring.maxFileSize, some growing
// past it by an edit); malformed JSON-RPC (bodies that are not JSON or not messages, unknown methods,
// batches, invalid UTF-8, deep JSON, odd headers); known methods and notifications with garbage params;
// settings of the wrong types. After each case the server must still answer a hover and publish the
// diagnostics of a fresh file. Findings: the server exiting (a crash; it is restarted, and the restart
// counted), a request with no answer within 10 s, an answer slower than 1 s, an error answer to a
// well-formed request, an uncaught exception or a stack overflow in its log, RSS past 1.5 GB.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { generateExtension } from '../../bench/generate';
import { LspProcess, type Answer } from '../lspClient';
import type { Rng } from '../rng';
import type { CaseResult, FuzzTarget } from '../target';

const ROOT = path.join(__dirname, '..', '..');
const SERVER = path.join(ROOT, 'dist', 'server.js');
const SLOW_MS = 1000;
/** FUZZ_TRACE=1 tells what each case sends (with --case, to see a finding's input). */
const trace = process.env.FUZZ_TRACE ? (m: string, max = 300) => console.error(`  [lsp] ${m.slice(0, max)}`) : () => undefined;
const RSS_LIMIT_MB = 1536;
const MAX_FILE_SIZE = 2_000_000;

interface Ctx {
  work: string;
  root: string;
  corpus: string[];
  server: LspProcess;
  restarts: number;
  /** A valid extension kept open, asked after every case. */
  sanity: { uri: string; line: number; character: number };
  n: number;
  settings: Record<string, unknown>;
}

const SANITY = 'import blockether.vis.extension as vis\n\n\ndef hello(name: str) -> str:\n    """Say hello."""\n    return name\n\n\nvis.register_extension(vis.Extension(name="hi", description="d", alias="hi", symbols=[vis.Symbol(hello)]))\n';
const PROBE = 'import blockether.vis.extension as vis\n\nvis.register_extension(vis.Extension(name="", description="d", alias="p"))\n';

function corpusFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && !e.name.startsWith('.')) walk(p);
      } else if (e.name.endsWith('.py') && fs.statSync(p).size < 200_000) out.push(fs.readFileSync(p, 'utf8'));
    }
  };
  walk(path.join(ROOT, 'examples'));
  walk(path.join(ROOT, 'test'));
  out.push(generateExtension(8, 200), SANITY, PROBE);
  return out;
}

/** A workspace with an entry in .vis/extensions and a packaged extension with a sibling module. */
function makeWorkspace(root: string): void {
  const w = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  w('.vis/extensions/greeter.py', SANITY);
  w('.vis/extensions/probe/extension.py', 'import blockether.vis.extension as vis\nfrom .models import Reading, read\n\nvis.register_extension(vis.Extension(name="probe", description="d", alias="pr", symbols=[vis.Symbol(read)]))\n');
  w('.vis/extensions/probe/models.py', 'from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass Reading:\n    value: int\n\n\ndef read(n: int = 1) -> Reading:\n    """Read."""\n    return Reading(n)\n');
  w('.vis/extensions/probe/pyproject.toml', '[project]\nname = "probe"\ndependencies = ["vis-agent>=0.1"]\n');
}

async function start(ctx: Pick<Ctx, 'root' | 'settings'>): Promise<LspProcess> {
  // FUZZ_SERVER_NODE_OPTIONS=--cpu-prof profiles the server (a finding's case, re-run alone).
  const execArgv = process.env.FUZZ_SERVER_NODE_OPTIONS?.split(' ').filter(Boolean);
  const server = new LspProcess({ serverPath: SERVER, rootUri: pathToFileURL(ctx.root).href, settings: ctx.settings, execArgv });
  const a = await server.initialize();
  if (a.timedOut || a.error) throw new Error(`the server did not initialize: ${a.error?.message ?? 'no answer'}`);
  return server;
}

// ---------------------------------------------------------------------------------------------
// Documents

const SNIPPETS = [
  '(', ')', '[', ']', '{', '}', ':', ',', '"', "'", '"""', "'''", '\\', '\n', '\r\n', '\r', '    ', '\t', '#', '@', '=', ':=', '**', '*', '->', '.',
  'def ', 'class ', 'async def ', 'lambda: ', 'return ', 'yield ', 'await ', 'if x:\n    ', 'else:\n', 'try:\n', 'import ', 'from . import ', 'global x\n',
  'vis.Symbol(', 'vis.Extension(', 'vis.register_extension(', 'vis.register(', 'vis.extension(', 'vis.method(tag="mutation")', 'prompt.routing(', 'vis.OpHook(',
  'name=""', 'alias=None', 'symbols=[', 'description=f"{x}"', 'tag="bogus"', ' # type: ignore', '# /// script\n# dependencies = ["vis-agent"]\n# ///\n',
  '\u0000', '\ud800', '\udfff', '😀', '\u2028', '\ufeff', 'é', '\u200b', 'ñ' + '\u0301',
];

function mutate(text: string, rng: Rng, corpus: string[]): string {
  let t = text;
  for (let k = rng.range(1, 4); k > 0; k--) {
    const at = rng.int(t.length + 1);
    switch (rng.int(9)) {
      case 0: t = t.slice(0, at) + t.slice(at + rng.range(1, 80)); break;
      case 1: t = t.slice(0, at) + rng.pick(SNIPPETS) + t.slice(at); break;
      case 2: { // duplicate a block of lines
        const lines = t.split('\n');
        const a = rng.int(lines.length);
        const block = lines.slice(a, a + rng.range(1, 12));
        lines.splice(rng.int(lines.length + 1), 0, ...Array.from({ length: rng.range(1, 6) }, () => block).flat());
        t = lines.join('\n');
        break;
      }
      case 3: { // re-indent a block
        const lines = t.split('\n');
        const a = rng.int(lines.length);
        const pad = rng.pick(['', '  ', '    ', '\t', '        ']);
        for (let i = a; i < Math.min(lines.length, a + rng.range(1, 20)); i++) lines[i] = rng.chance(0.5) ? pad + lines[i] : lines[i].replace(/^\s+/, pad);
        t = lines.join('\n');
        break;
      }
      case 4: { // splice in part of another file
        const o = rng.pick(corpus);
        const from = rng.int(o.length + 1);
        t = t.slice(0, at) + o.slice(from, from + rng.range(1, 600)) + t.slice(at);
        break;
      }
      case 5: t = t.slice(0, at); break;
      case 6: { // an identifier renamed everywhere
        const names = [...new Set(t.match(/\b[A-Za-z_]\w{2,}\b/g) ?? [])];
        if (names.length) t = t.split(rng.pick(names)).join(rng.pick(['x', 'vis', 'Symbol', 'self', '_', 'None', 'é', 'register_extension']));
        break;
      }
      case 7: t = t.slice(0, at) + rng.pick(SNIPPETS).repeat(rng.range(2, 300)) + t.slice(at); break;
      default: { // swap two lines
        const lines = t.split('\n');
        const a = rng.int(lines.length);
        const b = rng.int(lines.length);
        [lines[a], lines[b]] = [lines[b], lines[a]];
        t = lines.join('\n');
      }
    }
  }
  return t;
}

const HEAD = 'import blockether.vis.extension as vis\n\n';
const REG = '\n\ndef hello(name: str) -> str:\n    """Say hello."""\n    return name\n\n\nvis.register_extension(vis.Extension(name="deep", description="d", alias="d", symbols=[vis.Symbol(hello)]))\n';

/** Deep nesting, within Python's limits and past them, and long chains that nest without brackets. */
function deepDocument(rng: Rng): string {
  const n = rng.pick([150, 199, 200, 201, 300, 1000, 3000, 20_000, 100_000]);
  const chain = (op: string, end = '1') => `x = ${op.repeat(Math.min(n, 60_000))}${end}\n`;
  switch (rng.int(16)) {
    case 0: return HEAD + Array.from({ length: Math.min(n, 400) }, (_, i) => `${' '.repeat(i)}if x:\n`).join('') + `${' '.repeat(Math.min(n, 400))}pass\n` + REG;
    case 1: return HEAD + `x = ${'('.repeat(n)}1${')'.repeat(n)}\n` + REG;
    case 2: return HEAD + `x = ${'['.repeat(n)}${']'.repeat(n)}\n` + REG;
    case 3: return HEAD + `x = ${'{"a": '.repeat(Math.min(n, 3000))}1${'}'.repeat(Math.min(n, 3000))}\n` + REG;
    case 4: return HEAD + chain('not ') + REG;
    case 5: return HEAD + chain('-') + REG;
    case 6: return HEAD + `x = 1${' + 1'.repeat(n)}\n` + REG;
    case 7: return HEAD + `x = a${'.b'.repeat(n)}\n` + REG;
    case 8: return HEAD + `x = f${'()'.repeat(n)}\n` + REG;
    case 9: return HEAD + `x = a${'[0]'.repeat(n)}\n` + REG;
    case 10: return HEAD + chain('lambda: ') + REG;
    case 11: return HEAD + `x = 1${' if a else 1'.repeat(n)}\n` + REG;
    case 12: return HEAD + `x = 2${' ** 2'.repeat(n)}\n` + REG;
    case 13: return HEAD + `def f(a: "${'List['.repeat(n)}int${']'.repeat(n)}" = ${'('.repeat(Math.min(n, 199))}1${')'.repeat(Math.min(n, 199))}) -> "${'Optional['.repeat(Math.min(n, 5000))}int${']'.repeat(Math.min(n, 5000))}":\n    """Deep."""\n\n\nvis.register_extension(vis.Extension(name="deep", description="d", alias="d", symbols=[vis.Symbol(f)]))\n`;
    case 14: return HEAD + Array.from({ length: Math.min(n, 99) }, (_, i) => `${'    '.repeat(i)}class C${i}:\n`).join('') + `${'    '.repeat(Math.min(n, 99))}x = 1\n` + REG;
    default: return HEAD + `from blockether.vis import prompt\nR = prompt.routing(${'['.repeat(Math.min(n, 199))}"x"${']'.repeat(Math.min(n, 199))}, when=${'('.repeat(Math.min(n, 150))}1${')'.repeat(Math.min(n, 150))})\n` + REG;
  }
}

/** 1 to 2.5 million characters: generated tools, a data literal, one docstring, repeated files. */
function bigDocument(rng: Rng, corpus: string[]): string {
  const size = rng.range(1_000_000, 2_500_000);
  switch (rng.int(4)) {
    case 0: return generateExtension(Math.round(size / 1200), Math.round(size / 38));
    case 1: return HEAD + 'DATA = {\n' + Array.from({ length: Math.round(size / 45) }, (_, i) => `    "key_${i}": [${i}, "value ${i}", {"n": ${i}}],\n`).join('') + '}\n' + REG;
    case 2: return HEAD + `def hello(name: str) -> str:\n    """${'a'.repeat(size)}"""\n    return name\n\n\nvis.register_extension(vis.Extension(name="big", description="d", alias="b", symbols=[vis.Symbol(hello)]))\n`;
    default: {
      const parts: string[] = [];
      for (let n = 0; n < size; ) {
        const f = rng.pick(corpus);
        parts.push(f);
        n += f.length + 1;
      }
      return parts.join('\n');
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Requests

type Req = { method: string; params: unknown };

function position(doc: TextDocument, rng: Rng) {
  if (rng.chance(0.05)) return rng.pick([{ line: 1e6, character: 0 }, { line: 0, character: 1e6 }, { line: -1, character: -1 }, { line: doc.lineCount, character: 0 }]);
  const line = rng.int(doc.lineCount);
  const text = doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
  return { line, character: rng.int(text.length + 1) };
}

/** Every request kind the server answers about a document: the standard ones it advertises and ours. */
function requestsFor(ctx: Ctx, doc: TextDocument, rng: Rng, before: string): Req[] {
  const uri = doc.uri;
  const td = { uri };
  const caps = ctx.server.capabilities;
  const diags = (ctx.server.diagnostics.get(uri)?.diagnostics ?? []) as { range: unknown }[];
  const reqs: Req[] = [
    { method: 'textDocument/hover', params: { textDocument: td, position: position(doc, rng) } },
    { method: 'textDocument/hover', params: { textDocument: td, position: position(doc, rng) } },
    { method: 'textDocument/codeAction', params: { textDocument: td, range: diags[0]?.range ?? { start: position(doc, rng), end: position(doc, rng) }, context: { diagnostics: diags.slice(0, 5) } } },
    { method: 'textDocument/codeLens', params: { textDocument: td } },
    { method: 'visAuthoring/documentStatus', params: { uri } },
    { method: 'visAuthoring/symbolContract', params: { uri, position: position(doc, rng) } },
    { method: 'visAuthoring/renderRouting', params: { uri, position: position(doc, rng) } },
    { method: 'visAuthoring/previewDocs', params: { uri } },
    { method: 'visAuthoring/previewPrompt', params: { uri } },
    { method: 'visAuthoring/compareContracts', params: { uri } },
  ];
  if (doc.getText().length + before.length < 400_000) reqs.push({ method: 'visAuthoring/lineChanges', params: { before, after: doc.getText() } });
  const p = () => ({ textDocument: td, position: position(doc, rng) });
  if (caps.completionProvider) reqs.push({ method: 'textDocument/completion', params: p() });
  if (caps.signatureHelpProvider) reqs.push({ method: 'textDocument/signatureHelp', params: p() });
  if (caps.definitionProvider) reqs.push({ method: 'textDocument/definition', params: p() });
  if (caps.referencesProvider) reqs.push({ method: 'textDocument/references', params: { ...p(), context: { includeDeclaration: true } } });
  if (caps.documentSymbolProvider) reqs.push({ method: 'textDocument/documentSymbol', params: { textDocument: td } });
  if (caps.workspaceSymbolProvider) reqs.push({ method: 'workspace/symbol', params: { query: rng.pick(['', 'tool', 'hello', 'é']) } });
  if (caps.inlayHintProvider) reqs.push({ method: 'textDocument/inlayHint', params: { textDocument: td, range: { start: { line: 0, character: 0 }, end: { line: doc.lineCount, character: 0 } } } });
  if (caps.documentFormattingProvider) reqs.push({ method: 'textDocument/formatting', params: { textDocument: td, options: { tabSize: 4, insertSpaces: true } } });
  return reqs;
}

interface Tally {
  requests: number;
  slowestMs: number;
  longestWholeFileMs: number;
  problems: { kind: string; detail: string }[];
}

/** Sends requests together (as an editor does after an edit) and checks every answer. */
/**
 * Requests whose work grows with the whole file (every tool's contract and page): a preview of a file of
 * thousands of tools takes seconds, in slices. They are held to the 1 s limit only for files under
 * LONG_WORK_CHARS; past it their time is recorded (`longestWholeFileMs`), and hovers sent every 100 ms
 * while they run must each be answered within 1 s: nothing waits behind them.
 */
const WHOLE_FILE = new Set(['visAuthoring/previewDocs', 'visAuthoring/previewPrompt', 'visAuthoring/compareContracts']);
const LONG_WORK_CHARS = 500_000;

async function ask(ctx: Ctx, reqs: Req[], t: Tally, docChars = 0): Promise<Answer[]> {
  let done = false;
  const all = Promise.all(reqs.map((r) => ctx.server.request(r.method, r.params))).finally(() => (done = true));
  const meanwhile: Answer[] = [];
  if (docChars >= LONG_WORK_CHARS) {
    for (await sleep(100); !done; await sleep(100)) meanwhile.push(await ctx.server.request('textDocument/hover', { textDocument: { uri: ctx.sanity.uri }, position: ctx.sanity }));
  }
  const answers = await all;
  trace(`answers: ${answers.map((a, k) => `${reqs[k].method.replace(/^.*\//, '')} ${Math.round(a.ms)}`).join(', ')}; meanwhile ${meanwhile.map((a) => Math.round(a.ms)).join(' ')}`, 2000);
  for (const a of meanwhile) check(ctx, a, { method: 'textDocument/hover', params: 'sanity, while a large file was previewed' }, t);
  answers.forEach((a, k) => {
    if (docChars >= LONG_WORK_CHARS && WHOLE_FILE.has(reqs[k].method) && !a.timedOut && !a.error) t.longestWholeFileMs = Math.max(t.longestWholeFileMs, a.ms);
    else check(ctx, a, reqs[k], t);
  });
  return answers;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function check(ctx: Ctx, a: Answer, r: Req, t: Tally, garbage = false): void {
  t.requests++;
  t.slowestMs = Math.max(t.slowestMs, a.ms);
  const what = `${r.method} ${JSON.stringify(r.params).slice(0, 160)}`;
  if (a.timedOut) t.problems.push({ kind: 'unanswered', detail: `no answer to ${what}${ctx.server.exited ? ` (${ctx.server.exited})` : ''}` });
  else if (a.ms > SLOW_MS) t.problems.push({ kind: 'slow-answer', detail: `${Math.round(a.ms)} ms for ${what}` });
  // A well-formed request must not fail (a cancelled one may say so); garbage may get any error.
  else if (a.error && !garbage && a.error.code !== -32800) t.problems.push({ kind: 'error-answer', detail: `${a.error.code} ${a.error.message} for ${what}` });
}

// ---------------------------------------------------------------------------------------------
// Scenarios

function uriFor(ctx: Ctx, rng: Rng, i: number): string {
  switch (rng.int(8)) {
    case 0: return `untitled:Untitled-${i}`;
    case 1: return `file:///tmp/vis-fuzz-outside/case-${i}.py`;
    case 2: return pathToFileURL(path.join(ctx.root, '.vis', 'extensions', 'probe', rng.pick(['extension.py', 'models.py']))).href;
    case 3: return pathToFileURL(path.join(ctx.root, '.vis', 'extensions', 'greeter.py')).href;
    default: return pathToFileURL(path.join(ctx.root, '.vis', 'extensions', `case_${i}.py`)).href;
  }
}

/** Open a document, change it a few times (incremental edits, some with odd ranges), every request after each. */
async function editing(ctx: Ctx, rng: Rng, i: number, t: Tally, text: string): Promise<void> {
  const uri = uriFor(ctx, rng, i);
  let doc = TextDocument.create(uri, 'python', 1, text);
  ctx.server.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text } });
  await ask(ctx, requestsFor(ctx, doc, rng, ''), t, text.length);
  for (let k = rng.range(1, 4); k > 0; k--) {
    const before = doc.getText();
    const version = doc.version + 1;
    let changes: ({ range: { start: { line: number; character: number }; end: { line: number; character: number } }; text: string } | { text: string })[];
    if (rng.chance(0.2)) changes = [{ text: mutate(before, rng, ctx.corpus) }];
    else {
      changes = [];
      for (let c = rng.range(1, 3); c > 0; c--) {
        const a = position(doc, rng);
        const b = rng.chance(0.7) ? a : position(doc, rng);
        changes.push({ range: { start: a, end: b }, text: rng.chance(0.3) ? '' : rng.pick(SNIPPETS).repeat(rng.range(1, 3)) });
      }
    }
    doc = TextDocument.update(doc, changes, version);
    ctx.server.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: changes });
    if (rng.chance(0.2)) ctx.server.notify('textDocument/didSave', { textDocument: { uri } });
    await ask(ctx, requestsFor(ctx, doc, rng, before), t, doc.getText().length);
  }
  if (rng.chance(0.8)) ctx.server.notify('textDocument/didClose', { textDocument: { uri } });
}

/** A large document: requests while it is analysed, an edit that grows it (sometimes past maxFileSize), then closed. */
async function large(ctx: Ctx, rng: Rng, i: number, t: Tally): Promise<void> {
  const text = bigDocument(rng, ctx.corpus);
  const uri = pathToFileURL(path.join(ctx.root, '.vis', 'extensions', `big_${i}.py`)).href;
  let doc = TextDocument.create(uri, 'python', 1, text);
  ctx.server.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text } });
  for (let k = 0; k < 3; k++) {
    await ask(ctx, requestsFor(ctx, doc, rng, ''), t, doc.getText().length);
    await ask(ctx, [{ method: 'textDocument/hover', params: { textDocument: { uri: ctx.sanity.uri }, position: ctx.sanity } }], t);
    await new Promise((r) => setTimeout(r, 200));
  }
  const grow = rng.chance(0.5) ? Math.max(1, MAX_FILE_SIZE - doc.getText().length + rng.range(-100, 5000)) : rng.range(1, 100);
  const change = { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: '#'.repeat(Math.min(grow, 1_500_000)) + '\n' };
  doc = TextDocument.update(doc, [change], 2);
  ctx.server.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [change] });
  await ask(ctx, requestsFor(ctx, doc, rng, ''), t, doc.getText().length);
  ctx.server.notify('textDocument/didClose', { textDocument: { uri } });
}

const METHODS = ['textDocument/hover', 'textDocument/codeAction', 'textDocument/codeLens', 'visAuthoring/documentStatus', 'visAuthoring/symbolContract', 'visAuthoring/renderRouting', 'visAuthoring/previewDocs', 'visAuthoring/previewPrompt', 'visAuthoring/compareContracts', 'visAuthoring/lineChanges', 'textDocument/completion', 'textDocument/definition'];
const NOTIFICATIONS = ['textDocument/didOpen', 'textDocument/didChange', 'textDocument/didClose', 'textDocument/didSave', 'workspace/didChangeConfiguration', 'workspace/didChangeWatchedFiles', 'workspace/didChangeWorkspaceFolders', '$/cancelRequest', '$/setTrace', 'initialized'];

function garbage(rng: Rng, ctx: Ctx): unknown {
  const uri = rng.pick([ctx.sanity.uri, 'file:///nowhere.py', 'not a uri', '', 'file:///dev/zero', 'file:///proc/self/mem', 'vis-preview:x']);
  return rng.pick<unknown>([
    null, 42, 'x', [], {}, [1, 2, 3], true,
    { textDocument: 5 }, { textDocument: { uri: 7 } }, { textDocument: { uri } }, { uri: null }, { uri },
    { textDocument: { uri }, position: { line: 'a', character: null } }, { textDocument: { uri }, position: { line: -5, character: 2 ** 40 } },
    { textDocument: { uri, version: 'x', text: 42 } }, { textDocument: { uri, version: 1, languageId: 'python', text: null } },
    { textDocument: { uri, version: 2 }, contentChanges: 'nope' }, { textDocument: { uri, version: 2 }, contentChanges: [{ range: { start: 1, end: 2 }, text: 3 }] },
    { textDocument: { uri, version: 9 }, contentChanges: [{ range: { start: { line: 1e9, character: 0 }, end: { line: -1, character: 0 } }, text: 'x' }] },
    { settings: { visAuthoring: { maxFileSize: -5, severity: 'x', diagnostics: 7, contractFormat: 9 } } },
    { changes: [{ uri: 'file:///dev/zero', type: 2 }, { uri: 42, type: 'x' }] }, { changes: 'x' },
    { event: { added: [{ uri: 7 }], removed: 'x' } }, { id: { nested: true } }, { value: 'verbose' },
    { before: 42, after: null }, { before: 'a\n'.repeat(1000), after: 'b\n'.repeat(1000) }, { uri, position: { line: 0, character: 0 }, extra: 'x'.repeat(100_000) },
  ]);
}

/** Frames and bodies no conforming client sends; each is answered or ignored, and the server goes on. */
async function malformed(ctx: Ctx, rng: Rng, t: Tally): Promise<void> {
  const s = ctx.server;
  for (let k = rng.range(1, 4); k > 0; k--) {
    const kind = rng.int(12);
    trace(`malformed #${kind}`);
    switch (kind) {
      case 0: s.writeBody(Buffer.from(rng.pick(['{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{', '{{}', 'nul', '\u0000\u0001', '', ' ']))); break;
      case 1: s.writeBody(Buffer.from(rng.pick(['42', '"str"', '[1,2]', 'null', '[]', 'true', '{}']))); break;
      case 2: s.send(rng.pick<unknown>([{ jsonrpc: '2.0', id: 1 }, { jsonrpc: '1.0', id: 'x', method: 'textDocument/hover' }, { jsonrpc: '2.0', id: { a: 1 }, method: 'x' }, { jsonrpc: '2.0', id: 999_999, result: 1 }, { jsonrpc: '2.0', method: 7 }, { jsonrpc: '2.0', id: null, error: { code: 1 } }])); break;
      case 3: { // an unknown request must get MethodNotFound
        const r: Req = { method: rng.pick(['foo/bar', 'textDocument/unknown', 'visAuthoring/nothing', '$/unknownRequest']), params: garbage(rng, ctx) };
        const a = await s.request(r.method, r.params);
        check(ctx, a, r, t, true);
        if (!a.timedOut && a.error?.code !== -32601) t.problems.push({ kind: 'error-answer', detail: `${r.method} answered ${JSON.stringify(a.error ?? a.result)} instead of MethodNotFound` });
        break;
      }
      case 4: s.notify(rng.pick(['foo/bar', '$/unknown', 'textDocument/unknown']), garbage(rng, ctx)); break;
      case 5: s.send([{ jsonrpc: '2.0', method: '$/a' }, { jsonrpc: '2.0', id: 5, method: 'textDocument/hover' }]); break;
      case 6: s.writeBody(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d])); break;
      case 7: s.writeBody(Buffer.from(`{"jsonrpc":"2.0","method":"$/x","params":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)); break;
      case 8: { // odd but valid headers
        const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: '$/noop', params: {} }));
        s.writeRaw(Buffer.concat([Buffer.from(rng.pick([`content-length: ${body.length}\r\n\r\n`, `Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: ${body.length}\r\n\r\n`, `Content-Length: ${body.length}\r\nX-Junk: ${'y'.repeat(1000)}\r\n\r\n`])), body]));
        break;
      }
      case 9: s.writeRaw(Buffer.from('Content-Length: abc\r\n\r\n')); break;
      case 10: s.notify('$/x', { big: 'z'.repeat(rng.pick([1e5, 5e6])) }); break;
      default: { // a known method with garbage params
        const r: Req = { method: rng.pick(METHODS), params: garbage(rng, ctx) };
        check(ctx, await s.request(r.method, r.params), r, t, true);
        s.notify(rng.pick(NOTIFICATIONS), garbage(rng, ctx));
      }
    }
  }
}

/** The server still answers a hover on a valid extension and publishes the diagnostics of a fresh file. */
async function alive(ctx: Ctx, t: Tally, i: number): Promise<void> {
  const h = await ctx.server.request('textDocument/hover', { textDocument: { uri: ctx.sanity.uri }, position: ctx.sanity });
  check(ctx, h, { method: 'textDocument/hover', params: 'sanity' }, t);
  if (!h.timedOut && !h.error && !JSON.stringify(h.result ?? '').includes('hello')) t.problems.push({ kind: 'wrong-answer', detail: `the sanity hover answered ${JSON.stringify(h.result).slice(0, 200)}` });
  if (i % 10 !== 0) return;
  const uri = `file:///tmp/vis-fuzz-probe/p${i}.py`;
  ctx.server.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text: PROBE } });
  const deadline = performance.now() + 5000;
  while (!ctx.server.diagnostics.has(uri) && performance.now() < deadline && !ctx.server.exited) await new Promise((r) => setTimeout(r, 10));
  const d = ctx.server.diagnostics.get(uri)?.diagnostics as { code: string }[] | undefined;
  if (!d || !d.some((x) => x.code === 'EXT-003')) t.problems.push({ kind: 'unanswered', detail: `no EXT-003 published for a fresh file within 5 s (${JSON.stringify(d)?.slice(0, 200)})` });
  ctx.server.notify('textDocument/didClose', { textDocument: { uri } });
  ctx.server.diagnostics.delete(uri);
}

const PROBLEM_LOG = /uncaught exception|unhandled rejection|Maximum call stack|RangeError|analysis of .* failed|could not publish/i;

const target: FuzzTarget<Ctx> = {
  name: 'lsp',
  about: 'mutated, deep and large Vis files over LSP (dist/server.js) with every request after each change; malformed JSON-RPC and garbage params',
  count: 10_000,
  quickCount: 30,
  // A case asks up to ~70 requests (a large document takes seconds in all); each answer has its own 1 s limit.
  slowMs: 30_000,
  hangMs: 90_000,
  rssLimitMb: 1024,
  async setup(work) {
    if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} is missing: run npm run build first (npm run fuzz builds it)`);
    const root = path.join(work, 'ws');
    makeWorkspace(root);
    const settings: Record<string, unknown> = { maxFileSize: MAX_FILE_SIZE };
    const server = await start({ root, settings });
    const sanityUri = pathToFileURL(path.join(root, 'sanity', 'sane.py')).href;
    server.notify('textDocument/didOpen', { textDocument: { uri: sanityUri, languageId: 'python', version: 1, text: SANITY } });
    const line = SANITY.split('\n').findIndex((l) => l.startsWith('def hello'));
    // Warm: the first preview of a session waits for the token table (start-up is the bench's, not ours).
    const warm = await server.request('visAuthoring/previewDocs', { uri: sanityUri }, 30_000);
    if (warm.timedOut || warm.error) throw new Error(`the server did not answer the first preview: ${warm.error?.message ?? 'no answer'}`);
    return { work, root, corpus: corpusFiles(), server, restarts: 0, sanity: { uri: sanityUri, line, character: 5 }, n: 0, settings };
  },
  async teardown(ctx) {
    await ctx.server.stop();
  },
  async run(ctx, rng, i): Promise<CaseResult> {
    const t: Tally = { requests: 0, slowestMs: 0, longestWholeFileMs: 0, problems: [] };
    const roll = rng.next();
    let outcome: string;
    if (roll < 0.7) {
      outcome = 'mutated file';
      await editing(ctx, rng, i, t, mutate(rng.pick(ctx.corpus), rng, ctx.corpus));
    } else if (roll < 0.78) {
      outcome = 'deep nesting';
      await editing(ctx, rng, i, t, deepDocument(rng));
    } else if (roll < 0.79) {
      outcome = 'large file';
      await large(ctx, rng, i, t);
    } else if (roll < 0.97) {
      outcome = 'malformed JSON-RPC';
      await malformed(ctx, rng, t);
    } else {
      outcome = 'settings of the wrong types';
      await ctx.server.reconfigure({ severity: rng.pick(['x', 7, null, { 'EXT-003': 'bogus' }]), maxFileSize: rng.pick(['x', -1, 0, null, 1e300]), diagnostics: rng.pick([7, 'x', { scope: 9 }]), enable: rng.pick(['no', 0, null]), contractFormat: rng.pick(['C9', 3]) });
      await editing(ctx, rng, i, t, mutate(rng.pick(ctx.corpus), rng, ctx.corpus));
      await ctx.server.reconfigure(ctx.settings);
    }
    await alive(ctx, t, i);
    for (const l of ctx.server.takeLogs()) if (trace(l), PROBLEM_LOG.test(l)) t.problems.push({ kind: 'logged-exception', detail: l.slice(0, 600) });
    const rss = ctx.server.rssMb();
    if (rss > RSS_LIMIT_MB) t.problems.push({ kind: 'memory', detail: `server RSS ${Math.round(rss)} MB (limit ${RSS_LIMIT_MB} MB)` });
    const crashed = !!ctx.server.exited;
    if (crashed) {
      t.problems.push({ kind: 'crash', detail: ctx.server.exited! });
      ctx.restarts++;
      ctx.server = await start(ctx);
      ctx.server.notify('textDocument/didOpen', { textDocument: { uri: ctx.sanity.uri, languageId: 'python', version: 1, text: SANITY } });
    }
    const first = t.problems[0];
    return {
      outcome,
      finding: first && `${first.kind}: ${first.detail}${t.problems.length > 1 ? ` (+${t.problems.length - 1} more: ${[...new Set(t.problems.slice(1).map((p) => p.kind))].join(', ')})` : ''}`,
      kind: first?.kind,
      metrics: { sum: { requests: t.requests, restarts: crashed ? 1 : 0 }, max: { slowestAnswerMs: t.slowestMs, longestWholeFileMs: t.longestWholeFileMs, serverRssMb: rss } },
    };
  },
};

export default target;
