import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { initParser } from '../server/src/parse/parser';
import { allRules } from '../server/src/rules';
import { findings, findingsOf, fixture, py } from './helpers/fixture';

before(async () => {
  await initParser();
});

const G3 = 'import blockether.vis.extension as vis\n\n';
const G2 = 'import blockether.vis.extension as vis\n\n';
const TOOL = 'def greet(name: str) -> str:\n    """Greet one person by name."""\n    return f"hi {name}"\n\n';

interface Case {
  rule: string;
  /** A file with `[|...|]` around each expected finding, in order. */
  bad: string;
  messages: string[];
  /** A file where the rule finds nothing. */
  good: string;
  uri?: string;
}

const cases: Case[] = [
  {
    rule: 'EXT-001',
    bad: G3 + 'vis.register_extension(vis.Extension([|"greeter", "Greets"|]))\n',
    messages: ['Extension.__init__() takes 1 positional argument but 3 were given'],
    good: G3 + 'vis.register_extension(vis.Extension(name="greeter", description="Greets"))\n',
  },
  {
    rule: 'EXT-002',
    bad: G3 + 'vis.register_extension([|vis.Extension|](name="greeter"))\nx = [|vis.Extension|]()\n',
    messages: [
      "Extension.__init__() missing 1 required keyword-only argument: 'description'",
      "Extension.__init__() missing 2 required keyword-only arguments: 'name' and 'description'",
    ],
    good: G3 + 'opts = {}\nvis.register_extension(vis.Extension(name="g", **opts))\n',
  },
  {
    rule: 'EXT-003',
    bad: G3 + 'NAME = "  "\nvis.register_extension(vis.Extension(name=[|NAME|], description="d"))\nvis.Extension(name=[|3|], description="d")\n',
    messages: ['vis.Extension requires name=<non-empty string>', 'vis.Extension requires name=<non-empty string>'],
    good: G3 + 'import os\nvis.register_extension(vis.Extension(name=os.environ["N"], description="d"))\nvis.Extension(name=os.environ.get("N", "x"), description=str(1))\n',
  },
  {
    rule: 'EXT-004',
    bad: G3 + 'vis.register_extension(vis.Extension(name="n", description=[|"\\t\\n"|]))\n',
    messages: ['vis.Extension requires description=<non-empty string>'],
    good: G3 + 'vis.register_extension(vis.Extension(name="n", description="Does things."))\n',
  },
  {
    rule: 'EXT-005',
    bad: G3 + TOOL + 'vis.register_extension([|vis.Extension|](name="greeter", description="d", symbols=[vis.Symbol(greet)]))\nvis.Extension(name="g", description="d", alias=[|"  "|], symbols=[vis.Symbol(greet)])\n',
    messages: ['vis.Extension requires alias=<string> when symbols are declared', 'vis.Extension requires alias=<string> when symbols are declared'],
    good: G3 + TOOL + 'vis.register_extension(vis.Extension(name="greeter", description="d", alias="greet", symbols=[vis.Symbol(greet)]))\nvis.Extension(name="g", description="d", symbols=[])\n',
  },
  {
    rule: 'EXT-006',
    bad: G3 + 'vis.register_extension(vis.Extension(name="n", description="d", version=[|1.0|], kind=["python"]))\nvis.Extension(name="m", description="d", kind=[|["python"]|])\n',
    messages: ['vis.Extension version must be a string', 'vis.Extension kind must be a string'],
    good: G3 + 'vis.register_extension(vis.Extension(name="n", description="d", version="1.0", kind=None))\n',
  },
  {
    rule: 'EXT-007',
    bad: G3 + 'vis.register_extension(vis.Extension(name="n", description="d", ctx=[|{"a": 1}|], activation=True))\nvis.Extension(name="m", description="d", activation=[|True|])\n',
    messages: ['vis.Extension ctx must be a callable', 'vis.Extension activation must be a callable'],
    good: G3 + 'def ctx(env):\n    """c"""\n    return {}\n\nvis.register_extension(vis.Extension(name="n", description="d", ctx=ctx, activation=lambda env: True))\n',
  },
  {
    rule: 'EXT-008',
    bad: G3 + 'vis.register_extension(vis.Extension(name="n", description="d", prompt=[|["be nice"]|]))\n',
    messages: ['vis.Extension prompt must be text or a callable'],
    good: G3 + 'def prompt(env):\n    return "x"\n\nvis.register_extension(vis.Extension(name="n", description="d", prompt=prompt))\nvis.Extension(name="m", description="d", prompt="Be brief.")\n',
  },
  {
    rule: 'EXT-009',
    bad:
      G3 +
      TOOL +
      'vis.register_extension(vis.Extension(name="n", description="d", alias="n",\n' +
      '    symbols=[vis.Symbol(greet), [|greet|], {"marker": "symbol"}],\n' +
      '    slash_commands=vis.SlashCommand("x", greet),\n' +
      '))\n' +
      'vis.Extension(name="a", description="d", alias="a", symbols=[vis.Symbol(greet), [|{"marker": "symbol"}|]])\n' +
      'vis.Extension(name="b", description="d", slash_commands=[|vis.SlashCommand("x", greet)|])\n' +
      'vis.Extension(name="c", description="d", op_hooks=[|(h for h in [])|])\n',
    messages: [
      'vis.Extension symbols must contain Symbol declarations',
      'vis.Extension symbols must contain Symbol declarations',
      'vis.Extension slash_commands must contain SlashCommand declarations',
      'vis.Extension op_hooks must contain OpHook declarations',
    ],
    good:
      G3 +
      TOOL +
      'from .tools import more, make_symbols\nS = vis.Symbol(greet)\n' +
      'vis.register_extension(vis.Extension(name="n", description="d", alias="n", symbols=[S, *more], op_hooks=(vis.OpHook(["patch"], greet),)))\n' +
      'vis.Extension(name="m", description="d", alias="m", symbols=make_symbols(), slash_commands=[vis.SlashCommand(n, greet) for n in "ab"])\n',
  },
  {
    rule: 'EXT-010',
    bad: G3 + 'vis.register_extension(vis.Extension(name="n", description="d", env=[|"API_KEY"|]))\n',
    messages: ['vis.Extension env must be a list or tuple of environment variable names'],
    good: G3 + 'vis.register_extension(vis.Extension(name="n", description="d", env=("API_KEY",)))\n',
  },
  {
    rule: 'EXT-011',
    bad: G3 + 'vis.register_extension(vis.Extension(name="n", description="d", env=["OK_1", [|"1ST"|], "A-B"]))\nvis.Extension(name="a", description="d", env=[[|"A-B"|]])\nvis.Extension(name="b", description="d", env=[[|""|]])\nvis.Extension(name="c", description="d", env=("X", [|7|]))\n',
    messages: [
      'vis.Extension env entries must be environment variable names',
      'vis.Extension env entries must be environment variable names',
      'vis.Extension env entries must be environment variable names',
      'vis.Extension env entries must be environment variable names',
    ],
    good: G3 + 'vis.register_extension(vis.Extension(name="n", description="d", env=["API_KEY", "_X", "ÉTÉ"]))\n',
  },
  {
    rule: 'EXT-012',
    bad: G3 + 'vis.register_extension(vis.Extension(name="n", description="d", [|symbol|]=[]))\n',
    messages: ["Extension.__init__() got an unexpected keyword argument 'symbol'"],
    good: G3 + 'vis.register_extension(vis.Extension(name="n", description="d", settings=[], language_tools=[]))\n',
  },
  {
    rule: 'REG-001',
    bad: G3 + 'vis.register_extension([|{"name": "n"}|])\n',
    messages: ['vis.register_extension requires an Extension declaration'],
    good: G3 + 'from .build import make\nvis.register_extension(make())\n',
  },
  {
    rule: 'REG-001',
    bad: G2 + 'vis.register([|"greeter"|])\n',
    messages: ['vis.register requires an Extension declaration'],
    good: G2 + 'EXT = vis.Extension(name="n", description="d")\nvis.register(EXT)\n',
  },
  {
    rule: 'REG-002',
    bad: G3 + 'vis.register_extension(vis.Extension(name="first", description="d"))\n[|vis.register_extension(vis.Extension(name="second", description="d"))|]\n',
    messages: [
      "vis.register_extension() may only be called once per file; extension 'first' is already registered. Keep a single registration in the entrypoint. If this happened during an import, the entrypoint may be shadowing a package or module with the same name. Rename the entrypoint (e.g. demo.py -> demo_bridge.py); the public alias can stay unchanged.",
    ],
    good: G3 + 'vis.register_extension(vis.Extension(name="first", description="d"))\n',
  },
  {
    rule: 'REG-002',
    bad: G2 + 'ext = vis.Extension(name="first", description="d")\nvis.register(ext)\n[|vis.register(ext)|]\n',
    messages: [
      "vis.register() may only be called once per file; extension 'first' is already registered. Keep a single registration in the entrypoint. If this happened during an import, the entrypoint may be shadowing a package or module with the same name. Rename the entrypoint (e.g. demo.py -> demo_bridge.py); the public alias can stay unchanged.",
    ],
    good: G2 + 'ext = vis.Extension(name="first", description="d")\nvis.register(ext)\n',
  },
  {
    rule: 'REG-003',
    bad: G3 + 'vis.register_extension(vis.Extension(name="n", description="d", symbols=[[|vis.symbol|](print)]))\n[|vis.register|](vis.Extension(name="m", description="d"))\n',
    messages: ["module 'blockether.vis.extension' has no attribute 'symbol'", "module 'blockether.vis.extension' has no attribute 'register'"],
    good: G3 + 'vis.register_extension(vis.Extension(name="n", description="d"))\n',
  },
  {
    rule: 'REG-003',
    bad: 'from blockether.vis.extension import Extension, register, register_extension\n\nregister(Extension(name="n", description="d"))\n[|register_extension|](Extension(name="m", description="d"))\n',
    messages: ["cannot import name 'register_extension' from 'blockether.vis.extension'"],
    good: 'from blockether.vis.extension import Extension, register\n\nregister(Extension(name="n", description="d"))\n',
  },
  {
    rule: 'REG-005',
    bad: '[|import blockether.vis.extension as vis|]\n\next = vis.Extension(name="n", description="d")\n',
    messages: ['/work/ext/tool.py never called vis.register_extension(vis.Extension(...))'],
    good: 'import blockether.vis.extension as vis\n\nclass Items:\n    """Helper module: defines tools for an entry file, registers nothing."""\n',
  },
  {
    rule: 'REG-005',
    bad: '[|import vis|]\n',
    messages: ['/work/.vis/extensions/counter.py never called vis.extension(...)'],
    good: 'import vis\n\nvis.extension(name="counter", description="Counts.")\n',
    uri: 'file:///work/.vis/extensions/counter.py',
  },
  {
    rule: 'IMP-001',
    bad: G3 + '[|import vis|]\nvis.register_extension(vis.Extension(name="n", description="d"))\n',
    messages: [
      'import vis is the G1 SDK; this file uses the typed SDK (blockether.vis.extension), which leaves the top-level vis module alone. Remove import vis.',
    ],
    good: 'try:\n    import blockether.vis.extension as vis\nexcept ImportError:\n    import vis\n',
  },
  {
    rule: 'G1-EXT-1',
    bad: 'import vis\n\nvis.extension(name="a", description="d")\n[|vis.extension(name="b", description="d")|]\n',
    messages: ['vis.extension() may only be called once per file'],
    good: 'import vis\n\nvis.extension(name="a", description="d")\n',
  },
  {
    rule: 'G1-EXT-2',
    bad: 'import vis\n\nvis.extension(name=[|""|], description="d")\n',
    messages: ['vis.extension(...) requires name=<non-empty string>'],
    good: 'import vis\n\nvis.extension("   ", "d")\n',
  },
  {
    rule: 'G1-EXT-3',
    bad: 'import vis\n\n[|vis.extension|](name="a")\n',
    messages: ['vis.extension(...) requires description=<non-empty string>'],
    good: 'import vis\n\nvis.extension("a", "Counts things.")\n',
  },
  {
    rule: 'G1-EXT-4',
    bad: 'import vis\n\n' + TOOL + 'vis.extension(name="a", description="d", symbols=[|[vis.symbol(greet)]|])\n',
    messages: ['vis.extension(...) requires alias=<string> when symbols= is declared'],
    good: 'import vis\n\n' + TOOL + 'vis.extension(name="a", description="d", alias="a", symbols=[vis.symbol(greet)])\n',
  },
  {
    rule: 'G1-EXT-5',
    bad: 'import vis\n\nvis.extension(name="a", description="d", ctx=[|"session"|])\n',
    messages: ['vis.extension(...) ctx= must be a callable (env) -> dict of session contributions'],
    good: 'import vis\n\nvis.extension(name="a", description="d", ctx=lambda env: {"a": 1})\n',
  },
  {
    rule: 'G1-EXT-6',
    bad: 'import vis\n\nvis.extension(name="a", description="d", env=[|"API_KEY"|])\n',
    messages: ['vis.extension(...) env= must be a list of environment variable names'],
    good: 'import vis\n\nvis.extension(name="a", description="d", env=None)\n',
  },
  {
    rule: 'G1-EXT-7',
    bad: 'import vis\n\nvis.extension(name="a", description="d", env=["OK", [|"X-Y"|], 1])\n',
    messages: [
      "vis.extension(...) env= entries must be environment variable names, got 'X-Y'",
    ],
    good: 'import vis\n\nvis.extension(name="a", description="d", env=["OK", True, None])\n',
  },
  {
    rule: 'G1-EXT-8',
    bad: 'import vis\n\nvis.extension(name="a", description="d", [|settings|]=[])\n',
    messages: ["extension() got an unexpected keyword argument 'settings'"],
    good: 'import vis\n\nvis.extension(name="a", description="d", network_filters=[])\n',
  },
  {
    rule: 'G1-SYM-1',
    bad: 'import vis\n\nvis.extension(name="a", description="d", alias="a", symbols=[vis.symbol([|"greet"|])])\n',
    messages: ['vis.symbol(fn, ...) requires a callable'],
    good: 'import vis\n\n' + TOOL + 'vis.extension(name="a", description="d", alias="a", symbols=[vis.symbol(greet)])\n',
  },
  {
    rule: 'G1-SYM-2',
    bad: 'import vis\n\n' + TOOL + 'vis.extension(name="a", description="d", alias="a", symbols=[vis.symbol(greet, tag=[|"read"|])])\n',
    messages: ["vis.symbol tag must be observation or mutation, got 'read'"],
    good: 'import vis\n\n' + TOOL + 'vis.extension(name="a", description="d", alias="a", symbols=[vis.symbol(greet, None, "mutation")])\n',
  },
  {
    rule: 'G1-SYM-3',
    bad: 'import vis\n\ndef [|bump|](n):\n    return n + 1\n\nvis.extension(name="a", description="d", alias="a", symbols=[vis.symbol(bump), vis.symbol([|lambda: 1|])])\n',
    messages: ['vis.symbol: bump needs a docstring - it becomes the model-facing doc()', 'vis.symbol: <lambda> needs a docstring - it becomes the model-facing doc()'],
    good: 'import vis\n\n' + TOOL + 'vis.extension(name="a", description="d", alias="a", symbols=[vis.symbol(greet)])\n',
  },
  {
    rule: 'G1-SYM-4',
    bad: 'import vis\n\n' + TOOL + 'vis.extension(name="a", description="d", alias="a", symbols=[vis.symbol(greet, [|schema|]={})])\n',
    messages: ["symbol() got an unexpected keyword argument 'schema'"],
    good: 'import vis\n\n' + TOOL + 'vis.extension(name="a", description="d", alias="a", symbols=[vis.symbol(greet, name="hello", is_hidden=True)])\n',
  },
  {
    rule: 'SLH-001',
    bad: G3 + TOOL + 'vis.SlashCommand([|"  "|], greet)\nvis.SlashCommand(name=[|None|], run=greet)\n',
    messages: ['vis.SlashCommand requires name=<non-empty string>', 'vis.SlashCommand requires name=<non-empty string>'],
    good: G3 + TOOL + 'vis.SlashCommand("greet", greet, doc="Greet.", usage="/greet NAME")\n',
  },
  {
    rule: 'SLH-002',
    bad: G3 + 'vis.SlashCommand("greet", [|"greet"|])\n',
    messages: ['vis.SlashCommand requires a callable run'],
    good: G3 + 'vis.SlashCommand("greet", lambda ctx: "hi")\n',
  },
  {
    rule: 'SLH-003',
    bad: G3 + TOOL + 'vis.SlashCommand("greet", greet, doc=[|["Greet."]|], usage=3)\nvis.SlashCommand("greet", greet, usage=[|3|])\n',
    messages: ['vis.SlashCommand doc must be text', 'vis.SlashCommand usage must be text'],
    good: G3 + TOOL + 'vis.SlashCommand("greet", greet, None, "/greet")\n',
  },
  {
    rule: 'HOOK-001',
    bad: G3 + TOOL + 'vis.OpHook(["patch"], greet, phase=[|"during"|])\n',
    messages: ['vis.OpHook phase must be before or after'],
    good: G3 + TOOL + 'vis.OpHook(["patch"], greet, "after")\n',
  },
  {
    rule: 'HOOK-002',
    bad: G3 + 'vis.OpHook(["patch"], [|None|])\n',
    messages: ['vis.OpHook requires a callable fn'],
    good: G3 + TOOL + 'vis.OpHook(["patch"], greet)\n',
  },
  {
    rule: 'HOOK-003',
    bad: G3 + TOOL + 'vis.OpHook([|"patch"|], greet)\nvis.OpHook([|[]|], greet)\nvis.OpHook([|["patch", " "]|], greet)\n',
    messages: ['vis.OpHook requires a non-empty ops list', 'vis.OpHook requires a non-empty ops list', 'vis.OpHook requires a non-empty ops list'],
    good: G3 + TOOL + 'vis.OpHook(("patch", "shell"), greet)\nvis.OpHook([op for op in OPS], greet)\n',
  },
  {
    rule: 'HOOK-004',
    bad: G3 + TOOL + 'vis.OpHook([|["fs_access", "patch"]|], greet)\n',
    messages: ['vis.OpHook: a gate cannot share a hook with ordinary operations'],
    good: G3 + TOOL + 'vis.OpHook(["fs_access"], greet)\n',
  },
  {
    rule: 'HOOK-005',
    bad: G3 + TOOL + 'vis.OpHook(["fs_access"], greet, phase=[|"after"|])\n',
    messages: ['vis.OpHook: a gate is asked before the operation runs'],
    good: G3 + TOOL + 'vis.OpHook(["fs_access"], greet, phase="before")\n',
  },
  {
    rule: 'HOOK-006',
    bad: G3 + TOOL + 'vis.OpHook(["patch", [|"pach"|]], greet)\n',
    messages: ["unknown op 'pach': Vis finds hooks by op name, so this hook never fires; documented ops are patch, shell, python_execution, draft/create, draft/approve, draft/discard, git/commit, fs_access"],
    good: G3 + TOOL + 'vis.OpHook(["patch", "git/commit", "grep"], greet)\n',
  },
  {
    rule: 'NF-001',
    bad: G3 + 'vis.NetworkFilter([|{"host": "x"}|])\n',
    messages: ['vis.NetworkFilter requires a callable'],
    good: G3 + TOOL + 'vis.NetworkFilter(greet)\n',
  },
  {
    rule: 'G1-SL-1',
    bad: 'import vis\n\nvis.slash([|""|], "run")\nvis.slash("x", [|"run"|])\n',
    messages: ['vis.slash(name, run, ...) requires name=<non-empty string>', 'vis.slash(name, run, ...) requires a callable run'],
    good: 'import vis\n\n' + TOOL + 'vis.slash("greet", greet, doc="Greet.")\n',
  },
  {
    rule: 'G1-HK-1',
    bad: 'import vis\n\nvis.op_hook(None, 1, phase=[|"around"|])\nvis.op_hook(None, [|1|])\nvis.op_hook([|None|], print)\n',
    messages: ["vis.op_hook phase must be before or after, got 'around'", 'vis.op_hook(ops, fn, ...) requires a callable fn', 'vis.op_hook requires a non-empty ops list'],
    good: 'import vis\n\n' + TOOL + 'vis.op_hook(["patch"], greet, "after")\n',
  },
  {
    rule: 'G1-HK-2',
    bad: 'import vis\n\n' + TOOL + 'vis.op_hook([|["fs_access", "patch", "shell"]|], greet)\n',
    messages: ["vis.op_hook: 'fs_access' is a gate and is asked, not wrapped, so it cannot share a hook with ['patch', 'shell']"],
    good: 'import vis\n\n' + TOOL + 'vis.op_hook(["fs_access"], greet)\n',
  },
  {
    rule: 'G1-HK-3',
    bad: 'import vis\n\n' + TOOL + 'vis.op_hook(["fs_access"], greet, [|"after"|])\n',
    messages: ["vis.op_hook: 'fs_access' is a gate, asked before the operation runs, so phase='after' means nothing"],
    good: 'import vis\n\n' + TOOL + 'vis.op_hook(["patch"], greet, "after")\n',
  },
  {
    rule: 'G1-HK-4',
    bad: 'import vis\n\n' + TOOL + 'vis.op_hook([|"patch"|], greet)\n',
    messages: ["ops='patch' is split into its characters ['p', 'a', 't', 'c', 'h'], so this hook never fires; pass a list: ops=['patch']"],
    good: 'import vis\n\n' + TOOL + 'vis.op_hook(["patch"], greet)\n',
  },
  {
    rule: 'G1-HK-5',
    bad: 'import vis\n\n' + TOOL + 'vis.op_hook([[|"fs_acess"|]], greet)\n',
    messages: ["unknown op 'fs_acess': Vis finds hooks by op name, so this hook never fires; documented ops are patch, shell, python_execution, draft/create, draft/approve, draft/discard, git/commit, fs_access"],
    good: 'import vis\n\n' + TOOL + 'vis.op_hook(["grep", "patch"], greet)\n',
  },
  {
    rule: 'G1-NF-1',
    bad: 'import vis\n\nvis.network_filter([|"filter"|])\n',
    messages: ['vis.network_filter(fn) requires a callable'],
    good: 'import vis\n\n' + TOOL + 'vis.network_filter(greet)\n',
  },
];

describe('rules', () => {
  for (const c of cases) {
    it(`${c.rule}: reports ${c.messages.length} finding(s) with the SDK's message and range`, () => {
      const { text, ranges } = fixture(c.bad);
      assert.deepEqual(
        findingsOf(c.rule, text, c.uri),
        c.messages.map((message, i) => ({ message, range: ranges[i] })),
      );
    });
    it(`${c.rule}: stays silent on a valid file`, () => {
      assert.deepEqual(findingsOf(c.rule, c.good, c.uri), []);
    });
  }

  it('every rule of the foundation has a failing and a passing case', () => {
    const covered = new Set(cases.map((c) => c.rule));
    // G1-PRV-1 is with the other declaration families (test/rules/families.test.ts).
    const foundation = allRules.map((r) => r.id).filter((id) => /^(EXT|REG|IMP|G1-|SLH|HOOK|NF)/.test(id) && id !== 'G1-PRV-1');
    assert.deepEqual(foundation.filter((id) => !covered.has(id)), []);
  });

  it('offers quick fixes: alias, wrapping a function in Symbol, the right registration name, removing import vis', () => {
    const text = G3 + TOOL + 'vis.register_extension(vis.Extension(name="Greeter Bot", description="d", symbols=[vis.Symbol(greet)]))\nvis.Extension(name="y", description="d", alias="y", symbols=[greet])\nvis.register(vis.Extension(name="x", description="d"))\n';
    const fixes = findings(text).flatMap((f) => (f.fix ? [`${f.rule}: ${f.fix.title} -> ${JSON.stringify(f.fix.edits.map((e) => e.newText))}`] : []));
    assert.deepEqual(fixes, [
      'EXT-005: Add alias="greeter_bot" -> [", alias=\\"greeter_bot\\""]',
      'EXT-009: Wrap in vis.Symbol(...) -> ["vis.Symbol(greet)"]',
    ]);
    // The file registers already: renaming vis.register would make it a second registration (REG-002), so no fix.
    assert.deepEqual(findings(text).filter((f) => f.rule === 'REG-003').map((f) => f.fix), [undefined]);
    const mixed = findings('import vis\n' + G3 + 'vis.register_extension(vis.Extension(name="n", description="d"))\n');
    assert.deepEqual(mixed.map((f) => f.fix?.edits), [[{ range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, newText: '' }]]);
  });

  it('wraps every bare function of symbols in one fix (Python stops at the first; fix all needs one pass)', () => {
    const text = G3 + TOOL + 'def part(x: str) -> str:\n    """Part."""\n    return x\n\nvis.register_extension(vis.Extension(name="y", description="d", alias="y", symbols=[greet, vis.Symbol(part), part]))\n';
    const ext009 = findings(text).filter((f) => f.rule === 'EXT-009');
    assert.equal(ext009.length, 1);
    assert.equal(ext009[0].fix?.title, 'Wrap the 2 bare functions in vis.Symbol(...)');
    assert.deepEqual(ext009[0].fix?.edits.map((e) => e.newText), ['vis.Symbol(greet)', 'vis.Symbol(part)']);
  });

  it('reports nothing in Python files that do not use the Vis SDK', () => {
    assert.deepEqual(findings('import os\n\ndef register(x):\n    return x\n\nregister(1)\n'), []);
  });
});

describe('valid extensions in every generation', () => {
  const valid: Record<string, string> = {
    'G1 counter': py`
      import os, vis

      def bump(n: int = 1) -> int:
          """Add n to the counter and return the new value."""
          value = vis.state.get("count", 0) + n
          vis.state["count"] = value
          return value

      def status(ctx):
          return vis.ok(f"count={vis.state.get('count', 0)}")

      vis.extension(
          name="counter",
          description="A durable counter.",
          alias="counter",
          symbols=[vis.symbol(bump, tag="mutation")],
          slash_commands=[vis.slash("count", status, doc="Show the count.")],
          env=["COUNTER_START"],
      )
    `,
    'G2 greeter': py`
      import blockether.vis.extension as vis

      def greet(name: str) -> str:
          """Greet one person by name."""
          return f"hi {name}"

      vis.register(vis.Extension(
          name="greeter",
          description="Greeting tools.",
          alias="greet",
          symbols=[vis.Symbol(greet, tag="observation")],
      ))
    `,
    'G3 packaged tools': py`
      # /// script
      # dependencies = []
      # [tool.vis]
      # source_paths = ["src"]
      # ///
      from __future__ import annotations

      from dataclasses import dataclass, field
      from typing import Annotated

      import blockether.vis.extension as vis
      from vis_lang_interface import prompt

      ALIAS = "probe"

      @dataclass(frozen=True)
      class Reading:
          """A measured duration; missing elapsed_s means no measurement."""
          elapsed_s: Annotated[float | None, "Seconds, or None when not measured."]
          labels: list[str] = field(default_factory=list)

      def measure(target: str, /, *labels: str, timeout_s: Annotated[float | None, "Seconds; None disables the timeout."] = None, **options: bool) -> Reading:
          """Measure one target. Requires a known target; does not change it."""
          return Reading(elapsed_s=None)

      class Items:
          @vis.method(tag="mutation")
          def put(self, *, value: str) -> bool:
              """Store a value. Replaces the previous value."""
              return True

      class Tools:
          def __init__(self):
              self.items = Items()

      def guard(call):
          return None

      EXTENSION = vis.Extension(
          name="probe",
          description="Measures targets.",
          alias=ALIAS,
          version="1.2.0",
          symbols=[
              vis.Symbol(measure, name="probe", activity=vis.Activity("generic", label="Measure target")),
              vis.Symbol(Tools(), name="store"),
          ],
          prompt=prompt.routing("python", ALIAS),
          op_hooks=[vis.OpHook(["patch"], guard)],
          env=("PROBE_TOKEN",),
      )

      vis.register_extension(EXTENSION)
    `,
  };
  for (const [name, text] of Object.entries(valid)) {
    it(`${name}: no error diagnostics`, () => {
      assert.deepEqual(
        findings(text).filter((f) => f.severity === 'error'),
        [],
      );
    });
  }
});
