// `vis-authoring numstat BEFORE AFTER`: the lines AFTER adds to and removes from BEFORE, printed as
// `git diff --numstat` prints them (`added<TAB>removed<TAB>path`), counted by `lineChanges`.
import { readTextFileSync } from '../../../shared/files';
import { lineChanges } from './lineChanges';

export const NUMSTAT_USAGE = 'usage: vis-authoring numstat BEFORE AFTER\n';

/**
 * Runs `numstat` on its operands (`args` holds what follows the subcommand name). `out` and `err`
 * receive whole lines, each ending in "\n", to be written as they are. Returns the exit status: 0
 * when the counts were printed (also for identical files: `0<TAB>0<TAB>AFTER`), 2 for bad usage
 * or a file that cannot be read.
 *
 * Files are compared byte for byte, as git does: they are read as latin1, which maps each byte to
 * one character, so lines are equal exactly when their bytes are, whatever the encoding.
 */
/** The largest file numstat reads (64 MiB). */
const NUMSTAT_MAX_BYTES = 64 * 1024 * 1024;

export function runNumstat(args: string[], out: (s: string) => void, err: (s: string) => void): number {
  if (args.length === 1 && (args[0] === '-h' || args[0] === '--help')) {
    out(NUMSTAT_USAGE);
    return 0;
  }
  if (args.length !== 2) {
    err(NUMSTAT_USAGE);
    return 2;
  }
  const texts: string[] = [];
  for (const file of args) {
    // Regular files only, with a size cap checked before reading (a FIFO or /dev/zero is refused at once).
    const read = readTextFileSync(file, { maxBytes: NUMSTAT_MAX_BYTES, encoding: 'latin1', rejectBinary: false });
    if (!read.ok) {
      err(`vis-authoring numstat: ${read.message}\n`);
      return 2;
    }
    texts.push(read.text);
  }
  const { added, removed } = lineChanges(texts[0], texts[1]);
  out(`${added}\t${removed}\t${args[1]}\n`);
  return 0;
}
