// Host connection state (connected / not running), polled from the registry and /healthz.
// No `vscode` import: index.ts turns it into a vscode.Event.
import { discoverGateways, pickGateway } from './discovery';
import { HostPaths } from './paths';

export type HostConnection =
  | { state: 'connected'; baseUrl: string; pid: number; protocol?: number; db?: string }
  | { state: 'not-running' }
  | { state: 'unknown' };

export class HostStatusMonitor {
  private value: HostConnection = { state: 'unknown' };
  private listeners = new Set<(s: HostConnection) => void>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<HostConnection> | undefined;

  constructor(private readonly paths: HostPaths, private readonly preferDb: () => string | undefined = () => undefined) {}

  get current(): HostConnection { return this.value; }

  onChange(listener: (s: HostConnection) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Checks now (concurrent calls share one check). */
  refresh(): Promise<HostConnection> {
    this.running ??= this.check().finally(() => { this.running = undefined; });
    return this.running;
  }

  private async check(): Promise<HostConnection> {
    let next: HostConnection;
    try {
      const found = await discoverGateways({ paths: this.paths, timeoutMs: 1500 });
      const g = await pickGateway(found.live, this.preferDb());
      next = g
        ? { state: 'connected', baseUrl: g.baseUrl, pid: g.entry.pid, protocol: typeof g.healthz.protocol === 'number' ? g.healthz.protocol : undefined, db: typeof g.healthz.db === 'string' ? g.healthz.db : g.entry.db }
        : { state: 'not-running' };
    } catch {
      next = { state: 'not-running' };
    }
    if (JSON.stringify(next) !== JSON.stringify(this.value)) {
      this.value = next;
      for (const l of this.listeners) l(next);
    }
    return next;
  }

  start(intervalMs = 15000): void {
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
