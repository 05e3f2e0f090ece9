// Docstrings as `inspect.getdoc` returns them (`inspect.cleandoc` of the literal's value).
import { pyIsSpace } from './literals';

/** Python's `str.expandtabs()` (tab size 8; the column restarts after `\n` and `\r`). */
function expandTabs(s: string): string {
  if (!s.includes('\t')) return s;
  let out = '';
  let column = 0;
  for (const ch of s) {
    if (ch === '\t') {
      const n = 8 - (column % 8);
      out += ' '.repeat(n);
      column += n;
    } else {
      out += ch;
      column = ch === '\n' || ch === '\r' ? 0 : column + 1;
    }
  }
  return out;
}

function lstrip(s: string): string {
  let i = 0;
  while (i < s.length && pyIsSpace(s[i])) i++;
  return s.slice(i);
}

/**
 * `inspect.cleandoc` (CPython 3.11): expand tabs, drop the first line's leading whitespace and the
 * common indentation of the others, then leading and trailing empty lines. Python reads source files
 * with universal newlines, so a CRLF file's docstring has plain `\n` line ends; so does the result.
 */
export function cleandoc(doc: string): string {
  const lines = expandTabs(doc.replace(/\r\n?/g, '\n')).split('\n');
  let margin = Infinity;
  for (const line of lines.slice(1)) {
    const content = lstrip(line).length;
    if (content) margin = Math.min(margin, line.length - content);
  }
  lines[0] = lstrip(lines[0]);
  if (margin < Infinity) for (let i = 1; i < lines.length; i++) lines[i] = lines[i].slice(margin);
  while (lines.length && !lines[lines.length - 1]) lines.pop();
  while (lines.length && !lines[0]) lines.shift();
  return lines.join('\n');
}

/** True when `inspect.getdoc` gives nothing usable: no docstring, or whitespace only. */
export function isBlankDoc(doc: string | undefined): boolean {
  if (doc === undefined) return true;
  // By UTF-16 unit (Python's whitespace is all in the BMP; half a surrogate pair is no space either).
  for (let i = 0; i < doc.length; i++) if (!pyIsSpace(doc[i])) return false;
  return true;
}
