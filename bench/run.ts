// `npm run bench`: runs every bench/*.bench.ts (each exports a default async function that prints its
// own table: a measurement and the baseline measured in the same run, with their ratio).
import fs from 'node:fs';
import path from 'node:path';

(async () => {
  const only = process.argv.slice(2);
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .sort();
  for (const f of files) {
    console.log(`\n## ${f.replace('.bench.ts', '')}`);
    const mod = await import(path.join(__dirname, f));
    const run = typeof mod.default === 'function' ? mod.default : mod.default.default;
    await run();
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
