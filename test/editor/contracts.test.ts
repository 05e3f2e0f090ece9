// G1 tools' contracts in the host's terms and the compact contract card, over the bundled server
// (`node dist/server.js --stdio`): hover and visAuthoring/symbolContract at cursor markers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SymbolContractRequest, type SymbolContractResult } from '../../shared/protocol';
import { py } from '../helpers/fixture';
import { fourslash, type Position } from '../helpers/fourslash';
import { startServer, type TestServer } from '../helpers/lsp';
import { project, type Project } from '../helpers/project';

const G1 = fourslash(py`
  import vis
  from tools import ping


  def /*def*/counter_bump(n, step=1, *rest, by: int = 1):
      """Add n to the counter.

      Returns the new value."""


  def show(ctx):
      """Show the count."""


  def undocumented():
      pass


  vis.extension(
      name="counter",
      description="A durable counter.",
      alias="counter",
      symbols=[
          vis./*symbol*/symbol(/*fn*/counter_bump, tag="mutation"),
          vis.symbol(show, "peek", is_hidden=True),
          vis.symbol(/*ping*/ping),
          vis.symbol(/*undocumented*/undocumented),
      ],
  )
`);

const TOOLS = py`
  def ping(host, /):
      """Ping a host."""
`;

const TYPED = fourslash(py`
  import blockether.vis.extension as vis


  def search(query: str, *, limit: int = 10) -> list[str]:
      """Search the pages.

      Titles only."""


  class Kit:
      """Tools."""

      def pick(self, name: str) -> str:
          """Pick one."""

      def drop(self, name: str) -> bool:
          """Drop one."""


  vis.register_extension(vis.Extension(name="t", description="T", alias="t", symbols=[
      vis./*search*/Symbol(search),
      vis./*kit*/Symbol(Kit(), name="kit"),
  ]))
`);

describe('G1 contracts and the compact contract card (LSP)', () => {
  let server: TestServer;
  let p: Project;
  let g1Uri: string;
  let typedUri: string;

  before(async () => {
    p = project({ '.vis/extensions/counter.py': G1.text, '.vis/extensions/tools.py': TOOLS, '.vis/extensions/typed.py': TYPED.text });
    server = await startServer({}, { rootUri: p.uri('') });
    g1Uri = p.uri('.vis/extensions/counter.py');
    typedUri = p.uri('.vis/extensions/typed.py');
    await Promise.all([server.open(g1Uri, G1.text), server.open(typedUri, TYPED.text)]);
  });
  after(async () => {
    await server.stop();
    p.remove();
  });

  const hover = async (uri: string, position: Position) =>
    ((await server.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position })) as { contents: { value: string } } | null)?.contents.value ?? null;
  const contract = (uri: string, position: Position) => server.connection.sendRequest(SymbolContractRequest, { uri, position }) as Promise<SymbolContractResult>;

  const BUMP = {
    generation: 'G1',
    symbol: 'bump',
    sandbox_name: 'counter_bump',
    alias: 'counter',
    arglists: [['n', 'step', '&', 'args']],
    tag: 'mutation',
    hidden: false,
    doc: 'Add n to the counter.\n\nReturns the new value.',
  };

  it('gives a G1 tool its registry symbol, sandbox name, arglists, tag and hidden flag, on the call, its argument and the def', async () => {
    for (const m of ['symbol', 'fn', 'def']) assert.deepEqual(await contract(g1Uri, G1.markers[m]), { contract: BUMP, doc: BUMP.doc, unknowns: [] }, m);
    const peek = await contract(g1Uri, { line: G1.markers.symbol.line + 1, character: 12 });
    assert.deepEqual(peek?.contract, { generation: 'G1', symbol: 'peek', sandbox_name: 'counter_peek', alias: 'counter', arglists: [['ctx']], tag: 'observation', hidden: true, doc: 'Show the count.' });
  });

  it('reads a G1 function from a sibling module', async () => {
    assert.deepEqual((await contract(g1Uri, G1.markers.ping))?.contract, { generation: 'G1', symbol: 'ping', sandbox_name: 'counter_ping', alias: 'counter', arglists: [['host']], tag: 'observation', hidden: false, doc: 'Ping a host.' });
  });

  it('shows the compact G1 card: name, call, description and registry in four lines, the JSON and doc(name) folded', async () => {
    assert.equal(
      await hover(g1Uri, G1.markers.symbol),
      [
        '**`counter_bump`** · Vis tool (G1) · tag `mutation`',
        '```python\ncounter_bump(n, step, *args)\n```',
        'Add n to the counter.',
        'Registry symbol `bump` · alias `counter` · arglists `[n step & args]`',
        `<details><summary>Host registration (JSON)</summary>\n\n\`\`\`json\n${JSON.stringify(BUMP, null, 2)}\n\`\`\`\n\n</details>`,
        '<details><summary>doc(counter_bump)</summary>\n\n```text\nAdd n to the counter.\n\nReturns the new value.\n```\n\n</details>',
      ].join('\n\n'),
    );
  });

  it('says why a G1 tool has no contract', async () => {
    assert.equal(await hover(g1Uri, G1.markers.undocumented), '**Vis tool (G1)** · no contract: it has no docstring, so vis.symbol refuses it.');
    assert.equal(await contract(g1Uri, G1.markers.undocumented), null);
  });

  it('shows the compact typed card: at most six lines before the folded tables, JSON and doc(name)', async () => {
    const md = (await hover(typedUri, TYPED.markers.search))!;
    const head = md.slice(0, md.indexOf('<details>'));
    assert.equal(head, "**`search`** · Vis tool · tag `observation`\n\n```python\nsearch(query: str, *, limit: int = 10) -> list[str]\n```\n\nSearch the pages.\n\n");
    assert.deepEqual([...md.matchAll(/<summary>([^<]*)<\/summary>/g)].map((m) => m[1]), ['Parameters and returns', 'Contract JSON (C3)', 'doc(search)']);
    assert.ok(md.includes('| `limit` | `int` | keyword_only | `10` |  |'), md);
    const kit = (await hover(typedUri, TYPED.markers.kit))!;
    assert.equal(kit.slice(0, kit.indexOf('<details>')), "**`kit`** · Vis namespace · 2 members\n\n- `kit.pick(name: str) -> str` · observation\n- `kit.drop(name: str) -> bool` · observation\n\n");
    assert.deepEqual([...kit.matchAll(/<summary>([^<]*)<\/summary>/g)].map((m) => m[1]), ['Members', 'Contract JSON (C3)', 'doc(kit.pick)', 'doc(kit.drop)']);
  });

  it('shows the full card with visAuthoring.hover.contract full, and no card with off (the request still answers)', async () => {
    await server.configure({ hover: { contract: 'full' } });
    const full = (await hover(typedUri, TYPED.markers.search))!;
    assert.ok(full.startsWith("**`search`** · Vis tool · tag `observation`\n\n```python\nsearch(query: str, *, limit: int = 10) -> list[str]\n```\n\nSearch the pages.\n\nTitles only.\n\n| Parameter |"), full);
    assert.deepEqual([...full.matchAll(/<summary>([^<]*)<\/summary>/g)].map((m) => m[1]), ['Contract JSON (C3)', 'doc(search)']);
    await server.configure({ hover: { contract: 'off' } });
    // No contract card; the SDK's own sentence for the name is what is left.
    assert.ok((await hover(typedUri, TYPED.markers.search))!.startsWith('```python\nSymbol(fn: Callable[..., Any] | object'));
    assert.ok((await hover(g1Uri, G1.markers.symbol))!.startsWith('```python\nsymbol(fn, name=None, tag="observation", is_hidden=False) -> dict\n```'));
    assert.equal((await contract(typedUri, TYPED.markers.search))?.doc.split('\n')[0], 'Search the pages.');
    await server.configure({});
  });
});
