// The declaration families of vis-sdk.md §2.7, §2.9–§2.13 and G1 vis.provider: for every rule a failing
// fixture (the SDK's exact message and the range, marked `[|...|]`) and a passing one; Python's own
// TypeError when a call does not bind (SDK-003).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { initParser } from '../../server/src/parse/parser';
import { allRules } from '../../server/src/rules';
import { analyzeText } from '../../server/src/analysis';
import { findingsOf, fixture } from '../helpers/fixture';
import { cases, G2, G3, ST } from './familyCases';

before(async () => {
  await initParser();
});


describe('declaration families', () => {
  for (const c of cases) {
    it(`${c.rule}: the SDK's message at the cause`, () => {
      const { text, ranges } = fixture(c.bad);
      assert.deepEqual(
        findingsOf(c.rule, text),
        c.messages.map((message, i) => ({ message, range: ranges[i] })),
      );
    });
    it(`${c.rule}: silent on valid declarations`, () => {
      assert.deepEqual(findingsOf(c.rule, c.good), []);
    });
  }

  it('every rule of these families has a failing and a passing case', () => {
    const covered = new Set(cases.map((c) => c.rule));
    const families = allRules.map((r) => r.id).filter((id) => /^(CAT|LS|SET|ACT|PRES|BLK|PRV|G1-PRV|MISC|SDK-003)/.test(id));
    assert.deepEqual(families.filter((id) => !covered.has(id) && !['BLK-003', 'PRES-006'].includes(id)), []);
  });
});

describe('limits that changed between SDK versions', () => {
  it('G2 enforces the old Activity limits, with their messages (BLK-001, BLK-003, PRES-004, PRES-005, PRES-006)', () => {
    const many = (n: number, item: string) => Array.from({ length: n }, () => item).join(', ');
    const { text, ranges } = fixture(
      G2 +
        `vis.ActivityText([|"${'t'.repeat(16385)}"|])\n` +
        'vis.ActivityTable([|[]|], [])\n' +
        `vis.ActivityTable(["a"], [["${'c'.repeat(257)}"], [|["b", "c"]|]])\n` +
        `vis.ActivityTable(["a"], [["1"], [[|"${'c'.repeat(257)}"|]]])\n` +
        `vis.ActivityPresentation("h", "s", [|[${many(33, 'vis.ActivityText("x")')}]|])\n` +
        `vis.ActivityPresentation("h", "s", sections=[|[${many(9, 'vis.ActivitySection("a", "b")')}]|])\n` +
        `[|vis.ActivityPresentation|]("h", "s", [${many(20, 'vis.ActivityText("x")')}], [vis.ActivitySection("a", "b", [${many(13, 'vis.ActivityText("y")')}])])\n`,
    );
    const found = ['BLK-001', 'BLK-003', 'PRES-004', 'PRES-005', 'PRES-006'].flatMap((r) => findingsOf(r, text));
    assert.deepEqual(found, [
      { message: 'Activity text must be text of at most 16384 characters', range: ranges[0] },
      { message: 'Activity table requires 1..16 columns', range: ranges[1] },
      { message: 'Activity table row width must match its columns', range: ranges[2] },
      { message: 'Activity cell must be text of at most 256 characters', range: ranges[3] },
      { message: 'Activity content must contain at most 32 typed blocks', range: ranges[4] },
      { message: 'Activity sections must contain at most 8 non-nested ActivitySections', range: ranges[5] },
      { message: 'Activity presentation exceeds 32 total blocks', range: ranges[6] },
    ]);
  });

  it('G3 has no such limits', () => {
    const many = (n: number, item: string) => Array.from({ length: n }, () => item).join(', ');
    const text = G3 + `vis.ActivityText("${'t'.repeat(16385)}")\nvis.ActivityPresentation("h", "s", [${many(40, 'vis.ActivityText("x")')}], [${many(9, 'vis.ActivitySection("a", "b")')}])\nvis.ActivityTable(["${'c'.repeat(300)}"], [["x"]])\n`;
    assert.deepEqual(['BLK-001', 'BLK-004', 'PRES-004', 'PRES-005', 'PRES-006'].flatMap((r) => findingsOf(r, text)), []);
  });

  it('hint= on vis.block exists from the SDK versions with settings on: before, it is Python\'s TypeError', () => {
    const g2 = fixture(G2 + 'def guard(call):\n    return vis.block("no", [|hint|]="ask first")\n');
    assert.deepEqual(findingsOf('SDK-003', g2.text), [{ message: "block() got an unexpected keyword argument 'hint'", range: g2.ranges[0] }]);
    assert.deepEqual(findingsOf('SDK-003', ST + 'def guard(call):\n    return vis.block("no", hint="ask first")\n'), []);
  });

  it('LanguageSurface exists only in extension.py @1a8b6ead: elsewhere it is an AttributeError, and its own rules stay silent', () => {
    // The C3 contract format excludes the one version with language_tools (a C2 version).
    const { text, ranges } = fixture(G3 + '[|vis.LanguageSurface|](language="TOML")\n');
    const found = analyzeText('file:///work/ext/tool.py', text, {}, 'C3').findings.filter((f) => f.rule === 'SDK-002' || f.rule.startsWith('LS-'));
    assert.deepEqual(found.map((f) => ({ rule: f.rule, message: f.message, range: f.range })), [{ rule: 'SDK-002', message: "module 'blockether.vis.extension' has no attribute 'LanguageSurface'", range: ranges[0] }]);
  });
});
