// The generated doc text of a callable (`Symbol._spec()["doc"]`, what `doc(name)` shows the model;
// vis-sdk.md §3.5): description, Effect, Parameters, Returns, the sandbox-sequence note, and the
// Model schemas section that defines each record once within a 2048-character budget.
import { literalRepr } from './callable';
import type { CallableContract, ContractFormat, ParameterSpec, TypeSpec } from './types';

export const SEQUENCE_NOTE = 'Sandbox sequences are list-like, not Python tuples; use len(), indexing or iteration.';
const SCHEMA_BUDGET = 2048;

/** Records met in a contract, one entry per distinct shape; same-named shapes are numbered `Name [2]`. */
class Models {
  entries: { label: string; spec: TypeSpec; key: string; descriptions: Set<string> }[] = [];

  label(t: TypeSpec): string {
    if (t.kind !== 'record') return t.name;
    const key = shapeKey(t);
    const found = this.entries.find((e) => e.key === key);
    if (found) {
      found.descriptions.add(t.description ?? '');
      return found.label;
    }
    const n = this.entries.filter((e) => e.spec.name === t.name).length;
    const label = n === 0 ? t.name : `${t.name} [${n + 1}]`;
    this.entries.push({ label, spec: t, key, descriptions: new Set([t.description ?? '']) });
    return label;
  }

  /**
   * The record's own description: the one every use agrees on (its docstring). Uses that differ
   * carry Annotated notes, which belong on the lines that use the record.
   */
  description(key: string): string | undefined {
    const e = this.entries.find((x) => x.key === key);
    return e ? classDoc(e.spec) : undefined;
  }

  /** Registers every record reachable from a type, depth first, in order of appearance. */
  collect(t: TypeSpec): void {
    if (t.kind === 'record') {
      const known = this.entries.some((e) => e.key === shapeKey(t));
      this.label(t);
      if (known) return;
      for (const f of t.fields ?? []) this.collect(f.type);
    }
    for (const a of t.arguments ?? []) this.collect(a);
  }
}

/** A record's own docstring (not an Annotated note that replaced its `description`). */
export function classDoc(t: TypeSpec): string | undefined {
  return (t as { classDoc?: string }).classDoc ?? (Object.prototype.hasOwnProperty.call(t, 'classDoc') ? undefined : t.description);
}

function shapeKey(t: TypeSpec): string {
  return JSON.stringify([t.name, t.fields, t.sequence_field ?? null]);
}

/** TypeText: the signature form, but opaque and unresolved types read `Name (kind)` and records are unquoted. */
export function typeText(t: TypeSpec, models?: Models): string {
  switch (t.kind) {
    case 'opaque':
    case 'unresolved':
      return `${t.name} (${t.kind})`;
    case 'record':
      return models ? models.label(t) : t.name;
    case 'literal':
      return `Literal[${(t.values ?? []).map(literalRepr).join(', ')}]`;
    case 'union':
      return (t.arguments ?? []).map((a) => typeText(a, models)).join(' | ');
    case 'generic': {
      const args = t.arguments ?? [];
      if (!args.length) return t.name;
      return `${t.name}[${args.map((a) => typeText(a, models)).join(', ')}${t.variadic ? ', ...' : ''}]`;
    }
    default:
      return t.name;
  }
}

function hasTuple(t: TypeSpec, depth = 0): boolean {
  if (depth > 32) return false;
  if (t.kind === 'generic' && t.name === 'tuple') return true;
  return (t.arguments ?? []).some((a) => hasTuple(a, depth + 1)) || (t.fields ?? []).some((f) => hasTuple(f.type, depth + 1));
}

function status(p: ParameterSpec, format: ContractFormat): string {
  if (p.kind === 'var_positional' || p.kind === 'var_keyword') return 'variadic';
  if (p.required) return 'required';
  if (format === 'C3') return p.default_source != null ? `default ${p.default_source}` : 'default omitted';
  return p.default_is_none ? 'default None' : 'default omitted';
}

/** A note on a use of a type: its Annotated text, unless it only repeats the record's own docstring. */
function note(t: TypeSpec, models: Models): string {
  if (!t.description) return '';
  if (t.kind === 'record' && models.description(shapeKey(t)) === t.description) return '';
  return ` — ${t.description}`;
}

export function contractDoc(c: CallableContract, format: ContractFormat): string {
  const models = new Models();
  for (const p of c.parameters) models.collect(p.type);
  models.collect(c.returns);
  const lines = [c.description, '', `Effect: ${c.tag}`];
  if (c.parameters.length) {
    lines.push('', 'Parameters:');
    for (const p of c.parameters) lines.push(`- ${p.name}: ${typeText(p.type, models)}${note(p.type, models)} (${p.kind}; ${status(p, format)})`);
  }
  lines.push('', `Returns: ${typeText(c.returns, models)}`);
  if (c.returns.description) lines.push(c.returns.description);
  if (hasTuple(c.returns)) lines.push(SEQUENCE_NOTE);
  const schemas = modelSchemas(models, c.name);
  if (schemas) lines.push('', 'Model schemas:', schemas);
  return lines.join('\n');
}

function modelSchemas(models: Models, name: string): string {
  if (!models.entries.length) return '';
  const blocks: string[][] = [];
  for (const e of models.entries) {
    const description = models.description(e.key);
    const head = description ? `${e.label} — ${firstParagraph(description)}` : e.label;
    const block = [head];
    if (e.spec.sequence_field !== undefined) block.push(`Sequence over ${e.spec.sequence_field}: len(), indexing and iteration read ${e.spec.sequence_field}.`);
    for (const f of e.spec.fields ?? []) {
      const optional = f.required ? '' : f.default_is_none ? ' (default None)' : ' (has default)';
      block.push(`- ${f.name}: ${typeText(f.type, models)}${note(f.type, models)}${optional}`);
    }
    blocks.push(block);
  }
  const full = blocks.map((b) => b.join('\n')).join('\n\n');
  if (full.length <= SCHEMA_BUDGET) return full;
  // Over budget: whole lines only, then a pointer to the full contract.
  let notice = `Schemas stop at ${SCHEMA_BUDGET} characters; the rest is in ${name}.contract (dictionary, not a doc topic). Traverse/filter ['parameters'] or ['returns'] in Python; print only matching leaf fields, never whole branches.`;
  if (notice.length > SCHEMA_BUDGET / 2) notice = `Schemas stop at ${SCHEMA_BUDGET} characters; the rest is in the tool's .contract (dictionary, not a doc topic).`;
  const out: string[] = [];
  let used = notice.length;
  for (const line of full.split('\n')) {
    if (used + line.length + 1 > SCHEMA_BUDGET) break;
    out.push(line);
    used += line.length + 1;
  }
  out.push(notice);
  return out.join('\n');
}

function firstParagraph(s: string): string {
  return s.split('\n\n')[0].replace(/\n/g, ' ');
}
