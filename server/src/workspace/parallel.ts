// `check --jobs N`: a folder's program run in N threads (this one and N - 1 worker threads), with exactly
// the results of one program run in one thread.
//
// The entries are split into N runs of consecutive entries (Vis's order), one per thread. Each share
// builds the same program (the same folder and entries) and:
//   1. indexes its entries: the modules each reaches, and which of its entries imports each first;
//   2. is told, for every module, which entry of all imports it first (its environment: what one program
//      would have found) and which modules it checks: its entries, and the modules whose first importer
//      is one of them; it checks those (their rule findings, including those an entry puts on the
//      modules it imports) and reads what its entries register.
// The main thread (once its own share is done) puts it together as one program does: the modules in the order indexing finds them,
// each with its own findings, those other modules put on it, and the cross-file checks (WS rules) over
// every entry's registration, in `compareFindings` order. No VS Code types.
import path from 'node:path';
import { Worker, parentPort, workerData } from 'node:worker_threads';
import { readTextFileSync } from '../../../shared/files';
import { SourceText } from '../fixes/source';
import type { Finding } from '../rules/types';
import type { SeverityOverrides } from '../rules';
import { NO_SUPPRESSIONS, type Suppressions } from '../rules/suppression';
import type { RegisteredExtension } from '../rules/workspace';
import type { EntryFile } from './discovery';
import { Program, checkWorkspace, shownFindings } from './program';
import { parserReady, parserStarted } from '../parse/parser';
import { filePathOf } from '../rules/util';

/** What checking one module gave: its findings (with those it puts on other modules), or why there are none. */
export interface ModuleResult {
  uri: string;
  findings?: Finding[];
  /** The findings are all there is to show (a pyproject.toml: its entry's manifest findings). */
  final?: boolean;
  /** The module's SDK generation. */
  generation?: string;
  /** Its suppression comments, when it has any (applied once everything reported on it is known). */
  suppressions?: Suppressions;
  /** The analysis threw (the message). */
  error?: string;
}

interface WorkerInput {
  kind: 'check';
  root: string;
  entries: EntryFile[];
  /** The entries this worker indexes: [from, to). */
  from: number;
  to: number;
  settings: CheckSettings;
}

/** What the command line sets for every module (the program's settings). */
export interface CheckSettings {
  overrides?: SeverityOverrides;
  selection?: { select?: readonly string[]; ignore?: readonly string[] };
}

type ToWorker = { kind: 'check'; owners: [string, string][]; modules: string[] };
type Indexed = { kind: 'indexed'; reached: string[][]; owners: [string, string][] };
type Checked = { kind: 'checked'; modules: ModuleResult[]; extensions: (RegisteredExtension | undefined)[] };
type FromWorker = Indexed | Checked | { kind: 'failed'; message: string };

/** One share of the entries, checked in a worker or in this thread. */
interface Share {
  indexed(): Promise<Indexed>;
  check(task: ToWorker): Promise<Checked>;
}

/** The modules of a folder in the order one program indexes them, each with everything reported on it. */
export interface CheckResult {
  uris: string[];
  /** Per module: its findings in `compareFindings` order, or why it was not analysed (`undefined` findings: not readable). */
  results: Map<string, ModuleResult>;
}

/** Each worker's young generation (MB): smaller than V8's default, for a lower peak RSS at the same speed. */
const WORKER_YOUNG_MB = 4;

/**
 * Runs a folder's program in `jobs` threads: this one takes the first share, and `jobs - 1` worker
 * threads the others (`script`: this bundle, which serves workers too). `program` is the same folder's
 * program in this thread: it decides each module's rule policy.
 */
export async function checkInWorkers(program: Program, entries: EntryFile[], jobs: number, script: string): Promise<CheckResult> {
  const root = program.root!;
  const settings: CheckSettings = { overrides: program.overrides, selection: program.selection };
  const n = Math.max(1, Math.min(jobs, entries.length));
  const shares: [number, number][] = [];
  for (let i = 0; i < n; i++) shares.push([Math.floor((i * entries.length) / n), Math.floor(((i + 1) * entries.length) / n)]);
  const input = (from: number, to: number): WorkerInput => ({ kind: 'check', root, entries, from, to, settings });
  const workers = shares.slice(1).map(([from, to]) => new Worker(script, { workerData: input(from, to), resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB } }));
  try {
    const here = new ShareChecker(input(...shares[0]));
    const replies: Share[] = [here, ...workers.map((w) => workerShare(w))];
    // 1. Indexing, in every thread at once (this one's first: the workers start meanwhile).
    const indexed = await Promise.all(replies.map((r) => r.indexed()));
    const reached: string[][] = indexed.flatMap((x) => x.reached);
    // Which entry imports each module first, over all entries (shares are in order: the first one wins).
    const owners = new Map<string, string>();
    for (const x of indexed) for (const [file, entry] of x.owners) if (!owners.has(file)) owners.set(file, entry);
    const entryShare = new Map<string, number>();
    shares.forEach(([from, to], w) => {
      for (let e = from; e < to; e++) entryShare.set(pathKey(entries[e].path), w);
    });
    // 2. Each module is checked by the worker whose share holds the entry that imports it first.
    const uris: string[] = [];
    const seen = new Set<string>();
    const mine: string[][] = shares.map(() => []);
    reached.forEach((list, e) => {
      for (const uri of list) {
        if (seen.has(uri)) continue;
        seen.add(uri);
        uris.push(uri);
        const owner = owners.get(fileOf(uri));
        mine[owner !== undefined ? (entryShare.get(pathKey(owner)) ?? shareOf(shares, e)) : shareOf(shares, e)].push(uri);
      }
    });
    const checked = await Promise.all(replies.map((r, i) => r.check({ kind: 'check', owners: [...owners], modules: mine[i] })));
    // 3. One program's view: each module's own findings, what the others put on it, the cross-file checks.
    const byModule = new Map<string, ModuleResult>();
    for (const c of checked) for (const m of c.modules) byModule.set(m.uri, m);
    // What each module puts on others, by reporting module in URI order (as Program.analysis orders it).
    const onOthers = new Map<string, Finding[]>();
    for (const uri of [...uris].sort()) {
      for (const f of byModule.get(uri)?.findings ?? []) {
        if (!f.uri || f.uri === uri) continue;
        let list = onOthers.get(f.uri);
        if (!list) onOthers.set(f.uri, (list = []));
        list.push(f);
      }
    }
    const extensions = checked.flatMap((c) => c.extensions.flatMap((x) => x ?? []));
    const cross = checkWorkspace(extensions, (uri) => program.policyFor(uri));
    const results = new Map<string, ModuleResult>();
    for (const uri of uris) {
      const own = byModule.get(uri);
      if (!own || !own.findings || own.final) {
        results.set(uri, own ?? { uri });
        continue;
      }
      const findings = own.findings.filter((f) => !f.uri || f.uri === uri);
      findings.push(...(onOthers.get(uri) ?? []), ...cross.filter((f) => f.uri === uri));
      // The text, for the fix of an unused suppression (files do not change during a command).
      const source = () => {
        const read = readTextFileSync(fileOf(uri), { maxBytes: program.maxFileSize * 3 });
        return read.ok ? new SourceText(read.text) : undefined;
      };
      results.set(uri, { uri, generation: own.generation, findings: shownFindings(findings, own.suppressions ?? NO_SUPPRESSIONS, program.policyFor(uri), source) });
    }
    return { uris, results };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

function shareOf(shares: [number, number][], entry: number): number {
  return shares.findIndex(([from, to]) => entry >= from && entry < to);
}

function fileOf(uri: string): string {
  return pathKey(filePathOf(uri) ?? uri);
}

/** A path as the program keys it (resolved). */
function pathKey(p: string): string {
  return path.resolve(p);
}

/** A share checked in a worker thread. */
function workerShare(w: Worker): Share {
  const replies = replies_(w);
  return {
    indexed: () => replies.next('indexed'),
    check: (task) => {
      w.postMessage(task);
      return replies.next('checked');
    },
  };
}

/** The replies of a worker, in order; a worker that fails or exits early rejects the next wait. */
function replies_(w: Worker): { next<K extends FromWorker['kind']>(kind: K): Promise<Extract<FromWorker, { kind: K }>> } {
  const queue: FromWorker[] = [];
  let waiting: { kind: string; resolve: (m: FromWorker) => void; reject: (e: Error) => void } | undefined;
  let failure: Error | undefined;
  const deliver = () => {
    if (!waiting) return;
    const m = queue.shift();
    if (m) {
      const { resolve, reject, kind } = waiting;
      waiting = undefined;
      if (m.kind === 'failed') reject(new Error(m.message));
      else if (m.kind !== kind) reject(new Error(`a check worker answered ${m.kind}, not ${kind}`));
      else resolve(m);
    } else if (failure) {
      const { reject } = waiting;
      waiting = undefined;
      reject(failure);
    }
  };
  w.on('message', (m: FromWorker) => {
    queue.push(m);
    deliver();
  });
  w.on('error', (e) => {
    failure = e;
    deliver();
  });
  w.on('exit', (code) => {
    failure ??= new Error(`a check worker stopped (exit code ${code})`);
    deliver();
  });
  return {
    next: (kind) =>
      new Promise((resolve, reject) => {
        waiting = { kind, resolve: resolve as (m: FromWorker) => void, reject };
        deliver();
      }),
  };
}

/** A share of the entries: their program indexed, then the modules it is given checked. */
class ShareChecker implements Share {
  private program?: Program;

  constructor(private readonly input: WorkerInput) {}

  private get share(): EntryFile[] {
    return this.input.entries.slice(this.input.from, this.input.to);
  }

  async indexed(): Promise<Indexed> {
    // The first runtime only: the spare is made while indexing starts.
    await parserStarted();
    const { root, entries, settings } = this.input;
    const program = (this.program = new Program({ root, entries, ...settings }));
    program.configure({ watched: [root] });
    const { reached, owners } = program.indexShare(this.share);
    return { kind: 'indexed', reached, owners: [...owners] };
  }

  async check(task: ToWorker): Promise<Checked> {
    const program = this.program!;
    program.adoptOwners(new Map(task.owners));
    const modules: ModuleResult[] = [];
    for (const uri of task.modules) {
      try {
        await parserReady();
        if (path.basename(uri) === 'pyproject.toml') {
          // A package's manifest, checked with its entry (in this share): what its entry reports on it.
          modules.push({ uri, findings: program.analysis(uri)?.findings ?? [], final: true });
          continue;
        }
        const analysis = program.module(uri);
        const suppressions = analysis?.suppressions.directives.length || analysis?.suppressions.malformed.length ? analysis.suppressions : undefined;
        modules.push(analysis ? { uri, findings: program.findings(uri), generation: analysis.model.generation, suppressions } : { uri });
      } catch (e) {
        modules.push({ uri, error: e instanceof Error ? e.message : String(e) });
      }
    }
    return { kind: 'checked', modules, extensions: this.share.map((e) => program.registeredExtension(e)) };
  }
}

/** In a worker thread started by checkInWorkers: its share of the program. */
export async function serveCheckWorker(): Promise<void> {
  const port = parentPort!;
  const send = (m: FromWorker) => port.postMessage(m);
  try {
    const share = new ShareChecker(workerData as WorkerInput);
    send(await share.indexed());
    const task = await new Promise<ToWorker>((resolve) => port.once('message', resolve));
    send(await share.check(task));
  } catch (e) {
    send({ kind: 'failed', message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
}
