import { initParser, parseDocument } from './server/src/parse/parser';
import { ModelBuilder } from './server/src/model/build';
import { runRules } from './server/src/rules';
import { generateExtension } from './bench/generate';
(async () => {
  await initParser();
  const text = generateExtension(200, 5000);
  for (let k = 0; k < 12; k++) {
    let t = performance.now();
    const doc = parseDocument(text);
    const p = performance.now() - t; t = performance.now();
    const m = new ModelBuilder().build('file:///b.py', doc);
    const b = performance.now() - t; t = performance.now();
    runRules(m);
    const r = performance.now() - t;
    if (k > 5) console.log(p.toFixed(1), b.toFixed(1), r.toFixed(1));
  }
})();
