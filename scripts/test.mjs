// Runs every test/**/*.test.ts with node's own test runner (TypeScript through tsx).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const filter = process.argv.slice(2);
const files = [];
(function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) { if (entry.name !== 'fixtures') walk(full); }
    else if (entry.name.endsWith('.test.ts')) files.push(path.relative(root, full));
  }
})(path.join(root, 'test'));
const selected = filter.length ? files.filter((f) => filter.some((x) => f.includes(x))) : files;
if (selected.length === 0) { console.error('no test files matched'); process.exit(1); }
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter', 'spec', ...selected], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
