// Misbehaving gateways: a loopback fake gateway (test/host/fakeGateway.ts) that, on one or two
// routes, cuts the connection mid-answer, answers HTML, invalid JSON or nothing, fails with a 4xx
// or 5xx, drips, answers late or never, sends a body of tens of MB or an event stream without
// newlines, or redirects (on the same gateway, to another host, in a loop); with registries that
// also hold a FIFO, a huge file, junk EDN, a dead process, a closed port or a port of another
// service, and tokens that are right, wrong, missing or a FIFO. Connect + /reload must end in an
// outcome or a HostError with a message and a fix, within the reload timeout, with no unhandled
// rejection (the worker reports those).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { HostError } from '../../client/src/host/errors';
import { GatewayClient, SessionStore, operation } from '../../client/src/host/gateway';
import { FakeGateway, LEGACY_FAILED, LEGACY_OK, Misbehaviour, N_FAILED } from '../../test/host/fakeGateway';
import type { Rng } from '../rng';
import type { FuzzTarget } from '../target';

interface Ctx { work: string; webPort: number; closedPort: number; deadPid: number; n: number; web: http.Server }

const ROUTES: [string, RegExp][] = [
  ['GET', /^\/healthz$/], ['GET', /^\/v1\/capabilities$/], ['POST', /^\/v1\/clients$/], ['POST', /^\/v1\/sessions$/],
  ['GET', /^\/v1\/sessions\/[^/]+\/seq$/], ['POST', /^\/v1\/sessions\/[^/]+\/turns$/], ['GET', /^\/v1\/sessions\/[^/]+\/turns\/[^/]+$/], ['GET', /^\/v1\/events$/],
];

function misbehaviour(rng: Rng, ctx: Ctx): Misbehaviour {
  switch (rng.int(12)) {
    case 0: return { kind: 'close-mid' };
    case 1: return { kind: 'html' };
    case 2: return { kind: 'invalid-json' };
    case 3: return { kind: 'empty' };
    case 4: return { kind: 'status', status: rng.pick([400, 401, 403, 404, 410, 426, 500, 502, 503]), body: rng.pick(['{"error": "boom"}', '<html>oops</html>', '', '{"protocol": 1}', 'null']) };
    case 5: return { kind: 'drip', everyMs: rng.pick([20, 100]) };
    case 6: return { kind: 'huge', bytes: rng.pick([17, 40, 100]) * 1024 * 1024 };
    case 7: return { kind: 'sse-no-newlines' };
    case 8: return { kind: 'redirect', status: rng.pick([301, 302, 303, 307, 308]), to: rng.pick(['/v1/capabilities', `http://127.0.0.1:${ctx.webPort}/`, 'http://example.invalid/', '/healthz?again', '::not a url::']) };
    case 9: return { kind: 'slow', delayMs: rng.range(50, 1500) };
    case 10: return { kind: 'hang' };
    default: return { kind: 'status', status: 200, body: rng.pick(['[]', '{}', '{"turn_id": 7}', '{"status": "failed"}', '{"seq": "x"}']) };
  }
}

class MemoryStore implements SessionStore {
  map = new Map<string, string>();
  get(k: string) { return this.map.get(k); }
  set(k: string, v: string | undefined) { if (v) this.map.set(k, v); else this.map.delete(k); }
}

async function junk(rng: Rng, ctx: Ctx, home: string): Promise<void> {
  const reg = path.join(home, '.vis', 'gateway', 'registry');
  fs.mkdirSync(reg, { recursive: true });
  const entry = (pid: number, port: number) => `{:pid ${pid} :port ${port} :host "127.0.0.1" :db "/nowhere/${rng.int(1e9)}" :created-at #inst "2020-01-01T00:00:00.000-00:00"}`;
  for (let n = rng.range(0, 3); n > 0; n--) {
    const file = path.join(reg, `junk-${n}.edn`);
    switch (rng.int(6)) {
      case 0: spawnSync('mkfifo', [file]); break;
      case 1: fs.writeFileSync(file, `{:pid 1 :port 1 :note "${'x'.repeat(200_000)}"}`); break;
      case 2: fs.writeFileSync(file, rng.pick(['{:pid', '[]', '#inst "x"', '{:pid "one" :port 2}', '\u0000\u0001'])); break;
      case 3: fs.writeFileSync(file, entry(ctx.deadPid, 7890)); break;
      case 4: fs.writeFileSync(file, entry(process.pid, ctx.closedPort)); break;
      default: fs.writeFileSync(file, entry(process.pid, ctx.webPort));
    }
  }
}

const target: FuzzTarget<Ctx> = {
  name: 'gateway',
  about: 'misbehaving gateways, registries and tokens through connect + /reload',
  count: 200,
  quickCount: 8,
  slowMs: 4000,
  hangMs: 15000,
  rssLimitMb: 1024,
  async setup(work) {
    const web = http.createServer((_req, res) => { res.writeHead(200, { 'Content-Type': 'text/html' }); res.end('<!doctype html><title>another service</title>'); });
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    return { work, web, webPort: (web.address() as AddressInfo).port, closedPort, deadPid: spawnSync(process.execPath, ['-e', '0']).pid!, n: 0 };
  },
  async teardown(ctx) {
    ctx.web.closeAllConnections();
    await new Promise<void>((r) => ctx.web.close(() => r()));
  },
  async run(ctx, rng) {
    const home = path.join(ctx.work, `home-${ctx.n++}`);
    const bad = Array.from({ length: rng.range(1, 2) }, () => ({ route: rng.pick(ROUTES), b: misbehaviour(rng, ctx), nth: rng.chance(0.5) ? 0 : rng.range(1, 3) }));
    const seen = new Map<string, number>();
    const token = rng.chance(0.3) ? 'tok-1' : undefined;
    const g = await new FakeGateway({
      protocol: rng.pick([2, 12]),
      version: '0.1.56',
      requireToken: token,
      title: () => rng.pick([LEGACY_OK, LEGACY_FAILED, N_FAILED, 'something else']),
      turnDelayMs: rng.pick([10, 100, 400]),
      events: rng.chance(0.8),
      misbehave: (method, p) => {
        for (const { route: [m, re], b, nth } of bad) {
          if (m !== method || !re.test(p)) continue;
          const k = `${m} ${re.source}`;
          const count = (seen.get(k) ?? 0) + 1;
          seen.set(k, count);
          if (nth === 0 || nth === count) return b;
        }
        return undefined;
      },
    }).start();
    await g.register(home, { secret: token && rng.chance(0.5) ? rng.pick([token, 'wrong']) : undefined });
    if (token && rng.chance(0.5)) fs.writeFileSync(path.join(home, '.vis', 'gateway.token'), rng.pick([token, 'wrong', '']));
    else if (rng.chance(0.1)) spawnSync('mkfifo', [path.join(home, '.vis', 'gateway.token')]);
    await junk(rng, ctx, home);

    const timeoutMs = rng.range(600, 2000);
    const op = operation(timeoutMs);
    const t0 = Date.now();
    let outcome: string;
    let finding: string | undefined;
    let client: GatewayClient | undefined;
    try {
      client = await GatewayClient.connect({ paths: { home, env: {} }, clientVersion: '0.0.0-fuzz', requestTimeoutMs: rng.pick([300, 1000, 10000]) }, op);
      const r = await client.reload(process.cwd(), new MemoryStore(), { timeoutMs, op, pollMs: 20 });
      outcome = r.result.recognized ? 'reloaded' : 'reloaded, title not recognized';
    } catch (e) {
      if (!(e instanceof HostError)) throw e;
      if (!e.message || !e.fix) finding = `a HostError without a message or a fix: ${JSON.stringify(e)}`;
      outcome = `error: ${e.code}`;
    } finally {
      await g.stop();
      await client?.close();
    }
    const ms = Date.now() - t0;
    if (ms > timeoutMs + 1500) finding ??= `took ${ms} ms with a ${timeoutMs} ms reload timeout`;
    fs.rmSync(home, { recursive: true, force: true });
    return { outcome, finding };
  },
};
export default target;
