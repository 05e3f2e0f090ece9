import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fewestLineChanges, lineChanges } from '../../server/src/changes/lineChanges';
import { hashedLines, lineCount, lineHash, middles, textMyers, type Middles } from '../../server/src/changes/textLines';
import { fewest, longest, mulberry32, oracleLines } from './generators';

/** Lines that test every way a line can end and be read: lengths around the 4- and 8-byte words. */
const PIECES = ['', 'a', 'ab', 'abc', 'abcd', 'abcde', 'abcdefg', 'abcdefgh', 'abcdefghi', 'x'.repeat(15), 'x'.repeat(16), 'x'.repeat(17)];
const ODD = ['\r', 'a\r', '\f', '\u2028', '\u0085', 'é', 'éé', '😀', 'a😀b', '\uD800', '\uDC00', '\uFFFD', '\uDC00\uD800', '\0', '\n\n'];

function randomText(random: () => number, lines: number, alphabet: string[]): string {
  const pick = () => alphabet[Math.floor(random() * alphabet.length)];
  const body = Array.from({ length: lines }, pick).join('\n');
  const roll = random();
  return roll < 0.6 ? body + '\n' : roll < 0.9 ? body : '';
}

/** A pair of texts: one random, the other it with a few lines changed, inserted or deleted. */
function randomPair(random: () => number, most: number, alphabet: string[]): [string, string] {
  const before = randomText(random, Math.floor(random() * most), alphabet);
  if (random() < 0.2) return [before, randomText(random, Math.floor(random() * most), alphabet)];
  const lines = before.split('\n');
  for (let e = Math.floor(random() * 6); e > 0; e--) {
    const at = Math.floor(random() * (lines.length + 1));
    const roll = random();
    const line = alphabet[Math.floor(random() * alphabet.length)];
    if (roll < 0.4) lines.splice(at, 0, line);
    else if (roll < 0.7) lines.splice(at, 1);
    else lines[Math.min(at, lines.length - 1)] = line;
  }
  return [before, lines.join('\n')];
}

/** The middles by the line lists: what `_without_shared_ends` keeps, as lines. */
function lineMiddles(before: string, after: string): [string[], string[]] {
  const x = oracleLines(before);
  const y = oracleLines(after);
  const top = Math.min(x.length, y.length);
  let head = 0;
  while (head < top && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < top - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  return [x.slice(head, x.length - tail), y.slice(head, y.length - tail)];
}

const middleLines = (text: string, from: number, to: number) => oracleLines(text.slice(from, to));

describe('middles: the lines both texts share at their ends, found on the raw texts', () => {
  it('cuts at the same lines as comparing the line lists, on 4,000 random pairs', () => {
    const random = mulberry32(11);
    for (let p = 0; p < 4000; p++) {
      const [before, after] = randomPair(random, 30, p % 2 ? PIECES : [...PIECES.slice(0, 4), ...ODD]);
      if (before === after) continue;
      const m = middles(before, after);
      const [x, y] = lineMiddles(before, after);
      const label = JSON.stringify({ before, after, m });
      assert.deepEqual(middleLines(before, m.a0, m.a1), x, label);
      assert.deepEqual(middleLines(after, m.b0, m.b1), y, label);
      assert.equal(m.a0, m.b0, label);
      assert.equal(before.length - m.a1, after.length - m.b1, label);
    }
  });

  it('keeps a last line without a newline apart from the same text with one', () => {
    assert.deepEqual(middles('a\nb', 'a\nb\n'), { a0: 2, a1: 3, b0: 2, b1: 4 });
    assert.deepEqual(middles('a\nb\n', 'a\nb'), { a0: 2, a1: 4, b0: 2, b1: 3 });
    assert.deepEqual(middles('a\n', 'a\nb'), { a0: 2, a1: 2, b0: 2, b1: 3 });
    assert.deepEqual(middles('x\nab\n', 'x\nb\n'), { a0: 2, a1: 5, b0: 2, b1: 4 });
    // Shared text at the end that starts inside a line is not a shared line.
    assert.deepEqual(middles('ab\nc\n', 'b\nc\n'), { a0: 0, a1: 3, b0: 0, b1: 2 });
  });

  it('counts lines as the line lists do', () => {
    assert.equal(lineCount('', 0, 0), 0);
    assert.equal(lineCount('\n', 0, 1), 1);
    assert.equal(lineCount('a\nb', 0, 3), 2);
    assert.equal(lineCount('a\nb\nc\n', 2, 6), 2);
    assert.equal(lineCount('a\nb\nc\n', 2, 4), 1);
  });
});

describe('textMyers: few changes counted on character ranges', () => {
  it('finds the fewest lines inserted plus deleted, and the line-count difference, on 4,000 random pairs', () => {
    const random = mulberry32(12);
    let found = 0;
    for (let p = 0; p < 4000; p++) {
      const [before, after] = randomPair(random, 60, p % 2 ? PIECES : [...PIECES.slice(0, 5), ...ODD]);
      if (before === after) continue;
      const m = middles(before, after);
      const x = middleLines(before, m.a0, m.a1);
      const y = middleLines(after, m.b0, m.b1);
      if (!x.length || !y.length) continue;
      const distance = textMyers(before, m, after, 64, Infinity);
      if (distance === null) continue;
      found++;
      const label = JSON.stringify({ before, after });
      assert.deepEqual(distance, { d: x.length + y.length - 2 * longest(x, y), diff: x.length - y.length }, label);
    }
    assert.ok(found > 2000, `${found} pairs counted`);
  });

  it('gives up past its rounds, and when its pace would need more', () => {
    const lines = Array.from({ length: 400 }, (_, i) => `line ${i}\n`);
    const before = lines.join('');
    // Every other line after the first changed: 200 lines, so 400 differences, past 64 rounds.
    const after = lines.map((line, i) => (i % 2 ? `other ${i}\n` : line)).join('');
    const m = middles(before, after);
    assert.equal(textMyers(before, m, after, 64, Infinity), null);
    // 400 rounds would do, but 16 rounds cross only 8 of the 399 middle lines: a pace of about 800.
    assert.equal(textMyers(before, m, after, 500, Infinity), null);
    assert.deepEqual(textMyers(before, m, after, 1000, Infinity), { d: 400, diff: 0 });
    assert.equal(textMyers(before, m, after, 1000, 5000), null, 'past the characters it may compare');
  });
});

describe('hashedLines: one id per distinct line', () => {
  function checkIds(before: string, after: string, m: Middles, label: string): void {
    const x = middleLines(before, m.a0, m.a1);
    const y = middleLines(after, m.b0, m.b1);
    const { a, b, distinct } = hashedLines(before, m, after);
    const lines = [...x, ...y];
    const ids = [...a, ...b];
    assert.equal(a.length, x.length, label);
    assert.equal(b.length, y.length, label);
    const idOf = new Map<string, number>();
    const lineOf = new Map<number, string>();
    lines.forEach((line, i) => {
      assert.equal(idOf.get(line) ?? ids[i], ids[i], `${label}: ${JSON.stringify(line)} got two ids`);
      assert.equal(lineOf.get(ids[i]) ?? line, line, `${label}: id ${ids[i]} holds two lines`);
      idOf.set(line, ids[i]);
      lineOf.set(ids[i], line);
    });
    assert.equal(distinct, idOf.size, label);
  }

  it('gives equal ids exactly to equal lines, on 3,000 random pairs with every kind of line', () => {
    const random = mulberry32(13);
    for (let p = 0; p < 3000; p++) {
      const [before, after] = randomPair(random, 40, p % 3 ? [...PIECES, ...ODD] : ODD);
      if (before === after) continue;
      // The middles, and the whole texts (both ending wherever the texts do).
      checkIds(before, after, middles(before, after), JSON.stringify({ before, after }));
      checkIds(before, after, { a0: 0, a1: before.length, b0: 0, b1: after.length }, JSON.stringify({ before, after }));
    }
  });

  it('holds text of two to four UTF-8 bytes a character, with or without a lone surrogate', () => {
    const random = mulberry32(15);
    const wide = ['日本語の行です', 'ÄÖÜäöü', '😀😃😄', 'ελληνικά', '中文', 'x'];
    for (const extra of [[], ['\uD83D']]) {
      for (let p = 0; p < 30; p++) {
        const [before, after] = randomPair(random, 400, [...wide, ...extra]);
        if (before === after) continue;
        checkIds(before, after, { a0: 0, a1: before.length, b0: 0, b1: after.length }, JSON.stringify({ extra, p }));
        assert.deepEqual(fewestLineChanges(before, after), fewest(before, after));
      }
      // More bytes than the work buffer holds at first (64 KiB), so it grows while encoding.
      const lines = Array.from({ length: 3000 }, (_, i) => wide[i % 5].repeat(1 + (i % 3)));
      const before = lines.join('\n') + '\n' + extra.join('');
      const after = lines.filter((_, i) => i % 700 !== 5).join('\n') + '\n中文\n';
      checkIds(before, after, { a0: 0, a1: before.length, b0: 0, b1: after.length }, `3,000 lines ${JSON.stringify(extra)}`);
      assert.deepEqual(fewestLineChanges(before, after), fewest(before, after));
    }
  });

  it('keeps apart lines whose surrogates UTF-8 cannot hold', () => {
    const before = '\uD800\n\uDC00\n\uFFFD\n\uD800\uDC00\n\uDC00\uD800\n';
    checkIds(before, before, { a0: 0, a1: before.length, b0: 0, b1: before.length }, 'lone surrogates');
    assert.deepEqual(fewestLineChanges('\uD800\n', '\uDC00\n'), { added: 1, removed: 1 });
    assert.deepEqual(lineChanges('x\n\uD800\n', '\uFFFD\nx\n', { mostSteps: 0 }), { added: 1, removed: 1 });
  });

  it('keeps apart distinct lines whose hashes collide', () => {
    // Found by hashing seeded random ten-letter lines until two hashes met (about 100,000 lines).
    const [one, two] = ['maijxjiyfr\n', 'goquvgepjl\n'];
    assert.equal(lineHash(one), lineHash(two), 'this pair no longer collides: find another with the same search');
    const before = `${one}${two}${one}`;
    const after = `${two}${one}${two}`;
    checkIds(before, after, { a0: 0, a1: before.length, b0: 0, b1: after.length }, 'a colliding pair');
    assert.deepEqual(fewestLineChanges(before, after), fewest(before, after));
    assert.deepEqual(lineChanges(before, after, { mostSteps: 0 }), fewest(before, after));
    assert.deepEqual(lineChanges(one, two), { added: 1, removed: 1 });
  });
});

/** A deterministic Python-like module of `count` lines, with repeated lines as real code has. */
function codeLines(random: () => number, count: number): string[] {
  const common = ['', '    pass', '    return value', '        continue', '    # note'];
  return Array.from({ length: count }, (_, i) =>
    random() < 0.3 ? common[Math.floor(random() * common.length)] : `    value_${i % 97} = compute(${Math.floor(random() * 50)})`,
  );
}

describe('lineChanges on files of hundreds to thousands of lines: every path against the textbook LCS', () => {
  it('gives the fewest counts for edits from a few to dense, and for unrelated texts', () => {
    const random = mulberry32(14);
    for (let p = 0; p < 24; p++) {
      const lines = codeLines(random, 300 + Math.floor(random() * 2200));
      const edited = [...lines];
      // From 1 to about 600 edits: the text search, Myers on ids, then banded rows.
      const edits = p < 20 ? Math.floor(2 ** (random() * 9.3)) : 0;
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(random() * edited.length);
        const roll = random();
        if (roll < 0.4) edited[at] = `    edited(${e})`;
        else if (roll < 0.7) edited.splice(at, 0, `    inserted(${e})`);
        else if (roll < 0.85) edited.splice(at, 1);
        else edited.splice(Math.floor(random() * edited.length), 0, ...edited.splice(at, 1 + Math.floor(random() * 30)));
      }
      const before = lines.join('\n') + '\n';
      const after = p < 20 ? edited.join('\n') + (random() < 0.8 ? '\n' : '') : codeLines(random, 2000).join('\n');
      const least = fewest(before, after);
      assert.deepEqual(lineChanges(before, after), least, `pair ${p}, ${edits} edits`);
      assert.deepEqual(fewestLineChanges(before, after), least, `pair ${p}, ${edits} edits`);
    }
  });
});
