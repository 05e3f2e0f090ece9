// A file whose code is followed by long runs of comment lines (commented-out code, a licence block):
// tree-sitter-python's scanner takes time in the square of such a run, so many comment lines are read as
// spaces. Full analysis of a file with 2,000 and 8,000 comment lines against the same file with blank
// lines in their place, in the same run: both grow linearly (the comments are still scanned for
// suppressions). Before, 8,000 comment lines after one statement took 18 s to analyse.
import { analyzeText } from '../server/src/analysis';
import { initParser } from '../server/src/parse/parser';
import { median } from './stats';

const HEAD = 'import blockether.vis.extension as vis\n\n\ndef hello(name: str) -> str:\n    """Say hello."""\n    return name\n';
const REG = '\n\nvis.register_extension(vis.Extension(name="hi", description="d", alias="hi", symbols=[vis.Symbol(hello)]))\n';

export default async function run(): Promise<void> {
  await initParser();
  console.log('| file | comment lines ms | blank lines ms (baseline) | ratio | target |');
  console.log('|---|---|---|---|---|');
  for (const n of [2000, 8000]) {
    const commented = HEAD + '    # x = old_code(1, 2)\n'.repeat(n) + REG + '# trailing note\n'.repeat(n);
    const blank = HEAD + '\n'.repeat(n) + REG + '\n'.repeat(n);
    const a: number[] = [];
    const b: number[] = [];
    for (let i = -1; i < 5; i++) {
      let t = performance.now();
      analyzeText('file:///bench/commented.py', commented);
      const x = performance.now() - t;
      t = performance.now();
      analyzeText('file:///bench/blank.py', blank);
      const y = performance.now() - t;
      if (i >= 0) a.push(x), b.push(y);
    }
    const ca = median(a);
    const cb = median(b);
    console.log(`| ${n} comment lines in a body and ${n} after the registration | ${ca.toFixed(1)} | ${cb.toFixed(1)} | ${(ca / cb).toFixed(2)} | ≤ 10 |`);
  }
}
