// Inline Python fixtures with range markers: `[|text|]` marks an expected range; the markers are
// removed from the text and the ranges returned in order of their opening marker.
import { analyzeText } from '../../server/src/analysis';
import { initParser } from '../../server/src/parse/parser';
import type { Range } from '../../server/src/model/types';
import type { Finding } from '../../server/src/rules/types';
import { Program } from '../../server/src/workspace/program';
import { fourslash } from './fourslash';

export function fixture(marked: string): { text: string; ranges: Range[] } {
  const { text, ranges } = fourslash(marked);
  return { text, ranges };
}

/** Analyses a fixture's text as the file at `uri`. */
export function findings(text: string, uri = 'file:///work/ext/tool.py'): Finding[] {
  return analyzeText(uri, text).findings;
}

/** The findings of one rule, as [message, range] pairs. */
export function findingsOf(rule: string, text: string, uri?: string): { message: string; range: Range }[] {
  return findings(text, uri)
    .filter((f) => f.rule === rule)
    .map((f) => ({ message: f.message, range: f.range }));
}

/** The dedented text of a template literal (the first line break and common indentation removed). */
export function py(strings: TemplateStringsArray, ...values: unknown[]): string {
  const raw = String.raw({ raw: strings.raw }, ...values).replace(/^\n/, '');
  const lines = raw.split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return lines.map((l) => l.slice(indent)).join('\n');
}

export const URI = 'file:///work/ext/extension.py';

export async function ready(): Promise<void> {
  await initParser();
}

/** Joins lines with "\n" and ends with a newline, so test sources read as files. */
export function pyLines(...lines: string[]): string {
  return lines.join('\n') + '\n';
}

/** The model and findings of a text analysed as the file at `uri`. */
export function analyze(text: string, uri = URI) {
  return analyzeText(uri, text);
}

/** A program with one document open at `uri`, as an editor has it (trees kept between versions). */
export function openProgram(uri: string, text: string): Program {
  const doc = { version: 1, text };
  return new Program({ open: (u) => (u === uri ? doc : undefined) });
}
