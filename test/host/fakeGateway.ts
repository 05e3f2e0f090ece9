// A loopback stand-in for a Vis gateway, speaking the routes and headers of shared/spec/vis-host.md §2
// for either protocol generation. Bound to 127.0.0.1 on an ephemeral port; it answers at most
// MAX_REQUESTS requests and every turn ends by itself, so a test can never loop on it for long.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

/** What a misbehaving gateway does instead of answering a request. */
export type Misbehaviour =
  | { kind: 'close-mid' } // headers and part of the body, then the connection is cut
  | { kind: 'html' } // 200 with an HTML page
  | { kind: 'invalid-json' } // 200 application/json that is not JSON
  | { kind: 'empty' } // 200 with no body
  | { kind: 'status'; status: number; body?: string }
  | { kind: 'drip'; everyMs: number } // one byte at a time, never finishing
  | { kind: 'huge'; bytes: number } // a body of that size, streamed
  | { kind: 'sse-no-newlines' } // an event stream that never ends a line
  | { kind: 'redirect'; status: number; to: string }
  | { kind: 'slow'; delayMs: number } // the normal answer, late
  | { kind: 'hang' }; // accept the request, never answer

export interface FakeOptions {
  protocol: number;
  version?: string;
  /** When set, every non-open route needs `Authorization: Bearer <token>`. */
  requireToken?: string;
  /** 426 for clients that send a lower X-Vis-Protocol than this (default: the gateway's own). */
  minClientProtocol?: number;
  /** Omit protocol.protocol from /v1/capabilities. */
  capabilitiesWithoutProtocol?: boolean;
  /** The prose title of a /reload turn, per session root. */
  title: (root: string) => string;
  turnDelayMs?: number;
  /** Serve /v1/events (default true). */
  events?: boolean;
  db?: string;
  /** Misbehave on some requests (checked before the route answers; undefined: answer normally). */
  misbehave?: (method: string, path: string, n: number) => Misbehaviour | undefined;
}

export interface Seen {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body?: any;
}

const MAX_REQUESTS = 500;
const OPEN = new Set(['/healthz', '/readyz', '/v1/capabilities']);

export class FakeGateway {
  readonly seen: Seen[] = [];
  readonly sessions = new Map<string, { root: string; seq: number }>();
  readonly turns = new Map<string, any>();
  readonly leases = new Set<string>();
  private server = http.createServer((req, res) => this.handle(req, res));
  private streams = new Set<{ sid: string; res: http.ServerResponse }>();
  private timers = new Set<NodeJS.Timeout>();
  private n = 0;
  port = 0;
  /** Bytes written to streams that misbehave by size (huge bodies, newline-less events), until the client hung up. */
  streamed = 0;

  constructor(readonly opts: FakeOptions) {}

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    for (const s of this.streams) s.res.end();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Writes this gateway's registry file into a fake home, as Vis does. */
  async register(home: string, extra: { pid?: number; secret?: string; db?: string } = {}): Promise<string> {
    const dir = path.join(home, '.vis', 'gateway', 'registry');
    await fsp.mkdir(dir, { recursive: true });
    const db = extra.db ?? this.opts.db ?? path.join(home, '.vis', 'vis.mdb');
    const file = path.join(dir, `${createHash('sha256').update(db + this.port).digest('hex')}.edn`);
    const secret = extra.secret === undefined ? '' : ` :secret "${extra.secret}"`;
    await fsp.writeFile(file, `{:pid ${extra.pid ?? process.pid} :port ${this.port} :host "127.0.0.1"${secret} :db "${db}" :created-at #inst "2026-08-22T10:00:00.000-00:00"}\n`);
    return file;
  }

  routes(): string[] {
    return this.seen.map((s) => `${s.method} ${s.path.replace(/\?.*$/, '')}`);
  }

  private json(res: http.ServerResponse, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any;
      try { body = raw ? JSON.parse(raw) : undefined; } catch { body = raw; }
      const url = new URL(req.url ?? '/', 'http://x');
      this.seen.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers, body });
      if (++this.n > MAX_REQUESTS) return this.json(res, 503, { error: 'too many requests for a test' });
      const bad = this.opts.misbehave?.(req.method ?? '', url.pathname, this.n);
      if (bad) return this.misbehave(bad, req, url, body, res);
      this.route(req.method ?? '', url, req.headers, body, res);
    });
  }

  private route(method: string, url: URL, h: http.IncomingHttpHeaders, body: any, res: http.ServerResponse): void {
    const o = this.opts;
    const p = url.pathname;
    if (method === 'GET' && p === '/healthz') {
      return this.json(res, 200, { status: 'ok', protocol: o.protocol, pid: process.pid, port: this.port, db: o.db ?? null, require_token: !!o.requireToken });
    }
    if (!OPEN.has(p)) {
      const sent = Number(h['x-vis-protocol']);
      const min = o.minClientProtocol ?? o.protocol;
      if (!sent || sent < min) return this.json(res, 426, { error: 'incompatible_protocol', gateway_protocol: o.protocol, min_client_protocol: min });
    }
    if (o.requireToken && p !== '/healthz') {
      const ok = h.authorization === `Bearer ${o.requireToken}` || h['x-vis-gateway-secret'] === o.requireToken;
      if (!ok) return this.json(res, 401, { error: 'unauthorized' });
    }
    let m: RegExpExecArray | null;
    if (method === 'GET' && p === '/v1/capabilities') {
      return this.json(res, 200, o.capabilitiesWithoutProtocol ? { features: [] } : { protocol: { protocol: o.protocol, version: o.version ?? null }, features: ['sessions', 'events'] });
    }
    if (method === 'POST' && p === '/v1/clients') {
      const cid = `c${this.leases.size + 1}`;
      this.leases.add(cid);
      return this.json(res, 201, { client_id: cid, ttl_ms: 120000 });
    }
    if (method === 'DELETE' && (m = /^\/v1\/clients\/([^/]+)$/.exec(p))) {
      this.leases.delete(decodeURIComponent(m[1]));
      res.writeHead(204).end();
      return;
    }
    if (method === 'POST' && p === '/v1/sessions') {
      const id = `s${this.sessions.size + 1}`;
      this.sessions.set(id, { root: body.root, seq: 0 });
      return this.json(res, 201, { id, root: body.root, channel: body.channel, title: body.title });
    }
    if (method === 'GET' && (m = /^\/v1\/sessions\/([^/]+)\/seq$/.exec(p))) {
      const s = this.sessions.get(decodeURIComponent(m[1]));
      return s ? this.json(res, 200, { seq: s.seq }) : this.json(res, 404, { error: 'no such session' });
    }
    if (method === 'POST' && (m = /^\/v1\/sessions\/([^/]+)\/turns$/.exec(p))) {
      const sid = decodeURIComponent(m[1]);
      const s = this.sessions.get(sid);
      if (!s) return this.json(res, 404, { error: 'no such session' });
      const tid = `t${this.turns.size + 1}`;
      const turn: any = { turn_id: tid, session_id: sid, status: 'running', request: body.request, content: [] };
      this.turns.set(tid, turn);
      this.emit(sid, 'turn.started', { turn_id: tid });
      const t = setTimeout(() => {
        this.timers.delete(t);
        turn.status = 'completed';
        turn.content = [{ type: 'prose', markdown: `**${o.title(s.root)}**` }];
        this.emit(sid, 'turn.completed', { turn_id: tid, status: 'completed' });
      }, o.turnDelayMs ?? 50);
      this.timers.add(t);
      return this.json(res, 202, { turn_id: tid, status: 'running' });
    }
    if (method === 'GET' && (m = /^\/v1\/sessions\/([^/]+)\/turns\/([^/]+)$/.exec(p))) {
      const turn = this.turns.get(decodeURIComponent(m[2]));
      return turn ? this.json(res, 200, turn) : this.json(res, 404, { error: 'no such turn' });
    }
    if (method === 'GET' && p === '/v1/events' && o.events !== false) {
      const sid = String(url.searchParams.get('sids') ?? '').split(':')[0];
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      res.write(': connected\n\n');
      const sub = { sid, res };
      this.streams.add(sub);
      res.on('close', () => this.streams.delete(sub));
      return;
    }
    return this.json(res, 404, { error: `no route ${method} ${p}` });
  }

  private misbehave(b: Misbehaviour, req: http.IncomingMessage, url: URL, body: any, res: http.ServerResponse): void {
    const later = (ms: number, f: () => void) => {
      const t = setTimeout(() => { this.timers.delete(t); f(); }, ms);
      this.timers.add(t);
    };
    switch (b.kind) {
      case 'close-mid':
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
        res.write('{"protocol": {"proto');
        later(20, () => res.destroy());
        return;
      case 'html': {
        const page = '<!doctype html>\n<html><head><title>Welcome to nginx!</title></head><body>It works</body></html>';
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end(page);
        return;
      }
      case 'invalid-json':
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"id": "s1", "root": ');
        return;
      case 'empty':
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end();
        return;
      case 'status':
        res.writeHead(b.status, { 'Content-Type': 'application/json' });
        res.end(b.body ?? JSON.stringify({ error: `status ${b.status}` }));
        return;
      case 'drip': {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        const drip = () => { if (!res.destroyed) { res.write(' '); later(b.everyMs, drip); } };
        drip();
        return;
      }
      case 'huge':
      case 'sse-no-newlines': {
        res.writeHead(200, { 'Content-Type': b.kind === 'huge' ? 'application/json' : 'text/event-stream' });
        const total = b.kind === 'huge' ? b.bytes : 64 * 1024 * 1024;
        const chunk = Buffer.alloc(64 * 1024, b.kind === 'huge' ? 0x20 : 0x78);
        if (b.kind === 'huge') chunk[0] = 0x5b;
        const pump = () => {
          while (!res.destroyed && this.streamed < total) {
            this.streamed += chunk.length;
            if (!res.write(chunk)) { res.once('drain', pump); return; }
          }
          if (!res.destroyed) res.end();
        };
        this.streamed = 0;
        pump();
        return;
      }
      case 'redirect':
        res.writeHead(b.status, { Location: b.to, 'Content-Type': 'text/plain' });
        res.end('moved');
        return;
      case 'slow':
        later(b.delayMs, () => this.route(req.method ?? '', url, req.headers, body, res));
        return;
      case 'hang':
        return;
    }
  }

  private emit(sid: string, event: string, data: unknown): void {
    const s = this.sessions.get(sid);
    if (s) s.seq++;
    for (const sub of this.streams) {
      if (sub.sid === sid) sub.res.write(`id: ${s?.seq ?? 0}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    }
  }
}

export const LEGACY_OK = 'Reloaded — configuration; Python extensions: 3 loaded; skills/agents, prompt templates (4), and context files rescanned';
export const LEGACY_FAILED =
  'Reloaded — configuration (model); Python extensions: 2 loaded, 2 failed (last-good kept): broken.py — SyntaxError: invalid syntax (broken.py, line 7); ' +
  "other.py — NameError: name 'x' is not defined; did you mean: 'y'? — see `vis-agent doctor`; skills/agents, prompt templates (4), and context files rescanned";
export const N_FAILED =
  'Reloaded — configuration; Python extensions: 1 loaded, 2 failed (last-good kept): Python extension greeter: reload failed; last-known-good tools and docs are stale; ' +
  'loaded fingerprint 1a2b3c; requested fingerprint 4d5e6f. Extension name must match normalized project.name; Python extension pkg/extension.py: reload failed; ' +
  'last-known-good tools and docs are not loaded; loaded fingerprint none; requested fingerprint 99aa. SyntaxError: invalid syntax (extension.py, line 12) — see `vis-agent doctor`; ' +
  'skills/agents, prompt templates (2), and context files rescanned — hook failures: skills: boom';
