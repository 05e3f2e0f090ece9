// Typing into the 5,000-line extension file (200 tools): edit → fresh findings, as an editor sends it (a
// new version per keystroke). Rows:
//   - one character at 200 random positions (seeded), each typed and then removed again: p50, p90, max;
//   - one character typed into the indentation of 200 random indented lines (an IndentationError);
//   - a line break at 200 random positions (every line below it moves);
//   - a file with one indentation error checked from nothing, beside the clean file: time and findings.
// Baseline, in the same run: tree-sitter's parse of the whole file alone. Times are wall-clock and, in
// brackets, the process's CPU time (steadier on a loaded machine).
import { Analyzer, analyzeText } from '../server/src/analysis';
import { initParser, newParser } from '../server/src/parse/parser';
import { generateExtension } from './generate';
import { median } from './stats';

const URI = 'file:///bench/edits.py';
const POSITIONS = 200;

function cpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** A seeded random generator (the same positions every run). */
function random(seed: number): (k: number) => number {
  let s = seed;
  return (k) => ((s = (s * 1103515245 + 12345) & 0x7fffffff) % k);
}

interface Sample {
  wall: number[];
  cpu: number[];
}

/** Types `insert` at each offset (a version), measures it, and removes it again (another version). */
function typeAt(text: string, offsets: number[], insert: string): Sample {
  const analyzer = new Analyzer();
  let version = 1;
  analyzer.analyze(URI, version++, text);
  const out: Sample = { wall: [], cpu: [] };
  for (const at of offsets) {
    const edited = text.slice(0, at) + insert + text.slice(at);
    const w = performance.now();
    const c = cpu();
    analyzer.analyze(URI, version++, edited);
    out.cpu.push(cpu() - c);
    out.wall.push(performance.now() - w);
    analyzer.analyze(URI, version++, text);
  }
  return out;
}

const ms = (v: number) => v.toFixed(2);

export default async function run(): Promise<void> {
  await initParser();
  const text = generateExtension(200, 5000);
  const lines = text.split('\n');
  const parser = newParser();
  const parses: number[] = [];
  for (let i = -3; i < 21; i++) {
    const t = performance.now();
    parser.parse(text)?.delete();
    if (i >= 0) parses.push(performance.now() - t);
  }
  const parse = median(parses);

  const rnd = random(2024);
  const anywhere = Array.from({ length: POSITIONS }, () => rnd(text.length));
  const lineStarts: number[] = [];
  for (let i = 0, o = 0; i < lines.length; o += lines[i].length + 1, i++) lineStarts.push(o);
  const indented = lineStarts.filter((_, i) => /^ {2,}\S/.test(lines[i]));
  const indentation = Array.from({ length: POSITIONS }, () => {
    const start = indented[rnd(indented.length)];
    const width = /^ */.exec(text.slice(start, start + 40))![0].length;
    return start + 1 + rnd(width - 1);
  });

  const rows: [string, Sample][] = [
    ['one character at 200 random positions', typeAt(text, anywhere, 'x')],
    ['one character into the indentation of 200 lines', typeAt(text, indentation, 'x')],
    ['a line break at 200 random positions', typeAt(text, anywhere, '\n')],
  ];

  console.log(`file: ${lines.length} lines, 200 tools; tree-sitter parse of the whole file (baseline): ${ms(parse)} ms`);
  console.log('| edit → fresh findings | p50 ms (CPU) | p90 ms (CPU) | max ms (CPU) | p50 / parse | target |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, s] of rows) {
    const target = name.startsWith('a line break') ? '' : 'p50 ≤ 5, p90 ≤ 15, max ≤ 50';
    console.log(`| ${name} | ${ms(quantile(s.wall, 0.5))} (${ms(quantile(s.cpu, 0.5))}) | ${ms(quantile(s.wall, 0.9))} (${ms(quantile(s.cpu, 0.9))}) | ${ms(Math.max(...s.wall))} (${ms(Math.max(...s.cpu))}) | ${(quantile(s.wall, 0.5) / parse).toFixed(3)} | ${target} |`);
  }

  // One indentation error, checked from nothing (as `check` does), beside the clean file.
  const at = indentation[0];
  const broken = text.slice(0, at) + 'x' + text.slice(at);
  const clean: number[] = [];
  const bad: number[] = [];
  let cleanFindings = 0;
  let badFindings = 0;
  for (let i = -2; i < 11; i++) {
    let t = performance.now();
    cleanFindings = analyzeText(URI, text).findings.length;
    if (i >= 0) clean.push(performance.now() - t);
    t = performance.now();
    badFindings = analyzeText(URI, broken).findings.length;
    if (i >= 0) bad.push(performance.now() - t);
  }
  console.log('');
  console.log('| one file analysed from nothing | median ms | ratio to the clean file | findings |');
  console.log('|---|---|---|---|');
  console.log(`| clean (baseline) | ${ms(median(clean))} | 1.00 | ${cleanFindings} |`);
  console.log(`| one indentation error (line ${text.slice(0, at).split('\n').length}) | ${ms(median(bad))} | ${(median(bad) / median(clean)).toFixed(2)} | ${badFindings} |`);
}
