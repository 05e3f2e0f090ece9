// Namespace objects (vis-sdk.md §2.4–§2.5): member order along the MRO, vis.method metadata, hidden
// members, nested capability objects, static and class methods, nested classes as tools.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { initParser } from '../../server/src/parse/parser';
import { symbols, HEADER, G3_FOOTER } from './helpers';

before(async () => {
  await initParser();
});

const NS = `class Base:
    def read(self, key: str) -> str:
        """Read a key."""

    def list(self) -> list[str]:
        """List keys."""

class Items:
    @vis.method(tag="mutation", is_hidden=True)
    def put(self, *, value: str) -> bool:
        """Store a value."""

class Store(Base):
    @vis.method(tag="external")
    def sync(self) -> None:
        """Sync with the remote."""

    def read(self, key: str) -> str:
        # Overrides Base.read: same position, docstring inherited by inspect.getdoc.
        return key

    @staticmethod
    def version() -> str:
        """The store version."""

    @classmethod
    def create(cls, name: str) -> "Store":
        """Make a store."""

    class Entry:
        """An entry."""
        def __init__(self, key: str, value: int = 0):
            self.key = key

    def __init__(self):
        self.items = Items()
        self._cache = {}

s = vis.Symbol(Store(), name="store", tag="mutation")
`;

describe('namespace contracts', () => {
  let info: ReturnType<typeof symbols>[number];
  before(() => {
    info = symbols(HEADER + NS + G3_FOOTER)[0];
  });

  it('orders members along reversed MRO, then the instance attributes', () => {
    assert.deepEqual(
      info.tools.map((t) => t.name),
      ['store.read', 'store.list', 'store.sync', 'store.version', 'store.create', 'store.Entry', 'store.items.put'],
    );
  });

  it('takes tag and is_hidden from vis.method, else from the Symbol; hidden members stay in the contract', () => {
    assert.deepEqual(
      info.tools.map((t) => [t.name, t.tag, t.hidden]),
      [
        ['store.read', 'mutation', false],
        ['store.list', 'mutation', false],
        ['store.sync', 'external', false],
        ['store.version', 'mutation', false],
        ['store.create', 'mutation', false],
        ['store.Entry', 'mutation', false],
        ['store.items.put', 'mutation', true],
      ],
    );
    const contract = info.contract as { members: { name: string }[] };
    assert.equal(contract.members.length, 7);
  });

  it('drops self and cls, keeps static signatures, and builds constructors for nested classes', () => {
    assert.deepEqual(
      info.tools.map((t) => t.contract.signature),
      ['(key: str) -> str', '() -> list[str]', '() -> None', '() -> str', "(name: str) -> 'Store'", '(key: str, value: int = 0)', '(*, value: str) -> bool'],
    );
  });

  it('inherits a missing method docstring from the base method, as inspect.getdoc does', () => {
    assert.equal(info.tools[0].contract.description, 'Read a key.');
  });

  it('reports only the nested-class warning for this namespace', () => {
    assert.deepEqual(info.issues.filter((i) => i.rule !== 'SYM-008').map((i) => i.rule), ['SYM-018']);
  });

  it('resolves a namespace instance bound to a module-level name', () => {
    const i = symbols(HEADER + 'class T:\n    def ping(self) -> bool:\n        """Ping."""\n\ntools = T()\ns = vis.Symbol(tools, name="tools")\n' + G3_FOOTER)[0];
    assert.equal(JSON.stringify(i.contract), '{"version":1,"name":"tools","members":[{"version":1,"name":"tools.ping","tag":"observation","description":"Ping.","signature":"() -> bool","parameters":[],"returns":{"kind":"scalar","name":"bool"}}]}');
  });

  it('exports a bound method through the function form without self', () => {
    const i = symbols(HEADER + 'class T:\n    def ping(self, n: int) -> bool:\n        """Ping."""\n\ntools = T()\ns = vis.Symbol(tools.ping)\n' + G3_FOOTER)[0];
    assert.equal((i.contract as { signature: string }).signature, '(n: int) -> bool');
    assert.equal(i.name, 'ping');
  });
});
