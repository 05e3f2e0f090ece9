// Beside a Python language server (pyright, from the npm registry, over stdio as VS Code runs it), on the
// same file: at Vis positions our completion, hover and symbols add only Vis items and none of pyright's;
// at plain Python positions we answer nothing where pyright answers.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { py } from '../helpers/fixture';
import { fourslash, type Position } from '../helpers/fourslash';
import { startServer, type TestServer } from '../helpers/lsp';
import { project, type Project } from '../helpers/project';

const SOURCE = fourslash(py`
  import os
  import blockether.vis.extension as vis

  TOKEN = os.environ["GH_TOKEN"]


  def search(query: str) -> str:
      """Search the issues."""
      return qu/*body*/ery


  class Tools:
      """Issue tools."""

      def close(self, number: int) -> bool:
          """Close an issue."""
          return True


  def list_issues() -> list[str]:
      """List the open issues."""
      return []


  def guard(call):
      vis.log("/*log*/", "x")
      return pri/*print*/nt(call)


  vis.register_extension(vis.Ext/*hoverExt*/ension(name="gh", description="GitHub.", alias="gh", /*kw*/
      symbols=[vis.Symbol(search, tag="/*tag*/"), vis.Symbol(Tools(), name="tools"), /*symbols*/],
      op_hooks=[vis.OpHook(["patch", "/*ops*/"], gua/*hoverGuard*/rd)],
      env=["/*env*/"],
  ))
`);

type Item = { label: string };
type DocSymbol = { name: string; range: unknown; children?: DocSymbol[] };

describe('beside a Python language server (pyright)', () => {
  let ours: TestServer;
  let pyright: TestServer;
  let p: Project;
  let uri: string;

  before(async () => {
    p = project({ 'ext/gh.py': SOURCE.text });
    uri = p.uri('ext/gh.py');
    const langserver = path.join(require.resolve('pyright/package.json'), '..', 'langserver.index.js');
    [ours, pyright] = await Promise.all([startServer({}, { rootUri: p.uri('') }), startServer({}, { rootUri: p.uri(''), server: [langserver, '--stdio'] })]);
    void pyright.open(uri, SOURCE.text);
    await ours.open(uri, SOURCE.text);
  });
  after(async () => {
    await Promise.all([ours.stop(), pyright.stop()]);
    p.remove();
  });

  const items = async (s: TestServer, position: Position): Promise<string[]> => {
    const r = (await s.connection.sendRequest('textDocument/completion', { textDocument: { uri }, position })) as { items: Item[] } | Item[] | null;
    return (Array.isArray(r) ? r : (r?.items ?? [])).map((i) => i.label);
  };
  const hover = async (s: TestServer, position: Position) =>
    ((await s.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position })) as { contents: { value: string } } | null)?.contents.value ?? null;

  it('completes only Vis items at Vis positions, none of pyright\'s, and nothing where pyright completes Python', async () => {
    const vis = { kw: ['version=', 'kind=', 'activation=', 'prompt=', 'slash_commands=', 'ctx=', 'providers=', 'network_filters=', 'settings='], tag: ['observation', 'mutation', 'verification', 'external'], symbols: ['vis.Symbol(list_issues)'] };
    for (const [marker, expected] of Object.entries(vis)) {
      const [mine, theirs] = await Promise.all([items(ours, SOURCE.markers[marker]), items(pyright, SOURCE.markers[marker])]);
      assert.deepEqual(mine, expected, marker);
      assert.deepEqual(mine.filter((l) => theirs.includes(l)), [], `${marker}: pyright offers ${theirs.slice(0, 20).join(' ')}`);
    }
    for (const marker of ['body', 'print']) {
      const [mine, theirs] = await Promise.all([items(ours, SOURCE.markers[marker]), items(pyright, SOURCE.markers[marker])]);
      assert.deepEqual(mine, [], marker);
      assert.ok(theirs.length > 0, `pyright completes at ${marker}`);
    }
  });

  it('hovers SDK names with the SDK reference and stays silent on the module\'s own Python names', async () => {
    const [mine, theirs] = await Promise.all([hover(ours, SOURCE.markers.hoverExt), hover(pyright, SOURCE.markers.hoverExt)]);
    assert.ok(mine?.includes('Declares an extension: its name, tools, prompt, hooks, providers and the rest, by keyword only.'), mine ?? 'no hover');
    assert.notEqual(mine, theirs);
    assert.equal(await hover(ours, SOURCE.markers.hoverGuard), null);
    assert.ok(await hover(pyright, SOURCE.markers.hoverGuard), 'pyright hovers guard');
  });

  it('goes to the same place as pyright where both know the target (VS Code shows a location given twice once)', async () => {
    type Loc = { uri?: string; range?: unknown; targetUri?: string; targetSelectionRange?: unknown };
    const where = (l: Loc) => ({ uri: l.targetUri ?? l.uri, range: l.targetSelectionRange ?? l.range });
    const [mine, theirs] = await Promise.all([ours, pyright].map(async (s) => ((await s.connection.sendRequest('textDocument/definition', { textDocument: { uri }, position: SOURCE.markers.hoverGuard })) as Loc[]).map(where)));
    assert.equal(mine.length, 1);
    assert.deepEqual(theirs, mine);
  });

  it('lists only Vis declarations in the Outline and Ctrl+T, none at the name and place pyright lists', async () => {
    const flat = (xs: DocSymbol[] | null): DocSymbol[] => (xs ?? []).flatMap((x) => [x, ...flat(x.children ?? null)]);
    const [mine, theirs] = await Promise.all([ours, pyright].map(async (s) => flat((await s.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })) as DocSymbol[])));
    assert.deepEqual(mine.map((x) => x.name), ['gh', 'search', 'tools', 'tools.close', 'before patch, ""']);
    assert.deepEqual(mine.filter((m) => theirs.some((t) => t.name === m.name && JSON.stringify(t.range) === JSON.stringify(m.range))), []);
    type WsSymbol = { name: string; location: { uri: string; range: unknown } };
    const find = (s: TestServer, query: string) => s.connection.sendRequest('workspace/symbol', { query }) as Promise<WsSymbol[] | null>;
    const [ourSearch, theirSearch] = await Promise.all([find(ours, 'search'), find(pyright, 'search')]);
    assert.deepEqual(ourSearch!.map((s) => s.name), ['search']);
    assert.ok(theirSearch?.some((s) => s.name === 'search'), 'pyright finds the def');
    const same = (a: WsSymbol, b: WsSymbol) => a.name === b.name && a.location.uri === b.location.uri && JSON.stringify(a.location.range) === JSON.stringify(b.location.range);
    assert.deepEqual(ourSearch!.filter((o) => theirSearch!.some((t) => same(o, t))), []);
  });
});
