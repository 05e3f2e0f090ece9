// `vis-authoring contracts`: the Symbol contracts of extension files, and with `--diff REV` what the
// model sees differently from revision REV (`git show REV:path`, for the entry and each sibling module
// its types come from). Exit status: 1 when a compared file has a breaking change, 0 otherwise, 2 on
// bad usage, a path that does not exist, or a revision git cannot read.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readTextFileSync } from '../../../shared/files';
import { compareContracts, contractSet, diffText, type ContractChange } from '../contracts/diff';
import { CONTRACT_FORMATS } from '../contracts/types';
import type { ContractFormatSetting } from '../sdk/profile';
import { initParser, parserReady } from '../parse/parser';
import type { Program } from '../workspace/program';
import { commandLineTargets, shownPath } from '../workspace/targets';
import { revisionContracts } from './committed';

export const CONTRACTS_USAGE = `usage: vis-authoring contracts [--format text|json] [--contract-format auto|C1|C2|C3] [--diff REV] [PATH...]

Prints the tool contracts of Vis extension files, in the contract format of the SDK version each file is
checked against (auto) unless --contract-format says otherwise.
With --diff REV, prints what the model sees differently from git revision REV instead, tool by tool
(committed text read with git show REV:path); exits 1 when a change is breaking.`;

interface Output {
  out(s: string): void;
  err(s: string): void;
}

const MAX_BYTES = 8_000_000;

export async function runContracts(args: string[], io: Output): Promise<number> {
  let format = 'text';
  let contractFormat: ContractFormatSetting = 'auto';
  let rev: string | undefined;
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = (name: string) => (a.startsWith(`${name}=`) ? a.slice(name.length + 1) : args[++i]);
    if (a === '-h' || a === '--help') {
      io.out(CONTRACTS_USAGE);
      return 0;
    } else if (a === '--format' || a.startsWith('--format=')) format = value('--format') ?? '';
    else if (a === '--contract-format' || a.startsWith('--contract-format=')) contractFormat = (value('--contract-format') ?? '') as ContractFormatSetting;
    else if (a === '--diff' || a.startsWith('--diff=')) rev = value('--diff');
    else if (a.startsWith('-')) {
      io.err(`unknown option: ${a}\n${CONTRACTS_USAGE}`);
      return 2;
    } else paths.push(a);
  }
  if (format !== 'text' && format !== 'json') return usage(io, `--format takes text or json, not '${format}'`);
  if (contractFormat !== 'auto' && !CONTRACT_FORMATS.includes(contractFormat)) return usage(io, `--contract-format takes auto, C1, C2 or C3, not '${contractFormat}'`);
  if (rev !== undefined && !/^[^\s-][^\s]*$/.test(rev)) return usage(io, `--diff takes a git revision, not '${rev ?? ''}'`);
  const found = commandLineTargets(paths, { contractFormat });
  if ('missing' in found) {
    io.err(`no such file or directory: ${found.missing}`);
    return 2;
  }
  // The entry files: the file given, or those Vis would load from the directory given.
  const files = found.targets.flatMap((t) => (t.uris.length ? t.uris : t.program.entries().map((e) => pathToFileURL(e.path).href)).map((uri) => ({ t, uri })));
  if (rev !== undefined) {
    const problem = checkRevision(rev, files[0] ? path.dirname(fileURLToPath(files[0].uri)) : process.cwd());
    if (problem) {
      io.err(problem);
      return 2;
    }
  }
  await initParser();
  const results: unknown[] = [];
  let breaking = 0;
  let failed = 0;
  for (const { t, uri } of files) {
    const shown = shownPath(t, fileURLToPath(uri));
    try {
      breaking += await contractsOf(t.program, uri, shown, rev, format, contractFormat, io, results);
    } catch (e) {
      // One file that cannot be read or analysed never stops the run; the exit status says it (2).
      failed++;
      io.err(`cannot analyse ${shown}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (format === 'json') io.out(JSON.stringify(results, null, 2));
  return failed > 0 ? 2 : breaking > 0 ? 1 : 0;
}

/** Prints (or collects) one file's contracts or comparison; returns its number of breaking changes. */
async function contractsOf(program: Program, uri: string, file: string, rev: string | undefined, format: string, contractFormat: ContractFormatSetting, io: Output, results: unknown[]): Promise<number> {
  const abs = fileURLToPath(uri);
  // Right after two parser faults in a row, wait for the fresh parser (made in the background).
  await parserReady();
  const analysis = program.module(uri);
  if (!analysis) {
    const read = readTextFileSync(abs, { maxBytes: program.maxFileSize * 3 });
    throw new Error(read.ok ? 'the file could not be analysed' : read.message);
  }
  if (analysis.model.unanalysed) throw new Error(analysis.model.unanalysed.message);
  const infos = program.symbols(uri);
  if (rev === undefined) {
    results.push({
      path: file,
      tools: infos.flatMap((i) => i.tools.map((t) => ({ name: t.name, hidden: t.hidden, contract: t.contract, unknowns: t.unknowns }))),
      unknownTools: infos.flatMap((i) => i.unknownTools),
    });
    if (format === 'text') {
      io.out(file);
      for (const i of infos) {
        for (const t of i.tools) {
          const c = t.contract;
          io.out(`  ${c.signature.startsWith('(') ? c.name + c.signature : `${c.name}(${c.signature})`}${t.hidden ? '  [hidden]' : ''}`);
          for (const u of t.unknowns) io.out(`    not statically known: ${u.where}: ${u.reason}`);
        }
        for (const u of i.unknownTools) io.out(`  ${u.where}  [contract not statically known: ${u.reason}]`);
      }
    }
    return 0;
  }
  const snapshot = await revisionContracts(abs, async (f) => gitShow(rev, f), contractFormat);
  const diff = compareContracts(snapshot.set ?? { tools: [], unknown: [] }, contractSet(infos));
  results.push({ path: file, base: rev, inBase: snapshot.set !== null, breaking: diff.breaking, changes: diff.changes satisfies ContractChange[] });
  if (format === 'text') {
    io.out(`${file}:`);
    if (!snapshot.set) io.out(`  not in ${rev}: every tool is new`);
    io.out(diffText(diff, rev).replace(/\n$/, '').replace(/^(?=.)/gm, '  '));
  }
  return diff.breaking;
}

function usage(io: Output, message: string): number {
  io.err(`${message}\n${CONTRACTS_USAGE}`);
  return 2;
}

/** Why git cannot read `rev` from `dir` (not a repository, not a commit), or undefined when it can. */
function checkRevision(rev: string, dir: string): string | undefined {
  const r = spawnSync('git', ['-C', dir, 'rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { encoding: 'utf8' });
  if (r.error) return `cannot run git: ${r.error.message}`;
  if (r.status === 0) return undefined;
  const inside = spawnSync('git', ['-C', dir, 'rev-parse', '--is-inside-work-tree'], { encoding: 'utf8' });
  if (inside.status !== 0) return `${dir} is not in a git repository: --diff needs one`;
  return `git does not know the revision '${rev}'`;
}

/** `git show REV:./name` from the file's folder; null when the revision does not have the file. */
function gitShow(rev: string, file: string): string | null {
  const r = spawnSync('git', ['-C', path.dirname(file), 'show', `${rev}:./${path.basename(file)}`], { encoding: 'utf8', maxBuffer: MAX_BYTES * 2 });
  if (r.status === 0) return r.stdout;
  // A folder that is not in the repository, or a path the revision does not have: absent there.
  return null;
}
