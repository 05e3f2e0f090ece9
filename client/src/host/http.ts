// Minimal HTTP/1.1 + Server-Sent Events over node:http, for a loopback gateway (no `vscode` import).
//
// Everything a misbehaving server can do is bounded: one timer covers the whole exchange (headers
// and body, so a slow drip ends too), bodies and event lines are size-capped, a connection closed
// in the middle of a body is an error (not a short answer), and redirects are followed only on the
// same origin (a redirect elsewhere would carry the gateway token with it).
import * as http from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The URL that answered (after same-origin redirects). */
  url: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  body?: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Largest body accepted (default MAX_BODY). */
  maxBytes?: number;
}

/** Largest answer body accepted from a gateway: its JSON answers are a few KB. */
export const MAX_BODY = 16 * 1024 * 1024;
/** Longest line of an event stream, and largest event. */
export const MAX_EVENT = 1024 * 1024;
const MAX_REDIRECTS = 3;

export type HttpFailure = 'timeout' | 'too-large' | 'redirect' | 'closed' | 'aborted' | 'network';

export class HttpError extends Error {
  constructor(readonly kind: HttpFailure, message: string, readonly location?: string) {
    super(message);
  }
}

export function request(base: string, method: string, path: string, opts: RequestOptions): Promise<HttpAnswer> {
  const started = Date.now();
  const go = (url: URL, m: string, body: Buffer | undefined, hops: number): Promise<HttpAnswer> => new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
    if (body) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(body.length);
    }
    const max = opts.maxBytes ?? MAX_BODY;
    let done = false;
    const finish = (f: () => void) => { if (!done) { done = true; clearTimeout(timer); f(); } };
    const fail = (e: HttpError) => { finish(() => reject(e)); req.destroy(); };
    const req = http.request(url, { method: m, headers, agent: false, signal: opts.signal }, (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && location) {
        res.resume();
        let next: URL;
        try { next = new URL(location, url); } catch { return fail(new HttpError('redirect', `${m} ${path} was redirected to an invalid URL (${location.slice(0, 200)})`, location)); }
        if (next.origin !== url.origin) return fail(new HttpError('redirect', `${m} ${path} was redirected to ${next.href.slice(0, 200)}, another host`, next.href));
        if (hops >= MAX_REDIRECTS) return fail(new HttpError('redirect', `${m} ${path} was redirected more than ${MAX_REDIRECTS} times`, next.href));
        const keep = status === 307 || status === 308;
        finish(() => resolve(go(next, keep ? m : 'GET', keep ? body : undefined, hops + 1)));
        req.destroy();
        return;
      }
      const declared = Number(res.headers['content-length']);
      if (declared > max) return fail(new HttpError('too-large', `${m} ${path} answered ${declared} bytes, more than the ${max} accepted`));
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > max) return fail(new HttpError('too-large', `${m} ${path} answered more than the ${max} bytes accepted`));
        chunks.push(c);
      });
      res.on('end', () => finish(() => resolve({ status, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), url: url.href })));
      res.on('close', () => { if (!res.complete) fail(new HttpError('closed', `${m} ${path}: the connection closed in the middle of the answer`)); });
      res.on('error', () => fail(new HttpError('closed', `${m} ${path}: the connection closed in the middle of the answer`)));
    });
    const left = Math.max(0, opts.timeoutMs - (Date.now() - started));
    const timer = setTimeout(() => fail(new HttpError('timeout', `${m} ${path} got no complete answer within ${opts.timeoutMs} ms`)), left);
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (opts.signal?.aborted || e.name === 'AbortError') return fail(new HttpError('aborted', `${m} ${path} was cancelled`));
      fail(new HttpError('network', `${m} ${path}: ${e.code ?? e.message}`));
    });
    req.end(body);
  });
  const body = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
  return go(new URL(path, base), method, body, 0);
}

export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/**
 * Opens an SSE stream and calls `onEvent` per event until `signal` aborts or the server ends it.
 * Resolves when the stream ends; rejects if the server does not answer 200 text/event-stream, or
 * sends a line or an event longer than MAX_EVENT (the stream is closed then).
 */
export function sse(base: string, path: string, headers: Record<string, string>, onEvent: (e: SseEvent) => void, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    const req = http.request(url, { method: 'GET', headers: { Accept: 'text/event-stream', ...headers }, agent: false, signal }, (res) => {
      if (res.statusCode !== 200 || !String(res.headers['content-type'] ?? '').includes('text/event-stream')) {
        res.resume();
        reject(new Error(`event stream answered ${res.statusCode} ${String(res.headers['content-type'] ?? '')}`.trim()));
        return;
      }
      res.setEncoding('utf8');
      let buf = '';
      let cur: SseEvent = { event: 'message', data: '' };
      let hasData = false;
      const tooLong = () => {
        req.destroy();
        reject(new HttpError('too-large', `event stream sent a line or event longer than ${MAX_EVENT} characters`));
      };
      res.on('data', (chunk: string) => {
        buf += chunk;
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl).replace(/\r$/, '');
          buf = buf.slice(nl + 1);
          if (line === '') {
            if (hasData) onEvent(cur);
            cur = { event: 'message', data: '' };
            hasData = false;
            continue;
          }
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'data') { cur.data = hasData ? `${cur.data}\n${value}` : value; hasData = true; }
          else if (field === 'event') cur.event = value;
          else if (field === 'id') cur.id = value;
          if (cur.data.length > MAX_EVENT) return tooLong();
        }
        if (buf.length > MAX_EVENT) tooLong();
      });
      res.on('end', () => resolve());
      res.on('error', () => resolve());
    });
    req.on('error', (e) => (signal.aborted ? resolve() : reject(e)));
    req.end();
  });
}
