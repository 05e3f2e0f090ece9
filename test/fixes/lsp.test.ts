// Code actions, suppression and configuration through the bundled server, as an editor drives it: quick
// fixes, "Disable RULE for this line", source.fixAll.visAuthoring (resolved lazily, or at once for clients
// that cannot resolve), each applied as the client applies a WorkspaceEdit; suppression comments and
// [tool.vis-authoring] under the editor's settings; every diagnostic linked to its rule's page.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver/node';
import { startServer, type TestServer } from '../helpers/lsp';
import { project, type Project } from '../helpers/project';
import { pyLines } from '../helpers/fixture';

const RESOLVE = { textDocument: { codeAction: { resolveSupport: { properties: ['edit'] } } } };

/** Three fixable problems: a G1 import in a typed file, a missing alias, a bare function in symbols. */
const FIXABLE = pyLines(
  'import vis',
  'import blockether.vis.extension as vis',
  '',
  '',
  'def greet(name: str) -> str:',
  '    """Say hello."""',
  '    return f"hi {name}"',
  '',
  '',
  'vis.register_extension(vis.Extension(',
  '    name="Greeter Bot",  # shown in /extensions',
  '    description="Greets people.",',
  '    symbols=[greet],',
  '))',
);
const FIXED = pyLines(
  'import blockether.vis.extension as vis',
  '',
  '',
  'def greet(name: str) -> str:',
  '    """Say hello."""',
  '    return f"hi {name}"',
  '',
  '',
  'vis.register_extension(vis.Extension(',
  '    name="Greeter Bot",  # shown in /extensions',
  '    alias="greeter_bot",',
  '    description="Greets people.",',
  '    symbols=[vis.Symbol(greet)],',
  '))',
);

function apply(text: string, uri: string, edit: CodeAction['edit']): string {
  const edits = (edit?.changes?.[uri] ?? []) as TextEdit[];
  return TextDocument.applyEdits(TextDocument.create(uri, 'python', 1, text), edits);
}

const codes = (ds: Diagnostic[]) => ds.map((d) => `${d.code}@${d.range.start.line}:${d.range.start.character}`);

describe('code actions over LSP', () => {
  let server: TestServer;
  let eager: TestServer;
  before(async () => {
    server = await startServer({}, { capabilities: RESOLVE });
    eager = await startServer();
  });
  after(async () => {
    await server.stop();
    await eager.stop();
  });

  const open = async (s: TestServer, uri: string, text: string, version = 1) => {
    const published = s.diagnostics(uri, (p) => p.version === version);
    if (version === 1) s.open(uri, text);
    else s.change(uri, text, version);
    return (await published).diagnostics;
  };
  const actions = (s: TestServer, uri: string, range: Diagnostic['range'], diagnostics: Diagnostic[], only?: string[]) =>
    s.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics, ...(only ? { only } : {}) } }) as Promise<CodeAction[]>;

  it('declares its code action kinds and links every diagnostic to its rule page', async () => {
    const uri = 'file:///tmp/vis-fixes/link.py';
    const ds = await open(server, uri, FIXABLE);
    assert.deepEqual(codes(ds), ['IMP-001@0:0', 'EXT-005@9:23']);
    for (const d of ds) {
      const href = d.codeDescription?.href;
      assert.ok(href?.startsWith('file:') && href.endsWith(`/docs/rules/${d.code}.md`), href);
      assert.match(fs.readFileSync(fileURLToPath(href!), 'utf8'), new RegExp(`^# ${d.code}: `));
    }
  });

  it('fixes everything fixable with source.fixAll.visAuthoring, resolved when the client asks', async () => {
    const uri = 'file:///tmp/vis-fixes/fixall.py';
    const ds = await open(server, uri, FIXABLE);
    const listed = await actions(server, uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, [], ['source.fixAll']);
    assert.deepEqual(listed.map((a) => [a.title, a.kind, !!a.edit]), [['Fix all auto-fixable Vis problems', 'source.fixAll.visAuthoring', false]]);
    const resolved = (await server.connection.sendRequest('codeAction/resolve', listed[0])) as CodeAction;
    assert.equal(apply(FIXABLE, uri, resolved.edit), FIXED);
    // Edits are per changed run of lines, the rest of the file untouched.
    assert.deepEqual(
      (resolved.edit!.changes![uri] as TextEdit[]).map((e) => [e.range.start.line, e.newText]),
      [[0, ''], [11, '    alias="greeter_bot",\n'], [12, 'vis.Symbol(greet)']],
    );
    // Offered as a quick fix on a fixable diagnostic too, and as a source action from Source Action... (only: source).
    const quick = await actions(server, uri, ds[1].range, [ds[1]]);
    assert.deepEqual(quick.map((a) => [a.title, a.kind, a.isPreferred ?? false]), [
      ['Add alias="greeter_bot"', 'quickfix', true],
      ['Disable EXT-005 for this line', 'quickfix', false],
      ['Fix all auto-fixable Vis problems', 'quickfix', false],
    ]);
    assert.deepEqual((await actions(server, uri, ds[1].range, [], ['source'])).map((a) => a.kind), ['source.fixAll.visAuthoring']);
    // Not on every cursor move: no source actions without `only`.
    assert.deepEqual((await actions(server, uri, ds[1].range, [])).map((a) => a.kind), []);
    // A file with nothing fixable has no fix-all action.
    await open(server, uri, FIXED, 2);
    assert.deepEqual(await actions(server, uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, [], ['source.fixAll']), []);
  });

  it('gives clients that cannot resolve actions the fix-all edit at once', async () => {
    const uri = 'file:///tmp/vis-fixes/eager.py';
    await open(eager, uri, FIXABLE);
    const listed = await actions(eager, uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, [], ['source.fixAll.visAuthoring']);
    assert.equal(listed.length, 1);
    assert.equal(apply(FIXABLE, uri, listed[0].edit), FIXED);
  });

  it('lists fix all disabled in a file past 200,000 characters, for clients that resolve and those that cannot', async () => {
    // The fixable file and a comment block after it: re-analysing it after each pass of fixes would hold
    // up every other request (a 2 MB file took 20 s), so the action says where to do it instead.
    const big = FIXABLE + '# padding\n'.repeat(20_001);
    const reason = 'This file has more than 200000 characters: fix all in the terminal with `vis-authoring check --fix`';
    for (const [client, uri] of [[server, 'file:///tmp/vis-fixes/big-lazy.py'], [eager, 'file:///tmp/vis-fixes/big-eager.py']] as const) {
      const ds = await open(client, uri, big);
      assert.deepEqual(codes(ds), ['IMP-001@0:0', 'EXT-005@9:23']);
      const listed = await actions(client, uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, [], ['source.fixAll.visAuthoring']);
      assert.deepEqual(listed.map((a) => [a.title, a.kind, a.disabled?.reason, !!a.edit, !!a.data]), [['Fix all auto-fixable Vis problems', 'source.fixAll.visAuthoring', reason, false, false]]);
      // The quick fix of one problem is still there.
      assert.deepEqual((await actions(client, uri, ds[1].range, [ds[1]])).map((a) => [a.title, a.disabled?.reason]), [
        ['Add alias="greeter_bot"', undefined],
        ['Disable EXT-005 for this line', undefined],
        ['Fix all auto-fixable Vis problems', reason],
      ]);
    }
  });

  it('disables a rule for one line, and reports a suppression that no longer suppresses anything', async () => {
    const uri = 'file:///tmp/vis-fixes/disable.py';
    const ONE = FIXABLE.replace(/vis\.register_extension\(vis\.Extension\([^]*\)\)\n$/, 'vis.register_extension(vis.Extension(name="Greeter Bot", description="Greets people.", symbols=[greet]))\n');
    const ds = await open(server, uri, ONE);
    assert.deepEqual(codes(ds), ['IMP-001@0:0', 'EXT-005@9:23']);
    const disable = (await actions(server, uri, ds[1].range, [ds[1]])).find((a) => a.title === 'Disable EXT-005 for this line')!;
    const text = apply(ONE, uri, disable.edit);
    assert.equal(text, ONE.replace('symbols=[greet]))\n', 'symbols=[greet]))  # vis: ignore[EXT-005]\n'));
    // The call's next error, which Python raises once the alias is there, takes its place.
    const after = await open(server, uri, text, 2);
    assert.deepEqual(codes(after), ['IMP-001@0:0', 'EXT-009@9:96']);
    // The second rule on that line joins the same comment.
    const symbols = after.find((d) => d.code === 'EXT-009')!;
    const joined = apply(text, uri, (await actions(server, uri, symbols.range, [symbols])).find((a) => a.title === 'Disable EXT-009 for this line')!.edit);
    assert.ok(joined.endsWith('symbols=[greet]))  # vis: ignore[EXT-005, EXT-009]\n'), joined);
    assert.deepEqual(codes(await open(server, uri, joined, 3)), ['IMP-001@0:0']);
    // Fixed by hand, the suppression is unused: a hint, shown as unnecessary code, with its removal.
    const unused = await open(server, uri, joined.replace('symbols=[greet]', 'symbols=[vis.Symbol(greet)]'), 4);
    const sup = unused.find((d) => d.code === 'SUP-001')!;
    assert.deepEqual([sup.severity, sup.tags, sup.message], [4, [1], 'unused suppression: no EXT-009 finding on this line']);
    const removal = (await actions(server, uri, sup.range, [sup]))[0];
    assert.equal(removal.title, 'Remove unused suppression of EXT-009');
  });
});

describe('the G1 to G3 migration over LSP', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({}, { capabilities: RESOLVE });
  });
  after(async () => {
    await server.stop();
  });
  const G1 = pyLines('import vis', '', '', 'def bump(n: int = 1) -> int:', '    """Add n."""', '    return n', '', '', 'vis.extension(name="counter", description="Counts.", alias="counter", symbols=[vis.symbol(bump)])');
  const at = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 0 } });
  const ask = (uri: string, line: number, only?: string[]) =>
    server.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: at(line), context: { diagnostics: [], ...(only ? { only } : {}) } }) as Promise<CodeAction[]>;

  it('offers it on the G1 import as a refactoring, anywhere as a source action, and resolves it to the typed file', async () => {
    const uri = 'file:///tmp/vis-fixes/.vis/extensions/counter.py';
    const published = server.diagnostics(uri);
    server.open(uri, G1);
    await published;
    const onImport = await ask(uri, 0);
    assert.deepEqual(onImport.map((a) => [a.title, a.kind]), [['Migrate this file to the typed SDK (G3)', 'refactor.rewrite.visAuthoring.migrateToG3']]);
    assert.deepEqual((await ask(uri, 4)).map((a) => a.kind), []);
    const source = await ask(uri, 4, ['source']);
    assert.deepEqual(source.map((a) => a.kind), ['source.visAuthoring.migrateToG3']);
    const resolved = (await server.connection.sendRequest('codeAction/resolve', onImport[0])) as CodeAction;
    assert.equal(
      apply(G1, uri, resolved.edit),
      pyLines('import blockether.vis.extension as vis', '', '', 'def bump(n: int = 1) -> int:', '    """Add n."""', '    return n', '', '', 'vis.register_extension(vis.Extension(name="counter", description="Counts.", alias="counter", symbols=[vis.Symbol(bump, name="counter_bump")]))'),
    );
  });

  it('shows it disabled, with the reason, when it cannot be done safely', async () => {
    const uri = 'file:///tmp/vis-fixes/.vis/extensions/broken.py';
    const published = server.diagnostics(uri);
    server.open(uri, G1.replace('name="counter"', 'name=""'));
    await published;
    const [a] = await ask(uri, 0);
    assert.deepEqual([a.title, a.disabled], ['Migrate this file to the typed SDK (G3)', { reason: "fix the file's errors first (line 9: [G1-EXT-2] vis.extension(...) requires name=<non-empty string>)" }]);
  });
});

describe('configuration over LSP: [tool.vis-authoring] under the editor settings', () => {
  let p: Project;
  const servers: TestServer[] = [];
  const TEXT = 'import blockether.vis.extension as vis\n\nvis.register_extension(vis.Extension(name="", description=""))  # vis: ignore[EXT-004]\n';
  before(() => {
    p = project({
      'pyproject.toml': '[tool.vis-authoring]\nseverity = { EXT-003 = "warning" }\nignore = ["SYM"]\n\n[tool.vis-authoring.per-file-ignores]\n"scratch/*.py" = ["EXT-003"]\n',
      'tools.py': TEXT,
      'scratch/tools.py': TEXT,
      'sub/pyproject.toml': '[tool.vis-authoring]\nselect = ["EXT-003", "EXT-99"]\n',
      'sub/tools.py': TEXT,
    });
  });
  after(async () => {
    for (const s of servers) await s.stop();
    p.remove();
  });
  const start = async (settings: object) => {
    const s = await startServer(settings, { rootUri: p.uri('') });
    servers.push(s);
    return s;
  };
  const shown = (ds: Diagnostic[]) => ds.map((d) => `${d.code} ${d.severity}`);

  it('reads the project table, its per-file-ignores and suppression comments, and reports what it cannot apply', async () => {
    const s = await start({});
    const config = s.diagnostics(p.uri('sub/pyproject.toml'));
    const at = async (rel: string) => {
      const published = s.diagnostics(p.uri(rel), (x) => x.version === 1);
      s.open(p.uri(rel), TEXT);
      return shown((await published).diagnostics);
    };
    assert.deepEqual(await at('tools.py'), ['EXT-003 2']);
    assert.deepEqual(await at('scratch/tools.py'), []);
    // Its own table selects EXT-003 alone (SUP-001 is not selected either).
    assert.deepEqual(await at('sub/tools.py'), ['EXT-003 1']);
    assert.deepEqual((await config).diagnostics.map((d) => [d.code, d.severity, d.message, d.range.start.line, d.range.start.character]), [
      ['CFG-001', 2, "unknown rule 'EXT-99': not a rule id, a family prefix (such as EXT or G1-HK) or ALL", 1, 21],
    ]);
  });

  it('honours a bare # vis: ignore and # vis: ignore-file in open documents', async () => {
    const s = await start({});
    const bare = s.diagnostics(p.uri('tools.py'), (x) => x.version === 1);
    s.open(p.uri('tools.py'), TEXT.replace('  # vis: ignore[EXT-004]', '  # vis: ignore'));
    assert.deepEqual(shown((await bare).diagnostics), []);
    const file = s.diagnostics(p.uri('scratch/tools.py'), (x) => x.version === 1);
    s.open(p.uri('scratch/tools.py'), '# vis: ignore-file[EXT-004, EXT-003]\n' + TEXT.replace('  # vis: ignore[EXT-004]', ''));
    // EXT-003 is off for scratch/ already (per-file-ignores): its suppression is left alone, not reported.
    assert.deepEqual(shown((await file).diagnostics), []);
  });

  it('re-checks open files when a pyproject.toml changes on disk', async () => {
    const s = await start({});
    const first = s.diagnostics(p.uri('tools.py'), (x) => x.version === 1);
    s.open(p.uri('tools.py'), TEXT);
    assert.deepEqual(shown((await first).diagnostics), ['EXT-003 2']);
    const old = fs.readFileSync(p.file('pyproject.toml'), 'utf8');
    try {
      p.write('pyproject.toml', old.replace('ignore = ["SYM"]', 'ignore = ["SYM", "EXT-003"]'));
      const again = s.diagnostics(p.uri('tools.py'), (x) => x.diagnostics.length === 0);
      await s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: p.uri('pyproject.toml'), type: 2 }] });
      assert.deepEqual(shown((await again).diagnostics), []);
    } finally {
      p.write('pyproject.toml', old);
    }
  });

  it('lets the editor settings override the project: severity wins, ignore adds, select replaces', async () => {
    const s = await start({ severity: { 'EXT-003': 'hint' }, ignore: ['SUP'] });
    const published = s.diagnostics(p.uri('tools.py'), (x) => x.version === 1);
    s.open(p.uri('tools.py'), TEXT.replace('  # vis: ignore[EXT-004]', '  # vis: ignore[EXT-004, SYM-008]'));
    assert.deepEqual(shown((await published).diagnostics), ['EXT-003 4']);
    const selecting = await start({ select: ['EXT-004'] });
    const again = selecting.diagnostics(p.uri('tools.py'), (x) => x.version === 1);
    selecting.open(p.uri('tools.py'), TEXT.replace('  # vis: ignore[EXT-004]', ''));
    assert.deepEqual(shown((await again).diagnostics), ['EXT-004 1']);
  });
});
