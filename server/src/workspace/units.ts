// Results of units of analysis (a Symbol's analysis, the findings of one rule on one call) kept between
// versions of a module: each is kept with what it read from the models (server/src/model/reads.ts) and
// reused while all of that is the same in the current models. So an edit re-runs the rules only on the
// units whose inputs it changed.
import { Reads, recording, reused } from '../model/reads';
import type { SymbolInfo } from '../contracts/symbols';
import type { Finding, Fix, RuleUnits } from '../rules/types';
import type { Range } from '../model/types';

interface Entry<V> {
  value: V;
  reads: Reads;
  /** The run that last used it (entries no run used are dropped). */
  used: number;
}

/** Results by unit, checked against the current models before reuse. */
export class UnitMemo<K extends object, V> {
  private entries = new Map<K, Entry<V>>();
  private run = 0;
  /** Units computed, and reused, since the memo was made (tests and the benchmarks). */
  computed = 0;
  reusedCount = 0;

  constructor(
    private readonly valid: (reads: Reads) => boolean,
    private readonly onReuse: (reads: Reads) => void,
  ) {}

  /** Starts a run over the module's units; `sweep` afterwards drops the units it did not use. */
  begin(): void {
    this.run++;
  }

  /**
   * The unit's result: the kept one while what it read is unchanged (passed through `refresh` when given,
   * which may give it anew, or undefined to have it computed again), else computed.
   */
  get(key: K, compute: () => V, refresh?: (value: V) => V | undefined): V {
    const hit = this.entries.get(key);
    const kept = hit && this.valid(hit.reads) ? (refresh ? refresh(hit.value) : hit.value) : undefined;
    if (hit && kept !== undefined) {
      hit.value = kept;
      hit.used = this.run;
      this.reusedCount++;
      this.onReuse(hit.reads);
      reused(hit.reads);
      return kept;
    }
    const reads = new Reads();
    const value = recording(reads, compute);
    this.computed++;
    this.entries.set(key, { value, reads, used: this.run });
    return value;
  }

  sweep(): void {
    const run = this.run;
    const entries = this.entries;
    entries.forEach((e, k) => {
      if (e.used !== run) entries.delete(k);
    });
  }
}

/** Where the rows of an open module's statements went from one build to the next (its model builder). */
export interface RowMapper {
  /** Incremented with each build. */
  readonly epoch: number;
  /** The row `row` of epoch `from` is on now, or -1 when its statement was read again. */
  mapRow(row: number, from: number): number;
}

/**
 * A unit's findings as kept: copies whose positions are their own (not the model's, which move with their
 * statement), with the epoch of each module they are placed in, so they are moved to the current rows
 * when reused. A statement moved by lines added above it keeps its objects (server/src/model/build.ts),
 * so its units are reused: only their findings' rows change.
 */
interface Placed {
  findings: Finding[];
  /** Per module URI: its row mapper and epoch when the findings were placed (no mapper: a file read from disk, which does not move). */
  at: Map<string, { mapper: RowMapper | undefined; epoch: number }>;
}

const NOTHING_PLACED: Placed = Object.freeze({ findings: Object.freeze([]) as unknown as Finding[], at: new Map() });

/** One module's units: its Symbol analyses and its rule findings, for one set of settings. */
export class ModuleUnits implements RuleUnits {
  readonly symbols: UnitMemo<object, SymbolInfo>;
  private rules = new Map<string, UnitMemo<object, Placed>>();

  constructor(
    /** What every unit depends on beside the models (settings, the program's structure). */
    readonly key: string,
    private readonly valid: (reads: Reads) => boolean,
    private readonly onReuse: (reads: Reads) => void,
    /** The module's URI (findings without a `uri` of their own are placed in it). */
    private readonly uri: string,
    /** The row mapper of a module, when it is open. */
    private readonly mapper: (uri: string) => RowMapper | undefined = () => undefined,
  ) {
    this.symbols = new UnitMemo(valid, onReuse);
  }

  findings(rule: string, unit: object, check: () => Finding[]): Finding[] {
    let memo = this.rules.get(rule);
    if (!memo) {
      this.rules.set(rule, (memo = new UnitMemo(this.valid, this.onReuse)));
      memo.begin();
    }
    return memo.get(unit, () => this.place(check()), this.refresh).findings;
  }

  /** Kept findings moved to the current rows (one function for every unit). */
  private readonly refresh = (placed: Placed): Placed | undefined => this.moved(placed);

  /** Findings as kept: their positions copied, with the epochs of the modules they are in. */
  private place(findings: Finding[]): Placed {
    // Most units find nothing: one kept value for all of them (nothing in it moves or is changed).
    if (!findings.length) return NOTHING_PLACED;
    const at: Placed['at'] = new Map();
    const copy = (r: Range, uri: string): Range => {
      if (!at.has(uri)) {
        const mapper = this.mapper(uri);
        at.set(uri, { mapper, epoch: mapper?.epoch ?? 0 });
      }
      return { start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } };
    };
    return { findings: findings.map((f) => placeFinding(f, this.uri, copy)!), at };
  }

  /** Kept findings moved to the current rows of their modules (the same object when no row changed), or undefined when a row is gone. */
  private moved(placed: Placed): Placed | undefined {
    let stale = false;
    for (const [uri, { mapper, epoch }] of placed.at) {
      const now = this.mapper(uri);
      if (now !== mapper) return undefined;
      if (now && now.epoch !== epoch) stale = true;
    }
    if (!stale) return placed;
    // Most reuses move nothing (an edit that adds no line, findings above it): rows are looked at first.
    let changed = false;
    for (const f of placed.findings) {
      const m = rowsMoved(f, this.uri, placed.at);
      if (m < 0) return undefined;
      if (m > 0) changed = true;
    }
    if (!changed) {
      // Kept as they are, now placed in the current epochs.
      for (const was of placed.at.values()) was.epoch = was.mapper?.epoch ?? 0;
      return placed;
    }
    const at: Placed['at'] = new Map();
    for (const [uri, { mapper }] of placed.at) at.set(uri, { mapper, epoch: mapper?.epoch ?? 0 });
    const move = (r: Range, uri: string): Range => moveRange(r, placed.at.get(uri)!);
    return { findings: placed.findings.map((f) => placeFinding(f, this.uri, move)!), at };
  }

  /** Starts a rule run; `endRules` drops the units it did not use. */
  beginRules(): void {
    for (const m of this.rules.values()) m.begin();
  }

  endRules(): void {
    for (const m of this.rules.values()) m.sweep();
  }

  /** Rule units computed and reused so far (tests and the benchmarks). */
  counts(): { computed: number; reused: number } {
    let computed = 0;
    let reusedCount = 0;
    for (const m of this.rules.values()) {
      computed += m.computed;
      reusedCount += m.reusedCount;
    }
    return { computed, reused: reusedCount };
  }
}

/** A finding with each of its ranges (its own, its fixes', related places', earlier errors') passed through `map`; undefined when `map` gives none for one. */
function placeFinding(f: Finding, uri: string, map: (r: Range, uri: string) => Range | undefined): Finding | undefined {
  const own = f.uri ?? uri;
  const range = map(f.range, own);
  if (!range) return undefined;
  const g: Finding = { ...f, range };
  const fix = (x: Fix): Fix | undefined => {
    const edits: Fix['edits'] = [];
    for (const e of x.edits) {
      const r = map(e.range, uri);
      if (!r) return undefined;
      edits.push(r === e.range ? e : { ...e, range: r });
    }
    return { ...x, edits };
  };
  if (f.fix && !(g.fix = fix(f.fix))) return undefined;
  if (f.suggestions) {
    const suggestions: Fix[] = [];
    for (const s of f.suggestions) {
      const x = fix(s);
      if (!x) return undefined;
      suggestions.push(x);
    }
    g.suggestions = suggestions;
  }
  if (f.related) {
    const related: NonNullable<Finding['related']> = [];
    for (const r of f.related) {
      const m = map(r.range, r.uri);
      if (!m) return undefined;
      related.push({ ...r, range: m });
    }
    g.related = related;
  }
  if (f.behind) {
    const behind: NonNullable<Finding['behind']> = [];
    for (const b of f.behind) {
      const m = map(b.range, own);
      if (!m) return undefined;
      behind.push({ ...b, range: m });
    }
    g.behind = behind;
  }
  return g;
}

/** A kept range's start and end rows now (-1 for a row that was edited), or undefined when its module's rows did not change. */
function rowsNow(r: Range, was: { mapper: RowMapper | undefined; epoch: number } | undefined): [number, number] | undefined {
  if (!was?.mapper || was.mapper.epoch === was.epoch) return undefined;
  const start = was.mapper.mapRow(r.start.line, was.epoch);
  return [start, r.end.line === r.start.line ? start : was.mapper.mapRow(r.end.line, was.epoch)];
}

/** A kept range's rows now (the same object when they did not change); its rows are known to be kept (rowsMoved). */
function moveRange(r: Range, was: { mapper: RowMapper | undefined; epoch: number }): Range {
  const rows = rowsNow(r, was);
  if (!rows) return r;
  const [start, end] = rows;
  return start === r.start.line && end === r.end.line ? r : { start: { line: start, character: r.start.character }, end: { line: end, character: r.end.character } };
}

/** Whether a range's rows moved (1), stayed (0) or were edited (-1) since it was kept. */
function rangeMoved(r: Range, was: { mapper: RowMapper | undefined; epoch: number } | undefined): number {
  const rows = rowsNow(r, was);
  if (!rows) return 0;
  const [start, end] = rows;
  return start < 0 || end < 0 ? -1 : start !== r.start.line || end !== r.end.line ? 1 : 0;
}

/** The most any range of a kept finding moved (see rangeMoved): -1 when one was edited. */
function rowsMoved(f: Finding, uri: string, at: Placed['at']): number {
  const own = at.get(f.uri ?? uri);
  let most = rangeMoved(f.range, own);
  const here = at.get(uri);
  const fixes = f.fix ? [f.fix, ...(f.suggestions ?? [])] : f.suggestions;
  if (fixes) for (const x of fixes) for (const e of x.edits) most = worst(most, rangeMoved(e.range, here));
  if (f.related) for (const r of f.related) most = worst(most, rangeMoved(r.range, at.get(r.uri)));
  if (f.behind) for (const b of f.behind) most = worst(most, rangeMoved(b.range, own));
  return most;
}

function worst(a: number, b: number): number {
  return a < 0 || b < 0 ? -1 : Math.max(a, b);
}
