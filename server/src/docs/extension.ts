// The extension a file registers, read from the declaration model for the previews: its fields as
// written (G1 `vis.extension(...)`, G2/G3 `vis.Extension(...)` under `register`/`register_extension`),
// its prompt, and its slash commands. Reads only; values that need running code stay unknown.
import { functionNamed, isTyped, registrations, resolve, sdkCall } from '../model/sdk';
import type { Argument, Call, Generation, Model, Range, Value } from '../model/types';
import { bindSdkCall } from '../sdk/table';
import { isRoutingCall } from '../routing/evaluate';

export interface ExtensionInfo {
  generation: Generation;
  /** Where the extension is declared, for code lenses: the registration call, else the `Extension(...)` call. */
  anchor: Call;
  /** The call that declares the extension: G1 `vis.extension(...)`, typed `vis.Extension(...)` when statically known. */
  declaration?: Call;
  /** The field arguments as written, by field name (empty when the `Extension(...)` call is not statically known). */
  fields: Map<string, Argument>;
}

/** The extension the file registers (the first registration of the file's generation), if any. */
export function findExtension(model: Model): ExtensionInfo | undefined {
  const generation = model.generation;
  if (!generation) return undefined;
  const registration = registrations(model).find((r) => r.kind === generation)?.call;
  if (generation === 'G1') {
    if (!registration) return undefined;
    return { generation, anchor: registration, declaration: registration, fields: bindSdkCall(model, registration) ?? new Map() };
  }
  let declaration: Call | undefined;
  if (registration) {
    const arg = registration.args[0];
    const v = arg && !arg.splat ? resolve(model, arg.value) : undefined;
    if (v?.kind === 'call' && isTyped(v.call, 'Extension')) declaration = v.call;
  } else {
    // A file that declares its Extension but registers it elsewhere.
    declaration = model.calls.find((c) => isTyped(c, 'Extension'));
  }
  const anchor = registration ?? declaration;
  if (!anchor) return undefined;
  const fields = new Map<string, Argument>();
  for (const a of declaration?.args ?? []) if (a.name !== undefined) fields.set(a.name, a);
  return { generation, anchor, declaration, fields };
}

/** A field's value with names resolved, or undefined when the field is not given. */
function fieldValue(model: Model, ext: ExtensionInfo, field: string): Value | undefined {
  const arg = ext.fields.get(field);
  return arg && resolve(model, arg.value);
}

/** A text field (`name`, `description`, `alias`) when it is a known string. */
export function fieldText(model: Model, ext: ExtensionInfo, field: string): string | undefined {
  const v = fieldValue(model, ext, field);
  return v?.kind === 'str' ? v.value : undefined;
}

/** The items of a collection field (`symbols`, `slash_commands`), resolved; undefined when the collection is not statically known. */
export function fieldItems(model: Model, ext: ExtensionInfo, field: string): Value[] | undefined {
  const v = fieldValue(model, ext, field);
  if (!v || v.kind === 'none') return [];
  if (v.kind !== 'list' && v.kind !== 'tuple') return undefined;
  return v.items.map((item) => ({ ...resolve(model, item), range: item.range }));
}

export type PromptInfo =
  | { kind: 'none' }
  | { kind: 'text'; text: string }
  | { kind: 'routing'; call: Call }
  /** A callable: Vis calls it for the prompt text each turn. `range` is where it is defined. */
  | { kind: 'callable'; label: string; range: Range }
  /** Anything else: `text` is the source as written at `range`. */
  | { kind: 'unknown'; text: string; range: Range };

/** What the extension's `prompt=` is: absent, text, a `prompt.routing(...)` call, a callable, or unknown. */
export function promptOf(model: Model, ext: ExtensionInfo): PromptInfo {
  const arg = ext.fields.get('prompt');
  if (!arg) return { kind: 'none' };
  const v = resolve(model, arg.value);
  switch (v.kind) {
    case 'none':
      return { kind: 'none' };
    case 'str':
      return { kind: 'text', text: v.value };
    case 'call':
      if (isRoutingCall(v.call)) return { kind: 'routing', call: v.call };
      break;
    case 'function': {
      const decl = functionNamed(model, v.name);
      if (decl) return { kind: 'callable', label: `${v.name}()`, range: decl.nameRange };
      break;
    }
    case 'lambda':
      return { kind: 'callable', label: 'a lambda', range: v.range };
    default:
      break;
  }
  return { kind: 'unknown', text: arg.value.text, range: arg.value.range };
}

export interface SlashInfo {
  /** The command name, or its source text when it is not a known string. */
  name: string;
  /** `doc=`/`usage=`: a string, null when not given (or None), undefined when not statically known. */
  doc: string | null | undefined;
  usage: string | null | undefined;
  range: Range;
}

/** The slash commands in `slash_commands=`: typed `SlashCommand(...)` or G1 `vis.slash(...)` calls. */
export function slashCommands(model: Model, ext: ExtensionInfo): SlashInfo[] | undefined {
  const items = fieldItems(model, ext, 'slash_commands');
  if (!items) return undefined;
  const out: SlashInfo[] = [];
  for (const item of items) {
    if (item.kind !== 'call') continue;
    const s = sdkCall(item.call);
    const isSlash = s && ((s.flavour === 'typed' && s.member === 'SlashCommand') || (s.flavour === 'g1' && s.member === 'slash'));
    const args = isSlash ? bindSdkCall(model, item.call) : undefined;
    if (!args) continue;
    const text = (param: string): string | null | undefined => {
      const a = args.get(param);
      if (!a) return null;
      const v = resolve(model, a.value);
      return v.kind === 'str' ? v.value : v.kind === 'none' ? null : undefined;
    };
    const name = text('name');
    out.push({ name: typeof name === 'string' ? name : (args.get('name')?.value.text ?? '?'), doc: text('doc'), usage: text('usage'), range: item.range });
  }
  return out;
}
