// Docs preview regeneration while typing: a generated 5,000-line extension file with 200 tools and a
// routing prompt; each step types one character into a tool's docstring, then re-analyses the file
// incrementally and rebuilds the preview, as the server does for an open preview. Baseline: a full
// analysis of the same file from nothing, in the same run.
import { Analyzer } from '../server/src/analysis';
import { previewDocs } from '../server/src/docs/preview';
import { loadTokenizer } from '../server/src/docs/tokens';
import { contractToolDocSource } from '../server/src/docs/toolDocs';
import { initParser } from '../server/src/parse/parser';
import { median } from './stats';

const TOOLS = 200;
const LINES = 5000;
const EDITS = 40;
const FULL_RUNS = 9;
const TARGET_MS = 100;
const URI = 'file:///bench/extension.py';

/** The generated file, and where to type in each tool's docstring (offset just after its first word). */
export function generateExtension(): { text: string; typingOffsets: number[] } {
  const lines = [
    '"""Inventory tools for Vis (generated for the docs benchmark)."""',
    'from __future__ import annotations',
    '',
    'from dataclasses import dataclass',
    '',
    'import blockether.vis.extension as vis',
    'from vis_lang_interface import prompt',
    '',
    'PROMPT = prompt.routing("Python", "py", ("format_code", "run_tests", "repl_start", "repl_eval"), notes=("Inventory data is read-only.",))',
    '',
  ];
  const typing: { line: number; column: number }[] = [];
  for (let i = 0; i < TOOLS; i++) {
    lines.push(
      '@dataclass',
      `class Record${i}:`,
      `    """One inventory record of kind ${i}."""`,
      '    name: str',
      '    count: int = 0',
      '',
      `def lookup_${i}(item: str, *, warehouse: str = "main", limit: int = 20) -> Record${i}:`,
      `    """Look up an item of kind ${i} in the inventory.`,
      '',
      `    Searches the ${i % 2 ? 'main' : 'overflow'} warehouse first, then every other one, and stops`,
      '    after `limit` matches. The item name is matched case-insensitively.',
      '    Raises LookupError when nothing matches.',
      '    """',
      '    key = item.strip().lower()',
      '    found = []',
      '    for row in vis.state.get(f"inventory/{warehouse}", []):',
      '        if row["name"].lower() == key:',
      '            found.append(row)',
      '        if len(found) >= limit:',
      '            break',
      '    if not found:',
      '        raise LookupError(item)',
      `    return Record${i}(name=found[0]["name"], count=len(found))`,
      '',
    );
    typing.push({ line: lines.length - 17, column: '    """Look'.length });
  }
  lines.push('', '');
  lines.push('vis.register_extension(', '    vis.Extension(', '        name="inventory",', '        description="Look up inventory records.",');
  lines.push('        alias="inventory",', '        prompt=PROMPT,', '        symbols=[');
  for (let i = 0; i < TOOLS; i++) lines.push(`            vis.Symbol(lookup_${i}),`);
  lines.push('        ],', '    )', ')');
  while (lines.length < LINES) lines.push(`# padding ${lines.length}`);
  const text = lines.join('\n') + '\n';
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  return { text, typingOffsets: typing.map((t) => lineStarts[t.line] + t.column) };
}


export default async function run(): Promise<void> {
  await initParser();
  const t0 = performance.now();
  await loadTokenizer();
  const encoderMs = performance.now() - t0;
  const { text, typingOffsets } = generateExtension();
  const lineCount = text.split('\n').length - 1;
  const options = { tools: contractToolDocSource(() => 'C3'), routingVersion: 'current' as const };

  // Baseline: a full analysis from nothing (new analyzer: no tree, no statement fragments).
  const full: number[] = [];
  for (let i = 0; i < FULL_RUNS; i++) {
    const t = performance.now();
    new Analyzer().analyze(URI, 1, text);
    full.push(performance.now() - t);
  }

  // Typing: one character per step into a different tool's docstring, each followed by analysis + preview.
  const analyzer = new Analyzer();
  let current = text;
  let version = 1;
  const first = analyzer.analyze(URI, version, current);
  const tf = performance.now();
  let preview = previewDocs(first, options);
  const firstPreviewMs = performance.now() - tf;
  const tools = preview.parts.filter((p) => p.title.startsWith('Tool ')).length / 2;
  const step: number[] = [];
  const previewOnly: number[] = [];
  for (let i = 0; i < EDITS; i++) {
    const tool = (i * 37) % TOOLS;
    const offset = typingOffsets[tool] + shiftBefore(typingOffsets, tool, i);
    current = current.slice(0, offset) + 'x' + current.slice(offset);
    const t = performance.now();
    const analysis = analyzer.analyze(URI, ++version, current);
    const tp = performance.now();
    preview = previewDocs(analysis, options);
    const end = performance.now();
    step.push(end - t);
    previewOnly.push(end - tp);
  }
  if (!preview.text.includes('Lookx up an item')) throw new Error('the edits did not reach the docstrings');

  const edit = median(step);
  const baseline = median(full);
  console.log(`${lineCount}-line file, ${tools} tools, preview ${preview.text.length} chars / ${preview.tokens} tokens; o200k_base table loaded once in ${encoderMs.toFixed(0)} ms, in slices that yield (not in the figures)`);
  console.log('| measurement | median ms | runs |');
  console.log('| --- | ---: | ---: |');
  console.log(`| preview after a one-character edit (incremental analysis + preview) | ${edit.toFixed(1)} | ${EDITS} |`);
  console.log(`|   of which the preview | ${median(previewOnly).toFixed(1)} | ${EDITS} |`);
  console.log(`| first preview of the file (every part counted anew) | ${firstPreviewMs.toFixed(1)} | 1 |`);
  console.log(`| baseline: full analysis of the same file from nothing | ${baseline.toFixed(1)} | ${FULL_RUNS} |`);
  console.log(`| ratio edit / full analysis | ${(edit / baseline).toFixed(2)} | |`);
  console.log(`target: preview after an edit \u2264 ${TARGET_MS} ms: ${edit <= TARGET_MS ? 'met' : 'NOT met'}`);

  // A docstring of 30,000 identical characters (one pre-token piece: quadratic in a plain BPE merge),
  // previewed cold (its counts not cached); baseline: the analysis of the same file.
  const quotes = '"'.repeat(3);
  const long = [
    'import blockether.vis.extension as vis',
    '',
    'def big() -> str:',
    `    ${quotes}${'a'.repeat(30_000)}${quotes}`,
    '    return ""',
    '',
    'vis.register_extension(vis.Extension(name="big", description="d", alias="b", symbols=[vis.Symbol(big)]))',
    '',
  ].join('\n');
  const ta = performance.now();
  const bigAnalysis = new Analyzer().analyze('file:///bench/big.py', 1, long);
  const bigAnalysisMs = performance.now() - ta;
  const tb = performance.now();
  const bigPreview = previewDocs(bigAnalysis, options);
  const bigMs = performance.now() - tb;
  console.log(
    `30,000-character docstring: preview ${bigMs.toFixed(1)} ms (${bigPreview.tokens} tokens), beside its analysis ${bigAnalysisMs.toFixed(1)} ms; target \u2264 200 ms: ${bigMs <= 200 ? 'met' : 'NOT met'}`,
  );
}

/** How far earlier edits moved a tool's typing offset: each edit inserted one character at or before it. */
function shiftBefore(offsets: number[], tool: number, edits: number): number {
  let n = 0;
  for (let j = 0; j < edits; j++) if (offsets[(j * 37) % TOOLS] <= offsets[tool]) n++;
  return n;
}
