import { initParser, parseDocument } from './server/src/parse/parser';
import { ModelBuilder } from './server/src/model/build';
import { generateExtension } from './bench/generate';
import { Node } from 'web-tree-sitter';
(async () => {
  await initParser();
  const text = generateExtension(200, 5000);
  const counts: Record<string, number> = {};
  const proto = (Node as any).prototype;
  for (const k of Object.getOwnPropertyNames(proto)) {
    const d = Object.getOwnPropertyDescriptor(proto, k)!;
    if (d.get) Object.defineProperty(proto, k, { get() { counts[k] = (counts[k] ?? 0) + 1; return d.get!.call(this); } });
    else if (typeof d.value === 'function' && k !== 'constructor') proto[k] = function (...a: any[]) { counts[k] = (counts[k] ?? 0) + 1; return d.value.apply(this, a); };
  }
  const doc = parseDocument(text);
  for (const k of Object.keys(counts)) delete counts[k];
  new ModelBuilder().build('file:///b.py', doc);
  console.log(Object.entries(counts).sort((a, b) => b[1] - a[1]));
})();
