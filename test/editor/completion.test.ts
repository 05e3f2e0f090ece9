// Completion, signature help and SDK hovers over the bundled server, fourslash style: cursor markers in
// inline fixtures of each generation, the items asserted exactly, and silence outside SDK calls.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { py } from '../helpers/fixture';
import { fourslash, type Fixture, type Position } from '../helpers/fourslash';
import { startServer, type TestServer } from '../helpers/lsp';

const G3 = fourslash(py`
  import os
  import blockether.vis.extension as vis
  from vis_lang_interface import prompt

  TOKEN = os.environ["GH_TOKEN"]
  URL = os.getenv('GH_URL', "https://api.github.com")
  # os.environ["COMMENTED"]


  def search(query: str) -> str:
      """Search the issues."""


  def helper():
      return 1


  class Tools:
      """Issue tools."""

      def close(self, number: int) -> bool:
          """Close an issue."""


  def guard(call):
      vis.log("/*log*/", "x")
      vis.notify("done", level='/*notify*/')
      print(/*print*/)
      x = /*assign*/
      return vis.block(reason/*block*/)


  vis.register_extension(vis./*Extension*/Extension(name="gh", description="GitHub.", alias="gh", /*kw*/
      symbols=[vis.Symbol(search, tag="/*tag*/", activity=vis.Activity("/*presenter*/")), vis.Symbol(search, /*symkw*/), /*symbols*/],
      op_hooks=[vis.OpHook(["/*ops*/"], guard, phase=/*phase*/)],  # vis.OpHook(/*comment*/
      settings=[vis.Setting(id="fast", label="Fast", default=True, type="/*settingType*/")],
      prompt=prompt.routing("Go", "go", verbs=["/*verbs*/"]),
      /*env*/en/*envKw*/v=["GH_TOKEN", /*envList*/],
  ))
`);

const G2 = fourslash(py`
  import blockether.vis.extension as vis


  def search(query: str) -> str:
      """Search."""


  vis.register(vis.Extension(name="gh", description="GitHub.", alias="gh", symbols=[vis.Symbol(search, tag="/*tag*/")]))
`);

const G1 = fourslash(py`
  import vis


  def bump(n):
      """Bump."""


  vis.extension(name="counter", /*kw*/description="C", alias="counter", symbols=[vis.symbol(bump, tag="/*tag*/")])
`);

const PLAIN = fourslash('import os\n\nos.getenv(/*c*/)\n');

describe('completion, signature help and SDK hovers (LSP)', () => {
  let server: TestServer;
  const files: Record<string, Fixture> = { g3: G3, g2: G2, g1: G1, plain: PLAIN };
  const uri = (f: string) => `file:///tmp/vis-completion/${f}.py`;

  before(async () => {
    server = await startServer({});
    await Promise.all(Object.entries(files).map(([name, f]) => server.open(uri(name), f.text)));
  });
  after(() => server.stop());

  type Item = { label: string; detail?: string; kind: number; textEdit?: { newText: string }; data?: unknown; documentation?: { value: string } };
  const complete = async (file: string, marker: string) =>
    ((await server.connection.sendRequest('textDocument/completion', { textDocument: { uri: uri(file) }, position: files[file].markers[marker] })) as { items: Item[] } | null)?.items ?? null;
  const labels = async (file: string, marker: string) => (await complete(file, marker))?.map((i) => i.label) ?? null;
  const at = (file: string, marker: string): Position => files[file].markers[marker];

  it('declares the trigger characters ( , = " \' and resolve', () => {
    assert.deepEqual(server.capabilities.completionProvider, { triggerCharacters: ['(', ',', '=', '"', "'"], resolveProvider: true });
  });

  it('offers the keywords a call has not been given, before or after the cursor, with their types', async () => {
    assert.deepEqual(
      (await complete('g3', 'kw'))!.map((i) => [i.label, i.detail]),
      [
        ['version=', 'str | None'],
        ['kind=', 'str | None'],
        ['activation=', 'Callable[..., Any] | None'],
        ['slash_commands=', 'Sequence[SlashCommand]'],
        ['ctx=', 'Callable[..., Any] | None'],
        ['providers=', 'Sequence[Provider]'],
        ['network_filters=', 'Sequence[NetworkFilter]'],
      ],
    );
    assert.deepEqual(await labels('g3', 'symkw'), ['name=', 'tag=', 'is_hidden=', 'activity=']);
    // In a function body, while a word is typed: vis.block's keywords (hint= only in SDK versions with settings).
    assert.deepEqual(await labels('g3', 'block'), ['reason=', 'hint=']);
    // G1: vis.extension's own parameters (it takes them positionally too).
    assert.deepEqual(await labels('g1', 'kw'), ['version=', 'kind=', 'activation=', 'prompt=', 'slash_commands=', 'op_hooks=', 'ctx=', 'providers=', 'network_filters=', 'env=']);
  });

  it('resolves an item with the API reference line', async () => {
    const tag = (await complete('g3', 'symkw'))!.find((i) => i.label === 'tag=')!;
    const resolved = (await server.connection.sendRequest('completionItem/resolve', tag)) as Item;
    assert.equal(resolved.documentation?.value, '`tag: SymbolTag = "observation"` — What the tool does: observation, mutation (and in newer SDKs verification, external).\n\n(blockether.vis.extension.Symbol)');
    const mutation = (await complete('g3', 'tag'))!.find((i) => i.label === 'verification')!;
    assert.equal(((await server.connection.sendRequest('completionItem/resolve', mutation)) as Item).documentation?.value, 'Checks work: tests, lint, CI status.\n\n_Available in G3 from extension.py @fb4b47f0 on._\n\n(blockether.vis.extension.Symbol)');
  });

  it('offers the closed vocabulary of the file\'s SDK version: tags (T4 in G3, T2 in G2 and G1)', async () => {
    assert.deepEqual(await labels('g3', 'tag'), ['observation', 'mutation', 'verification', 'external']);
    assert.deepEqual(await labels('g2', 'tag'), ['observation', 'mutation']);
    assert.deepEqual(await labels('g1', 'tag'), ['observation', 'mutation']);
    const edit = (await complete('g3', 'tag'))![1].textEdit as unknown as { newText: string; insert: unknown; replace: unknown };
    const p = at('g3', 'tag');
    assert.deepEqual(edit, { newText: 'mutation', insert: { start: p, end: p }, replace: { start: p, end: p } });
  });

  it('offers op names, phases, presenters, log and notify levels, routing verbs and Setting kinds', async () => {
    assert.deepEqual(await labels('g3', 'ops'), ['patch', 'shell', 'python_execution', 'draft/create', 'draft/approve', 'draft/discard', 'git/commit', 'fs_access', 'grep']);
    assert.deepEqual(await labels('g3', 'phase'), ['"before"', '"after"']);
    assert.deepEqual(await labels('g3', 'presenter'), ['generic', 'shell', 'tests', 'patch', 'observation', 'lint', 'repl', 'format', 'list']);
    assert.deepEqual(await labels('g3', 'log'), ['trace', 'debug', 'info', 'warn', 'error']);
    assert.deepEqual(await labels('g3', 'notify'), ['info', 'success', 'warn', 'error']);
    assert.deepEqual(await labels('g3', 'verbs'), ['format_code', 'lint_code', 'run_tests', 'build', 'repl_start', 'repl_status', 'repl_connect', 'repl_eval', 'repl_stop']);
    assert.deepEqual(await labels('g3', 'settingType'), ['boolean', 'enum']);
  });

  it('offers vis.Symbol entries for the module\'s documented functions and namespace objects in symbols=[...]', async () => {
    assert.deepEqual((await complete('g3', 'symbols'))!.map((i) => [i.label, i.detail, i.textEdit?.newText]), [['vis.Symbol(Tools())', 'namespace object', 'vis.Symbol(Tools(), name="${1:tools}")']]);
  });

  it('offers in env=[...] the variables the module reads from os.environ and has not listed', async () => {
    assert.deepEqual((await complete('g3', 'envList'))!.map((i) => [i.label, i.textEdit?.newText]), [['"GH_URL"', '"GH_URL"']]);
  });

  it('offers nothing outside SDK calls: plain calls, assignments, comments, other files', async () => {
    for (const m of ['print', 'assign', 'comment']) assert.equal(await complete('g3', m), null, m);
    assert.equal(await complete('plain', 'c'), null);
  });

  type Sig = { signatures: { label: string; parameters: { label: [number, number] }[]; documentation: { value: string } }[]; activeParameter: number } | null;
  const signature = (file: string, marker: string) => server.connection.sendRequest('textDocument/signatureHelp', { textDocument: { uri: uri(file) }, position: at(file, marker) }) as Promise<Sig>;

  it('shows the SDK signature with the active parameter, by position or keyword', async () => {
    const sym = (await signature('g3', 'symkw'))!;
    const label = 'Symbol(fn: Callable[..., Any] | object, name: str | None = None, tag: SymbolTag = "observation", is_hidden: bool = False, activity: Activity | None = None)';
    assert.equal(sym.signatures[0].label, label);
    assert.deepEqual(sym.signatures[0].parameters.map((p) => label.slice(...p.label)), ['fn: Callable[..., Any] | object', 'name: str | None = None', 'tag: SymbolTag = "observation"', 'is_hidden: bool = False', 'activity: Activity | None = None']);
    assert.equal(sym.activeParameter, 1);
    assert.equal((await signature('g3', 'tag'))!.activeParameter, 2);
    const hook = (await signature('g3', 'phase'))!;
    assert.deepEqual([hook.signatures[0].label, hook.activeParameter], ['OpHook(ops: Sequence[str], fn: Callable[..., Any], phase: Literal["before", "after"] = "before")', 2]);
    const log = (await signature('g3', 'log'))!;
    assert.deepEqual([log.signatures[0].label, log.activeParameter, log.signatures[0].documentation.value], ['log(level, msg)', 0, 'Writes one line to the engine log at a level (trace, debug, info, warn, error).']);
    assert.equal(await signature('g3', 'print'), null);
    assert.equal(await signature('plain', 'c'), null);
  });

  const hover = async (file: string, position: Position) =>
    ((await server.connection.sendRequest('textDocument/hover', { textDocument: { uri: uri(file) }, position })) as { contents: { value: string } } | null)?.contents.value ?? null;

  it('hovers SDK names, keywords and vocabulary values with the API reference, in the file\'s SDK version', async () => {
    const ext = (await hover('g3', at('g3', 'Extension')))!;
    assert.ok(ext.startsWith('```python\nExtension(*, name: str, description: str, version: str | None = None'), ext);
    assert.ok(ext.endsWith('```\n\nDeclares an extension: its name, tools, prompt, hooks, providers and the rest, by keyword only.\n\n_blockether.vis.extension · extension.py @f3ef1e26 (G3)_'), ext);
    assert.equal(await hover('g3', at('g3', 'env')), '```python\nenv: Sequence[str] = ()\n```\n\nNames of the environment variables resolved at registration. _(Extension, keyword only)_');
    assert.equal(await hover('g3', at('g3', 'envKw')), '```python\nenv: Sequence[str] = ()\n```\n\nNames of the environment variables resolved at registration. _(Extension, keyword only)_');
    const register = G3.text.split('\n').findIndex((l) => l.startsWith('vis.register_extension'));
    assert.equal(
      await hover('g3', { line: register, character: 8 }),
      '```python\nregister_extension(extension: Extension) -> None\n```\n\nRegisters the extension of this entry file, once, resolving its declared environment (G3).\n\n_blockether.vis.extension · extension.py @f3ef1e26 (G3)_',
    );
    const ops = (await hover('g3', { ...at('g3', 'ops'), character: at('g3', 'ops').character - 8 }))!;
    assert.ok(ops.startsWith('```python\nOpHook(ops: Sequence[str], fn: Callable[..., Any], phase: Literal["before", "after"] = "before")\n```\n\nDeclares a callback run around host operations'), ops);
    assert.equal(await hover('g1', { line: G1.markers.tag.line, character: 6 }), '```python\nextension(name=None, description=None, version=None, kind=None, alias=None, activation=None, symbols=None, prompt=None, slash_commands=None, op_hooks=None, ctx=None, providers=None, network_filters=None, env=None)\n```\n\nRegisters the extension of this file, once, resolving its declared environment at once.\n\n_vis · Vis 0.1.41 (G1)_');
    assert.equal(await hover('g3', { line: register, character: 1 }), '**blockether.vis.extension**\n\nThe typed Vis SDK: frozen declarations registered once with vis.register (G2) or vis.register_extension (G3).');
    assert.equal(await hover('g3', at('g3', 'print')), null);
    assert.equal(await hover('plain', at('plain', 'c')), null);
  });
});
