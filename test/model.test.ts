import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { analyzeText, Analyzer } from '../server/src/analysis';
import { registrations, resolve } from '../server/src/model/sdk';
import type { Model, Value } from '../server/src/model/types';
import { initParser } from '../server/src/parse/parser';
import { py } from './helpers/fixture';

before(async () => {
  await initParser();
});

const model = (text: string): Model => analyzeText('file:///x/ext.py', text).model;

/** A value as plain data, ranges and source text left out. */
function plain(v: Value): unknown {
  switch (v.kind) {
    case 'list':
    case 'tuple':
    case 'set':
      return { [v.kind]: v.items.map(plain) };
    case 'dict':
      return { dict: v.entries.map((e) => [plain(e.key), plain(e.value)]) };
    case 'str':
    case 'int':
    case 'float':
    case 'bool':
      return v.value;
    case 'none':
      return null;
    case 'call':
      return { call: v.call.qualified ?? v.call.callee };
    case 'function':
    case 'class':
      return { [v.kind]: v.name };
    case 'name':
      return { name: v.name };
    case 'comprehension':
      return { comprehension: v.of };
    default:
      return { [v.kind]: v.text };
  }
}

describe('declaration model: SDK imports and generation', () => {
  const cases: [string, string | undefined, string | undefined][] = [
    ['import vis\nvis.extension(name="a", description="b")\n', 'G1', 'vis.extension'],
    ['import os, vis\n', 'G1', undefined],
    ['import blockether.vis.extension as vis\nvis.register(vis.Extension(name="a", description="b"))\n', 'G2', 'blockether.vis.extension.register'],
    ['import blockether.vis.extension as vis\nvis.register_extension(vis.Extension(name="a", description="b"))\n', 'G3', 'blockether.vis.extension.register_extension'],
    ['from blockether.vis import extension as v\nv.register_extension(v.Extension(name="a", description="b"))\n', 'G3', 'blockether.vis.extension.register_extension'],
    ['from blockether.vis.extension import Extension as E, register as reg\nreg(E(name="a", description="b"))\n', 'G2', 'blockether.vis.extension.register'],
    ['import blockether.vis.extension\nblockether.vis.extension.register_extension(blockether.vis.extension.Extension(name="a", description="b"))\n', 'G3', 'blockether.vis.extension.register_extension'],
    ['import blockether.vis.extension as vis\n', 'G3', undefined],
    ['import os\nos.register(1)\n', undefined, undefined],
  ];
  for (const [text, generation, registration] of cases) {
    it(`${JSON.stringify(text.split('\n')[0])} → ${generation ?? 'not a Vis file'}`, () => {
      const m = model(text);
      assert.equal(m.generation, generation);
      assert.equal(registrations(m)[0]?.call.qualified, registration);
      assert.equal(m.generationAssumed, generation !== undefined && registration === undefined);
    });
  }

  it('reads registrations of an Extension assigned first and registered later', () => {
    const m = model('import blockether.vis.extension as vis\next = vis.Extension(name="a", description="b")\nvis.register_extension(ext)\n');
    const reg = registrations(m)[0];
    assert.deepEqual(plain(resolve(m, reg.call.args[0].value)), { call: 'blockether.vis.extension.Extension' });
  });
});

describe('declaration model: bindings under error recovery', () => {
  it('binds no name for a stray = left by a line break before it (a record field broken in two)', () => {
    const text = [
      'from __future__ import annotations',
      '',
      'from dataclasses import dataclass, field',
      'from typing import Annotated, Literal',
      '',
      'import blockether.vis.extension as vis',
      '',
      'ALIAS = "bench"',
      '',
      '@dataclass(frozen=True)',
      'class Result0:',
      '    """Result of tool 0."""',
      '',
      '@dataclass(frozen=True)',
      'class Result67:',
      '    """Result of tool 67."""',
      '    value: Annotated[int, "The computed value 67."]',
      '    labels: list[str] ',
      '= field(default_factory=list)',
      '',
    ].join('\n');
    const a = analyzeText('file:///x/ext.py', text);
    assert.deepEqual([...a.model.bindings.keys()].sort(), ['ALIAS', 'Annotated', 'Literal', 'Result0', 'Result67', 'dataclass', 'field', 'vis']);
    assert.deepEqual(a.findings.map((f) => [f.rule, f.message, f.range.start.line, f.range.start.character]), [['SYN-002', 'invalid syntax', 18, 0]]);
  });

  it('reads a field whose subscript goes on at column 0 as Python does (tree-sitter-python would end the class there)', () => {
    for (const eol of ['\n', '\r\n']) {
      const text = ['from dataclasses import dataclass, field', '', '@dataclass', 'class Note:', '    labels: list[', '', 'str] = field(default_factory=list)', '    title: str', '', 'def f(x: str) -> Note:', '    return Note(title=x)', ''].join(eol);
      const m = model(text);
      assert.deepEqual([...m.bindings.keys()], ['dataclass', 'field', 'Note', 'f']);
      const note = m.classes.find((c) => c.name === 'Note')!;
      assert.deepEqual(note.range, { start: { line: 2, character: 0 }, end: { line: 7, character: 14 } });
      assert.deepEqual(note.fields.map((f) => [f.name, f.annotation, f.default ?? null, f.range.start.line]), [
        ['labels', 'list[\n\nstr]'.replaceAll('\n', eol), 'field(default_factory=list)', 4],
        ['title', 'str', null, 7],
      ]);
      assert.deepEqual(m.functions.map((f) => [f.name, f.range.start.line]), [['f', 9]]);
    }
    // A comment between: the line breaks cannot be left out (the comment would run on), and nothing is read wrongly as a finding.
    const commented = analyzeText('file:///x/ext.py', 'class Note:\n    labels: list[  # names\nstr] = []\n');
    assert.deepEqual(commented.findings, []);
  });
});

describe('declaration model: static values', () => {
  const text = py`
    import os
    import blockether.vis.extension as vis

    NAME = "gre" "eter"
    ALIAS = NAME
    TWICE = 1
    TWICE = 2
    ENV = ("A", "B")
    NUMS = [0x10, -2.5, 1_000, True, None]
    RAW = r"\d+\n"
    ESC = "tab\there\x41\u00e9"
    FMT = f"{NAME}!"
    PLAIN_F = f"no fields {{x}}"
    MAP = {"k": [1, 2]}
    GEN = (x for x in ENV)

    def tool():
        """Doc."""

    class Thing:
        pass

    vis.Extension(name=ALIAS, description=os.environ["D"], alias=TWICE, env=ENV, symbols=[vis.Symbol(tool)], prompt=lambda env: "x", ctx=Thing, kind=GEN)
  `;
  let m: Model;
  const arg = (name: string) => {
    const call = m.calls.find((c) => c.callee === 'vis.Extension')!;
    return plain(resolve(m, call.args.find((a) => a.name === name)!.value));
  };
  before(() => {
    m = model(text);
  });

  it('follows names bound once at module level, and only those', () => {
    assert.equal(arg('name'), 'greeter');
    assert.deepEqual(arg('alias'), { name: 'TWICE' });
    assert.deepEqual(arg('description'), { unknown: 'os.environ["D"]' });
    assert.deepEqual(arg('env'), { tuple: ['A', 'B'] });
  });

  it('knows functions, lambdas, classes, calls and comprehensions', () => {
    assert.deepEqual(arg('symbols'), { list: [{ call: 'blockether.vis.extension.Symbol' }] });
    assert.deepEqual(arg('prompt'), { lambda: 'lambda env: "x"' });
    assert.deepEqual(arg('ctx'), { class: 'Thing' });
    assert.deepEqual(arg('kind'), { comprehension: 'generator' });
  });

  it('evaluates literals as Python does', () => {
    const v = (name: string) => {
      const b = m.bindings.get(name)![0];
      return b.kind === 'assign' ? plain(b.value) : undefined;
    };
    assert.deepEqual(v('NUMS'), { list: [16, -2.5, 1000, true, null] });
    assert.equal(v('RAW'), '\\d+\\n');
    assert.equal(v('ESC'), 'tab\there' + 'A' + 'é');
    assert.deepEqual(v('FMT'), { unknown: 'f"{NAME}!"' });
    assert.equal(v('PLAIN_F'), 'no fields {x}');
    assert.deepEqual(v('MAP'), { dict: [['k', { list: [1, 2] }]] });
  });
});

describe('declaration model: functions, classes, dataclasses, future import, PEP 723', () => {
  const text = py`
    # /// script
    # dependencies = ["httpx"]
    # [tool.vis]
    # source_paths = ["src"]
    # ///
    from __future__ import annotations
    from dataclasses import dataclass, field
    import blockether.vis.extension as vis

    @dataclass(frozen=True)
    class Reading:
        """A reading."""
        elapsed_s: float | None
        labels: list[str] = field(default_factory=list)
        UNIT = "s"

    class Tools(Base):
        def __init__(self):
            self.items = Items()

        @vis.method(tag="mutation")
        async def put(self, *, value: str) -> bool:
            '''Store a value.'''

    @vis.sequence(field="results")
    @dataclass
    class Page:
        results: tuple[Reading, ...]

    def measure(target: str, /, *labels: str, timeout_s: float | None = None, flag=True, **options: bool) -> Reading:
        """Measure one target."""
  `;
  let m: Model;
  before(() => {
    m = model(text);
  });

  it('reads parameters with their kinds, annotations and defaults', () => {
    const fn = m.functions.find((f) => f.name === 'measure')!;
    assert.deepEqual(
      fn.params.map((p) => [p.name, p.kind, p.annotation ?? null, p.default ?? null]),
      [
        ['target', 'positional_only', 'str', null],
        ['labels', 'var_positional', 'str', null],
        ['timeout_s', 'keyword_only', 'float | None', 'None'],
        ['flag', 'keyword_only', null, 'True'],
        ['options', 'var_keyword', 'bool', null],
      ],
    );
    assert.equal(fn.returns, 'Reading');
    assert.equal(fn.docstring, 'Measure one target.');
    assert.equal(fn.isAsync, false);
  });

  it('places parameters and class fields, read on first use, at their document positions', () => {
    const fn = m.functions.find((f) => f.name === 'measure')!;
    const timeout = fn.params.find((p) => p.name === 'timeout_s')!;
    assert.equal(text.split('\n').findIndex((l) => l.startsWith('def measure(')), 29);
    const line = 'def measure(target: str, /, *labels: str, timeout_s: float | None = None, flag=True, **options: bool) -> Reading:';
    assert.deepEqual(timeout.annotationRange, { start: { line: 29, character: line.indexOf('float') }, end: { line: 29, character: line.indexOf(' = None') } });
    assert.deepEqual(timeout.defaultValue?.range, { start: { line: 29, character: line.indexOf('None =') + 7 }, end: { line: 29, character: line.indexOf('None, flag') + 4 } });
    const labels = m.classes.find((c) => c.name === 'Reading')!.fields.find((f) => f.name === 'labels')!;
    const row = text.split('\n').indexOf('    labels: list[str] = field(default_factory=list)');
    assert.equal(row, 13);
    assert.deepEqual(labels.range, { start: { line: 13, character: 4 }, end: { line: 13, character: 51 } });
    assert.deepEqual(labels.defaultValue?.range, { start: { line: 13, character: 24 }, end: { line: 13, character: 51 } });
  });

  it('reads classes: decorators, bases, fields, attributes, methods and __init__ assignments', () => {
    const reading = m.classes.find((c) => c.name === 'Reading')!;
    assert.deepEqual(reading.decorators.map((d) => [d.name, d.qualified]), [['dataclass', 'dataclasses.dataclass']]);
    assert.deepEqual(reading.decorators[0].call?.args.map((a) => [a.name, a.value.text]), [['frozen', 'True']]);
    assert.deepEqual(reading.fields.map((f) => [f.name, f.annotation, f.default ?? null]), [
      ['elapsed_s', 'float | None', null],
      ['labels', 'list[str]', 'field(default_factory=list)'],
    ]);
    assert.deepEqual(reading.attributes.map((a) => a.name), ['UNIT']);
    assert.equal(reading.docstring, 'A reading.');
    const tools = m.classes.find((c) => c.name === 'Tools')!;
    assert.deepEqual(tools.bases, ['Base']);
    assert.deepEqual(tools.selfAssignments.map((a) => [a.name, plain(a.value)]), [['items', { call: 'Items' }]]);
    const put = tools.methods.find((f) => f.name === 'put')!;
    assert.equal(put.isAsync, true);
    assert.equal(put.docstring, 'Store a value.');
    assert.deepEqual(put.decorators.map((d) => d.qualified), ['blockether.vis.extension.method']);
    const page = m.classes.find((c) => c.name === 'Page')!;
    assert.deepEqual(page.decorators.map((d) => d.qualified), ['blockether.vis.extension.sequence', 'dataclasses.dataclass']);
  });

  it('knows the future import and the PEP 723 block', () => {
    assert.equal(m.futureAnnotations, true);
    assert.deepEqual(m.script?.content, 'dependencies = ["httpx"]\n[tool.vis]\nsource_paths = ["src"]');
    assert.deepEqual(m.script?.range, { start: { line: 0, character: 0 }, end: { line: 4, character: 5 } });
  });
});

describe('declaration model: docstrings', () => {
  it('takes a first statement that is a string literal and nothing more, after comments', () => {
    const m = model(
      py`
        def plain():
            # a comment first
            r'''Raw \n text.'''

        def joined():
            "Two " 'parts.'

        def expression():
            "not" + "a docstring"

        def method_call():
            "not".join([])

        def code_first():
            x = 1
            "too late"

        def none():
            pass
      `,
    );
    assert.deepEqual(
      m.functions.map((f) => [f.name, f.docstring ?? null]),
      [
        ['plain', 'Raw \\n text.'],
        ['joined', 'Two parts.'],
        ['expression', null],
        ['method_call', null],
        ['code_first', null],
        ['none', null],
      ],
    );
  });

  it('reads a literal whose quotes are escaped inside it whole, and no bytes literal, in functions and classes alike', () => {
    const bodies = [
      String.raw`"""Says \"""hi\""" twice."""`,
      String.raw`r'It\'s raw.'`,
      `b"Bytes are no docstring."`,
      `"Ends the statement."; x = 1`,
      `"Has a comment after it."  # why`,
      `"One" "line."`,
      `"Not".upper()`,
    ];
    const text = bodies.map((b, i) => `def f${i}():\n    ${b}\n\n\nclass C${i}:\n    ${b}\n    y = 1\n\n\n`).join('');
    const m = model(text);
    const expected = ['Says """hi""" twice.', "It\\'s raw.", null, 'Ends the statement.', 'Has a comment after it.', 'Oneline.', null];
    assert.deepEqual(m.functions.map((f) => f.docstring ?? null), expected);
    assert.deepEqual(m.classes.map((c) => c.docstring ?? null), expected);
  });
});

describe('declaration model: definition headers', () => {
  it('reads names, parameters, return types and bases around type parameters', () => {
    const m = model(
      py`
        def first[T](x: T, /) -> list[T]:
            """First."""

        def plain(a, b=2):
            pass

        def typed() -> int: return 1

        class Box[T](Base, metaclass=Meta):
            """A box."""

        class Bare:
            pass
      `,
    );
    assert.deepEqual(
      m.functions.map((f) => [f.name, f.params.map((p) => `${p.name}:${p.kind}`).join(','), f.returns ?? null, f.docstring ?? null]),
      [
        ['first', 'x:positional_only', 'list[T]', 'First.'],
        ['plain', 'a:positional_or_keyword,b:positional_or_keyword', null, null],
        ['typed', '', 'int', null],
      ],
    );
    assert.deepEqual(
      m.classes.map((c) => [c.name, c.bases, c.docstring ?? null]),
      [
        ['Box', ['Base'], 'A box.'],
        ['Bare', [], null],
      ],
    );
  });
});

describe('declaration model: typing through an unclosed call', () => {
  const complete = py`
    import blockether.vis.extension as vis

    def greet(name: str) -> str:
        """Greet one person by name."""
        return f"hi {name}"

    BAD = vis.Extension(name="", description="d")

    vis.register_extension(vis.Extension(name="greeter", description="Greeting tools.", alias="greet", symbols=[vis.Symbol(greet)]))

    def after(x: int) -> int:
        """Runs after."""
        return x
  `;
  it('keeps the functions and diagnostics after the break at every keystroke', () => {
    const analyzer = new Analyzer();
    const base = analyzer.analyze('file:///x/ext.py', 1, complete);
    // The half-typed line is a syntax error (SYN-002, on that line only); the declarations' own findings stay.
    const shown = (a: typeof base) => a.findings.filter((f) => f.severity === 'error' && f.rule !== 'SYN-002').map((f) => `${f.rule}@${f.range.start.line}`);
    const syntax = (a: typeof base) => [...new Set(a.findings.filter((f) => f.rule === 'SYN-002').map((f) => f.range.start.line))];
    const baseline = shown(base);
    assert.deepEqual(baseline, ['EXT-003@6']);
    // Type a new call at the top level, one character at a time, before the later declarations.
    const insertAt = complete.indexOf('BAD =');
    const typed = 'x = vis.Symbol(greet, name="hel';
    let version = 2;
    for (let i = 1; i <= typed.length; i++) {
      const text = complete.slice(0, insertAt) + typed.slice(0, i) + '\n' + complete.slice(insertAt);
      const a = analyzer.analyze('file:///x/ext.py', version++, text);
      assert.deepEqual(
        a.model.functions.map((f) => f.name),
        ['greet', 'after'],
        `functions lost after typing ${JSON.stringify(typed.slice(0, i))}`,
      );
      assert.deepEqual(
        shown(a),
        ['EXT-003@7'],
        `diagnostics changed after typing ${JSON.stringify(typed.slice(0, i))}`,
      );
      // Some prefixes are whole statements (`x = vis`), the others are broken on their own line only.
      const prefix = typed.slice(0, i);
      assert.deepEqual(syntax(a), /^x ?$|^x = vis(\.Symbol)?$|^x = v(i)?$|^x = vis\.S\w*$/.test(prefix) ? [] : [6], `syntax errors after typing ${JSON.stringify(prefix)}`);
    }
  });
});
