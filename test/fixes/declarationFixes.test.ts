// The fixes of the declaration families (Activity, LanguageSurface, Setting, Catalog, Provider) where the
// message names one correct replacement: each is applied as an LSP client applies a WorkspaceEdit and the
// file checked again, which must leave none of the rule's findings and no finding that was not there.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeText } from '../../server/src/analysis';
import { initParser } from '../../server/src/parse/parser';
import type { Finding } from '../../server/src/rules/types';
import { G3, LS, ST, TOOL } from '../rules/familyCases';

before(async () => {
  await initParser();
});

const URI = 'file:///work/ext/extension.py';
const REG = 'vis.register_extension(vis.Extension(name="demo", description="A demo extension."))\n';
const key = (f: Finding) => `${f.rule} ${f.message}`;

/** The one finding of `rule`, its fix applied; the text after it and its fix's title. */
function applyFix(rule: string, text: string): { after: string; title: string; found: Finding[] } {
  const found = analyzeText(URI, text).findings;
  const mine = found.filter((f) => f.rule === rule);
  assert.equal(mine.length, 1, `one ${rule} finding: ${JSON.stringify(mine.map(key))}`);
  assert.ok(mine[0].fix, `${rule} has a fix`);
  assert.notEqual(mine[0].fix.preferred, false, 'the fix is the preferred one');
  const after = TextDocument.applyEdits(TextDocument.create(URI, 'python', 1, text), mine[0].fix.edits);
  return { after, title: mine[0].fix.title, found };
}

/** Applies the rule's fix and checks the result again: the finding is gone and nothing new appeared. */
function fixesCleanly(rule: string, before: string, expected: string, title: string): void {
  const { after, title: got, found } = applyFix(rule, before);
  assert.equal(got, title);
  assert.equal(after, expected);
  const again = analyzeText(URI, after).findings;
  assert.deepEqual(again.filter((f) => f.rule === rule).map(key), [], `no ${rule} is left`);
  const was = new Set(found.map(key));
  assert.deepEqual(again.map(key).filter((k) => !was.has(k)), [], 'no new finding');
}

/** No fix: the value meant cannot be told. */
function noFix(rule: string, text: string): void {
  const mine = analyzeText(URI, text).findings.filter((f) => f.rule === rule);
  assert.equal(mine.length, 1, `one ${rule} finding: ${JSON.stringify(mine.map(key))}`);
  assert.equal(mine[0].fix, undefined);
}

describe('declaration fixes: applied, then checked again', () => {
  it('ACT-001, LS-003, SET-003, PRV-001, PRV-006, PRV-007: 1/0 and "true"/"false" are the bool meant; "yes" and 2 are not', () => {
    fixesCleanly('ACT-001', G3 + 'vis.Activity("generic", show_start=1)\n' + REG, G3 + 'vis.Activity("generic", show_start=True)\n' + REG, 'Write show_start=True');
    fixesCleanly('ACT-001', G3 + "vis.Activity(show_start='FALSE')\n" + REG, G3 + 'vis.Activity(show_start=False)\n' + REG, 'Write show_start=False');
    noFix('ACT-001', G3 + 'vis.Activity(show_start=2)\n' + REG);
    const fmt = 'def fmt(src):\n    return src\n\n';
    fixesCleanly('LS-003', LS + fmt + 'vis.LanguageSurface(language="toml", is_exact_syntax=0, format=fmt)\n', LS + fmt + 'vis.LanguageSurface(language="toml", is_exact_syntax=False, format=fmt)\n', 'Write is_exact_syntax=False');
    noFix('LS-003', LS + fmt + 'vis.LanguageSurface(language="toml", is_exact_syntax="yes", format=fmt)\n');
    fixesCleanly('SET-003', ST + 'vis.Setting(id="x", label="X", default="true")\n' + REG, ST + 'vis.Setting(id="x", label="X", default=True)\n' + REG, 'Write default=True');
    noFix('SET-003', ST + 'vis.Setting(id="x", label="X", default="yes")\n' + REG);
    fixesCleanly('PRV-001', G3 + 'vis.Provider("acme", "Acme", is_managed=0)\n' + REG, G3 + 'vis.Provider("acme", "Acme", is_managed=False)\n' + REG, 'Write is_managed=False');
    fixesCleanly('PRV-006', G3 + 'vis.ProviderStatus("True")\n' + REG, G3 + 'vis.ProviderStatus(True)\n' + REG, 'Write is_authenticated=True');
    fixesCleanly('PRV-007', G3 + 'vis.ProviderModel("m", is_image_input="false")\n' + REG, G3 + 'vis.ProviderModel("m", is_image_input=False)\n' + REG, 'Write is_image_input=False');
    // A name bound to the value elsewhere: the fix belongs where the value is written.
    noFix('ACT-001', G3 + 'ON = 1\nvis.Activity(show_start=ON)\n' + REG);
  });

  it('ACT-003, SET-002, PRV-004, PRV-005, PRV-008, PRV-009, PRV-011: the one nearest value of the vocabulary', () => {
    fixesCleanly('ACT-003', G3 + "vis.Activity(presenter='Shell')\n" + REG, G3 + "vis.Activity(presenter='shell')\n" + REG, "Change to 'shell'");
    fixesCleanly('ACT-003', G3 + 'vis.Activity("test")\n' + REG, G3 + 'vis.Activity("tests")\n' + REG, 'Change to "tests"');
    noFix('ACT-003', G3 + 'vis.Activity(presenter="bogus")\n' + REG);
    fixesCleanly('SET-002', ST + 'vis.Setting(id="m", label="M", default="a", type="enm", choices=["a"])\n' + REG, ST + 'vis.Setting(id="m", label="M", default="a", type="enum", choices=["a"])\n' + REG, 'Change to "enum"');
    fixesCleanly('SET-002', ST + 'vis.Setting(id="h", label="H", default=True, scopes=["global", "sesion"])\n' + REG, ST + 'vis.Setting(id="h", label="H", default=True, scopes=["global", "session"])\n' + REG, 'Change to "session"');
    noFix('SET-002', ST + 'vis.Setting(id="k", label="K", default="a", type="string")\n' + REG);
    fixesCleanly('PRV-004', G3 + 'vis.ProviderPreset(api_style="opnai")\n' + REG, G3 + 'vis.ProviderPreset(api_style="openai")\n' + REG, 'Change to "openai"');
    noFix('PRV-004', G3 + 'vis.ProviderPreset(api_style="soap")\n' + REG);
    fixesCleanly('PRV-005', G3 + 'vis.ProviderCredential("t", api_style="gemni")\n' + REG, G3 + 'vis.ProviderCredential("t", api_style="gemini")\n' + REG, 'Change to "gemini"');
    fixesCleanly('PRV-008', G3 + 'vis.ProviderLimitWindow("rolling", unit="hours")\n' + REG, G3 + 'vis.ProviderLimitWindow("rolling", unit="hour")\n' + REG, 'Change to "hour"');
    fixesCleanly('PRV-009', G3 + 'vis.ProviderLimit("t", "Tokens", "acount", "tokens", "exact", "local")\n' + REG, G3 + 'vis.ProviderLimit("t", "Tokens", "account", "tokens", "exact", "local")\n' + REG, 'Change to "account"');
    fixesCleanly('PRV-011', G3 + 'vis.ProviderLimits(status="eror")\n' + REG, G3 + 'vis.ProviderLimits(status="error")\n' + REG, 'Change to "error"');
  });

  it('LS-001 and LS-002: the language in lower case, a bare suffix in a list', () => {
    const fmt = 'def fmt(src):\n    return src\n\n';
    fixesCleanly('LS-001', LS + fmt + 'vis.LanguageSurface(language="TOML", format=fmt)\n', LS + fmt + 'vis.LanguageSurface(language="toml", format=fmt)\n', 'Change to "toml"');
    noFix('LS-001', LS + fmt + 'vis.LanguageSurface(language="my lang", format=fmt)\n');
    fixesCleanly('LS-002', LS + fmt + "vis.LanguageSurface(language='toml', extensions='toml', format=fmt)\n", LS + fmt + "vis.LanguageSurface(language='toml', extensions=['toml'], format=fmt)\n", 'Put it in a list');
    noFix('LS-002', LS + fmt + 'vis.LanguageSurface(language="toml", extensions="toml, tml", format=fmt)\n');
  });

  it('SET-001: a bare scope in a list; a bare string of choices has no fix', () => {
    fixesCleanly('SET-001', ST + 'vis.Setting(id="h", label="H", default=True, scopes="project")\n' + REG, ST + 'vis.Setting(id="h", label="H", default=True, scopes=["project"])\n' + REG, 'Put it in a list');
    noFix('SET-001', ST + 'vis.Setting(id="m", label="M", default="a", type="enum", choices="ab")\n' + REG);
    noFix('SET-001', ST + 'vis.Setting(id="h", label="H", default=True, scopes="everywhere")\n' + REG);
  });

  it('CAT-004: the nearest visible name of the catalog', () => {
    const cat = G3 + TOOL + 'CATALOG = vis.Catalog([vis.Symbol(greet)])\n\n';
    fixesCleanly('CAT-004', cat + 'def test_spec():\n    assert CATALOG.spec("gret")\n', cat + 'def test_spec():\n    assert CATALOG.spec("greet")\n', 'Change to "greet"');
    noFix('CAT-004', cat + 'def test_spec():\n    assert CATALOG.spec("farewell")\n');
  });
});
