// Where Vis keeps its files (spec §2-§5). No `vscode` import; the home directory is injectable.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

export interface HostPaths {
  home: string;
  env?: NodeJS.ProcessEnv;
}

export const visDir = (p: HostPaths) => path.join(p.home, '.vis');
export const registryDir = (p: HostPaths) => path.join(visDir(p), 'gateway', 'registry');
export const tokenFile = (p: HostPaths) => path.join(visDir(p), 'gateway.token');
export const logsDir = (p: HostPaths) => path.join(visDir(p), 'logs');
export const defaultDbDir = (p: HostPaths) => path.join(visDir(p), 'vis.mdb');

/** The global extensions directory (`VIS_EXTENSIONS_DIR` overrides it in newer Vis). */
export function globalExtensionsDir(p: HostPaths): string {
  const env = p.env ?? {};
  return env.VIS_EXTENSIONS_DIR ? path.resolve(env.VIS_EXTENSIONS_DIR) : path.join(visDir(p), 'extensions');
}

export interface DbChoice {
  file: string;
  /** Where the path came from, for messages. */
  source: 'setting' | 'gateway' | 'VIS_DB_PATH' | 'default';
}

/**
 * The SQLite file Vis uses: the setting, else the running gateway's `/healthz` `db` (or its registry
 * `:db`), else `VIS_DB_PATH`, else `~/.vis/vis.mdb/vis.db`. Vis treats the configured path as a
 * directory holding `vis.db`; an existing file path is taken as the file itself.
 */
export async function chooseDatabase(p: HostPaths, opts: { setting?: string; gatewayDb?: string }): Promise<DbChoice> {
  const env = p.env ?? {};
  const pick = async (raw: string, source: DbChoice['source']): Promise<DbChoice> => ({ file: await dbFileFor(expandHome(raw, p.home)), source });
  if (opts.setting && opts.setting.trim()) return pick(opts.setting.trim(), 'setting');
  if (opts.gatewayDb) return pick(opts.gatewayDb, 'gateway');
  if (env.VIS_DB_PATH) return pick(env.VIS_DB_PATH, 'VIS_DB_PATH');
  return { file: path.join(defaultDbDir(p), 'vis.db'), source: 'default' };
}

export async function dbFileFor(p: string): Promise<string> {
  try {
    const st = await fsp.stat(p);
    return st.isDirectory() ? path.join(p, 'vis.db') : p;
  } catch {
    return path.basename(p) === 'vis.db' ? p : path.join(p, 'vis.db');
  }
}

export function expandHome(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/') || p.startsWith('~\\')) return path.join(home, p.slice(2));
  return path.resolve(p);
}
