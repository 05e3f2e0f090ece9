import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { after, afterEach, describe, it } from 'node:test';
import { discoverGateways, parseRegistryEntry, pickGateway } from '../../client/src/host/discovery';
import { HostError } from '../../client/src/host/errors';
import { GatewayClient, MIN_GATEWAY_PROTOCOL, SessionStore, operation } from '../../client/src/host/gateway';
import { FakeGateway, LEGACY_FAILED, LEGACY_OK, Misbehaviour, N_FAILED } from './fakeGateway';

const tmpRoots: string[] = [];
async function tmp(prefix: string): Promise<string> {
  const d = await fsp.mkdtemp(path.join(os.tmpdir(), prefix));
  tmpRoots.push(d);
  return d;
}
after(async () => { for (const d of tmpRoots) await fsp.rm(d, { recursive: true, force: true }); });

class MemoryStore implements SessionStore {
  map = new Map<string, string>();
  get(k: string) { return this.map.get(k); }
  set(k: string, v: string | undefined) { if (v) this.map.set(k, v); else this.map.delete(k); }
}

const gateways: FakeGateway[] = [];
const clients: GatewayClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const g of gateways.splice(0)) await g.stop();
});

async function setup(opts: ConstructorParameters<typeof FakeGateway>[0], reg: { secret?: string; pid?: number } = {}) {
  const g = await new FakeGateway(opts).start();
  gateways.push(g);
  const home = await tmp('vis-home-');
  await g.register(home, reg);
  return { g, home };
}

async function connect(home: string, extra: Partial<Parameters<typeof GatewayClient.connect>[0]> = {}) {
  const c = await GatewayClient.connect({ paths: { home, env: {} }, clientVersion: '0.1.0-test', requestTimeoutMs: 3000, ...extra });
  clients.push(c);
  return c;
}

async function rejects(p: Promise<unknown>, code: string): Promise<HostError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof HostError, `expected HostError, got ${e}`);
    assert.equal(e.code, code, e.text);
    return e;
  }
  assert.fail(`expected HostError ${code}`);
}

describe('gateway client, protocol 2 (Vis 0.1.41)', () => {
  it('reloads through a reused session, with the required headers on every request and a lease', async () => {
    const { g, home } = await setup({ protocol: 2, version: '0.1.41', title: () => LEGACY_FAILED }, { secret: 's3cret' });
    const root = process.cwd(); // the gateway runs in this process, so its cwd is the workspace
    const client = await connect(home);
    assert.equal(client.protocol, 2);
    assert.equal(client.version, '0.1.41');
    assert.equal(client.projectScoped, false);
    const store = new MemoryStore();
    const first = await client.reload(root, store, { timeoutMs: 5000 });
    assert.equal(first.status, 'completed');
    assert.deepEqual(first.result, {
      title: LEGACY_FAILED,
      recognized: true,
      loaded: 2,
      failedCount: 2,
      failures: [
        { target: 'broken.py', error: 'SyntaxError: invalid syntax (broken.py, line 7)', line: 7 },
        { target: 'other.py', error: "NameError: name 'x' is not defined; did you mean: 'y'?" },
      ],
    });
    const second = await client.reload(root, store, { timeoutMs: 5000 });
    assert.equal(second.sessionId, first.sessionId);
    assert.notEqual(second.turnId, first.turnId);
    assert.deepEqual([...store.map.values()], [first.sessionId]);

    const sessions = g.seen.filter((s) => s.method === 'POST' && s.path === '/v1/sessions');
    assert.equal(sessions.length, 1);
    assert.deepEqual(sessions[0].body, { root, channel: 'api', title: 'VS Code: extension control' });
    const turns = g.seen.filter((s) => s.method === 'POST' && s.path.endsWith('/turns'));
    assert.equal(turns.length, 2);
    for (const t of turns) {
      assert.equal(t.body.request, '/reload');
      assert.match(t.body.idempotency_key, /^vscode-[0-9a-f-]{36}$/);
    }
    for (const s of g.seen.filter((x) => x.path !== '/healthz')) {
      assert.equal(s.headers['x-vis-client'], 'vis-authoring-vscode', s.path);
      assert.equal(s.headers['x-vis-client-version'], '0.1.0-test', s.path);
      assert.equal(s.headers['x-vis-min-gateway-protocol'], String(MIN_GATEWAY_PROTOCOL), s.path);
      assert.equal(s.headers.authorization, 'Bearer s3cret', s.path);
      if (s.path !== '/v1/capabilities') assert.equal(s.headers['x-vis-protocol'], '2', s.path);
    }
    const leased = g.seen.filter((s) => s.method === 'POST' && s.path === '/v1/clients');
    assert.equal(leased.length, 1);
    assert.deepEqual(leased[0].body, { kind: 'vscode', pid: process.pid });
    const afterLease = g.seen.slice(g.seen.indexOf(leased[0]) + 1);
    assert.ok(afterLease.length > 0 && afterLease.every((s) => s.headers['x-vis-client-id'] === 'c1'));
    assert.deepEqual([...g.leases], ['c1']);
    await client.close();
    assert.deepEqual([...g.leases], []);
    assert.equal(g.routes().at(-1), 'DELETE /v1/clients/c1');
  });

  it('reads a reload without failures', async () => {
    const { home } = await setup({ protocol: 2, title: () => LEGACY_OK });
    const out = await (await connect(home)).reload(process.cwd(), new MemoryStore(), { timeoutMs: 5000 });
    assert.deepEqual(out.result, { title: LEGACY_OK, recognized: true, loaded: 3, failedCount: 0, failures: [] });
  });

  it('refuses when the gateway runs in another project folder', async () => {
    const { g, home } = await setup({ protocol: 2, title: () => LEGACY_OK });
    const ws = await tmp('vis-ws-');
    await fsp.mkdir(path.join(ws, '.vis', 'extensions'), { recursive: true });
    const e = await rejects((await connect(home)).reload(ws, new MemoryStore(), { timeoutMs: 5000 }), 'wrong-project');
    assert.match(e.message, new RegExp(`was started in ${escape(process.cwd())}`));
    assert.match(e.fix, /vis-agent gateway stop/);
    assert.match(e.fix, new RegExp(`start Vis from ${escape(ws)}`));
    assert.equal(g.seen.filter((s) => s.path.endsWith('/turns')).length, 0, 'no turn is submitted');
  });

  it('makes a new session when the stored one is gone', async () => {
    const { g, home } = await setup({ protocol: 2, title: () => LEGACY_OK });
    const client = await connect(home);
    const store = new MemoryStore();
    store.set(`${path.join(home, '.vis', 'vis.mdb')}::${process.cwd()}`, 'gone-session');
    const out = await client.reload(process.cwd(), store, { timeoutMs: 5000 });
    assert.equal(out.sessionId, 's1');
    assert.deepEqual(g.routes().filter((r) => r.includes('/seq')), ['GET /v1/sessions/gone-session/seq', 'GET /v1/sessions/s1/seq']);
    assert.deepEqual([...store.map.values()], ['s1']);
  });
});

describe('gateway client, protocol 12 (newer Vis)', () => {
  it('reloads with per-project scope and reads the newer failure format by polling', async () => {
    const { g, home } = await setup({ protocol: 12, version: '0.1.56', events: false, title: () => N_FAILED });
    const ws = await tmp('vis-ws-');
    await fsp.mkdir(path.join(ws, '.vis', 'extensions'), { recursive: true });
    const client = await connect(home);
    assert.equal(client.projectScoped, true);
    const out = await client.reload(ws, new MemoryStore(), { timeoutMs: 5000, pollMs: 20 });
    assert.deepEqual(out.result, {
      title: N_FAILED,
      recognized: true,
      loaded: 1,
      failedCount: 2,
      hookFailures: 'skills: boom',
      failures: [
        { target: 'greeter', error: 'Extension name must match normalized project.name', stale: true, loadedFingerprint: '1a2b3c', requestedFingerprint: '4d5e6f' },
        { target: 'pkg/extension.py', error: 'SyntaxError: invalid syntax (extension.py, line 12)', stale: false, loadedFingerprint: 'none', requestedFingerprint: '99aa', line: 12 },
      ],
    });
    assert.ok(g.seen.some((s) => s.path.startsWith('/v1/events') ), 'tried the event stream');
    assert.ok(g.seen.filter((s) => /\/turns\/t1$/.test(s.path)).length >= 2, 'polled the turn');
    for (const s of g.seen.filter((x) => !['/healthz', '/v1/capabilities'].includes(x.path))) assert.equal(s.headers['x-vis-protocol'], '12');
  });

  it('wakes on the turn.completed event instead of waiting for the next poll', async () => {
    const { home } = await setup({ protocol: 12, title: () => LEGACY_OK, turnDelayMs: 300 });
    const client = await connect(home);
    const t0 = Date.now();
    const out = await client.reload(process.cwd(), new MemoryStore(), { timeoutMs: 20000, pollMs: 10000 });
    assert.equal(out.result.loaded, 3);
    assert.ok(Date.now() - t0 < 5000, `took ${Date.now() - t0} ms`);
  });

  it('times out on a slow turn and names the fix', async () => {
    const { home } = await setup({ protocol: 12, title: () => LEGACY_OK, turnDelayMs: 4000 });
    const e = await rejects((await connect(home)).reload(process.cwd(), new MemoryStore(), { timeoutMs: 400, pollMs: 50 }), 'timeout');
    assert.equal(e.message, '/reload did not finish within 0.4 s (waiting for turn t1, still "running").');
    assert.match(e.fix, /visAuthoring\.host\.reloadTimeoutSeconds/);
  });
});

describe('gateway failures name their fix', () => {
  it('426: the gateway needs a newer client', async () => {
    const { home } = await setup({ protocol: 12, minClientProtocol: 13, title: () => LEGACY_OK });
    const e = await rejects((await connect(home)).reload(process.cwd(), new MemoryStore(), { timeoutMs: 3000 }), 'protocol-mismatch');
    assert.equal(e.message, "The Vis gateway refused this client's protocol 12 (HTTP 426 incompatible_protocol; gateway protocol 12; needs client protocol ≥ 13).");
    assert.equal(e.fix, 'The gateway is newer than this extension: update the Vis Authoring extension.');
  });

  it('a gateway older than protocol 2 is refused before any turn', async () => {
    const { g, home } = await setup({ protocol: 1, title: () => LEGACY_OK });
    const e = await rejects(connect(home), 'protocol-mismatch');
    assert.match(e.message, /speaks protocol 1; this extension needs 2 or newer/);
    assert.match(e.fix, /^Update Vis/);
    assert.deepEqual(g.routes(), ['GET /healthz', 'GET /v1/capabilities']);
  });

  it('a gateway that does not advertise a protocol', async () => {
    const { home } = await setup({ protocol: 12, capabilitiesWithoutProtocol: true, title: () => LEGACY_OK });
    // /healthz still says 12, which is enough.
    assert.equal((await connect(home)).protocol, 12);
  });

  it('401 without a token says where the token is', async () => {
    const { home } = await setup({ protocol: 12, requireToken: 'tok-1', title: () => LEGACY_OK });
    const e = await rejects(connect(home), 'token-required');
    assert.match(e.message, /requires a bearer token \(HTTP 401\)/);
    assert.equal(e.fix, `Vis keeps the token in ${path.join(home, '.vis', 'gateway.token')} (mode 600) and in the registry file; make it readable by the user running VS Code.`);
  });

  it('uses ~/.vis/gateway.token when the registry has no secret', async () => {
    const { g, home } = await setup({ protocol: 12, requireToken: 'tok-1', title: () => LEGACY_OK });
    await fsp.writeFile(path.join(home, '.vis', 'gateway.token'), 'tok-1\n', { mode: 0o600 });
    const out = await (await connect(home)).reload(process.cwd(), new MemoryStore(), { timeoutMs: 5000 });
    assert.equal(out.result.loaded, 3);
    assert.ok(g.seen.filter((s) => s.path !== '/healthz').every((s) => s.headers.authorization === 'Bearer tok-1'));
  });

  it('401 with a wrong token says which token was rejected', async () => {
    const { home } = await setup({ protocol: 12, requireToken: 'tok-1', title: () => LEGACY_OK }, { secret: 'old-token' });
    const e = await rejects(connect(home), 'token-required');
    assert.match(e.message, /rejected the token from the registry file .*\.edn \(HTTP 401\)/);
    assert.match(e.fix, /vis-agent gateway stop/);
  });

  it('no gateway: an empty registry, and a registry entry whose process is gone', async () => {
    const home = await tmp('vis-home-');
    let e = await rejects(connect(home), 'no-gateway');
    assert.equal(e.text, 'No Vis gateway is running. Start Vis in this folder (run `vis-agent`, or `vis-agent gateway start`); a fresh start loads your extension files, so no reload is needed.');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const g = await new FakeGateway({ protocol: 12, title: () => LEGACY_OK }).start();
    gateways.push(g);
    await g.register(home, { pid: dead });
    e = await rejects(connect(home), 'no-gateway');
    assert.match(e.message, new RegExp(`^No Vis gateway is running \\(1 stale registry entry in .*registry: [0-9a-f]{64}\\.edn: its process ${dead} is gone\\)\\.$`));
    assert.deepEqual(g.seen, [], 'a dead pid is not even asked');
  });

  it('the gateway going away mid-use', async () => {
    const { g, home } = await setup({ protocol: 12, title: () => LEGACY_OK });
    const client = await connect(home);
    await g.stop();
    gateways.splice(gateways.indexOf(g), 1);
    const e = await rejects(client.reload(process.cwd(), new MemoryStore(), { timeoutMs: 2000 }), 'unreachable');
    assert.match(e.fix, /^Start Vis/);
  });
});

describe('discovery', () => {
  it('parses a registry file with edn-data', () => {
    assert.deepEqual(parseRegistryEntry('{:pid 4242 :port 7890 :host "127.0.0.1" :secret "abc" :db "/home/u/.vis/vis.mdb" :created-at #inst "2026-08-22T10:00:00.000-00:00"}', '/r/x.edn'), {
      file: '/r/x.edn', pid: 4242, port: 7890, host: '127.0.0.1', secret: 'abc', db: '/home/u/.vis/vis.mdb', createdAt: '2026-08-22T10:00:00.000-00:00',
    });
    assert.throws(() => parseRegistryEntry('{:port 1}', 'x'), /no :pid/);
  });

  it('picks the gateway of the wanted database among several', async () => {
    const home = await tmp('vis-home-');
    const a = await new FakeGateway({ protocol: 12, title: () => 'a', db: '/data/a/vis.mdb' }).start();
    const b = await new FakeGateway({ protocol: 12, title: () => 'b', db: '/data/b/vis.mdb' }).start();
    gateways.push(a, b);
    await a.register(home);
    await b.register(home);
    await fsp.writeFile(path.join(home, '.vis', 'gateway', 'registry', 'junk.edn'), '{:port "x"');
    const found = await discoverGateways({ paths: { home } });
    assert.equal(found.live.length, 2);
    assert.equal(found.problems.length, 1);
    assert.equal((await pickGateway(found.live, '/data/b/vis.mdb/vis.db'))?.entry.port, b.port);
    assert.equal((await pickGateway(found.live, '/data/a/vis.mdb'))?.entry.port, a.port);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('a misbehaving gateway: a clear message with a fix, within the reload timeout', () => {
  const rejections: unknown[] = [];
  const onRejection = (e: unknown) => rejections.push(e);
  process.on('unhandledRejection', onRejection);
  after(() => {
    process.off('unhandledRejection', onRejection);
    assert.deepEqual(rejections, [], 'no unhandled rejection');
  });

  /** Connects and reloads as the reload command does: one operation of `timeoutMs`. */
  async function reloadWithin(home: string, timeoutMs: number, extra: Partial<Parameters<typeof GatewayClient.connect>[0]> = {}) {
    const op = operation(timeoutMs);
    const t0 = Date.now();
    try {
      const c = await GatewayClient.connect({ paths: { home, env: {} }, clientVersion: '0.1.0-test', ...extra }, op);
      clients.push(c);
      return { outcome: await c.reload(process.cwd(), new MemoryStore(), { timeoutMs, op, pollMs: 20 }), ms: Date.now() - t0 };
    } catch (e) {
      return { error: e, ms: Date.now() - t0 };
    }
  }
  function failed(r: { error?: unknown; ms: number }, code: string, timeoutMs: number): HostError {
    assert.ok(r.error instanceof HostError, `expected a HostError, got ${(r.error as Error)?.stack ?? 'success'}`);
    assert.equal(r.error.code, code, r.error.text);
    assert.ok(r.error.fix.length > 20, 'names a fix');
    assert.ok(r.ms < timeoutMs + 1000, `ended in ${r.ms} ms (timeout ${timeoutMs} ms)`);
    return r.error;
  }
  const on = (method: string, route: string, b: Misbehaviour) => (m: string, p: string) => (m === method && p === route ? b : undefined);

  it('closes the connection in the middle of an answer', async () => {
    const { home } = await setup({ protocol: 12, title: () => LEGACY_OK, misbehave: on('GET', '/v1/capabilities', { kind: 'close-mid' }) });
    const e = failed(await reloadWithin(home, 3000), 'unreachable', 3000);
    assert.match(e.message, /^The Vis gateway at http:\/\/127\.0\.0\.1:\d+ closed the connection in the middle of its answer to GET \/v1\/capabilities\.$/);
    assert.equal(e.fix, 'It may have crashed or restarted: see Vis: Open Host Log, then run Vis: Reload Vis Extensions again.');
  });

  it('answers HTML, invalid JSON or nothing where JSON belongs', async () => {
    let { g, home } = await setup({ protocol: 12, title: () => LEGACY_OK, misbehave: on('GET', '/v1/capabilities', { kind: 'html' }) });
    let e = failed(await reloadWithin(home, 3000), 'bad-answer', 3000);
    assert.equal(e.message, `The Vis gateway at http://127.0.0.1:${g.port} answered GET /v1/capabilities with HTML (<!doctype html> <html><head><title>Welcome to nginx!</title></head><body>It work…), not JSON.`);
    assert.match(e.fix, new RegExp(`another program may be listening on port ${g.port}, where the registry file .*\\.edn points\\. Stop Vis`));
    ({ g, home } = await setup({ protocol: 12, title: () => LEGACY_OK, misbehave: on('POST', '/v1/sessions', { kind: 'invalid-json' }) }));
    e = failed(await reloadWithin(home, 3000), 'bad-answer', 3000);
    assert.equal(e.message, `The Vis gateway at http://127.0.0.1:${g.port} answered POST /v1/sessions with \`{"id": "s1", "root":\`, not JSON.`);
    ({ g, home } = await setup({ protocol: 12, title: () => LEGACY_OK, misbehave: on('POST', '/v1/sessions', { kind: 'empty' }) }));
    e = failed(await reloadWithin(home, 3000), 'http', 3000);
    assert.equal(e.message, 'POST /v1/sessions answered without a session id.');
  });

  it('fails with HTTP 5xx', async () => {
    const { home } = await setup({ protocol: 12, title: () => LEGACY_OK, misbehave: on('POST', '/v1/sessions', { kind: 'status', status: 500, body: '{"error": "db is locked"}' }) });
    const e = failed(await reloadWithin(home, 3000), 'http', 3000);
    assert.equal(e.message, 'The Vis gateway failed on POST /v1/sessions (HTTP 500: db is locked).');
    assert.equal(e.fix, 'This is a fault inside Vis: see Vis: Open Host Log; restarting its gateway (`vis-agent gateway stop`) usually clears it.');
    const { home: h2 } = await setup({ protocol: 12, title: () => LEGACY_OK, misbehave: on('POST', '/v1/clients', { kind: 'status', status: 502, body: '<html>Bad Gateway</html>' }) });
    assert.equal(failed(await reloadWithin(h2, 3000), 'http', 3000).message, 'The Vis gateway failed on POST /v1/clients (HTTP 502: HTML (<html>Bad Gateway</html>)).');
  });

  it('drips an answer that never finishes: the reload ends at its timeout', async () => {
    const { home } = await setup({ protocol: 12, title: () => LEGACY_OK, misbehave: on('GET', '/v1/capabilities', { kind: 'drip', everyMs: 50 }) });
    const r = await reloadWithin(home, 1500);
    const e = failed(r, 'timeout', 1500);
    assert.equal(e.message, '/reload did not finish within 1.5 s (waiting for GET /v1/capabilities).');
    assert.match(e.fix, /visAuthoring\.host\.reloadTimeoutSeconds/);
    assert.ok(r.ms >= 1400, `waited the whole timeout (${r.ms} ms)`);
  });

  it('answers every request just under the per-request timeout: one deadline for the whole reload', async () => {
    const { home } = await setup({ protocol: 12, title: () => LEGACY_OK, misbehave: (_m, p) => (p === '/healthz' ? undefined : { kind: 'slow', delayMs: 500 }) });
    // Each answer comes 400 ms before its own timeout (slack for a loaded machine); four of them pass the
    // reload's deadline.
    const r = await reloadWithin(home, 2000, { requestTimeoutMs: 900 });
    const e = failed(r, 'timeout', 2000);
    assert.match(e.message, /^\/reload did not finish within 2 s \(waiting for (GET|POST) \/v1\/\S+\)\.$/);
  });

  it('sends a 100 MB body: refused past 16 MiB without buffering it', async () => {
    const { g, home } = await setup({ protocol: 12, title: () => LEGACY_OK, misbehave: on('GET', '/v1/capabilities', { kind: 'huge', bytes: 100 * 1024 * 1024 }) });
    const before = process.memoryUsage().rss;
    const e = failed(await reloadWithin(home, 10000), 'bad-answer', 10000);
    assert.equal(e.message, `The Vis gateway at http://127.0.0.1:${g.port} answered GET /v1/capabilities with more than 16 MiB; the answer was dropped.`);
    assert.ok(g.streamed < 40 * 1024 * 1024, `the gateway could send ${g.streamed} bytes before the client hung up`);
    assert.ok(process.memoryUsage().rss - before < 120 * 1024 * 1024, 'not buffered whole');
  });

  it('sends an event stream without newlines: the stream is dropped, polling finishes the reload', async () => {
    const { g, home } = await setup({ protocol: 12, title: () => LEGACY_OK, turnDelayMs: 300, misbehave: on('GET', '/v1/events', { kind: 'sse-no-newlines' }) });
    const logs: string[] = [];
    const r = await reloadWithin(home, 5000, { log: (l) => logs.push(l) });
    assert.equal(r.outcome?.result.loaded, 3, String(r.error));
    assert.ok(logs.some((l) => l === 'event stream unavailable (event stream sent a line or event longer than 1048576 characters); polling'), logs.join('\n'));
    assert.ok(g.streamed < 40 * 1024 * 1024, `${g.streamed} bytes streamed`);
  });

  it('redirects: followed on the same gateway, refused to another host', async () => {
    const other = await new FakeGateway({ protocol: 12, title: () => 'other' }).start();
    gateways.push(other);
    let { home } = await setup({ protocol: 12, title: () => LEGACY_OK, misbehave: (_m, p, n) => (p === '/v1/capabilities' && n === 2 ? { kind: 'redirect', status: 307, to: '/v1/capabilities?again=1' } : undefined) });
    const ok = await reloadWithin(home, 3000);
    assert.equal(ok.outcome?.result.loaded, 3, String(ok.error));
    ({ home } = await setup({ protocol: 12, title: () => LEGACY_OK, misbehave: on('POST', '/v1/sessions', { kind: 'redirect', status: 302, to: `http://127.0.0.1:${other.port}/v1/sessions` }) }, { secret: 'tok' }));
    const e = failed(await reloadWithin(home, 3000), 'bad-answer', 3000);
    assert.match(e.message, new RegExp(`redirected POST /v1/sessions to http://127\\.0\\.0\\.1:${other.port}/v1/sessions; redirects to another host, or in a loop, are not followed \\(they would carry your gateway token\\)\\.$`));
    assert.deepEqual(other.seen, [], 'the other host got nothing (and no token)');
  });

  it('a registry entry pointing at another service, at a closed port, or at a dead process', async () => {
    const home = await tmp('vis-home-');
    const web = await new FakeGateway({ protocol: 12, title: () => '', misbehave: () => ({ kind: 'html' }) }).start();
    gateways.push(web);
    await web.register(home);
    let e = failed(await reloadWithin(home, 3000), 'no-gateway', 3000);
    assert.match(e.message, new RegExp(`^No Vis gateway is running \\(1 stale registry entry in .*: [0-9a-f]{64}\\.edn: 127\\.0\\.0\\.1:${web.port} is not a Vis gateway: /healthz answered HTML, not JSON\\)\\.$`));
    const closed = await new FakeGateway({ protocol: 12, title: () => '' }).start();
    const port = closed.port;
    await closed.register(home);
    await closed.stop();
    e = failed(await reloadWithin(home, 3000), 'no-gateway', 3000);
    assert.match(e.message, /^No Vis gateway is running \(2 stale registry entries in /);
    assert.match(e.message, new RegExp(`nothing answers on 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`));
    assert.match(e.fix, /^Start Vis in this folder/);
  });

  it('a FIFO as a registry file or as ~/.vis/gateway.token does not block discovery', { skip: process.platform === 'win32' }, async () => {
    const { home } = await setup({ protocol: 12, title: () => LEGACY_OK });
    const reg = path.join(home, '.vis', 'gateway', 'registry');
    spawnSync('mkfifo', [path.join(reg, 'fifo.edn'), path.join(home, '.vis', 'gateway.token')]);
    const t0 = Date.now();
    const found = await discoverGateways({ paths: { home } });
    assert.equal(found.live.length, 1);
    assert.deepEqual(found.problems, [`${path.join(reg, 'fifo.edn')} is a named pipe (FIFO); only regular files are read`]);
    const r = await reloadWithin(home, 3000);
    assert.equal(r.outcome?.result.loaded, 3, String(r.error));
    assert.ok(Date.now() - t0 < 3000);
  });
});
