// Finds running Vis gateways from ~/.vis/gateway/registry/*.edn (no `vscode` import).
// Liveness (spec §2): the registry pid is alive and GET /healthz answers.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { parseEDNString } from 'edn-data';
import { request } from './http';
import { HostPaths, registryDir } from './paths';

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
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      entries.push(parseRegistryEntry(await fsp.readFile(file, 'utf8'), file));
    } catch (e) {
      problems.push(`${file}: ${(e as Error).message}`);
    }
  }
  return { entries, problems };
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

export interface Discovery {
  live: LiveGateway[];
  /** Registry entries whose process is gone or whose /healthz did not answer. */
  stale: RegistryEntry[];
  problems: string[];
}

export async function discoverGateways(opts: DiscoveryOptions): Promise<Discovery> {
  const { entries, problems } = await readRegistry(opts.paths);
  const alive = opts.pidAlive ?? pidAlive;
  const live: LiveGateway[] = [];
  const stale: RegistryEntry[] = [];
  await Promise.all(entries.map(async (entry) => {
    if (!alive(entry.pid)) { stale.push(entry); return; }
    const baseUrl = baseUrlOf(entry);
    try {
      const res = await request(baseUrl, 'GET', '/healthz', { timeoutMs: opts.timeoutMs ?? 2000, headers: entry.secret ? { 'X-Vis-Gateway-Secret': entry.secret } : {} });
      if (res.status !== 200) throw new Error(`healthz ${res.status}`);
      const healthz = JSON.parse(res.text) as Healthz;
      live.push({ entry, baseUrl, healthz });
    } catch {
      stale.push(entry);
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
