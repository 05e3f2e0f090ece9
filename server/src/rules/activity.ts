// Activity and its presentation records (vis-sdk.md §2.11): `vis.Activity` (ACT-001…ACT-004), its
// `render` callback's shape (ACT-005, a warning: the SDK calls it with keywords only and swallows the
// TypeError, so a wrong signature silently shows nothing) and label case (ACT-006), the presentation and
// section records (PRES-001…PRES-010), the content blocks (BLK-001…BLK-006) and `publish_activity` with
// something that is not a presentation (ACT-007: it returns False and shows nothing). The limits that
// changed between releases (32 blocks, 16,384-character text, table sizes) follow the file's SDK version.
import { functionNamed, isCallable, isKnown, resolve } from '../model/sdk';
import type { Model, Value } from '../model/types';
import { ACTIVITY_LIMITS, BLOCKS_UNLIMITED, PRESENTATIONS_UNLIMITED } from '../sdk/releases';
import { inReleases, paramsOf, scopeOf, vocabularyValues } from '../sdk/table';
import { pyStrip } from '../model/literals';
import { accepts, at, callRule, familyRules, isDeclaration, itemsOf, paramsOfCallable, pyLen, withChoice, type CallCheck, type CallFamily, type Failure, type RuleDoc, type Step } from './declaration';
import { booleanMeant, nearestValue } from './fixes';
import type { Rule } from './types';

const BLOCKS = ['ActivityText', 'ActivityHeading', 'ActivityMarkdown', 'ActivityCode', 'ActivityDiff', 'ActivityTable', 'ActivityFile', 'ActivityImage', 'ActivityVideo', 'ActivityAudio', 'ActivityProgress'];

const step = (id: string, check: (c: CallCheck) => Failure | undefined): Step => ({ id, check });
const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');
/** A control character (below 32), DEL, or a line or paragraph separator: not one line. */
const notOneLine = (s: string) => /[\u0000-\u001f\u007f\u2028\u2029]/.test(s);

/** Which limits the file's SDK version enforces: `old` (G2), `new`, or undefined where the spec does not say. */
function limits(model: Model, unlimited: typeof PRESENTATIONS_UNLIMITED): 'old' | 'new' | undefined {
  const scope = scopeOf(model);
  if (inReleases(scope, ACTIVITY_LIMITS)) return 'old';
  if (inReleases(scope, unlimited)) return 'new';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// vis.Activity

function activitySteps(): Step[] {
  return [
    step('ACT-001', (c) => {
      const v = c.arg('show_start');
      return v && isKnown(v) && v.kind !== 'bool' ? withChoice(at(v, 'Activity show_start must be a boolean'), booleanMeant(c.ctx, v, 'show_start')) : undefined;
    }),
    step('ACT-002', (c) => {
      const v = c.arg('render');
      if (!v || v.kind === 'none') return undefined;
      const async = v.kind === 'function' && functionNamed(c.model, v.name)?.isAsync;
      return isCallable(v) === false || async ? at(v, 'Activity render must be a synchronous callable') : undefined;
    }),
    step('ACT-003', (c) => {
      const v = c.arg('presenter');
      const presenters = vocabularyValues('presenter', c.scope);
      return v && isKnown(v) && !(v.kind === 'str' && presenters.includes(v.value)) ? withChoice(at(v, 'unknown Activity presenter'), nearestValue(c.ctx, v, presenters)) : undefined;
    }),
    step('ACT-004', (c) => {
      const v = c.arg('label');
      if (!v || !isKnown(v) || v.kind === 'none') return undefined;
      const bad = v.kind !== 'str' || pyStrip(v.value) === '' || pyLen(v.value) > 96 || /[\n\r]/.test(v.value);
      return bad ? at(v, 'Activity label must be one nonblank line of at most 96 characters') : undefined;
    }),
  ];
}

/** ACT-005: a render callback that cannot take the keywords the SDK calls it with. */
function renderShape(c: CallCheck): void {
  const v = c.arg('render');
  const keywords = paramsOf(c.member, c.scope).find((p) => p.name === 'render')?.calledWith?.keywords;
  if (!keywords || !v || (v.kind !== 'function' && v.kind !== 'lambda')) return;
  const params = paramsOfCallable(c.model, v);
  if (!params || accepts(params, 0, keywords)) return;
  const decl = v.kind === 'function' ? functionNamed(c.model, v.name) : undefined;
  const shown = v.kind === 'function' ? `${v.name}(${params.map((p) => (p.kind === 'var_positional' ? '*' : p.kind === 'var_keyword' ? '**' : '') + p.name).join(', ')})` : 'this lambda';
  const varkw = params.some((p) => p.kind === 'var_keyword');
  const missing = varkw ? [] : keywords.filter((k) => !params.some((p) => p.name === k && (p.kind === 'positional_or_keyword' || p.kind === 'keyword_only')));
  const extra = params.filter((p) => !p.hasDefault && p.kind !== 'var_positional' && p.kind !== 'var_keyword' && !(keywords.includes(p.name) && p.kind !== 'positional_only')).map((p) => p.name);
  const why = missing.length ? `does not take ${missing.join(', ')}` : `also requires ${extra.join(', ')}, which the SDK never passes`;
  const message = `vis.Activity calls render with the keyword arguments ${keywords.slice(0, -1).join(', ')} and ${keywords.at(-1)}; ${shown} ${why}, so each call raises a TypeError that the SDK swallows and nothing is shown (take those keywords, or **_)`;
  if (decl && decl.nameRange) c.ctx.report(decl.nameRange, message, undefined, { related: [{ uri: c.model.uri, range: v.range, message: 'the render callback of this vis.Activity' }] });
  else c.ctx.report(v.range, message);
}

/** ACT-006: a label written as an identifier or in capitals, not in sentence case. */
function labelCase(c: CallCheck): void {
  const v = c.arg('label');
  if (v?.kind !== 'str') return;
  const s = v.value;
  const identifier = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(s);
  const capitals = /^[A-Z][A-Z0-9]*(?: [A-Z0-9]+)+$/.test(s);
  if (!identifier && !capitals) return;
  const words = s.replace(/_/g, ' ').toLowerCase();
  const suggestion = words[0].toUpperCase() + words.slice(1);
  c.ctx.report(v.range, `Activity labels are in sentence case, such as '${suggestion}', not '${s}'`);
}

// ---------------------------------------------------------------------------------------------
// Presentations and sections

function headlineAndSummary(): Step[] {
  const text = (field: string) =>
    step('PRES-001', (c) => {
      const v = c.arg(field);
      return v && isKnown(v) && (v.kind !== 'str' || pyLen(v.value) > 512) ? at(v, `Activity ${field} must be text of at most 512 characters`) : undefined;
    });
  const line = (field: string) =>
    step('PRES-002', (c) => {
      const v = c.arg(field);
      return v?.kind === 'str' && (utf8(v.value) > 512 || notOneLine(v.value)) ? at(v, `Activity ${field} must be one line of at most 512 UTF-8 bytes`) : undefined;
    });
  return [
    text('headline'),
    line('headline'),
    step('PRES-003', (c) => {
      const v = c.arg('headline');
      return v?.kind === 'str' && v.value === '' ? at(v, 'Activity headline must not be empty') : undefined;
    }),
    text('summary'),
    line('summary'),
  ];
}

function contentStep(c: CallCheck): Failure | undefined {
  const v = c.arg('content');
  if (!v || !isKnown(v) || (v.kind === 'comprehension' && v.of === 'list')) return undefined;
  const old = limits(c.model, PRESENTATIONS_UNLIMITED) === 'old';
  const message = old ? 'Activity content must contain at most 32 typed blocks' : 'Activity content must contain typed blocks';
  const items = itemsOf(c.model, v);
  if (!items) return at(v, message);
  const bad = items.find((i) => isDeclaration(i, BLOCKS) === false);
  if (bad) return at(bad, message);
  return old && items.length > 32 ? at(v, message) : undefined;
}

function sectionsStep(c: CallCheck): Failure | undefined {
  const v = c.arg('sections');
  if (!v || !isKnown(v) || (v.kind === 'comprehension' && v.of === 'list')) return undefined;
  const old = limits(c.model, PRESENTATIONS_UNLIMITED) === 'old';
  const message = old ? 'Activity sections must contain at most 8 non-nested ActivitySections' : 'Activity sections must contain non-nested ActivitySections';
  const items = itemsOf(c.model, v);
  if (!items) return at(v, message);
  const bad = items.find((i) => isDeclaration(i, 'ActivitySection') === false);
  if (bad) return at(bad, message);
  return old && items.length > 8 ? at(v, message) : undefined;
}

/** PRES-006 (G2): more than 32 blocks in the content and the sections together. */
function totalBlocks(c: CallCheck): Failure | undefined {
  if (limits(c.model, PRESENTATIONS_UNLIMITED) !== 'old') return undefined;
  const content = c.arg('content');
  let total = content ? (itemsOf(c.model, content)?.length ?? NaN) : 0;
  const sections = c.arg('sections');
  for (const s of sections ? (itemsOf(c.model, sections) ?? [undefined]) : []) {
    if (s?.kind !== 'call') return undefined;
    const inner = s.call.args.find((a) => a.name === 'content') ?? s.call.args.filter((a) => a.name === undefined)[2];
    if (inner) total += itemsOf(c.model, resolve(c.model, inner.value))?.length ?? NaN;
  }
  return total > 32 ? { range: c.call.calleeRange, message: 'Activity presentation exceeds 32 total blocks' } : undefined;
}

function summaryFormat(c: CallCheck): Failure | undefined {
  const v = c.arg('summary_format');
  return v && isKnown(v) && v.kind !== 'none' && !(v.kind === 'str' && vocabularyValues('summary-format', c.scope).includes(v.value)) ? at(v, 'Invalid Activity summary_format') : undefined;
}

function handleSteps(): Step[] {
  return [
    step('PRES-008', (c) => {
      const v = c.arg('handle_id');
      return v && isKnown(v) && v.kind !== 'none' && v.kind !== 'str' ? at(v, 'Activity handle_id must be a string') : undefined;
    }),
    step('PRES-009', (c) => {
      const v = c.arg('handle_id');
      const bad = v?.kind === 'str' && (pyStrip(v.value) === '' || pyLen(v.value) > 256 || utf8(v.value) > 512 || notOneLine(v.value));
      return bad ? at(v, 'Activity handle_id must be one nonblank line of at most 512 UTF-8 bytes') : undefined;
    }),
    step('PRES-010', (c) => {
      const v = c.arg('verdict');
      return v && isKnown(v) && v.kind !== 'none' && !(v.kind === 'str' && vocabularyValues('verdict', c.scope).includes(v.value)) ? at(v, 'Activity verdict must be passed or failed') : undefined;
    }),
  ];
}

// ---------------------------------------------------------------------------------------------
// Content blocks

const textOfAtMost = (id: string, field: string, max: number, message: string) =>
  step(id, (c) => {
    const v = c.arg(field);
    return v && isKnown(v) && (v.kind !== 'str' || pyLen(v.value) > max) ? at(v, message) : undefined;
  });

function blockText(c: CallCheck): Failure | undefined {
  const v = c.arg('text');
  if (!v || !isKnown(v)) return undefined;
  const old = limits(c.model, BLOCKS_UNLIMITED) === 'old';
  if (old) return v.kind !== 'str' || pyLen(v.value) > 16384 ? at(v, 'Activity text must be text of at most 16384 characters') : undefined;
  return v.kind !== 'str' ? at(v, 'Activity text must be text') : undefined;
}

function language(c: CallCheck): Failure | undefined {
  const v = c.arg('language');
  return v && isKnown(v) && v.kind !== 'none' && (v.kind !== 'str' || pyLen(v.value) > 256) ? at(v, 'Activity language must be text of at most 256 characters') : undefined;
}

/** A table's checks, as the file's SDK version makes them (BLK-003 before @f16a4d6f, BLK-004 from it on). */
function table(c: CallCheck): (Failure & { id: string }) | undefined {
  const version = limits(c.model, BLOCKS_UNLIMITED);
  const id = version === 'old' ? 'BLK-003' : 'BLK-004';
  const fail = (v: { range: Failure['range'] }, message: string) => ({ ...at(v, message), id });
  const columnsV = c.arg('columns');
  const rowsV = c.arg('rows');
  const columns = itemsOf(c.model, columnsV);
  const rows = itemsOf(c.model, rowsV);
  const rowItems = (r: Value) => itemsOf(c.model, r);
  const widths = () => {
    if (!columns) return undefined;
    for (const r of rows ?? []) {
      const cells = rowItems(r);
      if (cells && cells.length !== columns.length) return fail(r, 'Activity table row width must match its columns');
    }
    return undefined;
  };
  const cellsAre = (message: string, max?: number) => {
    for (const r of rows ?? []) for (const cell of rowItems(r) ?? []) if (isKnown(cell) && (cell.kind !== 'str' || (max !== undefined && pyLen(cell.value) > max))) return fail(cell, message);
    return undefined;
  };
  if (version === 'old') {
    if (columns && (columns.length === 0 || columns.length > 16)) return fail(columnsV!, 'Activity table requires 1..16 columns');
    if (rows && rows.length > 200) return fail(rowsV!, 'Activity table allows at most 200 rows');
    const column = columns?.find((x) => isKnown(x) && (x.kind !== 'str' || pyLen(x.value) > 256));
    if (column) return fail(column, 'Activity column must be text of at most 256 characters');
    return widths() ?? cellsAre('Activity cell must be text of at most 256 characters', 256);
  }
  if (version === undefined) return widths();
  if (columns && columns.length === 0) return fail(columnsV!, 'Activity table requires at least one column');
  if (rowsV && isKnown(rowsV) && !rows && !(rowsV.kind === 'comprehension' && rowsV.of === 'list')) return fail(rowsV, 'Activity table rows must be a list or tuple');
  const column = columns?.find((x) => isKnown(x) && x.kind !== 'str');
  if (column) return fail(column, 'Activity columns must be text');
  const width = widths() ?? cellsAre('Activity cells must be text');
  if (width) return width;
  const pathsV = c.arg('paths');
  if (!pathsV || pathsV.kind === 'none' || !isKnown(pathsV)) return undefined;
  const paths = itemsOf(c.model, pathsV);
  if (!paths) return pathsV.kind === 'comprehension' && pathsV.of === 'list' ? undefined : fail(pathsV, 'Activity table paths must be a list or tuple');
  const path = paths.find((p) => isKnown(p) && p.kind !== 'str');
  if (path) return fail(path, 'Activity paths must be text');
  return rows && paths.length !== rows.length ? fail(pathsV, 'Activity table paths must match its rows') : undefined;
}

function progress(c: CallCheck): Failure | undefined {
  const value = c.arg('value');
  const total = c.arg('total');
  const given = (v: Value | undefined) => v !== undefined && v.kind !== 'none';
  if (!given(value) && !given(total)) return undefined;
  // Both must be numbers (a bool is not one), once either is given.
  const number = (v: Value | undefined) => (v && (v.kind === 'int' || v.kind === 'float') ? v.value : !v || isKnown(v) ? NaN : undefined);
  const a = number(value);
  const b = number(total);
  if (a === undefined || b === undefined) return undefined;
  const ok = Number.isFinite(a) && Number.isFinite(b) && a >= 0 && a <= b && b > 0;
  return ok ? undefined : { range: (given(value) ? value : total)!.range, message: 'Activity progress requires finite 0 <= value <= total and total > 0' };
}

const DOCS: RuleDoc[] = [
  { id: 'ACT-001', summary: 'Activity show_start is a bool.', fixable: true },
  { id: 'ACT-002', summary: 'Activity render is a synchronous callable (not an async def).' },
  { id: 'ACT-003', summary: 'Activity presenter is one of generic, shell, tests, patch, observation, lint, repl, format, list.', fixable: true },
  { id: 'ACT-004', summary: 'An Activity label is one non-blank line of at most 96 characters.' },
  { id: 'PRES-001', summary: 'A presentation or section headline and summary are text of at most 512 characters.' },
  { id: 'PRES-002', summary: 'A headline and summary are one line of at most 512 UTF-8 bytes (no control characters).' },
  { id: 'PRES-003', summary: 'A headline is not empty.' },
  { id: 'PRES-004', summary: 'content is a list or tuple of Activity blocks (at most 32 in G2).' },
  { id: 'PRES-005', summary: 'sections is a list or tuple of ActivitySections, none nested (at most 8 in G2).' },
  { id: 'PRES-006', summary: 'A presentation has at most 32 blocks in all (G2).' },
  { id: 'PRES-007', summary: 'summary_format is inline or markdown.' },
  { id: 'PRES-008', summary: 'handle_id is a string.' },
  { id: 'PRES-009', summary: 'handle_id is one non-blank line of at most 512 UTF-8 bytes.' },
  { id: 'PRES-010', summary: 'verdict is passed or failed.' },
  { id: 'BLK-001', summary: 'Activity text, heading and Markdown blocks hold text (at most 16,384 characters in G2).' },
  { id: 'BLK-002', summary: 'A code or diff block language is text of at most 256 characters.' },
  { id: 'BLK-003', summary: 'An Activity table in G2: 1 to 16 columns, at most 200 rows, rows as wide as the columns, text cells of at most 256 characters.' },
  { id: 'BLK-004', summary: 'An Activity table in G3: at least one column, rows as wide as the columns, text cells, paths one per row.' },
  { id: 'BLK-005', summary: 'An attachment block has a non-blank attachment id and a label of at most 256 characters.' },
  { id: 'BLK-006', summary: 'An Activity progress block has a label, and value and total together with 0 <= value <= total and total > 0.' },
];

const presentationSteps = (extra: Step[]): Step[] => [
  ...headlineAndSummary(),
  step('PRES-004', contentStep),
  ...extra,
  step('PRES-007', summaryFormat),
];

export const activityFamilies: CallFamily[] = [
  { flavour: 'typed', member: 'Activity', steps: activitySteps() },
  { flavour: 'typed', member: 'ActivitySection', steps: presentationSteps([]) },
  {
    flavour: 'typed',
    member: 'ActivityPresentation',
    steps: [...presentationSteps([step('PRES-005', sectionsStep), step('PRES-006', totalBlocks)]), ...handleSteps()],
  },
  ...['ActivityText', 'ActivityHeading', 'ActivityMarkdown'].map((member): CallFamily => ({ flavour: 'typed', member, steps: [step('BLK-001', blockText)] })),
  ...['ActivityCode', 'ActivityDiff'].map((member): CallFamily => ({ flavour: 'typed', member, steps: [step('BLK-002', language)] })),
  { flavour: 'typed', member: 'ActivityTable', steps: [{ id: ['BLK-003', 'BLK-004'], check: table }] },
  ...['ActivityFile', 'ActivityImage', 'ActivityVideo', 'ActivityAudio'].map(
    (member): CallFamily => ({
      flavour: 'typed',
      member,
      steps: [
        textOfAtMost('BLK-005', 'attachment_id', 256, 'Activity attachment id must be text of at most 256 characters'),
        step('BLK-005', (c) => {
          const v = c.arg('attachment_id');
          return v?.kind === 'str' && pyStrip(v.value) === '' ? at(v, 'Activity attachment id must not be blank') : undefined;
        }),
        textOfAtMost('BLK-005', 'label', 256, 'Activity label must be text of at most 256 characters'),
      ],
    }),
  ),
  {
    flavour: 'typed',
    member: 'ActivityProgress',
    steps: [textOfAtMost('BLK-006', 'label', 256, 'Activity label must be text of at most 256 characters'), step('BLK-006', progress)],
  },
];

export const activityRules: Rule[] = [
  ...familyRules(DOCS, activityFamilies),
  callRule({ id: 'ACT-005', summary: 'An Activity render callback takes the keywords phase, args, kwargs, result and error (or **_): the SDK swallows the TypeError of any other signature and shows nothing.' }, 'typed', 'Activity', renderShape),
  callRule({ id: 'ACT-006', severity: 'information', summary: "Activity labels are in sentence case ('Read file', not 'read_file' or 'READ FILE')." }, 'typed', 'Activity', labelCase),
  callRule({ id: 'ACT-007', summary: 'publish_activity takes a vis.ActivityPresentation; given anything else it returns False and shows nothing.' }, 'typed', 'publish_activity', (c) => {
    const v = c.arg('presentation');
    if (v && isDeclaration(v, 'ActivityPresentation') === false) c.ctx.report(v.range, 'publish_activity shows nothing here: it takes a vis.ActivityPresentation and returns False for anything else');
  }),
];
