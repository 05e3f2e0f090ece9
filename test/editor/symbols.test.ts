// Document symbols (the Outline) and workspace symbols over the bundled server: the extension, its tools
// by public name with their tag, namespace members, slash commands, hooks, filters and providers (G1 and
// typed); Ctrl+T finds any tool of any extension in the folder by its public name. Only Vis items.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { py } from '../helpers/fixture';
import { fourslash, type Fixture } from '../helpers/fourslash';
import { startServer, type TestServer } from '../helpers/lsp';
import { project, type Project } from '../helpers/project';

const TYPED = fourslash(py`
  import blockether.vis.extension as vis


  def search(query: str) -> str:
      """Search the pages."""


  class Kit:
      """Tools."""

      {|pickDecl:@vis.method(tag="mutation")
      def {|pick:pick|}(self) -> str:
          """Pick one."""|}


  def greet(ctx):
      return "hi"


  def guard(call):
      return None


  vis.register_extension({|ext:vis.Extension(
      name={|name:"greeter"|},
      description="Greets.",
      alias="greet",
      symbols=[
          {|search:vis.Symbol({|searchArg:search|}, name="find", is_hidden=True)|},
          {|kit:vis.Symbol({|kitArg:Kit()|}, name="kit")|},
      ],
      slash_commands=[{|slash:vis.SlashCommand("hello", greet, usage="/hello NAME")|}],
      op_hooks=[{|hook:vis.OpHook({|ops:["patch", "shell"]|}, guard)|}],
      network_filters=[{|filter:vis.NetworkFilter({|filterFn:guard|})|}],
      providers=[{|provider:vis.Provider({|providerId:"gh-models"|}, "GitHub Models")|}],
      settings=[{|setting:vis.Setting(id={|settingId:"fast_mode"|}, label="Fast mode", default=False)|}],
  )|})
`);

const G1 = fourslash(py`
  import vis


  def bump(n):
      """Bump."""


  {|ext:vis.extension(
      name={|name:"counter"|},
      description="C",
      alias="counter",
      symbols=[{|bump:vis.symbol({|bumpArg:bump|}, tag="mutation")|}],
  )|}
`);

const OTHER = fourslash(py`
  import blockether.vis.extension as vis


  def {|hello:hello|}(name: str) -> str:
      """Say hello."""


  vis.register_extension(vis.Extension(name="other", description="O", alias="o", symbols=[vis.Symbol(hello, name="say_hello")]))
`);

describe('document and workspace symbols (LSP)', () => {
  let server: TestServer;
  let p: Project;
  const files: Record<string, Fixture> = { '.vis/extensions/greeter.py': TYPED, '.vis/extensions/counter.py': G1, '.vis/extensions/other.py': OTHER };

  before(async () => {
    p = project(Object.fromEntries(Object.entries(files).map(([k, f]) => [k, f.text])));
    server = await startServer({}, { rootUri: p.uri('') });
    await Promise.all(Object.entries(files).slice(0, 2).map(([rel, f]) => server.open(p.uri(rel), f.text)));
  });
  after(async () => {
    await server.stop();
    p.remove();
  });

  type Sym = { name: string; detail: string; kind: number; range: unknown; selectionRange: unknown; children: Sym[] };
  const outline = async (rel: string) => (await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: p.uri(rel) } })) as Sym[] | null;

  it('names every symbol: an extension with a blank name (EXT-003) is "(extension)"', async () => {
    const uri = p.uri('.vis/extensions/blank.py');
    const published = server.diagnostics(uri);
    server.open(uri, 'import blockether.vis.extension as vis\n\nvis.register_extension(vis.Extension(name="", description="d"))\n');
    await published;
    const syms = (await outline('.vis/extensions/blank.py'))!;
    assert.deepEqual(syms.map((s) => s.name), ['(extension)']);
  });

  it('outlines a G3 extension: tools by public name and tag, the namespace and its members, slash commands, hooks, filters, providers, settings', async () => {
    const r = TYPED.named;
    assert.deepEqual(await outline('.vis/extensions/greeter.py'), [
      {
        name: 'greeter', detail: 'G3 · alias greet', kind: 2, range: r.ext, selectionRange: r.name,
        children: [
          { name: 'find', detail: 'observation · hidden', kind: 12, range: r.search, selectionRange: r.searchArg, children: [] },
          { name: 'kit', detail: '1 tool', kind: 3, range: r.kit, selectionRange: r.kitArg, children: [{ name: 'kit.pick', detail: 'mutation', kind: 6, range: r.pickDecl, selectionRange: r.pick, children: [] }] },
          { name: '/hello', detail: '/hello NAME', kind: 24, range: r.slash, selectionRange: r.slash, children: [] },
          { name: 'before patch, shell', detail: 'guard', kind: 24, range: r.hook, selectionRange: r.ops, children: [] },
          { name: 'network filter', detail: 'guard', kind: 24, range: r.filter, selectionRange: r.filterFn, children: [] },
          { name: 'gh-models', detail: 'GitHub Models', kind: 11, range: r.provider, selectionRange: r.providerId, children: [] },
          { name: 'fast_mode', detail: 'Fast mode', kind: 7, range: r.setting, selectionRange: r.settingId, children: [] },
        ],
      },
    ]);
  });

  it('outlines a G1 extension with its tools by sandbox name', async () => {
    const r = G1.named;
    assert.deepEqual(await outline('.vis/extensions/counter.py'), [
      { name: 'counter', detail: 'G1 · alias counter', kind: 2, range: r.ext, selectionRange: r.name, children: [{ name: 'counter_bump', detail: 'mutation', kind: 12, range: r.bump, selectionRange: r.bumpArg, children: [] }] },
    ]);
  });

  it('finds any tool of any extension in the folder by its public name (Ctrl+T), and nothing else', async () => {
    const find = (query: string) => server.connection.sendRequest('workspace/symbol', { query }) as Promise<{ name: string; kind: number; location: { uri: string; range: unknown }; containerName: string }[]>;
    assert.deepEqual(await find('sayhel'), [{ name: 'say_hello', kind: 12, location: { uri: p.uri('.vis/extensions/other.py'), range: OTHER.named.hello }, containerName: 'Vis tool · other · observation' }]);
    assert.deepEqual((await find('')).map((s) => s.name).sort(), ['counter_bump', 'find', 'kit.pick', 'say_hello']);
    assert.deepEqual((await find('kit.p')).map((s) => [s.name, s.kind, s.containerName]), [['kit.pick', 6, 'Vis tool · greeter · mutation']]);
    assert.deepEqual(await find('guard'), []);
  });

  it('has no symbols for a Python file that does not use the Vis SDK', async () => {
    const uri = p.uri('plain.py');
    server.open(uri, 'def search():\n    pass\n');
    assert.equal(await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } }), null);
  });
});
