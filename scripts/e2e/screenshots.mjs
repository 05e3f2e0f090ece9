#!/usr/bin/env node
// Regenerates the README's screenshots: runs the VS Code suite (scripts/e2e/run.mjs, which takes them)
// and, when it passes, copies them into images/. `npm run screenshots`; VIS_E2E_CACHE as for npm run e2e.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The screenshots the README shows, as the e2e run names them. */
const SHOTS = ['vscode-problems.png', 'vscode-hover.png', 'vscode-preview.png', 'vscode-format.png', 'vscode-state.png', 'vscode-restricted.png'];

const out = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-screenshots-'));
try {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/e2e/run.mjs')], { stdio: 'inherit', env: { ...process.env, VIS_E2E_OUT: out, VIS_E2E_ONLY: '' } });
  if (r.status !== 0) {
    console.error(`the e2e run did not pass (exit ${r.status}); images/ is unchanged`);
    process.exit(r.status || 1);
  }
  const missing = SHOTS.filter((f) => !fs.existsSync(path.join(out, f)));
  if (missing.length) {
    console.error(`the e2e run took no ${missing.join(', ')}; images/ is unchanged`);
    process.exit(1);
  }
  for (const f of SHOTS) fs.copyFileSync(path.join(out, f), path.join(ROOT, 'images', f));
  console.log(`copied ${SHOTS.length} screenshots into images/`);
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
