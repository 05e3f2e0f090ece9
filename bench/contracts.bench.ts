// Contract hover on a large extension: a generated 5,000-line file with 200 tools (dataclass
// returns, Annotated parameters, literal defaults). Analyses it once, then hovers tools many times,
// and prints hover p50/p95 next to the analysis time of the same run. Target: hover p95 <= 5 ms.
import { Analyzer } from '../server/src/analysis';
import { ContractService, hoverMarkdown } from '../server/src/features/contractHover';
import { initParser } from '../server/src/parse/parser';
import { revisionContracts } from '../server/src/compare/committed';
import { compareContracts, contractSet } from '../server/src/contracts/diff';
import { unknownTools } from '../server/src/features/status';
import { median } from './stats';

const TOOLS = 200;
const LINES = 5000;

export function generate(): string {
  const out = [
    'from __future__ import annotations',
    'from dataclasses import dataclass, field',
    'from typing import Annotated, Literal, Optional',
    'import blockether.vis.extension as vis',
    '',
  ];
  for (let i = 0; i < TOOLS; i++) {
    out.push(
      '@dataclass(frozen=True)',
      `class Result${i}:`,
      `    """Result of tool ${i}."""`,
      `    count: Annotated[int, "How many items tool ${i} saw."]`,
      `    items: tuple[str, ...] = ()`,
      `    note: Optional[str] = None`,
      '',
      `def tool_${i}(`,
      `    query: Annotated[str, "What to look for."],`,
      '    /,',
      `    mode: Literal["fast", "full"] = "fast",`,
      '    *,',
      `    limit: Annotated[int, "At most this many."] = ${i + 1},`,
      `    tags: tuple[str, ...] = ("a", "b"),`,
      `    since: Optional[float] = None,`,
      `) -> Result${i}:`,
      `    """Tool ${i}: look things up without changing them.`,
      '',
      '    Returns a summary of what was found.',
      '    """',
      `    values = [query, mode, limit, tags, since]`,
      `    return Result${i}(count=len(values))`,
      '',
    );
  }
  // Helpers (never exported) pad the file to the target size.
  let h = 0;
  while (out.length < LINES - TOOLS - 10) {
    out.push(`def helper_${h}(x: int) -> int:`, `    """Helper ${h}."""`, `    y = x * ${h}`, `    return y + 1`, '');
    h++;
  }
  out.push('vis.register_extension(vis.Extension(', '    name="big",', '    description="Big extension.",', '    alias="big",', '    symbols=[');
  for (let i = 0; i < TOOLS; i++) out.push(`        vis.Symbol(tool_${i}, activity=vis.Activity("generic")),`);
  out.push('    ],', '))', '');
  return out.join('\n');
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export default async function run(): Promise<void> {
  await initParser();
  const text = generate();
  const lines = text.split('\n');
  const analyzer = new Analyzer();
  const t0 = performance.now();
  const analysis = analyzer.analyze('file:///bench/extension.py', 1, text);
  const analysisMs = performance.now() - t0;

  const service = new ContractService((a) => analyzer.program.symbols(a.model.uri));
  const positions = lines.flatMap((l, line) => (l.includes('vis.Symbol(tool_') ? [{ line, character: l.indexOf('vis.Symbol') + 4 }] : []));
  const t1 = performance.now();
  const first = service.at(analysis, positions[0], 'C3');
  const firstMd = first && hoverMarkdown(first, 'C3');
  const firstMs = performance.now() - t1;
  if (!firstMd?.includes('"name": "tool_0"')) throw new Error('hover has no contract');

  const times: number[] = [];
  const HOVERS = 2000;
  for (let i = 0; i < HOVERS; i++) {
    const pos = positions[(i * 37) % positions.length];
    const s = performance.now();
    const target = service.at(analysis, pos, 'C3');
    const md = target && hoverMarkdown(target, 'C3');
    times.push(performance.now() - s);
    if (!md) throw new Error('no hover');
  }
  times.sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(2).padStart(9);
  console.log(`file: ${lines.length} lines, ${TOOLS} tools, ${analysis.findings.length} findings`);
  console.log('| measurement                          |        ms |');
  console.log('| ------------------------------------ | --------- |');
  console.log(`| analysis (parse + model + rules)     | ${f(analysisMs)} |`);
  console.log(`| first hover (one contract, cold)     | ${f(firstMs)} |`);
  console.log(`| ${`hover p50 (${HOVERS} hovers, cached)`.padEnd(36)} | ${f(percentile(times, 50))} |`);
  console.log(`| hover p95                            | ${f(percentile(times, 95))} |`);
  console.log(`| hover max                            | ${f(times[times.length - 1])} |`);
  console.log(`hover p95 / analysis: ${(percentile(times, 95) / analysisMs).toFixed(4)}; target p95 <= 5 ms: ${percentile(times, 95) <= 5 ? 'met' : 'MISSED'}`);

  // "What changed since HEAD" after an edit: the committed version's contracts (from texts in memory, as
  // the client hands them over), the current ones, and the comparison; next to a fresh analysis.
  const edited = text.replace('limit: Annotated[int, "At most this many."] = 1,', 'limit: Annotated[int, "At most this many."] = 2,');
  const rounds: { analysis: number; status: number; committed: number; compare: number }[] = [];
  for (let i = 0; i < 7; i++) {
    const a0 = performance.now();
    const fresh = new Analyzer();
    fresh.analyze('file:///bench/extension.py', 1, edited);
    const a1 = performance.now();
    // The program's Symbol analysis (computed for the rules) with every tool's contract and its unknowns.
    const infos = fresh.program.symbols('file:///bench/extension.py');
    unknownTools(infos);
    const a2 = performance.now();
    const snapshot = await revisionContracts('/bench/extension.py', async (f) => (f === '/bench/extension.py' ? text : null), 'C3');
    const a3 = performance.now();
    const diff = compareContracts(snapshot.set!, contractSet(infos));
    const a4 = performance.now();
    if (diff.changes.length !== 1) throw new Error(`expected one change, got ${JSON.stringify(diff.changes)}`);
    rounds.push({ analysis: a1 - a0, status: a2 - a1, committed: a3 - a2, compare: a4 - a3 });
  }
  const med = (k: keyof (typeof rounds)[0]) => median(rounds.map((r) => r[k]));
  console.log('');
  console.log('| after an edit (median of 7)                        |        ms | / analysis |');
  console.log('| -------------------------------------------------- | --------- | ---------- |');
  console.log(`| analysis (baseline)                                | ${f(med('analysis'))} |       1.00 |`);
  for (const [k, label] of [['status', 'all 200 contracts + unknown tools (status item)'], ['committed', 'committed version: parse, model, 200 contracts'], ['compare', 'comparison of the two contract sets']] as const) {
    console.log(`| ${label.padEnd(50)} | ${f(med(k))} | ${(med(k) / med('analysis')).toFixed(2).padStart(10)} |`);
  }
}
