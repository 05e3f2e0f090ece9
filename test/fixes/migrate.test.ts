// The G1 → G3 migration: the typed API with names, tags, docstrings and behaviour kept (the tool names the
// model sees included), and refused with a reason where it cannot be done safely.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { g1ToolName, migrationToG3 } from '../../server/src/fixes/migrate';
import { initParser } from '../../server/src/parse/parser';
import { symbolInfos } from '../../server/src/contracts/symbols';
import { openProgram, pyLines } from '../helpers/fixture';

before(async () => {
  await initParser();
});

const URI = 'file:///work/.vis/extensions/counter.py';

function migrate(text: string) {
  const program = openProgram(URI, text);
  const m = migrationToG3(program, URI, text, program.analysis(URI)!);
  return 'reason' in m ? { reason: m.reason } : { text: TextDocument.applyEdits(TextDocument.create(URI, 'python', 1, text), m.edits) };
}

const COUNTER = pyLines(
  'import os, vis',
  '',
  '',
  'def bump(n: int = 1) -> int:',
  '    """Add n to the counter and return the new value."""',
  '    value = vis.state.get("count", 0) + n',
  '    vis.state["count"] = value',
  '    return value',
  '',
  '',
  'def counter_reset() -> int:',
  '    """Set the counter back to zero."""',
  '    vis.state["count"] = 0',
  '    return 0',
  '',
  '',
  'def status(ctx):',
  '    return f"count={vis.state.get(\'count\', 0)}"',
  '',
  '',
  'def guard(call):',
  '    return None',
  '',
  '',
  'vis.extension(',
  '    "counter",  # the registry name',
  '    "A durable counter.",',
  '    alias="counter",',
  '    symbols=[vis.symbol(bump, tag="mutation"), vis.symbol(counter_reset, None, "mutation")],',
  '    slash_commands=[vis.slash("count", status, doc="Show the count.")],',
  '    op_hooks=[vis.op_hook(["patch"], guard, phase="before")],',
  '    env=["COUNTER_START"],',
  ')',
);

describe('G1 → G3 migration', () => {
  it('G1 tool names are <alias>_<name>, a leading <alias>_ dropped first', () => {
    assert.deepEqual([g1ToolName('counter', 'bump'), g1ToolName('counter', 'counter_bump'), g1ToolName('counter', 'counter_')], ['counter_bump', 'counter_bump', 'counter_counter_']);
  });

  it('rewrites the builders to the typed API, keeping what the model sees', () => {
    const r = migrate(COUNTER);
    assert.equal(
      r.text,
      COUNTER.replace('import os, vis', 'import os\nimport blockether.vis.extension as vis')
        .replace('vis.extension(\n    "counter",  # the registry name\n    "A durable counter.",', 'vis.register_extension(vis.Extension(\n    name="counter",  # the registry name\n    description="A durable counter.",')
        .replace('vis.symbol(bump, tag="mutation")', 'vis.Symbol(bump, name="counter_bump", tag="mutation")')
        .replace('vis.symbol(counter_reset, None, "mutation")', 'vis.Symbol(counter_reset, "counter_reset", "mutation")')
        .replace('vis.slash(', 'vis.SlashCommand(')
        .replace('vis.op_hook(', 'vis.OpHook(')
        .replace(/\)\n$/, '))\n'),
    );
    // The tools keep the names the model called them by in G1.
    const program = openProgram(URI, r.text!);
    const after = program.analysis(URI)!;
    assert.equal(after.model.generation, 'G3');
    assert.deepEqual(after.findings.filter((f) => f.severity === 'error'), []);
    assert.deepEqual(symbolInfos(after.model, { format: 'C3' }).map((i) => i.name), ['counter_bump', 'counter_reset']);
  });

  it('keeps the declaration bound to its name and registers it', () => {
    const text = pyLines('import vis', '', 'EXT = vis.extension(name="quiet", description="Says nothing.")');
    assert.equal(migrate(text).text, pyLines('import blockether.vis.extension as vis', '', 'EXT = vis.Extension(name="quiet", description="Says nothing.")', 'vis.register_extension(EXT)'));
  });

  it('refuses, with the reason, what it cannot migrate safely', () => {
    const tool = ['def greet(name):', '    """Hi."""', '    return name', ''];
    const reasons = {
      errors: pyLines('import vis', '', 'vis.extension(name="", description="d")'),
      bareOps: pyLines('import vis', '', 'def guard(call):', '    return None', '', 'vis.extension(name="a", description="d", op_hooks=[vis.op_hook("patch", guard)])'),
      provider: pyLines('import vis', '', 'vis.extension(name="a", description="d", providers=[vis.provider("acme", "Acme", preset={"base_url": "https://x"})])'),
      inFunction: pyLines('import vis', '', ...tool, 'def make():', '    return vis.symbol(greet)', '', 'vis.extension(name="a", description="d")'),
      whitespace: pyLines('import vis', '', 'vis.extension(name="a", description="   ")'),
      fromImport: pyLines('import vis', 'from vis import symbol', '', ...tool, 'vis.extension(name="a", description="d", alias="a", symbols=[symbol(greet)])'),
    };
    assert.deepEqual(Object.fromEntries(Object.entries(reasons).map(([k, t]) => [k, migrate(t).reason])), {
      errors: "fix the file's errors first (line 3: [G1-EXT-2] vis.extension(...) requires name=<non-empty string>)",
      bareOps: "ops=\"patch\" on line 6 is split into characters by G1 and never fires; fix G1-HK-4 first (ops=[\"patch\"])",
      provider: 'a provider preset is a dict in G1 and a vis.ProviderPreset in G3: migrate the provider by hand',
      inFunction: 'vis.symbol on line 8 is not a declaration at module level: migrate it by hand',
      whitespace: 'the migrated file would have an error on line 3: [EXT-004] vis.Extension requires description=<non-empty string>',
      fromImport: 'rewrite "from vis import symbol" by hand: only import vis is migrated',
    });
  });
});
