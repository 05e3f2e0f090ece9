// Each fix with the exact text before and after, applied as an LSP client applies a WorkspaceEdit
// (vscode-languageserver-textdocument's applyEdits): the layouts a fix keeps, and the cases that have
// no safe fix. (Every fixable rule's page shows one more case, checked by test/docs/rulePages.test.ts.)
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeText } from '../../server/src/analysis';
import { editDistance, nearest } from '../../server/src/fixes/edits';
import { initParser } from '../../server/src/parse/parser';
import type { Finding, Fix } from '../../server/src/rules/types';
import { pyLines } from '../helpers/fixture';

before(async () => {
  await initParser();
});

const URI = 'file:///work/ext/extension.py';
const TYPED = 'import blockether.vis.extension as vis';
const TOOL = ['def greet(name: str) -> str:', '    """Greet one person by name."""', '    return f"hi {name}"', ''];
const ACT = 'activity=vis.Activity(label="Greet")';

function of(rule: string, text: string): Finding[] {
  return analyzeText(URI, text).findings.filter((f) => f.rule === rule);
}
const apply = (text: string, fix: Fix) => TextDocument.applyEdits(TextDocument.create(URI, 'python', 1, text), fix.edits);

/** The text after the one fix of the rule's one finding; its title too. */
function fixed(rule: string, text: string): [string, string, boolean] {
  const fs = of(rule, text);
  assert.equal(fs.length, 1, `one ${rule} finding in ${text}: ${JSON.stringify(fs)}`);
  assert.ok(fs[0].fix, `${rule} has a fix`);
  return [fs[0].fix.title, apply(text, fs[0].fix), fs[0].fix.preferred ?? true];
}

describe('fixes keep the layout and comments', () => {
  it('EXT-005: alias= inline, on a line of its own, after a comment, with or without a trailing comma', () => {
    const inline = pyLines(TYPED, ...TOOL, `vis.register_extension(vis.Extension(name='My Tools', description='d', symbols=[vis.Symbol(greet, ${ACT})]))`);
    assert.deepEqual(fixed('EXT-005', inline), ['Add alias="my_tools"', inline.replace("name='My Tools',", "name='My Tools', alias='my_tools',"), true]);
    const lines = (name: string, rest: string[]) => pyLines(TYPED, ...TOOL, 'vis.register_extension(vis.Extension(', name, ...rest, '))');
    const body = ['    description="d",', `    symbols=[vis.Symbol(greet, ${ACT})],`];
    assert.equal(fixed('EXT-005', lines('    name="tools",  # the registry name', body))[1], lines('    name="tools",  # the registry name', ['    alias="tools",', ...body]));
    // Without a trailing comma on the last argument: a comma is added, and none after the new one.
    const last = pyLines(TYPED, ...TOOL, 'vis.register_extension(vis.Extension(', '    description="d",', `    symbols=[vis.Symbol(greet, ${ACT})],`, '    name="tools"', '))');
    assert.equal(fixed('EXT-005', last)[1], last.replace('    name="tools"\n', '    name="tools",\n    alias="tools"\n'));
    // A blank alias is the author's: no fix.
    assert.equal(of('EXT-005', inline.replace("symbols=", "alias='', symbols="))[0].fix, undefined);
  });

  it('EXT-001: positional arguments named by field order, unless a keyword names that field', () => {
    const text = pyLines(TYPED, '', 'vis.register_extension(vis.Extension("greeter", "Greets people.", alias="g"))');
    assert.deepEqual(fixed('EXT-001', text), ['Name the arguments (name=, description=)', text.replace('("greeter", "Greets people."', '(name="greeter", description="Greets people."'), true]);
    assert.equal(of('EXT-001', pyLines(TYPED, '', 'vis.register_extension(vis.Extension("greeter", name="x", description="d"))'))[0].fix, undefined);
  });

  it('EXT-006, EXT-010, HOOK-003: numbers quoted, bare strings listed, generators and sets made lists; names bound elsewhere left alone', () => {
    const v = pyLines(TYPED, '', "vis.register_extension(vis.Extension(name='n', description='d', version=2))");
    assert.equal(fixed('EXT-006', v)[1], v.replace('version=2', "version='2'"));
    const env = pyLines(TYPED, '', 'vis.register_extension(vis.Extension(name="n", description="d", env="TOKEN"))');
    assert.equal(fixed('EXT-010', env)[1], env.replace('env="TOKEN"', 'env=["TOKEN"]'));
    const viaName = pyLines(TYPED, '', 'ENV = "TOKEN"', 'vis.register_extension(vis.Extension(name="n", description="d", env=ENV))');
    assert.equal(of('EXT-010', viaName)[0].fix, undefined);
    const hooks = (ops: string) => pyLines(TYPED, '', 'def guard(call):', '    return None', '', `vis.register_extension(vis.Extension(name="n", description="d", op_hooks=[vis.OpHook(${ops}, guard)]))`);
    assert.equal(fixed('HOOK-003', hooks("'shell'"))[1], hooks("['shell']"));
    const gen = pyLines(TYPED, '', ...TOOL, `vis.register_extension(vis.Extension(name="n", description="d", alias="n", symbols=(vis.Symbol(f, ${ACT}) for f in [greet])))`);
    assert.deepEqual(fixed('EXT-009', gen).slice(0, 2), ['Make it a list', gen.replace('symbols=(vis.Symbol', 'symbols=[vis.Symbol').replace('[greet])))', '[greet]]))')]);
    const set = pyLines(TYPED, '', ...TOOL, `vis.register_extension(vis.Extension(name="n", description="d", alias="n", symbols={vis.Symbol(greet, ${ACT})}))`);
    assert.equal(fixed('EXT-009', set)[1], set.replace('symbols={', 'symbols=[').replace(')}))', ')]))'));
    const lone = pyLines(TYPED, '', ...TOOL, `vis.register_extension(vis.Extension(name="n", description="d", alias="n", symbols=vis.Symbol(greet, ${ACT})))`);
    assert.equal(fixed('EXT-009', lone)[1], lone.replace('symbols=vis.Symbol', 'symbols=[vis.Symbol').replace('"Greet"))))', '"Greet"))]))'));
  });

  it('near misses: one nearest name is the fix; several are suggestions; none near, nothing', () => {
    const kw = pyLines(TYPED, '', ...TOOL, `vis.register_extension(vis.Extension(name="n", description="d", alias="n", symbol=[vis.Symbol(greet, ${ACT})]))`);
    assert.deepEqual(fixed('EXT-012', kw), ['Rename to symbols=', kw.replace('symbol=', 'symbols='), true]);
    // A keyword given already is no candidate.
    assert.equal(of('EXT-012', kw.replace('alias="n",', 'alias="n", symbols=[],'))[0].fix, undefined);
    const tag = (t: string) => pyLines(TYPED, '', ...TOOL, `vis.register_extension(vis.Extension(name="n", description="d", alias="n", symbols=[vis.Symbol(greet, tag=${t}, ${ACT})]))`);
    assert.equal(fixed('SYM-004', tag('"Mutation"'))[1], tag('"mutation"'));
    assert.equal(fixed('SYM-004', tag("'verificaton'"))[1], tag("'verification'"));
    assert.equal(of('SYM-004', tag('"read"'))[0].fix, undefined);
    const hook = (phase: string) => pyLines(TYPED, '', 'def guard(call):', '    return None', '', `vis.register_extension(vis.Extension(name="n", description="d", op_hooks=[vis.OpHook(["patch"], guard, phase=${phase})]))`);
    assert.equal(fixed('HOOK-001', hook('"afterr"'))[1], hook('"after"'));
    const op = (o: string) => pyLines(TYPED, '', 'def guard(call):', '    return None', '', `vis.register_extension(vis.Extension(name="n", description="d", op_hooks=[vis.OpHook(["${o}"], guard)]))`);
    assert.equal(fixed('HOOK-006', op('draft/aprove'))[1], op('draft/approve'));
    assert.equal(fixed('HOOK-006', op('drafts/create'))[1], op('draft/create'));
    // Two names equally near are suggestions (quick fixes only, never fix-all); short names need a close match.
    assert.deepEqual(nearest('cat', ['bat', 'car', 'cattle']), { names: ['bat', 'car'], unique: false });
    assert.deepEqual(nearest('ab', ['xy', 'abcd']), { names: [], unique: false });
    assert.deepEqual([editDistance('Patch', 'patch'), editDistance('pacth', 'patch'), editDistance('pach', 'patch')], [0.5, 1, 1]);
  });

  it('drops a keyword the SDK refuses: on its own line (comment and all), or inline', () => {
    const own = pyLines(TYPED, '', 'def gate(call):', '    return None', '', 'vis.register_extension(vis.Extension(name="n", description="d", op_hooks=[vis.OpHook(', '    ["fs_access"],', '    gate,', '    phase="after",  # too late for a gate', ')]))');
    assert.equal(fixed('HOOK-005', own)[1], own.replace('    phase="after",  # too late for a gate\n', ''));
    const inline = pyLines(TYPED, '', 'def gate(call):', '    return None', '', 'vis.register_extension(vis.Extension(name="n", description="d", op_hooks=[vis.OpHook(["fs_access"], gate, "after")]))');
    assert.equal(fixed('HOOK-005', inline)[1], inline.replace(', "after")', ')'));
    const ns = pyLines(TYPED, '', 'class Notes:', '    @vis.method(activity=vis.Activity(label="Save"))', '    def save(self) -> bool:', '        """Save."""', '        return True', '', 'vis.register_extension(vis.Extension(name="n", description="d", alias="n", symbols=[vis.Symbol(Notes(), activity=vis.Activity(label="Notes"), name="notes")]))');
    assert.equal(fixed('SYM-011', ns)[1], ns.replace('activity=vis.Activity(label="Notes"), ', ''));
  });

  it('REG-005 registers the one Extension; REG-003 renames the registration only when the file has none; IMP-001 keeps the other imports', () => {
    const assigned = pyLines(TYPED, '', 'EXT = vis.Extension(name="n", description="d")  # the extension');
    assert.deepEqual(fixed('REG-005', assigned).slice(0, 2), ['Register it: vis.register_extension(EXT)', assigned + 'vis.register_extension(EXT)\n']);
    const noNewline = `${TYPED}\n\nEXT = vis.Extension(name="n", description="d")`;
    assert.equal(fixed('REG-005', noNewline)[1], noNewline + '\nvis.register_extension(EXT)\n');
    const statement = pyLines(TYPED, '', 'vis.Extension(', '    name="n",', '    description="d",', ')');
    assert.equal(fixed('REG-005', statement)[1], pyLines(TYPED, '', 'vis.register_extension(vis.Extension(', '    name="n",', '    description="d",', '))'));
    assert.equal(of('REG-005', pyLines(TYPED, '', 'A = vis.Extension(name="a", description="d")', 'B = vis.Extension(name="b", description="d")'))[0].fix, undefined);
    // A G3 pin, and the G2 name: renamed, as nothing registers yet.
    const renamed = pyLines('# /// script', '# dependencies = ["vis-agent>=0.2.45"]', '# ///', TYPED, '', 'vis.register(vis.Extension(name="n", description="d"))');
    assert.deepEqual(fixed('REG-003', renamed).slice(0, 2), ['Call vis.register_extension', renamed.replace('vis.register(', 'vis.register_extension(')]);
    const imports = pyLines('import os, vis, sys', TYPED, '', 'vis.register_extension(vis.Extension(name="n", description="d"))');
    assert.equal(fixed('IMP-001', imports)[1], imports.replace('import os, vis, sys', 'import os, sys'));
  });

  it('SYM-001, SYM-003, SEQ-001, SEQ-003, SEQ-004, ROUTE-001: the value meant, the decorators swapped', () => {
    const sym = (args: string) => pyLines(TYPED, '', ...TOOL, `vis.register_extension(vis.Extension(name="n", description="d", alias="n", symbols=[vis.Symbol(greet, ${args}, ${ACT})]))`);
    assert.equal(fixed('SYM-001', sym('is_hidden="True"'))[1], sym('is_hidden=True'));
    assert.equal(fixed('SYM-001', sym('is_hidden=0'))[1], sym('is_hidden=False'));
    assert.equal(of('SYM-001', sym('is_hidden=2'))[0].fix, undefined);
    assert.equal(fixed('SYM-003', sym('name="say hello"'))[1], sym('name="say_hello"'));
    assert.equal(of('SYM-003', sym('name="_hidden"'))[0].fix, undefined);
    const seq = (decorators: string[], field = 'field="items"') =>
      pyLines('from dataclasses import dataclass', '', TYPED, '', ...decorators.map((d) => d.replace('FIELD', field)), 'class Page:', '    """A page."""', '', '    items: list[str]', '', 'vis.register_extension(vis.Extension(name="n", description="d"))');
    assert.equal(fixed('SEQ-001', seq(['@vis.sequence(FIELD)', '@dataclass'], '"items"'))[1], seq(['@vis.sequence(FIELD)', '@dataclass']));
    assert.deepEqual(fixed('SEQ-003', seq(['@dataclass', '@vis.sequence(FIELD)'])).slice(0, 2), ['Apply @vis.sequence outside @dataclass', seq(['@vis.sequence(FIELD)', '@dataclass'])]);
    assert.equal(of('SEQ-003', seq(['@vis.sequence(FIELD)']))[0].fix, undefined);
    assert.equal(fixed('SEQ-004', seq(['@vis.sequence(FIELD)', '@dataclass'], 'field="item"'))[1], seq(['@vis.sequence(FIELD)', '@dataclass']));
    const route = (verbs: string) => pyLines('from vis_lang_interface import prompt', TYPED, '', `vis.register_extension(vis.Extension(name="py", description="d", prompt=prompt.routing("Python", "py", [${verbs}])))`);
    assert.equal(fixed('ROUTE-001', route('"lint_code", "formatcode", "repl_evall"'))[1], route('"lint_code", "format_code", "repl_eval"'));
    assert.equal(of('ROUTE-001', route('"formatcode", "deploy"'))[0].fix, undefined);
  });

  it('suggestions only: a docstring stub, and removing a keyword of the older docs', () => {
    const text = pyLines(TYPED, '', 'def greet(name: str) -> str:', '    # says hi', '    return f"hi {name}"', '', `vis.register_extension(vis.Extension(name="n", description="d", alias="n", symbols=[vis.Symbol(greet, ${ACT})]))`);
    const [f] = of('SYM-005', text);
    assert.equal(f.fix, undefined);
    assert.deepEqual(f.suggestions?.map((s) => [s.title, s.preferred, apply(text, s)]), [
      ['Add a docstring to greet', false, text.replace('    # says hi\n', '    # says hi\n    """TODO: what greet does and returns, for the model (this becomes its doc())."""\n')],
    ]);
    const g1 = pyLines('import vis', '', ...TOOL, 'vis.extension(name="n", description="d", alias="n", symbols=[vis.symbol(greet, description="Greets.")])');
    const [k] = of('G1-SYM-4', g1);
    assert.equal(k.fix, undefined);
    assert.deepEqual(k.suggestions?.map((s) => [s.title, apply(g1, s)]), [['Remove description=', g1.replace(', description="Greets."', '')]]);
  });
});
