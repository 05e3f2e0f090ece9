// Gateway client: protocol, headers, lease, one session per workspace folder, `/reload` as a turn.
// No `vscode` import: the VS Code side passes a session store and reads the outcome.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { LiveGateway, discoverGateways, pickGateway } from './discovery';
import { HostError } from './errors';
import { HttpAnswer, HttpTimeout, request, sse } from './http';
import { HostPaths, globalExtensionsDir, registryDir, tokenFile } from './paths';
import { ReloadResult, findTitle, parseReloadTitle } from './reloadResult';

/** The oldest gateway wire protocol this client can drive (Vis 0.1.41 speaks 2). */
export const MIN_GATEWAY_PROTOCOL = 2;
/** From this protocol on (Vis ≥ 0.1.56 speaks 12) `/reload` reloads the session's project only. */
export const PROJECT_SCOPED_PROTOCOL = 12;
const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'canceled', 'suspended', 'error']);
const START_VIS = 'Start Vis in this folder (run `vis-agent`, or `vis-agent gateway start`); a fresh start loads your extension files, so no reload is needed.';

export interface SessionStore {
  get(key: string): string | undefined;
  set(key: string, id: string | undefined): void | PromiseLike<void>;
}

export interface ClientOptions {
  paths: HostPaths;
  clientName?: string;
  clientVersion: string;
  /** Per HTTP request. */
  requestTimeoutMs?: number;
  /** Prefer the gateway of this database (path of vis.db or its directory). */
  preferDb?: string;
  pidAlive?: (pid: number) => boolean;
  /** The gateway process's working directory (0.1.41 reloads the project of that folder). */
  gatewayCwd?: (pid: number) => Promise<string | undefined>;
  log?: (line: string) => void;
  /** Keepalive period of the client lease (Vis N: TTL 120 s, keepalive 30 s). */
  keepaliveMs?: number;
}

export interface ReloadOptions {
  timeoutMs: number;
  /** First poll delay; doubles up to 2 s. */
  pollMs?: number;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
}

export interface ReloadOutcome {
  result: ReloadResult;
  sessionId: string;
  turnId: string;
  status: string;
  protocol: number;
  projectScoped: boolean;
  durationMs: number;
}

export async function defaultGatewayCwd(pid: number): Promise<string | undefined> {
  if (process.platform === 'linux') {
    try { return await fsp.readlink(`/proc/${pid}/cwd`); } catch { return undefined; }
  }
  if (process.platform === 'darwin') {
    return new Promise((resolve) => {
      execFile('lsof', ['-a', '-p', String(pid), '-d', 'cwd', '-Fn'], { timeout: 3000 }, (err, out) => {
        const line = err ? undefined : String(out).split('\n').find((l) => l.startsWith('n'));
        resolve(line ? line.slice(1) : undefined);
      });
    });
  }
  return undefined;
}

async function readToken(paths: HostPaths): Promise<string | undefined> {
  try {
    const t = (await fsp.readFile(tokenFile(paths), 'utf8')).trim();
    return t || undefined;
  } catch {
    return undefined;
  }
}

export class GatewayClient {
  private clientId: string | undefined;
  private keepalive: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(
    readonly gateway: LiveGateway,
    readonly protocol: number,
    readonly version: string | undefined,
    private readonly token: { value: string; source: string } | undefined,
    private readonly opts: ClientOptions,
  ) {}

  /** Finds a live gateway and learns its protocol. Throws HostError('no-gateway' | 'protocol-mismatch' | 'token-required'). */
  static async connect(opts: ClientOptions): Promise<GatewayClient> {
    const found = await discoverGateways({ paths: opts.paths, pidAlive: opts.pidAlive, timeoutMs: Math.min(opts.requestTimeoutMs ?? 10000, 3000) });
    const g = await pickGateway(found.live, opts.preferDb);
    if (!g) {
      const staleNote = found.stale.length ? ` (${found.stale.length} stale registry entr${found.stale.length === 1 ? 'y' : 'ies'} in ${registryDir(opts.paths)})` : '';
      throw new HostError('no-gateway', `No Vis gateway is running${staleNote}.`, START_VIS);
    }
    const fileToken = await readToken(opts.paths);
    const token = g.entry.secret
      ? { value: g.entry.secret, source: `the registry file ${g.entry.file}` }
      : fileToken ? { value: fileToken, source: tokenFile(opts.paths) } : undefined;
    const probe = new GatewayClient(g, 0, undefined, token, opts);
    const caps = await probe.call('GET', '/v1/capabilities');
    const capProto = caps?.protocol;
    const advertised = typeof capProto === 'number' ? capProto : Number(capProto?.protocol ?? g.healthz.protocol);
    const version = typeof capProto?.version === 'string' ? capProto.version : typeof caps?.version === 'string' ? caps.version : undefined;
    if (!Number.isInteger(advertised) || advertised <= 0) {
      throw new HostError('protocol-mismatch', `The Vis gateway at ${g.baseUrl} does not advertise its wire protocol (no protocol.protocol in /v1/capabilities).`,
        'Update Vis to a release with a versioned gateway and restart it (`vis-agent gateway stop`; the next client starts the new one).');
    }
    if (advertised < MIN_GATEWAY_PROTOCOL) {
      throw new HostError('protocol-mismatch', `The Vis gateway speaks protocol ${advertised}; this extension needs ${MIN_GATEWAY_PROTOCOL} or newer.`,
        'Update Vis (vis-agent) and restart its gateway (`vis-agent gateway stop`; the next client starts the new one).');
    }
    const client = new GatewayClient(g, advertised, version, token, opts);
    opts.log?.(`gateway ${g.baseUrl} pid ${g.entry.pid}, protocol ${advertised}${version ? `, Vis ${version}` : ''}, db ${g.healthz.db ?? g.entry.db ?? '?'}`);
    return client;
  }

  get baseUrl(): string { return this.gateway.baseUrl; }
  get projectScoped(): boolean { return this.protocol >= PROJECT_SCOPED_PROTOCOL; }
  get db(): string | undefined { return (typeof this.gateway.healthz.db === 'string' ? this.gateway.healthz.db : undefined) ?? this.gateway.entry.db; }

  /** The headers every request carries (spec §2: protocol, client identity, token, lease). */
  headers(): Record<string, string> {
    const h: Record<string, string> = {
      'X-Vis-Client': this.opts.clientName ?? 'vis-authoring-vscode',
      'X-Vis-Client-Version': this.opts.clientVersion,
      'X-Vis-Min-Gateway-Protocol': String(MIN_GATEWAY_PROTOCOL),
    };
    if (this.protocol > 0) h['X-Vis-Protocol'] = String(this.protocol);
    if (this.token) h.Authorization = `Bearer ${this.token.value}`;
    if (this.clientId) h['X-Vis-Client-Id'] = this.clientId;
    return h;
  }

  /** One JSON request; maps 426/401/403/other failures to HostError. */
  async call(method: string, route: string, body?: unknown, timeoutMs?: number): Promise<any> {
    const res = await this.raw(method, route, body, timeoutMs);
    if (res.status >= 200 && res.status < 300) return res.text ? JSON.parse(res.text) : undefined;
    throw this.failure(method, route, res);
  }

  private async raw(method: string, route: string, body?: unknown, timeoutMs?: number): Promise<HttpAnswer> {
    try {
      return await request(this.baseUrl, method, route, { headers: this.headers(), body, timeoutMs: timeoutMs ?? this.opts.requestTimeoutMs ?? 10000 });
    } catch (e) {
      if (e instanceof HttpTimeout) throw new HostError('timeout', `The Vis gateway at ${this.baseUrl} did not answer ${method} ${route} in time.`, 'It may be busy or hung: see Vis: Open Host Log, or restart it (`vis-agent gateway stop`).');
      throw new HostError('unreachable', `The Vis gateway at ${this.baseUrl} is gone (${(e as Error).message}).`, START_VIS);
    }
  }

  private failure(method: string, route: string, res: HttpAnswer): HostError {
    let body: any;
    try { body = JSON.parse(res.text); } catch { body = undefined; }
    const detail = typeof body?.error === 'string' ? body.error : typeof body?.message === 'string' ? body.message : res.text.slice(0, 200);
    if (res.status === 426) return this.protocolFailure(body, detail);
    if (res.status === 401 || res.status === 403) {
      const where = tokenFile(this.opts.paths);
      return this.token
        ? new HostError('token-required', `The Vis gateway rejected the token from ${this.token.source} (HTTP ${res.status}).`,
          `The gateway was probably started with another token (--token-file); restart it (\`vis-agent gateway stop\`) so it uses ${where}, or make the registry and ${where} current.`)
        : new HostError('token-required', `The Vis gateway requires a bearer token (HTTP ${res.status}): it was started with --require-token or listens beyond loopback.`,
          `Vis keeps the token in ${where} (mode 600) and in the registry file; make it readable by the user running VS Code.`);
    }
    return new HostError('http', `${method} ${route} answered HTTP ${res.status}${detail ? `: ${detail}` : ''}.`, 'See Vis: Open Host Log for the gateway side.');
  }

  private protocolFailure(body: any, detail: string): HostError {
    const nums: Record<string, number> = {};
    const walk = (v: any, prefix: string) => {
      if (!v || typeof v !== 'object') return;
      for (const [k, x] of Object.entries(v)) {
        if (typeof x === 'number') nums[`${prefix}${k}`.toLowerCase()] = x;
        else if (typeof x === 'object') walk(x, `${prefix}${k}.`);
      }
    };
    walk(body, '');
    const minClient = Object.entries(nums).find(([k]) => /min/.test(k) && /client/.test(k))?.[1];
    const gatewayProto = Object.entries(nums).find(([k]) => /protocol/.test(k) && !/min|client/.test(k))?.[1];
    const sent = this.protocol || 'none';
    const msg = `The Vis gateway refused this client's protocol ${sent} (HTTP 426 ${detail || 'incompatible_protocol'}${gatewayProto ? `; gateway protocol ${gatewayProto}` : ''}${minClient ? `; needs client protocol ≥ ${minClient}` : ''}).`;
    const clientBehind = (minClient !== undefined && typeof sent === 'number' && minClient > sent) || (gatewayProto !== undefined && typeof sent === 'number' && gatewayProto > sent);
    const gatewayBehind = (gatewayProto !== undefined && typeof sent === 'number' && gatewayProto < sent);
    const fix = clientBehind
      ? 'The gateway is newer than this extension: update the Vis Authoring extension.'
      : gatewayBehind
        ? 'The gateway is older than this extension: update Vis (vis-agent) and restart its gateway (`vis-agent gateway stop`).'
        : 'Update whichever side is older: the Vis Authoring extension, or Vis (vis-agent) followed by `vis-agent gateway stop` so a new gateway starts.';
    return new HostError('protocol-mismatch', msg, fix);
  }

  /** Holds a client lease so a managed gateway does not stop while VS Code uses it (optional in Vis). */
  async lease(): Promise<void> {
    if (this.clientId || this.closed) return;
    const res = await this.raw('POST', '/v1/clients', { kind: 'vscode', pid: process.pid });
    if (res.status === 404 || res.status === 405) return; // no lease route: nothing to hold
    if (res.status < 200 || res.status >= 300) throw this.failure('POST', '/v1/clients', res);
    const body = JSON.parse(res.text || '{}');
    this.clientId = typeof body.client_id === 'string' ? body.client_id : undefined;
    if (this.clientId) {
      this.keepalive = setInterval(() => { void this.raw('GET', '/v1/capabilities').catch(() => undefined); }, this.opts.keepaliveMs ?? 30000);
      this.keepalive.unref();
    }
  }

  get leaseId(): string | undefined { return this.clientId; }

  /** Releases the lease. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.keepalive) clearInterval(this.keepalive);
    const cid = this.clientId;
    this.clientId = undefined;
    if (cid) await this.raw('DELETE', `/v1/clients/${encodeURIComponent(cid)}`, undefined, 3000).catch(() => undefined);
  }

  private sessionKey(root: string): string {
    return `${this.db ?? this.baseUrl}::${root}`;
  }

  /** The dedicated session of a workspace folder: reused, created when missing. */
  async session(root: string, store: SessionStore): Promise<{ id: string; seq: number }> {
    const key = this.sessionKey(root);
    const known = store.get(key);
    if (known) {
      const res = await this.raw('GET', `/v1/sessions/${encodeURIComponent(known)}/seq`);
      if (res.status === 200) return { id: known, seq: Number(JSON.parse(res.text).seq ?? 0) };
      if (res.status !== 404 && res.status !== 410) throw this.failure('GET', `/v1/sessions/${known}/seq`, res);
      this.opts.log?.(`session ${known} is gone; creating a new one`);
    }
    const created = await this.call('POST', '/v1/sessions', { root, channel: 'api', title: 'VS Code: extension control' });
    const id = String(created?.id ?? created?.session_id ?? '');
    if (!id) throw new HostError('http', 'POST /v1/sessions answered without a session id.', 'See Vis: Open Host Log for the gateway side.');
    await store.set(key, id);
    const seq = await this.call('GET', `/v1/sessions/${encodeURIComponent(id)}/seq`);
    return { id, seq: Number(seq?.seq ?? 0) };
  }

  /** Refuses a 0.1.41-style (gateway-global) reload when the gateway runs in another project folder. */
  async checkProject(root: string): Promise<void> {
    if (this.projectScoped) return;
    const cwd = await (this.opts.gatewayCwd ?? defaultGatewayCwd)(this.gateway.entry.pid);
    if (!cwd) return;
    const real = async (p: string) => fsp.realpath(p).catch(() => path.resolve(p));
    const [a, b] = [await real(cwd), await real(root)];
    if (a === b) return;
    const hasProjectExtensions = await fsp.stat(path.join(root, '.vis', 'extensions')).then((s) => s.isDirectory(), () => false);
    if (!hasProjectExtensions) return;
    throw new HostError('wrong-project',
      `The running Vis gateway (pid ${this.gateway.entry.pid}, protocol ${this.protocol}) was started in ${cwd}: its /reload rescans ${path.join(cwd, '.vis', 'extensions')} and ${globalExtensionsDir(this.opts.paths)}, not ${path.join(root, '.vis', 'extensions')}.`,
      `Stop it (\`vis-agent gateway stop\`) and start Vis from ${root}; this Vis takes the project folder from the client that starts its gateway.`);
  }

  /** Sends `/reload` as a turn into the folder's session and waits for its title. */
  async reload(root: string, store: SessionStore, o: ReloadOptions): Promise<ReloadOutcome> {
    const started = Date.now();
    await this.checkProject(root);
    await this.lease();
    const { id: sid, seq } = await this.session(root, store);
    o.onProgress?.('submitting /reload');
    const turn = await this.call('POST', `/v1/sessions/${encodeURIComponent(sid)}/turns`, { request: '/reload', idempotency_key: `vscode-${randomUUID()}` });
    const tid = String(turn?.turn_id ?? turn?.id ?? '');
    if (!tid) throw new HostError('http', 'The gateway accepted /reload without a turn id.', 'See Vis: Open Host Log for the gateway side.');
    o.onProgress?.(turn?.status === 'queued' ? 'queued behind a running turn' : 'reloading');
    const record = await this.waitTurn(sid, tid, seq, o, started);
    const status = String(record?.status ?? '');
    const title = findTitle(record);
    if (status !== 'completed') {
      throw new HostError('turn-failed', `The /reload turn ended "${status}"${title ? `: ${title}` : ''}.`, 'See Vis: Open Host Log for the reason.');
    }
    if (!title) throw new HostError('turn-failed', 'The /reload turn completed without a title to read.', 'See Vis: Open Host Log; the gateway may be a Vis version whose reply this extension does not know.');
    return { result: parseReloadTitle(title), sessionId: sid, turnId: tid, status, protocol: this.protocol, projectScoped: this.projectScoped, durationMs: Date.now() - started };
  }

  private async waitTurn(sid: string, tid: string, seq: number, o: ReloadOptions, started: number): Promise<any> {
    const route = `/v1/sessions/${encodeURIComponent(sid)}/turns/${encodeURIComponent(tid)}`;
    const stop = new AbortController();
    const abortOuter = () => stop.abort();
    o.signal?.addEventListener('abort', abortOuter);
    let wake: (() => void) | undefined;
    // Events make the wait prompt; polling is the fallback and the source of truth.
    void sse(this.baseUrl, `/v1/events?sids=${encodeURIComponent(`${sid}:${seq}`)}`, this.headers(), (e) => {
      if (!/^turn\./.test(e.event)) return;
      try {
        const d = JSON.parse(e.data);
        const id = d?.turn_id ?? d?.turn?.turn_id ?? d?.id;
        if (id === undefined || String(id) === tid) wake?.();
      } catch {
        wake?.();
      }
    }, stop.signal).catch((err) => this.opts.log?.(`event stream unavailable (${(err as Error).message}); polling`));
    try {
      let delay = o.pollMs ?? 250;
      for (;;) {
        const rec = await this.call('GET', route);
        const status = String(rec?.status ?? '');
        if (TERMINAL.has(status)) return rec;
        const left = o.timeoutMs - (Date.now() - started);
        if (o.signal?.aborted) throw new HostError('timeout', 'The reload was cancelled before Vis answered.', 'Run Vis: Reload Vis Extensions again.');
        if (left <= 0) {
          throw new HostError('timeout', `/reload did not finish within ${Math.round(o.timeoutMs / 1000)} s (turn ${tid} is "${status}").`,
            'Vis may still be preparing packages (newer Vis runs uv on reload): see Vis: Open Host Log, and raise visAuthoring.host.reloadTimeoutSeconds if reloads are slow.');
        }
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.min(delay, left));
          wake = () => { clearTimeout(t); resolve(); };
        });
        wake = undefined;
        delay = Math.min(delay * 2, 2000);
      }
    } finally {
      stop.abort();
      o.signal?.removeEventListener('abort', abortOuter);
    }
  }
}
