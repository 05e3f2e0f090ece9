// What is at a position of an open document, for the editor providers: the analysis, the program and
// the canonical URI, the text with its offset, and the cursor context (the call and argument the cursor
// is in). Undefined for documents that do not use the Vis SDK, so that the providers stay silent there.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position } from 'vscode-languageserver/node';
import type { Analysis } from '../analysis';
import { cursorContext, statementStart, type CursorContext } from '../editor/cursor';
import type { Range } from '../model/types';
import type { Program } from '../workspace/program';
import { analysisOf, programOf, textOf, type ServerContext } from './context';

export interface At {
  doc: TextDocument;
  analysis: Analysis;
  program: Program;
  /** The document's URI as the program names it. */
  uri: string;
  text: string;
  offset: number;
  /** The cursor context, read when first asked for. */
  readonly cursor: CursorContext;
  range(start: number, end: number): Range;
}

/** The position in an open Vis extension document (one that imports the Vis SDK); undefined elsewhere. */
export function at(ctx: ServerContext, uri: string, position: Position): At | undefined {
  const doc = ctx.documents.get(uri);
  const analysis = doc && analysisOf(ctx, doc);
  if (!doc || !analysis?.model.generation) return undefined;
  const { program, uri: canonical } = programOf(ctx, uri);
  const text = textOf(doc);
  const offset = doc.offsetAt(position);
  let cursor: CursorContext | undefined;
  return {
    doc,
    analysis,
    program,
    uri: canonical,
    text,
    offset,
    get cursor() {
      return (cursor ??= cursorContext(text, offset, statementStart(analysis.model, (p) => doc.offsetAt(p), offset)));
    },
    range: (start, end) => ({ start: doc.positionAt(start), end: doc.positionAt(end) }),
  };
}
