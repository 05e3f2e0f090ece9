import { initParser, parseDocument, disposeDocument } from './server/src/parse/parser';
import { ModelBuilder } from './server/src/model/build';
import { runRules } from './server/src/rules';
import { analyzeText } from './server/src/analysis';
import { generateExtension } from './bench/generate';
(async () => {
  await initParser();
  const text = generateExtension(200, 5000);
  const P: number[] = [], B: number[] = [], R: number[] = [], A: number[] = [];
  for (let k = 0; k < 25; k++) {
    let t = performance.now(); const d = parseDocument(text); P.push(performance.now() - t);
    t = performance.now(); const m = new ModelBuilder().build('file:///b.py', d); B.push(performance.now() - t);
    t = performance.now(); runRules(m); R.push(performance.now() - t);
    disposeDocument(d);
    t = performance.now(); analyzeText('file:///b.py', text); A.push(performance.now() - t);
  }
  const med = (x: number[]) => x.sort((a, b) => a - b)[12].toFixed(1);
  console.log('parse', med(P), 'build', med(B), 'rules', med(R), 'analyzeText', med(A));
})();
