// Suppression comments, as ruff's `# noqa`:
//   x = ...  # vis: ignore[EXT-005, SYM-008]    those rules, on findings that start on this line
//   x = ...  # vis: ignore                      every rule on this line
//   # vis: ignore-file[SYM-008]                 that rule in the whole file (anywhere in it; by habit near the top)
//   # vis: ignore-file                          every rule in the whole file
// A directive may follow other text in a comment (`# type: ignore  # vis: ignore[X]`). A suppression
// that silences nothing is reported (SUP-001, a hint, like ruff's RUF100), with the fix that removes it;
// one for a rule the configuration turns off for the file is left alone.
import { scanComments } from '../model/comments';
import type { Range } from '../model/types';
import { SourceText } from '../fixes/source';
import type { Finding, Fix, RuleMeta, Severity } from './types';

export interface Directive {
  kind: 'line' | 'file';
  line: number;
  /** The rule ids listed, each where it is written; undefined for a bare directive (every rule). */
  rules?: { id: string; range: Range }[];
  /** The directive itself, from its `#` to its end (`# vis: ignore[...]`). */
  range: Range;
  /** The whole comment the directive is in. */
  comment: Range;
  /** Whether the comment holds nothing but this directive, alone on its line. */
  ownLine: boolean;
}

export interface Suppressions {
  directives: Directive[];
  /** Directives that cannot be read (`# vis: ignore[EXT-005`), with why. */
  malformed: { range: Range; message: string }[];
}

export const NO_SUPPRESSIONS: Suppressions = { directives: [], malformed: [] };

const DIRECTIVE = /#[ \t]*vis:[ \t]*(ignore-file|ignore)(?![\w-])/g;

/** The suppression comments of a module's text (cheap when it has none: one substring search). */
export function readSuppressions(text: string): Suppressions {
  if (!text.includes('vis:')) return NO_SUPPRESSIONS;
  const out: Suppressions = { directives: [], malformed: [] };
  const { comments } = scanComments(text);
  const source = new SourceText(text);
  for (const c of comments) {
    if (!c.text.includes('vis:')) continue;
    DIRECTIVE.lastIndex = 0;
    for (let m = DIRECTIVE.exec(c.text); m; m = DIRECTIVE.exec(c.text)) {
      const at = (i: number) => ({ line: c.line, character: c.character + i });
      let end = m.index + m[0].length;
      let rules: Directive['rules'];
      if (c.text[end] === '[') {
        const close = c.text.indexOf(']', end);
        if (close === -1) {
          out.malformed.push({ range: { start: at(m.index), end: at(c.text.length) }, message: `this suppression comment has no closing ']', so it suppresses nothing; write # vis: ${m[1]}[RULE-ID, ...]` });
          continue;
        }
        rules = [];
        const list = c.text.slice(end + 1, close);
        const id = /[^\s,]+/g;
        for (let r = id.exec(list); r; r = id.exec(list)) rules.push({ id: r[0], range: { start: at(end + 1 + r.index), end: at(end + 1 + r.index + r[0].length) } });
        end = close + 1;
        if (!rules.length) {
          out.malformed.push({ range: { start: at(m.index), end: at(end) }, message: `this suppression comment names no rule, so it suppresses nothing; write # vis: ${m[1]}[RULE-ID, ...] or # vis: ${m[1]}` });
          continue;
        }
      }
      const before = source.line(c.line).slice(0, c.character);
      out.directives.push({
        kind: m[1] === 'ignore-file' ? 'file' : 'line',
        line: c.line,
        rules,
        range: { start: at(m.index), end: at(end) },
        comment: { start: at(0), end: at(c.text.length) },
        ownLine: before.trim() === '' && m.index === 0 && c.text.slice(end).trim() === '',
      });
    }
  }
  return out;
}

export const UNUSED = 'SUP-001';

/** The directive that silences a finding of a rule at a range: one on the line it starts on, else one for the file. */
export function suppressedBy(s: Suppressions, rule: string, range: Range): Directive | undefined {
  if (!s.directives.length) return undefined;
  const covers = (d: Directive) => !d.rules || d.rules.some((r) => r.id === rule);
  return s.directives.find((d) => d.kind === 'line' && d.line === range.start.line && covers(d)) ?? s.directives.find((d) => d.kind === 'file' && covers(d));
}

/** The rules about suppression comments (reported by the program, which knows every finding of a module). */
export const suppressionRules: RuleMeta[] = [
  {
    id: UNUSED,
    severity: 'hint',
    summary: 'A suppression comment that silences nothing: no finding of that rule on its line (or in its file), an unknown rule id, or a comment that cannot be read.',
    fixable: true,
  },
];

/**
 * The findings on a module that its suppression comments leave, and SUP-001 for each suppression that
 * silences nothing. `isKnown` tells rule ids; `isOff` tells rules the configuration turns off for the
 * file (their suppressions are not reported); `severity` is SUP-001's for the file, or `off`; `masked`
 * are failures an earlier error of their call hides (a suppression of one is in use).
 */
export function applySuppressions(
  findings: Finding[],
  s: Suppressions,
  isKnown: (id: string) => boolean,
  isOff: (id: string) => boolean,
  severity: Severity | 'off',
  source: () => SourceText | undefined,
  masked: readonly { rule: string; range: Range }[] = [],
): Finding[] {
  if (!s.directives.length && !s.malformed.length) return findings;
  const used = new Map<Directive, Set<string>>();
  const silenced = (f: { rule: string; range: Range }) => {
    const d = suppressedBy(s, f.rule, f.range);
    if (!d) return false;
    let set = used.get(d);
    if (!set) used.set(d, (set = new Set()));
    set.add(f.rule);
    return true;
  };
  const kept = findings.filter((f) => !silenced(f));
  // A failure an earlier error of its call hides shows once that is fixed: its suppression is in use.
  masked.forEach(silenced);
  if (severity === 'off') return kept;
  const out = [...kept];
  const report = (range: Range, message: string, fix?: Fix) => out.push({ rule: UNUSED, severity, message, range, ...(fix ? { fix } : {}) });
  for (const m of s.malformed) report(m.range, m.message);
  for (const d of s.directives) {
    const hit = used.get(d);
    const where = d.kind === 'file' ? 'in this file' : 'on this line';
    if (!d.rules) {
      if (!hit) report(d.range, `unused suppression: no finding ${where} to suppress`, removal(d, d.rules, source));
      continue;
    }
    const unused = d.rules.filter((r) => !hit?.has(r.id) && !(isKnown(r.id) && isOff(r.id)));
    if (!unused.length) continue;
    const fix = removal(d, unused, source);
    for (const r of unused) {
      const message = isKnown(r.id) ? `unused suppression: no ${r.id} finding ${where}` : `unused suppression: '${r.id}' is not a rule id`;
      // One fix (removing every unused id of the directive) on each, so fix-all applies it once.
      report(r.range, message, fix && { ...fix, title: unused.length > 1 ? fix.title : `Remove unused suppression of ${r.id}` });
    }
  }
  return out.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

/** The edit that removes a directive's unused rule ids, or the directive (and its comment or line) when none is left. */
function removal(d: Directive, unused: Directive['rules'], source: () => SourceText | undefined): Fix | undefined {
  const text = source();
  if (!text) return undefined;
  const remaining = d.rules?.filter((r) => !unused!.some((u) => u === r)) ?? [];
  if (d.rules && remaining.length) {
    const form = d.kind === 'file' ? 'ignore-file' : 'ignore';
    return {
      title: `Remove unused suppressions (${unused!.map((r) => r.id).join(', ')})`,
      edits: [{ range: d.range, newText: `# vis: ${form}[${remaining.map((r) => r.id).join(', ')}]` }],
    };
  }
  const title = 'Remove unused suppression comment';
  if (d.ownLine) return { title, edits: [{ range: { start: { line: d.line, character: 0 }, end: { line: d.line + 1, character: 0 } }, newText: '' }] };
  const line = text.line(d.line);
  const comment = line.slice(d.comment.start.character, d.comment.end.character);
  const start = d.range.start.character - d.comment.start.character;
  const end = d.range.end.character - d.comment.start.character;
  const rest = (comment.slice(0, start) + comment.slice(end)).trim();
  if (rest === '' || rest === '#') {
    // The comment held the directive alone: remove it with the spaces before it.
    const from = line.slice(0, d.comment.start.character).replace(/[ \t]+$/, '').length;
    return { title, edits: [{ range: { start: { line: d.line, character: from }, end: { line: d.line, character: d.comment.end.character } }, newText: '' }] };
  }
  // Other text shares the comment: remove the directive and the spaces before it.
  const from = d.comment.start.character + comment.slice(0, start).replace(/[ \t]+$/, '').length;
  const keepsHash = comment.slice(0, start).trim() === '';
  const tail = comment.slice(end).replace(/^[ \t]+/, '');
  if (keepsHash) return { title, edits: [{ range: { start: d.comment.start, end: d.comment.end }, newText: tail.startsWith('#') ? tail : `# ${tail}` }] };
  return { title, edits: [{ range: { start: { line: d.line, character: from }, end: d.range.end }, newText: '' }] };
}

/** The comment to insert for "Disable RULE for this line": appended to the line, or added to its directive. */
export function disableForLine(s: Suppressions, source: SourceText, openLines: Set<number>, line: number, rule: string): Fix | undefined {
  const title = `Disable ${rule} for this line`;
  const existing = s.directives.find((d) => d.kind === 'line' && d.line === line);
  if (existing?.rules) {
    if (existing.rules.some((r) => r.id === rule)) return undefined;
    return { title, preferred: false, edits: [{ range: existing.range, newText: `# vis: ignore[${[...existing.rules.map((r) => r.id), rule].join(', ')}]` }] };
  }
  if (existing) return undefined;
  // The end of a line inside a string, or after a backslash, is no place for a comment.
  if (openLines.has(line)) return undefined;
  const text = source.line(line);
  const trimmed = text.replace(/[ \t]+$/, '');
  return { title, preferred: false, edits: [{ range: { start: { line, character: trimmed.length }, end: { line, character: text.length } }, newText: `  # vis: ignore[${rule}]` }] };
}
