// The SDK version from all the evidence (issue 9 item 5): the cases Vis answers differently from a guess
// by registration call, pins from PEP 723 / pyproject.toml / uv.lock, version-specific members and tags,
// conflicts reported once, and the AttributeError/ImportError for members a generation lacks.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { analyzeText } from '../../server/src/analysis';
import { initParser } from '../../server/src/parse/parser';
import { describeProfile, type ContractFormatSetting, type VersionPin } from '../../server/src/sdk';
import { fixture, pyLines } from '../helpers/fixture';

before(async () => {
  await initParser();
});

const URI = 'file:///work/acme/extension.py';
const TYPED = 'import blockether.vis.extension as vis';
const TOOL = ['def check():', '    """Run the checks."""', ''];
const ACT = 'activity=vis.Activity(label="Run checks")';

/** Findings as `rule line:col-line:col message`, for a fixture whose `[|...|]` marks their ranges in order. */
function run(marked: string, opts: { pins?: VersionPin[]; format?: ContractFormatSetting; uri?: string } = {}) {
  const { text, ranges } = fixture(marked);
  const result = analyzeText(opts.uri ?? URI, text, {}, opts.format ?? 'auto', opts.pins ?? []);
  const at = (r: { start: { line: number; character: number }; end: { line: number; character: number } }) => `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
  return {
    ...result,
    findings: result.findings.filter((f) => f.rule !== 'SYM-008').map((f) => `${f.rule} ${at(f.range)} ${f.message}`),
    ranges: ranges.map(at),
    status: describeProfile(result.model.sdk!),
  };
}

describe('SDK version from the evidence: the cases at the top of issue 9', () => {
  it('a G3 file (vis-agent>=0.2.45 pinned in PEP 723) that calls vis.register gets REG-003, and its valid G3 tags are not reported', () => {
    const r = run(
      pyLines(
        '# /// script',
        '# dependencies = ["vis-agent>=0.2.45"]',
        '# ///',
        TYPED,
        ...TOOL,
        `[|vis.register|](vis.Extension(name="acme", description="Acme checks.", alias="acme", symbols=[vis.Symbol(check, tag="verification", ${ACT})]))`,
      ),
    );
    assert.deepEqual(r.findings, [`REG-003 ${r.ranges[0]} module 'blockether.vis.extension' has no attribute 'register'`]);
    assert.equal(r.model.generation, 'G3');
    assert.equal(r.model.generationAssumed, false);
    assert.deepEqual(r.status?.decidedBy, ["vis-agent>=0.2.45 (the PEP 723 block, line 2)", "tag 'verification' (line 8)"]);
  });

  it('without a pin, vis.register beside a T4 tag is one conflict at the registration call, naming both sides, and nothing else', () => {
    const r = run(pyLines(TYPED, ...TOOL, `[|vis.register|](vis.Extension(name="acme", description="Acme checks.", alias="acme", symbols=[vis.Symbol(check, tag="verification", ${ACT})]))`));
    assert.deepEqual(r.findings, [
      `SDK-001 ${r.ranges[0]} The SDK version evidence conflicts: vis.register(...) (line 5) needs G2, but tag 'verification' (line 5) needs G3 from extension.py @fb4b47f0 on, and no Vis SDK version has both. Change the one that does not match the Vis that runs this extension.`,
    ]);
    assert.match(r.status!.conflict!, /^The SDK version evidence conflicts/);
  });

  it('import vis next to the typed import: the later import is the one in effect, so no false REG-005 (IMP-001 only)', () => {
    const r = run(pyLines('[|import vis|]', TYPED, '', 'vis.register_extension(vis.Extension(name="acme", description="Acme checks."))'));
    assert.deepEqual(r.findings, [
      `IMP-001 ${r.ranges[0]} import vis is the G1 SDK; this file uses the typed SDK (blockether.vis.extension), which leaves the top-level vis module alone. Remove import vis.`,
    ]);
    assert.equal(r.model.generation, 'G3');
  });

  it('import vis + vis.Symbol(...) is the AttributeError Vis raises', () => {
    const r = run(pyLines('import vis', '', ...TOOL, 'vis.extension(name="acme", description="Acme checks.", alias="acme", symbols=[[|vis.Symbol|](check)])'));
    assert.deepEqual(r.findings, [`SDK-002 ${r.ranges[0]} module 'vis' has no attribute 'Symbol'`]);
    assert.equal(r.model.generation, 'G1');
  });

  it('from vis import Symbol is the ImportError, at the import', () => {
    const r = run(pyLines('import vis', 'from vis import [|Symbol|]', '', 'vis.extension(name="acme", description="Acme checks.")'));
    assert.deepEqual(r.findings, [`SDK-002 ${r.ranges[0]} cannot import name 'Symbol' from 'vis'`]);
  });

  it('a typo of a typed member is its AttributeError, with the fix, and nothing else about that call', () => {
    const { text } = fixture(pyLines(TYPED, ...TOOL, 'vis.register_extension(vis.Extension(name="acme", description="Acme checks.", alias="acme", symbols=[vis.Symbl(check)]))'));
    const findings = analyzeText(URI, text).findings;
    assert.deepEqual(
      findings.map((f) => [f.rule, f.message, f.fix?.title]),
      [['SDK-002', "module 'blockether.vis.extension' has no attribute 'Symbl'", 'Change to vis.Symbol']],
    );
  });

  it('names Vis may have in versions the table does not list stay silent', () => {
    const r = run(pyLines('import vis', '', 'vis.frobnicate()', 'vis.extension(name="acme", description="Acme checks.")'));
    assert.deepEqual(r.findings, []);
  });
});

describe('SDK version from the evidence: pins, members, tags and the contract format', () => {
  const pin = (source: VersionPin['source'], requirement: string): VersionPin => ({ source, file: '/work/acme/' + (source === 'uv.lock' ? 'uv.lock' : 'pyproject.toml'), requirement });

  it('a pyproject.toml pin from the program decides G3 without a registration call', () => {
    const r = run(pyLines(TYPED, '', 'ext = vis.Extension(name="acme", description="Acme checks.")'), { pins: [pin('pyproject', 'vis-agent>=0.2.26')], uri: 'file:///work/acme/src/acme/decl.py' });
    assert.equal(r.model.generation, 'G3');
    assert.equal(r.model.generationAssumed, false);
    assert.deepEqual(r.status?.decidedBy, ['vis-agent>=0.2.26 (/work/acme/pyproject.toml)']);
  });

  it('a locked G2 version in uv.lock makes register_extension the AttributeError', () => {
    const r = run(pyLines(TYPED, '', '[|vis.register_extension|](vis.Extension(name="acme", description="Acme checks."))'), { pins: [pin('uv.lock', '0.1.45')] });
    assert.deepEqual(r.findings, [`REG-003 ${r.ranges[0]} module 'blockether.vis.extension' has no attribute 'register_extension'`]);
    assert.equal(r.model.generation, 'G2');
    assert.deepEqual(r.status?.decidedBy, ['vis-agent==0.1.45 (/work/acme/uv.lock)']);
  });

  it('a G1 pin beside the typed import is a conflict: Vis 0.1.41 has no typed SDK', () => {
    const r = run(pyLines('# /// script', '# dependencies = ["vis-agent==0.1.41"]', '# ///', TYPED, '', '[|vis.register_extension|](vis.Extension(name="acme", description="Acme checks."))'));
    assert.deepEqual(r.findings, [
      `SDK-001 ${r.ranges[0]} The SDK version evidence conflicts: vis-agent==0.1.41 (the PEP 723 block, line 2) needs only Vis 0.1.41 (G1), but vis.register_extension(...) (line 6) needs G3, and no Vis SDK version has both. Change the one that does not match the Vis that runs this extension.`,
    ]);
  });

  it('under a G2 pin, vis.sequence is the AttributeError, not a conflict', () => {
    const r = run(pyLines(TYPED, 'from dataclasses import dataclass', '', '@[|vis.sequence|](field="items")', '@dataclass', 'class Page:', '    items: list', '', 'vis.register(vis.Extension(name="acme", description="Acme checks."))'), {
      pins: [pin('pyproject', 'vis-agent==0.1.45')],
    });
    assert.deepEqual(r.findings, [`SDK-002 ${r.ranges[0]} module 'blockether.vis.extension' has no attribute 'sequence'`]);
  });

  it('members only one version has narrow the release: language_tools= is @1a8b6ead (C2 contracts, two tags)', () => {
    const r = run(pyLines(TYPED, '', 'vis.register_extension(vis.Extension(name="acme", description="Acme checks.", language_tools=[]))'));
    assert.deepEqual(r.findings, []);
    assert.equal(r.model.sdk?.release?.id, '1a8b6ead');
    assert.equal(r.model.sdk?.contract, 'C2');
    assert.deepEqual(r.model.sdk?.tags, ['observation', 'mutation']);
  });

  it('settings= on a G2 registration is a conflict, at the registration call', () => {
    const r = run(pyLines(TYPED, '', '[|vis.register|](vis.Extension(name="acme", description="Acme checks.", settings=[]))'));
    assert.deepEqual(r.findings, [
      `SDK-001 ${r.ranges[0]} The SDK version evidence conflicts: vis.register(...) (line 3) needs G2, but vis.Extension(settings=...) (line 3) needs G3 from extension.py @fb4b47f0 on, and no Vis SDK version has both. Change the one that does not match the Vis that runs this extension.`,
    ]);
  });

  it('vis.sequence decides G3 in a helper module without a registration call (not assumed)', () => {
    const r = run(pyLines(TYPED, 'from dataclasses import dataclass', '', '@vis.sequence(field="items")', '@dataclass', 'class Page:', '    items: list'), { uri: 'file:///work/acme/src/acme/records.py' });
    assert.equal(r.model.generation, 'G3');
    assert.equal(r.model.generationAssumed, false);
    assert.deepEqual(r.findings, []);
  });

  it('only the typed import: G3 assumed, the newest G3 release', () => {
    const r = run(pyLines(TYPED, '', 'class Helper:', '    """Nothing registered here."""'), { uri: 'file:///work/acme/src/acme/helper.py' });
    assert.equal(r.model.generation, 'G3');
    assert.equal(r.model.generationAssumed, true);
    assert.equal(r.status?.release, 'extension.py @f3ef1e26 (G3, C3, 4 tags, settings; newest of the 17 G2 and G3 versions that fit)');
    assert.deepEqual(r.status?.decidedBy, ['import blockether.vis.extension (line 1), no registration call']);
  });

  it('contractFormat auto follows the release; an explicit format picks the release of the generation that has it', () => {
    const text = pyLines(TYPED, ...TOOL, `vis.register_extension(vis.Extension(name="acme", description="Acme checks.", alias="acme", symbols=[vis.Symbol(check, tag="external", ${ACT})]))`);
    assert.deepEqual(run(text).findings, []);
    assert.equal(run(text).model.sdk?.contract, 'C3');
    const c1 = run(text, { format: 'C1' });
    assert.equal(c1.model.sdk?.release?.id, '0bb5b5a4');
    assert.deepEqual(c1.findings.map((f) => f.split(' ')[0]), ['SYM-004'], 'C1 G3 has the two tags only');
    const g2 = run(pyLines(TYPED, '', 'vis.register(vis.Extension(name="acme", description="Acme checks."))'), { format: 'C3' });
    assert.equal(g2.model.sdk?.release?.id, '00b3a0c1', 'no G2 version has C3: the format renders, the release stays G2');
  });

  it('pins that name no vis-agent version are ignored and say why', () => {
    const r = run(pyLines(TYPED, ''), { pins: [pin('pyproject', 'vis-agent @ https://example.invalid/vis.whl'), pin('pyproject', 'vis-agent>=banana')] });
    assert.equal(r.model.generationAssumed, true);
    assert.deepEqual(
      r.model.sdk?.ignoredPins.map((p) => p.reason),
      ['it does not constrain the vis-agent version', "'>=banana' is not a PEP 440 version specifier"],
    );
  });
});
