// Long analyses in slices that yield to the event loop (pyright's 50 ms foreground slices). A job runs
// its work from the top in each slice; once the slice's time is up the work stops at the next
// checkpoint by throwing SliceExpired, and the job yields and runs it again. What the interrupted
// module analysis had finished is kept in the job's memo (parse trees by text, statement fragments, the
// nesting check), and a tree-sitter parse that ran out of time resumes where it stopped, so each slice
// carries on where the last one stopped; everything already analysed is cached by the program anyway.
// Between slices the server answers other requests. A slice that ran out of time without finishing
// anything (`advanced`) is followed by a longer one, so a job whose single step outlasts the slice
// still ends. No LSP types; outside a job (the CLI, requests) every checkpoint is a no-op.
//
// Module analyses (text → tree → model) are sliced inside, but only those the job is for: one module
// (an open document), or every module (`ANY_MODULE`: indexing a workspace); modules read on the way by
// a one-module job, and those a join reads (`unsliced`), run to their end. Joins (Symbol analysis,
// rules) stop between their steps (`betweenSteps`: each Symbol, each rule), keeping what they finished
// (`stepMemo`); `stepsInSlices` runs a generator's steps (contracts for a preview) the same way.

/** Thrown at a checkpoint once the running slice's time is up; caught by the job, which yields and goes on. */
export class SliceExpired extends Error {
  constructor() {
    super('the analysis slice ran out of time');
  }
}

/** The reason a job's promise rejects when it was cancelled (a newer version, a closed document). */
export class Cancelled extends Error {
  constructor(readonly reason: string) {
    super(`cancelled: ${reason}`);
  }
}

/** A job for every module it analyses (indexing a workspace). */
export const ANY_MODULE = '*';

export interface SliceJob {
  /** What slices of the interrupted module analysis finished, by kind, for the next slice. */
  readonly memo: Map<string, unknown>;
  /** Called once when the module analysis in progress finishes, or when the job ends (frees what the memo holds outside the JS heap). */
  onModuleDone(dispose: () => void): void;
}

interface RunningJob extends SliceJob {
  uri: string;
  deadline: number;
  /** Something was finished in the running slice (see `advanced`): the job moves on. */
  advanced: boolean;
  /** True while a module the job is for is being analysed inside a slice. */
  active: boolean;
  /** Joins running (see `unsliced`): no module analysis in them is sliced. */
  joins: number;
  disposers: (() => void)[];
}

let running: RunningJob | undefined;

/** The running job while a module it is for is being analysed; undefined otherwise. */
export function slicing(): SliceJob | undefined {
  return running?.active ? running : undefined;
}

/** Whether the running slice's time is up, inside a module analysis the job is for (tree-sitter's progress callback asks). */
export function sliceExpired(): boolean {
  return !!running?.active && performance.now() > running.deadline;
}

/**
 * Tells the running job that its slice finished something the next slice does not do again (a part
 * kept in its memo, a parse that stops to resume later): a slice that ran out of time without any is
 * followed by a longer one, so that a job whose single step takes longer than the slice still ends.
 */
export function advanced(): void {
  if (running) running.advanced = true;
}

/** A memo of a job: storing in it is progress. */
class JobMemo<K, V> extends Map<K, V> {
  override set(key: K, value: V): this {
    advanced();
    return super.set(key, value);
  }
}

/** Stops the work here when the running slice's time is up (a no-op outside a sliced module analysis). */
export function checkpoint(): void {
  if (sliceExpired()) throw new SliceExpired();
}

/**
 * A point between the steps of a job's work (module, Symbol analysis, rules, and each Symbol and rule
 * within them): stops there when the slice's time is up. Outside a job, a no-op.
 */
export function betweenSteps(): void {
  if (running && !running.active && performance.now() > running.deadline) throw new SliceExpired();
}

/**
 * What the steps of a join finished (each Symbol's analysis, each rule's findings), kept for the job's
 * next slice; undefined outside a job, where nothing stops half way.
 */
export function stepMemo<K, V>(kind: string): Map<K, V> | undefined {
  if (!running || running.active) return undefined;
  let m = running.memo.get(`step:${kind}`) as Map<K, V> | undefined;
  if (!m) running.memo.set(`step:${kind}`, (m = new JobMemo()));
  return m;
}

/** Frees what the memo holds for a module analysis (all of it when the job ends: `steps` too). */
function release(job: RunningJob, steps = false): void {
  const disposers = job.disposers.splice(0);
  for (const k of [...job.memo.keys()]) if (steps || !k.startsWith('step:')) job.memo.delete(k);
  for (const d of disposers) {
    try {
      d();
    } catch {
      // Freeing a dead parser's memory must not hide the job's own outcome.
    }
  }
}

/** Runs the analysis of module `uri`: sliced when the running job is for it, else to its end. */
export function sliceModule<T>(uri: string, work: () => T): T {
  const job = running;
  if (!job) return work();
  const outer = job.active;
  job.active = !job.joins && (job.uri === ANY_MODULE || job.uri === uri);
  try {
    const result = work();
    // Finished: what the memo kept for it is not needed any more.
    if (job.active) {
      release(job);
      job.advanced = true;
    }
    return result;
  } finally {
    job.active = outer;
  }
}

/**
 * Runs a join (Symbol analysis, rules): the modules it reads are analysed to their end, because the
 * joins contain faults part by part (a catch around each Symbol, each contract part), which would take a
 * slice running out inside them for a fault; the join itself stops only between its steps (betweenSteps).
 */
export function unsliced<T>(work: () => T): T {
  const job = running;
  if (!job) return work();
  job.joins++;
  try {
    return work();
  } finally {
    job.joins--;
  }
}

/** A value computed once per interrupted module analysis (`kind` and `key`), or every time outside one. */
export function memoInSlice<K, V>(kind: string, key: K, compute: () => V): V {
  const job = slicing();
  if (!job) return compute();
  let m = job.memo.get(kind) as Map<K, V> | undefined;
  if (!m) job.memo.set(kind, (m = new JobMemo()));
  if (m.has(key)) return m.get(key) as V;
  const v = compute();
  m.set(key, v);
  return v;
}

export interface JobOptions {
  /**
   * The time a slice may take, in milliseconds (default 50). A slice that runs out of time without
   * advancing (see `advanced`) is followed by one twice as long, until one advances; then the slices
   * shrink back towards this.
   */
  sliceMs?: number;
  /** Asked before every slice: a reason to stop, or undefined to go on. */
  cancelled?: () => string | undefined;
  /** Told how long each slice took (traces, benchmarks). */
  onSlice?: (ms: number) => void;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Lets the event loop go round a few times. A request takes several turns of its own through
 * vscode-jsonrpc (read, decode, dispatch, write: each in a setImmediate), and a slice runs in every turn
 * it gets: with one turn between slices, a request would wait for four slices instead of one.
 */
export async function yieldToEventLoop(): Promise<void> {
  for (let i = 0; i < TURNS_BETWEEN_SLICES; i++) await nextTurn();
}
const TURNS_BETWEEN_SLICES = 5;

/**
 * Runs `work` as a job for module `uri` (or ANY_MODULE), in slices of about `sliceMs` with the event
 * loop served between them. Resolves with the work's result; rejects with Cancelled when `cancelled`
 * gives a reason before a slice, or with whatever else the work throws. `work` must be safe to run
 * again from the top (the program caches what it finished).
 */
export async function runInSlices<T>(uri: string, work: () => T, options: JobOptions = {}): Promise<T> {
  const sliceMs = options.sliceMs ?? 50;
  let ms = sliceMs;
  const job: RunningJob = { uri, memo: new JobMemo(), deadline: 0, advanced: false, active: false, joins: 0, disposers: [], onModuleDone: (d) => void job.disposers.push(d) };
  try {
    for (;;) {
      const why = options.cancelled?.();
      if (why) throw new Cancelled(why);
      const outer = running;
      running = job;
      const start = performance.now();
      job.deadline = start + ms;
      job.advanced = false;
      try {
        return work();
      } catch (e) {
        if (!(e instanceof SliceExpired)) throw e;
        ms = job.advanced ? Math.max(sliceMs, ms / 2) : Math.max(1, ms * 2);
      } finally {
        running = outer;
        options.onSlice?.(performance.now() - start);
      }
      await yieldToEventLoop();
    }
  } finally {
    release(job, true);
  }
}

/**
 * Runs steps (a generator's) in slices of about `sliceMs`, yielding to the event loop between slices;
 * stops early when `stop` says so.
 */
export async function stepsInSlices(steps: Iterable<unknown>, sliceMs = 10, stop?: () => boolean): Promise<void> {
  let deadline = performance.now() + sliceMs;
  for (const _ of steps) {
    if (performance.now() <= deadline) continue;
    await yieldToEventLoop();
    if (stop?.()) return;
    deadline = performance.now() + sliceMs;
  }
}
