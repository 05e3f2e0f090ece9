// Inlay hints over the bundled server: off by default; with visAuthoring.inlayHints.enable, after the
// function of each vis.Symbol( (G1 vis.symbol() the public name when it differs and the tag.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { py } from '../helpers/fixture';
import { fourslash } from '../helpers/fourslash';
import { startServer, type TestServer } from '../helpers/lsp';

const TYPED = fourslash(py`
  import blockether.vis.extension as vis


  def search(query: str) -> str:
      """Search."""


  def save(text: str) -> bool:
      """Save."""


  class Kit:
      """Tools."""

      def pick(self) -> str:
          """Pick."""


  vis.register_extension(vis.Extension(name="t", description="T", alias="t", symbols=[
      vis.Symbol(search/*search*/),
      vis.Symbol(save/*save*/, name="store", tag="mutation"),
      vis.Symbol(Kit(), name="kit"),
  ]))
`);

const G1 = fourslash(py`
  import vis


  def counter_bump(n):
      """Bump."""


  def show():
      """Show."""


  vis.extension(name="counter", description="C", alias="counter", symbols=[vis.symbol(counter_bump/*bump*/, tag="mutation"), vis.symbol(show/*show*/)])
`);

describe('inlay hints (LSP)', () => {
  let server: TestServer;
  const typed = 'file:///tmp/vis-inlay/typed.py';
  const g1 = 'file:///tmp/vis-inlay/counter.py';
  const all = { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } };
  const hints = async (uri: string) =>
    ((await server.connection.sendRequest('textDocument/inlayHint', { textDocument: { uri }, range: all })) as { position: unknown; label: string }[]).map((h) => [h.position, h.label]);

  before(async () => {
    server = await startServer({});
    await Promise.all([server.open(typed, TYPED.text), server.open(g1, G1.text)]);
  });
  after(() => server.stop());

  it('shows none unless visAuthoring.inlayHints.enable is on', async () => {
    assert.deepEqual(await hints(typed), []);
  });

  it('shows the public name where it differs, and the tag', async () => {
    await server.configure({ inlayHints: { enable: true } });
    assert.deepEqual(await hints(typed), [
      [TYPED.markers.search, '→ observation'],
      [TYPED.markers.save, '→ store · mutation'],
    ]);
    assert.deepEqual(await hints(g1), [
      [G1.markers.bump, '→ mutation'],
      [G1.markers.show, '→ counter_show · observation'],
    ]);
  });
});
