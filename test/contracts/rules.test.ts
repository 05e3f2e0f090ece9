// SYM / MTH / SEQ rules: for each rule a failing fixture (exact message and range) and a passing one.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { analyzeText } from '../../server/src/analysis';
import { initParser } from '../../server/src/parse/parser';
import type { ContractFormat } from '../../server/src/contracts';

before(async () => {
  await initParser();
});

const HEAD = 'import blockether.vis.extension as vis\nfrom dataclasses import dataclass\n';
const FOOT = '\nvis.register_extension(vis.Extension(name="t", description="T", alias="t"))\n';
const G2FOOT = '\nvis.register(vis.Extension(name="t", description="T", alias="t"))\n';

function findings(body: string, rule: string, foot = FOOT, format: ContractFormat = 'C3') {
  const text = HEAD + body + foot;
  return analyzeText('file:///x/extension.py', text, {}, format)
    .findings.filter((f) => f.rule === rule)
    .map((f) => {
      const r = f.range;
      // Lines are counted from the body's first line (the header has 2).
      return `${r.start.line - 2}:${r.start.character}-${r.end.line - 2}:${r.end.character} ${f.message}`;
    });
}

const DOC = '    """Read it."""\n';
const ACT = ', activity=vis.Activity("generic")';

interface Case {
  rule: string;
  bad: string;
  expected: string[];
  good: string;
  foot?: string;
  format?: ContractFormat;
}

const cases: Case[] = [
  { rule: 'SYM-001', bad: `def f():\n${DOC}s = vis.Symbol(f, is_hidden=1${ACT})\n`, expected: ['2:28-2:29 vis.Symbol is_hidden must be a boolean'], good: `def f():\n${DOC}s = vis.Symbol(f, is_hidden=True${ACT})\n` },
  {
    rule: 'SYM-003',
    bad: `def f():\n${DOC}s = vis.Symbol(f, name="read-file"${ACT})\nl = vis.Symbol(lambda: 1${ACT})\n`,
    expected: ["2:23-2:34 vis.Symbol name must be a public Python identifier, got 'read-file'", "3:15-3:24 vis.Symbol name must be a public Python identifier, got '<lambda>'"],
    good: `def f():\n${DOC}s = vis.Symbol(f, name="read_file"${ACT})\n`,
  },
  {
    rule: 'SYM-004',
    bad: `def f():\n${DOC}s = vis.Symbol(f, tag="read"${ACT})\n`,
    expected: ["2:22-2:28 vis.Symbol tag must be one of observation, mutation, verification, external, got 'read'"],
    good: `def f():\n${DOC}s = vis.Symbol(f, tag="verification"${ACT})\n`,
  },
  {
    rule: 'SYM-004',
    bad: `def f():\n${DOC}s = vis.Symbol(f, "f", "read"${ACT})\n`,
    expected: ["2:23-2:29 vis.Symbol tag must be observation or mutation, got 'read'"],
    good: `def f():\n${DOC}s = vis.Symbol(f, "f", "mutation"${ACT})\n`,
    foot: G2FOOT,
  },
  {
    rule: 'SYM-005',
    bad: `def f():\n    pass\ndef g():\n    """   """\ns = vis.Symbol(f${ACT})\nt = vis.Symbol(g${ACT})\n`,
    expected: ['0:4-0:5 vis.Symbol: f needs a docstring - it becomes the model-facing doc()', '2:4-2:5 vis.Symbol: g needs a docstring - it becomes the model-facing doc()'],
    good: `def f():\n${DOC}s = vis.Symbol(f${ACT})\n`,
  },
  {
    rule: 'SYM-007',
    bad: `def f():\n${DOC}s = vis.Symbol(f, activity="generic")\n`,
    expected: ['2:27-2:36 activity must be a vis.Activity declaration'],
    good: `def f():\n${DOC}s = vis.Symbol(f, activity=None)\n`,
  },
  {
    rule: 'SYM-008',
    bad: `def f():\n${DOC}s = vis.Symbol(f)\n`,
    expected: ['2:4-2:14 vis.Symbol f has no activity=: declare vis.Activity(...) so the tool call is presented; without it only engine execution evidence is shown'],
    good: `def f():\n${DOC}s = vis.Symbol(f${ACT})\n`,
  },
  {
    rule: 'SYM-010',
    bad: `class T:\n    def read(self):\n    ${DOC}s = vis.Symbol(T(), name="t", tag="read")\n`,
    expected: ['3:34-3:40 vis.Symbol tag must be one of observation, mutation, verification, external'],
    good: `class T:\n    def read(self):\n    ${DOC}s = vis.Symbol(T(), name="t", tag="mutation")\n`,
  },
  {
    rule: 'SYM-011',
    bad: `class T:\n    def read(self):\n    ${DOC}s = vis.Symbol(T(), name="t"${ACT})\n`,
    expected: ['3:39-3:62 declare object Activity on each vis.method(), not its namespace'],
    good: `class T:\n    @vis.method(activity=vis.Activity())\n    def read(self):\n    ${DOC}s = vis.Symbol(T(), name="t")\n`,
  },
  {
    rule: 'SYM-012',
    bad: `class T:\n    def read(self):\n    ${DOC}s = vis.Symbol(T())\nu = vis.Symbol(T(), name="_t")\n`,
    expected: ['3:15-3:18 vis.Symbol(object, ...) requires name=<public Python identifier>', '4:25-4:29 vis.Symbol(object, ...) requires name=<public Python identifier>'],
    good: `class T:\n    def read(self):\n    ${DOC}s = vis.Symbol(T(), name="t")\n`,
  },
  {
    rule: 'SYM-013',
    bad:
      `class A:\n    limit = 3\n    def read(self):\n    ${DOC}    @property\n    def size(self):\n        return 1\n` +
      `class B:\n    @property\n    def size(self):\n        return 1\n    def read(self):\n    ${DOC}` +
      `class C:\n    def __init__(self):\n        self.count = 0\n    def read(self):\n    ${DOC}` +
      `a = vis.Symbol(A(), name="a")\nb = vis.Symbol(B(), name="b")\nc = vis.Symbol(C(), name="c")\n`,
    expected: [
      "1:4-1:13 vis.Symbol(object, ...): public attribute 'a.limit' has unsupported value of type int; expose callable methods, nest a capability object, or make the attribute private",
      "9:8-9:12 vis.Symbol(object, ...): public attribute 'b.size' has unsupported value of type property; expose callable methods, nest a capability object, or make the attribute private",
      "15:8-15:22 vis.Symbol(object, ...): public attribute 'c.count' has unsupported value of type int; expose callable methods, nest a capability object, or make the attribute private",
    ],
    good: `class T:\n    _limit = 3\n    def read(self):\n    ${DOC}    def __init__(self):\n        self._count = 0\ns = vis.Symbol(T(), name="store")\n`,
  },
  {
    rule: 'SYM-014',
    bad:
      `class Items:\n    def put(self):\n    ${DOC}class T:\n    def __init__(self):\n        self.items = Items()\n        self.alias = self.items\n        self.me = self\n` +
      `class U:\n    def __init__(self):\n        self.me = self\n    def put(self):\n    ${DOC}` +
      `s = vis.Symbol(T(), name="store")\nu = vis.Symbol(U(), name="u")\n`,
    expected: [
      "6:8-6:31 vis.Symbol(object, ...): public attribute 'store.alias' repeats the object already exposed at 'store.items'; cycles and repeated references are not supported",
      "10:8-10:22 vis.Symbol(object, ...): public attribute 'u.me' repeats the object already exposed at 'u'; cycles and repeated references are not supported",
    ],
    good: `class Items:\n    def put(self):\n    ${DOC}class T:\n    def __init__(self):\n        self.items = Items()\n        self.more = Items()\ns = vis.Symbol(T(), name="store")\n`,
  },
  {
    rule: 'SYM-015',
    bad: `class T:\n    def _hidden(self):\n    ${DOC}s = vis.Symbol(T(), name="store")\n`,
    expected: ['3:15-3:18 vis.Symbol(object, ...) requires at least one public method'],
    good: `class T:\n    def read(self):\n    ${DOC}s = vis.Symbol(T(), name="store")\n`,
  },
  {
    rule: 'SYM-016',
    bad: `class Items:\n    def read(self):\n        pass\nclass T:\n    def __init__(self):\n        self.items = Items()\ns = vis.Symbol(T(), name="store")\n`,
    expected: ['1:8-1:12 vis.Symbol: read needs a docstring - it becomes the model-facing doc()'],
    good: `class Items:\n    def read(self):\n    ${DOC}class T:\n    def __init__(self):\n        self.items = Items()\ns = vis.Symbol(T(), name="store")\n`,
  },
  {
    rule: 'SYM-017',
    bad: `def f():\n${DOC}def g():\n${DOC}vis.register_extension(vis.Extension(name="t", description="T", alias="t", symbols=[vis.Symbol(f${ACT}), vis.Symbol(g, name="f"${ACT})]))\n`,
    expected: ["4:133-4:190 Duplicate tool name 'f' in this Extension: another Symbol already exports it, and the SDK does not check it (which one the model gets is not defined)"],
    good: `def f():\n${DOC}def g():\n${DOC}vis.register_extension(vis.Extension(name="t", description="T", alias="t", symbols=[vis.Symbol(f${ACT}), vis.Symbol(g${ACT})]))\n`,
    foot: '',
  },
  {
    rule: 'SYM-018',
    bad: `class T:\n    class Entry:\n        """An entry."""\n    def read(self):\n    ${DOC}s = vis.Symbol(T(), name="store")\n`,
    expected: ["1:10-1:15 vis.Symbol(object, ...): public attribute 'store.Entry' is a class, so its constructor becomes a tool; make it private or move it out of the namespace if that is not meant"],
    good: `class T:\n    class _Entry:\n        """An entry."""\n    def read(self):\n    ${DOC}s = vis.Symbol(T(), name="store")\n`,
  },
  {
    rule: 'MTH-001',
    bad: `class T:\n    @vis.method(tag="write")\n    def put(self):\n    ${DOC}`,
    expected: ["1:20-1:27 vis.method tag must be one of observation, mutation, verification, external, got 'write'"],
    good: `class T:\n    @vis.method(tag="external")\n    def put(self):\n    ${DOC}`,
  },
  {
    rule: 'MTH-001',
    bad: `class T:\n    @vis.method(tag="write")\n    def put(self):\n    ${DOC}`,
    expected: ["1:20-1:27 vis.method tag must be observation or mutation, got 'write'"],
    good: `class T:\n    @vis.method(tag="mutation")\n    def put(self):\n    ${DOC}`,
    foot: G2FOOT,
  },
  {
    rule: 'MTH-002',
    bad: `class T:\n    @vis.method(activity={"presenter": "shell"})\n    def put(self):\n    ${DOC}`,
    expected: ['1:25-1:47 activity must be a vis.Activity declaration'],
    good: `class T:\n    @vis.method(activity=vis.Activity("shell"))\n    def put(self):\n    ${DOC}`,
  },
  {
    rule: 'MTH-003',
    bad: `class T:\n    @vis.method\n    @property\n    def size(self):\n    ${DOC}`,
    expected: ['1:4-1:15 vis.method(...) requires a callable method'],
    good: `class T:\n    @vis.method\n    @staticmethod\n    def size():\n    ${DOC}`,
  },
  {
    rule: 'MTH-004',
    bad: `def f():\n${DOC}def g():\n${DOC}m = vis.method(f, g)\nclass T:\n    @vis.method(level="x")\n    def put(self):\n    ${DOC}`,
    expected: ['4:18-4:19 method() takes from 0 to 1 positional arguments but 2 were given', "6:16-6:21 method() got an unexpected keyword argument 'level'"],
    good: `def f():\n${DOC}m = vis.method(f, tag="mutation")\n`,
  },
  {
    rule: 'SEQ-001',
    bad: `@vis.sequence("results")\n@dataclass\nclass P:\n    results: list\n@vis.sequence()\n@dataclass\nclass Q:\n    results: list\n`,
    expected: ['0:14-0:23 sequence() takes 0 positional arguments but 1 was given', "4:1-4:13 sequence() missing 1 required keyword-only argument: 'field'"],
    good: `@vis.sequence(field="results")\n@dataclass\nclass P:\n    results: list\n`,
  },
  {
    rule: 'SEQ-002',
    bad: `@vis.sequence(field="_results")\n@dataclass\nclass P:\n    _results: list\n`,
    expected: ['0:20-0:30 sequence field must be a public dataclass field name'],
    good: `@vis.sequence(field="results")\n@dataclass\nclass P:\n    results: list\n`,
  },
  {
    rule: 'SEQ-003',
    bad: `@dataclass\n@vis.sequence(field="results")\nclass P:\n    results: list\n@vis.sequence(field="results")\nclass Q:\n    results: list\n`,
    expected: ['1:0-1:30 sequence requires a dataclass type; apply it outside @dataclass', '4:0-4:30 sequence requires a dataclass type; apply it outside @dataclass'],
    good: `@dataclass\nclass Base:\n    results: list\n@vis.sequence(field="results")\nclass Sub(Base):\n    pass\n`,
  },
  {
    rule: 'SEQ-004',
    bad: `@vis.sequence(field="items")\n@dataclass\nclass P:\n    results: list\n`,
    expected: ["0:20-0:27 sequence field 'items' is not a dataclass field"],
    good: `@dataclass\nclass Base:\n    items: list\n@vis.sequence(field="items")\n@dataclass\nclass P(Base):\n    results: list\n`,
  },
];

describe('Symbol, method and sequence rules', () => {
  for (const c of cases) {
    const label = `${c.rule}${c.foot === G2FOOT ? ' (G2)' : ''}`;
    it(`${label} reports the SDK message where the mistake is written`, () => {
      assert.deepEqual(findings(c.bad, c.rule, c.foot ?? FOOT, c.format), c.expected);
    });
    it(`${label} stays silent on a valid declaration`, () => {
      assert.deepEqual(findings(c.good, c.rule, c.foot ?? FOOT, c.format), []);
    });
  }

  it('uses the T2 vocabulary for G3 files in the C1/C2 formats', () => {
    assert.deepEqual(findings(`def f():\n${DOC}s = vis.Symbol(f, tag="external"${ACT})\n`, 'SYM-004', FOOT, 'C2'), [
      "2:22-2:32 vis.Symbol tag must be observation or mutation, got 'external'",
    ]);
  });

  it('stays silent when the input is not statically known', () => {
    const body = `from .tools import search, Tools\nfrom helpers import TAG, Base\nclass Local(Base):\n    pass\ns = vis.Symbol(search, tag=TAG)\nt = vis.Symbol(Tools(), name="tools")\nu = vis.Symbol(Local(), name="local")\n`;
    const all = analyzeText('file:///x/extension.py', HEAD + body + FOOT).findings.filter((f) => f.rule.startsWith('SYM') && f.rule !== 'SYM-008');
    assert.deepEqual(all.map((f) => f.rule), []);
  });
});
