// Contract hover on a large extension: a generated 5,000-line file with 200 tools (dataclass
// returns, Annotated parameters, literal defaults). Analyses it once, then hovers tools many times,
// and prints hover p50/p95 next to the analysis time of the same run. Target: hover p95 <= 5 ms.
import { Analyzer } from '../server/src/analysis';
import { ContractService, hoverMarkdown } from '../server/src/features/contractHover';
import { initParser } from '../server/src/parse/parser';

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
  console.log(`| first hover (computes all contracts) | ${f(firstMs)} |`);
  console.log(`| ${`hover p50 (${HOVERS} hovers, cached)`.padEnd(36)} | ${f(percentile(times, 50))} |`);
  console.log(`| hover p95                            | ${f(percentile(times, 95))} |`);
  console.log(`| hover max                            | ${f(times[times.length - 1])} |`);
  console.log(`hover p95 / analysis: ${(percentile(times, 95) / analysisMs).toFixed(4)}; target p95 <= 5 ms: ${percentile(times, 95) <= 5 ? 'met' : 'MISSED'}`);
}
