// The workspace program in process: entry discovery and roles, import resolution through the
// environments Vis gives an entry, the forms real extensions use, cross-file checks, and the queries
// later features read (declarations across modules, reverse dependencies, project evidence).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { analyzeText } from '../../server/src/analysis';
import { initParser } from '../../server/src/parse/parser';
import { Program } from '../../server/src/workspace/program';
import { fixture, py } from '../helpers/fixture';
import { NOTES, project, type Project } from '../helpers/project';

before(async () => {
  await initParser();
});

const projects: Project[] = [];
after(() => projects.forEach((p) => p.remove()));
function make(files: Record<string, string>, prefix?: string): Project {
  const p = project(files, prefix);
  projects.push(p);
  return p;
}

/** Findings as rule@line:character message. */
const shown = (findings: { rule: string; range: { start: { line: number; character: number } }; message: string }[]) =>
  findings.map((f) => `${f.rule}@${f.range.start.line}:${f.range.start.character} ${f.message}`);

describe('entries and roles', () => {
  it('finds entries as Vis does, checks the modules they reach, and never takes a test file for an entry', () => {
    const p = make(NOTES.files);
    const program = new Program({ root: p.root });
    assert.deepEqual(
      program.entries().map((e) => [e.path.slice(p.root.length + 1), e.scope, e.packaged]),
      [['.vis/extensions/notes/extension.py', 'project', true]],
    );
    assert.deepEqual(
      program.index().map((u) => u.slice(p.uri('').length + 1)),
      [NOTES.entry, NOTES.init, NOTES.tools, NOTES.records, NOTES.pyproject],
    );
    assert.deepEqual(
      [NOTES.entry, NOTES.tools, '.vis/extensions/test_gh.py'].map((f) => program.role(p.uri(f))),
      ['entry', 'module', 'module'],
    );
    assert.deepEqual(program.analysis(p.uri('.vis/extensions/test_gh.py'))?.findings, []);
    // The same file on its own (no program places it) is still no entry: it is a test file.
    assert.deepEqual(analyzeText('file:///work/.vis/extensions/test_gh.py', 'import blockether.vis.extension as vis\n').findings, []);
  });

  it('gives the sdk helper the vis-agent pins of the project (pyproject.toml and the locked version in uv.lock)', () => {
    const p = make(NOTES.files);
    const program = new Program({ root: p.root });
    assert.deepEqual(
      program.projectEvidence(p.uri(NOTES.tools)).pins.map((pin) => [pin.source, pin.file.slice(p.root.length + 1), pin.requirement, pin.range?.start.line]),
      [
        ['pyproject', NOTES.pyproject, 'vis-agent>=0.2.45', 4],
        ['uv.lock', '.vis/extensions/notes/uv.lock', 'vis-agent==0.2.47', 10],
      ],
    );
    const script = make({
      'tool.py': '# /// script\n# dependencies = ["vis-agent==0.1.56"]\n# ///\nimport blockether.vis.extension as vis\n',
    });
    assert.deepEqual(
      new Program({ root: script.root }).projectEvidence(script.uri('tool.py')).pins.map((pin) => [pin.source, pin.requirement, pin.range]),
      [['pep723', 'vis-agent==0.1.56', { start: { line: 1, character: 18 }, end: { line: 1, character: 37 } }]],
    );
  });
});

describe('import resolution', () => {
  it('resolves import a.b as c, relative imports, re-exports through __init__.py and namespace packages', () => {
    const p = make({
      'extension.py': py`
        import blockether.vis.extension as vis
        import lib.models as m
        from .local import helper
        from pkg import Widget
        from ns.part import Piece
      `,
      'local.py': 'def helper():\n    """Help."""\n',
      'pyproject.toml': '[tool.vis]\nsource_paths = ["src"]\n',
      'src/lib/__init__.py': '',
      'src/lib/models.py': 'class Reading:\n    pass\n',
      'src/pkg/__init__.py': 'from .widgets import Widget\n',
      'src/pkg/widgets.py': 'class Widget:\n    pass\n',
      'src/ns/part.py': 'class Piece:\n    pass\n',
    });
    const program = new Program({ root: p.root });
    const entry = p.uri('extension.py');
    const at = (d: ReturnType<Program['declarationOf']>) => d && `${d.uri.slice(p.uri('').length + 1)}:${d.range.start.line}:${d.kind}`;
    assert.deepEqual(
      ['m.Reading', 'helper', 'Widget', 'Piece', 'm', 'vis'].map((n) => at(program.declarationOf(entry, n))),
      ['src/lib/models.py:0:class', 'local.py:0:function', 'src/pkg/widgets.py:0:class', 'src/ns/part.py:0:class', 'src/lib/models.py:0:module', undefined],
    );
    program.index();
    assert.deepEqual(program.dependents(p.uri('src/pkg/widgets.py')).map((u) => u.slice(p.uri('').length + 1)), ['src/pkg/__init__.py']);
  });

  it('reads third-party modules from the interpreter python.defaultInterpreterPath names, and from editable installs (.pth)', () => {
    const env = make({
      'pyvenv.cfg': 'home = /usr/bin\n',
      'bin/python': '',
      'lib/python3.11/site-packages/dep/__init__.py': 'from dataclasses import dataclass\n\n@dataclass(frozen=True)\nclass Row:\n    """A row."""\n    n: int\n',
      'lib/python3.11/site-packages/_editable.pth': '',
    }, 'vis-env-');
    const editable = make({ 'mylib/__init__.py': 'from dataclasses import dataclass\n\n@dataclass\nclass Cell:\n    """A cell."""\n    v: str\n' }, 'vis-editable-');
    env.write('lib/python3.11/site-packages/_editable.pth', `${editable.root}\nimport sys; sys.path.append("/nowhere")\n`);
    const p = make({
      'extension.py': py`
        import blockether.vis.extension as vis
        from dep import Row
        from mylib import Cell

        def rows() -> Row:
            """Rows."""

        def cells() -> Cell:
            """Cells."""

        vis.register_extension(vis.Extension(name="t", description="T", alias="t", symbols=[vis.Symbol(rows), vis.Symbol(cells)]))
      `,
    });
    const program = new Program({ root: p.root, interpreter: env.file('bin/python') });
    const names = program.symbols(p.uri('extension.py')).map((i) => JSON.stringify((i.contract as { returns: { kind: string; name: string } }).returns).slice(0, 30));
    assert.deepEqual(names, ['{"kind":"record","name":"Row",', '{"kind":"record","name":"Cell"']);
    // Third-party modules are read for types, never checked.
    assert.equal(program.isExternal(env.file('lib/python3.11/site-packages/dep/__init__.py'), program.environment(p.uri('extension.py'))), true);
    assert.deepEqual(program.index(), [p.uri('extension.py')]);
  });
});

describe('the forms real extensions use', () => {
  const SOURCE = py`
    import functools
    import blockether.vis.extension as vis
    from somewhere import registered

    def logged(fn):
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            return fn(*args, **kwargs)
        return inner

    def bare(fn):
        def [|wrapper|](*args, **kwargs):
            return fn(*args, **kwargs)
        return wrapper

    class Tools:
        """Tools."""

        @vis.method(activity=vis.Activity("generic"))
        def save(self, text: str) -> bool:
            """Save text."""
            return True

        @vis.method(activity=vis.Activity("generic"))
        def describe(self, what: str) -> str:
            """Describe a thing."""
            return what

    Tools.save = vis.method(tag="mutation", activity=vis.Activity("generic"))(Tools.save)

    @logged
    def search(query: str) -> list[str]:
        """Search."""
        return []

    @bare
    def broken(query: str) -> list[str]:
        """Broken."""
        return []

    @registered
    def elsewhere(query: str) -> str:
        return query

    def find(q: str) -> str:
        """Find."""
        return q

    find = vis.method(tag="mutation")(find)

    def _hooks():
        return [vis.OpHook(["patch"], find, phase=[|"during"|])]

    vis.register_extension(vis.Extension(name="t", description="T", alias="t", op_hooks=_hooks(), symbols=[
        vis.Symbol(Tools(), name="tools"),
        vis.Symbol(Tools().describe, activity=vis.Activity("generic")),
        vis.Symbol(search, activity=vis.Activity("generic")),
        vis.Symbol(broken, activity=vis.Activity("generic")),
        vis.Symbol(elsewhere, activity=vis.Activity("generic")),
        vis.Symbol(find, activity=vis.Activity("generic")),
    ]))
  `;
  const { text, ranges } = fixture(SOURCE);
  const uri = 'file:///work/forms/extension.py';

  it('reports what Vis raises and nothing it does not: the hook a factory returns, the wrapper without functools.wraps', () => {
    const a = analyzeText(uri, text);
    assert.deepEqual(shown(a.findings), [
      // On the wrapper that has no docstring (what the decorator returns), the Symbol as related information.
      `SYM-005@${ranges[0].start.line}:${ranges[0].start.character} vis.Symbol: wrapper needs a docstring - it becomes the model-facing doc()`,
      `HOOK-001@${ranges[1].start.line}:${ranges[1].start.character} vis.OpHook phase must be before or after`,
    ]);
  });

  it('reads tags from Cls.fn = vis.method(...)(Cls.fn), drops self of a bound method, follows functools.wraps, and stays silent on a decorator it cannot read', () => {
    const program = new Program({ open: (u) => (u === uri ? { version: 1, text } : undefined) });
    const infos = program.symbols(uri);
    assert.deepEqual(
      infos.map((i) => [i.form, i.name ?? null, i.unknownReason ?? null, i.tools.map((t) => `${t.name} ${t.tag} ${t.contract.signature}`)]),
      [
        ['object', 'tools', null, ['tools.save mutation (text: str) -> bool', 'tools.describe observation (what: str) -> str']],
        ['function', 'describe', null, ['describe observation (what: str) -> str']],
        ['function', 'search', null, ['search observation (query: str) -> list[str]']],
        ['function', 'wrapper', 'it has no docstring', []],
        ['unknown', null, 'the exported object is not statically known', []],
        ['function', 'find', null, ['find observation (q: str) -> str']],
      ],
    );
    // The docs preview and hover read the same tag: the SDK exports save as a mutation.
    assert.ok(infos[0].tools[0].doc.includes('Effect: mutation'), infos[0].tools[0].doc);
  });

  it('reports an invalid tag in the after-the-fact form (MTH-001) where it is written', () => {
    const bad = text.replace('vis.method(tag="mutation", activity', 'vis.method(tag="mutate", activity');
    const line = bad.split('\n').findIndex((l) => l.startsWith('Tools.save ='));
    assert.deepEqual(
      shown(analyzeText(uri, bad).findings.filter((f) => f.rule === 'MTH-001')),
      [`MTH-001@${line}:28 vis.method tag must be one of observation, mutation, verification, external, got 'mutate'`],
    );
  });
});

describe('cross-file checks', () => {
  const ext = (name: string, alias: string) => `import blockether.vis.extension as vis\n\nvis.register_extension(vis.Extension(name="${name}", description="D.", alias="${alias}"))\n`;

  it('reports two project extensions with one name or alias, and a project extension shadowing a global one', () => {
    const global = make({ 'gh.py': ext('gh', 'gh') }, 'vis-global-');
    const p = make({
      '.vis/extensions/a_first.py': ext('notes', 'n'),
      '.vis/extensions/b_second.py': ext('notes', 'n2'),
      '.vis/extensions/c_third.py': ext('other', 'n'),
      '.vis/extensions/gh.py': ext('gh', 'github'),
    });
    const program = new Program({ root: p.root, globalDir: global.root });
    program.index();
    const of = (f: string) => shown(program.analysis(p.uri(f))!.findings);
    assert.deepEqual(of('.vis/extensions/a_first.py'), []);
    assert.deepEqual(of('.vis/extensions/b_second.py'), [
      `WS-001@2:42 extension name 'notes' is also registered by ${p.file('.vis/extensions/a_first.py')}; Vis keeps only one extension per name, so one of the two is not loaded`,
    ]);
    assert.deepEqual(of('.vis/extensions/c_third.py'), [
      `WS-002@2:75 extension alias 'n' is also registered by ${p.file('.vis/extensions/a_first.py')}; Vis keeps only one extension per alias, so one of the two is not loaded`,
    ]);
    assert.deepEqual(of('.vis/extensions/gh.py'), [
      `WS-003@2:42 this project's extension 'gh' replaces the global extension of that name (${global.file('gh.py')}) inside this project`,
    ]);
    const related = program.analysis(p.uri('.vis/extensions/b_second.py'))!.findings[0].related;
    assert.deepEqual(related, [{ uri: p.uri('.vis/extensions/a_first.py'), range: { start: { line: 2, character: 42 }, end: { line: 2, character: 49 } }, message: "'notes' is registered here first" }]);
    assert.equal(new Program({ root: p.root, globalDir: global.root, overrides: { 'WS-003': 'off' } }).analysis(p.uri('.vis/extensions/gh.py'))!.findings.length, 0);
  });
});

describe('change', () => {
  it('re-analyses what depends on a changed sibling, and nothing else', () => {
    const p = make(NOTES.files);
    const program = new Program({ root: p.root });
    for (const u of program.index()) program.findings(u);
    const before = program.modules.analyses;
    assert.deepEqual(
      [...program.affected([p.uri(NOTES.records)])].map((u) => u.slice(p.uri('').length + 1)).sort(),
      [NOTES.entry, NOTES.init, NOTES.records, NOTES.tools].sort(),
    );
    p.write(NOTES.records, '# nothing here any more\n');
    const tidy = program.symbols(p.uri(NOTES.entry))[0].tools.find((t) => t.name === 'notes.read')!;
    assert.equal(JSON.stringify(tidy.contract.returns), '{"kind":"unresolved","name":"Note"}');
    assert.equal(program.modules.analyses, before + 1, 'records.py analysed again, nothing else');
  });

  it('does not read a sibling module past maxFileSize: its records stay opaque', () => {
    const p = make(NOTES.files);
    const program = new Program({ root: p.root, maxFileSize: 100_000 });
    const records = NOTES.files[NOTES.records];
    // A 20 MB models file once made one hover take seconds and gigabytes; now it is refused before reading.
    p.write(NOTES.records, records + '#'.repeat(20_000_000) + '\n');
    const read = program.symbols(p.uri(NOTES.entry))[0].tools.find((t) => t.name === 'notes.read')!;
    assert.equal(JSON.stringify(read.contract.returns), '{"kind":"opaque","name":"Note"}');
    assert.equal(program.module(p.uri(NOTES.records)), undefined);
    p.write(NOTES.records, records);
    program.fileChanged(p.file(NOTES.records), 'changed');
    const again = program.symbols(p.uri(NOTES.entry))[0].tools.find((t) => t.name === 'notes.read')!;
    assert.equal(again.contract.returns.kind, 'record');
  });

  it('keeps rule units only where a module reads an open document: closed modules keep their findings alone, and the results are the same', () => {
    const entry = NOTES.files[NOTES.entry].replace('name="notes"', 'name=""');
    const p = make({ ...NOTES.files, [NOTES.entry]: entry });
    const closed = new Program({ root: p.root });
    const uris = closed.index();
    const results = (program: Program) => uris.map((u) => [u.slice(p.uri('').length + 1), shown(program.analysis(u)?.findings ?? [])]);
    const expected = results(closed);
    assert.deepEqual(expected.find(([u]) => u === NOTES.entry)?.[1], ['EXT-003@5:9 vis.Extension requires name=<non-empty string>']);
    const none = { rules: { computed: 0, reused: 0 }, symbols: { computed: 0, reused: 0 } };
    for (const u of uris) assert.deepEqual(closed.unitCounts(u), none, `${u}: nobody has it or what it imports open`);
    // tools.py open: the modules that read it (the entry, the package's __init__) keep their units for its next version.
    const tools = p.uri(NOTES.tools);
    const doc = { version: 1, text: NOTES.files[NOTES.tools] };
    const open = new Program({ root: p.root, open: (u) => (u === tools ? doc : undefined) });
    open.index();
    assert.deepEqual(results(open), expected);
    const first = open.unitCounts(p.uri(NOTES.entry));
    assert.ok(first.rules.computed > 0 && first.symbols.computed === 1, JSON.stringify(first));
    assert.deepEqual(open.unitCounts(p.uri(NOTES.records)), none, 'records.py reads no open document');
    doc.version = 2;
    doc.text += '\n';
    for (const u of open.affected([tools])) open.analysis(u);
    assert.deepEqual(results(open), expected);
    const next = open.unitCounts(p.uri(NOTES.entry));
    // Units that read what the edit changed (tools.py's line count) are checked again; most are reused.
    assert.ok(next.rules.reused - first.rules.reused > next.rules.computed - first.rules.computed, `the entry reuses its rule units: ${JSON.stringify([first, next])}`);
  });

  it('keeps no model of an older version alive: opened, edited and closed, each module holds only its current version', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const p = make(NOTES.files);
    const open = new Map<string, { version: number; text: string }>();
    const program = new Program({ root: p.root, open: (u) => open.get(u) });
    const uris = program.index();
    for (const u of uris) program.analysis(u);
    const gone: WeakRef<object>[] = [];
    const models = () => uris.map((u) => program.module(u)?.model).filter((m): m is NonNullable<typeof m> => !!m);
    gone.push(...models().map((m) => new WeakRef(m)));
    // Every Python module opened, edited once, and closed again: the file on disk is what counts.
    const python = uris.filter((u) => u.endsWith('.py'));
    for (const u of python) open.set(u, { version: 1, text: NOTES.files[u.slice(p.uri('').length + 1) as keyof typeof NOTES.files] });
    for (const u of uris) program.analysis(u);
    gone.push(...models().filter((m) => python.includes(m.uri)).map((m) => new WeakRef(m)));
    for (const u of python) open.set(u, { version: 2, text: open.get(u)!.text + '\n' });
    for (const u of uris) program.analysis(u);
    gone.push(...models().filter((m) => python.includes(m.uri)).map((m) => new WeakRef(m)));
    for (const u of python) {
      open.delete(u);
      program.closed(u);
    }
    for (const u of uris) program.analysis(u);
    const current = new Set(models());
    await new Promise((r) => setImmediate(r));
    gc();
    const alive = gone.filter((w) => {
      const m = w.deref();
      return m && !current.has(m as never);
    });
    assert.equal(alive.length, 0, `${alive.length} models of older versions still reachable`);
  });
});
