// The command-line face of the same analysis, for CI:
//   vis-authoring check [--format text|json] [PATH...]   exit 1 when any error is found or a file could not be analysed, 2 on bad usage
//   vis-authoring numstat BEFORE AFTER                    line_changes counts, as git diff --numstat prints them
//   vis-authoring contracts [--diff REV] [PATH...]         tool contracts, or what changed for the model since REV
import { fileURLToPath } from 'node:url';
import { readTextFileSync } from '../../shared/files';
import type { Analysis } from './analysis';
import { initParser, parserReady } from './parse/parser';
import { runNumstat } from './changes/numstat';
import { commandLineTargets, shownPath } from './workspace/targets';
import { runContracts } from './compare/contractsCli';

const USAGE = `usage: vis-authoring check [--format text|json] [PATH...]
       vis-authoring numstat BEFORE AFTER
       vis-authoring contracts [--format text|json] [--contract-format C1|C2|C3] [--diff REV] [PATH...]

Checks Vis extension files and the modules they import. A project root (a folder with
.vis/extensions) is checked as Vis would load it: the entry files of .vis/extensions, and the folder
itself when it is an extension package (extension.py). Any other directory is searched the way Vis
searches an extensions directory: its top-level *.py files (not test_*.py, *_test.py or dotfiles),
<dir>/extension.py and <dir>/current/extension.py. With no PATH, the current folder.
numstat prints the lines AFTER adds and removes relative to BEFORE (added<TAB>removed<TAB>AFTER), the
minimal counts of git diff --minimal --numstat.
contracts prints the tool contracts of the entry files, or with --diff REV what the model sees
differently from git revision REV (exit 1 on a breaking change).`;

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
  const results: { path: string; line: number; column: number; endLine: number; endColumn: number; severity: string; rule: string; message: string }[] = [];
  // Files that could not be read or analysed: reported (ANA-001), never fatal to the run, and exit 1.
  let unanalysed = 0;
  const notAnalysed = (shown: string, message: string) => {
    unanalysed++;
    results.push({ path: shown, line: 1, column: 1, endLine: 1, endColumn: 1, severity: 'warning', rule: 'ANA-001', message });
  };
  // What to check: a directory through a program of its own (its entries and the modules they reach),
  // a file through the program of the current folder.
  const found = commandLineTargets(paths);
  if ('missing' in found) {
    io.err(`no such file or directory: ${found.missing}`);
    return 2;
  }
  const { targets } = found;
  await initParser();
  let errors = 0;
  let checked = 0;
  const seen = new Set<string>();
  for (const t of targets) {
    const uris = t.uris.length ? t.uris : t.program.index();
    // Every module's own findings first, so the findings an entry puts on its modules are known.
    for (const uri of uris) {
      try {
        t.program.findings(uri);
      } catch {
        // Reported below, with the module.
      }
    }
    for (const uri of uris) {
      if (seen.has(uri)) continue;
      seen.add(uri);
      const file = fileURLToPath(uri);
      // Paths as the user spelled the folder (or file) they gave.
      const shown = shownPath(t, file);
      checked++;
      let analysis: Analysis | undefined;
      try {
        // Right after two parser faults in a row, wait for the fresh parser (made in the background).
        await parserReady();
        analysis = t.program.analysis(uri);
      } catch (e) {
        notAnalysed(shown, `vis-authoring could not analyse this file: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      if (!analysis) {
        const read = readTextFileSync(file, { maxBytes: t.program.maxFileSize * 3 });
        notAnalysed(shown, read.ok ? `vis-authoring could not analyse ${shown}` : read.message);
        continue;
      }
      for (const f of analysis.findings) {
        if (f.severity === 'error') errors++;
        if (f.rule === 'ANA-001') unanalysed++;
        results.push({
          path: shown,
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
  }
  if (format === 'json') io.out(JSON.stringify(results, null, 2));
  else {
    for (const r of results) io.out(`${r.path}:${r.line}:${r.column}: ${r.severity} [${r.rule}] ${r.message}`);
    const skipped = unanalysed ? `, ${unanalysed} not analysed` : '';
    io.err(`${checked} file${checked === 1 ? '' : 's'} checked, ${errors} error${errors === 1 ? '' : 's'}${skipped}`);
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
