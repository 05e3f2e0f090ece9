// Python comments, told from the text alone: a `#` outside any string literal up to the end of its line.
// Strings are tokenized as Python tokenizes them (prefixes, triple quotes, backslash escapes, f-string
// replacement fields with strings of their own inside, PEP 701), so `"# not a comment"` is not one. Used
// for suppression comments and for where a comment may be added.

export interface Comment {
  line: number;
  /** UTF-16 column of the `#`. */
  character: number;
  /** The comment's text, `#` included, line break excluded. */
  text: string;
}

export interface CommentScan {
  comments: Comment[];
  /** Lines whose end is not a place for a comment: inside a string, or after a backslash continuation. */
  openLines: Set<number>;
}

const PREFIX = /^(?:[rR][bBfFtT]?|[bBfFtT][rR]?|[uU])?$/;

/** Scans the comments of a Python text. */
export function scanComments(text: string): CommentScan {
  const comments: Comment[] = [];
  const openLines = new Set<number>();
  let line = 0;
  let lineStart = 0;
  let i = 0;
  const n = text.length;
  const newline = (at: number) => {
    line++;
    lineStart = at + 1;
  };

  /** Reads a string literal whose quote starts at `q` (after any prefix); returns the offset after it. */
  const readString = (q: number, fString: boolean): number => {
    const quote = text[q];
    const triple = text.startsWith(quote.repeat(3), q);
    let j = q + (triple ? 3 : 1);
    while (j < n) {
      const c = text[j];
      if (c === '\\') {
        if (text[j + 1] === '\n') {
          openLines.add(line);
          newline(j + 1);
        } else if (text[j + 1] === '\r' && text[j + 2] === '\n') {
          openLines.add(line);
          newline(j + 2);
          j++;
        }
        j += 2;
        continue;
      }
      if (c === '\n') {
        if (!triple) return j; // unterminated: Python stops at the line end
        openLines.add(line);
        newline(j);
        j++;
        continue;
      }
      if (c === quote && (!triple || text.startsWith(quote.repeat(3), j))) return j + (triple ? 3 : 1);
      if (fString && c === '{') {
        if (text[j + 1] === '{') {
          j += 2;
          continue;
        }
        j = readCode(j + 1, true);
        continue;
      }
      j++;
    }
    return j;
  };

  /**
   * Reads code from `start` until the end of the text, or, inside an f-string replacement field, until
   * its closing `}` (returns the offset after it).
   */
  const readCode = (start: number, field: boolean): number => {
    let depth = 0;
    let j = start;
    while (j < n) {
      const c = text[j];
      if (c === '\n') {
        newline(j);
        j++;
        continue;
      }
      if (c === '#') {
        const end = text.indexOf('\n', j);
        const stop = end === -1 ? n : end;
        comments.push({ line, character: j - lineStart, text: text.slice(j, stop).replace(/\r$/, '') });
        j = stop;
        continue;
      }
      if (c === '\\' && (text[j + 1] === '\n' || (text[j + 1] === '\r' && text[j + 2] === '\n'))) {
        openLines.add(line);
        j++;
        continue;
      }
      if (c === '"' || c === "'") {
        // The prefix is the identifier characters just before the quote.
        let p = j;
        while (p > start && /[A-Za-z]/.test(text[p - 1])) p--;
        const prefix = text.slice(p, j);
        const isPrefix = PREFIX.test(prefix) && (p === 0 || !/[\w]/.test(text[p - 1] ?? ''));
        j = readString(j, isPrefix && /[fFtT]/.test(prefix));
        continue;
      }
      if (field) {
        if (c === '{' || c === '[' || c === '(') depth++;
        else if (c === ')' || c === ']') depth--;
        else if (c === '}') {
          if (depth === 0) return j + 1;
          depth--;
        }
      }
      j++;
    }
    return j;
  };

  readCode(i, false);
  i = n;
  return { comments, openLines };
}
