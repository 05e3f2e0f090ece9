// What is at a position of an open document, for the editor providers: the analysis, the program and
// the canonical URI, the text with its offset, and the cursor context (the call and argument the cursor
// is in). Undefined for documents that do not use the Vis SDK, so that the providers stay silent there.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position } from 'vscode-languageserver/node';
import type { ModuleAnalysis } from '../analysis';
import { cursorContext, statementStart, type CursorContext } from '../editor/cursor';
import { qualify } from '../model/sdk';
import type { Range } from '../model/types';
import { paramsOf, parameterAt, scopeOf, sdkMemberByQualified, type ReleaseScope, type SdkMember, type SdkParam } from '../sdk/table';
import type { Program } from '../workspace/program';
import type { SymbolInfo } from '../contracts/symbols';
import type { G1ToolInfo } from '../contracts/g1';
import { g1ToolsOf, programOf, symbolsOf, textOf, type ServerContext } from './context';

export interface At {
  doc: TextDocument;
  /** The module's analysis (its model; the rules' findings are not needed, nor computed, here). */
  analysis: ModuleAnalysis;
  program: Program;
  /** The document's URI as the program names it. */
  uri: string;
  /** A module's Symbol analysis, as requests read it (context.ts symbolsOf). */
  symbols(uri: string): SymbolInfo[];
  /** A module's G1 tools, as requests read them (context.ts g1ToolsOf). */
  g1Tools(uri: string): G1ToolInfo[];
  text: string;
  offset: number;
  /** The cursor context, read when first asked for. */
  readonly cursor: CursorContext;
  /** The SDK member whose call the cursor is in, as the file's SDK version has it. */
  readonly sdkCall: SdkCallAt | undefined;
  range(start: number, end: number): Range;
}

export interface SdkCallAt {
  member: SdkMember;
  /** Its parameters in the release the file is written for. */
  params: readonly SdkParam[];
  scope: ReleaseScope;
  /** The parameter the argument at the cursor binds to: by its keyword, or by its position. */
  param?: SdkParam;
}

/** The position in an open Vis extension document (one that imports the Vis SDK); undefined elsewhere. */
export function at(ctx: ServerContext, uri: string, position: Position): At | undefined {
  const doc = ctx.documents.get(uri);
  if (!doc || !ctx.settings.enable) return undefined;
  const { program, uri: canonical } = programOf(ctx, uri);
  const analysis = program.module(canonical);
  if (!analysis?.model.generation) return undefined;
  const text = textOf(doc);
  const offset = doc.offsetAt(position);
  let cursor: CursorContext | undefined;
  let sdkCall: SdkCallAt | undefined | null;
  return {
    doc,
    analysis,
    program,
    uri: canonical,
    symbols: (u) => symbolsOf(ctx, u),
    g1Tools: (u) => g1ToolsOf(ctx, u),
    text,
    offset,
    get cursor() {
      return (cursor ??= cursorContext(text, offset, statementStart(analysis.model, (p) => doc.offsetAt(p), offset)));
    },
    get sdkCall() {
      if (sdkCall === undefined) {
        const call = this.cursor.call;
        const model = analysis.model;
        const q = call?.callee && qualify(model, call.callee, doc.positionAt(call.calleeStart));
        const scope = scopeOf(model);
        const member = q ? sdkMemberByQualified(scope, q) : undefined;
        if (!call || !member || (member.kind !== 'class' && member.kind !== 'function')) sdkCall = null;
        else {
          const params = paramsOf(member, scope);
          const param = call.keyword !== undefined ? parameterAt(params, { keyword: call.keyword }) : parameterAt(params, { position: call.positionalBefore });
          sdkCall = { member, params, scope, param };
        }
      }
      return sdkCall ?? undefined;
    },
    range: (start, end) => ({ start: doc.positionAt(start), end: doc.positionAt(end) }),
  };
}
