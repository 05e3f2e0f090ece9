// Finds running Vis gateways from ~/.vis/gateway/registry/*.edn (no `vscode` import).
// Liveness (spec §2): the registry pid is alive and GET /healthz answers.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { parseEDNString } from 'edn-data';
import { readTextFile } from '../../../shared/files';
import { t } from '../l10n';
import { HttpError, request } from './http';
import { HostPaths, registryDir } from './paths';

/** Registry files and the token are a few hundred bytes; anything much larger is not one. */
export const MAX_REGISTRY_FILE = 64 * 1024;
const READ_TIMEOUT_MS = 2000;

export interface RegistryEntry {
  file: string;
  pid: number;
  port: number;
  host: string;
  secret?: string;
  db?: string;
  createdAt?: string;
}

export interface Healthz {
  protocol?: number;
  pid?: number;
  port?: number;
  db?: string;
  require_token?: boolean;
  [key: string]: unknown;
}

export interface LiveGateway {
  entry: RegistryEntry;
  baseUrl: string;
  healthz: Healthz;
}

/** Parses one registry file: `{:pid :port :host :secret :db :created-at}`. */
export function parseRegistryEntry(text: string, file: string): RegistryEntry {
  const v = parseEDNString(text, { mapAs: 'object', keywordAs: 'string', tagHandlers: { inst: (x) => x } }) as Record<string, unknown>;
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an EDN map');
  const pid = Number(v.pid);
  const port = Number(v.port ?? 7890);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error('no :pid');
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error('bad :port');
  const str = (x: unknown) => (typeof x === 'string' && x ? x : undefined);
  return {
    file, pid, port,
    host: str(v.host) ?? '127.0.0.1',
    secret: str(v.secret),
    db: str(v.db),
    createdAt: v['created-at'] === undefined ? undefined : String(v['created-at']),
  };
}

export async function readRegistry(paths: HostPaths): Promise<{ entries: RegistryEntry[]; problems: string[] }> {
  const dir = registryDir(paths);
  const entries: RegistryEntry[] = [];
  const problems: string[] = [];
  let names: string[];
  try {
    names = (await fsp.readdir(dir)).filter((n) => n.endsWith('.edn')).sort();
  } catch {
    return { entries, problems };
  }
  // Through the guarded reader: a FIFO, a device or a huge file in the registry is refused at once.
  const texts = await Promise.all(names.map((name) => readTextFile(path.join(dir, name), { maxBytes: MAX_REGISTRY_FILE, timeoutMs: READ_TIMEOUT_MS })));
  names.forEach((name, i) => {
    const file = path.join(dir, name);
    const r = texts[i];
    if (!r.ok) { problems.push(r.message); return; }
    try {
      entries.push(parseRegistryEntry(r.text, file));
    } catch (e) {
      problems.push(`${file}: ${(e as Error).message}`);
    }
  });
  return { entries, problems };
}

/** The gateway token from `~/.vis/gateway.token`, read through the guarded reader. */
export async function readTokenFile(file: string): Promise<string | undefined> {
  const r = await readTextFile(file, { maxBytes: MAX_REGISTRY_FILE, timeoutMs: READ_TIMEOUT_MS });
  return r.ok ? r.text.trim() || undefined : undefined;
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function baseUrlOf(entry: RegistryEntry): string {
  let host = entry.host;
  if (host === '0.0.0.0' || host === '') host = '127.0.0.1';
  if (host === '::') host = '::1';
  if (host.includes(':') && !host.startsWith('[')) host = `[${host}]`;
  return `http://${host}:${entry.port}`;
}

export interface DiscoveryOptions {
  paths: HostPaths;
  pidAlive?: (pid: number) => boolean;
  timeoutMs?: number;
}

export interface StaleEntry extends RegistryEntry {
  /** Why it is not a live gateway, for messages: "its process 123 is gone", ... */
  why: string;
}

export interface Discovery {
  live: LiveGateway[];
  /** Registry entries whose process is gone or whose /healthz did not answer as a Vis gateway does. */
  stale: StaleEntry[];
  problems: string[];
}

/** Why an answer to /healthz is not a Vis gateway's, or undefined when it is one. */
export function notAGateway(status: number, text: string): string | undefined {
  if (status !== 200) return t('/healthz answered HTTP {0}', status);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return /^\s*</.test(text) ? t('/healthz answered HTML, not JSON') : t('/healthz answered something that is not JSON');
  }
  if (!v || typeof v !== 'object' || Array.isArray(v) || !('protocol' in v || 'pid' in v || 'status' in v)) return t('/healthz answered JSON without a protocol, pid or status');
  return undefined;
}

export async function discoverGateways(opts: DiscoveryOptions): Promise<Discovery> {
  const { entries, problems } = await readRegistry(opts.paths);
  const alive = opts.pidAlive ?? pidAlive;
  const live: LiveGateway[] = [];
  const stale: StaleEntry[] = [];
  await Promise.all(entries.map(async (entry) => {
    if (!alive(entry.pid)) { stale.push({ ...entry, why: t('its process {0} is gone', entry.pid) }); return; }
    const baseUrl = baseUrlOf(entry);
    const where = `${entry.host}:${entry.port}`;
    try {
      const timeoutMs = opts.timeoutMs ?? 2000;
      const res = await request(baseUrl, 'GET', '/healthz', { timeoutMs, maxBytes: MAX_REGISTRY_FILE, headers: entry.secret ? { 'X-Vis-Gateway-Secret': entry.secret } : {} });
      const wrong = notAGateway(res.status, res.text);
      if (wrong) { stale.push({ ...entry, why: t('{0} is not a Vis gateway: {1}', where, wrong) }); return; }
      live.push({ entry, baseUrl, healthz: JSON.parse(res.text) as Healthz });
    } catch (e) {
      const kind = e instanceof HttpError ? e.kind : 'network';
      const why = kind === 'timeout' ? t('{0} did not answer /healthz within {1} ms', where, opts.timeoutMs ?? 2000)
        : kind === 'redirect' ? t('{0} is not a Vis gateway: /healthz redirected elsewhere', where)
          : kind === 'too-large' ? t('{0} is not a Vis gateway: /healthz answered too much', where)
            : t('nothing answers on {0} ({1})', where, (e as Error).message.replace(/^GET \/healthz: /, ''));
      stale.push({ ...entry, why });
    }
  }));
  live.sort((a, b) => a.entry.file.localeCompare(b.entry.file));
  return { live, stale, problems };
}

const dbDir = (p: string) => path.resolve(p).replace(/[\\/]vis\.db$/, '').replace(/[\\/]+$/, '');

async function canonical(p: string): Promise<string> {
  const d = dbDir(p);
  try {
    return await fsp.realpath(d);
  } catch {
    return d;
  }
}

/** The gateway for a database (by `/healthz` db or registry `:db`), else the only or newest one. */
export async function pickGateway(live: LiveGateway[], preferDb?: string): Promise<LiveGateway | undefined> {
  if (live.length === 0) return undefined;
  if (preferDb) {
    const want = await canonical(preferDb);
    for (const g of live) {
      for (const db of [g.healthz.db, g.entry.db]) {
        if (typeof db === 'string' && (await canonical(db)) === want) return g;
      }
    }
  }
  return [...live].sort((a, b) => String(b.entry.createdAt ?? '').localeCompare(String(a.entry.createdAt ?? '')))[0];
}
