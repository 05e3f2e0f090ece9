import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pyStrip } from '../../server/src/model/literals';
import { VERBS, compareCodePoints, renderRouting, type RoutingVersion } from '../../server/src/routing/render';

// test/routing/ -> repo checkout (/work/<name>) -> /work, where shared/ sits beside the checkouts.
const VECTORS = path.join(__dirname, '..', '..', '..', 'shared', 'vectors', 'routing.json');

type Assertion =
  | { kind: 'line'; index: number; equals: string }
  | { kind: 'contains'; text: string }
  | { kind: 'not_contains'; text: string }
  | { kind: 'error_matches'; pattern: string };

interface Vector {
  prompt_version: RoutingVersion;
  language: string;
  alias: string;
  verbs: string[];
  verbs_omitted?: boolean;
  notes: string[];
  expected?: string;
  error?: string;
  asserts?: Assertion[];
  source: string;
}

const vectors: Vector[] = JSON.parse(fs.readFileSync(VECTORS, 'utf8'));

describe('prompt.routing vectors', () => {
  it('has the vector file with vectors in it', () => {
    assert.ok(vectors.length > 0);
  });

  vectors.forEach((v, i) => {
    it(`#${i} ${v.prompt_version}: ${v.source}`, () => {
      assert.ok((v.expected === undefined) !== (v.error === undefined), 'a vector has exactly one of expected/error');
      if (v.verbs_omitted) assert.deepEqual(v.verbs, [...VERBS], 'an omitted verbs argument stands for VERBS');
      const result = renderRouting(
        { language: v.language, alias: v.alias, verbs: v.verbs_omitted ? undefined : v.verbs, notes: v.notes },
        v.prompt_version,
      );
      if (v.error !== undefined) {
        assert.deepEqual(result, { ok: false, error: { type: 'ValueError', message: v.error } });
      } else {
        assert.deepEqual(result, { ok: true, text: v.expected });
      }
      for (const a of v.asserts ?? []) {
        if (a.kind === 'error_matches') {
          assert.ok(!result.ok, 'error_matches needs an error');
          assert.match(result.error.message, new RegExp(a.pattern));
          continue;
        }
        assert.ok(result.ok, `${a.kind} needs a text`);
        const text = result.text;
        if (a.kind === 'line') assert.equal(text.split('\n').at(a.index), a.equals);
        else if (a.kind === 'contains') assert.ok(text.includes(a.text), `contains ${JSON.stringify(a.text)}`);
        else if (a.kind === 'not_contains') assert.ok(!text.includes(a.text), `does not contain ${JSON.stringify(a.text)}`);
        else assert.fail(`unknown assert kind ${JSON.stringify(a)}`);
      }
    });
  });
});

describe('prompt.routing beyond the vectors', () => {
  it('defaults to the current wording', () => {
    const args = { language: 'Python', alias: 'py', verbs: ['run_tests'] };
    assert.deepEqual(renderRouting(args), renderRouting(args, 'current'));
    assert.notDeepEqual(renderRouting(args), renderRouting(args, 'legacy'));
  });

  it('checks unknown verbs before the empty check, whatever the wording', () => {
    for (const version of ['current', 'legacy'] as const) {
      assert.deepEqual(renderRouting({ language: 'X', alias: 'x', verbs: ['nope'] }, version), {
        ok: false,
        error: { type: 'ValueError', message: 'unknown language verbs: nope' },
      });
    }
  });

  it('sorts unknown verbs by code point, not by UTF-16 code unit', () => {
    const result = renderRouting({ language: 'X', alias: 'x', verbs: ['\u{1F600}', '\uFFFF', 'b', 'B', '_'] });
    assert.deepEqual(result, {
      ok: false,
      error: { type: 'ValueError', message: 'unknown language verbs: B, _, b, \uFFFF, \u{1F600}' },
    });
  });

  it('leaves language and alias unchecked, even empty', () => {
    assert.deepEqual(renderRouting({ language: '', alias: '', verbs: ['build'] }), {
      ok: true,
      text: ' surface active \u2014  through its own toolchain:\n  .build\nUse these verbs, not a shell command, to format, lint and test . Read their typed result; do not parse output.',
    });
  });
});

describe('Python str.strip()', () => {
  // Every code point for which Python's str.isspace() is true.
  const pythonSpace = [
    ...[0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680],
    ...Array.from({ length: 11 }, (_, k) => 0x2000 + k),
    ...[0x2028, 0x2029, 0x202f, 0x205f, 0x3000],
  ];

  it('strips exactly the characters Python counts as whitespace', () => {
    const space = new Set(pythonSpace);
    for (let cp = 0; cp <= 0xffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      assert.equal(pyStrip(`${ch}a${ch}`), space.has(cp) ? 'a' : `${ch}a${ch}`, `U+${cp.toString(16).padStart(4, '0')}`);
    }
  });

  it('keeps inner whitespace and handles all-space and empty strings', () => {
    assert.equal(pyStrip(' \u0085a \n b\u3000\u001c'), 'a \n b');
    assert.equal(pyStrip('\u2028\u00a0\t'), '');
    assert.equal(pyStrip(''), '');
    assert.equal(pyStrip('\ufeff'), '\ufeff');
  });
});

describe('code point comparison', () => {
  it('orders as Python orders strings', () => {
    assert.ok(compareCodePoints('\uFFFF', '\u{10000}') < 0);
    assert.ok(compareCodePoints('ab', 'a') > 0);
    assert.ok(compareCodePoints('a', 'ab') < 0);
    assert.equal(compareCodePoints('run_tests', 'run_tests'), 0);
    assert.ok(compareCodePoints('Z', 'a') < 0);
  });
});
