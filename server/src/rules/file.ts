// Findings about the file as a whole, for files the pipeline did not parse (server/src/analysis.ts):
// SYN-001 when Python itself refuses to compile it (its nesting limits), ANA-001 when vis-authoring
// could not analyse it (larger than visAuthoring.maxFileSize, or the parser failed on it).
import type { Rule } from './types';

function unanalysedRule(id: 'SYN-001' | 'ANA-001', severity: Rule['severity'], summary: string): Rule {
  return {
    id,
    severity,
    summary,
    check(ctx) {
      const u = ctx.model.unanalysed;
      if (u?.rule === id) ctx.report(u.range, u.message);
    },
  };
}

export const fileRules: Rule[] = [
  // Vis refuses to load a file Python cannot compile.
  unanalysedRule('SYN-001', 'error', 'Python refuses to compile the file: more than 100 levels of indentation or 200 nested brackets.'),
  // Not a Vis error: nothing is known about the file, so a CI run should not pass silently either.
  unanalysedRule('ANA-001', 'warning', 'The file could not be analysed (larger than visAuthoring.maxFileSize, or the parser failed on it).'),
];
