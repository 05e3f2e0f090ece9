// Full analysis (parse + model + rules) of a generated 5,000-line extension file with 200 tools,
// against tree-sitter's parse alone in the same run; and a one-character edit → fresh diagnostics.
import { Analyzer, analyzeText } from '../server/src/analysis';
import { initParser, newParser } from '../server/src/parse/parser';
import { generateExtension } from './generate';
import { median } from './stats';


export function time(fn: () => void, runs: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return out;
}

export default async function run(): Promise<void> {
  await initParser();
  const text = generateExtension(200, 5000);
  const lines = text.split('\n').length;
  const parser = newParser();
  // Interleaved, so both see the same machine load; medians of 31 runs after warming both paths.
  const parses: number[] = [];
  const fulls: number[] = [];
  for (let i = -3; i < 31; i++) {
    const p = time(() => parser.parse(text)?.delete(), 1)[0];
    const f = time(() => analyzeText('file:///bench.py', text), 1)[0];
    if (i >= 0) parses.push(p), fulls.push(f);
  }
  const parse = median(parses);
  const full = median(fulls);

  // One-character edits in the middle of the file, each a new version, as typing produces.
  const analyzer = new Analyzer();
  let version = 1;
  analyzer.analyze('file:///bench.py', version++, text);
  const at = text.indexOf('total += len(target) * 3', Math.floor(text.length / 2));
  const edits: number[] = [];
  for (let i = 0; i < 40; i++) {
    const edited = text.slice(0, at) + (i % 2 ? '' : 'x') + text.slice(at);
    const t = performance.now();
    const a = analyzer.analyze('file:///bench.py', version++, edited);
    edits.push(performance.now() - t);
    if (a.findings.some((f) => f.severity === 'error')) throw new Error('the benchmark file should be valid');
  }
  const edit = median(edits);

  console.log(`file: ${lines} lines, 200 tools, ${text.length} characters`);
  console.log('| measurement | median ms | ratio to parse alone | target |');
  console.log('|---|---|---|---|');
  console.log(`| tree-sitter parse alone (baseline) | ${parse.toFixed(2)} | 1.00 | |`);
  console.log(`| full analysis: parse + model + rules | ${full.toFixed(2)} | ${(full / parse).toFixed(2)} | ≤ 1.50 |`);
  console.log(`| one-character edit → fresh diagnostics | ${edit.toFixed(2)} | ${(edit / parse).toFixed(2)} | ≤ 10 ms |`);
}
