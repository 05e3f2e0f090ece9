// Suppression comments in the analysis: which findings they silence, and SUP-001 for those that silence
// nothing (with the fix that removes them), applied as an LSP client applies a WorkspaceEdit.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeText } from '../../server/src/analysis';
import { initParser } from '../../server/src/parse/parser';
import type { Finding } from '../../server/src/rules/types';
import { pyLines } from '../helpers/fixture';

before(async () => {
  await initParser();
});

const URI = 'file:///work/ext/tools.py';
const HEAD = 'import blockether.vis.extension as vis\n\n';
/** EXT-003 (blank name) and EXT-004 (blank description) on line 2. */
const BOTH = 'vis.register_extension(vis.Extension(name="", description=""))';
const shown = (findings: Finding[]) => findings.map((f) => `${f.rule}@${f.range.start.line}:${f.range.start.character} ${f.severity} ${f.message}`);
const findings = (text: string) => analyzeText(URI, text).findings;

/** The text after a fix, applied as an LSP client applies a WorkspaceEdit's TextEdits. */
function applied(text: string, f: Finding): string {
  return TextDocument.applyEdits(TextDocument.create(URI, 'python', 1, text), f.fix!.edits);
}

describe('suppression comments', () => {
  it('# vis: ignore[ID] silences that rule on its line; a bare # vis: ignore every rule', () => {
    assert.deepEqual(shown(findings(HEAD + BOTH + '  # vis: ignore[EXT-003]\n')), ['EXT-004@2:58 error vis.Extension requires description=<non-empty string>']);
    assert.deepEqual(shown(findings(HEAD + BOTH + '  # vis: ignore[EXT-003, EXT-004]\n')), []);
    assert.deepEqual(shown(findings(HEAD + BOTH + '  # vis: ignore\n')), []);
    // After other text in the comment, and with the ids separated by spaces only.
    assert.deepEqual(shown(findings(HEAD + BOTH + '  # type: ignore  # vis: ignore[EXT-003 EXT-004]\n')), []);
  });

  it('silences findings that start on the comment line only, and a comment inside a string is no comment', () => {
    const text = pyLines('import blockether.vis.extension as vis', '', 'vis.register_extension(vis.Extension(  # vis: ignore[EXT-003]', '    name="",', '    description="# vis: ignore[EXT-004]",', '))');
    assert.deepEqual(shown(findings(text)), [
      'SUP-001@2:53 hint unused suppression: no EXT-003 finding on this line',
      'EXT-003@3:9 error vis.Extension requires name=<non-empty string>',
    ]);
  });

  it('# vis: ignore-file[ID] silences the rule in the whole file; a bare # vis: ignore-file every rule', () => {
    const two = HEAD + BOTH + '\nvis.Extension(name="", description="d")\n';
    assert.deepEqual(shown(findings('# vis: ignore-file[EXT-003]\n' + two)), ['EXT-004@3:58 error vis.Extension requires description=<non-empty string>']);
    assert.deepEqual(shown(findings('# vis: ignore-file\n' + two)), []);
  });

  it('reports suppressions that silence nothing (SUP-001, a hint), with the fix that removes them', () => {
    const cases: [string, string[], string][] = [
      // The whole comment goes when it held the directive alone.
      [HEAD + BOTH + '  # vis: ignore[EXT-003, EXT-004, EXT-005]\n', ['SUP-001@2:96 hint unused suppression: no EXT-005 finding on this line'], HEAD + BOTH + '  # vis: ignore[EXT-003, EXT-004]\n'],
      [HEAD + 'x = 1  # vis: ignore[EXT-005]\n', ['SUP-001@2:21 hint unused suppression: no EXT-005 finding on this line'], HEAD + 'x = 1\n'],
      [HEAD + 'x = 1  # vis: ignore\n', ['SUP-001@2:7 hint unused suppression: no finding on this line to suppress'], HEAD + 'x = 1\n'],
      [HEAD + 'x = 1  # keep this  # vis: ignore[EXT-005]\n', ['SUP-001@2:34 hint unused suppression: no EXT-005 finding on this line'], HEAD + 'x = 1  # keep this\n'],
      [HEAD + 'x = 1  # vis: ignore[EXT-005]  # keep this\n', ['SUP-001@2:21 hint unused suppression: no EXT-005 finding on this line'], HEAD + 'x = 1  # keep this\n'],
      ['# vis: ignore-file[SYM-008]\n' + HEAD + 'x = 1\n', ['SUP-001@0:19 hint unused suppression: no SYM-008 finding in this file'], HEAD + 'x = 1\n'],
      [HEAD + 'x = 1  # vis: ignore[EXT-999]\n', ["SUP-001@2:21 hint unused suppression: 'EXT-999' is not a rule id"], HEAD + 'x = 1\n'],
    ];
    for (const [text, expected, fixed] of cases) {
      const found = findings(text);
      assert.deepEqual(shown(found), expected, text);
      assert.equal(applied(text, found.find((f) => f.rule === 'SUP-001')!), fixed, text);
    }
  });

  it('reports a suppression comment it cannot read, and then suppresses nothing with it', () => {
    assert.deepEqual(shown(findings(HEAD + BOTH + '  # vis: ignore[EXT-003\n')), [
      'EXT-003@2:42 error vis.Extension requires name=<non-empty string>',
      "SUP-001@2:64 hint this suppression comment has no closing ']', so it suppresses nothing; write # vis: ignore[RULE-ID, ...]",
    ]);
    assert.deepEqual(shown(findings(HEAD + 'x = 1  # vis: ignored\n')), []);
  });

  it('leaves alone suppressions of rules the configuration turns off, and obeys it for SUP-001 itself', () => {
    const text = HEAD + 'x = 1  # vis: ignore[SYM-008]\n';
    assert.deepEqual(shown(analyzeText(URI, text, { 'SYM-008': 'off' }).findings), []);
    assert.deepEqual(shown(analyzeText(URI, text, { 'SUP-001': 'off' }).findings), []);
    assert.deepEqual(shown(analyzeText(URI, text, { 'SUP-001': 'warning' }).findings), ['SUP-001@2:21 warning unused suppression: no SYM-008 finding on this line']);
  });
});
