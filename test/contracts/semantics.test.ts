// Python's own semantics in contracts: the cases of issue 11 with their exact JSON in C1, C2 and C3
// (key order included), default_source as repr prints every constant type, union flattening and
// Literal values on the object path, and the string path left as the SDK's `ast` walk leaves it.
// Expected texts were taken from CPython 3.11 (`repr(...)`, `typing.get_args(...)`).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { scopeOf, symbolInfos, type ContractFormat, type ModuleLoader, type SymbolInfo } from '../../server/src/contracts';
import { hoverMarkdown } from '../../server/src/features/contractHover';
import { initParser } from '../../server/src/parse/parser';
import { contractOf, G3_FOOTER, HEADER, js, modelOf, symbols } from './helpers';

before(async () => {
  await initParser();
});

const ANY = '{"kind":"any","name":"Any"}';
const INT = '{"kind":"scalar","name":"int"}';
const STR = '{"kind":"scalar","name":"str"}';
const NONE = '{"kind":"null","name":"None"}';

/** The one tool of an entry file, in a format. */
function tool(body: string, format: ContractFormat) {
  const info = symbols(HEADER + body + G3_FOOTER, format)[0];
  return info.tools[0];
}

describe('issue 11: a parenthesised default', () => {
  const expected: Record<ContractFormat, string> = {
    C1: '{"version":1,"name":"page","tag":"observation","description":"Page through results.","signature":"offset=..., size=..., pages=..., window=...","parameters":[' +
      `{"name":"offset","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"type":${INT}},` +
      `{"name":"size","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"type":${INT}},` +
      `{"name":"pages","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"type":{"kind":"generic","name":"list","arguments":[${INT}]}},` +
      `{"name":"window","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"type":${ANY}}],"returns":${ANY}}`,
    C2: '{"version":1,"name":"page","tag":"observation","description":"Page through results.","signature":"(offset: int = ..., size: int = ..., pages: list[int] = ..., window=...)","parameters":[' +
      `{"name":"offset","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"type":${INT}},` +
      `{"name":"size","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"type":${INT}},` +
      `{"name":"pages","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"type":{"kind":"generic","name":"list","arguments":[${INT}]}},` +
      `{"name":"window","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"type":${ANY}}],"returns":${ANY}}`,
    C3: '{"version":1,"name":"page","tag":"observation","description":"Page through results.","signature":"(offset: int = -1, size: int = 3, pages: list[int] = [1], window=(-1,))","parameters":[' +
      `{"name":"offset","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"default_source":"-1","type":${INT}},` +
      `{"name":"size","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"default_source":"3","type":${INT}},` +
      `{"name":"pages","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"default_source":"[1]","type":{"kind":"generic","name":"list","arguments":[${INT}]}},` +
      `{"name":"window","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"default_source":"(-1,)","type":${ANY}}],"returns":${ANY}}`,
  };
  const SOURCE = 'def page(offset: int = (-1), size: int = (3), pages: list[int] = [(1)], window=((-1),)):\n    """Page through results."""\n\ns = vis.Symbol(page)\n';
  for (const format of ['C1', 'C2', 'C3'] as const) {
    it(`gives the exact contract in ${format}`, () => {
      assert.equal(js(contractOf(SOURCE, format)), expected[format]);
    });
  }

  it('keeps the hover of a namespace whose member has such a default', () => {
    const src = 'class Kit:\n    """Tools."""\n\n    def page(self, offset: int = (-1)):\n        """Page."""\n\n    def size(self) -> int:\n        """Size."""\n\nkit = vis.Symbol(Kit(), name="kit")\n';
    const info = symbols(HEADER + src + G3_FOOTER, 'C3')[0];
    assert.deepEqual(
      info.tools.map((t) => t.contract.signature),
      ['(offset: int = -1)', '() -> int'],
    );
    const md = hoverMarkdown({ info }, 'C3')!;
    assert.match(md, /\| `kit\.page` \| observation \| `\(offset: int = -1\)` \|/);
    assert.match(md, /\| `kit\.size` \| observation \| `\(\) -> int` \|/);
  });
});

describe('default_source: repr of every constant type, and exact folding (C3)', () => {
  // [default as written, repr(value) as CPython prints it (null: not rendered by the SDK)]
  const cases: [string, string | null][] = [
    ['None', 'None'], ['True', 'True'], ['...', '...'], ['-0', '0'], ['0o17', '15'], ['0b101', '5'],
    ['10**3', '1000'], ['-(1)', '-1'], ['2*8', '16'], ['2**64', '18446744073709551616'], ['-2**63', '-9223372036854775808'], ['7 // -2', '-4'], ['-7 % 3', '2'],
    ['1 << 10', '1024'], ['~5', '-6'], ['True + 1', '2'], ['-True', '-1'], ['True | False', 'True'],
    ['0.1', '0.1'], ['1.5e300', '1.5e+300'], ['.5', '0.5'], ['1.', '1.0'], ['7.5 // 2', '3.0'], ['-7.5 % 2', '0.5'], ['1 / 4', '0.25'], ['2 ** -1', '0.5'],
    ['3j', '3j'], ['-1j', '(-0-1j)'], ['1+2j', '(1+2j)'], ['1.5-0.5j', '(1.5-0.5j)'], ['-(0j)', '(-0-0j)'],
    ['"it\'s"', '"it\'s"'], ["'say \"hi\"'", '\'say "hi"\''], ["'both \\' \"'", "'both \\' \"'"], ["'\\n\\t\\x00\\x7f'", "'\\n\\t\\x00\\x7f'"], ["'é雪😀'", "'é雪😀'"],
    ["'\\u200b'", "'\\u200b'"], ["r'\\d+'", "'\\\\d+'"], ["'a' 'b'", "'ab'"], ["'ab' * 3", "'ababab'"], ["'-' + 'x'", "'-x'"],
    ["b''", "b''"], ["b\"it's\"", 'b"it\'s"'], ["rb'\\d'", "b'\\\\d'"], ["b'a' * 2", "b'aa'"],
    ['(1, 2)', '(1, 2)'], ['[1, [2, (3,)]]', '[1, [2, (3,)]]'], ['{1: "x", True: "y"}', "{1: 'y'}"], ['{1.0: "a", 1: "b", True: "c"}', "{1.0: 'c'}"],
    ['{0: "a", False: "b", 0.0: "c", -0.0: "d"}', "{0: 'd'}"], ['{(1, 2): None, "k": [1]}', "{(1, 2): None, 'k': [1]}"],
    ['{3, 1, 2}', '{1, 2, 3}'], ['{True, 1, 1.0}', '{True}'], ['frozenset({1})', null], ['[1] * 3', '[1, 1, 1]'], ['(0,) * 2', '(0, 0)'],
    ['[*(1, 2), 3]', '[1, 2, 3]'], ['{**{"a": 1}, "b": 2}', "{'a': 1, 'b': 2}"], ['dict(a=1)', "{'a': 1}"], ['tuple([1, 2])', '(1, 2)'], ['list("ab")', "['a', 'b']"],
    ["float('inf')", null], ['{1: 2} | {1: 3}', '{1: 3}'], ['math.pi', '3.141592653589793'], ['string.digits', "'0123456789'"], ['Config.LIMIT', '8'], ['Color.RED', null],
  ];
  const PRELUDE = 'import math\nimport string\nimport enum\n\nclass Config:\n    LIMIT = 8\n\nclass Color(enum.Enum):\n    RED = 1\n\n';
  for (const [src, expected] of cases) {
    it(`${src} → ${expected}`, () => {
      const t = tool(`${PRELUDE}def f(x=${src}):\n    """Doc."""\n\ns = vis.Symbol(f)\n`, 'C3');
      assert.equal(t.contract.parameters[0].default_source, expected);
      assert.equal(t.contract.signature, `(x=${expected ?? '...'})`);
      assert.deepEqual(t.unknowns, []);
    });
  }

  const FOLDED: Record<ContractFormat, string> = {
    C1: '{"version":1,"name":"f","tag":"observation","description":"Doc.","signature":"table=..., n=..., k=..., m=None","parameters":[' +
      `{"name":"table","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"type":${ANY}},` +
      `{"name":"n","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"type":${ANY}},` +
      `{"name":"k","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"type":${ANY}},` +
      `{"name":"m","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":true,"type":${ANY}}],"returns":${ANY}}`,
    C2: '{"version":1,"name":"f","tag":"observation","description":"Doc.","signature":"(table=..., n=..., k=..., m=None)","parameters":[' +
      `{"name":"table","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"type":${ANY}},` +
      `{"name":"n","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"type":${ANY}},` +
      `{"name":"k","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"type":${ANY}},` +
      `{"name":"m","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":true,"type":${ANY}}],"returns":${ANY}}`,
    C3: '{"version":1,"name":"f","tag":"observation","description":"Doc.","signature":"(table={1: \'y\'}, n=1000, k=-1, m=None)","parameters":[' +
      `{"name":"table","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"default_source":"{1: 'y'}","type":${ANY}},` +
      `{"name":"n","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"default_source":"1000","type":${ANY}},` +
      `{"name":"k","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,"default_source":"-1","type":${ANY}},` +
      `{"name":"m","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":true,"default_source":"None","type":${ANY}}],"returns":${ANY}}`,
  };
  for (const format of ['C1', 'C2', 'C3'] as const) {
    it(`gives the exact contract of folded and collapsed defaults in ${format}`, () => {
      const c = contractOf('NOTHING = None\n\ndef f(table={1: "x", True: "y"}, n=10**3, k=-(1), m=(NOTHING)):\n    """Doc."""\n\ns = vis.Symbol(f)\n', format);
      assert.equal(js(c), FOLDED[format]);
    });
  }

  it('says why a default is not known, and shows it as ... with default_source null', () => {
    const t = tool('def make():\n    return 1\n\ndef f(a=make(), b={"x", "y"}, c=UNDEFINED, d=[x for x in ()]):\n    """Doc."""\n\ns = vis.Symbol(f)\n', 'C3');
    assert.equal(t.contract.signature, '(a=..., b=..., c=..., d=...)');
    assert.deepEqual(t.contract.parameters.map((p) => p.default_source), [null, null, null, null]);
    assert.deepEqual(t.unknowns, [
      { where: 'parameter `a`: default', reason: '`make()`: a call result (`make()`): the value is what the call returns at import time; shown as `...` with default_source null' },
      {
        where: 'parameter `b`: default',
        reason: "`{\"x\", \"y\"}`: Python prints a set in hash-table order, which is not known statically for these members (str hashes change with every process); in source order it reads {'x', 'y'}",
      },
      { where: 'parameter `c`: default', reason: '`UNDEFINED`: `UNDEFINED` is not defined in extension.py (NameError when it is evaluated, unless a `from ... import *` binds it); shown as `...` with default_source null' },
      { where: 'parameter `d`: default', reason: '`[x for x in ()]`: a list comprehension is not evaluated; shown as `...` with default_source null' },
    ]);
  });

  it('says default_is_none only when the value is None, through names and parentheses', () => {
    const t = tool('NOTHING = None\n\ndef f(a=(None), b=NOTHING, c=0):\n    """Doc."""\n\ns = vis.Symbol(f)\n', 'C1');
    assert.deepEqual(t.contract.parameters.map((p) => p.default_is_none), [true, true, false]);
    assert.equal(t.contract.signature, 'a=None, b=None, c=...');
  });
});

// A helper module without `from __future__ import annotations` holds annotation objects (the object
// path); the entry file, like any postponed module, holds strings (the string path).
const HELPER = `from dataclasses import dataclass
from typing import Annotated, List, Literal, Optional, Union
import enum

LIMIT = 3

class Color(enum.Enum):
    RED = 1

@dataclass
class Shape:
    """A shape."""
    a: int | str | None
    b: Optional[Union[int, str]]
    c: Union[int, int]
    d: Union[int, Optional[int]]
    e: Union[Literal[1], Literal[1]]
    f: Optional[None] = None
    g: Annotated[Optional["Shape"], "the parent"] = None
    h: List["Shape"] = None

def pick(mode: Literal[-1, 0] = -1, flag: Literal[Literal[1, True], 1, LIMIT, Color.RED, 1.5, -(2)] = 1) -> Shape:
    """Pick a mode."""
`;

function withHelper(entry: string, format: ContractFormat): SymbolInfo[] {
  const helper = scopeOf(modelOf(HELPER, 'file:///w/helper.py'), { path: '/w/helper.py' });
  const loader: ModuleLoader = { load: (_from, name) => (name === '.helper' ? helper : undefined) };
  return symbolInfos(modelOf(HEADER + entry + G3_FOOTER, 'file:///w/extension.py'), { format, loader, path: '/w/extension.py' });
}

describe('the object path: Python flattens unions and evaluates Literal values', () => {
  const ENTRY = 'from .helper import pick\n\np = vis.Symbol(pick)\n';
  const fieldTypes = () => Object.fromEntries(withHelper(ENTRY, 'C3')[0].tools[0].contract.returns.fields!.map((f) => [f.name, js(f.type)]));
  const UNION = `{"kind":"union","name":"union","arguments":[${INT},${STR},${NONE}]}`;

  it('flattens int | str | None and Optional[Union[int, str]] to one union, in every format', () => {
    for (const format of ['C1', 'C2', 'C3'] as const) {
      const fields = withHelper(ENTRY, format)[0].tools[0].contract.returns.fields!;
      assert.deepEqual(fields.slice(0, 2).map((f) => js(f.type)), [UNION, UNION], format);
    }
  });

  it('de-duplicates members: Union[int, int] is int, Union[int, Optional[int]] is int | None, equal Literals merge', () => {
    const t = fieldTypes();
    assert.equal(t.c, INT);
    assert.equal(t.d, `{"kind":"union","name":"union","arguments":[${INT},${NONE}]}`);
    assert.equal(t.e, '{"kind":"literal","name":"Literal","values":[1]}');
    assert.equal(t.f, NONE);
  });

  it('turns strings inside typing forms into ForwardRefs, which the SDK leaves unresolved', () => {
    const t = fieldTypes();
    assert.equal(t.g, `{"kind":"union","name":"union","arguments":[{"kind":"unresolved","name":"ForwardRef"},${NONE}],"description":"the parent"}`);
    assert.equal(t.h, '{"kind":"generic","name":"list","arguments":[{"kind":"unresolved","name":"ForwardRef"}]}');
  });

  const PICK: Record<ContractFormat, string> = {
    C1: 'mode=..., flag=...',
    C2: "(mode: Literal[-1, 0] = ..., flag: Literal[1, True, 3, -2] = ...) -> 'Shape'",
    C3: "(mode: Literal[-1, 0] = -1, flag: Literal[1, True, 3, -2] = 1) -> 'Shape'",
  };
  for (const format of ['C1', 'C2', 'C3'] as const) {
    it(`keeps negative, nested and named Literal values, bool apart from int, in ${format}`, () => {
      const c = withHelper(ENTRY, format)[0].tools[0].contract;
      assert.equal(c.signature, PICK[format]);
      const source = format === 'C3' ? ['"default_source":"-1",', '"default_source":"1",'] : ['', ''];
      assert.equal(
        js(c.parameters),
        `[{"name":"mode","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,${source[0]}"type":{"kind":"literal","name":"Literal","values":[-1,0]}},` +
          `{"name":"flag","kind":"positional_or_keyword","required":false,"has_default":true,"default_is_none":false,${source[1]}"type":{"kind":"literal","name":"Literal","values":[1,true,3,-2]}}]`,
      );
    });
  }
});

describe('the string path: the SDK walks the annotation as written', () => {
  // `_contract_ast` recurses into `|` and Optional without flattening, and keeps only ast.Constant
  // Literal values: `-1` is a UnaryOp there, so the SDK drops it.
  it('keeps int | str | None nested and drops -1 from Literal[-1, 0]', () => {
    const c = contractOf('from typing import Literal, Optional, Union\n\ndef f(a: int | str | None, b: Optional[Union[int, str]], m: Literal[-1, 0]):\n    """Doc."""\n\ns = vis.Symbol(f)\n', 'C3') as {
      parameters: { type: unknown }[];
      signature: string;
    };
    const nested = `{"kind":"union","name":"union","arguments":[{"kind":"union","name":"union","arguments":[${INT},${STR}]},${NONE}]}`;
    assert.equal(js(c.parameters[0].type), nested);
    assert.equal(js(c.parameters[1].type), nested);
    assert.equal(js(c.parameters[2].type), '{"kind":"literal","name":"Literal","values":[0]}');
    assert.equal(c.signature, '(a: int | str | None, b: int | str | None, m: Literal[0])');
  });

  it('reads an annotation with a comment inside its brackets', () => {
    const c = contractOf('from typing import Literal\n\ndef f(mode: Literal[\n    "a",  # first\n    "b",  # second\n]):\n    """Doc."""\n\ns = vis.Symbol(f)\n', 'C2') as { signature: string };
    assert.equal(c.signature, "(mode: Literal['a', 'b'])");
  });
});

describe('unresolved types say why', () => {
  it('marks a dataclass from a dependency that is not in the workspace or its environment', () => {
    const t = tool('from mydep.models import Reading\n\ndef read() -> Reading:\n    """Read."""\n\ns = vis.Symbol(read)\n', 'C3');
    assert.equal(js(t.contract.returns), '{"kind":"opaque","name":"Reading"}');
    assert.deepEqual(t.unknowns, [
      { where: 'returns', reason: '`Reading` comes from `mydep.models`, which is not in the workspace or its environment: shown as opaque; if it is a dataclass, Vis shows a record with its fields' },
    ]);
  });

  it('does not mark standard-library classes', () => {
    const t = tool('from pathlib import Path\nfrom datetime import datetime\n\ndef read(p: Path) -> datetime:\n    """Read."""\n\ns = vis.Symbol(read)\n', 'C3');
    assert.equal(js(t.contract.returns), '{"kind":"opaque","name":"datetime"}');
    assert.deepEqual(t.unknowns, []);
  });
});
