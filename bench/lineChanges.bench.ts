// lineChanges against the `diff` package's diffLines and against the Python reference
// (vis-lang-interface `line_changes`, timed in its own process by bench/python/), on the same
// inputs in the same run: median milliseconds, the ratios, the counts, and whether ours are the
// reference's and the minimum (an unbudgeted bit-parallel LCS). The three are timed in alternating
// batches, so a load that comes and goes on the machine falls on all of them alike.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
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


interface Case {
  name: string;
  before: string;
  after: string;
}

function cases(): Case[] {
  const file5k = pythonLines(5000, 1);
  const file20k = pythonLines(20_000, 2);
  const list: Case[] = [5, 20, 100, 500].map((edits, i) => ({
    name: `(${'abcd'[i]}) 5,000-line .py, ${edits} scattered edits`,
    before: text(file5k),
    after: text(scatteredEdits(file5k, edits, 3)),
  }));
  list.push({ name: '(e) 5,000-line .py, reformatted throughout', before: text(file5k), after: text(reformatted(file5k)) });
  list.push({ name: '(f) 20,000-line .py, 12 blocks moved', before: text(file20k), after: text(movedBlocks(file20k, 12, 4)) });
  const [g1, g2] = unrelated(57_000, 4000, 5);
  list.push({ name: '(g) 57,000 lines, unrelated, 4,000 values', before: g1, after: g2 });
  list.push({ name: '(h) 100,000 lines, unrelated, 5 values (spec LCG)', before: lcg(1, 100_000, 5), after: lcg(2, 100_000, 5) });
  return list;
}

/** The Python reference in a process of its own, answering one JSON line per request. */
class Reference {
  private readonly waiting: Array<(answer: Record<string, unknown>) => void> = [];

  private constructor(
    private readonly child: ChildProcess,
    lines: readline.Interface,
  ) {
    lines.on('line', (line) => this.waiting.shift()?.(JSON.parse(line)));
  }

  /** The running reference and where it was found, or why there is none. */
  static async start(): Promise<{ reference: Reference; where: string } | { absent: string }> {
    const python = process.env.PYTHON ?? 'python3';
    const child = spawn(python, [path.join(__dirname, 'python', 'line_changes_bench.py')], { stdio: ['pipe', 'pipe', 'inherit'] });
    const failed = new Promise<{ absent: string }>((resolve) =>
      child.on('error', (e) => resolve({ absent: `${python} could not be started (${(e as NodeJS.ErrnoException).code ?? e.message})` })),
    );
    const reference = new Reference(child, readline.createInterface({ input: child.stdout! }));
    const hello = await Promise.race([reference.ask(null), failed]);
    if ('absent' in hello) {
      child.kill();
      return { absent: String(hello.absent) };
    }
    return { reference, where: `${hello.reference} (Python ${hello.python})` };
  }

  private ask(request: object | null): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (request) this.child.stdin!.write(JSON.stringify(request) + '\n');
    });
  }

  async load(name: string, before: string, after: string): Promise<LineCounts> {
    const answer = await this.ask({ load: name, before, after });
    return { added: Number(answer.added), removed: Number(answer.removed) };
  }

  async time(name: string, runs: number): Promise<number[]> {
    return (await this.ask({ time: name, runs })).ms as number[];
  }

  close(): void {
    this.child.stdin!.end();
  }
}

function time(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

const DIFF_TIMEOUT_MS = 10_000;
/** Rounds of alternating batches; each batch fills about BATCH_MS, with 1 to 200 calls. */
const ROUNDS = 3;
const BATCH_MS = 100;
const batchOf = (firstMs: number) => Math.min(200, Math.max(1, Math.ceil(BATCH_MS / Math.max(firstMs, 0.001))));

function diffCounts(before: string, after: string): LineCounts | undefined {
  const parts = diffLines(before, after, { timeout: DIFF_TIMEOUT_MS });
  if (!parts) return undefined;
  const counts = { added: 0, removed: 0 };
  for (const part of parts) {
    if (part.added) counts.added += part.count;
    else if (part.removed) counts.removed += part.count;
  }
  return counts;
}

const show = (c: LineCounts | undefined) => (c ? `+${c.added} -${c.removed}` : '—');
const same = (x: LineCounts, y: LineCounts | undefined) => !!y && x.added === y.added && x.removed === y.removed;
const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v.toFixed(3));

export default async function run(): Promise<void> {
  const started = await Reference.start();
  const reference = 'reference' in started ? started.reference : undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-line-changes-'));
  const header = ['case', 'ours ms', 'diffLines ms', 'vs diffLines', 'reference ms', 'vs reference', 'ours +/-', 'reference +/-', 'minimum +/-', 'ours exact'];
  const rows: string[][] = [header];
  const problems: string[] = [];
  const ratios: Array<{ name: string; diff: number; reference?: number }> = [];
  try {
    for (const [index, c] of cases().entries()) {
      // Warm-up calls, whose median sizes the batches.
      const counts = lineChanges(c.before, c.after);
      const oursBatch = batchOf(median(Array.from({ length: 5 }, () => time(() => lineChanges(c.before, c.after)))));
      // diffLines: one call tells whether it finishes; past a second it is not repeated.
      let diff: LineCounts | undefined;
      const diffFirst = time(() => (diff = diffCounts(c.before, c.after)));
      const diffRepeats = diff !== undefined && diffFirst < 1000;
      const diffBatch = diffRepeats ? batchOf(median([diffFirst, time(() => diffCounts(c.before, c.after)), time(() => diffCounts(c.before, c.after))])) : 0;
      let theirs: LineCounts | undefined;
      let referenceBatch = 0;
      if (reference) {
        const file = (side: string, body: string) => {
          const at = path.join(dir, `${index}.${side}`);
          fs.writeFileSync(at, body, 'utf8');
          return at;
        };
        theirs = await reference.load(String(index), file('before', c.before), file('after', c.after));
        referenceBatch = batchOf(median(await reference.time(String(index), 3)));
      }
      const oursMs: number[] = [];
      const diffMs: number[] = diffRepeats ? [] : [diffFirst];
      const referenceMs: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (let r = 0; r < oursBatch; r++) oursMs.push(time(() => lineChanges(c.before, c.after)));
        for (let r = 0; r < diffBatch; r++) diffMs.push(time(() => diffCounts(c.before, c.after)));
        if (reference) referenceMs.push(...(await reference.time(String(index), referenceBatch)));
      }
      const least = fewestLineChanges(c.before, c.after);
      const ours = median(oursMs);
      const diffTime = median(diffMs);
      const timedOut = diff === undefined;
      const referenceTime = reference ? median(referenceMs) : undefined;
      ratios.push({ name: c.name, diff: diffTime / ours, reference: referenceTime && referenceTime / ours });
      let exact: string;
      if (reference && !same(counts, theirs)) {
        exact = 'NO: differs from the reference';
        problems.push(`${c.name}: ours ${show(counts)}, the reference ${show(theirs)}`);
      } else if (same(counts, least)) {
        exact = reference ? 'yes (= reference = minimum)' : 'yes (= minimum)';
      } else {
        exact = `${reference ? '= reference; ' : ''}budget fallback, +${counts.added - least.added} each over the minimum`;
      }
      const runs = (n: number) => ` (${n} run${n > 1 ? 's' : ''})`;
      rows.push([
        c.name,
        ms(ours) + runs(oursMs.length),
        timedOut ? `>${DIFF_TIMEOUT_MS} (timed out, 1 run)` : ms(diffTime) + runs(diffMs.length),
        `${timedOut ? '>' : ''}${(diffTime / ours).toFixed(1)}×`,
        referenceTime === undefined ? '—' : ms(referenceTime) + runs(referenceMs.length),
        referenceTime === undefined ? '—' : `${(referenceTime / ours).toFixed(1)}×`,
        show(counts),
        show(theirs),
        show(least),
        exact,
      ]);
    }
  } finally {
    reference?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) => '| ' + r.map((cell, i) => cell.padEnd(widths[i])).join(' | ') + ' |';
  console.log(line(rows[0]));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const r of rows.slice(1)) console.log(line(r));
  console.log(
    `\nMedian wall time per call, node ${process.version}. Ours, diffLines (diff@9, { timeout: ${DIFF_TIMEOUT_MS} }) and the ` +
      `reference are each warmed, then timed in ${ROUNDS} rounds of alternating batches filling about ${BATCH_MS} ms each ` +
      `(diffLines once when a call takes a second or more). The reference runs in-process in Python, its start-up not counted.`,
  );
  console.log(
    'reference' in started
      ? `Reference: ${started.where}.`
      : `Reference: ABSENT, ${started.absent}. Set VIS_LANG_INTERFACE_SRC to a checkout of vis-lang-interface (or install it) to compare.`,
  );
  const twenty = ratios[1];
  console.log(`Target ≥ 10× diffLines on 20 scattered edits: ${twenty.diff.toFixed(1)}× (${twenty.diff >= 10 ? 'met' : 'NOT met'}).`);
  if (reference) {
    const slowest = ratios.reduce((a, b) => ((b.reference ?? Infinity) < (a.reference ?? Infinity) ? b : a));
    const all = ratios.every((r) => (r.reference ?? 0) > 1);
    console.log(`Faster than the reference on every case: ${all ? 'yes' : 'NO'} (least ${slowest.reference?.toFixed(1)}×, ${slowest.name}).`);
  }
  if (problems.length) {
    console.log(`COUNTS DIFFER FROM THE REFERENCE:\n  ${problems.join('\n  ')}`);
    process.exitCode = 1;
  }
}
