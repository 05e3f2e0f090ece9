// Finds the newest gateway log in either layout (spec §4). No `vscode` import.
//   [0.1.41] ~/.vis/logs/vis-<pid>.log (one per process; the gateway's pid is the registry :pid)
//   [N]      ~/.vis/logs/YYYY-MM-DD/gateway-<UTC start>-pid<PID>.log (rotated parts are gzipped)
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { HostPaths, logsDir } from './paths';

export interface LogChoice {
  file: string;
  layout: '0.1.41' | 'dated';
  /** True when the file belongs to the given (running) gateway pid. */
  matchesPid: boolean;
}

async function statMtime(f: string): Promise<number | undefined> {
  try {
    const st = await fsp.stat(f);
    return st.isFile() ? st.mtimeMs : undefined;
  } catch {
    return undefined;
  }
}

/** All gateway log candidates, newest first. */
export async function listGatewayLogs(paths: HostPaths, pid?: number): Promise<LogChoice[]> {
  const dir = logsDir(paths);
  const found: (LogChoice & { mtime: number })[] = [];
  let names: string[] = [];
  try { names = await fsp.readdir(dir); } catch { return []; }
  for (const name of names) {
    const full = path.join(dir, name);
    const legacy = /^vis-(\d+)\.log$/.exec(name);
    if (legacy) {
      const mtime = await statMtime(full);
      if (mtime !== undefined) found.push({ file: full, layout: '0.1.41', matchesPid: pid !== undefined && Number(legacy[1]) === pid, mtime });
      continue;
    }
    if (/^\d{4}-\d{2}-\d{2}$/.test(name)) {
      let inner: string[] = [];
      try { inner = await fsp.readdir(full); } catch { continue; }
      for (const f of inner) {
        const m = /^gateway-.*-pid(\d+)\.log$/.exec(f);
        if (!m) continue;
        const file = path.join(full, f);
        const mtime = await statMtime(file);
        if (mtime !== undefined) found.push({ file, layout: 'dated', matchesPid: pid !== undefined && Number(m[1]) === pid, mtime });
      }
    }
  }
  found.sort((a, b) => Number(b.matchesPid) - Number(a.matchesPid) || b.mtime - a.mtime || b.file.localeCompare(a.file));
  return found.map(({ file, layout, matchesPid }) => ({ file, layout, matchesPid }));
}

/**
 * The log to open: the running gateway's own (by pid) when known, else the newest gateway log.
 * In the 0.1.41 layout every process writes vis-<pid>.log, so without a pid the newest one may be a TUI's.
 */
export async function newestGatewayLog(paths: HostPaths, pid?: number): Promise<LogChoice | undefined> {
  return (await listGatewayLogs(paths, pid))[0];
}
