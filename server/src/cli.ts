// The command-line face of the same analysis, for CI:
//   vis-authoring check [--format text|json] [PATH...]   exit 1 when any error is found, 2 on bad usage
//   vis-authoring numstat BEFORE AFTER                    line_changes counts, as git diff --numstat prints them
//   vis-authoring contracts [--diff REV] [PATH...]         tool contracts, or what changed for the model since REV
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_MAX_FILE_SIZE, analyzeText } from './analysis';
import type { Finding } from './rules/types';
import { readTextFileSync } from '../../shared/files';
import { initParser, parserReady } from './parse/parser';
import { runNumstat } from './changes/numstat';
import { entryFilesOf } from './discovery';
import { runContracts } from './compare/contractsCli';

const USAGE = `usage: vis-authoring check [--format text|json] [PATH...]
       vis-authoring numstat BEFORE AFTER
       vis-authoring contracts [--format text|json] [--contract-format C1|C2|C3] [--diff REV] [PATH...]

Checks Vis extension files. A directory is searched the way Vis discovers extensions:
its top-level *.py files (not test_*.py or *_test.py), <dir>/extension.py and <dir>/current/extension.py.
numstat prints the lines AFTER adds and removes relative to BEFORE (added<TAB>removed<TAB>AFTER), the
minimal counts of git diff --minimal --numstat.
contracts prints the tool contracts, or with --diff REV what the model sees differently from git
revision REV (exit 1 on a breaking change).`;

interface Output {
  out(s: string): void;
  err(s: string): void;
}

export async function main(argv: string[], io: Output): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'check') return check(rest, io);
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

async function check(args: string[], io: Output): Promise<number> {
  let format = 'text';
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--format') format = args[++i] ?? '';
    else if (a.startsWith('--format=')) format = a.slice('--format='.length);
    else if (a.startsWith('-')) {
      io.err(`unknown option: ${a}\n${USAGE}`);
      return 2;
    } else paths.push(a);
  }
  if (format !== 'text' && format !== 'json') {
    io.err(`--format takes text or json, not '${format}'`);
    return 2;
  }
  // Files that could not be read or analysed: reported, never fatal to the run, and the exit status is 1.
  let unanalysed = 0;
  const results: { path: string; line: number; column: number; endLine: number; endColumn: number; severity: string; rule: string; message: string }[] = [];
  const notAnalysed = (file: string, message: string) => {
    unanalysed++;
    results.push({ path: file, line: 1, column: 1, endLine: 1, endColumn: 1, severity: 'warning', rule: 'ANA-001', message });
  };
  const found = entryFilesOf(paths);
  if ('missing' in found) {
    io.err(`no such file or directory: ${found.missing}`);
    return 2;
  }
  for (const p of found.loops) notAnalysed(p, `${p}: too many levels of symbolic links (a symlink loop); not read`);
  const { files } = found;
  await initParser();
  let errors = 0;
  for (const file of files) {
    // Regular files only, at most 3 bytes per character of visAuthoring.maxFileSize, checked before reading.
    const read = readTextFileSync(file, { maxBytes: DEFAULT_MAX_FILE_SIZE * 3 });
    if (!read.ok) {
      notAnalysed(file, `${read.message}`);
      continue;
    }
    let findings: Finding[];
    try {
      // Right after two parser faults in a row, wait for the fresh parser (made in the background).
      await parserReady();
      findings = analyzeText(pathToFileURL(path.resolve(file)).href, read.text).findings;
    } catch (e) {
      notAnalysed(file, `vis-authoring could not analyse this file: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    for (const f of findings) {
      if (f.severity === 'error') errors++;
      if (f.rule === 'ANA-001') unanalysed++;
      results.push({
        path: file,
        line: f.range.start.line + 1,
        column: f.range.start.character + 1,
        endLine: f.range.end.line + 1,
        endColumn: f.range.end.character + 1,
        severity: f.severity,
        rule: f.rule,
        message: f.message,
      });
    }
  }
  if (format === 'json') io.out(JSON.stringify(results, null, 2));
  else {
    for (const r of results) io.out(`${r.path}:${r.line}:${r.column}: ${r.severity} [${r.rule}] ${r.message}`);
    const skipped = unanalysed ? `, ${unanalysed} not analysed` : '';
    io.err(`${files.length} file${files.length === 1 ? '' : 's'} checked, ${errors} error${errors === 1 ? '' : 's'}${skipped}`);
  }
  return errors > 0 || unanalysed > 0 ? 1 : 0;
}

if (require.main === module) {
  main(process.argv.slice(2), { out: (s) => console.log(s), err: (s) => console.error(s) }).then(
    (code) => process.exit(code),
    (e) => {
      console.error(e instanceof Error ? e.message : String(e));
      process.exit(2);
    },
  );
}
