#!/usr/bin/env node
// End-to-end check in real VS Code: code-server 4.100.3 + headless Debian chromium driven by playwright-core.
//
//   npm run e2e            (= node scripts/e2e/run.mjs)
//
// 1. installs code-server into a cache outside the repo (scripts/e2e/install-code-server.sh, skipped when present)
// 2. packages vis-authoring.vsix (npm run package) and the harness extension (test/e2e/harness, bundled with esbuild,
//    packaged with vsce), installs both into a fresh extensions dir
// 3. starts code-server on 127.0.0.1 (auth none) with a private HOME/XDG/TMPDIR, user-data dir and workspace copy
// 4. opens the workbench in chromium; the harness runs test/e2e/harness/src/checks.ts in the extension host and
//    writes a JSON result; then the DOM checks below run and a screenshot is taken (editor + Problems panel)
// 5. stops everything it started (by process group / browser handle) and exits 0 on pass, 1 on a failed check,
//    2 when it could not run (timeout, install or startup failure)
//
// Environment:
//   VIS_E2E_CACHE   code-server cache dir (default /tmp/vis-e2e-cache)
//   VIS_E2E_OUT     output dir for result.json, the screenshot and per-run dirs (default /tmp/vis-e2e)
//   VIS_E2E_TIMEOUT ms to wait for the harness result after the page is opened (default 120000)
//   VIS_E2E_ONLY    comma-separated substrings: run only the harness checks whose names contain one
//   VIS_E2E_NO_PACKAGE=1  reuse the existing vis-authoring.vsix instead of running npm run package
//   CHROMIUM        browser executable (default /usr/bin/chromium)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CACHE = process.env.VIS_E2E_CACHE || '/tmp/vis-e2e-cache';
const OUT = process.env.VIS_E2E_OUT || '/tmp/vis-e2e';
const TIMEOUT = Number(process.env.VIS_E2E_TIMEOUT || 120000);
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const KEEP_RUNS = 5;

/** Checks on the rendered workbench, run after the harness result is in. Add more here. */
const domChecks = [
  {
    name: 'dom: the editor shows error squiggles',
    async run(page) {
      await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 10000 });
      return { squiggles: await page.locator('.monaco-editor .squiggly-error').count() };
    },
  },
  {
    name: 'dom: the Problems panel lists EXT-003 and EXT-005',
    async run(page) {
      const rows = page.locator('.markers-panel .monaco-tl-row');
      const want = ['vis.Extension requires name=<non-empty string>', 'vis.Extension requires alias=<string> when symbols are declared'];
      const deadline = Date.now() + 10000;
      let texts = [];
      for (;;) {
        texts = (await rows.allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
        if (want.every((w) => texts.some((t) => t.includes(w)))) break;
        if (Date.now() > deadline) throw Object.assign(new Error('Problems panel rows lack the expected messages'), { observed: texts });
        await sleep(200);
      }
      return { rows: texts };
    },
  },
];

/**
 * Scenes on the rendered workbench, run after the DOM checks and the Problems screenshot, in order. Each runs a
 * harness command from the command palette (`Vis e2e: Scene ...`, test/e2e/harness/src/extension.ts) that arranges
 * the workbench, checks what the page shows, and saves a screenshot to `$VIS_E2E_OUT/<screenshot>`.
 */
const scenes = [
  {
    name: 'dom: the contract hover card on vis.Symbol( (probe/extension.py), then its Contract JSON unfolded',
    command: 'Vis e2e: Scene Contract Hover',
    screenshot: 'vscode-hover-json.png',
    async run(page) {
      const hover = page.locator('.monaco-editor .monaco-hover:not(.hidden)', { hasText: 'Vis tool' }).first();
      await hover.waitFor({ state: 'visible', timeout: 10000 });
      await sleep(300); // the card grows as its code blocks are highlighted
      const textOf = async () => (await hover.innerText()).replace(/\u00a0/g, ' ');
      const text = await textOf();
      const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
      await page.screenshot({ path: path.join(OUT, 'vscode-hover.png') });
      summary.screenshots.push(path.join(OUT, 'vscode-hover.png'));
      const want = ['probe · Vis tool · tag observation', 'timeout_s\tfloat | None\tkeyword_only\tNone\tSeconds; None disables the timeout.'];
      const observed = {
        lines,
        missing: want.filter((w) => !lines.includes(w)),
        // The server folds the contract JSON and doc(probe) in <details>; VS Code renders them only when the
        // client allows HTML in Markdown (otherwise the tags and their labels are dropped).
        summaries: await hover.locator('details > summary').allInnerTexts(),
        jsonShownFolded: text.includes('"name": "probe"'),
        rawTagsShown: /<\/?(details|summary)>/.test(text),
      };
      const fail = (msg) => Object.assign(new Error(msg), { observed });
      if (observed.missing.length) throw fail('the hover card lacks expected rows');
      if (observed.summaries.join('|') !== 'Contract JSON (C3)|doc(probe)') throw fail('the hover has no folded Contract JSON (C3) and doc(probe) sections');
      if (observed.jsonShownFolded) throw fail('the contract JSON shows while folded');
      await hover.locator('details > summary', { hasText: 'Contract JSON (C3)' }).click();
      await page.waitForFunction((el) => el.innerText.includes('"name": "probe"'), await hover.elementHandle(), { timeout: 5000 })
        .catch(() => { throw fail('clicking Contract JSON (C3) did not show the JSON'); });
      const after = (await textOf()).split('\n').map((l) => l.trim()).filter(Boolean);
      observed.unfolded = after.slice(after.indexOf('Contract JSON (C3)'), after.indexOf('Contract JSON (C3)') + 6);
      return observed;
    },
  },
  {
    name: 'dom: the model-facing docs preview beside its source (preview/extension.py)',
    command: 'Vis e2e: Scene Docs Preview',
    screenshot: 'vscode-preview.png',
    async run(page) {
      const tab = page.locator('.tabs-container .tab', { hasText: 'model-facing docs' }).first();
      await tab.waitFor({ timeout: 15000 });
      const editor = page.locator('.editor-group-container', { has: page.locator('.tab.active', { hasText: 'model-facing docs' }) }).locator('.monaco-editor .view-lines').first();
      const deadline = Date.now() + 15000;
      let text = '';
      for (;;) {
        text = (await editor.innerText()).replace(/\u00a0/g, ' ');
        if (text.includes('Snapshot row') && text.includes('doc(probe)')) break;
        if (Date.now() > deadline) throw Object.assign(new Error('the preview editor does not show the snapshot row and doc(probe)'), { observed: { text } });
        await sleep(200);
      }
      await page.locator('.monaco-editor .codelens-decoration', { hasText: 'Preview model-facing docs' }).first().waitFor({ timeout: 10000 });
      return {
        tab: (await tab.innerText()).trim(),
        firstLines: text.split('\n').slice(0, 6),
        codeLenses: (await page.locator('.monaco-editor .codelens-decoration').allInnerTexts()).map((s) => s.trim()),
      };
    },
  },
  {
    name: 'dom: the Vis State view lists the extensions of the WAL fixture and the keys of greeter',
    command: 'Vis e2e: Scene Vis State',
    screenshot: 'vscode-state.png',
    async run(page) {
      const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Vis State' }) }).first();
      const rows = pane.locator('.monaco-list-row');
      const rowTexts = async () => (await rows.allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
      const deadline = Date.now() + 15000;
      let texts = [];
      for (;;) {
        texts = await rowTexts();
        if (['greeter', 'lz4-ext', 'repo-tools'].every((n) => texts.some((t) => t.startsWith(n)))) break;
        if (Date.now() > deadline) throw Object.assign(new Error('the Vis State view does not list greeter, lz4-ext and repo-tools'), { observed: { rows: texts } });
        await sleep(200);
      }
      const extensions = texts;
      await rows.filter({ hasText: 'greeter' }).first().click();
      const deadline2 = Date.now() + 10000;
      for (;;) {
        texts = await rowTexts();
        if (texts.some((t) => t.startsWith('names'))) break;
        if (Date.now() > deadline2) throw Object.assign(new Error('expanding greeter shows no names key'), { observed: { rows: texts } });
        await sleep(200);
      }
      return { extensions, afterExpandingGreeter: texts, header: (await pane.locator('.pane-header').innerText()).replace(/\s+/g, ' ').trim() };
    },
  },
  {
    name: 'dom: the notification center holds the reload messages (no gateway, reloaded, failures)',
    command: 'Notifications: Show Notifications',
    screenshot: 'vscode-notifications.png',
    async run(page) {
      const items = page.locator('.notifications-center .notification-list-item-message');
      await items.first().waitFor({ timeout: 10000 });
      const texts = (await items.allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
      const want = [
        'No Vis gateway is running. Start Vis in this folder (run `vis-agent`, or `vis-agent gateway start`); a fresh start loads your extension files, so no reload is needed.',
        'Vis extensions reloaded: 3 loaded',
      ];
      const missing = want.filter((w) => !texts.some((t) => t.includes(w)));
      if (missing.length) throw Object.assign(new Error('notifications missing'), { observed: { notifications: texts, missing } });
      return { notifications: texts };
    },
  },
];

/** Runs a command from the command palette by its title. */
async function runFromPalette(page, title) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: 5000 });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 5000 });
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: 5000 });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const t0 = Date.now();
const timings = {};
const secs = (ms) => `${(ms / 1000).toFixed(1)}s`;
function log(msg) { console.log(`[e2e ${secs(Date.now() - t0)}] ${msg}`); }
async function timed(name, fn) {
  const s = Date.now();
  try { return await fn(); } finally { timings[name] = Date.now() - s; }
}
function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal}):\n${(r.stdout || '').slice(-4000)}\n${(r.stderr || '').slice(-4000)}`);
  }
  return r.stdout;
}
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
  });
}

fs.mkdirSync(OUT, { recursive: true });
const RUN = fs.mkdtempSync(path.join(OUT, `run-${new Date().toISOString().replace(/[:.]/g, '-')}-`));
const dirs = Object.fromEntries(['home', 'temp', 'data', 'ext', 'ws', 'harness', 'browser'].map((d) => [d, path.join(RUN, d)]));
for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
// Everything the editor and the browser write goes under the run dir (HOME, XDG dirs, sockets in TMPDIR).
const isolatedEnv = {
  ...process.env,
  HOME: dirs.home,
  XDG_CONFIG_HOME: path.join(dirs.home, '.config'),
  XDG_DATA_HOME: path.join(dirs.home, '.local/share'),
  XDG_CACHE_HOME: path.join(dirs.home, '.cache'),
  XDG_STATE_HOME: path.join(dirs.home, '.local/state'),
  TMPDIR: dirs.temp,
};
const resultFile = path.join(RUN, 'harness-result.json');
const screenshot = path.join(OUT, 'vscode-problems.png');
const summaryFile = path.join(OUT, 'result.json');
for (const f of [screenshot, summaryFile, path.join(OUT, 'vscode-hover.png'), ...scenes.map((s) => path.join(OUT, s.screenshot))]) fs.rmSync(f, { force: true });

let csProc;
let browser;
async function cleanup() {
  if (browser) { await browser.close().catch(() => {}); browser = undefined; }
  if (csProc && csProc.exitCode === null) {
    try { process.kill(-csProc.pid, 'SIGTERM'); } catch {}
    for (let i = 0; i < 50 && csProc.exitCode === null; i++) await sleep(100);
    await sleep(300); // let children in the group (file watcher, extension host, language server) exit
    try { process.kill(-csProc.pid, 'SIGKILL'); } catch {}
  }
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { cleanup().finally(() => process.exit(2)); });

let exitCode = 2;
const summary = { ok: false, runDir: RUN, screenshot: undefined, screenshots: [], timings, harness: undefined, dom: [] };
try {
  log(`run dir ${RUN}`);
  const codeServer = await timed('installCodeServer', () =>
    sh('bash', [path.join(ROOT, 'scripts/e2e/install-code-server.sh')], { env: { ...process.env, VIS_E2E_CACHE: CACHE }, stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').pop());
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM} (apt-get install chromium)`);
  const version = sh(codeServer, ['--version'], { env: isolatedEnv }).trim().split('\n').pop();
  log(`code-server ${version}`);

  // The product VSIX and the harness VSIX.
  const productVsix = path.join(ROOT, 'vis-authoring.vsix');
  if (process.env.VIS_E2E_NO_PACKAGE === '1' && fs.existsSync(productVsix)) log('reusing vis-authoring.vsix');
  else await timed('packageProduct', () => { log('npm run package'); sh('npm', ['run', 'package'], { cwd: ROOT }); });
  const harnessVsix = path.join(RUN, 'vis-e2e-harness.vsix');
  await timed('packageHarness', async () => {
    const src = path.join(ROOT, 'test/e2e/harness');
    const esbuild = await import('esbuild');
    await esbuild.build({
      entryPoints: [path.join(src, 'src/extension.ts')], outfile: path.join(dirs.harness, 'extension.js'),
      bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], logLevel: 'warning',
    });
    for (const f of ['package.json', 'README.md']) fs.copyFileSync(path.join(src, f), path.join(dirs.harness, f));
    fs.copyFileSync(path.join(ROOT, 'LICENSE'), path.join(dirs.harness, 'LICENSE'));
    sh(path.join(ROOT, 'node_modules/.bin/vsce'), ['package', '--no-dependencies', '-o', harnessVsix], { cwd: dirs.harness });
  });
  await timed('installExtensions', () => {
    log('installing the two VSIXs');
    sh(codeServer, ['--extensions-dir', dirs.ext, '--install-extension', productVsix, '--install-extension', harnessVsix], { env: isolatedEnv });
  });

  // Fresh workspace copy and user settings; a copy of the WAL-mode state database for the Vis State checks.
  fs.cpSync(path.join(ROOT, 'test/e2e/fixtures/workspace'), dirs.ws, { recursive: true });
  // A git repository with the fixtures committed: "Compare Contracts with HEAD" reads HEAD through VS Code's Git extension.
  const git = (...args) => sh('git', ['-c', 'user.name=vis-e2e', '-c', 'user.email=vis-e2e@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dirs.ws, env: isolatedEnv });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'e2e fixtures');
  const stateDb = path.join(RUN, 'state-db');
  fs.cpSync(path.join(ROOT, 'test/fixtures/state/db/wal'), stateDb, { recursive: true });
  fs.mkdirSync(path.join(dirs.data, 'User'), { recursive: true });
  fs.writeFileSync(path.join(dirs.data, 'User/settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'security.workspace.trust.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'files.hotExit': 'off',
  }, null, 2));

  // code-server in its own process group, so that cleanup() ends its whole tree.
  const port = await freePort();
  const csLog = fs.openSync(path.join(RUN, 'code-server.log'), 'w');
  await timed('codeServerReady', async () => {
    csProc = spawn(codeServer, [
      '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--user-data-dir', dirs.data, '--extensions-dir', dirs.ext,
      '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', dirs.ws,
    ], { env: { ...isolatedEnv, VIS_E2E_RESULT: resultFile, VIS_E2E_ONLY: process.env.VIS_E2E_ONLY || '', VIS_E2E_STATE_DB: path.join(stateDb, 'vis.db') }, detached: true, stdio: ['ignore', csLog, csLog] });
    const deadline = Date.now() + 30000;
    for (;;) {
      if (csProc.exitCode !== null) throw new Error(`code-server exited with ${csProc.exitCode}; see ${RUN}/code-server.log`);
      try { if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break; } catch {}
      if (Date.now() > deadline) throw new Error('code-server did not answer /healthz within 30 s');
      await sleep(200);
    }
  });
  log(`code-server ready on 127.0.0.1:${port}`);

  // The browser: fresh profile in the run dir, isolated HOME.
  const { chromium } = await import('playwright-core');
  const ctx = await timed('browserLaunch', () => chromium.launchPersistentContext(dirs.browser, {
    executablePath: CHROMIUM, headless: true, env: isolatedEnv, viewport: { width: 1600, height: 1000 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  }));
  browser = ctx;
  // vscode.env.clipboard in the web workbench is navigator.clipboard: reading it needs the permission.
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: `http://127.0.0.1:${port}` });
  const page = ctx.pages()[0] || await ctx.newPage();
  const browserLog = fs.createWriteStream(path.join(RUN, 'browser-console.log'));
  page.on('console', (m) => browserLog.write(`[${m.type()}] ${m.text()}\n`));
  page.on('pageerror', (e) => browserLog.write(`[pageerror] ${e.message}\n`));
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(dirs.ws)}`;
  log(`opening ${url}`);
  await timed('workbenchRendered', async () => {
    await page.goto(url);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60000 });
  });
  log('workbench rendered; waiting for the harness');
  const gotResult = await timed('harnessResult', async () => {
    const deadline = Date.now() + TIMEOUT;
    while (!fs.existsSync(resultFile) && Date.now() < deadline) await sleep(250);
    return fs.existsSync(resultFile);
  });
  if (!gotResult) {
    await page.screenshot({ path: screenshot }).catch(() => {});
    summary.screenshot = screenshot;
    throw new Error(`TIMEOUT: no harness result after ${TIMEOUT} ms (see ${RUN}/code-server.log, ${screenshot})`);
  }
  const harness = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
  summary.harness = harness;

  await timed('domChecks', async () => {
    for (const check of domChecks) {
      const s = Date.now();
      const r = { name: check.name, ok: false, ms: 0 };
      try { r.observed = await check.run(page); r.ok = true; } catch (e) { r.error = e.message; r.observed = e.observed; }
      r.ms = Date.now() - s;
      summary.dom.push(r);
    }
  });
  await sleep(500); // let the last decorations paint
  await timed('screenshot', () => page.screenshot({ path: screenshot }));
  summary.screenshot = screenshot;
  summary.screenshots.push(screenshot);
  // Scenes run only when the whole harness ran (VIS_E2E_ONLY unset): they show the fixtures its checks edited.
  if (!process.env.VIS_E2E_ONLY) {
    await timed('scenes', async () => {
      for (const scene of scenes) {
        const s = Date.now();
        const r = { name: scene.name, ok: false, ms: 0 };
        const file = path.join(OUT, scene.screenshot);
        try {
          await runFromPalette(page, scene.command);
          r.observed = await scene.run(page);
          r.ok = true;
        } catch (e) {
          r.error = e.message;
          r.observed = e.observed;
        }
        await page.screenshot({ path: file }).catch(() => {});
        if (fs.existsSync(file)) { r.screenshot = file; summary.screenshots.push(file); }
        r.ms = Date.now() - s;
        summary.dom.push(r);
      }
    });
  }
  summary.ok = !!harness.ok && summary.dom.every((c) => c.ok);
  exitCode = summary.ok ? 0 : 1;
} catch (e) {
  summary.error = e.stack || String(e);
  console.error(summary.error);
  exitCode = 2;
} finally {
  await timed('cleanup', cleanup);
  timings.total = Date.now() - t0;
  fs.writeFileSync(summaryFile, JSON.stringify(summary, null, 2));
  // Prune old run dirs.
  const runs = fs.readdirSync(OUT).filter((d) => d.startsWith('run-')).sort();
  for (const d of runs.slice(0, Math.max(0, runs.length - KEEP_RUNS))) fs.rmSync(path.join(OUT, d), { recursive: true, force: true });
}

// Report.
const h = summary.harness;
if (h) {
  console.log(`\nVS Code ${h.vscodeVersion}, ${h.product ? `${h.product.id} ${h.product.version} active=${h.product.active}` : 'vis-authoring NOT installed'}`);
  for (const c of [...h.checks, ...summary.dom]) {
    console.log(`${c.ok ? 'PASS' : c.soft ? 'SOFT-FAIL' : 'FAIL'} ${c.name} (${c.ms} ms)`);
    if (c.observed !== undefined) console.log('     ' + JSON.stringify(c.observed));
    if (!c.ok && c.error) console.log('     ' + c.error.split('\n').slice(0, 15).join('\n     '));
  }
  if (h.error) console.log(`harness error: ${h.error}`);
}
console.log(`\ntimings (ms): ${JSON.stringify(timings)}`);
console.log(`result: ${summaryFile}\nscreenshots: ${summary.screenshots.length ? summary.screenshots.join(' ') : summary.screenshot ?? '(none)'}\nlogs: ${RUN}`);
const all = h ? [...h.checks, ...summary.dom] : [];
const failed = all.filter((c) => !c.ok && !c.soft).length;
console.log(`e2e: ${all.length - failed} passed, ${failed} failed`);
console.log(exitCode === 0 ? 'E2E PASS' : exitCode === 1 ? 'E2E FAIL' : 'E2E ERROR');
process.exit(exitCode);
