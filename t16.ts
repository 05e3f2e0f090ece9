import { initParser, parseDocument } from './server/src/parse/parser';
import { ModelBuilder } from './server/src/model/build';
import { generateExtension } from './bench/generate';
import { Node } from 'web-tree-sitter';
(async () => {
  await initParser();
  const text = generateExtension(200, 5000);
  let n = 0;
  const proto = (Node as any).prototype;
  for (const k of ['endIndex', 'typeId', 'childForFieldId', 'namedChildren', 'firstNamedChild', 'namedChildCount', 'namedChild']) {
    const d = Object.getOwnPropertyDescriptor(proto, k)!;
    if (d.get) Object.defineProperty(proto, k, { get() { n++; return d.get!.call(this); } });
    else proto[k] = function (...a: any[]) { n++; return d.value.apply(this, a); };
  }
  const doc = parseDocument(text);
  const per: Record<string, number> = {};
  // Attribute by statement type: build each statement separately.
  const { ModelBuilder: MB } = await import('./server/src/model/build');
  for (const stmt of doc.statements) {
    const t = stmt.type; const before = n;
    new MB().build('file:///x.py', { ...doc, statements: [stmt] });
    per[t] = (per[t] ?? 0) + (n - before);
  }
  console.log(per, doc.statements.length);
})();
