// Runs the cases of one fuzz target in this process and reports each to the runner over IPC:
// {start, i} before a case, {done, i, ms, rss, outcome, finding?} after it. An exception that
// escapes a case, and any unhandled rejection, is a finding of that case.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Rng } from './rng';
import type { FuzzTarget } from './target';

const [name, seedArg, fromArg, toArg, onlyArg] = process.argv.slice(2);
const send = (m: unknown) => new Promise<void>((resolve) => process.send!(m, () => resolve()));

let current = -1;
let rejected: string | undefined;
process.on('unhandledRejection', (e) => { rejected = `unhandled rejection: ${(e as Error)?.stack ?? String(e)}`; });

(async () => {
  const target = (await import(path.join(__dirname, 'targets', `${name}.ts`))).default as FuzzTarget;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `vis-fuzz-${name}-`));
  try {
    const ctx = await target.setup(work);
    const seed = Number(seedArg);
    const cases = onlyArg !== undefined && onlyArg !== '' ? [Number(onlyArg)] : range(Number(fromArg), Number(toArg));
    for (const i of cases) {
      current = i;
      await send({ type: 'start', i });
      // FUZZ_PROGRESS=1: each case's index and time on stderr (to line a case up with a sampled figure).
      if (process.env.FUZZ_PROGRESS) console.error(`[fuzz] case ${i} at ${new Date().toISOString()}`);
      const t0 = performance.now();
      let outcome: string;
      let finding: string | undefined;
      let kind: string | undefined;
      let metrics: unknown;
      try {
        ({ outcome, finding, kind, metrics } = await target.run(ctx, Rng.forCase(seed, name, i), i));
      } catch (e) {
        outcome = 'escape';
        finding = `escaped: ${(e as Error)?.stack ?? String(e)}`;
      }
      await new Promise((r) => setImmediate(r));
      if (rejected) { finding ??= rejected; rejected = undefined; }
      await send({ type: 'done', i, ms: performance.now() - t0, rss: process.memoryUsage().rss, outcome, finding, kind, metrics });
    }
    await target.teardown?.(ctx);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  process.disconnect();
})().catch(async (e) => {
  await send({ type: 'fatal', i: current, error: (e as Error)?.stack ?? String(e) });
  process.exit(1);
});

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k);
}
