// Fourslash-style fixtures (pyright's): inline Python with cursor markers `/*name*/` and range markers
// `[|text|]`, both removed from the text. A marker's position is where it stood; ranges come back in
// the order of their opening marker, and `{|name:text|}` names a range.
import type { Range } from '../../server/src/model/types';

export interface Position {
  line: number;
  character: number;
}

export interface Fixture {
  text: string;
  /** Cursor markers by name. */
  markers: Record<string, Position>;
  /** `[|...|]` ranges, in order. */
  ranges: Range[];
  /** `{|name:...|}` ranges by name. */
  named: Record<string, Range>;
}

export function fourslash(marked: string): Fixture {
  let text = '';
  const markers: Record<string, Position> = {};
  const ranges: Range[] = [];
  const named: Record<string, Range> = {};
  const open: { at: Position; index?: number; name?: string }[] = [];
  let line = 0;
  let character = 0;
  for (let i = 0; i < marked.length; i++) {
    const here = { line, character };
    const marker = /^\/\*([\w.-]+)\*\//.exec(marked.slice(i, i + 64));
    if (marker) {
      if (markers[marker[1]]) throw new Error(`marker /*${marker[1]}*/ twice`);
      markers[marker[1]] = here;
      i += marker[0].length - 1;
      continue;
    }
    const name = /^\{\|([\w.-]+):/.exec(marked.slice(i, i + 64));
    if (name) {
      open.push({ at: here, name: name[1] });
      i += name[0].length - 1;
      continue;
    }
    if (marked.startsWith('[|', i)) {
      open.push({ at: here, index: ranges.length });
      ranges.push(undefined as unknown as Range);
      i++;
      continue;
    }
    if (marked.startsWith('|]', i) || marked.startsWith('|}', i)) {
      const start = open.pop();
      if (!start) throw new Error('unbalanced range marker');
      const range = { start: start.at, end: here };
      if (start.name !== undefined) named[start.name] = range;
      else ranges[start.index!] = range;
      i++;
      continue;
    }
    const c = marked[i];
    text += c;
    if (c === '\n') {
      line++;
      character = 0;
    } else character++;
  }
  if (open.length) throw new Error('unclosed range marker');
  return { text, markers, ranges, named };
}
