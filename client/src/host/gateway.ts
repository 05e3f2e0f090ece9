// Gateway client: protocol, headers, lease, one session per workspace folder, `/reload` as a turn.
// No `vscode` import: the VS Code side passes a session store and reads the outcome.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { t } from '../l10n';
import { LiveGateway, discoverGateways, pickGateway, readTokenFile } from './discovery';
import { HostError } from './errors';
import { HttpAnswer, HttpError, MAX_BODY, request, sse } from './http';
import { HostPaths, globalExtensionsDir, registryDir, tokenFile } from './paths';
import { ReloadResult, findTitle, parseReloadTitle } from './reloadResult';

/** The oldest gateway wire protocol this client can drive (Vis 0.1.41 speaks 2). */
export const MIN_GATEWAY_PROTOCOL = 2;
/** From this protocol on (Vis ≥ 0.1.56 speaks 12) `/reload` reloads the session's project only. */
export const PROJECT_SCOPED_PROTOCOL = 12;
const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'canceled', 'suspended', 'error']);
const START_VIS = () => t('Start Vis in this folder (run `vis-agent`, or `vis-agent gateway start`); a fresh start loads your extension files, so no reload is needed.');
const SEE_LOG = () => t('See Vis: Open Host Log for the gateway side.');
/** Default per-request timeout; every request is also held to the deadline of the operation it serves. */
const REQUEST_TIMEOUT_MS = 10000;

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

/**
 * One operation (a reload, with the connect before it): one deadline for all of its requests, so
 * a gateway that answers each request just in time cannot stretch it, and the user's cancel.
 */
export interface Operation {
  /** Absolute time (Date.now()) by which the operation must be done. */
  deadline: number;
  /** Its whole budget, for messages. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export function operation(timeoutMs: number, signal?: AbortSignal): Operation {
  return { deadline: Date.now() + timeoutMs, timeoutMs, signal };
}

export interface ReloadOptions {
  timeoutMs: number;
  /** The operation this reload belongs to (its deadline); default: one of `timeoutMs` from now. */
  op?: Operation;
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

/** Seconds for a message: one decimal below 10 s. */
function seconds(ms: number): string {
  return ms < 10000 ? String(Math.round(ms / 100) / 10) : String(Math.round(ms / 1000));
}

function timeoutError(op: Operation, waiting: string): HostError {
  return new HostError('timeout', t('/reload did not finish within {0} s (waiting for {1}).', seconds(op.timeoutMs), waiting),
    t('Vis may still be preparing packages (newer Vis runs uv on reload): see Vis: Open Host Log, and raise visAuthoring.host.reloadTimeoutSeconds if reloads are slow.'));
}

function cancelled(): HostError {
  return new HostError('timeout', t('The reload was cancelled before Vis answered.'), t('Run Vis: Reload Vis Extensions again.'));
}

/** What a body is, for a message: HTML, empty, or the start of it. */
function describeBody(text: string): string {
  const all = text.trim().replace(/\s+/g, ' ');
  if (!all) return t('an empty body');
  const head = all.length > 80 ? `${all.slice(0, 80).trimEnd()}…` : all;
  return /^</.test(head) ? t('HTML ({0})', head) : t('`{0}`', head);
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

  /** Finds a live gateway and learns its protocol. Throws HostError('no-gateway' | 'protocol-mismatch' | 'token-required' | ...). */
  static async connect(opts: ClientOptions, op?: Operation): Promise<GatewayClient> {
    const left = op ? op.deadline - Date.now() : Infinity;
    if (op?.signal?.aborted) throw cancelled();
    if (op && left <= 0) throw timeoutError(op, t('the gateway registry'));
    const found = await discoverGateways({ paths: opts.paths, pidAlive: opts.pidAlive, timeoutMs: Math.max(1, Math.min(opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS, 3000, left)) });
    const g = await pickGateway(found.live, opts.preferDb);
    if (!g) {
      const n = found.stale.length;
      const reasons = found.stale.slice(0, 3).map((e) => `${path.basename(e.file)}: ${e.why}`).join('; ');
      const staleNote = n === 0 ? '' : n === 1
        ? t(' (1 stale registry entry in {0}: {1})', registryDir(opts.paths), reasons)
        : t(' ({0} stale registry entries in {1}: {2})', n, registryDir(opts.paths), reasons);
      throw new HostError('no-gateway', t('No Vis gateway is running{0}.', staleNote), START_VIS());
    }
    const fileToken = g.entry.secret ? undefined : await readTokenFile(tokenFile(opts.paths));
    const token = g.entry.secret
      ? { value: g.entry.secret, source: t('the registry file {0}', g.entry.file) }
      : fileToken ? { value: fileToken, source: tokenFile(opts.paths) } : undefined;
    const probe = new GatewayClient(g, 0, undefined, token, opts);
    const caps = await probe.call('GET', '/v1/capabilities', undefined, op);
    const capProto = caps?.protocol;
    const advertised = typeof capProto === 'number' ? capProto : Number(capProto?.protocol ?? g.healthz.protocol);
    const version = typeof capProto?.version === 'string' ? capProto.version : typeof caps?.version === 'string' ? caps.version : undefined;
    if (!Number.isInteger(advertised) || advertised <= 0) {
      throw new HostError('protocol-mismatch', t('The Vis gateway at {0} does not advertise its wire protocol (no protocol.protocol in /v1/capabilities).', g.baseUrl),
        t('Update Vis to a release with a versioned gateway and restart it (`vis-agent gateway stop`; the next client starts the new one).'));
    }
    if (advertised < MIN_GATEWAY_PROTOCOL) {
      throw new HostError('protocol-mismatch', t('The Vis gateway speaks protocol {0}; this extension needs {1} or newer.', advertised, MIN_GATEWAY_PROTOCOL),
        t('Update Vis (vis-agent) and restart its gateway (`vis-agent gateway stop`; the next client starts the new one).'));
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

  /** One JSON request; maps 426/401/403/other failures, and answers that are not JSON, to HostError. */
  async call(method: string, route: string, body?: unknown, op?: Operation): Promise<any> {
    const res = await this.raw(method, route, body, op);
    if (res.status >= 200 && res.status < 300) return this.json(method, route, res);
    throw this.failure(method, route, res);
  }

  /** The JSON of a 2xx answer (an empty body is undefined). */
  private json(method: string, route: string, res: HttpAnswer): any {
    if (!res.text.trim()) return undefined;
    try {
      return JSON.parse(res.text);
    } catch {
      throw new HostError('bad-answer', t('The Vis gateway at {0} answered {1} {2} with {3}, not JSON.', this.baseUrl, method, route, describeBody(res.text)),
        this.otherService());
    }
  }

  private otherService(): string {
    return t('A Vis gateway answers in JSON: another program may be listening on port {0}, where the registry file {1} points. Stop Vis (`vis-agent gateway stop`) and start it again so the registry is rewritten.',
      this.gateway.entry.port, this.gateway.entry.file);
  }

  private async raw(method: string, route: string, body?: unknown, op?: Operation, timeoutMs?: number): Promise<HttpAnswer> {
    const per = timeoutMs ?? this.opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
    const left = op ? op.deadline - Date.now() : Infinity;
    if (op?.signal?.aborted) throw cancelled();
    if (op && left <= 0) throw timeoutError(op, `${method} ${route}`);
    const limit = Math.min(per, left);
    try {
      return await request(this.baseUrl, method, route, { headers: this.headers(), body, timeoutMs: limit, signal: op?.signal });
    } catch (e) {
      const kind = e instanceof HttpError ? e.kind : 'network';
      if (kind === 'aborted') throw cancelled();
      if (kind === 'timeout') {
        if (op && limit === left) throw timeoutError(op, `${method} ${route}`);
        throw new HostError('timeout', t('The Vis gateway at {0} did not answer {1} {2} within {3} s.', this.baseUrl, method, route, seconds(limit)),
          t('It may be busy or hung: see Vis: Open Host Log, or restart it (`vis-agent gateway stop`).'));
      }
      if (kind === 'too-large') {
        throw new HostError('bad-answer', t('The Vis gateway at {0} answered {1} {2} with more than {3} MiB; the answer was dropped.', this.baseUrl, method, route, MAX_BODY / 1048576), this.otherService());
      }
      if (kind === 'redirect') {
        const to = (e as HttpError).location ?? '?';
        throw new HostError('bad-answer', t('The Vis gateway at {0} redirected {1} {2} to {3}; redirects to another host, or in a loop, are not followed (they would carry your gateway token).', this.baseUrl, method, route, to),
          this.otherService());
      }
      if (kind === 'closed') {
        throw new HostError('unreachable', t('The Vis gateway at {0} closed the connection in the middle of its answer to {1} {2}.', this.baseUrl, method, route),
          t('It may have crashed or restarted: see Vis: Open Host Log, then run Vis: Reload Vis Extensions again.'));
      }
      throw new HostError('unreachable', t('The Vis gateway at {0} is gone ({1}).', this.baseUrl, (e as Error).message), START_VIS());
    }
  }

  private failure(method: string, route: string, res: HttpAnswer): HostError {
    let body: any;
    try { body = JSON.parse(res.text); } catch { body = undefined; }
    const detail = typeof body?.error === 'string' ? body.error : typeof body?.message === 'string' ? body.message : body === undefined && /^\s*</.test(res.text) ? '' : res.text.slice(0, 200);
    if (res.status === 426) return this.protocolFailure(body, detail);
    if (res.status === 401 || res.status === 403) {
      const where = tokenFile(this.opts.paths);
      return this.token
        ? new HostError('token-required', t('The Vis gateway rejected the token from {0} (HTTP {1}).', this.token.source, res.status),
          t('The gateway was probably started with another token (--token-file); restart it (`vis-agent gateway stop`) so it uses {0}, or make the registry and {0} current.', where))
        : new HostError('token-required', t('The Vis gateway requires a bearer token (HTTP {0}): it was started with --require-token or listens beyond loopback.', res.status),
          t('Vis keeps the token in {0} (mode 600) and in the registry file; make it readable by the user running VS Code.', where));
    }
    const what = detail ? `: ${detail}` : body === undefined && res.text.trim() ? `: ${describeBody(res.text)}` : '';
    if (res.status >= 500) {
      return new HostError('http', t('The Vis gateway failed on {0} {1} (HTTP {2}{3}).', method, route, res.status, what),
        t('This is a fault inside Vis: see Vis: Open Host Log; restarting its gateway (`vis-agent gateway stop`) usually clears it.'));
    }
    if (res.status >= 300 && res.status < 400) {
      return new HostError('bad-answer', t('The Vis gateway at {0} answered {1} {2} with a redirect (HTTP {3}) without a location.', this.baseUrl, method, route, res.status), this.otherService());
    }
    return new HostError('http', t('{0} {1} answered HTTP {2}{3}.', method, route, res.status, what), SEE_LOG());
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
    const msg = t("The Vis gateway refused this client's protocol {0} (HTTP 426 {1}{2}{3}).", sent, detail || 'incompatible_protocol',
      gatewayProto ? t('; gateway protocol {0}', gatewayProto) : '', minClient ? t('; needs client protocol ≥ {0}', minClient) : '');
    const clientBehind = (minClient !== undefined && typeof sent === 'number' && minClient > sent) || (gatewayProto !== undefined && typeof sent === 'number' && gatewayProto > sent);
    const gatewayBehind = (gatewayProto !== undefined && typeof sent === 'number' && gatewayProto < sent);
    const fix = clientBehind
      ? t('The gateway is newer than this extension: update the Vis Authoring extension.')
      : gatewayBehind
        ? t('The gateway is older than this extension: update Vis (vis-agent) and restart its gateway (`vis-agent gateway stop`).')
        : t('Update whichever side is older: the Vis Authoring extension, or Vis (vis-agent) followed by `vis-agent gateway stop` so a new gateway starts.');
    return new HostError('protocol-mismatch', msg, fix);
  }

  /** Holds a client lease so a managed gateway does not stop while VS Code uses it (optional in Vis). */
  async lease(op?: Operation): Promise<void> {
    if (this.clientId || this.closed) return;
    const res = await this.raw('POST', '/v1/clients', { kind: 'vscode', pid: process.pid }, op);
    if (res.status === 404 || res.status === 405) return; // no lease route: nothing to hold
    if (res.status < 200 || res.status >= 300) throw this.failure('POST', '/v1/clients', res);
    const body = this.json('POST', '/v1/clients', res);
    this.clientId = typeof body?.client_id === 'string' ? body.client_id : undefined;
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
    if (cid) await this.raw('DELETE', `/v1/clients/${encodeURIComponent(cid)}`, undefined, undefined, 3000).catch(() => undefined);
  }

  private sessionKey(root: string): string {
    return `${this.db ?? this.baseUrl}::${root}`;
  }

  /** The dedicated session of a workspace folder: reused, created when missing. */
  async session(root: string, store: SessionStore, op?: Operation): Promise<{ id: string; seq: number }> {
    const key = this.sessionKey(root);
    const known = store.get(key);
    if (known) {
      const route = `/v1/sessions/${encodeURIComponent(known)}/seq`;
      const res = await this.raw('GET', route, undefined, op);
      if (res.status === 200) return { id: known, seq: Number(this.json('GET', route, res)?.seq ?? 0) || 0 };
      if (res.status !== 404 && res.status !== 410) throw this.failure('GET', route, res);
      this.opts.log?.(`session ${known} is gone; creating a new one`);
    }
    const created = await this.call('POST', '/v1/sessions', { root, channel: 'api', title: 'VS Code: extension control' }, op);
    const id = String(created?.id ?? created?.session_id ?? '');
    if (!id) throw new HostError('http', t('POST /v1/sessions answered without a session id.'), SEE_LOG());
    await store.set(key, id);
    const seq = await this.call('GET', `/v1/sessions/${encodeURIComponent(id)}/seq`, undefined, op);
    return { id, seq: Number(seq?.seq ?? 0) || 0 };
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
      t('The running Vis gateway (pid {0}, protocol {1}) was started in {2}: its /reload rescans {3} and {4}, not {5}.',
        this.gateway.entry.pid, this.protocol, cwd, path.join(cwd, '.vis', 'extensions'), globalExtensionsDir(this.opts.paths), path.join(root, '.vis', 'extensions')),
      t('Stop it (`vis-agent gateway stop`) and start Vis from {0}; this Vis takes the project folder from the client that starts its gateway.', root));
  }

  /** Sends `/reload` as a turn into the folder's session and waits for its title, all within one deadline. */
  async reload(root: string, store: SessionStore, o: ReloadOptions): Promise<ReloadOutcome> {
    const started = Date.now();
    const op = o.op ?? operation(o.timeoutMs, o.signal);
    await this.checkProject(root);
    await this.lease(op);
    const { id: sid, seq } = await this.session(root, store, op);
    o.onProgress?.(t('submitting /reload'));
    const turn = await this.call('POST', `/v1/sessions/${encodeURIComponent(sid)}/turns`, { request: '/reload', idempotency_key: `vscode-${randomUUID()}` }, op);
    const tid = String(turn?.turn_id ?? turn?.id ?? '');
    if (!tid) throw new HostError('http', t('The gateway accepted /reload without a turn id.'), SEE_LOG());
    o.onProgress?.(turn?.status === 'queued' ? t('queued behind a running turn') : t('reloading'));
    const record = await this.waitTurn(sid, tid, seq, { ...o, submitted: String(turn?.status ?? 'submitted') }, op);
    const status = String(record?.status ?? '');
    const title = findTitle(record);
    if (status !== 'completed') {
      throw new HostError('turn-failed', t('The /reload turn ended "{0}"{1}.', status, title ? `: ${title}` : ''), t('See Vis: Open Host Log for the reason.'));
    }
    if (!title) throw new HostError('turn-failed', t('The /reload turn completed without a title to read.'), t('See Vis: Open Host Log; the gateway may be a Vis version whose reply this extension does not know.'));
    return { result: parseReloadTitle(title), sessionId: sid, turnId: tid, status, protocol: this.protocol, projectScoped: this.projectScoped, durationMs: Date.now() - started };
  }

  private async waitTurn(sid: string, tid: string, seq: number, o: ReloadOptions & { submitted?: string }, op: Operation): Promise<any> {
    const route = `/v1/sessions/${encodeURIComponent(sid)}/turns/${encodeURIComponent(tid)}`;
    const stop = new AbortController();
    const abortOuter = () => stop.abort();
    op.signal?.addEventListener('abort', abortOuter);
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
      let status = String(o.submitted ?? 'submitted');
      for (;;) {
        let rec: any;
        try {
          rec = await this.call('GET', route, undefined, op);
        } catch (e) {
          // Out of time while asking: say where the turn was, not which request was cut.
          if (e instanceof HostError && e.code === 'timeout' && Date.now() >= op.deadline) throw timeoutError(op, t('turn {0}, still "{1}"', tid, status));
          throw e;
        }
        status = String(rec?.status ?? '');
        if (TERMINAL.has(status)) return rec;
        const left = op.deadline - Date.now();
        if (op.signal?.aborted) throw cancelled();
        if (left <= 0) throw timeoutError(op, t('turn {0}, still "{1}"', tid, status));
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(delay, left));
          wake = () => { clearTimeout(timer); resolve(); };
        });
        wake = undefined;
        delay = Math.min(delay * 2, 2000);
      }
    } finally {
      stop.abort();
      op.signal?.removeEventListener('abort', abortOuter);
    }
  }
}
