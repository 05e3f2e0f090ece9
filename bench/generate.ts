// A realistic generated G3 extension file for benchmarks: records, tools with annotated parameters
// and defaults, one Extension with every tool registered.
export function generateExtension(tools = 200, targetLines = 5000): string {
  const out: string[] = [
    'from __future__ import annotations',
    '',
    'from dataclasses import dataclass, field',
    'from typing import Annotated, Literal',
    '',
    'import blockether.vis.extension as vis',
    '',
    'ALIAS = "bench"',
    '',
  ];
  const bodyLines = Math.max(1, Math.round((targetLines - 20 - tools) / tools - 15));
  for (let i = 0; i < tools; i++) {
    out.push(
      '@dataclass(frozen=True)',
      `class Result${i}:`,
      `    """Result of tool ${i}."""`,
      `    value: Annotated[int, "The computed value ${i}."]`,
      '    labels: list[str] = field(default_factory=list)',
      '',
      `def tool_${i}(target: str, /, *items: str, limit: int = ${i}, mode: Literal["fast", "slow"] = "fast", note: str | None = None) -> Result${i}:`,
      `    """Compute result ${i} for one target.`,
      '',
      '    Reads only; changes nothing.',
      '    """',
      `    total = ${i}`,
    );
    for (let j = 0; j < bodyLines; j++) out.push(`    total += len(target) * ${j} + limit  # step ${j}`);
    out.push('    return Result' + i + '(value=total)', '', '');
  }
  out.push('vis.register_extension(vis.Extension(', '    name="bench",', '    description="Generated benchmark extension.",', '    alias=ALIAS,', '    symbols=[');
  for (let i = 0; i < tools; i++) out.push(`        vis.Symbol(tool_${i}${i % 2 ? ', tag="mutation"' : ''}),`);
  out.push('    ],', '))', '');
  return out.join('\n');
}
