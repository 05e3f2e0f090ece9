// The acceptance vectors of vis-sdk.md §3.6, as exact JSON (key order counts), in the formats each names.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { initParser } from '../../server/src/parse/parser';
import { contractOf, js, symbols, HEADER, G3_FOOTER } from './helpers';

before(async () => {
  await initParser();
});

const V1_SOURCE = `from __future__ import annotations
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

@dataclass(frozen=True)
class Reading:
    """A measured duration; missing elapsed_s means no measurement."""

    elapsed_s: Annotated[float | None, "Seconds, or None when not measured."]
    labels: list[str] = field(default_factory=list)


class Opaque:
    """Not a dataclass: crosses the boundary as an opaque name."""


def measure(
    target: str,
    /,
    *labels: str,
    timeout_s: Annotated[float | None, "Seconds; None disables the timeout."] = None,
    **options: bool,
) -> Reading:
    """Measure one target. Requires a known target; does not change it."""

probe = vis.Symbol(measure, name="probe")
`;

const float_or_none = { kind: 'union', name: 'union', arguments: [{ kind: 'scalar', name: 'float' }, { kind: 'null', name: 'None' }] };
const READING = {
  kind: 'record',
  name: 'Reading',
  fields: [
    { name: 'elapsed_s', type: { ...float_or_none, description: 'Seconds, or None when not measured.' }, required: true, has_default: false, default_is_none: false },
    { name: 'labels', type: { kind: 'generic', name: 'list', arguments: [{ kind: 'scalar', name: 'str' }] }, required: false, has_default: true, default_is_none: false },
  ],
  description: 'A measured duration; missing elapsed_s means no measurement.',
};

function param(name: string, kind: string, type: unknown, opts: { required?: boolean; has_default?: boolean; none?: boolean; source?: string | null } = {}, format = 'C3') {
  const p: Record<string, unknown> = {
    name,
    kind,
    required: opts.required ?? false,
    has_default: opts.has_default ?? false,
    default_is_none: opts.none ?? false,
  };
  if (format === 'C3') p.default_source = opts.source ?? null;
  p.type = type;
  return p;
}

function v1Contract(format: 'C1' | 'C2' | 'C3') {
  const signature =
    format === 'C1' ? 'target, /, *labels, timeout_s=None, **options' : "(target: str, /, *labels: str, timeout_s: float | None = None, **options: bool) -> 'Reading'";
  return {
    version: 1,
    name: 'probe',
    tag: 'observation',
    description: 'Measure one target. Requires a known target; does not change it.',
    signature,
    parameters: [
      param('target', 'positional_only', { kind: 'scalar', name: 'str' }, { required: true }, format),
      param('labels', 'var_positional', { kind: 'scalar', name: 'str' }, {}, format),
      param('timeout_s', 'keyword_only', { ...float_or_none, description: 'Seconds; None disables the timeout.' }, { has_default: true, none: true, source: 'None' }, format),
      param('options', 'var_keyword', { kind: 'scalar', name: 'bool' }, {}, format),
    ],
    returns: READING,
  };
}

describe('V1: parameter kinds, records and Annotated', () => {
  for (const format of ['C1', 'C2', 'C3'] as const) {
    it(`matches the derived contract in ${format}`, () => {
      assert.equal(js(contractOf(V1_SOURCE, format)), js(v1Contract(format)));
    });
  }
  it('gives the derived C3 returns and timeout_s entries verbatim', () => {
    const c = contractOf(V1_SOURCE, 'C3') as { returns: unknown; parameters: unknown[] };
    assert.equal(
      js(c.returns),
      '{"kind":"record","name":"Reading","fields":[{"name":"elapsed_s","type":{"kind":"union","name":"union","arguments":[{"kind":"scalar","name":"float"},{"kind":"null","name":"None"}],"description":"Seconds, or None when not measured."},"required":true,"has_default":false,"default_is_none":false},{"name":"labels","type":{"kind":"generic","name":"list","arguments":[{"kind":"scalar","name":"str"}]},"required":false,"has_default":true,"default_is_none":false}],"description":"A measured duration; missing elapsed_s means no measurement."}',
    );
    assert.equal(
      js(c.parameters[2]),
      '{"name":"timeout_s","kind":"keyword_only","required":false,"has_default":true,"default_is_none":true,"default_source":"None","type":{"kind":"union","name":"union","arguments":[{"kind":"scalar","name":"float"},{"kind":"null","name":"None"}],"description":"Seconds; None disables the timeout."}}',
    );
  });
});

const SHAPES = `${V1_SOURCE}
def shapes(
    flag: Literal["a", 1, True, None],
    pair: tuple[int, ...],
    table: dict[str, list[Reading]],
    raw: Opaque,
    anything: Any,
    plain,
    count: int = 3,
) -> Reading | None:
    """Cover every portable type kind."""

s2 = vis.Symbol(shapes)
`;

describe('V2: signature text with annotations', () => {
  it('prints the measure signature in C2 and C3', () => {
    for (const f of ['C2', 'C3'] as const) {
      assert.equal((contractOf(V1_SOURCE, f) as { signature: string }).signature, "(target: str, /, *labels: str, timeout_s: float | None = None, **options: bool) -> 'Reading'");
    }
  });
  it('prints every portable type kind (C3)', () => {
    assert.equal(
      (contractOf(SHAPES, 'C3', 1) as { signature: string }).signature,
      "(flag: Literal['a', 1, True, None], pair: tuple[int, ...], table: dict[str, list['Reading']], raw: 'Opaque', anything: Any, plain, count: int = 3) -> 'Reading' | None",
    );
  });
  it('masks the non-None default in C2', () => {
    assert.equal(
      (contractOf(SHAPES, 'C2', 1) as { signature: string }).signature,
      "(flag: Literal['a', 1, True, None], pair: tuple[int, ...], table: dict[str, list['Reading']], raw: 'Opaque', anything: Any, plain, count: int = ...) -> 'Reading' | None",
    );
  });
});

const QUERY = `def query(*, dry_run: bool = False, limit: int = 200, since: str = "1h", services=()):
    """Query services without changing them."""

q = vis.Symbol(query)
`;

describe('V3: literal defaults (C3)', () => {
  it('matches the derived full contract', () => {
    assert.equal(
      js(contractOf(QUERY, 'C3')),
      '{"version":1,"name":"query","tag":"observation","description":"Query services without changing them.","signature":"(*, dry_run: bool = False, limit: int = 200, since: str = \'1h\', services=())","parameters":[{"name":"dry_run","kind":"keyword_only","required":false,"has_default":true,"default_is_none":false,"default_source":"False","type":{"kind":"scalar","name":"bool"}},{"name":"limit","kind":"keyword_only","required":false,"has_default":true,"default_is_none":false,"default_source":"200","type":{"kind":"scalar","name":"int"}},{"name":"since","kind":"keyword_only","required":false,"has_default":true,"default_is_none":false,"default_source":"\'1h\'","type":{"kind":"scalar","name":"str"}},{"name":"services","kind":"keyword_only","required":false,"has_default":true,"default_is_none":false,"default_source":"()","type":{"kind":"any","name":"Any"}}],"returns":{"kind":"any","name":"Any"}}',
    );
  });
  it('puts every default into the doc text', () => {
    const doc = symbols(HEADER + QUERY + G3_FOOTER, 'C3')[0].tools[0].doc;
    for (const s of ['default False', 'default 200', "default '1h'", 'default ()']) assert.ok(doc.includes(s), s);
  });
});

describe('V4: required, None, opaque and variadic defaults stay distinct (C3)', () => {
  it('gives the asserted tuples', () => {
    const c = contractOf('def read(required, optional=None, opaque=object(), *args, **kwargs):\n    """Read a value with optional context."""\n\ns = vis.Symbol(read)\n') as {
      parameters: { required: boolean; has_default: boolean; default_is_none: boolean; default_source: string | null }[];
    };
    assert.equal(
      js(c.parameters.map((p) => [p.required, p.has_default, p.default_is_none, p.default_source])),
      js([
        [true, false, false, null],
        [false, true, true, 'None'],
        [false, true, false, null],
        [false, false, false, null],
        [false, false, false, null],
      ]),
    );
  });
  const LOOKUP = `class Secret:
    def __repr__(self):
        raise RuntimeError

def raise_if_evaluated():
    raise RuntimeError

def lookup(token=Secret(), *, key="not-for-discovery") -> raise_if_evaluated():
    """Look up a result without inspecting opaque defaults."""

s = vis.Symbol(lookup)
`;
  it('does not evaluate opaque defaults or annotation expressions (C3)', () => {
    const c = contractOf('from __future__ import annotations\n' + LOOKUP, 'C3') as {
      signature: string;
      returns: { kind: string; name: string };
      parameters: { default_is_none: boolean; default_source: string | null }[];
    };
    assert.equal(c.signature, "(token=..., *, key='not-for-discovery') -> 'raise_if_evaluated()'");
    assert.equal(js(c.returns), js({ kind: 'unresolved', name: 'raise_if_evaluated()' }));
    assert.equal(c.parameters[0].default_is_none, false);
    assert.equal(c.parameters[0].default_source, null);
    assert.equal(c.parameters[1].default_source, "'not-for-discovery'");
  });
  it('never exports defaults in C1 (the signature shows token=...)', () => {
    const c = contractOf('from __future__ import annotations\n' + LOOKUP, 'C1') as { signature: string };
    assert.ok(!js(c).includes('not-for-discovery'));
    assert.ok(c.signature.includes('token=...'));
    assert.equal(c.signature, 'token=..., *, key=...');
  });
});

describe('V5: variadic and fixed tuples', () => {
  for (const ann of ['tuple[str, ...]', '"tuple[str, ...]"']) {
    for (const format of ['C1', 'C2', 'C3'] as const) {
      it(`returns ${ann} in ${format}`, () => {
        const c = contractOf(`def values() -> ${ann}:\n    """Read values."""\n\ns = vis.Symbol(values)\n`, format) as { returns: unknown };
        assert.equal(js(c.returns), '{"kind":"generic","name":"tuple","variadic":true,"arguments":[{"kind":"scalar","name":"str"}]}');
      });
    }
  }
  it('has no variadic key and two arguments for tuple[str, int]', () => {
    const c = contractOf('def values() -> tuple[str, int]:\n    """Read values."""\n\ns = vis.Symbol(values)\n') as { returns: unknown };
    assert.equal(js(c.returns), '{"kind":"generic","name":"tuple","arguments":[{"kind":"scalar","name":"str"},{"kind":"scalar","name":"int"}]}');
  });
});

const V7 = `class Items:
    @vis.method(tag="mutation")
    def put(self, *, value: str) -> bool:
        """Store a value. Replaces the previous value."""

class Tools:
    def __init__(self):
        self.items = Items()

store = vis.Symbol(Tools(), name="store")
`;

describe('V7: namespace contract and per-method tags', () => {
  for (const format of ['C1', 'C2', 'C3'] as const) {
    it(`builds the namespace contract in ${format}`, () => {
      const signature = format === 'C1' ? '*, value' : '(*, value: str) -> bool';
      const value: Record<string, unknown> = { name: 'value', kind: 'keyword_only', required: true, has_default: false, default_is_none: false };
      if (format === 'C3') value.default_source = null;
      value.type = { kind: 'scalar', name: 'str' };
      assert.equal(
        js(contractOf(V7, format)),
        js({
          version: 1,
          name: 'store',
          members: [
            {
              version: 1,
              name: 'store.items.put',
              tag: 'mutation',
              description: 'Store a value. Replaces the previous value.',
              signature,
              parameters: [value],
              returns: { kind: 'scalar', name: 'bool' },
            },
          ],
        }),
      );
    });
  }
});

const V9 = `from dataclasses import dataclass

@dataclass
class Page:
    """One page."""
    title: str

@vis.sequence(field="results")
@dataclass
class PageList:
    """Search results."""
    results: tuple[Page, ...]
    total: int

@dataclass
class Plain:
    """Not a sequence."""
    items: tuple[Page, ...]

def search(query: str) -> PageList:
    """Search pages."""

def plain() -> Plain:
    """Plain pages."""

s = vis.Symbol(search)
p = vis.Symbol(plain)
`;

describe('V9: sequence metadata (G3)', () => {
  it('puts sequence_field on the returned record and "Sequence over results" in the doc', () => {
    const infos = symbols(HEADER + V9 + G3_FOOTER);
    const c = infos[0].contract as unknown as { returns: Record<string, unknown> };
    assert.equal(c.returns.sequence_field, 'results');
    assert.equal(
      js(c.returns),
      '{"kind":"record","name":"PageList","fields":[{"name":"results","type":{"kind":"generic","name":"tuple","variadic":true,"arguments":[{"kind":"record","name":"Page","fields":[{"name":"title","type":{"kind":"scalar","name":"str"},"required":true,"has_default":false,"default_is_none":false}],"description":"One page."}]},"required":true,"has_default":false,"default_is_none":false},{"name":"total","type":{"kind":"scalar","name":"int"},"required":true,"has_default":false,"default_is_none":false}],"description":"Search results.","sequence_field":"results"}',
    );
    assert.ok(infos[0].tools[0].doc.includes('Sequence over results'));
  });
  it('leaves plain records without a sequence_field key', () => {
    const c = symbols(HEADER + V9 + G3_FOOTER)[1].contract as unknown as { returns: Record<string, unknown> };
    assert.ok(!('sequence_field' in c.returns));
  });
});
