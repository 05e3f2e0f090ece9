import { initParser, parseDocument, disposeDocument, pythonLanguage } from './server/src/parse/parser';
import { Parser } from 'web-tree-sitter';
import { generateExtension } from './bench/generate';
(async () => {
  await initParser();
  const text = generateExtension(200, 5000);
  const p = new Parser(); p.setLanguage(pythonLanguage());
  const a: number[] = [], b: number[] = [];
  for (let k = 0; k < 20; k++) {
    let t = performance.now(); p.parse(text)!.delete(); a.push(performance.now() - t);
    t = performance.now(); const d = parseDocument(text); disposeDocument(d); b.push(performance.now() - t);
  }
  a.sort((x, y) => x - y); b.sort((x, y) => x - y);
  console.log('raw', a[10].toFixed(1), 'parseDocument', b[10].toFixed(1));
})();
