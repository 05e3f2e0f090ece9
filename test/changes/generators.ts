// Inputs the shared line-changes vectors describe as generators, and the textbook oracle.
import fs from 'node:fs';
import path from 'node:path';
import { PyRandom } from './pyRandom';

/** `shared/` beside the repository root (`/work/<checkout>` and `/work/shared`, also in CI). */
export const SHARED = path.join(__dirname, '..', '..', '..', 'shared');

export function readVectors(name: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(SHARED, 'vectors', name), 'utf8'));
}

/** The lines of a text as the test oracle splits them: each with its "\n", the last maybe without. */
export function oracleLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Length of a longest common subsequence, from the textbook table. */
export function longest<T>(old: readonly T[], neu: readonly T[]): number {
  const row = new Array<number>(neu.length + 1).fill(0);
  for (const line of old) {
    let diagonal = 0;
    for (let j = 1; j <= neu.length; j++) {
      const above = row[j];
      row[j] = line === neu[j - 1] ? diagonal + 1 : Math.max(above, row[j - 1]);
      diagonal = above;
    }
  }
  return row[neu.length];
}

/** `(added, removed)` of a minimal line diff, by the oracle. */
export function fewest(before: string, after: string): { added: number; removed: number } {
  const old = oracleLines(before);
  const neu = oracleLines(after);
  const kept = longest(old, neu);
  return { added: neu.length - kept, removed: old.length - kept };
}

const REPEATING = ['a', 'b', 'c', '', '  (x)', 'a\r', '}'];

function pyText(rng: PyRandom, lines: string[]): string {
  return lines.join('\n') + (lines.length && rng.random() < 0.8 ? '\n' : '');
}

/** `_pair(rng, most)` of the reference tests: two texts of a few repeating lines, edited or unrelated. */
export function pyPair(rng: PyRandom, most = 30): [string, string] {
  const lines = REPEATING.slice(0, rng.randint(2, REPEATING.length));
  const before = Array.from({ length: rng.randint(0, most) }, () => rng.choice(lines));
  if (rng.random() < 0.3) {
    const after = Array.from({ length: rng.randint(0, most) }, () => rng.choice(lines));
    return [pyText(rng, before), pyText(rng, after)];
  }
  const after = [...before];
  for (let edits = rng.randint(0, 6); edits > 0; edits--) {
    const at = rng.randint(0, after.length);
    const roll = rng.random();
    if (roll < 0.4 || after.length === 0) {
      after.splice(at, 0, rng.choice(lines));
    } else if (roll < 0.8) {
      after.splice(at === 0 ? after.length - 1 : at - 1, 1); // Python's `del after[at - 1]`
    } else {
      const start = rng.randrange(after.length);
      const block = after.slice(start, start + rng.randint(1, 5));
      after.splice(start, block.length);
      after.splice(Math.min(at, after.length), 0, ...block);
    }
  }
  return [pyText(rng, before), pyText(rng, after)];
}

/** `test_long_texts_count_exactly`: 500 lines of 300 values, `edits` replacements or moves. */
export function pyLongTexts(edits: number): [string, string] {
  const rng = new PyRandom(edits);
  const before = Array.from({ length: 500 }, () => `line ${rng.randrange(300)}`);
  const after = [...before];
  for (let e = 0; e < edits; e++) {
    const at = rng.randrange(after.length);
    if (rng.random() < 0.5) {
      after[at] = `line ${rng.randrange(300)}`;
    } else {
      const moved = after.splice(rng.randrange(after.length), 1)[0];
      after.splice(at, 0, moved);
    }
  }
  return [before.join('\n') + '\n', after.join('\n') + '\n'];
}

/** The vectors' LCG: `count` lines `line-<seed % k>`, each followed by "\n". */
export function lcg(seed: number, count: number, k: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    lines.push(`line-${seed % k}`);
  }
  return lines.join('\n') + '\n';
}

/** Small deterministic PRNG (mulberry32) for this project's own property tests. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
