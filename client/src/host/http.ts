// Minimal HTTP/1.1 + Server-Sent Events over node:http, for a loopback gateway (no `vscode` import).
import * as http from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  body?: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
}

export class HttpTimeout extends Error {}

export function request(base: string, method: string, path: string, opts: RequestOptions): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    const body = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
    const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
    if (body) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(body.length);
    }
    const req = http.request(url, { method, headers, agent: false, signal: opts.signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => { clearTimeout(timer); resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }); });
      res.on('error', (e) => { clearTimeout(timer); reject(e); });
    });
    const timer = setTimeout(() => req.destroy(new HttpTimeout(`${method} ${path} got no answer within ${opts.timeoutMs} ms`)), opts.timeoutMs);
    req.on('error', (e) => { clearTimeout(timer); reject(e); });
    req.end(body);
  });
}

export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/**
 * Opens an SSE stream and calls `onEvent` per event until `signal` aborts or the server ends it.
 * Resolves when the stream ends; rejects if the server does not answer 200 text/event-stream.
 */
export function sse(base: string, path: string, headers: Record<string, string>, onEvent: (e: SseEvent) => void, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    const req = http.request(url, { method: 'GET', headers: { Accept: 'text/event-stream', ...headers }, agent: false, signal }, (res) => {
      if (res.statusCode !== 200 || !String(res.headers['content-type'] ?? '').includes('text/event-stream')) {
        res.resume();
        reject(new Error(`event stream answered ${res.statusCode}`));
        return;
      }
      res.setEncoding('utf8');
      let buf = '';
      let cur: SseEvent = { event: 'message', data: '' };
      let hasData = false;
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
        }
      });
      res.on('end', () => resolve());
      res.on('error', () => resolve());
    });
    req.on('error', (e) => (signal.aborted ? resolve() : reject(e)));
    req.end();
  });
}
