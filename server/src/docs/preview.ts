// The model-facing text of an extension file, as a preview: what Vis shows the model about it, part
// by part, each with its o200k_base token count. Pure: a function of the declaration model, the
// tool doc source and the routing wording. Nothing is run, so text only known at run time (a
// callable prompt, a computed value) appears as a note that says so, and is not counted.
//
// Parts, in order:
// - the snapshot row: `name — description`. Vis lists extensions in its extension snapshot, but the
//   spec does not give that row's exact form; this `name — description` style is our choice;
// - the prompt: a static string, a rendered `prompt.routing(...)`, or a note for a callable
//   ("computed per turn") or an unknown value;
// - per tool: its apropos row (`name — first docstring line`) and its `doc(name)` page, from the
//   ToolDocSource; hidden tools are marked;
// - per slash command: `/name — doc` and `Usage: usage`.
//
// Each part reaches the model on its own (snapshot, prompt, one apropos result, one doc page), so
// the total is the sum of the parts' counts, not the count of one concatenation of them.
import type { Analysis } from '../analysis';
import { WORDING_LABELS, evaluateRouting } from '../routing/evaluate';
import type { RoutingVersion } from '../routing/render';
import type { Model, Range } from '../model/types';
import { pathOf } from '../rules/util';
import { fieldItems, fieldText, findExtension, promptOf, slashCommands, type ExtensionInfo } from './extension';
import { EXACT_CHARS, TOKEN_ENCODING, countTokensCached, isEstimate } from './tokens';
import type { ToolDocSource } from './toolDocs';

export interface PreviewPart {
  title: string;
  /** The text the model sees, or for a note (`counted: false`) what the preview can say instead. */
  body: string;
  /** Whether `body` is model-facing text. Notes count 0 tokens. */
  counted: boolean;
  /** Set when `tokens` is an estimate (a body longer than EXACT_CHARS). */
  estimated?: boolean;
  tokens: number;
  /** A note whose lines keep their layout (fenced like model-facing text rather than quoted). */
  fenced?: boolean;
}

export interface DocsPreview {
  /** The document shown to the author, as Markdown: a header, then each part under its title and count. */
  text: string;
  parts: PreviewPart[];
  /** The sum of the parts' counts. */
  tokens: number;
}

export interface PreviewOptions {
  tools: ToolDocSource;
  routingVersion: RoutingVersion;
  /** What changed for the model since the last commit (server/src/contracts/diff.ts), shown last. */
  changes?: PreviewChanges;
}

export interface PreviewChanges {
  title: string;
  text: string;
}

/** The whole preview: snapshot row, prompt, tools, slash commands. */
export function previewDocs(analysis: Pick<Analysis, 'model'>, options: PreviewOptions): DocsPreview {
  const { model } = analysis;
  const ext = findExtension(model);
  if (!ext) return noExtension(model);
  const where = location(model);
  const name = fieldText(model, ext, 'name');
  const description = fieldText(model, ext, 'description');
  const parts: PreviewPart[] = [counted('Snapshot row', `${name ?? '?'} \u2014 ${description ?? '?'}`), promptPart(model, ext, options.routingVersion, where)];

  const unknown = (field: string, title: string) => {
    const arg = ext.fields.get(field);
    if (arg && !fieldItems(model, ext, field)) parts.push(note(title, `${field}=${arg.value.text} (${where(arg.value.range)}) is not statically known.`));
  };
  unknown('symbols', 'Tools');
  for (const tool of options.tools.tools(analysis)) {
    const label = `Tool ${tool.name}${tool.hidden ? ' (hidden)' : ''}`;
    if (tool.unknown !== undefined && !tool.doc) {
      parts.push(
        note(
          `${label}: contract not statically known`,
          `${where(tool.range)}: ${tool.unknown}. Vis shows the model an apropos row and a doc(name) page for it, which cannot be read without running the module.`,
        ),
      );
      continue;
    }
    if (!tool.apropos && !tool.doc) {
      parts.push(note(label, 'No docstring: the SDK refuses a tool without one ("it becomes the model-facing doc()"), so the extension does not load.'));
      continue;
    }
    parts.push(counted(`${label}: apropos row`, tool.apropos ? `${tool.name} \u2014 ${tool.apropos}` : tool.name));
    parts.push(counted(`${label}: doc(${tool.name})`, tool.doc));
    if (tool.unknown !== undefined) {
      parts.push(note(`${label}: page from the docstring`, `Its contract is not statically known (${tool.unknown}); the page above is the cleaned docstring, while Vis generates it from the contract.`));
    }
    if (tool.unknowns?.length) parts.push(note(`${label}: not statically known`, tool.unknowns.map((u) => `- ${u.where}: ${u.reason}`).join('\n')));
  }

  unknown('slash_commands', 'Slash commands');
  for (const s of slashCommands(model, ext) ?? []) {
    const command = s.name.startsWith('/') ? s.name : `/${s.name}`;
    const lines = [s.doc ? `${command} \u2014 ${s.doc}` : s.doc === undefined ? `${command} \u2014 ?` : command];
    if (s.usage !== null) lines.push(`Usage: ${s.usage ?? '?'}`);
    parts.push(counted(`Slash command ${command}`, lines.join('\n')));
  }
  // The comparison keeps its layout (a tool per heading line, its changes indented): fenced, not quoted.
  if (options.changes) parts.push({ ...note(options.changes.title, options.changes.text.replace(/\n+$/, '')), fenced: true });
  return assemble(`Model-facing docs of ${name ?? basename(model.uri)}`, model, ext, parts);
}

/** The prompt part alone, under the same header. */
export function previewPrompt(analysis: Pick<Analysis, 'model'>, options: PreviewOptions): DocsPreview {
  const { model } = analysis;
  const ext = findExtension(model);
  if (!ext) return noExtension(model);
  const name = fieldText(model, ext, 'name');
  return assemble(`Prompt of ${name ?? basename(model.uri)}`, model, ext, [promptPart(model, ext, options.routingVersion, location(model))]);
}

function promptPart(model: Model, ext: ExtensionInfo, version: RoutingVersion, where: (r: Range) => string): PreviewPart {
  const prompt = promptOf(model, ext);
  switch (prompt.kind) {
    case 'none':
      return note('Prompt: none', 'The extension gives no prompt=.');
    case 'text':
      return counted('Prompt: static string', prompt.text);
    case 'callable':
      return note('Prompt: computed per turn', `Vis calls ${prompt.label} (${where(prompt.range)}) for the prompt text; it is known only when it runs.`);
    case 'unknown':
      return note('Prompt: not statically known', `prompt=${prompt.text} (${where(prompt.range)}) is not a string, a prompt.routing(...) call or a function defined in this file.`);
    case 'routing': {
      const r = evaluateRouting(model, prompt.call, version);
      const at = where(prompt.call.range);
      if (r.kind === 'text') return counted(`Prompt: prompt.routing, ${WORDING_LABELS[version]}`, r.text);
      if (r.kind === 'error') {
        return note(
          'Prompt: prompt.routing raises',
          `prompt.routing(...) (${at}) raises ${r.error.type}: ${r.error.message}. The module fails to import, so Vis does not load the extension.`,
        );
      }
      return note('Prompt: prompt.routing, not evaluated', `prompt.routing(...) (${at}) cannot be evaluated statically: ${r.reason}.`);
    }
  }
}

function counted(title: string, body: string): PreviewPart {
  return { title, body, counted: true, tokens: countTokensCached(body), ...(isEstimate(body) ? { estimated: true } : {}) };
}

function note(title: string, body: string): PreviewPart {
  return { title, body, counted: false, tokens: 0 };
}

function assemble(title: string, model: Model, ext: ExtensionInfo, parts: PreviewPart[]): DocsPreview {
  const tokens = parts.reduce((n, p) => n + p.tokens, 0);
  // Markdown: a heading per part with its count, the model-facing text verbatim in a fence, notes quoted.
  const lines = [
    `# ${title} \u00b7 ${parts.some((p) => p.estimated) ? '\u2248 ' : ''}${tokensLabel(tokens)}`,
    '',
    `Read statically from ${pathOf(model.uri)} (${ext.generation}); nothing was run. Tokens are counted in ${TOKEN_ENCODING}; each part is counted on its own, and the total is their sum.`,
  ];
  for (const p of parts) {
    const count = p.estimated ? `\u2248 ${tokensLabel(p.tokens)} (estimated from its first ${EXACT_CHARS.toLocaleString('en-US')} of ${p.body.length.toLocaleString('en-US')} characters)` : tokensLabel(p.tokens);
    lines.push('', `## ${p.title} \u00b7 ${p.counted ? count : 'not counted'}`, '');
    if (p.counted || p.fenced) {
      const fence = '`'.repeat(Math.max(3, ...[...p.body.matchAll(/`+/g)].map((m) => m[0].length + 1)));
      lines.push(`${fence}text`, p.body, fence);
    } else {
      lines.push(...p.body.split('\n').map((l) => (l ? `> ${l}` : '>')));
    }
  }
  return { text: lines.join('\n') + '\n', parts, tokens };
}

function noExtension(model: Model): DocsPreview {
  const text =
    `No Vis extension is registered in ${pathOf(model.uri)}: there is no register_extension(...), register(...) or vis.extension(...) ` +
    'call to read, so there is nothing the model would see.\n';
  return { text, parts: [], tokens: 0 };
}

/** `path:line` (1-based) of a range in this file. */
function location(model: Model): (r: Range) => string {
  const path = pathOf(model.uri);
  return (r) => `${path}:${r.start.line + 1}`;
}

function basename(uri: string): string {
  return uri.slice(uri.lastIndexOf('/') + 1);
}

/** `1 token`, `12 tokens`. */
export function tokensLabel(n: number): string {
  return `${n} token${n === 1 ? '' : 's'}`;
}
