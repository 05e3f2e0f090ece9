import { initParser, parseDocument } from './server/src/parse/parser';
import { ModelBuilder } from './server/src/model/build';
import { allRules } from './server/src/rules';
import { generateExtension } from './bench/generate';
import { pathOf } from './server/src/rules/util';
(async () => {
  await initParser();
  const text = generateExtension(200, 5000);
  const doc = parseDocument(text);
  const m = new ModelBuilder().build('file:///b.py', doc);
  const times: Record<string, number> = {};
  for (let k = 0; k < 20; k++) for (const r of allRules) { const t = performance.now(); r.check({ model: m, path: '/b.py', report() {} } as any); times[r.id] = (times[r.id] ?? 0) + performance.now() - t; }
  Object.entries(times).sort((a, b) => b[1] - a[1]).slice(0, 10).forEach(([k, v]) => console.log(k, (v / 20).toFixed(2)));
})();
