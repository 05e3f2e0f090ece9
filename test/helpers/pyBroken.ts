// Broken Python for the syntax tests: valid extension files with one edit of the kinds people make while
// typing (a bracket, quote or colon deleted or added, a line indented wrongly, a line cut short, a stray
// character), each case seeded so that a failure can be re-run alone.
import fs from 'node:fs';
import path from 'node:path';
import { PyRandom } from '../changes/pyRandom';

/** The valid files the mutations start from: the example extensions and the realistic runtime fixtures. */
export function baseFiles(): { name: string; text: string }[] {
  const root = path.join(__dirname, '..', '..');
  const files = [
    'examples/extensions/counter.py',
    'examples/extensions/greeter.py',
    'examples/extensions/probe/extension.py',
    'test/fixtures/runtime/deploy.py',
    'test/fixtures/runtime/notes.py',
    'test/fixtures/runtime/counter.py',
    'test/fixtures/runtime/lang_toy/extension.py',
  ];
  return files.map((f) => ({ name: f, text: fs.readFileSync(path.join(root, f), 'utf8') }));
}

const DELETABLE = ':()[]{}"\',=';
const INSERTABLE = [')', ']', '}', '(', '[', '{', '"', "'", ':', ',', '$', '`', '\\', '1a', ' = ', 'f"{', '}', '\t'];
const LINES = ['else:', 'return 1', '    pass', 'def broken(', 'x = (', 'elif x:', 'try:', '  y = 2', 'print "x"', 'break', '"""', 'import'];

export interface Mutation {
  text: string;
  /** What was done, for the failure message. */
  edit: string;
}

/** One mutation of `text` from `rng`. */
export function mutate(text: string, rng: PyRandom): Mutation {
  const lines = text.split('\n');
  const kind = rng.randbelow(8);
  const lineNo = rng.randbelow(Math.max(1, lines.length - 1));
  switch (kind) {
    case 0: {
      // Delete one bracket, quote, colon, comma or equals sign.
      const spots: number[] = [];
      for (let i = 0; i < text.length; i++) if (DELETABLE.includes(text[i])) spots.push(i);
      const at = spots[rng.randbelow(spots.length)];
      return { text: text.slice(0, at) + text.slice(at + 1), edit: `delete ${JSON.stringify(text[at])} at offset ${at}` };
    }
    case 1: {
      const at = rng.randbelow(text.length);
      const s = INSERTABLE[rng.randbelow(INSERTABLE.length)];
      return { text: text.slice(0, at) + s + text.slice(at), edit: `insert ${JSON.stringify(s)} at offset ${at}` };
    }
    case 2: {
      // Indent or dedent one line by two spaces.
      const line = lines[lineNo];
      const out = [...lines];
      out[lineNo] = rng.randbelow(2) ? '  ' + line : line.replace(/^ {1,2}/, '');
      return { text: out.join('\n'), edit: `reindent line ${lineNo + 1}` };
    }
    case 3: {
      const out = [...lines];
      out.splice(lineNo, 1);
      return { text: out.join('\n'), edit: `delete line ${lineNo + 1}` };
    }
    case 4: {
      const out = [...lines];
      const indent = /^\s*/.exec(lines[lineNo])![0];
      out.splice(lineNo, 0, (rng.randbelow(2) ? indent : '') + LINES[rng.randbelow(LINES.length)]);
      return { text: out.join('\n'), edit: `insert a line before line ${lineNo + 1}` };
    }
    case 5: {
      // Cut a line short, as while typing it.
      const line = lines[lineNo];
      const cut = rng.randbelow(Math.max(1, line.length));
      const out = [...lines];
      out[lineNo] = line.slice(0, cut);
      return { text: out.join('\n'), edit: `cut line ${lineNo + 1} at column ${cut}` };
    }
    case 6: {
      // The file ends early.
      const at = rng.randbelow(text.length);
      return { text: text.slice(0, at), edit: `end the file at offset ${at}` };
    }
    default: {
      // Swap two neighbouring lines.
      const out = [...lines];
      const a = Math.min(lineNo, out.length - 2);
      [out[a], out[a + 1]] = [out[a + 1], out[a]];
      return { text: out.join('\n'), edit: `swap lines ${a + 1} and ${a + 2}` };
    }
  }
}
