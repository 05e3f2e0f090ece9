import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  fewestLineChanges,
  internals,
  lineChanges,
  MOST_MASK_BITS,
  splitLines,
  type LineChangesBudgets,
} from '../../server/src/changes/lineChanges';
import { fewest, lcg, longest, mulberry32, oracleLines, pyLongTexts, pyPair, readVectors } from './generators';
import { PyRandom } from './pyRandom';

type Vector = Record<string, unknown> & { source?: string };
const vectors = readVectors('line-changes.json') as Vector[];

const BUDGET_NAMES: Record<string, keyof LineChangesBudgets> = {
  _MOST_STEPS: 'mostSteps',
  _MOST_PAIRS: 'mostPairs',
  _MOST_MASK_BITS: 'mostMaskBits',
};

/** `random.Random(<seed>); <count> ...` at the start of a generator description. */
function seedAndCount(generator: string): [number, number] {
  const found = /random\.Random\((\d+)\);\s*(\d+)\s/.exec(generator);
  assert.ok(found, `no seed and count in ${generator}`);
  return [Number(found[1]), Number(found[2])];
}

interface Lcg {
  seed: number;
  count: number;
  k: number;
}

/** One test per vector, by its shape; a shape this file does not know fails, so none is skipped. */
function checkVector(v: Vector): void {
  if (typeof v.before === 'string' && typeof v.after === 'string') {
    assert.deepEqual(lineChanges(v.before, v.after), { added: v.added, removed: v.removed });
    if (Array.isArray(v.fewest)) {
      const [added, removed] = v.fewest as number[];
      assert.deepEqual(fewest(v.before, v.after), { added, removed });
      assert.deepEqual(fewestLineChanges(v.before, v.after), { added, removed });
    }
    return;
  }
  if (typeof v.before === 'object' && v.before !== null && typeof v.after === 'object') {
    const { seed: s1, count: c1, k: k1 } = v.before as Lcg;
    const { seed: s2, count: c2, k: k2 } = v.after as Lcg;
    assert.match(String(v.generator), /seed \* 1103515245 \+ 12345\) & 0x7fffffff/);
    const before = lcg(s1, c1, k1);
    const after = lcg(s2, c2, k2);
    assert.deepEqual(lineChanges(before, after), { added: v.added, removed: v.removed });
    const least = fewestLineChanges(before, after);
    if (Array.isArray(v.fewest)) assert.deepEqual(least, { added: v.fewest[0], removed: v.fewest[1] });
    if (String(v.path).startsWith('exact')) assert.deepEqual(least, { added: v.added, removed: v.removed });
    return;
  }
  if (v.expected_by_edits) {
    for (const [edits, counts] of Object.entries(v.expected_by_edits as Record<string, unknown>)) {
      const [before, after] = pyLongTexts(Number(edits));
      assert.deepEqual(lineChanges(before, after), counts, `edits=${edits}`);
      assert.deepEqual(fewest(before, after), counts, `oracle, edits=${edits}`);
    }
    return;
  }
  if (v.aggregate) {
    const generator = String(v.generator);
    const found = /Random\((\d+)\); (\d+) calls of _pair\(rng, most=(\d+)\)/.exec(generator);
    assert.ok(found, generator);
    const rng = new PyRandom(Number(found[1]));
    const pairs = Number(found[2]);
    const aggregate = v.aggregate as { pairs: number; sum_added: number; sum_removed: number };
    const first = v.first_pairs as Array<{ before: string; after: string; added: number; removed: number }>;
    assert.equal(pairs, aggregate.pairs);
    let added = 0;
    let removed = 0;
    for (let p = 0; p < pairs; p++) {
      const [before, after] = pyPair(rng, Number(found[3]));
      const counts = lineChanges(before, after);
      if (p < first.length) assert.deepEqual({ before, after, ...counts }, first[p]);
      assert.deepEqual(counts, fewest(before, after), JSON.stringify({ before, after }));
      added += counts.added;
      removed += counts.removed;
    }
    assert.deepEqual({ added, removed }, { added: aggregate.sum_added, removed: aggregate.sum_removed });
    return;
  }
  if (Array.isArray(v.internal_vectors)) {
    for (const t of v.internal_vectors as Array<Record<string, unknown>>) {
      assert.equal(t.function, '_bit_parallel');
      const maskBits = (t.constants as Record<string, number>)._MOST_MASK_BITS;
      assert.equal(internals.bitParallel(t.old as string[], t.new as string[], maskBits), t.expected);
    }
    return;
  }
  const generator = String(v.generator ?? '');
  if (/_myers\(old,new,10\*\*9\) == _bit_parallel\(old,new\) == textbook LCS/.test(generator)) {
    const [seed, count] = seedAndCount(generator);
    const rng = new PyRandom(seed);
    for (let p = 0; p < count; p++) {
      const [old, neu] = pyPair(rng).map(splitLines);
      const most = longest(old, neu);
      assert.equal(internals.myers(old, neu, 10 ** 9), most);
      assert.equal(internals.bitParallel(old, neu), most);
      const pairs = old.reduce((sum, line) => sum + neu.filter((other) => other === line).length, 0);
      assert.deepEqual(internals.sparse(old, neu, 10 ** 9), [most, pairs]);
    }
    return;
  }
  if (v.property) {
    const [seed, count] = seedAndCount(generator);
    const overrides = [...generator.matchAll(/\{([^}]*)\}/g)].map(([, body]) => {
      const budgets: LineChangesBudgets = {};
      for (const [, name, value] of body.matchAll(/(_MOST_\w+):\s*(\d+)/g)) budgets[BUDGET_NAMES[name]] = Number(value);
      return budgets;
    });
    assert.equal(overrides.length, 4, generator);
    for (const budgets of overrides) {
      const rng = new PyRandom(seed);
      for (let p = 0; p < count; p++) {
        const [before, after] = pyPair(rng);
        const counts = lineChanges(before, after, budgets);
        const least = fewest(before, after);
        assert.ok(counts.added >= least.added && counts.removed >= least.removed, JSON.stringify({ budgets, before, after }));
        assert.equal(counts.added - counts.removed, least.added - least.removed);
      }
    }
    return;
  }
  const replaced = /'line 0'\.\.'line (\d+)'.*i % (\d+) == 0 replaced by 'edited ' \+ i/.exec(generator);
  if (replaced) {
    const lines = Array.from({ length: Number(replaced[1]) + 1 }, (_, i) => `line ${i}`);
    const edited = lines.map((line, i) => (i % Number(replaced[2]) === 0 ? `edited ${i}` : line));
    const before = lines.join('\n') + '\n';
    const after = edited.join('\n') + '\n';
    assert.deepEqual(lineChanges(before, after), { added: v.added, removed: v.removed });
    assert.deepEqual(fewestLineChanges(before, after), { added: v.added, removed: v.removed });
    return;
  }
  assert.fail(`a line-changes vector of a shape this test does not know: ${JSON.stringify(v).slice(0, 200)}`);
}

describe('lineChanges: shared vectors', () => {
  it('the vector file is there and not empty', () => {
    assert.ok(vectors.length >= 78, `${vectors.length} vectors`);
  });
  vectors.forEach((v, i) => {
    const label = typeof v.comment === 'string' ? v.comment : String(v.source ?? '').split(' :: ').pop();
    it(`vector ${i}: ${label}`, () => checkVector(v));
  });
});

/** Random texts from a few lines, with CR, empty lines, missing final newlines and empty texts. */
function randomPair(random: () => number, most: number): [string, string] {
  const pick = (n: number) => Math.floor(random() * n);
  const alphabet = ['a', 'b', 'c', '', 'a\r', '\r', '  x', 'é', '😀', '\f', 'b '].slice(0, 2 + pick(9));
  const uniqueShare = random() < 0.5 ? 0 : random() * 0.6;
  let next = 0;
  const line = () => (random() < uniqueShare ? `u${next++}` : alphabet[pick(alphabet.length)]);
  const before = Array.from({ length: pick(most + 1) }, line);
  let after: string[];
  if (random() < 0.25) {
    after = Array.from({ length: pick(most + 1) }, line);
  } else {
    after = [...before];
    for (let e = pick(8); e > 0; e--) {
      const at = pick(after.length + 1);
      const roll = random();
      if (roll < 0.4 || !after.length) after.splice(at, 0, line());
      else if (roll < 0.7) after.splice(Math.min(at, after.length - 1), 1);
      else if (roll < 0.85) after[Math.min(at, after.length - 1)] = line();
      else {
        const start = pick(after.length);
        const block = after.splice(start, 1 + pick(6));
        after.splice(pick(after.length + 1), 0, ...block);
      }
    }
  }
  const text = (lines: string[]) => {
    const roll = random();
    if (roll < 0.05) return '';
    return lines.join('\n') + (lines.length && roll < 0.75 ? '\n' : '');
  };
  return [text(before), text(after)];
}

describe('lineChanges: property checks against the textbook LCS', () => {
  it('gives the fewest counts on 5,000 random pairs', () => {
    const random = mulberry32(20240601);
    for (let p = 0; p < 5000; p++) {
      const [before, after] = randomPair(random, p % 10 === 0 ? 120 : 40);
      assert.deepEqual(lineChanges(before, after), fewest(before, after), JSON.stringify({ before, after }));
    }
  });

  it('gives the fewest counts across the 32-line word boundaries of the bit-parallel rows', () => {
    const random = mulberry32(7);
    // Long enough that Myers gives up (most = steps/2 is small) and bit-parallel rows decide.
    for (let p = 0; p < 300; p++) {
      const size = 20 + Math.floor(random() * 150);
      const mk = () => Array.from({ length: size }, () => 'abcde'[Math.floor(random() * 5)]).join('\n') + '\n';
      const before = mk();
      const after = mk();
      assert.deepEqual(lineChanges(before, after), fewest(before, after));
      assert.deepEqual(fewestLineChanges(before, after), fewest(before, after));
    }
  });

  it('counts the same over any band a common subsequence allows', () => {
    const random = mulberry32(8);
    for (let p = 0; p < 400; p++) {
      const size = 1 + Math.floor(random() * 200);
      const values = 2 + Math.floor(random() * 40);
      const make = (n: number) => Array.from({ length: n }, () => `v${Math.floor(random() * values)}`);
      const old = make(size);
      const neu = random() < 0.5 ? make(1 + Math.floor(random() * 200)) : old.map((line) => (random() < 0.1 ? 'changed' : line));
      const most = longest(old, neu);
      // No band (a subsequence of 0 lines), the band of the longest itself, any between, and the estimate's.
      for (const lower of [0, most, Math.floor(random() * (most + 1)), undefined]) {
        assert.equal(internals.bitParallel(old, neu, MOST_MASK_BITS, lower), most, JSON.stringify({ old, neu, lower }));
      }
    }
  });

  it('splits only at "\\n" and keeps a last line without one apart', () => {
    assert.deepEqual(splitLines(''), []);
    assert.deepEqual(splitLines('\n'), ['']);
    assert.deepEqual(lineChanges('a', 'a\n'), { added: 1, removed: 1 });
    assert.deepEqual(lineChanges('a\rb\u2028c\u0085d\n', 'a\rb\u2028c\u0085d\n'), { added: 0, removed: 0 });
    assert.deepEqual(lineChanges('x\ny', 'x\ny\nz'), { added: 2, removed: 1 });
    assert.deepEqual(oracleLines('a\n\nb'), ['a\n', '\n', 'b']);
  });
});

describe('lineChanges: past a budget', () => {
  const budgets: LineChangesBudgets[] = [
    { mostSteps: 0 },
    { mostSteps: 30 },
    { mostSteps: 0, mostPairs: 5 },
    { mostSteps: 0, mostPairs: 0 },
    { mostMaskBits: 0 },
    { mostSteps: 60, mostPairs: 40 },
  ];
  for (const budget of budgets) {
    it(`never counts fewer than the minimum with ${JSON.stringify(budget)}`, () => {
      const random = mulberry32(99);
      let above = 0;
      for (let p = 0; p < 1500; p++) {
        const [before, after] = randomPair(random, p % 5 === 0 ? 150 : 40);
        const counts = lineChanges(before, after, budget);
        const least = fewest(before, after);
        assert.ok(counts.added >= least.added && counts.removed >= least.removed, JSON.stringify({ before, after }));
        assert.equal(counts.added - counts.removed, least.added - least.removed);
        if (counts.added > least.added) above++;
      }
      // The tiny budget really sends inputs down the fallback (it over-counts some of them).
      assert.ok(above > 0, 'the fallback never ran');
    });
  }

  it('anchors through lines each side holds once, then counts the gaps exactly', () => {
    // 3,000 unique lines with a few replaced: the top-level count is over budget (mostSteps 100),
    // but every gap between anchors is tiny and counted exactly, so the result is still the fewest.
    const lines = Array.from({ length: 3000 }, (_, i) => `line ${i}`);
    const edited = lines.map((line, i) => (i % 301 === 7 ? `${line} changed` : line));
    edited.splice(1500, 0, 'new 1', 'new 2');
    const before = lines.join('\n') + '\n';
    const after = edited.join('\n');
    assert.deepEqual(lineChanges(before, after, { mostSteps: 100 }), fewest(before, after));
  });

  it('over-counts the unrelated 100,000-line texts of the spec exactly as documented', () => {
    const before = lcg(1, 100_000, 5);
    const after = lcg(2, 100_000, 5);
    assert.deepEqual(lineChanges(before, after), { added: 99_999, removed: 99_999 });
  });
});
