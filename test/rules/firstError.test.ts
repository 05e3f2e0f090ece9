// Issue 10 items 2–4: a call gets only the first error Python raises for it; ranges point at the cause
// (the def without a docstring, the Extension( call, the attribute's assignment) with the Symbol as related
// information; rules follow the file's SDK version.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { analyzeText } from '../../server/src/analysis';
import { hoverMarkdown } from '../../server/src/features/contractHover';
import { initParser } from '../../server/src/parse/parser';
import { Program } from '../../server/src/workspace/program';
import { findings, fixture } from '../helpers/fixture';

before(async () => {
  await initParser();
});

const G3 = 'import blockether.vis.extension as vis\n\n';
const URI = 'file:///work/ext/tool.py';
const errors = (text: string, overrides = {}) =>
  analyzeText(URI, text, overrides)
    .findings.filter((f) => f.severity === 'error')
    .map((f) => ({ rule: f.rule, message: f.message, range: f.range }));

describe('only the first error Python raises per call', () => {
  it('a positional name is the TypeError of the binding alone, not EXT-001 and EXT-002', () => {
    const { text, ranges } = fixture(G3 + 'vis.register_extension(vis.Extension([|"greeter"|], description="d"))\n');
    assert.deepEqual(errors(text), [
      { rule: 'EXT-001', message: 'Extension.__init__() takes 1 positional argument but 2 positional arguments (and 1 keyword-only argument) were given', range: ranges[0] },
    ]);
  });

  it('an unknown keyword comes before every check of the fields', () => {
    const { text, ranges } = fixture(G3 + 'vis.register_extension(vis.Extension(name="", description="", [|symbol|]=[]))\n');
    assert.deepEqual(errors(text), [{ rule: 'EXT-012', message: "Extension.__init__() got an unexpected keyword argument 'symbol'", range: ranges[0] }]);
  });

  it('the fields in the order __post_init__ checks them: name, description, alias, then the types', () => {
    const bad = (fields: string) => errors(G3 + `vis.register_extension(vis.Extension(${fields}))\n`).map((f) => f.rule);
    assert.deepEqual(bad('name="", description="", version=1, env="X"'), ['EXT-003']);
    assert.deepEqual(bad('name="n", description="", version=1, env="X"'), ['EXT-004']);
    assert.deepEqual(bad('name="n", description="d", symbols=[print], version=1, env="X"'), ['EXT-005']);
    assert.deepEqual(bad('name="n", description="d", version=1, env="X"'), ['EXT-006']);
    assert.deepEqual(bad('name="n", description="d", env="X"'), ['EXT-010']);
  });

  it('a namespace whose methods lack docstrings is SYM-016 alone, not SYM-015 beside it', () => {
    const { text, ranges } = fixture(G3 + 'class Store:\n    def [|read|](self):\n        return 1\n\n    def write(self):\n        return 2\n\nS = vis.Symbol(Store(), name="store")\n');
    assert.deepEqual(errors(text), [{ rule: 'SYM-016', message: 'vis.Symbol: read needs a docstring - it becomes the model-facing doc()', range: ranges[0] }]);
  });

  it('each declaration gets its own first error: nested declarations are calls of their own', () => {
    const text = G3 + 'def f():\n    """Do it."""\n\nvis.register_extension(vis.Extension(name="n", description="d", symbols=[vis.Symbol(f, tag="read", activity=vis.Activity(presenter="bogus", label=""))]))\n';
    assert.deepEqual(errors(text).map((f) => f.rule), ['EXT-005', 'SYM-004', 'ACT-003']);
  });

  it('an error the author chose not to see (its rule off, a suppression comment) lets the next check of the call through', () => {
    const text = G3 + 'vis.register_extension(vis.Extension(name="", description="", version=1))\n';
    assert.deepEqual(errors(text).map((f) => f.rule), ['EXT-003']);
    assert.deepEqual(errors(text, { 'EXT-003': 'off' }).map((f) => f.rule), ['EXT-004']);
    assert.deepEqual(errors(text.replace('))\n', '))  # vis: ignore[EXT-003, EXT-004]\n')).map((f) => f.rule), ['EXT-006']);
  });

  it('advice stays beside the error: a warning is no error Python raises', () => {
    const text = G3 + 'def f():\n    """Do it."""\n\nvis.OpHook(["pach"], None)\n';
    assert.deepEqual(
      findings(text).map((f) => f.rule),
      ['HOOK-006', 'HOOK-002'],
    );
  });
});

describe('ranges that point at the cause', () => {
  it('EXT-005 is on the Extension( call, not on every line of the symbols list', () => {
    const { text, ranges } = fixture(G3 + 'def f():\n    """Do it."""\n\nvis.register_extension([|vis.Extension|](\n    name="n",\n    description="d",\n    symbols=[\n        vis.Symbol(f),\n    ],\n))\n');
    assert.deepEqual(errors(text), [{ rule: 'EXT-005', message: 'vis.Extension requires alias=<string> when symbols are declared', range: ranges[0] }]);
  });

  it('SYM-005 is on the def, with the vis.Symbol(...) as related information, in the same file too', () => {
    const { text, ranges } = fixture(G3 + 'def [|lookup|](query: str) -> str:\n    return query\n\nT = [|vis.Symbol(lookup)|]\n');
    const f = findings(text).find((x) => x.rule === 'SYM-005')!;
    assert.deepEqual([f.range, f.related], [ranges[0], [{ uri: URI, range: ranges[1], message: 'exported by this vis.Symbol(...)' }]]);
  });

  it("SYM-013 is on the attribute's assignment", () => {
    const { text, ranges } = fixture(G3 + 'class Store:\n    def __init__(self):\n        [|self.count = 0|]\n\n    def read(self):\n        """Read it."""\n\nS = [|vis.Symbol(Store(), name="store")|]\n');
    const f = findings(text).find((x) => x.rule === 'SYM-013')!;
    assert.deepEqual([f.range, f.related?.[0].range], [ranges[0], ranges[1]]);
  });

  it('an invalid tag shows as invalid in the hover card, not as the tool’s tag', () => {
    const text = G3 + 'def lookup(query: str) -> str:\n    """Look it up."""\n    return query\n\nT = vis.Symbol(lookup, tag="read")\n';
    const program = new Program({ open: (u) => (u === URI ? { version: 1, text } : undefined), keepTrees: false });
    const [info] = program.symbols(URI);
    const card = hoverMarkdown({ info, tool: info.tools[0] }, 'C3')!;
    assert.equal(card.split('\n')[0], "**`lookup`** · Vis tool · tag ~~`read`~~ (invalid: vis.Symbol tag must be one of observation, mutation, verification, external, got 'read')");
  });
});

describe("rules follow the file's SDK version", () => {
  const g1 = (pin: string | undefined, body: string) => (pin ? `# /// script\n# dependencies = ["vis-agent${pin}"]\n# ///\n` : '') + 'import vis\n\n' + body;
  const TOOL = 'def bump(n: int = 1) -> int:\n    """Add n."""\n    return n\n\n';

  it('G1 vis.symbol(hidden=...) before Vis 0.1.41; is_hidden from it on', () => {
    const hidden = TOOL + 'vis.extension(name="c", description="d", alias="c", symbols=[vis.symbol(bump, hidden=True)])\n';
    const isHidden = TOOL + 'vis.extension(name="c", description="d", alias="c", symbols=[vis.symbol(bump, is_hidden=True)])\n';
    const g1sym4 = (text: string) => analyzeText(URI, text).findings.filter((f) => f.rule === 'G1-SYM-4').map((f) => f.message);
    assert.deepEqual(g1sym4(g1(undefined, hidden)), ["symbol() got an unexpected keyword argument 'hidden'"]);
    assert.deepEqual(g1sym4(g1('<0.1.41', hidden)), []);
    assert.deepEqual(g1sym4(g1('<0.1.41', isHidden)), ["symbol() got an unexpected keyword argument 'is_hidden'"]);
    assert.deepEqual(g1sym4(g1('==0.1.41', isHidden)), []);
  });

  it('op names the G1 docs before Vis 0.1.41 list, which later G1 dropped', () => {
    const hook = TOOL + 'vis.op_hook(["write", "patch"], bump)\n';
    const warned = (text: string) => analyzeText(URI, text).findings.filter((f) => f.rule === 'G1-HK-5').map((f) => f.message);
    assert.deepEqual(warned(g1('<0.1.41', hook)), []);
    assert.deepEqual(warned(g1(undefined, hook)), [
      "unknown op 'write': Vis finds hooks by op name, so this hook never fires; documented ops are patch, shell, python_execution, draft/create, draft/approve, draft/discard, git/commit, fs_access",
    ]);
  });

  it('tag vocabularies: T2 where the project pins a G2 vis-agent, T4 in the newest G3', () => {
    const text = (head: string) => head + G3 + 'def f():\n    """Do it."""\n\nS = vis.Symbol(f, tag="verification")\n';
    const sym4 = (t: string) => analyzeText(URI, t).findings.filter((f) => f.rule === 'SYM-004').map((f) => f.message);
    assert.deepEqual(sym4(text('')), []);
    assert.deepEqual(sym4(text('# /// script\n# dependencies = ["vis-agent==0.1.45"]\n# ///\n')), ["vis.Symbol tag must be observation or mutation, got 'verification'"]);
  });
});
