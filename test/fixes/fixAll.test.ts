// Fix all: a file with every fixable problem reaches a file with none of them and no new error, in one
// action (re-analysing until nothing more is fixable), and a second fix-all changes nothing.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { editsBetween, fixAll } from '../../server/src/fixes/fixAll';
import { initParser } from '../../server/src/parse/parser';
import { ruleCatalog } from '../../server/src/rules/catalog';
import { openProgram, pyLines } from '../helpers/fixture';

before(async () => {
  await initParser();
});

const URI = 'file:///work/ext/extension.py';

/** A program with one open document, as the editor has it. */
function open(text: string) {
  const program = openProgram(URI, text);
  return { program, findings: () => program.analysis(URI)!.findings };
}

const G3 = pyLines(
  'from dataclasses import dataclass',
  '',
  'from vis_lang_interface import prompt',
  'import vis',
  'import blockether.vis.extension as vis',
  '',
  '',
  'def greet(name: str) -> str:',
  '    """Greet one person by name."""',
  '    return f"hi {name}"',
  '',
  '',
  'def guard(call):',
  '    return None',
  '',
  '',
  'def allow(request):',
  '    return True',
  '',
  '',
  'class Notes:',
  '    """Notes."""',
  '',
  '    @vis.method(tag="mutaton", activity=vis.Activity(label="Save a note"))',
  '    def save(self, text: str) -> bool:',
  '        """Save one note."""',
  '        return True',
  '',
  '',
  '@vis.sequence("results")',
  '@dataclass',
  'class Page:',
  '    """One page."""',
  '',
  '    results: list[str]',
  '',
  '',
  '@dataclass',
  '@vis.sequence(field="result")',
  'class Other:',
  '    """Another page."""',
  '',
  '    results: list[str]',
  '',
  '',
  'def search(query: str) -> Page:',
  '    """Search."""',
  '    return Page(results=[])',
  '',
  '',
  'OTHER = vis.Extension("other", "Another extension.")',
  'VERSION = "1.0"  # vis: ignore[EXT-006]',
  '',
  'vis.register_extension(vis.Extension(',
  '    name="Greeter Bot",',
  '    description="Greets people.",',
  '    version=2,',
  '    env="GREETER_TOKEN",',
  '    prompt=prompt.routing("Python", "greet", ("run_test",)),',
  '    symbols=[',
  '        greet,',
  '        vis.Symbol(search, name="find-page", is_hidden=1, tag="mutaton", activity=vis.Activity(label="Search")),',
  '        vis.Symbol(Notes(), name="notes", tag="Mutation", activity=vis.Activity(label="Notes")),',
  '    ],',
  '    slash_command=[vis.slash("greet", greet)],',
  '    op_hooks=[',
  '        vis.OpHook("shell", guard, phase="Before"),',
  '        vis.OpHook(["fs_access"], guard, phase="after"),',
  '        vis.OpHook(["pach"], guard),',
  '    ],',
  '    network_filters=[vis.NetworkFiltr(allow)],',
  '))',
);

const G1 = pyLines(
  'import vis',
  '',
  '',
  'def bump(n: int = 1) -> int:',
  '    """Add n to the counter."""',
  '    return n',
  '',
  '',
  'def guard(call):',
  '    return None',
  '',
  '',
  'vis.extension(',
  '    name="Counter",',
  '    description="A durable counter.",',
  '    env="COUNTER_START",',
  '    symbols=[vis.symbol(bump, tags="mutaton")],',
  '    op_hooks=[',
  '        vis.op_hook("patch", guard, phase="afer"),',
  '        vis.op_hook(["fs_access"], guard, "after"),',
  '        vis.op_hook(["shel"], guard),',
  '    ],',
  '    slash_command=[],',
  ')',
);

describe('fix all', () => {
  for (const [name, text] of [['G3', G3], ['G1', G1]] as const) {
    it(`${name}: every fixable problem fixed in one action, no new error, nothing left to fix`, () => {
      const { program, findings } = open(text);
      const before = findings();
      const fixableRules = new Set(ruleCatalog().filter((r) => r.fixable).map((r) => r.id));
      const result = fixAll(program, URI, text, before);
      // The file holds many fixable problems of many rules. A declaration shows the first error Python
      // raises for it, so fixing one uncovers the next: fix-all goes on until none is left.
      const fixed = new Set(result.applied.map((a) => a.rule));
      assert.ok(fixed.size >= (name === 'G3' ? 20 : 7), JSON.stringify([...fixed]));
      // Applied as the client applies the edit the action carries.
      const edited = TextDocument.applyEdits(TextDocument.create(URI, 'python', 1, text), editsBetween(text, result.text));
      assert.equal(edited, result.text);
      const after = open(edited).findings();
      assert.deepEqual(after.filter((f) => fixableRules.has(f.rule) && before.some((b) => b.rule === f.rule)).map((f) => `${f.rule} ${f.message}`), [], 'none of the fixed problems is left');
      assert.deepEqual(after.filter((f) => f.severity === 'error').map((f) => `${f.rule} ${f.message}`), [], 'no error at all');
      assert.deepEqual(fixAll(open(edited).program, URI, edited).applied, [], 'a second fix-all has nothing to do');
      // A pass uncovers the next error of each declaration (fixes of different declarations apply together).
      assert.ok(result.passes <= 5, `${result.passes} passes`);
    });
  }

  it('G3: the fixed file, exactly', () => {
    const { program, findings } = open(G3);
    const fixed = fixAll(program, URI, G3, findings()).text;
    assert.equal(
      fixed,
      G3.replace('import vis\n', '')
        .replace('@vis.method(tag="mutaton"', '@vis.method(tag="mutation"')
        .replace('@vis.sequence("results")', '@vis.sequence(field="results")')
        .replace('@dataclass\n@vis.sequence(field="result")', '@vis.sequence(field="results")\n@dataclass')
        .replace('vis.Extension("other", "Another extension.")', 'vis.Extension(name="other", description="Another extension.")')
        .replace('VERSION = "1.0"  # vis: ignore[EXT-006]', 'VERSION = "1.0"')
        .replace('    name="Greeter Bot",\n', '    name="Greeter Bot",\n    alias="greeter_bot",\n')
        .replace('version=2', 'version="2"')
        .replace('env="GREETER_TOKEN"', 'env=["GREETER_TOKEN"]')
        .replace('("run_test",)', '("run_tests",)')
        .replace('        greet,\n', '        vis.Symbol(greet),\n')
        .replace('name="find-page", is_hidden=1, tag="mutaton"', 'name="find_page", is_hidden=True, tag="mutation"')
        .replace('tag="Mutation", activity=vis.Activity(label="Notes")', 'tag="mutation"')
        .replace('slash_command=[vis.slash("greet", greet)]', 'slash_commands=[vis.SlashCommand("greet", greet)]')
        .replace('vis.OpHook("shell", guard, phase="Before")', 'vis.OpHook(["shell"], guard, phase="before")')
        .replace('vis.OpHook(["fs_access"], guard, phase="after")', 'vis.OpHook(["fs_access"], guard)')
        .replace('["pach"]', '["patch"]')
        .replace('vis.NetworkFiltr(', 'vis.NetworkFilter('),
    );
  });
});
