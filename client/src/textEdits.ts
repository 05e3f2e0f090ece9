// Applying text edits to a string, VS Code-free, so the format preview can be tested without an editor.

export interface EditPosition {
  line: number;
  character: number;
}

/** The shape of `vscode.TextEdit` (and LSP `TextEdit`) this module needs. */
export interface PlainTextEdit {
  range: { start: EditPosition; end: EditPosition };
  newText: string;
}

/**
 * Offsets where each line of `text` starts. Lines end at "\r\n", "\n" or a lone "\r", as in VS Code
 * documents and `vscode-languageserver-textdocument`.
 */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 /* \r */) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    } else if (c === 10 /* \n */) {
      starts.push(i + 1);
    }
  }
  return starts;
}

/**
 * The offset of `position` in a text with these line starts, clamped as VS Code validates positions:
 * a line before the first is the start, a line past the last is the end, and a character past the
 * end of its line is the end of that line (before its line break).
 */
export function offsetAt(text: string, starts: readonly number[], position: EditPosition): number {
  if (position.line < 0) return 0;
  if (position.line >= starts.length) return text.length;
  const start = starts[position.line];
  let end = position.line + 1 < starts.length ? starts[position.line + 1] : text.length;
  if (end > start && text.charCodeAt(end - 1) === 10) end--;
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  return Math.min(start + Math.max(0, position.character), end);
}

/**
 * `text` with `edits` applied, as an editor applies one batch of them: every range refers to the
 * original text, so this equals applying them last-first by offset; it builds the result in one
 * pass instead. Edits starting at the same offset keep their given order (two inserts at one place
 * appear in the order given). Overlapping edits are an error, as they are in VS Code.
 */
export function applyTextEdits(text: string, edits: readonly PlainTextEdit[]): string {
  if (edits.length === 0) return text;
  const starts = lineStarts(text);
  const spans = edits
    .map((edit, order) => ({
      start: offsetAt(text, starts, edit.range.start),
      end: offsetAt(text, starts, edit.range.end),
      newText: edit.newText,
      order,
    }))
    .map((span) => (span.end < span.start ? { ...span, start: span.end, end: span.start } : span))
    .sort((a, b) => a.start - b.start || a.end - b.end || a.order - b.order);
  const parts: string[] = [];
  let at = 0;
  for (const span of spans) {
    if (span.start < at) throw new Error(`overlapping edits at offset ${span.start}`);
    parts.push(text.slice(at, span.start), span.newText);
    at = span.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** `+A −R` (U+2212 minus), as the status bar and the diff title show line counts. */
export function formatNumstat(counts: { added: number; removed: number }): string {
  return `+${counts.added} \u2212${counts.removed}`;
}
