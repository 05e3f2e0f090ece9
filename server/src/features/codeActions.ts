// Code actions, a thin provider over the program's findings:
//   quick fixes     the fix and the suggestions a rule attached to a finding, and "Disable RULE for this line";
//   fix all         `source.fixAll.visAuthoring` (Fix All, `editor.codeActionsOnSave`), and the same as a
//                   quick fix on any fixable diagnostic when the file has more than one;
//   migration       G1 → G3 (`refactor.rewrite…` on the G1 import and builders, `source…` anywhere).
// Fix-all and the migration are computed when the client resolves the action (`codeAction/resolve`), so
// listing actions as the cursor moves costs nothing; clients that cannot resolve edits get them at once.
import { CodeActionKind, type CodeAction, type CodeActionParams, type Diagnostic, type TextEdit } from 'vscode-languageserver/node';
import { PRODUCT } from '../../../shared/protocol';
import type { Analysis } from '../analysis';
import { scanComments } from '../model/comments';
import { editsBetween, fixAll } from '../fixes/fixAll';
import { migrationToG3 } from '../fixes/migrate';
import { SourceText } from '../fixes/source';
import type { Range } from '../model/types';
import { UNUSED, disableForLine } from '../rules/suppression';
import type { Finding, Fix } from '../rules/types';
import { analysisOf, programOf, textOf, type ServerContext } from './context';

export const FIX_ALL_KIND = 'source.fixAll.visAuthoring';
export const MIGRATE_REFACTOR_KIND = 'refactor.rewrite.visAuthoring.migrateToG3';
export const MIGRATE_SOURCE_KIND = 'source.visAuthoring.migrateToG3';
/** The kinds the server offers (declared in its capabilities, so clients ask for them). */
export const CODE_ACTION_KINDS = [CodeActionKind.QuickFix, FIX_ALL_KIND, MIGRATE_REFACTOR_KIND, MIGRATE_SOURCE_KIND];

interface Deferred {
  kind: 'fixAll' | 'migrate';
  uri: string;
  version: number;
}

const sameRange = (a: Range, b: Range) => a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
const intersects = (a: Range, b: Range) => !(a.end.line < b.start.line || (a.end.line === b.start.line && a.end.character < b.start.character) || b.end.line < a.start.line || (b.end.line === a.start.line && b.end.character < a.start.character));

/**
 * Fix all analyses the whole file again after each pass, on the request path: past this many characters
 * (a file of thousands of lines, usually generated) it would hold up every other request for seconds, so
 * the action is listed disabled there, pointing at the CLI.
 */
export const FIX_ALL_MAX_CHARS = 200_000;
const FIX_ALL_TOO_LARGE = `This file has more than ${FIX_ALL_MAX_CHARS} characters: fix all in the terminal with \`vis-authoring check --fix\``;

/** Whether the client asked for actions of `kind` (no `only`: every kind but source actions, as VS Code's light bulb asks). */
function wants(params: CodeActionParams, kind: string): boolean {
  const only = params.context.only;
  if (!only) return !kind.startsWith('source');
  return only.some((k) => kind === k || kind.startsWith(k + '.'));
}

/** The module's own findings with a fix (not those it puts on other modules). */
function fixable(analysis: Analysis): Finding[] {
  return analysis.findings.filter((f) => f.fix && !f.uri);
}

export function registerCodeActions(ctx: ServerContext): void {
  const lazy = () => ctx.clientCapabilities?.textDocument?.codeAction?.resolveSupport?.properties.includes('edit') ?? false;

  const edit = (uri: string, edits: TextEdit[]) => ({ changes: { [uri]: edits } });

  const resolve = (action: CodeAction): CodeAction => {
    const data = action.data as Deferred | undefined;
    if (!data || action.edit) return action;
    const doc = ctx.documents.get(data.uri);
    const analysis = doc && doc.version === data.version ? analysisOf(ctx, doc) : undefined;
    if (!doc || !analysis || analysis.version !== doc.version) return action;
    const text = textOf(doc);
    const { program, uri } = programOf(ctx, doc.uri);
    if (data.kind === 'fixAll') {
      if (text.length > FIX_ALL_MAX_CHARS) return action;
      const t0 = performance.now();
      const result = fixAll(program, uri, text, analysis.findings);
      ctx.log(`fix all: ${result.applied.length} fix${result.applied.length === 1 ? '' : 'es'} in ${(performance.now() - t0).toFixed(0)} ms (${result.passes} pass${result.passes === 1 ? '' : 'es'})`);
      action.edit = edit(doc.uri, editsBetween(text, result.text));
    } else {
      const m = migrationToG3(program, uri, text, analysis);
      if ('edits' in m) action.edit = edit(doc.uri, m.edits);
    }
    return action;
  };

  ctx.connection.onCodeAction((params) => {
    const doc = ctx.documents.get(params.textDocument.uri);
    const analysis = doc && analysisOf(ctx, doc);
    // Edits computed from an older version's analysis would land in the wrong places: none until this one is analysed.
    if (!doc || !analysis || analysis.version !== doc.version) return [];
    const actions: CodeAction[] = [];
    const deferred = (kind: Deferred['kind'], action: CodeAction): CodeAction => {
      if (kind === 'fixAll' && doc.getText().length > FIX_ALL_MAX_CHARS) return { ...action, disabled: { reason: FIX_ALL_TOO_LARGE } };
      action.data = { kind, uri: doc.uri, version: doc.version } satisfies Deferred;
      return lazy() ? action : resolve(action);
    };

    if (wants(params, CodeActionKind.QuickFix)) {
      const ours = params.context.diagnostics.filter((d) => d.source === PRODUCT);
      let source: SourceText | undefined;
      let open: Set<number> | undefined;
      for (const d of ours) {
        // The finding of the current analysis that the diagnostic shows (a stale diagnostic has none).
        const f = analysis.findings.find((x) => !x.uri && x.rule === d.code && x.message === d.message && sameRange(x.range, d.range));
        if (!f) continue;
        if (f.fix) actions.push(quickFix(doc.uri, f.fix, d, f.fix.preferred ?? true));
        for (const s of f.suggestions ?? []) actions.push(quickFix(doc.uri, s, d, false));
        if (f.rule === UNUSED) continue;
        source ??= new SourceText(textOf(doc));
        open ??= scanComments(source.text).openLines;
        const disable = disableForLine(analysis.suppressions, source, open, f.range.start.line, f.rule);
        if (disable) actions.push(quickFix(doc.uri, disable, d, false));
      }
      const all = fixable(analysis);
      if (all.length > 1 && ours.some((d) => all.some((f) => f.rule === d.code && sameRange(f.range, d.range)))) {
        actions.push(deferred('fixAll', { title: 'Fix all auto-fixable Vis problems', kind: CodeActionKind.QuickFix }));
      }
    }
    // Source actions only when asked for (Source Action…, Fix All, on save), never on every cursor move.
    if (params.context.only && wants(params, FIX_ALL_KIND) && fixable(analysis).length) {
      actions.push(deferred('fixAll', { title: 'Fix all auto-fixable Vis problems', kind: FIX_ALL_KIND }));
    }
    if (analysis.model.generation === 'G1') {
      const { program, uri } = programOf(ctx, doc.uri);
      const onG1 = analysis.model.sdkImports.some((i) => i.flavour === 'g1' && intersects(i.range, params.range)) || analysis.model.calls.some((c) => c.sdk?.flavour === 'g1' && intersects(c.calleeRange, params.range));
      const kind = params.context.only && wants(params, MIGRATE_SOURCE_KIND) ? MIGRATE_SOURCE_KIND : onG1 && wants(params, MIGRATE_REFACTOR_KIND) ? MIGRATE_REFACTOR_KIND : undefined;
      if (kind) {
        const m = migrationToG3(program, uri, textOf(doc), analysis);
        const title = 'Migrate this file to the typed SDK (G3)';
        if ('reason' in m) actions.push({ title, kind, disabled: { reason: m.reason } });
        else actions.push(deferred('migrate', { title, kind }));
      }
    }
    return actions;
  });

  ctx.connection.onCodeActionResolve(resolve);
}

function quickFix(uri: string, fix: Fix, d: Diagnostic, preferred: boolean): CodeAction {
  return { title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: preferred, edit: { changes: { [uri]: fix.edits } } };
}
