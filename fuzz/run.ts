// `npm run fuzz`: seeded, bounded fuzzing of everything a user stores or a host sends.
//
//   npm run fuzz -- [--target db,blob,gateway] [--count N] [--from I] [--seed S] [--budget-s T] [--case I] [--quick] [--json]
//
// Each target (fuzz/targets/<name>.ts) runs in a worker process of its own. The runner watches it:
// a case that runs past the target's hangMs is a hang (the worker is killed and restarted at the
// next case), a worker that dies is a crash, a case slower than slowMs is slow, an RSS past
// rssLimitMb is a memory finding, and anything a case reports (an exception that escaped, a file
// written) is a finding. Any of them fails the run. Every case is reproducible: its randomness comes
// from (seed, target, case index), and `--target T --case I` re-runs one case alone; `--from I` starts at
// case I (cases I to N-1 of a run of N).
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { FuzzTarget } from './target';

interface Args { targets?: string[]; count?: number; from?: number; seed: number; budgetS?: number; only?: number; quick: boolean; json: boolean }

function parseArgs(argv: string[]): Args {
  const a: Args = { seed: 1, quick: false, json: false };
  for (let i = 0; i < argv.length; i++) {
    const v = () => {
      const x = argv[++i];
      if (x === undefined) usage(`${argv[i - 1]} needs a value`);
      return x;
    };
    switch (argv[i]) {
      case '--target': a.targets = v().split(','); break;
      case '--count': a.count = int(v()); break;
      case '--from': a.from = int(v()); break;
      case '--seed': a.seed = int(v()); break;
      case '--budget-s': a.budgetS = Number(v()); break;
      case '--case': a.only = int(v()); break;
      case '--quick': a.quick = true; break;
      case '--json': a.json = true; break;
      default: usage(`unknown option ${argv[i]}`);
    }
  }
  return a;
}
function int(s: string): number {
  const n = Number(s);
  if (!Number.isInteger(n) || n < 0) usage(`not a count: ${s}`);
  return n;
}
function usage(why: string): never {
  console.error(`fuzz: ${why}\nusage: npm run fuzz -- [--target db,blob,gateway] [--count N] [--from I] [--seed S] [--budget-s T] [--case I] [--quick] [--json]`);
  process.exit(2);
}

interface Finding { i: number; kind: string; detail: string }
interface Summary {
  target: string;
  about: string;
  cases: number;
  planned: number;
  seconds: number;
  outcomes: Record<string, number>;
  findings: Finding[];
  slowestMs: number;
  slowestCase: number;
  rssPeakMb: number;
  rssStartMb: number;
  /** The targets' own figures (CaseResult.metrics): sums and maxima over the cases. */
  metrics: { sum: Record<string, number>; max: Record<string, number> };
}

function runTarget(name: string, t: FuzzTarget, args: Args): Promise<Summary> {
  const planned = args.only !== undefined ? 1 : args.count ?? (args.quick ? t.quickCount : t.count);
  const s: Summary = { target: name, about: t.about, cases: 0, planned, seconds: 0, outcomes: {}, findings: [], slowestMs: 0, slowestCase: -1, rssPeakMb: 0, rssStartMb: 0, metrics: { sum: {}, max: {} } };
  const started = Date.now();
  const budgetMs = (args.budgetS ?? Infinity) * 1000;
  return new Promise((resolve) => {
    const spawnFrom = (from: number) => {
      if (from >= planned || Date.now() - started > budgetMs) return finish();
      const child = fork(path.join(__dirname, 'worker.ts'), [name, String(args.seed), String(from), String(planned), args.only === undefined ? '' : String(args.only)], {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      // Stopping the runner stops its worker (and the worker's own children with it).
      const stop = () => {
        child.kill('SIGKILL');
        process.exit(130);
      };
      process.once('SIGINT', stop).once('SIGTERM', stop);
      child.once('exit', () => process.off('SIGINT', stop).off('SIGTERM', stop));
      let current = -1;
      let watchdog: NodeJS.Timeout | undefined;
      let settled = false;
      const next = (at: number) => { if (!settled) { settled = true; clearTimeout(watchdog); spawnFrom(at); } };
      child.on('message', (m: any) => {
        if (m.type === 'start') {
          current = m.i;
          clearTimeout(watchdog);
          watchdog = setTimeout(() => {
            s.findings.push({ i: current, kind: 'hang', detail: `still running after ${t.hangMs} ms` });
            s.cases++;
            child.kill('SIGKILL');
            next(current + 1);
          }, t.hangMs);
        } else if (m.type === 'done') {
          clearTimeout(watchdog);
          s.cases++;
          s.outcomes[m.outcome] = (s.outcomes[m.outcome] ?? 0) + 1;
          if (m.finding) s.findings.push({ i: m.i, kind: m.kind ?? 'finding', detail: m.finding });
          for (const [k, v] of Object.entries((m.metrics?.sum ?? {}) as Record<string, number>)) s.metrics.sum[k] = (s.metrics.sum[k] ?? 0) + v;
          for (const [k, v] of Object.entries((m.metrics?.max ?? {}) as Record<string, number>)) s.metrics.max[k] = Math.max(s.metrics.max[k] ?? -Infinity, v);
          if (m.ms > t.slowMs) s.findings.push({ i: m.i, kind: 'slow', detail: `${Math.round(m.ms)} ms (limit ${t.slowMs} ms)` });
          if (m.ms > s.slowestMs) { s.slowestMs = m.ms; s.slowestCase = m.i; }
          const mb = m.rss / 1048576;
          if (!s.rssStartMb) s.rssStartMb = mb;
          s.rssPeakMb = Math.max(s.rssPeakMb, mb);
          if (mb > t.rssLimitMb && !s.findings.some((f) => f.kind === 'memory')) s.findings.push({ i: m.i, kind: 'memory', detail: `RSS ${Math.round(mb)} MB (limit ${t.rssLimitMb} MB)` });
          if (Date.now() - started > budgetMs) { child.kill('SIGKILL'); next(planned); }
        } else if (m.type === 'fatal') {
          s.findings.push({ i: m.i, kind: 'fatal', detail: m.error });
          next(planned);
        }
      });
      child.on('exit', (code, signal) => {
        if (settled) return;
        if (current >= 0 && s.cases < planned && (code !== 0 || signal)) {
          s.findings.push({ i: current, kind: 'crash', detail: `the worker exited (${signal ?? code})` });
          s.cases++;
          next(current + 1);
        } else next(planned);
      });
    };
    const finish = () => {
      s.seconds = (Date.now() - started) / 1000;
      resolve(s);
    };
    spawnFrom(args.only === undefined ? Math.min(args.from ?? 0, planned) : 0);
  });
}

function report(s: Summary): void {
  const outcomes = Object.entries(s.outcomes).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n} ${k}`).join(', ');
  const count = (k: string) => s.findings.filter((f) => f.kind === k).length;
  console.log(`\n## ${s.target}: ${s.about}`);
  console.log(`${s.cases} of ${s.planned} cases in ${s.seconds.toFixed(1)} s: ${outcomes || 'none'}`);
  const known = ['finding', 'hang', 'crash', 'slow', 'memory', 'fatal'];
  const others = [...new Set(s.findings.map((f) => f.kind).filter((k) => !known.includes(k)))].map((k) => `, ${k} ${count(k)}`).join('');
  console.log(`escapes ${count('finding')}, hangs ${count('hang')}, crashes ${count('crash')}, slow ${count('slow')}, memory ${count('memory')}, fatal ${count('fatal')}${others}; ` +
    `slowest case ${Math.round(s.slowestMs)} ms (#${s.slowestCase}); RSS ${Math.round(s.rssStartMb)} → peak ${Math.round(s.rssPeakMb)} MB`);
  const figures = [...Object.entries(s.metrics.sum).map(([k, v]) => `${k} ${Math.round(v)}`), ...Object.entries(s.metrics.max).map(([k, v]) => `${k} (max) ${Math.round(v)}`)];
  if (figures.length) console.log(figures.join(', '));
  // The first 20, and the first of every other kind.
  const shown = [...s.findings.slice(0, 20), ...s.findings.filter((f, k) => k >= 20 && s.findings.findIndex((g) => g.kind === f.kind) === k)];
  for (const f of shown) console.log(`  FINDING ${f.kind} in case ${f.i} (re-run: npm run fuzz -- --target ${s.target} --case ${f.i}): ${f.detail.split('\n').slice(0, 6).join('\n    ')}`);
}

(async () => {
  const args = parseArgs(process.argv.slice(2));
  const available = fs.readdirSync(path.join(__dirname, 'targets')).filter((f) => f.endsWith('.ts')).map((f) => f.replace(/\.ts$/, '')).sort();
  const names = args.targets ?? available;
  for (const n of names) if (!available.includes(n)) usage(`no target ${n} (have: ${available.join(', ')})`);
  const summaries: Summary[] = [];
  console.log(`fuzz seed ${args.seed}${args.quick ? ' (quick)' : ''}`);
  for (const n of names) {
    const t = (await import(path.join(__dirname, 'targets', `${n}.ts`))).default as FuzzTarget;
    const s = await runTarget(n, t, args);
    report(s);
    summaries.push(s);
  }
  const bad = summaries.reduce((a, s) => a + s.findings.length, 0) + summaries.filter((s) => s.cases < (args.budgetS ? 1 : s.planned - (args.only === undefined ? Math.min(args.from ?? 0, s.planned) : 0))).length;
  if (args.json) console.log(`FUZZ-SUMMARY ${JSON.stringify(summaries.map(({ findings, ...rest }) => ({ ...rest, findings: findings.length, kinds: findings.map((f) => f.kind) })))}`);
  console.log(bad ? `\nfuzz: FAILED (${bad} findings)` : '\nfuzz: no findings');
  process.exit(bad ? 1 : 0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
