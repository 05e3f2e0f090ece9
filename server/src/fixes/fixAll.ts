// Fix all: apply every safe fix of a module, analyse the result again, and repeat until nothing more is
// fixable (a fix can make another finding appear or become fixable: an alias added after a wrap). Used by
// `source.fixAll.visAuthoring` (fix on save) and `check --fix`. Suppressed findings are not fixed, and
// suggestions (`Finding.suggestions`) never are: only `Finding.fix`.
import { diffLines } from 'diff';
import type { Finding, Fix, TextEditFix } from '../rules/types';
import type { Program } from '../workspace/program';
import { SourceText, applyEdits, overlaps } from './source';

/** More passes than any chain of fixes needs; a fix that undoes another cannot loop past it. */
const MAX_PASSES = 8;

export interface FixAllResult {
  /** The text with every fix applied. */
  text: string;
  /** The fixes applied, in the order they were applied. */
  applied: { rule: string; title: string }[];
  /** Analyses of fixed text that were made (not counting the module's own). */
  passes: number;
  /** The findings of the fixed text. */
  findings: Finding[];
}

/**
 * The fixes of a module's findings that can be applied together: on the module itself, one per edit
 * range, none overlapping another (the first in the text wins; the rest wait for the next pass).
 */
export function compatibleFixes(findings: readonly Finding[], source: SourceText): { finding: Finding; fix: Fix }[] {
  const out: { finding: Finding; fix: Fix }[] = [];
  const taken: { start: number; end: number }[] = [];
  const seen = new Set<Fix>();
  const candidates = findings.filter((f) => f.fix && !f.uri).sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  for (const finding of candidates) {
    const fix = finding.fix!;
    if (seen.has(fix)) continue;
    seen.add(fix);
    const spans = fix.edits.map((e) => ({ start: source.offsetAt(e.range.start), end: source.offsetAt(e.range.end) }));
    // A fix whose own edits clash is not applied at all.
    if (spans.some((s, i) => spans.some((t, j) => i < j && overlaps(s, t)))) continue;
    if (spans.some((s) => taken.some((t) => overlaps(s, t)))) continue;
    taken.push(...spans);
    out.push({ finding, fix });
  }
  return out;
}

/**
 * Applies every safe fix to `text`, the module's content, re-analysing until nothing more is fixable.
 * `findings` are those of `text` when the caller has them already (the document's own analysis).
 */
export function fixAll(program: Program, uri: string, text: string, findings?: readonly Finding[]): FixAllResult {
  const applied: FixAllResult['applied'] = [];
  const seen = new Set<string>([text]);
  let current = text;
  let passes = 0;
  let found = findings ?? program.withText(uri, text, () => program.analysis(uri)?.findings ?? []);
  if (!findings) passes++;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const fixes = compatibleFixes(found, new SourceText(current));
    if (!fixes.length) break;
    const next = applyEdits(current, fixes.flatMap((f) => f.fix.edits));
    if (seen.has(next)) break; // fixes that undo each other
    seen.add(next);
    applied.push(...fixes.map((f) => ({ rule: f.finding.rule, title: f.fix.title })));
    current = next;
    found = program.withText(uri, current, () => program.analysis(uri)?.findings ?? []);
    passes++;
  }
  return { text: current, applied, passes, findings: [...found] };
}

/**
 * The edits that turn `before` into `after`, one per changed run of lines, each trimmed to the characters
 * that differ, so the editor keeps the cursor, folds and markers everywhere else.
 */
export function editsBetween(before: string, after: string): TextEditFix[] {
  if (before === after) return [];
  const source = new SourceText(before);
  const edits: TextEditFix[] = [];
  let offset = 0;
  let pending: { start: number; end: number; newText: string } | undefined;
  const flush = () => {
    if (!pending) return;
    const old = before.slice(pending.start, pending.end);
    let p = 0;
    while (p < old.length && p < pending.newText.length && old[p] === pending.newText[p]) p++;
    let s = 0;
    while (s < old.length - p && s < pending.newText.length - p && old[old.length - 1 - s] === pending.newText[pending.newText.length - 1 - s]) s++;
    edits.push({
      range: { start: source.positionAt(pending.start + p), end: source.positionAt(pending.end - s) },
      newText: pending.newText.slice(p, pending.newText.length - s),
    });
    pending = undefined;
  };
  for (const part of diffLines(before, after)) {
    if (!part.added && !part.removed) {
      flush();
      offset += part.value.length;
      continue;
    }
    pending ??= { start: offset, end: offset, newText: '' };
    if (part.removed) {
      offset += part.value.length;
      pending.end = offset;
    } else pending.newText += part.value;
  }
  flush();
  return edits;
}
