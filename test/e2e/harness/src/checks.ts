// The e2e checks that run inside real VS Code (code-server), in order. Add new checks to this list.
// Each check gets a CheckContext (fixture files, diagnostic waits); it throws on failure and returns what
// it observed, which lands in the result JSON. Mark a check `soft` to record without failing the run.
// Fixture files live in test/e2e/fixtures/workspace/ (a fresh copy per run, so checks may edit and save).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type Check, type Diag, PRODUCT_ID, hoverText, toDiag } from './harness';

/** missing_alias.py, line 2: vis.register_extension(vis.Extension(name="", description="d", symbols=[print])) */
const MISSING_ALIAS: Diag[] = [
  { code: 'EXT-003', message: 'vis.Extension requires name=<non-empty string>', severity: 'error', range: [2, 42, 2, 44] },
  { code: 'EXT-005', message: 'vis.Extension requires alias=<string> when symbols are declared', severity: 'error', range: [2, 63, 2, 78] },
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

export const checks: Check[] = [
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
        'symbols= (2:66)': [2, 66],
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
          edits: [{ file: 'missing_alias.py', range: [2, 44, 2, 44], newText: ', alias="ext"' }],
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
      const line = editor.document.lineAt(2).text;
      assert.equal(line, 'vis.register_extension(vis.Extension(name="", alias="ext", description="d", symbols=[print]))');
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
];
