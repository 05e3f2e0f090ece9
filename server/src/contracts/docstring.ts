// `inspect.cleandoc` / `inspect.getdoc`, exactly as CPython 3.11 writes them: tabs expanded, the
// common indentation of the lines after the first removed, leading and trailing *empty* lines
// dropped (a whitespace-only last line that is longer than the margin is kept, as Python keeps it).
import { pyIsSpace } from '../model/literals';

/** str.expandtabs(8). */
export function expandTabs(line: string, size = 8): string {
  if (!line.includes('\t')) return line;
  let out = '';
  let col = 0;
  for (const ch of line) {
    if (ch === '\t') {
      const n = size - (col % size);
      out += ' '.repeat(n);
      col += n;
    } else {
      out += ch;
      col = ch === '\n' || ch === '\r' ? 0 : col + 1;
    }
  }
  return out;
}

function lstripLength(s: string): number {
  let i = 0;
  while (i < s.length && pyIsSpace(s[i])) i++;
  return s.length - i;
}

export function cleandoc(doc: string): string {
  const lines = expandTabs(doc).split('\n');
  let margin = Infinity;
  for (const line of lines.slice(1)) {
    const content = lstripLength(line);
    if (content) margin = Math.min(margin, line.length - content);
  }
  if (lines.length) lines[0] = lines[0].slice(lines[0].length - lstripLength(lines[0]));
  if (margin < Infinity) for (let i = 1; i < lines.length; i++) lines[i] = lines[i].slice(margin);
  while (lines.length && !lines[lines.length - 1]) lines.pop();
  while (lines.length && !lines[0]) lines.shift();
  return lines.join('\n');
}

/** True when `inspect.getdoc` gives nothing usable: no docstring, or whitespace only. */
export function isBlankDoc(doc: string | undefined): boolean {
  if (doc === undefined) return true;
  for (const ch of doc) if (!pyIsSpace(ch)) return false;
  return true;
}
