// The command-line face of the same analysis, for CI:
//   vis-authoring check [--format text|json|github|sarif] [--fix | --diff] [--select RULES] [--ignore RULES] [--jobs N] [PATH...]
//       exit 1 when any error is found or a file could not be analysed (with --diff: when a fix would change a file), 2 on bad usage
//   vis-authoring explain RULE-ID                          the rule's documentation page
//   vis-authoring numstat BEFORE AFTER                     line_changes counts, as git diff --numstat prints them
//   vis-authoring contracts [--diff REV] [PATH...]         tool contracts, or what changed for the model since REV
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, workerData } from 'node:worker_threads';
import { createTwoFilesPatch } from 'diff';
import { readTextFileSync } from '../../shared/files';
import type { Analysis } from './analysis';
import { initParser, parserReady } from './parse/parser';
import { runNumstat } from './changes/numstat';
import { rulePage } from './docs/rulePages';
import { fixAll } from './fixes/fixAll';
import { ruleCatalog, ruleInfo } from './rules/catalog';
import { selectsAny } from './config/selection';
import type { Finding } from './rules/types';
import type { Program } from './workspace/program';
import { checkInWorkers, serveCheckWorker } from './workspace/parallel';
import { commandLineTargets, shownPath } from './workspace/targets';
import { runContracts } from './compare/contractsCli';

const USAGE = `usage: vis-authoring check [--format text|json|github|sarif] [--fix | --diff] [--select RULES] [--ignore RULES] [--jobs N] [PATH...]
       vis-authoring explain RULE-ID
       vis-authoring numstat BEFORE AFTER
       vis-authoring contracts [--format text|json] [--contract-format C1|C2|C3] [--diff REV] [PATH...]

Checks Vis extension files and the modules they import. A project root (a folder with
.vis/extensions) is checked as Vis would load it: the entry files of .vis/extensions, and the folder
itself when it is an extension package (extension.py). Any other directory is searched the way Vis
searches an extensions directory: its top-level *.py files (not test_*.py, *_test.py or dotfiles),
<dir>/extension.py and <dir>/current/extension.py. With no PATH, the current folder.
  --fix        write the safe fixes into the files, then report what is left
  --diff       print the safe fixes as a unified diff, write nothing (exit 1 when there is one)
  --select     rules to run (comma-separated ids, family prefixes such as EXT, or ALL), over [tool.vis-authoring]
  --ignore     rules not to run, over [tool.vis-authoring]
  --format     text (default), json, github (workflow annotations) or sarif (SARIF 2.1.0)
  --jobs       threads a folder's files are checked in (default: one per core), with the
               same output as one; the fixes of --fix and --diff are found in one
explain prints the documentation page of a rule. numstat prints the lines AFTER adds and removes
relative to BEFORE (added<TAB>removed<TAB>AFTER), the minimal counts of git diff --minimal --numstat.
contracts prints the tool contracts of the entry files, or with --diff REV what the model sees
differently from git revision REV (exit 1 on a breaking change).`;

const FORMATS = ['text', 'json', 'github', 'sarif'];
const PAGES = 'https://github.com/blockether/vis-authoring/blob/main/docs/rules';

interface Output {
  out(s: string): void;
  err(s: string): void;
}

export async function main(argv: string[], io: Output): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'check') return check(rest, io);
  if (command === 'explain') return explain(rest, io);
  if (command === 'contracts') return runContracts(rest, io);
  if (command === 'numstat') {
    const line = (write: (s: string) => void) => (s: string) => write(s.replace(/\n$/, ''));
    return runNumstat(rest, line(io.out), line(io.err));
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    io.out(USAGE);
    return 0;
  }
  io.err(command ? `unknown command: ${command}\n${USAGE}` : USAGE);
  return 2;
}

function explain(args: string[], io: Output): number {
  if (args.length !== 1) {
    io.err(`usage: vis-authoring explain RULE-ID\n(rules: ${ruleCatalog().map((r) => r.id).join(', ')})`);
    return 2;
  }
  const id = args[0].toUpperCase();
  const page = ruleInfo(id) && rulePage(id);
  if (!page) {
    io.err(`unknown rule: ${args[0]} (rules: ${ruleCatalog().map((r) => r.id).join(', ')})`);
    return 2;
  }
  io.out(page.replace(/\n$/, ''));
  return 0;
}

interface CheckOptions {
  format: string;
  fix: boolean;
  diff: boolean;
  /** Worker threads for a folder's program (1: checked in this thread). */
  jobs: number;
  select?: string[];
  ignore?: string[];
  paths: string[];
}

function parseCheck(args: string[]): CheckOptions | string {
  const o: CheckOptions = { format: 'text', fix: false, diff: false, jobs: os.availableParallelism(), paths: [] };
  const ids = ruleCatalog().map((r) => r.id);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const eq = a.indexOf('=');
    const [flag, inline] = a.startsWith('--') && eq !== -1 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    const value = () => inline ?? args[++i] ?? '';
    if (flag === '--format') o.format = value();
    else if (flag === '--jobs' || a === '-j') {
      const n = value();
      o.jobs = /^\d+$/.test(n) ? Number(n) : NaN;
      if (!(o.jobs >= 1)) return `--jobs takes a whole number of worker threads (1 or more), not '${n}'`;
    }
    else if (flag === '--fix' && inline === undefined) o.fix = true;
    else if (flag === '--diff' && inline === undefined) o.diff = true;
    else if (flag === '--select' || flag === '--ignore') {
      const list = value().split(',').map((s) => s.trim()).filter(Boolean);
      const unknown = list.find((s) => !selectsAny(s, ids));
      if (unknown) return `${flag}: unknown rule '${unknown}' (a rule id, a family prefix such as EXT, or ALL)`;
      const key = flag === '--select' ? 'select' : 'ignore';
      o[key] = [...(o[key] ?? []), ...list];
    } else if (a.startsWith('-')) return `unknown option: ${a}\n${USAGE}`;
    else o.paths.push(a);
  }
  if (!FORMATS.includes(o.format)) return `--format takes ${FORMATS.join(', ')}, not '${o.format}'`;
  if (o.fix && o.diff) return '--fix writes the fixes and --diff only shows them: use one';
  return o;
}

/** One checked module: where it is shown, and its analysis (or why there is none). */
interface Checked {
  shown: string;
  file: string;
  uri: string;
  program: Program;
  /** Its analysis, when it was checked in this thread (fixes need it). */
  analysis?: Analysis;
  /** Everything reported on it (from its analysis, or from a worker). */
  findings?: Finding[];
  generation?: string;
  /** Why it could not be analysed (reported as ANA-001). */
  problem?: string;
}

interface Row {
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: string;
  rule: string;
  message: string;
  generation: string | null;
  fix: { title: string; edits: { line: number; column: number; endLine: number; endColumn: number; newText: string }[] } | null;
}

/** Finds and analyses what the paths name; undefined (after a message) on a path that does not exist. */
async function analyse(o: CheckOptions, io: Output, jobs = o.jobs): Promise<{ modules: Checked[] } | undefined> {
  const found = commandLineTargets(o.paths, { selection: { select: o.select, ignore: o.ignore } });
  if ('missing' in found) {
    io.err(`no such file or directory: ${found.missing}`);
    return undefined;
  }
  const { targets } = found;
  const modules: Checked[] = [];
  const seen = new Set<string>();
  for (const t of targets) {
    // A folder's program on every core (this thread and worker threads), with the results of one program in one thread.
    const entries = t.uris.length ? [] : t.program.entries();
    const parallel = jobs > 1 && entries.length > 1 ? await checkInWorkers(t.program, entries, jobs, __filename) : undefined;
    // The parser is loaded where modules are parsed (in parallel: here and in each worker).
    if (!parallel) await initParser();
    const uris = parallel ? parallel.uris : t.uris.length ? t.uris : t.program.index();
    // Every module's own findings first, so the findings an entry puts on its modules are known.
    if (!parallel) {
      for (const uri of uris) {
        try {
          t.program.findings(uri);
        } catch {
          // Reported below, with the module.
        }
      }
    }
    for (const uri of uris) {
      if (seen.has(uri)) continue;
      seen.add(uri);
      const file = fileURLToPath(uri);
      // Paths as the user spelled the folder (or file) they gave.
      const shown = shownPath(t, file);
      const m: Checked = { shown, file, uri, program: t.program };
      modules.push(m);
      try {
        if (parallel) {
          const done = parallel.results.get(uri);
          if (done?.error !== undefined) throw new Error(done.error);
          m.findings = done?.findings;
          m.generation = done?.generation;
        } else {
          // Right after two parser faults in a row, wait for the fresh parser (made in the background).
          await parserReady();
          m.analysis = t.program.analysis(uri);
          m.findings = m.analysis?.findings;
          m.generation = m.analysis?.model.generation;
        }
      } catch (e) {
        m.problem = `vis-authoring could not analyse this file: ${e instanceof Error ? e.message : String(e)}`;
        continue;
      }
      if (!m.findings) {
        const read = readTextFileSync(file, { maxBytes: t.program.maxFileSize * 3 });
        m.problem = read.ok ? `vis-authoring could not analyse ${shown}` : read.message;
      }
    }
  }
  return { modules };
}

function notAnalysed(shown: string, message: string): Row {
  return { path: shown, line: 1, column: 1, endLine: 1, endColumn: 1, severity: 'warning', rule: 'ANA-001', message, generation: null, fix: null };
}

function row(shown: string, f: Finding, generation: string | undefined): Row {
  return {
    path: shown,
    line: f.range.start.line + 1,
    column: f.range.start.character + 1,
    endLine: f.range.end.line + 1,
    endColumn: f.range.end.character + 1,
    severity: f.severity,
    rule: f.rule,
    message: f.message,
    generation: generation ?? null,
    fix: f.fix
      ? {
          title: f.fix.title,
          edits: f.fix.edits.map((e) => ({ line: e.range.start.line + 1, column: e.range.start.character + 1, endLine: e.range.end.line + 1, endColumn: e.range.end.character + 1, newText: e.newText })),
        }
      : null,
  };
}

/** The fixed text of each module that has safe fixes. */
function fixesOf(modules: Checked[]): { m: Checked; before: string; after: string; count: number }[] {
  const out: { m: Checked; before: string; after: string; count: number }[] = [];
  for (const m of modules) {
    if (!m.analysis?.findings.some((f) => f.fix && !f.uri)) continue;
    const source = m.program.sourceOf(m.analysis);
    if (!source) continue;
    const r = fixAll(m.program, m.uri, source.text, m.analysis.findings);
    if (r.text !== source.text) out.push({ m, before: source.text, after: r.text, count: r.applied.length });
  }
  return out;
}

async function check(args: string[], io: Output): Promise<number> {
  const o = parseCheck(args);
  if (typeof o === 'string') {
    io.err(o);
    return 2;
  }
  // Fixes are found and applied with each module's analysis at hand: in this thread.
  let found = await analyse(o, io, o.fix || o.diff ? 1 : o.jobs);
  if (!found) return 2;
  let fixed = 0;
  if (o.diff || o.fix) {
    const changes = fixesOf(found.modules);
    const count = changes.reduce((n, c) => n + c.count, 0);
    const files = `${changes.length} file${changes.length === 1 ? '' : 's'}`;
    if (o.diff) {
      for (const c of changes) io.out(createTwoFilesPatch(`a/${c.m.shown}`, `b/${c.m.shown}`, c.before, c.after, '', '').replace(/^=+\n/, '').replace(/\n$/, ''));
      io.err(`${count} fix${count === 1 ? '' : 'es'} would be applied to ${files}`);
      return changes.length ? 1 : 0;
    }
    for (const c of changes) fs.writeFileSync(c.m.file, c.after);
    fixed = count;
    // What is left, analysed afresh from the files as written.
    if (changes.length) found = (await analyse(o, io))!;
  }
  const rows: Row[] = [];
  let errors = 0;
  let unanalysed = 0;
  for (const m of found.modules) {
    if (!m.findings) {
      rows.push(notAnalysed(m.shown, m.problem ?? `vis-authoring could not analyse ${m.shown}`));
      unanalysed++;
      continue;
    }
    for (const f of m.findings) {
      if (f.severity === 'error') errors++;
      if (f.rule === 'ANA-001') unanalysed++;
      rows.push(row(m.shown, f, m.generation));
    }
  }
  const checked = found.modules.length;
  if (o.format === 'json') io.out(JSON.stringify(rows, null, 2));
  else if (o.format === 'github') for (const r of rows) io.out(annotation(r));
  else if (o.format === 'sarif') io.out(JSON.stringify(sarif(rows), null, 2));
  else for (const r of rows) io.out(`${r.path}:${r.line}:${r.column}: ${r.severity} [${r.rule}] ${r.message}`);
  if (o.format === 'text' || o.format === 'github') {
    const skipped = unanalysed ? `, ${unanalysed} not analysed` : '';
    const fixes = o.fix ? `, ${fixed} fix${fixed === 1 ? '' : 'es'} applied` : '';
    io.err(`${checked} file${checked === 1 ? '' : 's'} checked, ${errors} error${errors === 1 ? '' : 's'}${skipped}${fixes}`);
  }
  return errors > 0 || unanalysed > 0 ? 1 : 0;
}

/** A GitHub Actions workflow command: an annotation on the file and lines of the finding. */
function annotation(r: Row): string {
  const level = r.severity === 'error' ? 'error' : r.severity === 'warning' ? 'warning' : 'notice';
  const property = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/:/g, '%3A').replace(/,/g, '%2C');
  const data = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  return `::${level} file=${property(r.path)},line=${r.line},col=${r.column},endLine=${r.endLine},endColumn=${r.endColumn},title=${property(r.rule)}::${data(r.message)}`;
}

/** SARIF 2.1.0 (GitHub code scanning and other SARIF viewers): one run, the rules reported, each result with its fix. */
function sarif(rows: Row[]): object {
  const level = (s: string) => (s === 'error' ? 'error' : s === 'warning' ? 'warning' : 'note');
  const used = [...new Set(rows.map((r) => r.rule))].sort();
  const rules = used.map((id) => {
    const info = ruleInfo(id);
    return {
      id,
      shortDescription: { text: info?.summary ?? id },
      helpUri: `${PAGES}/${id}.md`,
      defaultConfiguration: { level: level(info?.severity ?? 'warning') },
    };
  });
  const artifact = (p: string) => ({ uri: p.split(path.sep).join('/') });
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'vis-authoring', informationUri: 'https://github.com/blockether/vis-authoring', rules } },
        columnKind: 'utf16CodeUnits',
        results: rows.map((r) => ({
          ruleId: r.rule,
          ruleIndex: used.indexOf(r.rule),
          level: level(r.severity),
          message: { text: r.message },
          locations: [{ physicalLocation: { artifactLocation: artifact(r.path), region: { startLine: r.line, startColumn: r.column, endLine: r.endLine, endColumn: r.endColumn } } }],
          ...(r.fix
            ? {
                fixes: [
                  {
                    description: { text: r.fix.title },
                    artifactChanges: [
                      {
                        artifactLocation: artifact(r.path),
                        replacements: r.fix.edits.map((e) => ({ deletedRegion: { startLine: e.line, startColumn: e.column, endLine: e.endLine, endColumn: e.endColumn }, insertedContent: { text: e.newText } })),
                      },
                    ],
                  },
                ],
              }
            : {}),
        })),
      },
    ],
  };
}

if (!isMainThread && (workerData as { kind?: string } | undefined)?.kind === 'check') {
  void serveCheckWorker();
} else if (require.main === module) {
  main(process.argv.slice(2), { out: (s) => console.log(s), err: (s) => console.error(s) }).then(
    (code) => process.exit(code),
    (e) => {
      console.error(e instanceof Error ? e.message : String(e));
      process.exit(2);
    },
  );
}
