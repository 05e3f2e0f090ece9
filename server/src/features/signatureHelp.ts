// Signature help for calls of the Vis SDK, from the one SDK table for the file's generation and version:
// the member's signature, its description, each parameter's line of the API reference, and the parameter
// the cursor's argument binds to (by keyword, or by position). Silent outside SDK calls.
import { MarkupKind, type ParameterInformation, type SignatureHelp } from 'vscode-languageserver/node';
import { describeReleases } from '../sdk/releases';
import { signatureText, type SdkParam } from '../sdk/table';
import { at, type At } from './at';
import type { ServerContext } from './context';

export const SIGNATURE_TRIGGERS = ['(', ','];

/**
 * The [start, end) offsets of each parameter in a signature label such as `Symbol(fn, name=None, *, tag="x")`:
 * the label's top-level pieces, less the `*` and `/` markers, in parameter order.
 */
export function parameterOffsets(label: string): [number, number][] {
  const open = label.indexOf('(');
  const out: [number, number][] = [];
  let depth = 0;
  let quote = '';
  let start = open + 1;
  for (let i = open + 1; i < label.length; i++) {
    const c = label[i];
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c) && depth > 0) depth--;
    else if ((c === ',' && depth === 0) || (c === ')' && depth === 0)) {
      const piece = label.slice(start, i).trim();
      const lead = label.slice(start, i).length - label.slice(start, i).trimStart().length;
      if (piece && piece !== '*' && piece !== '/') out.push([start + lead, start + lead + piece.length]);
      start = i + 1;
      if (c === ')') break;
    }
  }
  return out;
}

function parameterDoc(p: SdkParam, memberReleases: ReadonlySet<string>): string | undefined {
  const only = p.releases.size < memberReleases.size ? ` _Available in ${describeReleases(p.releases)}._` : '';
  return p.doc || only ? `${p.doc ?? ''}${only}`.trim() : undefined;
}

export function signatureHelp(a: At): SignatureHelp | null {
  const sdk = a.sdkCall;
  if (!sdk || a.cursor.comment) return null;
  const { member, params, param } = sdk;
  const label = signatureText(member, params);
  const offsets = parameterOffsets(label);
  const parameters: ParameterInformation[] = params.map((p, i) => {
    const doc = parameterDoc(p, member.releases);
    return { label: offsets[i] ?? p.name, ...(doc ? { documentation: { kind: MarkupKind.Markdown, value: doc } } : {}) };
  });
  // No parameter takes the argument (all given, or an unknown keyword): an index past the end marks none.
  const active = param ? params.indexOf(param) : params.length;
  return {
    signatures: [{ label, documentation: { kind: MarkupKind.Markdown, value: member.doc }, parameters, activeParameter: active }],
    activeSignature: 0,
    activeParameter: active,
  };
}

export function registerSignatureHelp(ctx: ServerContext): void {
  ctx.connection.onSignatureHelp((params) => {
    try {
      const a = at(ctx, params.textDocument.uri, params.position);
      return a ? signatureHelp(a) : null;
    } catch (e) {
      ctx.log(`signature help failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return null;
    }
  });
}
