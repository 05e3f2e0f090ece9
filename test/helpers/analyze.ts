// Analyses inline Python for tests: the declaration model and the rule findings of one file.
import { analyzeText } from '../../server/src/analysis';
import { initParser } from '../../server/src/parse/parser';

export const URI = 'file:///work/ext/extension.py';

export async function ready(): Promise<void> {
  await initParser();
}

/** Joins lines with "\n" and ends with a newline, so test sources read as files. */
export function py(...lines: string[]): string {
  return lines.join('\n') + '\n';
}

export function analyze(text: string, uri = URI) {
  return analyzeText(uri, text);
}
