// The e2e checks that run inside real VS Code (code-server), in order. Add new checks to this list.
// Each check gets a CheckContext (fixture files, diagnostic waits); it throws on failure and returns what
// it observed, which lands in the result JSON. Mark a check `soft` to record without failing the run.
// Fixture files live in test/e2e/fixtures/workspace/ (a fresh copy per run, so checks may edit and save).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { spawnSync } from 'node:child_process';
import { FakeGateway, LEGACY_FAILED, LEGACY_OK } from '../../../host/fakeGateway';
import { previewPart } from '../../../helpers/preview';
import { contributedSnippets, insertedText } from '../../../helpers/snippets';
import { SNIPPET_CASES, replacedSpan, withInserted } from '../../snippetCases';
import { type Check, type CheckContext, type Diag, PRODUCT_ID, hoverText, toDiag } from './harness';

/**
 * missing_alias.py, line 2: vis.register_extension(vis.Extension(name="", description="d")); line 3:
 * EXT = vis.Extension(name="ext", description="d", symbols=[print]). One mistake per declaration: each
 * gets the one error Vis raises for it.
 */
const MISSING_ALIAS: Diag[] = [
  { code: 'EXT-003', message: 'vis.Extension requires name=<non-empty string>', severity: 'error', range: [2, 42, 2, 44] },
  { code: 'EXT-005', message: 'vis.Extension requires alias=<string> when symbols are declared', severity: 'error', range: [3, 6, 3, 19] },
];

async function quickFixes(uri: vscode.Uri, diagnostic: vscode.Diagnostic): Promise<vscode.CodeAction[]> {
  const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
    'vscode.executeCodeActionProvider', uri, diagnostic.range, vscode.CodeActionKind.QuickFix.value);
  return (actions ?? []).filter((a): a is vscode.CodeAction => 'title' in a && !('command' in a && typeof a.command === 'string'));
}

function describeAction(a: vscode.CodeAction): unknown {
  return {
    title: a.title,
    kind: a.kind?.value,
    isPreferred: a.isPreferred,
    // vscode.executeCodeActionProvider does not carry CodeAction.diagnostics back (1.100), so it is not compared.
    edits: a.edit?.entries().flatMap(([uri, edits]) => edits.map((e) => ({
      file: uri.path.split('/').pop(),
      range: [e.range.start.line, e.range.start.character, e.range.end.line, e.range.end.character],
      newText: e.newText,
    }))),
  };
}

/** Runs `asserts`; a failing assertion carries `observed` into the result JSON. */
function expect<T>(observed: T, asserts: (o: T) => void): T {
  try {
    asserts(observed);
  } catch (e) {
    throw Object.assign(e as Error, { observed });
  }
  return observed;
}

const OUTPUT = 'Vis Authoring';
const TRACE_OUTPUT = 'Vis Authoring (LSP trace)';
const FORMAT_FIXTURE = 'format_me.py';

/** The `doc(name)` text folded into a contract hover. */
function hoverDoc(markdown: string, name: string): string | undefined {
  return new RegExp(`<summary>doc\\(${name}\\)</summary>\\n\\n\`\`\`text\\n([\\s\\S]*?)\\n\`\`\`\\n`).exec(markdown)?.[1];
}

/** The `doc(<name>)` page of a docs preview. */
function previewPage(text: string, name: string): string | undefined {
  return previewPart(text, `Tool ${name}: doc(${name})`);
}

/** The registry folder the product reads the gateway from (HOME is the run's private home). */
const registryDir = () => path.join(os.homedir(), '.vis', 'gateway', 'registry');

/** Tabs showing a diff whose left side is `uri`. */
function diffTabs(uri: vscode.Uri): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((tab) =>
    tab.input instanceof vscode.TabInputTextDiff && tab.input.original.toString() === uri.toString());
}

/**
 * Registers a Python formatter for format_me.py and plain.py only: replaces ' with " on every line that has
 * one. The harness registers it at activation and, like Ruff or Black Formatter, says in its manifest that
 * it is a formatter for Python, so it is the one Python formatter installed (no editor.defaultFormatter).
 */
export function registerQuoteFormatter(): vscode.Disposable {
  return vscode.languages.registerDocumentFormattingEditProvider({ language: 'python', pattern: `**/{${FORMAT_FIXTURE},plain.py}` }, {
    provideDocumentFormattingEdits(doc) {
      const edits: vscode.TextEdit[] = [];
      for (let i = 0; i < doc.lineCount; i++) {
        const line = doc.lineAt(i);
        if (line.text.includes("'")) edits.push(vscode.TextEdit.replace(line.range, line.text.replace(/'/g, '"')));
      }
      return edits;
    },
  });
}

/** Points visAuthoring.host.databasePath (a machine setting, so user level) at the WAL fixture copy; returns the path. */
export async function useStateFixture(): Promise<string> {
  const db = process.env.VIS_E2E_STATE_DB;
  assert.ok(db && fs.existsSync(db), `VIS_E2E_STATE_DB (${db}) does not name the copied state fixture`);
  await vscode.workspace.getConfiguration('visAuthoring.host').update('databasePath', db, vscode.ConfigurationTarget.Global);
  return db;
}

async function stateValue(t: CheckContext, ext: string, key: string): Promise<string> {
  await vscode.commands.executeCommand('visAuthoring.openStateValue', ext, key);
  const doc = await t.waitForDocument(`the vis-state document of ${ext}/${key}`,
    (u) => u.scheme === 'vis-state' && new URLSearchParams(u.query).get('ext') === ext && new URLSearchParams(u.query).get('key') === key,
    (text) => text.length > 0);
  return doc.getText();
}

/** What Python says of a text: null when `ast.parse` accepts it, else the SyntaxError (nothing is run). */
function pythonSyntaxError(text: string): string | null {
  const python = process.env.VIS_E2E_PYTHON || 'python3';
  const r = spawnSync(python, ['-c', 'import ast, sys\ntry:\n    ast.parse(sys.stdin.read())\nexcept SyntaxError as e:\n    print(f"SyntaxError: {e.msg} (line {e.lineno})"); sys.exit(1)'], { input: text, encoding: 'utf8' });
  if (r.error || (r.status !== 0 && r.status !== 1)) throw new Error(`${python} did not run: ${r.error?.message ?? r.stderr}`);
  return r.status === 0 ? null : r.stdout.trim();
}

/** Types into the focused editor as the keyboard does (every cursor of a snippet placeholder and its mirrors). */
async function type(text: string): Promise<void> {
  await vscode.commands.executeCommand('type', { text });
}

export const checks: Check[] = [
  {
    name: 'snippets: each contributed snippet, inserted by name, gives the text VS Code\'s snippet grammar says, valid Python and no diagnostics',
    timeoutMs: 90000,
    async run(t) {
      const product = vscode.extensions.getExtension(PRODUCT_ID);
      assert.ok(product, `${PRODUCT_ID} is not installed`);
      const snippets = contributedSnippets(path.join(product.extensionPath, 'snippets', 'vis.code-snippets'));
      const observed: Record<string, unknown>[] = [];
      for (const c of SNIPPET_CASES) {
        const editor = await t.open(c.file);
        const doc = editor.document;
        await t.waitForCodes(doc.uri, c.before);
        const fixture = doc.getText();
        const [start, end] = replacedSpan(fixture, c);
        editor.selection = new vscode.Selection(doc.positionAt(start), doc.positionAt(end));
        await vscode.commands.executeCommand('editor.action.insertSnippet', { langId: 'python', name: c.name });
        const snippet = snippets.find((s) => s.name === c.name);
        assert.ok(snippet, `the installed snippets file has no ${c.name}`);
        let expected = withInserted(fixture, c, insertedText(snippet.template));
        let cursorsOnFirst: number | undefined;
        if (c.prefix === 'vis-extension') {
          // Tabbed through as a user does: a new function name, Tab, a new parameter name, Tab to the end.
          cursorsOnFirst = editor.selections.length;
          await type('hello');
          await vscode.commands.executeCommand('jumpToNextSnippetPlaceholder');
          await type('who');
          expected = expected.replace('def greet(name: str)', 'def hello(who: str)').replace('return f"hi {name}"', 'return f"hi {who}"').replace('vis.Symbol(greet,', 'vis.Symbol(hello,');
        }
        await vscode.commands.executeCommand('leaveSnippet');
        const text = doc.getText();
        const row: Record<string, unknown> = { snippet: c.prefix, file: c.file, syntaxError: pythonSyntaxError(text), asExpected: text === expected };
        if (cursorsOnFirst !== undefined) row.cursorsOnFirstPlaceholder = cursorsOnFirst;
        if (!row.asExpected) row.text = text;
        try {
          row.diagnosticsAfter = (await t.waitForCodes(doc.uri, [])).map(toDiag);
        } catch (e) {
          row.diagnosticsAfter = (e as Error).message;
        }
        observed.push(row);
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
      return expect(observed, (o) => {
        for (const row of o) {
          assert.equal(row.syntaxError, null, `${row.snippet}: Python's ast.parse accepts the inserted text`);
          assert.equal(row.asExpected, true, `${row.snippet}: the editor inserted the text the snippet grammar gives`);
          assert.deepEqual(row.diagnosticsAfter, [], `${row.snippet}: no diagnostics after the insertion`);
        }
        assert.equal(o[0].cursorsOnFirstPlaceholder, 2, 'the function name and its mirror in vis.Symbol(...) are edited together');
      });
    },
  },
  {
    name: 'activation: opening a Python file activates vis-authoring',
    async run(t) {
      const ext = vscode.extensions.getExtension(PRODUCT_ID);
      assert.ok(ext, `${PRODUCT_ID} is not installed`);
      const t0 = Date.now();
      await t.open('missing_alias.py');
      await t.until('the extension to activate', () => ext.isActive);
      return { version: ext.packageJSON.version, activatedAfterOpenMs: Date.now() - t0 };
    },
  },
  {
    name: 'diagnostics: EXT-003 and EXT-005 with messages, ranges and severity',
    async run(t) {
      const t0 = Date.now();
      const uri = (await t.open('missing_alias.py')).document.uri;
      const ds = await t.waitForCodes(uri, ['EXT-003', 'EXT-005']);
      const got = ds.map(toDiag);
      const observed = { firstDiagnosticsMs: Date.now() - t0, diagnostics: got };
      try {
        assert.deepEqual(got, MISSING_ALIAS);
      } catch (e) {
        throw Object.assign(e as Error, { observed });
      }
      return observed;
    },
  },
  {
    name: 'hover: whatever the hover provider returns on the Extension call (recorded only)',
    soft: true,
    async run(t) {
      const uri = (await t.open('missing_alias.py')).document.uri;
      const at: Record<string, [number, number]> = {
        'import (0:20)': [0, 20],
        'register_extension (2:10)': [2, 10],
        'Extension (2:30)': [2, 30],
        'name= (2:39)': [2, 39],
        'symbols= (3:50)': [3, 50],
      };
      const observed: Record<string, string[]> = {};
      for (const [label, [line, ch]] of Object.entries(at)) {
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(line, ch));
        observed[label] = hoverText(hovers);
      }
      return observed;
    },
  },
  {
    name: 'code action: EXT-005 offers the quick fix Add alias="ext"',
    async run(t) {
      const uri = (await t.open('missing_alias.py')).document.uri;
      const [, ext005] = await t.waitForCodes(uri, ['EXT-003', 'EXT-005']);
      const actions = await quickFixes(uri, ext005);
      const observed = actions.map(describeAction);
      const fix = actions.find((a) => a.title === 'Add alias="ext"');
      try {
        assert.ok(fix, 'no code action titled Add alias="ext"');
        assert.deepEqual(describeAction(fix), {
          title: 'Add alias="ext"', kind: 'quickfix', isPreferred: true,
          edits: [{ file: 'missing_alias.py', range: [3, 30, 3, 30], newText: ', alias="ext"' }],
        });
      } catch (e) {
        throw Object.assign(e as Error, { observed });
      }
      return observed;
    },
  },
  {
    name: 'settings: visAuthoring.severity {"EXT-005": "warning"} re-grades EXT-005, and back',
    async run(t) {
      const uri = (await t.open('missing_alias.py')).document.uri;
      const config = () => vscode.workspace.getConfiguration('visAuthoring', uri);
      const severityOf = (ds: Diag[], code: string) => ds.find((d) => d.code === code)?.severity;
      await t.waitForCodes(uri, ['EXT-003', 'EXT-005']);
      const t0 = Date.now();
      await config().update('severity', { 'EXT-005': 'warning' }, vscode.ConfigurationTarget.Workspace);
      try {
        await t.waitForDiagnostics(uri, (ds) => severityOf(ds, 'EXT-005') === 'warning' && severityOf(ds, 'EXT-003') === 'error');
      } finally {
        await config().update('severity', undefined, vscode.ConfigurationTarget.Workspace);
      }
      const regradedMs = Date.now() - t0;
      await t.waitForDiagnostics(uri, (ds) => severityOf(ds, 'EXT-005') === 'error');
      return { regradedMs, restoredMs: Date.now() - t0 - regradedMs };
    },
  },
  {
    name: 'quick fix: applying Add alias="ext" clears EXT-005 and leaves EXT-003',
    async run(t) {
      const editor = await t.open('apply_fix.py');
      const uri = editor.document.uri;
      const [, ext005] = await t.waitForCodes(uri, ['EXT-003', 'EXT-005']);
      const fix = (await quickFixes(uri, ext005)).find((a) => a.title === 'Add alias="ext"');
      assert.ok(fix?.edit, 'no Add alias="ext" fix with an edit');
      const t0 = Date.now();
      assert.ok(await vscode.workspace.applyEdit(fix.edit), 'applyEdit returned false');
      await t.waitForCodes(uri, ['EXT-003']);
      const line = editor.document.lineAt(3).text;
      assert.equal(line, 'EXT = vis.Extension(name="ext", alias="ext", description="d", symbols=[print])');
      await editor.document.save();
      return { line, rediagnosedMs: Date.now() - t0 };
    },
  },
  {
    name: 'edit: typing a name clears EXT-003 (didChange round trip)',
    async run(t) {
      const editor = await t.open('apply_fix.py');
      const uri = editor.document.uri;
      await t.waitForCodes(uri, ['EXT-003']);
      const t0 = Date.now();
      const ok = await editor.edit((b) => b.insert(new vscode.Position(2, 43), 'demo'));
      assert.ok(ok, 'the edit was not applied');
      await t.waitForCodes(uri, []);
      await editor.document.save();
      return { line: editor.document.lineAt(2).text, clearedMs: Date.now() - t0 };
    },
  },
  {
    name: 'rule page: a diagnostic code links to its page, and the link opens the page rendered',
    async run(t) {
      const uri = (await t.open('missing_alias.py')).document.uri;
      const [, ext005] = await t.waitForCodes(uri, ['EXT-003', 'EXT-005']);
      const code = ext005.code as { value: string; target: vscode.Uri };
      const observed = { value: code.value, target: code.target.toString(true) };
      expect(observed, (o) => assert.deepEqual(o, { value: 'EXT-005', target: 'command:visAuthoring.showRuleDocumentation?["EXT-005"]' }));
      // What the link runs (the Problems panel and the hover open it with commands allowed).
      await vscode.commands.executeCommand(code.target.path, ...JSON.parse(decodeURIComponent(code.target.query)));
      const tab = await t.until('a Markdown preview of EXT-005.md', async () =>
        vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((x) => x.label.includes('EXT-005.md') && x.input instanceof vscode.TabInputWebview), 10000);
      return { ...observed, tab: tab.label };
    },
  },
  {
    name: 'fix all on save: editor.codeActionsOnSave {"source.fixAll": "explicit"} applies every safe fix when the file is saved',
    timeoutMs: 30000,
    async run(t) {
      const editor = await t.open('fix_all.py');
      const uri = editor.document.uri;
      // One error per call (the first the SDK raises): EXT-005 hides EXT-009 and EXT-010 until it is fixed; fix all fixes them all.
      await t.waitForCodes(uri, ['EXT-005', 'HOOK-006']);
      const config = vscode.workspace.getConfiguration('editor', { languageId: 'python' });
      await config.update('codeActionsOnSave', { 'source.fixAll': 'explicit' }, vscode.ConfigurationTarget.Workspace, true);
      const t0 = Date.now();
      try {
        await vscode.window.showTextDocument(editor.document);
        await vscode.commands.executeCommand('workbench.action.files.save');
        await t.waitForDocument('fix_all.py with the fixes applied', (u) => u.toString() === uri.toString(), (text) => text.includes('alias="greeter_bot"'));
      } finally {
        await config.update('codeActionsOnSave', undefined, vscode.ConfigurationTarget.Workspace, true);
      }
      const text = editor.document.getText();
      // What is left is guidance: the tool has no Activity (information, no safe fix).
      await t.waitForCodes(uri, ['SYM-008']);
      return expect({ text, dirty: editor.document.isDirty, savedMs: Date.now() - t0 }, (o) => {
        assert.equal(o.text, [
          'import blockether.vis.extension as vis', '', '',
          'def greet(name: str) -> str:', '    """Greet one person by name."""', '    return f"hi {name}"', '', '',
          'def guard(call):', '    return None', '', '',
          'vis.register_extension(vis.Extension(',
          '    name="Greeter Bot",',
          '    alias="greeter_bot",',
          '    description="Greets people.",',
          '    env=["GREETER_TOKEN"],',
          '    symbols=[vis.Symbol(greet)],',
          '    op_hooks=[vis.OpHook(["patch"], guard)],',
          '))', '',
        ].join('\n'));
        assert.equal(o.dirty, false);
      });
    },
  },
  {
    name: 'quick fix: Disable EXT-006 for this line inserts # vis: ignore[EXT-006] and the finding goes',
    async run(t) {
      const editor = await t.open('suppress.py');
      const uri = editor.document.uri;
      const [ext006] = await t.waitForCodes(uri, ['EXT-006']);
      const actions = await quickFixes(uri, ext006);
      const disable = actions.find((a) => a.title === 'Disable EXT-006 for this line');
      expect(actions.map(describeAction), () => assert.ok(disable?.edit, 'no Disable EXT-006 for this line action'));
      assert.ok(await vscode.workspace.applyEdit(disable!.edit!), 'applyEdit returned false');
      await t.waitForCodes(uri, []);
      const line = editor.document.lineAt(2).text;
      assert.equal(line, 'vis.register_extension(vis.Extension(name="quiet", description="Quiet.", version=2))  # vis: ignore[EXT-006]');
      await editor.document.save();
      return { actions: actions.map((a) => a.title), line };
    },
  },
  {
    name: 'refactor: Migrate this file to the typed SDK (G3) on import vis rewrites the G1 file',
    async run(t) {
      const editor = await t.open('counter_g1.py');
      const uri = editor.document.uri;
      await t.waitForCodes(uri, []);
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, new vscode.Range(0, 0, 0, 0), vscode.CodeActionKind.Refactor.value, 5);
      const migrate = (actions ?? []).find((a) => a.title === 'Migrate this file to the typed SDK (G3)');
      expect((actions ?? []).map(describeAction), () => assert.ok(migrate?.edit, 'no resolved migration action'));
      assert.ok(await vscode.workspace.applyEdit(migrate!.edit!), 'applyEdit returned false');
      const text = editor.document.getText();
      await t.waitForCodes(uri, []);
      await editor.document.save();
      return expect({ kind: migrate!.kind?.value, text }, (o) => {
        assert.equal(o.kind, 'refactor.rewrite.visAuthoring.migrateToG3');
        assert.ok(o.text.startsWith('import blockether.vis.extension as vis\n'), o.text);
        assert.ok(o.text.includes('vis.register_extension(vis.Extension(\n    name="counter",'), o.text);
        assert.ok(o.text.includes('symbols=[vis.Symbol(bump, name="counter_bump", tag="mutation")],\n))\n'), o.text);
      });
    },
  },
  {
    name: 'editor: completion (SDK keywords, the tags), signature help (the active parameter), the Outline, F12 into a sibling module',
    timeoutMs: 30000,
    async run(t) {
      const editor = await t.open('editor/extension.py');
      const doc = editor.document;
      const label = (i: vscode.CompletionItem) => (typeof i.label === 'string' ? i.label : i.label.label);
      // Our items: VS Code's own snippet and word suggestions are left out of the comparison.
      const ours = async (at: vscode.Position, trigger?: string) => {
        const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, at, trigger);
        return list.items.filter((i) => i.kind !== vscode.CompletionItemKind.Snippet && i.kind !== vscode.CompletionItemKind.Text).map(label);
      };
      const afterSearch = t.find(doc, 'vis.Symbol(search, ', 'vis.Symbol(search, '.length);
      const inTag = t.find(doc, 'tag="observation"', 'tag="'.length);
      const phase = t.find(doc, 'phase="before"', 'phase="'.length);
      const keywords = await t.until('the Symbol keywords', async () => {
        const items = await ours(afterSearch, ',');
        return items.length ? items : undefined;
      });
      const tags = await ours(inTag, '"');
      const help = await vscode.commands.executeCommand<vscode.SignatureHelp>('vscode.executeSignatureHelpProvider', doc.uri, phase, ',');
      const signature = help?.signatures[help.activeSignature];
      const active = signature?.parameters[help.activeParameter]?.label;
      const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', doc.uri);
      const outline = (symbols ?? []).map((s) => ({ name: s.name, detail: s.detail, children: s.children.map((c) => `${c.name} (${c.detail})`) }));
      const definitions = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', doc.uri, t.find(doc, 'vis.Symbol(search', 'vis.Symbol(se'.length));
      const target = definitions.map((d) => ('targetUri' in d ? { uri: d.targetUri, range: d.targetSelectionRange ?? d.targetRange } : d)).map((d) => `${d.uri.path.split('/').slice(-2).join('/')}:${d.range.start.line}:${d.range.start.character}`);
      const observed = {
        keywords,
        tags,
        signature: signature?.label,
        activeParameter: typeof active === 'string' ? active : active && signature!.label.slice(active[0], active[1]),
        outline,
        definitions: target,
      };
      return expect(observed, (o) => {
        assert.deepEqual(o.keywords, ['name=', 'is_hidden=']);
        assert.deepEqual(o.tags, ['observation', 'mutation', 'verification', 'external']);
        assert.equal(o.signature, 'OpHook(ops: Sequence[str], fn: Callable[..., Any], phase: Literal["before", "after"] = "before")');
        assert.equal(o.activeParameter, 'phase: Literal["before", "after"] = "before"');
        assert.deepEqual(o.outline, [{ name: 'notes', detail: 'G3 · alias notes', children: ['search (observation)', 'before patch (guard)'] }]);
        assert.deepEqual(o.definitions, ['editor/tools.py:3:4']);
      });
    },
  },
  {
    name: 'contract hover: vis.Symbol( and def measure show the contract JSON and doc(probe); Copy Symbol Contract copies it',
    timeoutMs: 30000,
    async run(t) {
      const editor = await t.open('probe/extension.py');
      const doc = editor.document;
      const onSymbol = t.find(doc, 'vis.Symbol(', 6); // on "Symbol"
      const onDef = t.find(doc, 'def measure', 6); // on "measure"
      const symbolHover = await t.waitForHover(doc.uri, onSymbol, '"name": "probe"');
      const defHover = await t.waitForHover(doc.uri, onDef, '"name": "probe"');
      const want = [
        '**`probe`** · Vis tool · tag `observation`',
        "probe(target: str, /, *labels: str, timeout_s: float | None = None, **options: bool) -> 'Reading'",
        // The pipe of the union escaped, so that GFM keeps it in the Type column.
        '| `timeout_s` | `float \\| None` | keyword_only | `None` | Seconds; None disables the timeout. |',
        '<details><summary>Contract JSON (C3)</summary>',
        '<details><summary>doc(probe)</summary>',
        '"name": "probe"',
        '"kind": "record"',
        '"name": "Reading"',
        'Effect: observation',
        '- timeout_s: float | None — Seconds; None disables the timeout. (keyword_only; default None)',
        'Returns: Reading\nOne measurement.',
      ];
      // The clipboard: cleared first, so that what is read back is what the command wrote.
      await vscode.env.clipboard.writeText('');
      editor.selection = new vscode.Selection(onSymbol, onSymbol);
      await vscode.commands.executeCommand('visAuthoring.copySymbolContract');
      const copied = await t.until('the contract on the clipboard', async () => (await vscode.env.clipboard.readText()) || undefined, 5000);
      const contract = JSON.parse(copied) as { name: string; tag: string; parameters: { name: string; kind: string }[]; returns: { kind: string; name: string; fields: { name: string }[] } };
      const observed = {
        symbolHoverFirstLine: symbolHover.split('\n')[0],
        missingOnSymbol: want.filter((w) => !symbolHover.includes(w)),
        missingOnDef: want.filter((w) => !defHover.includes(w)),
        sameCardOnBoth: symbolHover === defHover,
        hoverDoc: hoverDoc(symbolHover, 'probe'),
        clipboard: { chars: copied.length, name: contract.name, tag: contract.tag, parameters: contract.parameters.map((p) => `${p.name}:${p.kind}`), returns: `${contract.returns.kind} ${contract.returns.name} {${contract.returns.fields.map((f) => f.name).join(', ')}}` },
        clipboardIsTheHoverJson: symbolHover.includes('```json\n' + copied + '\n```'),
      };
      return expect(observed, (o) => {
        assert.deepEqual(o.missingOnSymbol, []);
        assert.deepEqual(o.missingOnDef, []);
        assert.equal(contract.name, 'probe');
        assert.deepEqual(o.clipboard.parameters, ['target:positional_only', 'labels:var_positional', 'timeout_s:keyword_only', 'options:var_keyword']);
        assert.equal(o.clipboard.returns, 'record Reading {value, unit}');
        assert.ok(o.clipboardIsTheHoverJson, 'the clipboard holds the JSON the hover shows');
      });
    },
  },
  {
    name: 'docs preview: code lenses open the vis-preview document; it follows an edit of the docstring',
    timeoutMs: 45000,
    async run(t) {
      const editor = await t.open('preview/extension.py');
      const source = editor.document.uri;
      const registration = t.find(editor.document, 'vis.register_extension(').line;
      const lenses = await t.until('two code lenses', async () => {
        const ls = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', source);
        return (ls ?? []).length >= 2 && ls;
      });
      const lensRows = lenses.map((l) => ({ line: l.range.start.line, title: l.command?.title, command: l.command?.command, arguments: l.command?.arguments }));
      const docsLens = lenses.find((l) => l.command?.command === 'visAuthoring.previewDocs');
      assert.ok(docsLens?.command, `no lens runs visAuthoring.previewDocs: ${JSON.stringify(lensRows)}`);
      // What clicking the lens does.
      const t0 = Date.now();
      await vscode.commands.executeCommand(docsLens.command.command, ...(docsLens.command.arguments ?? []));
      const isPreview = (u: vscode.Uri) => u.scheme === 'vis-preview' && new URLSearchParams(u.query).get('source') === source.toString()
        && new URLSearchParams(u.query).get('kind') === 'docs';
      const preview = await t.waitForDocument('the docs preview', isPreview, (text) => text.includes('doc(probe)'), 30000);
      const openedMs = Date.now() - t0;
      const before = preview.getText();
      // The same tool page as the hover's doc(probe): what the SDK generates from the same contract.
      const hover = await t.waitForHover(source, t.find(editor.document, 'vis.Symbol(', 6), 'doc(probe)');
      // Edit: a second docstring paragraph; the preview document must change without a save.
      const docstring = t.find(editor.document, '"""Measure one target."""');
      const t1 = Date.now();
      const ok = await editor.edit((b) => b.replace(new vscode.Range(docstring, docstring.translate(0, 25)),
        '"""Measure one target.\n\n    Retries once when the target times out.\n    """'));
      assert.ok(ok, 'the edit was not applied');
      const after = await t.waitForDocument('the preview to show the new docstring line', isPreview, (text) => text.includes('Retries once when the target times out.'), 10000);
      const updatedMs = Date.now() - t1;
      await editor.document.save();
      const observed = {
        lenses: lensRows,
        registrationLine: registration,
        previewUri: preview.uri.toString(),
        openedMs,
        updatedMs,
        header: before.split('\n').slice(0, 1),
        snapshotRow: before.split('\n').find((l) => l.startsWith('probe-kit — ')),
        parts: before.split('\n').filter((l) => l.startsWith('## ')),
        previewPage: previewPage(before, 'probe'),
        hoverDoc: hoverDoc(hover, 'probe'),
        pageAfterEdit: previewPage(after.getText(), 'probe')?.split('\n').slice(0, 4),
        previewDirty: after.isDirty,
        language: after.languageId,
        wordWrap: vscode.workspace.getConfiguration('editor', { languageId: after.languageId, uri: after.uri }).get('wordWrap'),
      };
      return expect(observed, (o) => {
        assert.deepEqual(o.lenses.map((l) => [l.line, l.title, l.command, l.arguments]), [
          [registration, 'Preview model-facing docs', 'visAuthoring.previewDocs', [source.toString()]],
          [registration, 'Preview prompt', 'visAuthoring.previewPrompt', [source.toString()]],
        ]);
        assert.equal(o.snapshotRow, 'probe-kit — Measures targets and reports readings.');
        assert.ok(o.parts.some((p) => /^## Snapshot row · \d+ tokens$/.test(p)), 'a snapshot row part');
        assert.ok(o.parts.some((p) => /^## Tool probe: doc\(probe\) · \d+ tokens$/.test(p)), 'a doc(probe) part');
        assert.ok(o.previewPage?.includes('\nEffect: observation\n'), 'doc(probe) has Effect: observation');
        assert.equal(o.previewPage, o.hoverDoc, 'the preview\'s doc(probe) page is the doc text of the contract hover');
        assert.deepEqual(o.pageAfterEdit, ['Measure one target.', '', 'Retries once when the target times out.', '']);
        assert.equal(o.language, 'vis-preview', 'the preview is highlighted as Markdown');
        assert.equal(o.wordWrap, 'on', 'long lines wrap in a split editor');
      });
    },
  },
  {
    name: 'compare contracts: Compare Contracts with HEAD and the docs preview show unsaved edits of the entry and its models against the commit',
    timeoutMs: 60000,
    async run(t) {
      const entry = await t.open('compare/extension.py');
      const models = await t.open('compare/models.py');
      const source = entry.document.uri;
      // Unsaved edits: a new required keyword-only parameter, and a field removed from the returned record.
      const sig = t.find(entry.document, 'query: str, limit: int = 10');
      const score = t.find(models.document, '    score: float');
      const edit = new vscode.WorkspaceEdit();
      edit.replace(source, new vscode.Range(sig, sig.translate(0, 'query: str, limit: int = 10'.length)), 'query: str, *, page: int, limit: int = 10');
      edit.delete(models.document.uri, new vscode.Range(score, score.translate(1, -score.character)));
      assert.ok(await vscode.workspace.applyEdit(edit), 'the edits were not applied');
      const t0 = Date.now();
      await vscode.window.showTextDocument(entry.document);
      await vscode.commands.executeCommand('visAuthoring.compareContractsWithHead');
      const isDiff = (u: vscode.Uri) => u.scheme === 'vis-contract-diff' && new URLSearchParams(u.query).get('source') === source.toString();
      const diff = await t.waitForDocument('the contract comparison', isDiff, (text) => text.startsWith('Contract changes since HEAD ('), 30000);
      const comparedMs = Date.now() - t0;
      await vscode.commands.executeCommand('visAuthoring.previewDocs', source.toString());
      const isPreview = (u: vscode.Uri) => u.scheme === 'vis-preview' && new URLSearchParams(u.query).get('source') === source.toString() && new URLSearchParams(u.query).get('kind') === 'docs';
      const preview = await t.waitForDocument('the docs preview with its changes section', isPreview, (text) => text.includes('## Changes since HEAD ('), 30000);
      const observed = {
        comparedMs,
        diff: diff.getText(),
        previewSection: preview.getText().slice(preview.getText().indexOf('## Changes since')),
      };
      for (const ed of [entry, models]) {
        await vscode.window.showTextDocument(ed.document);
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
      return expect(observed, (o) => {
        const label = /^Contract changes since (HEAD \([0-9a-f]{7}\))/.exec(o.diff)?.[1];
        assert.ok(label, 'the comparison names the commit');
        const expected = [
          `Contract changes since ${label}: 1 tool changed; 3 breaking changes.`,
          '',
          'search',
          '  BREAKING parameter page: int added (required): calls without it fail',
          '  BREAKING parameter limit: positional_or_keyword → keyword_only: it can no longer be passed by position',
          '  BREAKING field Page.score (returns) removed',
          '',
        ].join('\n');
        assert.equal(o.diff, expected);
        assert.equal(o.previewSection, `## Changes since ${label} · not counted\n\n\`\`\`text\n${expected}\`\`\`\n`);
      });
    },
  },
  {
    name: 'routing: prompt.routing with an unknown verb is ROUTE-001; the hover renders a valid call',
    async run(t) {
      const editor = await t.open('routing.py');
      const uri = editor.document.uri;
      const [route] = await t.waitForCodes(uri, ['ROUTE-001']);
      const valid = await t.waitForHover(uri, t.find(editor.document, 'prompt.routing("Go"', 8), 'go surface active');
      const invalid = await t.hover(uri, t.find(editor.document, 'prompt.routing("python"', 8));
      const observed = { diagnostic: toDiag(route), validHover: valid, invalidHover: invalid };
      return expect(observed, (o) => {
        assert.deepEqual(o.diagnostic, { code: 'ROUTE-001', message: 'unknown language verbs: fly', severity: 'error', range: [9, 52, 9, 74] });
        assert.equal(o.validHover, [
          '**prompt.routing** — the text the model reads, current wording (vis-lang-interface 2.6.2 and later)',
          '',
          '```text',
          'go surface active — Go through its own toolchain:',
          '  go.build',
          '  go.repl_eval',
          'Use these verbs, not a shell command, to format, lint and test Go. Read their typed result; do not parse output.',
          'A REPL stays alive after the call that started it, and nothing in the context shows that it is alive. `go.repl_status` tells you; `go.repl_stop` ends it. Evaluate in a live REPL to check a change without a new toolchain startup.',
          'Run go vet before a commit.',
          '```',
        ].join('\n'));
        assert.equal(o.invalidHover, '**prompt.routing** raises `ValueError: unknown language verbs: fly` when the module is imported, so Vis does not load the extension.');
      });
    },
  },
  {
    name: 'format preview: with no editor.defaultFormatter and one Python formatter, a diff titled (+3 −3); the file stays clean until Apply Formatting',
    async run(t) {
      const editor = await t.open(FORMAT_FIXTURE);
      const uri = editor.document.uri;
      const original = editor.document.getText();
      const formatterSetting = vscode.workspace.getConfiguration('editor', { languageId: 'python', uri }).get('defaultFormatter');
      const t0 = Date.now();
      await vscode.commands.executeCommand('visAuthoring.previewFormatChanges');
      const [tab] = await t.until('a diff tab of format_me.py', () => diffTabs(uri).length > 0 && diffTabs(uri), 10000);
      const input = tab.input as vscode.TabInputTextDiff;
      const right = await vscode.workspace.openTextDocument(input.modified);
      const source = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      const observed: Record<string, unknown> = {
        defaultFormatter: formatterSetting ?? null,
        openedMs: Date.now() - t0,
        label: tab.label,
        modified: input.modified.scheme,
        formatted: right.getText(),
        sourceDirty: source?.isDirty,
        sourceUnchanged: source?.getText() === original && fs.readFileSync(uri.fsPath, 'utf8') === original,
      };
      // The diff title's Apply Formatting action runs with the modified side's URI.
      await vscode.commands.executeCommand('visAuthoring.applyFormatChanges', input.modified);
      await t.until('the diff to close', () => diffTabs(uri).length === 0, 5000);
      observed.afterApply = { text: source?.getText(), dirty: source?.isDirty, onDisk: fs.readFileSync(uri.fsPath, 'utf8') === original };
      // Revert format_me.py itself (not whatever editor is active once the diff closes), so later scenes see the original.
      if (source) await vscode.window.showTextDocument(source);
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await t.until('format_me.py reverted', () => source?.isDirty === false && source.getText() === original, 5000);
      return expect(observed, (o) => {
        assert.equal(o.defaultFormatter, null);
        assert.equal(o.label, 'format_me.py ↔ formatted (+3 −3)');
        assert.equal(o.modified, 'vis-format-preview');
        assert.equal(o.formatted, original.replace(/'/g, '"'));
        assert.equal(o.sourceDirty, false);
        assert.ok(o.sourceUnchanged, 'format_me.py is unchanged in the editor and on disk');
        assert.deepEqual(o.afterApply, { text: original.replace(/'/g, '"'), dirty: true, onDisk: true });
      });
    },
  },
  {
    name: 'logging: Restart Language Server logs at info; the log has levels and timestamps; visAuthoring.trace.server traces the LSP traffic',
    timeoutMs: 30000,
    async run(t) {
      const uri = (await t.open('missing_alias.py')).document.uri;
      const before = t.outputChannelText(OUTPUT).split('\n').length;
      await vscode.commands.executeCommand('visAuthoring.restartServer');
      await t.waitForOutputLine(OUTPUT, 'The language server process exited cleanly (code 0).');
      // The new server analyses the open file again.
      await t.waitForCodes(uri, ['EXT-003', 'EXT-005']);
      const lines = t.outputChannelText(OUTPUT).split('\n').filter(Boolean);
      const restart = lines.slice(Math.max(0, before - 1));
      // visAuthoring.trace.server still traces the LSP traffic, into a channel of its own.
      await vscode.workspace.getConfiguration('visAuthoring').update('trace.server', 'messages', vscode.ConfigurationTarget.Workspace);
      let trace: string;
      try {
        await vscode.commands.executeCommand('vscode.executeHoverProvider', uri, new vscode.Position(2, 10));
        trace = await t.waitForOutputLine(TRACE_OUTPUT, "Sending request 'textDocument/hover");
      } finally {
        await vscode.workspace.getConfiguration('visAuthoring').update('trace.server', undefined, vscode.ConfigurationTarget.Workspace);
      }
      return expect({ restart, errors: restart.filter((l) => / \[error\] /.test(l)), trace }, (o) => {
        assert.deepEqual(o.errors, []);
        assert.match(o.trace, /^\[Trace - [^\]]+\] Sending request 'textDocument\/hover - \(\d+\)'\.$/);
        assert.ok(o.restart.some((l) => /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \[info\] Restarting the Vis Authoring language server$/.test(l)), 'the restart line, with its timestamp and level');
        assert.ok(o.restart.some((l) => / \[info\] The language server process exited cleanly \(code 0\)\.$/.test(l)), 'the clean exit at info');
      });
    },
  },
  {
    name: 'host: Reload Vis Extensions without a gateway says how to start Vis',
    async run(t) {
      fs.rmSync(registryDir(), { recursive: true, force: true });
      await t.open('probe/extension.py'); // the reload acts on the active file's folder
      await vscode.commands.executeCommand('visAuthoring.reloadHost');
      const line = await t.waitForOutputLine(OUTPUT, 'reload failed [no-gateway]');
      return expect({ outputLine: line.slice(line.indexOf('[host]')) }, (o) => {
        assert.ok(o.outputLine.endsWith('[host] reload failed [no-gateway]: No Vis gateway is running. Start Vis in this folder (run `vis-agent`, or `vis-agent gateway start`); a fresh start loads your extension files, so no reload is needed.'), o.outputLine);
      });
    },
  },
  {
    name: 'host: Reload Vis Extensions against the fake gateway (test/host/fakeGateway.ts): /reload turn, then failures as diagnostics',
    timeoutMs: 30000,
    async run(t) {
      let reloads = 0;
      const gateway = await new FakeGateway({ protocol: 12, version: '0.1.56', title: () => (++reloads === 1 ? LEGACY_OK : LEGACY_FAILED) }).start();
      const registry = await gateway.register(os.homedir(), { db: path.join(os.homedir(), '.vis', 'vis.mdb') });
      try {
        await t.open('probe/extension.py');
        const t0 = Date.now();
        await vscode.commands.executeCommand('visAuthoring.reloadHost');
        const okMs = Date.now() - t0;
        const okLine = await t.waitForOutputLine(OUTPUT, `[host] ${LEGACY_OK} (turn t1,`);
        // The second reload reports two failures; its warning waits for the user, so the command is not awaited.
        void vscode.commands.executeCommand('visAuthoring.reloadHost');
        const broken = t.uri('.vis/extensions/broken.py');
        const hostDiags = await t.until('vis host diagnostics on .vis/extensions/broken.py', () => {
          const ds = vscode.languages.getDiagnostics(broken).filter((d) => d.source === 'vis host');
          return ds.length > 0 && ds;
        });
        const turns = gateway.seen.filter((s) => s.method === 'POST' && /\/turns$/.test(s.path));
        const observed = {
          okMs,
          okOutputLine: okLine.slice(okLine.indexOf('[host]')),
          routes: [...new Set(gateway.routes())],
          turnRequests: turns.map((s) => s.body?.request),
          client: turns.map((s) => `${s.headers['x-vis-client']} protocol ${s.headers['x-vis-protocol']}`),
          sessionRoot: [...gateway.sessions.values()].map((s) => s.root),
          hostDiagnostics: hostDiags.map(toDiag).map((d) => ({ ...d, range: d.range.slice(0, 2) })),
        };
        return expect(observed, (o) => {
          assert.deepEqual(o.turnRequests, ['/reload', '/reload']);
          assert.deepEqual(o.client, ['vis-authoring-vscode protocol 12', 'vis-authoring-vscode protocol 12']);
          assert.deepEqual(o.sessionRoot, [t.workspace.fsPath]);
          assert.deepEqual(o.hostDiagnostics, [{
            code: '', severity: 'error', range: [6, 0],
            message: 'Vis could not load this extension on /reload (its last good version stays loaded): SyntaxError: invalid syntax (broken.py, line 7)',
          }]);
        });
      } finally {
        fs.rmSync(registry, { force: true });
        await gateway.stop();
      }
    },
  },
  {
    name: 'host: the Vis State view reads the WAL-mode vis.db fixture (visAuthoring.host.databasePath)',
    async run(t) {
      const db = await useStateFixture();
      try {
        await vscode.commands.executeCommand('visAuthoring.refreshState');
        const observed = {
          db: path.basename(path.dirname(db)) + '/' + path.basename(db),
          'greeter/names': await stateValue(t, 'greeter', 'names'),
          'greeter/count': await stateValue(t, 'greeter', 'count'),
          'repo-tools/broken': await stateValue(t, 'repo-tools', 'broken'),
        };
        return expect(observed, (o) => {
          assert.deepEqual(JSON.parse(o['greeter/names']), ['ada', 'grace', 'linus']);
          assert.equal(JSON.parse(o['greeter/count']), 2);
          assert.match(JSON.parse(o['repo-tools/broken']).error, /^cannot decode this value: zstd payload is corrupt: truncated \(a block at byte 9\)$/);
        });
      } finally {
        await vscode.workspace.getConfiguration('visAuthoring.host').update('databasePath', undefined, vscode.ConfigurationTarget.Global);
      }
    },
  },
];

/**
 * The checks of the Restricted Mode run (VIS_E2E_MODE=restricted): code-server with workspace trust on and
 * the workspace never trusted. Analysis works; what talks to a Vis host says why it needs trust, and sends
 * nothing: the fake gateway, registered as running, sees no request at all.
 */
export const restrictedChecks: Check[] = [
  {
    name: 'restricted: the workspace is not trusted, vis-authoring is active, diagnostics arrive',
    async run(t) {
      const ext = vscode.extensions.getExtension(PRODUCT_ID);
      assert.ok(ext, `${PRODUCT_ID} is not installed`);
      const uri = (await t.open('missing_alias.py')).document.uri;
      await t.until('the extension to activate', () => ext.isActive);
      const ds = (await t.waitForCodes(uri, ['EXT-003', 'EXT-005'])).map(toDiag);
      return expect({ isTrusted: vscode.workspace.isTrusted, diagnostics: ds }, (o) => {
        assert.equal(o.isTrusted, false);
        assert.deepEqual(o.diagnostics, MISSING_ALIAS);
      });
    },
  },
  {
    name: 'restricted: the contract hover and the docs preview work',
    timeoutMs: 30000,
    async run(t) {
      const editor = await t.open('probe/extension.py');
      const hover = await t.waitForHover(editor.document.uri, t.find(editor.document, 'vis.Symbol(', 6), '"name": "probe"');
      await vscode.commands.executeCommand('visAuthoring.previewDocs');
      const preview = await t.waitForDocument('the docs preview', (u) => u.scheme === 'vis-preview', (text) => text.includes('doc(probe)'));
      return { hoverFirstLine: hover.split('\n')[0], previewFirstLine: preview.getText().split('\n')[0] };
    },
  },
  {
    name: 'restricted: Reload, Open Host Log and Refresh State say they need trust and send nothing to a running gateway',
    timeoutMs: 30000,
    async run(t) {
      const gateway = await new FakeGateway({ protocol: 12, version: '0.1.56', title: () => LEGACY_OK }).start();
      const registry = await gateway.register(os.homedir(), { db: path.join(os.homedir(), '.vis', 'vis.mdb') });
      try {
        await t.open('probe/extension.py');
        const lines: Record<string, string> = {};
        for (const command of ['visAuthoring.reloadHost', 'visAuthoring.openHostLog', 'visAuthoring.refreshState']) {
          void vscode.commands.executeCommand(command); // its warning waits for the user
          const line = await t.waitForOutputLine(OUTPUT, `[host] ${command} is off:`);
          lines[command] = line.slice(line.indexOf('[host]'));
        }
        // Give a host status check, had one started, the time to reach the gateway.
        await new Promise((r) => setTimeout(r, 1500));
        return expect({ lines, gatewayRequests: gateway.seen.map((s) => `${s.method} ${s.path}`) }, (o) => {
          assert.deepEqual(o.lines, {
            'visAuthoring.reloadHost': '[host] visAuthoring.reloadHost is off: Reload Vis Extensions sends /reload to the Vis gateway running on this machine, so it needs a trusted workspace. Diagnostics, hovers and previews work in Restricted Mode.',
            'visAuthoring.openHostLog': '[host] visAuthoring.openHostLog is off: Open Host Log opens the log of the Vis gateway from your home folder, so it needs a trusted workspace. Diagnostics, hovers and previews work in Restricted Mode.',
            'visAuthoring.refreshState': '[host] visAuthoring.refreshState is off: The Vis State view reads your Vis database (vis.db), so it needs a trusted workspace. Diagnostics, hovers and previews work in Restricted Mode.',
          });
          assert.deepEqual(o.gatewayRequests, []);
        });
      } finally {
        fs.rmSync(registry, { force: true });
        await gateway.stop();
      }
    },
  },
];
