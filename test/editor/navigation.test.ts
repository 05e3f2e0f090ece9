// Go to definition, type definition and references over the bundled server, in a packaged extension
// whose modules resolve through `[tool.vis] source_paths` (which a Python language server does not
// know). Cursor markers in the fixtures; the locations asserted exactly; silence everywhere else.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { py } from '../helpers/fixture';
import { fourslash, type Fixture, type Position } from '../helpers/fourslash';
import { startServer, type TestServer } from '../helpers/lsp';
import { project, type Project } from '../helpers/project';

const PKG = '.vis/extensions/notes';

const FILES: Record<string, Fixture> = {
  [`${PKG}/extension.py`]: fourslash(py`
    import blockether.vis.extension as vis

    from notes import NotesTools, /*import*/search
    from notes.hooks import guard


    def {|show:show|}(ctx):
        """Show the notes."""
        return "ok"


    vis.register_extension(vis.Extension(
        name="notes",
        description="Keeps notes.",
        alias="notes",
        symbols=[
            vis.Symbol(/*nsArg*/NotesTools(), name="notes"),
            vis.Symbol({|fnArg:se/*fnArg*/arch|}, name=/*name*/"find", activity=vis./*activity*/Activity("generic")),
        ],
        slash_commands=[vis.SlashCommand("notes", run=/*run*/show)],
        op_hooks=[vis.OpHook(["patch"], /*fn*/guard)],
    ))


    def probe():
        """A test helper."""
        assert vis.tools["notes./*str*/read"]
        assert vis.tools.not/*ns*/es.read("x")
        return vis.tools./*attr*/find("x"), /*plain*/show(None)
  `),
  [`${PKG}/src/notes/tools.py`]: fourslash(py`
    import blockether.vis.extension as vis

    from .records import Note


    class {|NotesTools:NotesTools|}:
        """Notes in the project."""

        @vis.method(activity=vis.Activity("generic"))
        def {|read:re/*readDef*/ad|}(self, title: str) -> Note:
            """Read one note by its title."""


    def {|search:sea/*searchDef*/rch|}(query: str) -> list[No/*record*/te]:
        """Search the notes."""


    def /*helper*/helper():
        pass
  `),
  [`${PKG}/src/notes/records.py`]: fourslash(py`
    from dataclasses import dataclass


    @dataclass(frozen=True)
    class {|Note:Note|}:
        """One stored note."""

        title: str
  `),
  [`${PKG}/src/notes/hooks.py`]: fourslash(py`
    def {|guard:guard|}(call):
        return None
  `),
  [`${PKG}/src/notes/__init__.py`]: fourslash('from .tools import NotesTools, search\n'),
  [`${PKG}/pyproject.toml`]: fourslash('[project]\nname = "notes"\nversion = "0.1.0"\n\n[tool.vis]\nsource_paths = ["src"]\n'),
};

describe('navigation (LSP)', () => {
  let server: TestServer;
  let p: Project;
  const ENTRY = `${PKG}/extension.py`;
  const TOOLS = `${PKG}/src/notes/tools.py`;

  before(async () => {
    p = project(Object.fromEntries(Object.entries(FILES).map(([k, f]) => [k, f.text])));
    server = await startServer({}, { rootUri: p.uri('') });
    const published = server.diagnostics(p.uri(ENTRY));
    server.open(p.uri(ENTRY), FILES[ENTRY].text);
    await published;
  });
  after(async () => {
    await server.stop();
    p.remove();
  });

  const request = (method: string, file: string, position: Position, extra: object = {}) =>
    server.connection.sendRequest(method, { textDocument: { uri: p.uri(file) }, position, ...extra }) as Promise<{ uri: string; range: unknown }[] | null>;
  const where = (file: string, name: string) => ({ uri: p.uri(file), range: FILES[file].named[name] });
  const marker = (file: string, name: string) => FILES[file].markers[name];

  it('goes from the Symbol target, across modules, to the def or class', async () => {
    assert.deepEqual(await request('textDocument/definition', ENTRY, marker(ENTRY, 'fnArg')), [where(TOOLS, 'search')]);
    assert.deepEqual(await request('textDocument/definition', ENTRY, marker(ENTRY, 'nsArg')), [where(TOOLS, 'NotesTools')]);
  });

  it('goes from a callback of an SDK declaration to its def', async () => {
    assert.deepEqual(await request('textDocument/definition', ENTRY, marker(ENTRY, 'run')), [where(ENTRY, 'show')]);
    assert.deepEqual(await request('textDocument/definition', ENTRY, marker(ENTRY, 'fn')), [where(`${PKG}/src/notes/hooks.py`, 'guard')]);
  });

  it('goes from a public tool name (a vis.tools lookup) to the tool, and from a namespace name to its Symbol', async () => {
    assert.deepEqual(await request('textDocument/definition', ENTRY, marker(ENTRY, 'str')), [where(TOOLS, 'read')]);
    assert.deepEqual(await request('textDocument/definition', ENTRY, marker(ENTRY, 'attr')), [where(TOOLS, 'search')]);
    const ns = FILES[ENTRY].text.split('\n').findIndex((l) => l.includes('vis.Symbol(NotesTools()'));
    const line = FILES[ENTRY].text.split('\n')[ns];
    assert.deepEqual(await request('textDocument/definition', ENTRY, marker(ENTRY, 'ns')), [
      { uri: p.uri(ENTRY), range: { start: { line: ns, character: line.indexOf('vis.Symbol') }, end: { line: ns, character: line.lastIndexOf('),') + 1 } } },
    ]);
  });

  it('goes from a tool to the record its contract returns (type definition)', async () => {
    assert.deepEqual(await request('textDocument/typeDefinition', ENTRY, marker(ENTRY, 'fnArg')), [where(`${PKG}/src/notes/records.py`, 'Note')]);
  });

  it('lists the vis.Symbol(...) that exports a function as its reference, in the entry', async () => {
    await server.open(p.uri(TOOLS), FILES[TOOLS].text);
    const fnArg = { uri: p.uri(ENTRY), range: FILES[ENTRY].named.fnArg };
    assert.deepEqual(await request('textDocument/references', TOOLS, marker(TOOLS, 'searchDef'), { context: { includeDeclaration: false } }), [fnArg]);
    assert.deepEqual(await request('textDocument/references', TOOLS, marker(TOOLS, 'searchDef'), { context: { includeDeclaration: true } }), [where(TOOLS, 'search'), fnArg]);
    const nsLine = FILES[ENTRY].text.split('\n').findIndex((l) => l.includes('vis.Symbol(NotesTools()'));
    const col = FILES[ENTRY].text.split('\n')[nsLine].indexOf('NotesTools()');
    assert.deepEqual(await request('textDocument/references', TOOLS, marker(TOOLS, 'readDef'), { context: { includeDeclaration: false } }), [
      { uri: p.uri(ENTRY), range: { start: { line: nsLine, character: col }, end: { line: nsLine, character: col + 'NotesTools()'.length } } },
    ]);
  });

  it('goes from a record named in an exported tool\'s signature to its class', async () => {
    assert.deepEqual(await request('textDocument/definition', TOOLS, marker(TOOLS, 'record')), [where(`${PKG}/src/notes/records.py`, 'Note')]);
    assert.equal(await request('textDocument/definition', TOOLS, { ...marker(TOOLS, 'record'), character: marker(TOOLS, 'record').character - 6 }), null);
    // Type definition on the def of a tool another module exports.
    assert.deepEqual(await request('textDocument/typeDefinition', TOOLS, marker(TOOLS, 'searchDef')), [where(`${PKG}/src/notes/records.py`, 'Note')]);
  });

  it('answers nothing where a Python language server answers: imports, plain calls, keywords, SDK names, other defs', async () => {
    for (const m of ['import', 'plain', 'name', 'activity']) assert.equal(await request('textDocument/definition', ENTRY, marker(ENTRY, m)), null, m);
    assert.equal(await request('textDocument/typeDefinition', ENTRY, marker(ENTRY, 'run')), null);
    assert.equal(await request('textDocument/references', TOOLS, marker(TOOLS, 'helper'), { context: { includeDeclaration: true } }), null);
  });
});
