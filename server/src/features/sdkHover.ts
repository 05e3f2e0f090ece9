// Hover on the Vis SDK's own names, from the one SDK table: a member (`vis.Extension`, `register_extension`,
// `vis.OpHook`, `vis.state.get`, `prompt.routing`) shows its signature in the file's SDK version and the
// API reference's sentence; a keyword of an SDK call (`env=`, `ctx=`, `tag=`) shows the parameter's; a
// value of a closed vocabulary (`tag="mutation"`) shows what it means. The contract and routing cards
// come first (they are registered before this source); any other name gets nothing from here.
import { dottedAt } from '../editor/cursor';
import { qualify } from '../model/sdk';
import { describeReleases } from '../sdk/releases';
import { paramsOf, scopeOf, sdkMemberByQualified, sdkModule, signatureText, valueReleases, vocabularyOf, type SdkMember, type SdkParam } from '../sdk/table';
import { at, type At } from './at';
import type { ServerContext } from './context';
import { addHoverSource } from './hover';

const fence = (text: string) => '```python\n' + text + '\n```';

function memberCard(a: At, member: SdkMember): string {
  const scope = scopeOf(a.analysis.model);
  const callable = member.kind === 'class' || member.kind === 'function';
  const head = callable ? signatureText(member, paramsOf(member, scope)) : `${member.name}${member.type ? `: ${member.type}` : ''}`;
  const release = a.analysis.model.sdk?.release;
  const parts = [fence(head), member.doc];
  if (release) parts.push(`_${member.module} · ${release.label} (${release.generation})_`);
  return parts.join('\n\n');
}

function parameterCard(member: SdkMember, p: SdkParam, a: At): string {
  const scope = scopeOf(a.analysis.model);
  const parts = [fence(`${p.kind === 'var_positional' ? '*' : p.kind === 'var_keyword' ? '**' : ''}${p.name}${p.type ? `: ${p.type}` : ''}${p.default !== undefined ? ` = ${p.default}` : ''}`)];
  parts.push(`${p.doc ?? `A parameter of ${member.name}.`} _(${member.name.split('.').pop()}, ${p.kind.replace(/_/g, ' ')})_`);
  const vocab = vocabularyOf(p, scope);
  if (vocab) parts.push(vocab.values.map((v) => `- \`${v.value}\` — ${v.doc}`).join('\n'));
  if (p.releases.size < member.releases.size) parts.push(`_Available in ${describeReleases(p.releases)}._`);
  return parts.join('\n\n');
}

export function sdkHover(a: At): string | undefined {
  const { cursor, text, offset } = a;
  const model = a.analysis.model;
  if (cursor.comment) return undefined;
  if (cursor.string) {
    // A value of a closed vocabulary, in the argument it is given for.
    const sdk = a.sdkCall;
    const value = text.slice(cursor.string.start, cursor.string.end);
    const v = sdk?.param && vocabularyOf(sdk.param, sdk.scope)?.values.find((x) => x.value === value);
    if (!sdk || !v) return undefined;
    const vocab = vocabularyOf(sdk.param!, sdk.scope)!.vocabulary;
    const only = v.releases ? ` _Available in ${describeReleases(valueReleases(v))}._` : '';
    return `\`${JSON.stringify(v.value)}\` — ${v.doc}${only}\n\n_${vocab.doc}_`;
  }
  const dotted = dottedAt(text, offset);
  if (!dotted) return undefined;
  // A keyword of an SDK call: the name right before `=` (not `==`).
  const after = text.slice(dotted.end, dotted.end + 3);
  if (!dotted.name.includes('.') && /^\s*=(?!=)/.test(after) && cursor.call && cursor.call.keywords.some((k) => k.start === dotted.start)) {
    const sdk = a.sdkCall;
    const p = sdk?.params.find((x) => x.name === dotted.name && x.kind !== 'positional_only' && x.kind !== 'var_positional');
    return sdk && p ? parameterCard(sdk.member, p, a) : undefined;
  }
  const q = qualify(model, dotted.name, a.doc.positionAt(dotted.start));
  if (!q) return undefined;
  const module = sdkModule(q);
  if (module) return `**${module.name}**\n\n${module.doc}`;
  const member = sdkMemberByQualified(scopeOf(model), q);
  return member && !member.internal ? memberCard(a, member) : undefined;
}

export function registerSdkHover(ctx: ServerContext): void {
  addHoverSource((_analysis, position, _ctx, uri) => {
    const a = at(ctx, uri, position);
    return a ? sdkHover(a) : undefined;
  });
}
