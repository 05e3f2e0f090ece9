// Findings about the file as a whole: SYN-001 when Python refuses to compile it for its nesting limits (the
// file is then not parsed), SYN-002 for every other SyntaxError, IndentationError or TabError Python would
// raise when Vis loads it (model.syntaxErrors: one per broken region, the declarations around it still
// checked), ANA-001 when vis-authoring could not analyse it (larger than visAuthoring.maxFileSize, or the
// parser failed on it).
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
  {
    id: 'SYN-002',
    severity: 'error',
    summary: "Python refuses to compile the file: a SyntaxError, IndentationError or TabError, with Python's own message and place (one per broken region).",
    check(ctx) {
      for (const e of ctx.model.syntaxErrors) ctx.report(e.range, e.message);
    },
  },
  // Not a Vis error: nothing is known about the file, so a CI run should not pass silently either.
  unanalysedRule('ANA-001', 'warning', 'The file could not be analysed (larger than visAuthoring.maxFileSize, or the parser failed on it).'),
];
