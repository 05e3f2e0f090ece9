import { initParser, parseDocument } from './server/src/parse/parser';
import { ModelBuilder } from './server/src/model/build';
import { generateExtension } from './bench/generate';
(async () => {
  await initParser();
  const text = generateExtension(2000, 50000);
  const doc = parseDocument(text);
  const b = new ModelBuilder();
  b.build('file:///x.py', doc);
  // second build: all fragments cached → only assemble + keys
  const t = performance.now(); b.build('file:///x.py', doc); console.log('rebuild (assemble + keys)', (performance.now() - t).toFixed(0));
})();
