// Python's own nesting limits, checked on the text before anything is parsed.
//
// CPython's tokenizer refuses a file with more than 200 nested brackets (`SyntaxError: too many
// nested parentheses`, MAXLEVEL) or 100 levels of indentation (`IndentationError: too many levels
// of indentation`, MAXINDENT), so Vis can never load such a file. Deeper nesting than that is also
// what makes parsers and recursive readers fail (tree-sitter's WASM stack, JavaScript's call
// stack), so a file over either limit is reported with Python's message and not parsed at all.
//
// The check is made by the pass that cuts a file into its top-level statements (segments.ts): one pass
// over the character codes, tracking strings (with prefixes, triple quotes, escapes and f-string
// replacement fields), comments, backslash continuations and the indentation stack. Where the scan
// could be wrong (unusual f-strings), it errs towards counting less, never more.
import { firstLimit, segmentText, type LimitError } from './segments';

export { MAX_BRACKETS, MAX_INDENT_LEVELS, type LimitError } from './segments';

/** Files with more characters are not parsed (the default of visAuthoring.maxFileSize). */
export const DEFAULT_MAX_FILE_SIZE = 2_000_000;

/** The first of Python's nesting limits the text breaks, or undefined. */
export function checkNestingLimits(text: string): LimitError | undefined {
  return firstLimit(segmentText(text));
}
