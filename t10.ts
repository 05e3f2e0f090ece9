import { initParser, parseDocument } from './server/src/parse/parser';
import { ModelBuilder } from './server/src/model/build';
import { generateExtension } from './bench/generate';
(async () => {
  await initParser();
  const text = generateExtension(200, 5000);
  const doc = parseDocument(text);
  for (let round = 0; round < 3; round++) {
    for (let k = 0; k < 10; k++) new ModelBuilder().build('file:///b.py', doc);
    let t = performance.now();
    for (let k = 0; k < 20; k++) new ModelBuilder().build('file:///b.py', doc);
    console.log('build avg same doc', ((performance.now() - t) / 20).toFixed(1));
  }
  const fresh: number[] = [];
  for (let k = 0; k < 10; k++) { const d = parseDocument(text); const t = performance.now(); new ModelBuilder().build('file:///b.py', d); fresh.push(performance.now() - t); }
  console.log('build on fresh trees', fresh.map(x => x.toFixed(1)).join(' '));
})();
