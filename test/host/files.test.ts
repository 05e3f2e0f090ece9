import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { listGatewayLogs, newestGatewayLog } from '../../client/src/host/logs';
import { chooseDatabase, globalExtensionsDir } from '../../client/src/host/paths';
import { parseReloadTitle, summarize } from '../../client/src/host/reloadResult';
import { failureFiles, findExtensionRoots, scriptBlock, triggersReload } from '../../client/src/host/sourceRoots';
import { HostStatusMonitor } from '../../client/src/host/status';
import { FakeGateway } from './fakeGateway';

const dirs: string[] = [];
async function tmp(): Promise<string> {
  const d = await fsp.mkdtemp(path.join(os.tmpdir(), 'vis-files-'));
  dirs.push(d);
  return d;
}
after(async () => { for (const d of dirs) await fsp.rm(d, { recursive: true, force: true }); });

async function write(file: string, text: string, mtimeSec?: number): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  await fsp.writeFile(file, text);
  if (mtimeSec) await fsp.utimes(file, mtimeSec, mtimeSec);
}

describe('host log', () => {
  it('finds the running gateway\'s log in either layout, else the newest', async () => {
    const home = await tmp();
    const logs = path.join(home, '.vis', 'logs');
    await write(path.join(logs, 'vis-100.log'), 'legacy gateway', 1000);
    await write(path.join(logs, 'vis-200.log'), 'legacy tui', 3000);
    await write(path.join(logs, 'graalpy-100.log'), 'not a gateway log', 9000);
    await write(path.join(logs, '2026-08-22', 'gateway-20260822T100000Z-pid300.log'), 'dated gateway', 2000);
    await write(path.join(logs, '2026-08-23', 'gateway-20260823T090000Z-pid400.log'), 'dated gateway, newest', 4000);
    await write(path.join(logs, '2026-08-23', 'gateway-20260823T080000Z-pid400.log.1.gz'), 'rotated', 5000);
    await write(path.join(logs, '2026-08-23', 'tui-20260823T090000Z-pid401.log'), 'tui', 6000);
    assert.deepEqual(await newestGatewayLog({ home }), { file: path.join(logs, '2026-08-23', 'gateway-20260823T090000Z-pid400.log'), layout: 'dated', matchesPid: false });
    assert.deepEqual(await newestGatewayLog({ home }, 100), { file: path.join(logs, 'vis-100.log'), layout: '0.1.41', matchesPid: true });
    assert.deepEqual(await newestGatewayLog({ home }, 300), { file: path.join(logs, '2026-08-22', 'gateway-20260822T100000Z-pid300.log'), layout: 'dated', matchesPid: true });
    assert.deepEqual((await listGatewayLogs({ home })).map((l) => path.basename(l.file)),
      ['gateway-20260823T090000Z-pid400.log', 'vis-200.log', 'gateway-20260822T100000Z-pid300.log', 'vis-100.log']);
    assert.equal(await newestGatewayLog({ home: await tmp() }), undefined);
  });
});

describe('database location', () => {
  it('setting, then the gateway\'s db, then VIS_DB_PATH, then ~/.vis/vis.mdb/vis.db', async () => {
    const home = await tmp();
    const dir = path.join(home, 'custom.mdb');
    await fsp.mkdir(dir);
    await write(path.join(home, 'file.db'), '');
    const env = { VIS_DB_PATH: path.join(home, 'env.mdb') };
    assert.deepEqual(await chooseDatabase({ home, env }, {}), { file: path.join(home, 'env.mdb', 'vis.db'), source: 'VIS_DB_PATH' });
    assert.deepEqual(await chooseDatabase({ home, env: {} }, {}), { file: path.join(home, '.vis', 'vis.mdb', 'vis.db'), source: 'default' });
    assert.deepEqual(await chooseDatabase({ home, env }, { gatewayDb: dir }), { file: path.join(dir, 'vis.db'), source: 'gateway' });
    assert.deepEqual(await chooseDatabase({ home, env }, { gatewayDb: dir, setting: '~/file.db' }), { file: path.join(home, 'file.db'), source: 'setting' });
    assert.deepEqual(await chooseDatabase({ home, env }, { setting: '~/custom.mdb' }), { file: path.join(dir, 'vis.db'), source: 'setting' });
    assert.equal(globalExtensionsDir({ home, env: { VIS_EXTENSIONS_DIR: '/opt/ext' } }), path.resolve('/opt/ext'));
    assert.equal(globalExtensionsDir({ home }), path.join(home, '.vis', 'extensions'));
  });
});

describe('which saves trigger a reload', () => {
  it('files under the extension directories and declared source roots', async () => {
    const ws = await tmp();
    const ext = path.join(ws, '.vis', 'extensions');
    await write(path.join(ext, 'single.py'), [
      '# /// script',
      '# requires-python = ">=3.11"',
      '# [tool.vis]',
      '# source_paths = ["../../src", "/abs/lib"]',
      '# ///',
      'import blockether.vis.extension as vis',
    ].join('\n'));
    await write(path.join(ext, 'pkg', 'current', 'pyproject.toml'), '[project]\nname = "pkg"\n[tool.vis]\nsource_paths = ["src"]\n');
    await write(path.join(ext, 'broken.py'), '# /// script\n# [tool.vis\n# ///\n');
    const roots = await findExtensionRoots([ext, path.join(ws, 'missing-global')]);
    assert.deepEqual(roots.sourceRoots, [path.resolve('/abs/lib'), path.join(ext, 'pkg', 'current', 'src'), path.join(ws, 'src')].sort());
    assert.equal(triggersReload(path.join(ext, 'single.py'), roots), true);
    assert.equal(triggersReload(path.join(ext, 'pkg', 'current', 'pyproject.toml'), roots), true);
    assert.equal(triggersReload(path.join(ws, 'src', 'helpers', 'util.py'), roots), true);
    assert.equal(triggersReload(path.join(ws, 'src', 'notes.md'), roots), false);
    assert.equal(triggersReload(path.join(ws, 'other', 'x.py'), roots), false);
    assert.equal(triggersReload(path.join(ws, '.vis', 'extensions-old', 'x.py'), roots), false);
  });

  it('reads a PEP 723 block only when it is well formed', () => {
    assert.equal(scriptBlock('# /// script\n# dependencies = []\n# ///\n'), 'dependencies = []');
    assert.equal(scriptBlock('# /// script\n# dependencies = []\nx = 1\n'), undefined);
    assert.equal(scriptBlock('print(1)\n'), undefined);
  });

  it('maps a failure to its candidate files', () => {
    assert.deepEqual(failureFiles('greeter.py', ['/w/.vis/extensions', '/h/.vis/extensions']), ['/w/.vis/extensions/greeter.py', '/h/.vis/extensions/greeter.py']);
    assert.deepEqual(failureFiles('greeter', ['/w/e']), ['/w/e/greeter.py', '/w/e/greeter/extension.py', '/w/e/greeter/current/extension.py']);
    assert.deepEqual(failureFiles('/abs/x.py', ['/w/e']), ['/abs/x.py']);
  });
});

describe('reload titles', () => {
  it('keeps a title of unknown shape as prose', () => {
    const r = parseReloadTitle('**Something else happened**');
    assert.deepEqual(r, { title: 'Something else happened', recognized: false, failures: [] });
    assert.equal(summarize(r), 'Vis answered: Something else happened');
  });

  it('summarizes failures on one line', () => {
    const r = parseReloadTitle('Reloaded — configuration; Python extensions: 0 loaded, 1 failed (last-good kept): a.py — a.py never called vis.extension(...) — see `vis-agent doctor`; skills/agents, prompt templates (0), and context files rescanned');
    assert.deepEqual(r.failures, [{ target: 'a.py', error: 'a.py never called vis.extension(...)' }]);
    assert.equal(summarize(r), 'Vis extensions reloaded: 0 loaded, 1 failed: a.py — a.py never called vis.extension(...)');
  });
});

describe('host status', () => {
  it('reports not running, then connected, then not running again', async () => {
    const home = await tmp();
    const m = new HostStatusMonitor({ home });
    const seen: string[] = [];
    m.onChange((s) => seen.push(s.state));
    assert.equal((await m.refresh()).state, 'not-running');
    const g = await new FakeGateway({ protocol: 12, title: () => '', db: '/d/vis.mdb' }).start();
    await g.register(home);
    assert.deepEqual(await m.refresh(), { state: 'connected', baseUrl: `http://127.0.0.1:${g.port}`, pid: process.pid, protocol: 12, db: '/d/vis.mdb' });
    await g.stop();
    assert.equal((await m.refresh()).state, 'not-running');
    assert.deepEqual(seen, ['not-running', 'connected', 'not-running']);
  });
});
