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
  {
    name: 'dom: clicking EXT-003 in the Problems panel opens its rule page, rendered',
    async run(page) {
      const row = page.locator('.markers-panel .monaco-tl-row', { hasText: 'vis.Extension requires name=<non-empty string>' }).first();
      const link = row.locator('a', { hasText: 'EXT-003' }).first();
      await link.waitFor({ timeout: 10000 });
      await link.click();
      const tab = page.locator('.tabs-container .tab', { hasText: 'EXT-003.md' }).first();
      await tab.waitFor({ timeout: 10000 }).catch(async (e) => {
        throw Object.assign(e, { observed: { tabs: await page.locator('.tabs-container .tab').allInnerTexts(), row: await row.innerHTML().catch(() => '') } });
      });
      return { tab: (await tab.innerText()).trim() };
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
      const row = 'timeout_s\tfloat | None\tkeyword_only\tNone\tSeconds; None disables the timeout.';
      const want = ['probe · Vis tool · tag observation', 'Measure one target.'];
      const observed = {
        lines,
        missing: want.filter((w) => !lines.includes(w)),
        // The compact card: the name, signature and description first, everything else folded.
        linesBeforeFolds: lines.indexOf('Parameters and returns'),
        // The server folds the tables, the contract JSON and doc(probe) in <details>; VS Code renders them only
        // when the client allows HTML in Markdown (otherwise the tags and their labels are dropped).
        summaries: await hover.locator('details > summary').allInnerTexts(),
        tableShownFolded: lines.includes(row),
        jsonShownFolded: text.includes('"name": "probe"'),
        rawTagsShown: /<\/?(details|summary)>/.test(text),
      };
      const fail = (msg) => Object.assign(new Error(msg), { observed });
      if (observed.missing.length) throw fail('the hover card lacks expected lines');
      if (observed.linesBeforeFolds < 0 || observed.linesBeforeFolds > 6) throw fail('the compact card shows more than six lines before its folds');
      if (observed.summaries.join('|') !== 'Parameters and returns|Contract JSON (C3)|doc(probe)') throw fail('the hover has no folded Parameters and returns, Contract JSON (C3) and doc(probe) sections');
      if (observed.tableShownFolded || observed.jsonShownFolded) throw fail('the tables or the contract JSON show while folded');
      await hover.locator('details > summary', { hasText: 'Parameters and returns' }).click();
      await page.waitForFunction((el) => el.innerText.replace(/\u00a0/g, ' ').includes('Seconds; None disables the timeout.'), await hover.elementHandle(), { timeout: 5000 })
        .catch(() => { throw fail('clicking Parameters and returns did not show the parameter table'); });
      observed.tableUnfolded = (await textOf()).split('\n').map((l) => l.trim()).includes(row);
      if (!observed.tableUnfolded) throw fail('the unfolded parameter table lacks the timeout_s row');
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

/** Status bar items whose text is a format count (`+3 −3`). */
async function formatCounts(page) {
  return (await page.locator('.statusbar-item').allInnerTexts()).map((s) => s.trim()).filter((s) => /^\+\d+ \u2212\d+$/.test(s));
}

/** Editor title actions by their label (aria-label starts with the command title). */
function titleAction(page, title) {
  return page.locator(`.editor-actions .action-label[aria-label^="${title}"]`);
}

/** Waits until `get` returns a truthy value; throws `message` with the last value seen. */
async function waitFor(message, get, timeoutMs = 10000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    last = await get();
    if (last && (!Array.isArray(last) || last.length)) return last;
    if (Date.now() > deadline) throw Object.assign(new Error(message), { observed: { last } });
    await sleep(200);
  }
}

scenes.push(
  {
    name: 'dom: format_me.py (a Vis extension file, one Python formatter, no default set) shows +3 −3, a Markdown tooltip, and the diff has Apply Formatting',
    command: 'Vis e2e: Scene Format Preview',
    screenshot: 'vscode-format.png',
    async run(page) {
      const counts = await waitFor('no +3 −3 format count in the status bar', async () => (await formatCounts(page)).filter((c) => c === '+3 \u22123'))
        .catch(async (e) => { throw Object.assign(e, { observed: { statusBar: await page.locator('.statusbar-item').allInnerTexts() } }); });
      await page.locator('.tabs-container .tab', { hasText: 'format_me.py \u2194 formatted (+3 \u22123)' }).first().waitFor({ timeout: 10000 });
      const apply = titleAction(page, 'Apply Formatting');
      await apply.first().waitFor({ timeout: 10000 });
      // The tooltip renders its Markdown: bold text, no literal ** or backticks. Hovering again until it shows
      // (a toast or the palette closing can swallow the first hover).
      const items = page.locator('.statusbar-item');
      const hover = page.locator('.monaco-hover:not(.hidden), .workbench-hover', { hasText: 'would add' }).first();
      await waitFor('no tooltip on the format count', async () => {
        await page.mouse.move(800, 400);
        const texts = (await items.allInnerTexts()).map((x) => x.trim());
        await items.nth(texts.indexOf('+3 \u22123')).hover();
        return hover.waitFor({ timeout: 2500 }).then(() => true, () => false);
      }, 15000);
      const tooltip = (await hover.innerText()).trim();
      const bold = await hover.locator('strong').allInnerTexts();
      const observed = { counts, applyActions: await apply.count(), tooltip, bold };
      if (/\*\*|`/.test(tooltip) || bold[0] !== 'Vis Authoring e2e harness') throw Object.assign(new Error('the tooltip shows Markdown markup, or does not name the formatter in bold'), { observed });
      await page.mouse.move(800, 500);
      return observed;
    },
  },
  {
    name: 'dom: on plain.py (not a Vis extension) the format count and the Preview Format Changes action are gone',
    command: 'Vis e2e: Scene Plain File',
    async run(page) {
      await page.locator('.tabs-container .tab.active', { hasText: 'plain.py' }).waitFor({ timeout: 10000 });
      await waitFor('the format count is still shown', async () => (await formatCounts(page)).length === 0);
      const previewActions = await titleAction(page, 'Preview Format Changes').count();
      if (previewActions !== 0) throw Object.assign(new Error('plain.py has a Preview Format Changes action'), { observed: { previewActions } });
      return { counts: await formatCounts(page), previewActions };
    },
  },
);

/** Scenes of the Restricted Mode run. */
const restrictedScenes = [
  {
    name: 'dom (Restricted Mode): squiggles and Problems work, the Vis State view asks for trust, Reload says why it needs trust',
    command: 'Vis e2e: Scene Restricted Mode',
    screenshot: 'vscode-restricted.png',
    async run(page) {
      await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 15000 });
      const restricted = await waitFor('no Restricted Mode item in the status bar', async () => (await page.locator('.statusbar-item').allInnerTexts()).map((s) => s.trim()).filter((s) => s.includes('Restricted Mode')));
      const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Vis State' }) }).first();
      const welcome = (await waitFor('the Vis State view shows no trust text', async () => (await pane.innerText()).includes('needs a trusted workspace') && (await pane.innerText()))).replace(/\s+/g, ' ').trim();
      const toast = page.locator('.notification-toast', { hasText: 'needs a trusted workspace' }).first();
      await toast.waitFor({ timeout: 10000 });
      return { restricted, welcome, notification: (await toast.innerText()).replace(/\s+/g, ' ').trim() };
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
const dirs = Object.fromEntries(['home', 'temp', 'data', 'ext', 'ws', 'harness', 'browser', 'restricted-data', 'restricted-ws'].map((d) => [d, path.join(RUN, d)]));
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
const restrictedResultFile = path.join(RUN, 'harness-result-restricted.json');
const screenshot = path.join(OUT, 'vscode-problems.png');
const summaryFile = path.join(OUT, 'result.json');
for (const f of [screenshot, summaryFile, path.join(OUT, 'vscode-hover.png'), ...[...scenes, ...restrictedScenes].filter((s) => s.screenshot).map((s) => path.join(OUT, s.screenshot))]) fs.rmSync(f, { force: true });

let csProc;
let browser;
const browserTemp = fs.mkdtempSync('/tmp/vis-e2e-b-');
/** Ends code-server's whole process group (file watcher, extension host, language server). */
async function stopCodeServer() {
  if (!csProc || csProc.exitCode !== null) return;
  const proc = csProc;
  try { process.kill(-proc.pid, 'SIGTERM'); } catch {}
  for (let i = 0; i < 50 && proc.exitCode === null; i++) await sleep(100);
  for (let i = 0; i < 20 && groupAlive(proc.pid); i++) await sleep(100);
  try { process.kill(-proc.pid, 'SIGKILL'); } catch {}
}
function groupAlive(pgid) {
  try { process.kill(-pgid, 0); return true; } catch { return false; }
}
async function cleanup() {
  if (browser) { await browser.close().catch(() => {}); browser = undefined; }
  fs.rmSync(browserTemp, { recursive: true, force: true });
  await stopCodeServer();
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { cleanup().finally(() => process.exit(2)); });

/** Starts code-server in its own process group on a free port; resolves once /healthz answers. */
async function startCodeServer(codeServer, { data, ws, trust, env, logName }) {
  const port = await freePort();
  const csLog = fs.openSync(path.join(RUN, logName), 'w');
  csProc = spawn(codeServer, [
    '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--user-data-dir', data, '--extensions-dir', dirs.ext,
    '--disable-telemetry', '--disable-update-check', ...(trust ? [] : ['--disable-workspace-trust']), ws,
  ], { env: { ...isolatedEnv, ...env }, detached: true, stdio: ['ignore', csLog, csLog] });
  const deadline = Date.now() + 30000;
  for (;;) {
    if (csProc.exitCode !== null) throw new Error(`code-server exited with ${csProc.exitCode}; see ${RUN}/${logName}`);
    try { if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break; } catch {}
    if (Date.now() > deadline) throw new Error('code-server did not answer /healthz within 30 s');
    await sleep(200);
  }
  log(`code-server ready on 127.0.0.1:${port}`);
  return port;
}

/** Opens the workbench of `ws` in a new page and waits for the harness to write `result`. */
async function openAndWait(port, ws, result, label) {
  await browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: `http://127.0.0.1:${port}` });
  const page = await browser.newPage();
  const browserLog = fs.createWriteStream(path.join(RUN, `browser-console${label}.log`));
  page.on('console', (m) => browserLog.write(`[${m.type()}] ${m.text()}\n`));
  page.on('pageerror', (e) => browserLog.write(`[pageerror] ${e.message}\n`));
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`;
  log(`opening ${url}`);
  await timed(`workbenchRendered${label}`, async () => {
    await page.goto(url);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60000 });
  });
  log('workbench rendered; waiting for the harness');
  const got = await timed(`harnessResult${label}`, async () => {
    const deadline = Date.now() + TIMEOUT;
    while (!fs.existsSync(result) && Date.now() < deadline) await sleep(250);
    return fs.existsSync(result);
  });
  if (!got) {
    await page.screenshot({ path: screenshot }).catch(() => {});
    summary.screenshot = screenshot;
    throw new Error(`TIMEOUT: no harness result after ${TIMEOUT} ms (see ${RUN}/code-server${label}.log, ${screenshot})`);
  }
  return { page, harness: JSON.parse(fs.readFileSync(result, 'utf8')) };
}

/** Runs DOM checks (`{name, run}`) or scenes (`{name, command, screenshot, run}`) on a page, into summary.dom. */
async function runDom(page, list) {
  for (const item of list) {
    const s = Date.now();
    const r = { name: item.name, ok: false, ms: 0 };
    const file = item.screenshot && path.join(OUT, item.screenshot);
    try {
      if (item.command) await runFromPalette(page, item.command);
      r.observed = await item.run(page);
      r.ok = true;
    } catch (e) {
      r.error = e.message;
      r.observed = e.observed;
    }
    if (file) {
      await page.screenshot({ path: file }).catch(() => {});
      if (fs.existsSync(file)) { r.screenshot = file; summary.screenshots.push(file); }
    }
    r.ms = Date.now() - s;
    summary.dom.push(r);
  }
}

let exitCode = 2;
const summary = { ok: false, runDir: RUN, screenshot: undefined, screenshots: [], timings, harness: undefined, restricted: undefined, dom: [] };
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

  // The Python whose ast.parse the snippet check asks (resolved here: a pyenv shim needs the real HOME).
  const python = sh('python3', ['-c', 'import sys; print(sys.executable)']).trim();
  // Fresh workspace copies and user settings; a copy of the WAL-mode state database for the Vis State checks.
  fs.cpSync(path.join(ROOT, 'test/e2e/fixtures/workspace'), dirs.ws, { recursive: true });
  // A git repository with the fixtures committed: "Compare Contracts with HEAD" reads HEAD through VS Code's Git extension.
  const git = (...args) => sh('git', ['-c', 'user.name=vis-e2e', '-c', 'user.email=vis-e2e@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dirs.ws, env: isolatedEnv });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'e2e fixtures');
  fs.cpSync(path.join(ROOT, 'test/e2e/fixtures/workspace'), dirs['restricted-ws'], { recursive: true });
  const stateDb = path.join(RUN, 'state-db');
  fs.cpSync(path.join(ROOT, 'test/fixtures/state/db/wal'), stateDb, { recursive: true });
  const settings = {
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
  };
  const writeSettings = (data, extra) => {
    fs.mkdirSync(path.join(data, 'User'), { recursive: true });
    fs.writeFileSync(path.join(data, 'User/settings.json'), JSON.stringify({ ...settings, ...extra }, null, 2));
  };
  writeSettings(dirs.data, {});
  // Restricted Mode: trust on, never asked, so the workspace stays untrusted.
  writeSettings(dirs['restricted-data'], { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.emptyWindow': false });
  const harnessEnv = { VIS_E2E_ONLY: process.env.VIS_E2E_ONLY || '', VIS_E2E_STATE_DB: path.join(stateDb, 'vis.db'), VIS_E2E_PYTHON: python };

  // The browser: fresh profile in the run dir, isolated HOME.
  const { chromium } = await import('playwright-core');
  browser = await timed('browserLaunch', () => chromium.launchPersistentContext(dirs.browser, {
    // A short TMPDIR: chromium's singleton socket path must fit in a unix socket address (108 bytes).
    executablePath: CHROMIUM, headless: true, env: { ...isolatedEnv, TMPDIR: browserTemp }, viewport: { width: 1600, height: 1000 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  }));
  for (const p of browser.pages()) await p.close();

  // 1. A trusted workspace: every harness check, the DOM checks, then the scenes.
  const port = await timed('codeServerReady', () => startCodeServer(codeServer, { data: dirs.data, ws: dirs.ws, trust: false, logName: 'code-server.log', env: { ...harnessEnv, VIS_E2E_RESULT: resultFile } }));
  const { page, harness } = await openAndWait(port, dirs.ws, resultFile, '');
  summary.harness = harness;
  await timed('domChecks', () => runDom(page, domChecks));
  await sleep(500); // let the last decorations paint
  await timed('screenshot', () => page.screenshot({ path: screenshot }));
  summary.screenshot = screenshot;
  summary.screenshots.push(screenshot);
  // Scenes and the Restricted Mode run only when the whole harness ran (VIS_E2E_ONLY unset).
  if (!process.env.VIS_E2E_ONLY) {
    await timed('scenes', () => runDom(page, scenes));
    await page.close();
    await stopCodeServer();

    // 2. Restricted Mode: the same fixtures in a workspace that is not trusted.
    const rport = await timed('codeServerReadyRestricted', () => startCodeServer(codeServer, {
      data: dirs['restricted-data'], ws: dirs['restricted-ws'], trust: true, logName: 'code-server-restricted.log',
      env: { ...harnessEnv, VIS_E2E_RESULT: restrictedResultFile, VIS_E2E_MODE: 'restricted' },
    }));
    const restricted = await openAndWait(rport, dirs['restricted-ws'], restrictedResultFile, 'Restricted');
    summary.restricted = restricted.harness;
    await timed('restrictedScenes', () => runDom(restricted.page, restrictedScenes));
  }
  const harnessOk = (h) => !!h && !!h.ok;
  summary.ok = harnessOk(summary.harness) && (process.env.VIS_E2E_ONLY ? true : harnessOk(summary.restricted)) && summary.dom.every((c) => c.ok);
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
const reports = [['', summary.harness], [' (Restricted Mode)', summary.restricted]].filter(([, h]) => h);
for (const [label, h] of reports) {
  console.log(`\nVS Code ${h.vscodeVersion}${label}, ${h.product ? `${h.product.id} ${h.product.version} active=${h.product.active}` : 'vis-authoring NOT installed'}`);
  for (const c of h.checks) report(c);
  if (h.error) console.log(`harness error: ${h.error}`);
}
if (summary.dom.length) console.log('');
for (const c of summary.dom) report(c);
function report(c) {
  console.log(`${c.ok ? 'PASS' : c.soft ? 'SOFT-FAIL' : 'FAIL'} ${c.name} (${c.ms} ms)`);
  if (c.observed !== undefined) console.log('     ' + JSON.stringify(c.observed));
  if (!c.ok && c.error) console.log('     ' + c.error.split('\n').slice(0, 15).join('\n     '));
}
console.log(`\ntimings (ms): ${JSON.stringify(timings)}`);
console.log(`result: ${summaryFile}\nscreenshots: ${summary.screenshots.length ? summary.screenshots.join(' ') : summary.screenshot ?? '(none)'}\nlogs: ${RUN}`);
const all = [...reports.flatMap(([, h]) => h.checks), ...summary.dom];
const failed = all.filter((c) => !c.ok && !c.soft).length;
console.log(`e2e: ${all.length - failed} passed, ${failed} failed`);
console.log(exitCode === 0 ? 'E2E PASS' : exitCode === 1 ? 'E2E FAIL' : 'E2E ERROR');
process.exit(exitCode);
