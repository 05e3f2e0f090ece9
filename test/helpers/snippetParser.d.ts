// Types for the part of VS Code's snippet parser the snippet tests use. The parser itself is VS Code's
// own (src/vs/editor/contrib/snippet/browser/snippetParser.ts), as the monaco-editor package ships it.
declare module 'monaco-editor/editor/contrib/snippet/browser/snippetParser.js' {
  export abstract class Marker {
    parent: Marker;
    readonly children: Marker[];
    toString(): string;
  }
  export class Text extends Marker {
    value: string;
  }
  export class Placeholder extends Marker {
    index: number;
    readonly isFinalTabstop: boolean;
    readonly choice: Choice | undefined;
  }
  export class Choice extends Marker {
    options: Text[];
  }
  export class Variable extends Marker {
    name: string;
  }
  export class TextmateSnippet extends Marker {
    readonly placeholders: Placeholder[];
    walk(visitor: (marker: Marker) => boolean): void;
  }
  export class SnippetParser {
    static escape(value: string): string;
    parse(value: string, insertFinalTabstop?: boolean, enforceFinalTabstop?: boolean): TextmateSnippet;
  }
}
