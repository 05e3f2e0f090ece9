// The contract comparison behind "Vis: Compare Contracts with HEAD" and `contracts --diff`: each kind of
// change between two versions of an extension file, with the exact change JSON (key order included),
// and which ones are breaking.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { compareContracts, contractSet, diffText, isSubtype, type ContractDiff } from '../../server/src/contracts/diff';
import type { ContractFormat, TypeSpec } from '../../server/src/contracts';
import { initParser } from '../../server/src/parse/parser';
import { G3_FOOTER, HEADER, symbols } from './helpers';

before(async () => {
  await initParser();
});

const PRELUDE = 'from dataclasses import dataclass\nfrom typing import Literal\n\n';

function diff(before: string, after: string, format: ContractFormat = 'C3'): ContractDiff {
  const set = (body: string) => contractSet(symbols(HEADER + PRELUDE + body + G3_FOOTER, format));
  return compareContracts(set(before), set(after));
}

/** A one-tool file: `def <sig>:` with a docstring, exported with `symbol` arguments. */
const tool = (sig: string, doc = 'Search.', symbol = 'search') => `def ${sig}:\n    """${doc}"""\n\ns = vis.Symbol(${symbol})\n`;

const changes = (d: ContractDiff) => JSON.stringify(d.changes);

describe('contract comparison: tools', () => {
  it('reports an added tool, not breaking', () => {
    const d = diff('', tool('search(q: str) -> str'));
    assert.equal(changes(d), '[{"tool":"search","kind":"tool-added","breaking":false,"message":"tool added: search(q: str) -> str","after":"search(q: str) -> str"}]');
    assert.deepEqual([d.added, d.removed, d.changed, d.breaking], [1, 0, 0, 0]);
  });

  it('reports a removed tool, breaking', () => {
    const d = diff(tool('search(q: str) -> str'), '');
    assert.equal(changes(d), '[{"tool":"search","kind":"tool-removed","breaking":true,"message":"tool removed (was search(q: str) -> str)","before":"search(q: str) -> str"}]');
    assert.equal(d.breaking, 1);
  });

  it('reports a renamed tool (same def, new name=), breaking', () => {
    const d = diff(tool('search(q: str) -> str', 'Search.', 'search, name="find"'), tool('search(q: str) -> str', 'Search.', 'search, name="lookup"'));
    assert.equal(changes(d), '[{"tool":"lookup","kind":"tool-renamed","breaking":true,"message":"tool renamed from find: calls to find fail","before":"find","after":"lookup"}]');
  });

  it('reports a renamed def with the same contract as a rename', () => {
    const d = diff(tool('search(q: str) -> str'), tool('find(q: str) -> str', 'Search.', 'find'));
    assert.deepEqual(d.changes.map((c) => [c.kind, c.tool, c.before]), [['tool-renamed', 'find', 'search']]);
  });

  it('reports tag, hidden and description changes, none breaking', () => {
    const d = diff(tool('search(q: str) -> str', 'Search.', 'search'), tool('search(q: str) -> str', 'Search the index.\n\nMore text.', 'search, tag="mutation", is_hidden=True'));
    assert.equal(
      changes(d),
      '[{"tool":"search","kind":"tag","breaking":false,"message":"tag observation → mutation","before":"observation","after":"mutation"},' +
        '{"tool":"search","kind":"hidden","breaking":false,"message":"now hidden: the model no longer finds it with apropos","before":"false","after":"true"},' +
        '{"tool":"search","kind":"description","breaking":false,"message":"description changed: Search. → Search the index.","before":"Search.","after":"Search the index.\\n\\nMore text."}]',
    );
    assert.equal(d.breaking, 0);
  });

  it('names the first line of a description that changed', () => {
    const d = diff(tool('search(q: str) -> str', 'Search.'), tool('search(q: str) -> str', 'Search.\n\n    Retries once.\n    '));
    assert.equal(d.changes[0].message, 'description changed: lines added: Retries once.');
    const e = diff(tool('search(q: str) -> str', 'Search.\n\n    Fast.\n    '), tool('search(q: str) -> str', 'Search.\n\n    Slow.\n    '));
    assert.equal(e.changes[0].message, 'description changed at line 3: Fast. → Slow.');
  });

  it('says nothing changed when the contracts are the same', () => {
    const d = diff(tool('search(q: str) -> str'), tool('search(q: str) -> str'));
    assert.deepEqual(d.changes, []);
    assert.equal(diffText(d, 'HEAD (1a2b3c4)'), 'No contract changes since HEAD (1a2b3c4): the model sees the same tools.\n');
  });

  it('lists a tool whose contract is not statically known as not compared', () => {
    const d = diff('', 's = vis.Symbol(make_tool())\n');
    assert.equal(
      changes(d),
      '[{"tool":"make_tool()","kind":"not-compared","breaking":false,"message":"not compared: its contract is not statically known now (its first argument is a call result (`make_tool()`): Vis exports whatever the call returns when the module runs)"}]',
    );
  });
});

describe('contract comparison: parameters', () => {
  it('marks a new required parameter breaking and a new optional one not', () => {
    const d = diff(tool('search(q: str)'), tool('search(q: str, page: int, size: int = 10)'));
    assert.equal(
      changes(d),
      '[{"tool":"search","kind":"parameter-added","breaking":true,"message":"parameter page: int added (required): calls without it fail","after":"page: int"},' +
        '{"tool":"search","kind":"parameter-added","breaking":false,"message":"parameter size: int = 10 added (optional)","after":"size: int = 10"}]',
    );
  });

  it('marks a removed parameter breaking', () => {
    const d = diff(tool('search(q: str, limit: int = 10)'), tool('search(q: str)'));
    assert.equal(changes(d), '[{"tool":"search","kind":"parameter-removed","breaking":true,"message":"parameter limit removed (was limit: int = 10): calls that pass it fail","before":"limit: int = 10"}]');
  });

  it('marks optional → required breaking and required → optional not', () => {
    assert.equal(
      changes(diff(tool('search(q: str = "")'), tool('search(q: str)'))),
      '[{"tool":"search","kind":"parameter-required","breaking":true,"message":"parameter q is now required: calls without it fail","before":"optional","after":"required"}]',
    );
    assert.equal(
      changes(diff(tool('search(q: str)'), tool('search(q: str = "")'))),
      '[{"tool":"search","kind":"parameter-optional","breaking":false,"message":"parameter q is now optional (default \'\')","before":"required","after":"optional"}]',
    );
  });

  it('reports a new default, not breaking', () => {
    assert.equal(
      changes(diff(tool('search(limit: int = 10)'), tool('search(limit: int = 20)'))),
      '[{"tool":"search","kind":"parameter-default","breaking":false,"message":"parameter limit: default 10 → default 20","before":"default 10","after":"default 20"}]',
    );
  });

  it('marks a narrowed parameter type breaking and a widened one not', () => {
    assert.equal(
      changes(diff(tool('search(q: str | None)'), tool('search(q: str)'))),
      '[{"tool":"search","kind":"parameter-retyped","breaking":true,"message":"parameter q: str | None → str (narrowed): values it accepted may be refused","before":"str | None","after":"str"}]',
    );
    assert.equal(
      changes(diff(tool('search(n: int)'), tool('search(n: float)'))),
      '[{"tool":"search","kind":"parameter-retyped","breaking":false,"message":"parameter n: int → float (widened)","before":"int","after":"float"}]',
    );
    assert.equal(
      changes(diff(tool('search(mode: Literal["a", "b"])'), tool('search(mode: Literal["a"])'))),
      '[{"tool":"search","kind":"parameter-retyped","breaking":true,"message":"parameter mode: Literal[\'a\', \'b\'] → Literal[\'a\'] (narrowed): values it accepted may be refused","before":"Literal[\'a\', \'b\']","after":"Literal[\'a\']"}]',
    );
  });

  it('marks a kind change that refuses positional calls breaking, and one that allows more not', () => {
    assert.equal(
      changes(diff(tool('search(q: str)'), tool('search(*, q: str)'))),
      '[{"tool":"search","kind":"parameter-kind","breaking":true,"message":"parameter q: positional_or_keyword → keyword_only: it can no longer be passed by position","before":"positional_or_keyword","after":"keyword_only"}]',
    );
    assert.equal(
      changes(diff(tool('search(*, q: str)'), tool('search(q: str)'))),
      '[{"tool":"search","kind":"parameter-kind","breaking":false,"message":"parameter q: keyword_only → positional_or_keyword","before":"keyword_only","after":"positional_or_keyword"}]',
    );
  });

  it('marks a moved positional parameter breaking', () => {
    assert.equal(
      changes(diff(tool('search(q: str, n: int)'), tool('search(n: int, q: str)'))),
      '[{"tool":"search","kind":"parameter-moved","breaking":true,"message":"parameter n moved from position 2 to 1: positional calls pass it another value","before":"2","after":"1"},' +
        '{"tool":"search","kind":"parameter-moved","breaking":true,"message":"parameter q moved from position 1 to 2: positional calls pass it another value","before":"1","after":"2"}]',
    );
  });
});

describe('contract comparison: returns and records', () => {
  const PAGE = (fields: string) => `@dataclass\nclass Page:\n    """A page."""\n${fields}\n\n`;

  it('marks a widened return breaking and a narrowed one not', () => {
    assert.equal(
      changes(diff(tool('search() -> str'), tool('search() -> str | None'))),
      '[{"tool":"search","kind":"returns-retyped","breaking":true,"message":"returns: str → str | None (widened): the model may get values it did not before","before":"str","after":"str | None"}]',
    );
    assert.equal(
      changes(diff(tool('search() -> str | None'), tool('search() -> str'))),
      '[{"tool":"search","kind":"returns-retyped","breaking":false,"message":"returns: str | None → str (narrowed)","before":"str | None","after":"str"}]',
    );
  });

  it('compares a returned record field by field, inside a container too', () => {
    const d = diff(PAGE('    title: str\n    score: float') + tool('search() -> list[Page]'), PAGE('    title: str | None\n    rank: int = 0') + tool('search() -> list[Page]'));
    assert.equal(
      changes(d),
      '[{"tool":"search","kind":"field-removed","breaking":true,"message":"field Page.score (returns) removed","before":"score: float"},' +
        '{"tool":"search","kind":"field-retyped","breaking":true,"message":"field Page.title (returns): str → str | None (widened): the model may get values it did not before","before":"str","after":"str | None"},' +
        '{"tool":"search","kind":"field-added","breaking":false,"message":"field Page.rank (returns) added","after":"rank: int"}]',
    );
  });

  it('marks a required field added to a record the model passes in breaking', () => {
    const d = diff(PAGE('    title: str') + tool('search(page: Page)'), PAGE('    title: str\n    lang: str\n    tags: list[str] = None') + tool('search(page: Page)'));
    assert.equal(
      changes(d),
      '[{"tool":"search","kind":"field-added","breaking":true,"message":"field Page.lang (parameter page) added (required): records passed without it fail","after":"lang: str"},' +
        '{"tool":"search","kind":"field-added","breaking":false,"message":"field Page.tags (parameter page) added","after":"tags: list[str]"}]',
    );
  });

  it('renders the comparison as text, grouped by tool, breaking changes marked', () => {
    const d = diff(tool('search(q: str)') + tool('gone()', 'Gone.', 'gone'), tool('search(q: str, page: int)') + tool('fresh()', 'Fresh.', 'fresh'));
    assert.equal(
      diffText(d, 'HEAD (1a2b3c4)'),
      [
        'Contract changes since HEAD (1a2b3c4): 1 tool changed, 1 added, 1 removed; 2 breaking changes.',
        '',
        'search',
        '  BREAKING parameter page: int added (required): calls without it fail',
        '',
        'fresh',
        '  tool added: fresh()',
        '',
        'gone',
        '  BREAKING tool removed (was gone())',
        '',
      ].join('\n'),
    );
  });

  it('compares in every contract format (C1 signatures have no annotations)', () => {
    const d = diff(tool('search(q: str)'), tool('search(q: str, page: int)'), 'C1');
    assert.equal(changes(d), '[{"tool":"search","kind":"parameter-added","breaking":true,"message":"parameter page: int added (required): calls without it fail","after":"page: int"}]');
    const d2 = diff(tool('search(limit: int = 10)'), tool('search(limit: int = 20)'), 'C2');
    // C2 masks literal defaults: the model sees `...` both times, so nothing changed for it.
    assert.deepEqual(d2.changes, []);
  });
});

describe('subtypes', () => {
  const S = (name: string): TypeSpec => ({ kind: 'scalar', name });
  const U = (...args: TypeSpec[]): TypeSpec => ({ kind: 'union', name: 'union', arguments: args });
  const L = (...values: (string | number | boolean | null)[]): TypeSpec => ({ kind: 'literal', name: 'Literal', values });
  const N: TypeSpec = { kind: 'null', name: 'None' };
  const G = (name: string, args: TypeSpec[], variadic = false): TypeSpec => ({ kind: 'generic', name, ...(variadic ? { variadic: true as const } : {}), arguments: args });
  const cases: [TypeSpec, TypeSpec, boolean][] = [
    [S('bool'), S('int'), true], [S('int'), S('bool'), false], [S('int'), S('float'), true], [L(1, true), S('int'), true], [L('a', null), U(S('str'), N), true],
    [L(1), L(1, 2), true], [L(true), L(1), false], [U(S('int'), N), S('int'), false], [S('str'), { kind: 'any', name: 'Any' }, true],
    [G('tuple', [S('int'), S('bool')]), G('tuple', [S('int')], true), true], [G('tuple', [S('int')], true), G('tuple', [S('int'), S('int')]), false], [G('list', [S('int')]), G('list', []), true],
  ];
  for (const [a, b, expected] of cases) {
    it(`${JSON.stringify(a)} ⊆ ${JSON.stringify(b)} is ${expected}`, () => assert.equal(isSubtype(a, b), expected));
  }
});
