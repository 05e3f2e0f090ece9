// TypeSpec kinds (vis-sdk.md §3.2), default_source rendering (§3.4), docstrings and the doc text (§3.5).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { initParser } from '../../server/src/parse/parser';
import { cleandoc } from '../../server/src/model/docstring';
import { parseExpr, unparse } from '../../server/src/contracts/pyexpr';
import { pyFloatRepr, pyStrRepr } from '../../server/src/contracts/pyrepr';
import { contractOf, js, symbols, HEADER, G3_FOOTER } from './helpers';

before(async () => {
  await initParser();
});

const PRELUDE = `from __future__ import annotations
import os
import typing
import typing as t
from os import PathLike
from pathlib import Path
from enum import Enum
from dataclasses import dataclass, field
from typing import Annotated, Any, List, Literal, Optional, Sequence, Union, Dict, Tuple
from collections.abc import Mapping

class Color(Enum):
    RED = 1

@dataclass
class Node:
    """A tree node."""
    children: list[Node]
    parent: Optional["Node"] = None

@dataclass
class Auto:
    x: int

Recursive = "list[Recursive]"
Alias = list[int]
LIMIT = 3
`;

/** The TypeSpec of a parameter annotation (`x: <ann>`), or the return annotation. */
function typeOf(ann: string, prelude = PRELUDE): string {
  const c = contractOf(`${prelude}\ndef f(x: ${ann}):\n    """Doc."""\n\ns = vis.Symbol(f)\n`) as { parameters: { type: unknown }[] };
  return js(c.parameters[0].type);
}

const S = (name: string) => ({ kind: 'scalar', name });

describe('TypeSpec kinds', () => {
  const cases: [string, unknown][] = [
    ['Any', { kind: 'any', name: 'Any' }],
    ['None', { kind: 'null', name: 'None' }],
    ['"None"', { kind: 'null', name: 'None' }],
    ['bytes', S('bytes')],
    ['object', { kind: 'opaque', name: 'object' }],
    ['Path', { kind: 'opaque', name: 'Path' }],
    ['Color', { kind: 'opaque', name: 'Color' }],
    ['list', { kind: 'opaque', name: 'list' }],
    ['int | None', { kind: 'union', name: 'union', arguments: [S('int'), { kind: 'null', name: 'None' }] }],
    ['Optional[int]', { kind: 'union', name: 'union', arguments: [S('int'), { kind: 'null', name: 'None' }] }],
    ['Union[int, str]', { kind: 'union', name: 'union', arguments: [S('int'), S('str')] }],
    ['Literal["a", 1, True, None, 1.5, b"x", -1]', { kind: 'literal', name: 'Literal', values: ['a', 1, true, null] }],
    ['tuple[int, ...]', { kind: 'generic', name: 'tuple', variadic: true, arguments: [S('int')] }],
    ['Tuple[int, ...]', { kind: 'generic', name: 'tuple', variadic: true, arguments: [S('int')] }],
    ['List[str]', { kind: 'generic', name: 'list', arguments: [S('str')] }],
    ['typing.List[str]', { kind: 'generic', name: 'list', arguments: [S('str')] }],
    ['t.Dict[str, int]', { kind: 'generic', name: 'dict', arguments: [S('str'), S('int')] }],
    ['List', { kind: 'generic', name: 'list', arguments: [] }],
    ['Sequence[int]', { kind: 'generic', name: 'Sequence', arguments: [S('int')] }],
    ['Mapping[str, int]', { kind: 'generic', name: 'Mapping', arguments: [S('str'), S('int')] }],
    ['frozenset[int]', { kind: 'generic', name: 'frozenset', arguments: [S('int')] }],
    ['PathLike[str]', { kind: 'generic', name: 'PathLike', arguments: [S('str')] }],
    ['os.PathLike[str]', { kind: 'generic', name: 'PathLike', arguments: [S('str')] }],
    ['str | os.PathLike[str]', { kind: 'union', name: 'union', arguments: [S('str'), { kind: 'generic', name: 'PathLike', arguments: [S('str')] }] }],
    ['Annotated[int, "A", 3, "B"]', { kind: 'scalar', name: 'int', description: 'A\nB' }],
    ['Missing', { kind: 'unresolved', name: 'Missing' }],
    ['"Page[int]"', { kind: 'unresolved', name: 'Page[int]' }],
    ['Node[int]', { kind: 'unresolved', name: 'Node[int]' }],
    ['make_type(1, x=2)', { kind: 'unresolved', name: 'make_type(1, x=2)' }],
    ['LIMIT', { kind: 'unresolved', name: 'int' }],
    ['"not valid("', { kind: 'unresolved', name: 'not valid(' }],
    ['Alias', { kind: 'generic', name: 'list', arguments: [S('int')] }],
    // The SDK's seen-set holds the alias text, so the reference is named by it.
    ['Recursive', { kind: 'generic', name: 'list', arguments: [{ kind: 'reference', name: 'list[Recursive]' }] }],
    ['Auto', { kind: 'record', name: 'Auto', fields: [{ name: 'x', type: S('int'), required: true, has_default: false, default_is_none: false }] }],
  ];
  for (const [ann, expected] of cases) {
    it(`maps ${ann}`, () => assert.equal(typeOf(ann), js(expected)));
  }

  it('expands a recursive record once, then refers to it', () => {
    assert.equal(
      typeOf('Node'),
      js({
        kind: 'record',
        name: 'Node',
        fields: [
          { name: 'children', type: { kind: 'generic', name: 'list', arguments: [{ kind: 'reference', name: 'Node' }] }, required: true, has_default: false, default_is_none: false },
          { name: 'parent', type: { kind: 'union', name: 'union', arguments: [{ kind: 'reference', name: 'Node' }, { kind: 'null', name: 'None' }] }, required: false, has_default: true, default_is_none: true },
        ],
        description: 'A tree node.',
      }),
    );
  });

  it('reads an entry file as postponed even without the __future__ import', () => {
    const prelude = PRELUDE.replace('from __future__ import annotations\n', '');
    assert.equal(typeOf('"tuple[str, ...]"', prelude), js({ kind: 'generic', name: 'tuple', variadic: true, arguments: [S('str')] }));
    assert.equal(typeOf('list["Auto"]', prelude), typeOf('list[Auto]'));
  });

  it('skips private and ClassVar fields and honours field(default=None)', () => {
    const prelude = `from dataclasses import dataclass, field\nfrom typing import ClassVar\n@dataclass\nclass R:\n    """R."""\n    a: int = field(default=None)\n    _b: int = 0\n    c: ClassVar[int] = 1\n    d: list[int] = field(default_factory=list)\n    e: str = field()\n`;
    const t = JSON.parse(typeOf('R', prelude));
    assert.equal(
      js(t.fields.map((f: { name: string; required: boolean; has_default: boolean; default_is_none: boolean }) => [f.name, f.required, f.has_default, f.default_is_none])),
      js([
        ['a', false, true, true],
        ['d', false, true, false],
        ['e', true, false, false],
      ]),
    );
  });
});

describe('default_source (C3)', () => {
  const cases: [string, string | null][] = [
    ['None', 'None'], ['False', 'False'], ['0', '0'], ['-200', '-200'], ['0x10', '16'], ['1_000', '1000'],
    ['2**100', '1267650600228229401496703205376'], ['-0.0', '-0.0'], ['1.25', '1.25'], ['1e300', '1e+300'], ['1e16', '1e+16'], ['1e-5', '1e-05'], ['0.0001', '0.0001'],
    ['1e400', null], ['3j', '3j'], ['"1h"', "'1h'"], ['""', "''"], ['"雪"', "'雪'"], ["b'\\x00\\xff'", "b'\\x00\\xff'"], ['...', '...'],
    ['"it\'s"', '"it\'s"'], ['()', '()'], ['(1,)', '(1,)'], ['(False, ("1h", None))', "(False, ('1h', None))"], ['[]', '[]'], ['[1, (2, 3)]', '[1, (2, 3)]'],
    ['{}', '{}'], ['{"services": ["web", "api"], (1, 2): (False, None)}', "{'services': ['web', 'api'], (1, 2): (False, None)}"], ['{2, 1}', '{1, 2}'], ['set()', 'set()'],
    ['LIMIT', '3'], ['object()', null], ['lambda: 1', null], ['frozenset()', null], ['f"x{LIMIT}"', null],
    ['(((((((((None,),),),),),),),),)', null], ['((((((((None,),),),),),),),)', '((((((((None,),),),),),),),)'], ['"' + 'x'.repeat(4094) + '"', "'" + 'x'.repeat(4094) + "'"], ['"' + 'x'.repeat(4095) + '"', null],
  ];
  for (const [src, expected] of cases) {
    it(`renders ${src.length > 40 ? src.slice(0, 40) + '…' : src}`, () => {
      const c = contractOf(`LIMIT = 3\ndef f(x=${src}):\n    """Doc."""\n\ns = vis.Symbol(f)\n`) as { parameters: { default_source: string | null }[]; signature: string };
      assert.equal(c.parameters[0].default_source, expected);
      assert.equal(c.signature, `(x=${expected ?? '...'})`);
    });
  }
});

describe('Python text', () => {
  it('cleans docstrings like inspect.cleandoc', () => {
    assert.equal(cleandoc('\n    Doc line.\n\n      indented\n    '), 'Doc line.\n\n  indented');
    assert.equal(cleandoc('Doc.\n    '), 'Doc.\n    ');
    assert.equal(cleandoc('  First.\n\tTabbed\n        eight'), 'First.\nTabbed\neight');
  });
  it('prints floats and strings like repr', () => {
    assert.deepEqual([1e16, 1e15, 1e-5, 0.1, 1 / 3, -0, 5e-324, 123456789012345680000].map((x) => pyFloatRepr(x)), [
      '1e+16', '1000000000000000.0', '1e-05', '0.1', '0.3333333333333333', '-0.0', '5e-324', '1.2345678901234568e+20',
    ]);
    assert.equal(pyStrRepr('quotes: \'"\n\t\\'), "'quotes: \\'\"\\n\\t\\\\'");
    assert.equal(pyStrRepr('\u200b\x85é'), "'\\u200b\\x85é'");
  });
  it('unparses annotations like ast.unparse', () => {
    for (const [src, out] of [
      ['Annotated[float|None,"x"]', "Annotated[float | None, 'x']"],
      ['tuple[()]', 'tuple[()]'],
      ['f( a , b = 1 )', 'f(a, b=1)'],
      ['a . b [ c , d ]', 'a.b[c, d]'],
      ['(a | b) & c', '(a | b) & c'],
      ['-x ** 2', '-x ** 2'],
    ]) assert.equal(unparse(parseExpr(src)!), out);
  });
});

describe('generated doc text (§3.5)', () => {
  it('lays out description, Effect, Parameters, Returns and Model schemas', () => {
    const src = `from __future__ import annotations
from dataclasses import dataclass
from typing import Annotated

@dataclass
class Command:
    """One command."""
    verb: str
    retries: Annotated[int, "Retries after the first attempt."]

@dataclass
class Tool:
    """A tool summary."""
    name: str
    commands: tuple[Command, ...]

def values(*args: str, limit: int | None = None, mode: str = "x", opaque=object(), **kw) -> Tool | tuple[Tool, ...]:
    """Read local results; never retries or changes state."""

s = vis.Symbol(values, tag="mutation")
`;
    const doc = symbols(HEADER + src + G3_FOOTER)[0].tools[0].doc;
    assert.equal(
      doc,
      [
        'Read local results; never retries or changes state.',
        '',
        'Effect: mutation',
        '',
        'Parameters:',
        '- args: str (var_positional; variadic)',
        '- limit: int | None (keyword_only; default None)',
        "- mode: str (keyword_only; default 'x')",
        '- opaque: Any (keyword_only; default omitted)',
        '- kw: Any (var_keyword; variadic)',
        '',
        'Returns: Tool | tuple[Tool, ...]',
        'Sandbox sequences are list-like, not Python tuples; use len(), indexing or iteration.',
        '',
        'Model schemas:',
        'Tool — A tool summary.',
        '- name: str',
        '- commands: tuple[Command, ...]',
        '',
        'Command — One command.',
        '- verb: str',
        '- retries: int — Retries after the first attempt.',
      ].join('\n'),
    );
    assert.equal((doc.match(/- verb: str/g) ?? []).length, 1);
  });

  it('says default omitted in C1/C2 for non-None defaults', () => {
    const doc = symbols(HEADER + 'def f(a, b=None, c=3):\n    """Doc."""\n\ns = vis.Symbol(f)\n' + G3_FOOTER, 'C2')[0].tools[0].doc;
    assert.ok(doc.includes('- a: Any (positional_or_keyword; required)\n- b: Any (positional_or_keyword; default None)\n- c: Any (positional_or_keyword; default omitted)'), doc);
  });

  it('shows opaque and unresolved types with their kind, and numbers same-named models', () => {
    const src = `from dataclasses import dataclass\nfrom typing import Annotated\nimport other\n@dataclass\nclass Item:\n    count: int\n@dataclass\nclass Pair:\n    left: Annotated[Item, "Current count."]\n    right: other.Item\ndef f(value: object, missing: Missing) -> Pair:\n    """Doc."""\n\ns = vis.Symbol(f)\n`;
    const doc = symbols(HEADER + src + G3_FOOTER)[0].tools[0].doc;
    assert.ok(doc.includes('- value: object (opaque) (positional_or_keyword; required)'), doc);
    assert.ok(doc.includes('- missing: Missing (unresolved) (positional_or_keyword; required)'), doc);
    assert.ok(doc.includes('- left: Item — Current count.'), doc);
    assert.ok(doc.includes('- right: Item (opaque)'), doc);
  });

  it('keeps the schema section within 2048 characters and points at the contract', () => {
    let classes = '@dataclass\nclass Detail:\n    units: Annotated[int, "Microseconds at source."]\n';
    let prev = 'Detail';
    for (let i = 0; i < 40; i++) {
      classes += `@dataclass\nclass Layer${i}:\n    child: ${prev}\n    sample_count: int\n    source: Annotated[str, "${'Source note. '.repeat(3)}"]\n`;
      prev = `Layer${i}`;
    }
    const src = `from dataclasses import dataclass\nfrom typing import Annotated\n${classes}def values() -> ${prev}:\n    """Doc."""\n\ns = vis.Symbol(values)\n`;
    const doc = symbols(HEADER + src + G3_FOOTER)[0].tools[0].doc;
    const schemas = doc.split('Model schemas:\n')[1];
    assert.ok(schemas.length <= 2048, String(schemas.length));
    assert.ok(doc.includes('values.contract'));
    assert.ok(doc.includes('2048'));
    assert.ok(!doc.includes('Microseconds at source.'));
  });
});
