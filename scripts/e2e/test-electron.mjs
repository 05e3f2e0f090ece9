#!/usr/bin/env node
// `npm run test:vscode`: the VS Code suite (the harness checks of test/e2e/harness) in desktop VS Code,
// the standard way, through @vscode/test-electron. It downloads VS Code (VSCODE_VERSION, default the
// `engines.vscode` minimum, 1.91.0; `stable` for the latest), so it needs access to
// update.code.visualstudio.com; CI, which has none, runs the same checks in code-server (npm run e2e).
// On Linux without a display run it under xvfb-run. Everything VS Code writes goes to a temporary
// directory (HOME included: the host checks write a gateway registry under ~/.vis).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const version = process.env.VSCODE_VERSION || manifest.engines.vscode.replace(/^\^/, '');

const run = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-test-vscode-'));
const dirs = Object.fromEntries(['home', 'data', 'ext', 'ws', 'harness', 'state'].map((d) => [d, path.join(run, d)]));
for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });

let code = 1;
try {
  // The product as an extension under development (its dist/), and the harness beside it.
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
  const esbuild = await import('esbuild');
  const src = path.join(ROOT, 'test/e2e/harness');
  for (const entry of ['extension', 'electron']) {
    await esbuild.build({
      entryPoints: [path.join(src, 'src', `${entry}.ts`)], outfile: path.join(dirs.harness, `${entry}.js`),
      bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], logLevel: 'warning',
    });
  }
  fs.copyFileSync(path.join(src, 'package.json'), path.join(dirs.harness, 'package.json'));
  fs.cpSync(path.join(ROOT, 'test/e2e/fixtures/workspace'), dirs.ws, { recursive: true });
  fs.cpSync(path.join(ROOT, 'test/fixtures/state/db/wal'), dirs.state, { recursive: true });
  fs.mkdirSync(path.join(dirs.data, 'User'), { recursive: true });
  fs.writeFileSync(path.join(dirs.data, 'User/settings.json'), JSON.stringify({ 'workbench.startupEditor': 'none', 'security.workspace.trust.enabled': false, 'telemetry.telemetryLevel': 'off', 'update.mode': 'none', 'files.hotExit': 'off' }, null, 2));
  const python = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim();

  const { runTests } = await import('@vscode/test-electron');
  await runTests({
    version,
    cachePath: path.join(ROOT, '.vscode-test'),
    extensionDevelopmentPath: [ROOT, dirs.harness],
    extensionTestsPath: path.join(dirs.harness, 'electron.js'),
    launchArgs: [dirs.ws, '--disable-extensions', '--disable-workspace-trust', `--user-data-dir=${dirs.data}`, `--extensions-dir=${dirs.ext}`, '--skip-welcome', '--skip-release-notes'],
    extensionTestsEnv: {
      HOME: dirs.home,
      VIS_E2E_RESULT: path.join(run, 'harness-result.json'),
      VIS_E2E_STATE_DB: path.join(dirs.state, 'vis.db'),
      VIS_E2E_PYTHON: python,
      VIS_E2E_ONLY: process.env.VIS_E2E_ONLY || '',
    },
  });
  code = 0;
} catch (e) {
  const message = e instanceof Error ? e.message : String(e);
  console.error(/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|getaddrinfo/.test(message)
    ? `test:vscode could not download VS Code ${version} (${message}). Without access to update.code.visualstudio.com, run the same checks in code-server: npm run e2e`
    : `test:vscode failed: ${message}`);
} finally {
  if (code === 0) fs.rmSync(run, { recursive: true, force: true });
  else console.error(`kept ${run} for its logs`);
}
process.exit(code);
