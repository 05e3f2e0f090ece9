// Rule selection: ruff's layering of select/ignore (the most specific selector wins, ignore on a tie),
// severities, per-file-ignores, and [tool.vis-authoring] found as ruff finds [tool.ruff].
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readProjectConfig } from '../../server/src/config/project';
import { resolveSelection, specificity } from '../../server/src/config/selection';
import { initParser } from '../../server/src/parse/parser';
import { Program } from '../../server/src/workspace/program';
import { project, type Project } from '../helpers/project';

const DEFAULTS = new Map([
  ['EXT-003', 'error'],
  ['EXT-005', 'error'],
  ['G1-EXT-1', 'error'],
  ['G1-HK-4', 'warning'],
  ['SYM-008', 'information'],
] as const);
const ids = [...DEFAULTS.keys()];

before(async () => {
  await initParser();
});
const projects: Project[] = [];
after(() => projects.forEach((p) => p.remove()));

describe('rule selection', () => {
  it('matches ids exactly and families at a dash, ALL everything', () => {
    assert.deepEqual(['EXT', 'EXT-005', 'EX', 'G1', 'G1-EXT', 'ALL'].map((s) => specificity(s, 'EXT-005')), [3, 8, -1, -1, -1, 0]);
    assert.deepEqual(['G1', 'G1-EXT', 'EXT'].map((s) => specificity(s, 'G1-EXT-1')), [2, 6, -1]);
  });

  it('selects, ignores and sets severities in layers, the later layer over the earlier', () => {
    const run = (...layers: Parameters<typeof resolveSelection>[1]) => resolveSelection(DEFAULTS, layers);
    assert.deepEqual(run(), { 'EXT-003': 'error', 'EXT-005': 'error', 'G1-EXT-1': 'error', 'G1-HK-4': 'warning', 'SYM-008': 'information' });
    // select starts afresh; the most specific selector decides; ignore wins a tie.
    assert.deepEqual(run({ select: ['EXT'], ignore: ['EXT-005'] }), { 'EXT-003': 'error', 'EXT-005': 'off', 'G1-EXT-1': 'off', 'G1-HK-4': 'off', 'SYM-008': 'off' });
    assert.deepEqual(run({ select: ['EXT-005'], ignore: ['EXT'] }), { 'EXT-003': 'off', 'EXT-005': 'error', 'G1-EXT-1': 'off', 'G1-HK-4': 'off', 'SYM-008': 'off' });
    assert.deepEqual(run({ select: ['G1'], ignore: ['G1'] })['G1-EXT-1'], 'off');
    // A later layer's ignore adds to the earlier selection; its select replaces it.
    assert.deepEqual(run({ select: ['EXT'] }, { ignore: ['EXT-003'] }), { 'EXT-003': 'off', 'EXT-005': 'error', 'G1-EXT-1': 'off', 'G1-HK-4': 'off', 'SYM-008': 'off' });
    assert.deepEqual(run({ ignore: ['EXT'] }, { select: ['ALL'] })['EXT-003'], 'error');
    // Severities: the most specific key; a later layer's over an earlier one; `off` silences.
    assert.deepEqual(run({ severity: { EXT: 'warning', 'EXT-005': 'hint' } }, { severity: { 'EXT-003': 'off' } }), { 'EXT-003': 'off', 'EXT-005': 'hint', 'G1-EXT-1': 'error', 'G1-HK-4': 'warning', 'SYM-008': 'information' });
    // per-file-ignores come last.
    assert.deepEqual(resolveSelection(DEFAULTS, [{ select: ['ALL'] }], ['SYM-008'])['SYM-008'], 'off');
  });

  it('reads [tool.vis-authoring], and reports what it cannot apply where it is written', () => {
    const text = [
      '[project]',
      'name = "demo"',
      '',
      '[tool.vis-authoring]',
      'select = ["ALL", "EXT-999"]',
      'ignore = ["SYM-008"]',
      'severity = { "G1-HK-4" = "error", EXT-005 = "loud" }',
      'colour = "red"',
      '',
      '[tool.vis-authoring.per-file-ignores]',
      '"tests/*.py" = ["EXT"]',
      '"legacy.py" = ["G1"]',
    ].join('\n');
    const c = readProjectConfig('/p/pyproject.toml', text, ids)!;
    assert.deepEqual(c.layer, { select: ['ALL'], ignore: ['SYM-008'], severity: { 'G1-HK-4': 'error' } });
    assert.deepEqual(
      c.problems.map((p) => [p.message, p.range.start.line, p.range.start.character, p.range.end.character]),
      [
        ["unknown key 'colour' in [tool.vis-authoring]; the keys are select, ignore, severity, per-file-ignores", 7, 0, 6],
        ["unknown rule 'EXT-999': not a rule id, a family prefix (such as EXT or G1-HK) or ALL", 4, 17, 26],
        ['severity of EXT-005 must be one of error, warning, information, hint, off', 6, 44, 50],
      ],
    );
    assert.deepEqual(c.perFileIgnores.map((p) => [p.pattern, p.rules, p.matches('tests/test_a.py'), p.matches('a/tests/x.py'), p.matches('legacy.py'), p.matches('sub/legacy.py')]), [
      ['tests/*.py', ['EXT'], true, false, false, false],
      ['legacy.py', ['G1'], false, false, true, true],
    ]);
    assert.equal(readProjectConfig('/p/pyproject.toml', '[project]\nname = "x"\n', ids), undefined);
    assert.deepEqual(readProjectConfig('/p/pyproject.toml', '[tool.vis-authoring]\nselect = [\n', ids)!.problems.map((p) => p.message.split(':')[0]), [
      'pyproject.toml does not parse, so [tool.vis-authoring] is not applied',
    ]);
  });

  it('applies the nearest [tool.vis-authoring] to each module, under the editor settings', () => {
    const head = 'import blockether.vis.extension as vis\n\n';
    const p = project({
      'pyproject.toml': '[tool.vis-authoring]\nignore = ["EXT-004"]\nseverity = { EXT-003 = "warning" }\n\n[tool.vis-authoring.per-file-ignores]\n"legacy/*.py" = ["EXT-003"]\n',
      'tools.py': head + 'vis.register_extension(vis.Extension(name="", description=""))\n',
      'legacy/old.py': head + 'vis.register_extension(vis.Extension(name="", description=""))\n',
      // A pyproject.toml without the table is passed over; one with it replaces the outer one.
      'inner/pyproject.toml': '[project]\nname = "inner"\n',
      'inner/tools.py': head + 'vis.register_extension(vis.Extension(name="", description=""))\n',
      'own/pyproject.toml': '[tool.vis-authoring]\nselect = ["EXT-004"]\n',
      'own/tools.py': head + 'vis.register_extension(vis.Extension(name="", description=""))\n',
    });
    projects.push(p);
    const rules = (program: Program, rel: string) => program.analysis(p.uri(rel))!.findings.map((f) => `${f.rule} ${f.severity}`);
    const program = new Program({ root: p.root });
    assert.deepEqual(rules(program, 'tools.py'), ['EXT-003 warning']);
    assert.deepEqual(rules(program, 'legacy/old.py'), []);
    assert.deepEqual(rules(program, 'inner/tools.py'), ['EXT-003 warning']);
    assert.deepEqual(rules(program, 'own/tools.py'), ['EXT-004 error']);
    // The editor's settings over the project's: its ignore adds, its severity wins, its select replaces.
    program.configure({ overrides: { 'EXT-003': 'hint' }, selection: { ignore: [] } });
    assert.deepEqual(rules(program, 'tools.py'), ['EXT-003 hint']);
    program.configure({ overrides: {}, selection: { select: ['EXT-004'] } });
    assert.deepEqual(rules(program, 'tools.py'), ['EXT-004 error']);
    assert.deepEqual(rules(program, 'own/tools.py'), ['EXT-004 error']);
    // Mistakes in a table are findings on its pyproject.toml (CFG-001).
    program.configure({ selection: {} });
    p.write('own/pyproject.toml', '[tool.vis-authoring]\nselect = ["EXT-004", "NOPE"]\n');
    program.fileChanged(p.file('own/pyproject.toml'), 'changed');
    assert.deepEqual(rules(program, 'own/tools.py'), ['EXT-004 error']);
    assert.deepEqual(
      program.configFindings().map((c) => [c.uri.slice(p.uri('').length), c.findings.map((f) => `${f.rule}@${f.range.start.line}:${f.range.start.character} ${f.severity} ${f.message}`)]),
      [
        ['/own/pyproject.toml', ["CFG-001@1:21 warning unknown rule 'NOPE': not a rule id, a family prefix (such as EXT or G1-HK) or ALL"]],
        ['/pyproject.toml', []],
      ],
    );
  });
});
