// The text of one module version, with LSP positions (0-based line, UTF-16 character: JavaScript string
// indices) and the edits of fixes applied to it the way an LSP client applies a WorkspaceEdit: every edit
// in the original coordinates, sorted by position, none overlapping.
import type { Pos, Range } from '../model/types';
import type { TextEditFix } from '../rules/types';

export class SourceText {
  private starts?: number[];

  constructor(readonly text: string) {}

  /** Offsets of the first character of each line. */
  private lineStarts(): number[] {
    if (!this.starts) {
      const starts = [0];
      for (let i = this.text.indexOf('\n'); i !== -1; i = this.text.indexOf('\n', i + 1)) starts.push(i + 1);
      this.starts = starts;
    }
    return this.starts;
  }

  get lineCount(): number {
    return this.lineStarts().length;
  }

  /** A line without its line break. */
  line(n: number): string {
    const starts = this.lineStarts();
    if (n < 0 || n >= starts.length) return '';
    const end = n + 1 < starts.length ? starts[n + 1] - 1 : this.text.length;
    return this.text.slice(starts[n], end).replace(/\r$/, '');
  }

  /** The offset of a position; positions past a line's end or the text's end are clamped, as LSP clients clamp them. */
  offsetAt(p: Pos): number {
    const starts = this.lineStarts();
    if (p.line >= starts.length) return this.text.length;
    if (p.line < 0) return 0;
    return starts[p.line] + Math.max(0, Math.min(p.character, this.line(p.line).length));
  }

  positionAt(offset: number): Pos {
    const starts = this.lineStarts();
    offset = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - starts[lo] };
  }

  slice(r: Range): string {
    return this.text.slice(this.offsetAt(r.start), this.offsetAt(r.end));
  }

  /** The end of a line (before its line break). */
  lineEnd(n: number): Pos {
    return { line: n, character: this.line(n).length };
  }

  /** The position just after the last character. */
  end(): Pos {
    return this.positionAt(this.text.length);
  }

  /** The leading whitespace of a line. */
  indentOf(n: number): string {
    return /^[ \t]*/.exec(this.line(n))![0];
  }

  /** The line break the text uses (`\r\n` when its first line ends so). */
  eol(): string {
    const i = this.text.indexOf('\n');
    return i > 0 && this.text[i - 1] === '\r' ? '\r\n' : '\n';
  }
}

/**
 * Whether two edits (offset spans) cannot be applied together: they overlap, an insertion falls inside
 * the other's range, or both insert at one point (their order would be a guess). Touching ends are fine.
 */
export function overlaps(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  const insertA = a.start === a.end;
  const insertB = b.start === b.end;
  if (insertA && insertB) return a.start === b.start;
  if (insertA) return a.start > b.start && a.start < b.end;
  if (insertB) return b.start > a.start && b.start < a.end;
  return a.start < b.end && b.start < a.end;
}

/**
 * Applies edits made against `text`, in its coordinates (an LSP WorkspaceEdit's TextEdits for one
 * document). Throws on overlapping edits, as clients refuse them.
 */
export function applyEdits(text: string, edits: readonly TextEditFix[]): string {
  const source = new SourceText(text);
  const spans = edits
    .map((e, i) => ({ start: source.offsetAt(e.range.start), end: source.offsetAt(e.range.end), newText: e.newText, i }))
    .sort((a, b) => a.start - b.start || a.end - b.end || a.i - b.i);
  let out = '';
  let at = 0;
  for (const s of spans) {
    if (s.start < at) throw new Error('overlapping edits');
    out += text.slice(at, s.start) + s.newText;
    at = s.end;
  }
  return out + text.slice(at);
}
