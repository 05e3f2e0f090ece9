// Fix all on save: the generated 5,000-line extension file with problems injected (bare functions in
// symbols, misspelt tags, a missing alias, a G1 import), from the document's analysis to the fixed text
// (every safe fix applied, re-analysed until nothing more is fixable), next to a full analysis of the
// same file in the same run. Target: it never holds up a save (≤ 200 ms).
import { analyzeText } from '../server/src/analysis';
import { fixAll } from '../server/src/fixes/fixAll';
import { initParser } from '../server/src/parse/parser';
import { Program } from '../server/src/workspace/program';
import { generateExtension } from './generate';
import { median } from './stats';

const URI = 'file:///bench.py';

/** Every tenth tool bare in symbols, every tenth mutation tag misspelt, no alias, and `import vis` beside the typed import. */
export function withProblems(text: string): string {
  let n = 0;
  return text
    .replace('import blockether.vis.extension as vis', 'import vis\nimport blockether.vis.extension as vis')
    .replace('    alias=ALIAS,\n', '')
    .replace(/vis\.Symbol\((tool_\d+)\),/g, (all, tool: string) => (n++ % 10 === 0 ? `${tool},` : all))
    .replace(/tag="mutation"/g, (all) => (n++ % 10 === 0 ? 'tag="mutaton"' : all));
}

export default async function run(): Promise<void> {
  await initParser();
  const text = withProblems(generateExtension(200, 5000));
  const fixes: number[] = [];
  const fulls: number[] = [];
  let applied = 0;
  let passes = 0;
  for (let i = -2; i < 11; i++) {
    const f0 = performance.now();
    analyzeText(URI, text);
    const full = performance.now() - f0;
    // The document as the editor has it: open and analysed; fix-all starts from that analysis.
    const doc = { version: 1, text };
    const program = new Program({ open: (u) => (u === URI ? doc : undefined) });
    const findings = program.analysis(URI)!.findings;
    const t0 = performance.now();
    const r = fixAll(program, URI, text, findings);
    const fix = performance.now() - t0;
    if (r.findings.some((x) => x.severity === 'error')) throw new Error('fix-all left an error in the benchmark file');
    if (i >= 0) fixes.push(fix), fulls.push(full);
    applied = r.applied.length;
    passes = r.passes;
  }
  const full = median(fulls);
  const fix = median(fixes);
  console.log(`file: ${text.split('\n').length} lines, ${applied} fixes applied in ${passes} re-analyses`);
  console.log('| measurement | median ms | ratio to a full analysis | target |');
  console.log('|---|---|---|---|');
  console.log(`| full analysis of the file (baseline) | ${full.toFixed(2)} | 1.00 | |`);
  console.log(`| fix all: every safe fix, re-analysed until none is left | ${fix.toFixed(2)} | ${(fix / full).toFixed(2)} | ≤ 200 ms |`);
}
