// lineChanges against the `diff` package's diffLines (same run, same inputs): median milliseconds,
// the ratio, the counts, and whether our count is the minimum (checked with an unbudgeted LCS).
import { diffLines } from 'diff';
import { fewestLineChanges, lineChanges, type LineCounts } from '../server/src/changes/lineChanges';
import { lcg, mulberry32 } from '../test/changes/generators';
import { median } from './stats';

/** A deterministic Python module of `count` lines: classes, methods, docstrings, comments, blank lines. */
function pythonLines(count: number, seed: number): string[] {
  const random = mulberry32(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const lines = ['import os', 'import sys', 'from typing import Any', ''];
  for (let c = 0; lines.length < count; c++) {
    lines.push('', `class Widget${c}(Base):`, `  '''Widget number ${c}.'''`, '');
    lines.push('  def __init__(self, name, size=' + pick(100) + '):', '    self.name = name', '    self.size = size', '    self.items = []');
    for (let m = 0, methods = 2 + pick(6); m < methods; m++) {
      lines.push('', `  def method_${m}(self, value):`);
      for (let s = 0, statements = 1 + pick(8); s < statements; s++) {
        switch (pick(6)) {
          case 0:
            lines.push(`    if value > ${pick(1000)}:`, `      return self.items[${pick(50)}]`);
            break;
          case 1:
            lines.push(`    result = compute('key_${c}_${m}_${s}', value)`);
            break;
          case 2:
            lines.push(`    # step ${s} of widget ${c}`);
            break;
          case 3:
            lines.push('    for item in self.items:', "      print('item', item)");
            break;
          case 4:
            lines.push(`    self.size += ${pick(10)}`);
            break;
          default:
            lines.push('    pass');
        }
      }
      lines.push('    return value');
    }
  }
  return lines.slice(0, count);
}

const text = (lines: string[]) => lines.join('\n') + '\n';

/** `edits` scattered changes: a line changed, inserted or deleted, at spread-out places. */
function scatteredEdits(lines: string[], edits: number, seed: number): string[] {
  const random = mulberry32(seed);
  const out = [...lines];
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(((e + random()) / edits) * (out.length - 1));
    const roll = random();
    if (roll < 0.5) out[at] = `${out[at]}  # edited ${e}`;
    else if (roll < 0.75) out.splice(at, 0, `    log('inserted ${e}')`);
    else out.splice(at, 1);
  }
  return out;
}

/** What a formatter that re-indents and changes quotes does: every indented or quoted line differs. */
function reformatted(lines: string[]): string[] {
  return lines.map((line) => {
    const indent = line.length - line.trimStart().length;
    return ' '.repeat(indent * 2) + line.trimStart().replace(/'/g, '"');
  });
}

/** `blocks` runs of 20–300 lines cut out and put back elsewhere. */
function movedBlocks(lines: string[], blocks: number, seed: number): string[] {
  const random = mulberry32(seed);
  const out = [...lines];
  for (let b = 0; b < blocks; b++) {
    const size = 20 + Math.floor(random() * 280);
    const from = Math.floor(random() * (out.length - size));
    const block = out.splice(from, size);
    out.splice(Math.floor(random() * out.length), 0, ...block);
  }
  return out;
}

/** Two unrelated texts of `count` lines over `values` distinct lines. */
function unrelated(count: number, values: number, seed: number): [string, string] {
  const random = mulberry32(seed);
  const one = () => text(Array.from({ length: count }, () => `value = ${Math.floor(random() * values)}`));
  return [one(), one()];
}


function time<T>(run: () => T): [T, number] {
  const start = performance.now();
  const result = run();
  return [result, performance.now() - start];
}

/** Calls enough to fill about 300 ms, 15 to 201, so the medians of fast cases resist noise. */
function runsFor(firstMs: number): number {
  return Math.min(201, Math.max(15, Math.ceil(300 / Math.max(firstMs, 0.001))));
}

/** Our median, after 2 warm-up calls. */
function ours(before: string, after: string): { counts: LineCounts; ms: number; runs: number } {
  lineChanges(before, after);
  const [counts, first] = time(() => lineChanges(before, after));
  const runs = runsFor(first);
  const times: number[] = [];
  for (let r = 0; r < runs; r++) times.push(time(() => lineChanges(before, after))[1]);
  return { counts, ms: median(times), runs };
}

const DIFF_TIMEOUT_MS = 10_000;

/** diffLines' counts and median time; fewer runs when one is slow, one capped run past the timeout. */
function baseline(before: string, after: string): { counts?: LineCounts; ms: number; runs: number; timedOut: boolean } {
  const once = (): [LineCounts | undefined, number] =>
    time(() => {
      const parts = diffLines(before, after, { timeout: DIFF_TIMEOUT_MS });
      if (!parts) return undefined;
      const counts = { added: 0, removed: 0 };
      for (const part of parts) {
        if (part.added) counts.added += part.count;
        else if (part.removed) counts.removed += part.count;
      }
      return counts;
    });
  const [counts, first] = once();
  if (!counts) return { ms: first, runs: 1, timedOut: true };
  if (first >= 200) {
    const times = [first];
    for (let r = 1, runs = first < 2000 ? 3 : 1; r < runs; r++) times.push(once()[1]);
    return { counts, ms: median(times), runs: times.length, timedOut: false };
  }
  // Fast enough to warm up like ours: the first call only sizes the sample.
  once();
  const times: number[] = [];
  for (let r = 0, runs = runsFor(first); r < runs; r++) times.push(once()[1]);
  return { counts, ms: median(times), runs: times.length, timedOut: false };
}

const show = (c: LineCounts | undefined) => (c ? `+${c.added} -${c.removed}` : '—');
const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

export default async function run(): Promise<void> {
  const file5k = pythonLines(5000, 1);
  const file20k = pythonLines(20_000, 2);
  const cases: Array<{ name: string; before: string; after: string }> = [
    { name: '(a) 5,000-line .py, 20 scattered edits', before: text(file5k), after: text(scatteredEdits(file5k, 20, 3)) },
    { name: '(b) 5,000-line .py, reformatted throughout', before: text(file5k), after: text(reformatted(file5k)) },
    { name: '(c) 20,000-line .py, 12 blocks moved', before: text(file20k), after: text(movedBlocks(file20k, 12, 4)) },
    { name: '(d) 100,000 lines, unrelated, 5 values (spec LCG)', before: lcg(1, 100_000, 5), after: lcg(2, 100_000, 5) },
  ];
  const [e1, e2] = unrelated(57_000, 4000, 5);
  cases.push({ name: '(e) 57,000 lines, unrelated, 4,000 values', before: e1, after: e2 });

  const rows: string[][] = [['case', 'ours ms', 'diffLines ms', 'ratio', 'ours +/-', 'minimum +/-', 'ours exact', 'diffLines +/-']];
  for (const c of cases) {
    const mine = ours(c.before, c.after);
    const theirs = baseline(c.before, c.after);
    const least = fewestLineChanges(c.before, c.after);
    const exact = mine.counts.added === least.added && mine.counts.removed === least.removed;
    const over = mine.counts.added - least.added;
    rows.push([
      c.name,
      `${ms(mine.ms)} (${mine.runs} runs)`,
      theirs.timedOut ? `>${DIFF_TIMEOUT_MS} (timed out, 1 run)` : `${ms(theirs.ms)} (${theirs.runs} run${theirs.runs > 1 ? 's' : ''})`,
      `${theirs.timedOut ? '>' : ''}${(theirs.ms / mine.ms).toFixed(1)}×`,
      show(mine.counts),
      show(least),
      exact ? 'yes' : `no, +${over} each (budget fallback)`,
      show(theirs.counts),
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) => '| ' + r.map((cell, i) => cell.padEnd(widths[i])).join(' | ') + ' |';
  console.log(line(rows[0]));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const r of rows.slice(1)) console.log(line(r));
  console.log(
    `\nmedian wall time per call (ours: 2 warm-up calls, then 15 to 201 calls filling about 300 ms); diffLines from diff@9 with { timeout: ${DIFF_TIMEOUT_MS} }, ` +
      `warmed and sampled the same way when a call takes under 200 ms, else 3 calls under 2 s, else 1. "minimum" is an unbudgeted bit-parallel LCS. node ${process.version}.`,
  );
}
