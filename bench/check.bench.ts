// `vis-authoring check` on the generated 500-file workspace of the program benchmark (125 packages),
// as CI runs it (`node dist/cli.js check DIR`): with one job, and with one worker thread per core (the
// default), wall time and peak RSS. Baseline, in the same run (interleaved, medians): a Node process that
// only reads and parses the same files with tree-sitter (web-tree-sitter from dist/), on one thread.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateWorkspace } from './program.bench';
import { median } from './stats';

const DIST = path.join(__dirname, '..', 'dist');
const FILES = 500;
const RUNS = 5;

/** Preloaded into each measured process: its peak RSS (threads included) on stderr at exit. */
const PEAK = `process.on('exit', () => require('fs').writeSync(2, '\\npeak-rss-kb ' + process.resourceUsage().maxRSS + '\\n'));`;

/** The parse-only pass: read every .py file under a folder and parse it. */
const PARSE_ONLY = `
const fs = require('fs'), path = require('path');
(async () => {
  const TS = require(${JSON.stringify(path.join(DIST, 'web-tree-sitter.cjs'))});
  await TS.Parser.init({ locateFile: () => ${JSON.stringify(path.join(DIST, 'web-tree-sitter.wasm'))} });
  const language = await TS.Language.load(fs.readFileSync(${JSON.stringify(path.join(DIST, 'tree-sitter-python.wasm'))}));
  const parser = new TS.Parser();
  parser.setLanguage(language);
  const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const f = path.join(d, e.name); if (e.isDirectory()) walk(f); else if (f.endsWith('.py')) parser.parse(fs.readFileSync(f, 'utf8')).delete(); } };
  walk(process.argv[2]);
})();
`;

function measure(args: string[]): { ms: number; peak: number; stderr: string } {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const ms = performance.now() - t;
  const peak = Number(/peak-rss-kb (\d+)/.exec(r.stderr)?.[1] ?? NaN) / 1024;
  return { ms, peak, stderr: r.stderr };
}

export default async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-bench-check-'));
  try {
    const packages = generateWorkspace(dir, FILES);
    const preload = path.join(dir, 'peak.js');
    const parseOnly = path.join(dir, 'parse-only.js');
    fs.writeFileSync(preload, PEAK);
    fs.writeFileSync(parseOnly, PARSE_ONLY);
    const cli = path.join(DIST, 'cli.js');
    const jobs = os.availableParallelism();
    const rows = {
      parse: { ms: [] as number[], peak: [] as number[] },
      one: { ms: [] as number[], peak: [] as number[] },
      all: { ms: [] as number[], peak: [] as number[] },
    };
    for (let i = -1; i < RUNS; i++) {
      const p = measure(['-r', preload, parseOnly, path.join(dir, '.vis')]);
      const one = measure(['-r', preload, cli, 'check', '--jobs', '1', dir]);
      const all = measure(['-r', preload, cli, 'check', dir]);
      // Every Python file and each package's pyproject.toml.
      const summary = `${FILES + packages} files checked, 0 errors`;
      if (!one.stderr.includes(summary) || !all.stderr.includes(summary)) throw new Error(`unexpected check output:\n${one.stderr}\n${all.stderr}`);
      if (i < 0) continue;
      for (const [row, m] of [[rows.parse, p], [rows.one, one], [rows.all, all]] as const) {
        row.ms.push(m.ms);
        row.peak.push(m.peak);
      }
    }
    const base = median(rows.parse.ms);
    console.log(`workspace: ${FILES} files in ${packages} packages; ${os.availableParallelism()} cores`);
    console.log('| run | median ms | ratio to parse only | peak RSS MB | target |');
    console.log('|---|---|---|---|---|');
    console.log(`| read and parse every file, one thread (baseline) | ${base.toFixed(0)} | 1.00 | ${median(rows.parse.peak).toFixed(0)} | |`);
    console.log(`| check --jobs 1 | ${median(rows.one.ms).toFixed(0)} | ${(median(rows.one.ms) / base).toFixed(2)} | ${median(rows.one.peak).toFixed(0)} | |`);
    console.log(`| check (--jobs ${jobs}, the default) | ${median(rows.all.ms).toFixed(0)} | ${(median(rows.all.ms) / base).toFixed(2)} | ${median(rows.all.peak).toFixed(0)} | ≤ 2,000 ms and ≤ 150 MB on 2 cores |`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
