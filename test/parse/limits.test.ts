// Python's nesting limits, checked before parsing: the exact errors CPython's tokenizer raises, and
// none where CPython compiles the file (differential against python3 on generated files).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { checkNestingLimits } from '../../server/src/parse/limits';

const nestedIfs = (levels: number, indent = ' ') => Array.from({ length: levels }, (_, i) => `${indent.repeat(i)}if x:\n`).join('') + `${indent.repeat(levels)}pass\n`;

describe('nesting limits (CPython MAXINDENT, MAXLEVEL)', () => {
  it('refuses a 100th level of indentation, at that line', () => {
    assert.equal(checkNestingLimits(nestedIfs(99)), undefined);
    assert.deepEqual(checkNestingLimits(nestedIfs(100)), {
      message: 'IndentationError: too many levels of indentation',
      range: { start: { line: 100, character: 0 }, end: { line: 100, character: 100 } },
    });
  });

  it('refuses a 201st nested bracket, at that bracket', () => {
    assert.equal(checkNestingLimits(`x = ${'('.repeat(200)}1${')'.repeat(200)}\n`), undefined);
    assert.deepEqual(checkNestingLimits(`x = ${'[('.repeat(100)}{1: 2}${')]'.repeat(100)}\n`), {
      message: 'SyntaxError: too many nested parentheses',
      range: { start: { line: 0, character: 204 }, end: { line: 0, character: 205 } },
    });
  });

  it('does not count brackets or indentation inside strings, comments and continuations', () => {
    const deep = '('.repeat(300);
    assert.equal(checkNestingLimits(`x = "${deep}"\ny = '${deep}'\n# ${deep}\nz = """\n${deep}\n"""\nw = r"\\"${deep}"\n`), undefined);
    assert.equal(checkNestingLimits(`s = """\n${nestedIfs(150)}"""\n`), undefined);
    assert.equal(checkNestingLimits(`x = (\n${nestedIfs(150)})\n`), undefined);
    assert.equal(checkNestingLimits(`x = 1 + \\\n${' '.repeat(300)}2\n`), undefined);
    assert.equal(checkNestingLimits(`f"{x['a']} {{ {y(1)}"\n` + nestedIfs(20)), undefined);
  });

  it('agrees with python3 on generated files', () => {
    let seed = 7;
    const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % k);
    const cases: string[] = [];
    for (let n = 0; n < 240; n++) {
      const lines: string[] = [];
      const levels = 80 + rnd(40);
      // Tabs only or spaces only within one file (else Python raises TabError).
      const tabs = rnd(3) === 0;
      for (let i = 0; i < levels; i++) {
        const ind = tabs ? '\t'.repeat(i) : ' '.repeat(i);
        const kind = rnd(6);
        if (kind === 0) lines.push(`${ind}# a comment ${'('.repeat(rnd(5))}`);
        else if (kind === 1) lines.push('');
        else if (kind === 2) lines.push(`${ind}s = "${'['.repeat(rnd(300))}"`);
        // `if` and `def` (loops, `with` and `try` nest at most 20 deep: CPython's CO_MAXBLOCKS).
        lines.push(`${ind}${rnd(4) ? 'if x:' : 'def f():'}`);
      }
      const ind = ' '.repeat(levels);
      const opens = 150 + rnd(100);
      lines.push(`${ind}pass`, `y = ${'('.repeat(opens)}1${')'.repeat(opens)}`);
      cases.push(lines.join('\n') + '\n');
    }
    const script = `
import json, sys
out = []
for src in json.load(sys.stdin):
    try:
        compile(src, 'case.py', 'exec')
        out.append(None)
    except (SyntaxError, IndentationError) as e:
        if e.msg in ('too many levels of indentation', 'too many nested parentheses'):
            out.append([type(e).__name__ + ': ' + e.msg, e.lineno - 1])
        else:
            out.append(['other', e.msg])
    except (MemoryError, RecursionError) as e:
        out.append(['other', type(e).__name__])
print(json.dumps(out))
`;
    const expected = JSON.parse(execFileSync('python3', ['-c', script], { input: JSON.stringify(cases), maxBuffer: 64 << 20 }).toString()) as ([string, number] | ['other', string] | null)[];
    let compared = 0;
    expected.forEach((want, i) => {
      if (want && want[0] === 'other') return;
      const got = checkNestingLimits(cases[i]);
      assert.deepEqual(got ? [got.message, got.range.start.line] : null, want, `case ${i}`);
      compared++;
    });
    assert.ok(compared > 150, `${compared} cases compared`);
    assert.ok(expected.some((e) => e?.[0].startsWith('Indentation')) && expected.some((e) => e?.[0].startsWith('SyntaxError')) && expected.includes(null));
  });
});
