// What a fuzz target is: `fuzz/targets/<name>.ts` default-exports one. The runner (run.ts) runs its
// cases in a worker process of their own, with a watchdog, and fails on any finding.
import type { Rng } from './rng';

export interface CaseResult {
  /** How the input was handled, counted in the summary: 'value', 'reason: truncated', ... */
  outcome: string;
  /** Set when the case found a defect: an exception that escaped, a file written, ... */
  finding?: string;
  /** What kind of defect the finding is, for the summary ('crash', 'unanswered', ...); default 'finding'. */
  kind?: string;
  /** Figures the summary adds up (`sum`) or keeps the largest of (`max`) over the cases. */
  metrics?: { sum?: Record<string, number>; max?: Record<string, number> };
}

export interface FuzzTarget<Ctx = unknown> {
  name: string;
  /** One line for the summary: what is mutated and what is checked. */
  about: string;
  /** Cases of a full run (`npm run fuzz`) and of the short run inside `npm test`. */
  count: number;
  quickCount: number;
  /** A case slower than this is a finding ("slow"). */
  slowMs: number;
  /** A case still running after this is a hang: the worker is killed and the next case goes on. */
  hangMs: number;
  /** The worker's RSS may not pass this. */
  rssLimitMb: number;
  setup(workDir: string): Promise<Ctx>;
  run(ctx: Ctx, rng: Rng, i: number): Promise<CaseResult>;
  teardown?(ctx: Ctx): Promise<void>;
}
