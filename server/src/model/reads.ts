// What a piece of analysis read from the declaration models, so that its result can be reused for a
// later version when nothing it read changed.
//
// Every property of a model (`trackModel`) and every lookup in its maps (`bindings.get(name)`,
// `sdkCalls.get(key)`, `factories.get(fn)`) notes what it returned while a `Reads` is recording. Model
// parts come from statement fragments (server/src/model/build.ts) that keep their identity while their
// statement's text and position do not change, so "nothing changed" is: the same scalars, and the same
// objects in the lists and lookups that were read. A model read at all also depends on its imports and
// SDK profile (they decide what every call and decorator qualifies to).
//
// The rule framework (server/src/rules/index.ts: `ctx.unit`) and the Symbol analysis (the program's
// joins) record per unit of work (a call, a Symbol) and check the reads against the current models
// before reusing a result, so a new rule gets this for free.
import type { Model } from './types';

interface ModelReads {
  scalars: Map<string, unknown>;
  lists: Map<string, readonly unknown[]>;
  /** Per map: the keys looked up and what they gave. */
  lookups: Map<string, Map<unknown, unknown>>;
  /** Maps read whole (iterated, or their size). */
  whole: Set<string>;
}

/** What a unit of analysis read, per model. */
export class Reads {
  readonly models = new Map<Model, ModelReads>();

  private of(model: Model): ModelReads {
    let r = this.models.get(model);
    if (!r) this.models.set(model, (r = { scalars: new Map(), lists: new Map(), lookups: new Map(), whole: new Set() }));
    return r;
  }

  scalar(model: Model, key: string, value: unknown): void {
    this.of(model).scalars.set(key, value);
  }

  list(model: Model, key: string, value: readonly unknown[]): void {
    this.of(model).lists.set(key, value);
  }

  lookup(model: Model, map: string, key: unknown, value: unknown): void {
    const r = this.of(model);
    let m = r.lookups.get(map);
    if (!m) r.lookups.set(map, (m = new Map()));
    if (!m.has(key)) m.set(key, value);
  }

  whole(model: Model, map: string): void {
    this.of(model).whole.add(map);
  }

  /** Adds what another unit read (a unit that used another's result depends on its reads too). */
  merge(other: Reads): void {
    for (const [model, r] of other.models) {
      const mine = this.of(model);
      for (const [k, v] of r.scalars) if (!mine.scalars.has(k)) mine.scalars.set(k, v);
      for (const [k, v] of r.lists) if (!mine.lists.has(k)) mine.lists.set(k, v);
      for (const [map, keys] of r.lookups) for (const [k, v] of keys) this.lookup(model, map, k, v);
      for (const k of r.whole) mine.whole.add(k);
    }
  }
}

let recorder: Reads | undefined;

/** Runs `work` noting what it reads from models into `reads` (and into any recording around it). */
export function recording<T>(reads: Reads, work: () => T): T {
  const outer = recorder;
  recorder = reads;
  try {
    return work();
  } finally {
    recorder = outer;
    outer?.merge(reads);
  }
}

/** Tells the recording in progress (if any) that a reused result read these. */
export function reused(reads: Reads): void {
  recorder?.merge(reads);
}

/** Runs `work` without noting reads (checking reads against current models). */
function unrecorded<T>(work: () => T): T {
  const outer = recorder;
  recorder = undefined;
  try {
    return work();
  } finally {
    recorder = outer;
  }
}

const RAW = Symbol('raw');
type Tracked = Model & { [RAW]?: Record<string, unknown> };

/** A map of a model whose lookups are noted. */
export class TrackedMap<K, V> extends Map<K, V> {
  constructor(
    private readonly owner: Model,
    private readonly label: string,
    entries?: Iterable<readonly [K, V]>,
  ) {
    super();
    if (entries) for (const [k, v] of entries) super.set(k, v);
  }

  /** The value, without noting the read. */
  peek(key: K): V | undefined {
    return super.get(key);
  }

  override get(key: K): V | undefined {
    const v = super.get(key);
    recorder?.lookup(this.owner, this.label, key, v);
    return v;
  }

  override has(key: K): boolean {
    const v = super.get(key);
    recorder?.lookup(this.owner, this.label, key, v);
    return v !== undefined || super.has(key);
  }

  override get size(): number {
    recorder?.whole(this.owner, this.label);
    return super.size;
  }

  override forEach(fn: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    recorder?.whole(this.owner, this.label);
    super.forEach(fn, thisArg);
  }

  override entries(): MapIterator<[K, V]> {
    recorder?.whole(this.owner, this.label);
    return super.entries();
  }

  override keys(): MapIterator<K> {
    recorder?.whole(this.owner, this.label);
    return super.keys();
  }

  override values(): MapIterator<V> {
    recorder?.whole(this.owner, this.label);
    return super.values();
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    recorder?.whole(this.owner, this.label);
    return super.entries();
  }

  /** Every entry, without noting the read. */
  all(): [K, V][] {
    return [...super.entries()];
  }
}

/**
 * Makes every property read of a model noted while recording (in place: properties become accessors
 * over the same values; maps become TrackedMaps). Returns the model.
 */
export function trackModel<M extends Model>(model: M): M {
  const raw: Record<string, unknown> = {};
  const m = model as unknown as Tracked & Record<string, unknown>;
  for (const key of Object.keys(model)) {
    const wrap = (v: unknown) => (v instanceof Map && !(v instanceof TrackedMap) ? new TrackedMap(model, key, v) : v);
    raw[key] = wrap(m[key]);
    Object.defineProperty(model, key, {
      enumerable: true,
      configurable: true,
      get() {
        const v = raw[key];
        if (recorder) {
          if (Array.isArray(v)) recorder.list(model, key, v);
          else if (!(v instanceof Map)) recorder.scalar(model, key, v);
        }
        return v;
      },
      set(v: unknown) {
        raw[key] = wrap(v);
      },
    });
  }
  // Optional properties set later (an absent `script`, `unanalysed`, `generation`) are read as undefined:
  // noted too.
  for (const key of OPTIONAL) {
    if (key in raw) continue;
    raw[key] = undefined;
    Object.defineProperty(model, key, {
      enumerable: false,
      configurable: true,
      get() {
        recorder?.scalar(model, key, raw[key]);
        return raw[key];
      },
      set(v: unknown) {
        raw[key] = v;
        Object.defineProperty(model, key, { enumerable: true });
      },
    });
  }
  Object.defineProperty(model, RAW, { value: raw, enumerable: false });
  return model;
}

const OPTIONAL = ['generation', 'script', 'unanalysed', 'sdk'];

function rawOf(model: Model): Record<string, unknown> | undefined {
  return (model as Tracked)[RAW];
}

function sameItems(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** How two values of a model property are compared: extra comparisons by property name (the SDK profile). */
const sameScalar: Record<string, (a: unknown, b: unknown) => boolean> = {};

/** Registers how a model property that is rebuilt with each version is compared (by what it says). */
export function compareModelProperty(key: string, same: (a: unknown, b: unknown) => boolean): void {
  sameScalar[key] = same;
}

/** The properties every read of a model depends on: what its calls and decorators qualify to. */
const QUALIFYING = ['imports', 'sdk'];

/**
 * Whether everything `reads` noted is the same in the current models (`current` gives the current
 * version of a model, or undefined when the module is gone).
 */
export function stillValid(reads: Reads, current: (model: Model) => Model | undefined): boolean {
  const moved: [Model, Model][] = [];
  const valid = unrecorded(() => {
    for (const [old, r] of reads.models) {
      const cur = current(old);
      if (!cur) return false;
      if (cur === old) continue;
      moved.push([old, cur]);
      const a = rawOf(old);
      const b = rawOf(cur);
      if (!a || !b) return false;
      for (const key of QUALIFYING) if (!same(key, a[key], b[key])) return false;
      for (const [key, v] of r.scalars) if (!same(key, v, b[key])) return false;
      for (const [key, v] of r.lists) if (!sameItems(v, b[key])) return false;
      for (const [map, keys] of r.lookups) {
        const m = b[map];
        if (!(m instanceof TrackedMap)) return false;
        for (const [k, v] of keys) if (!sameItems(v, m.peek(k))) return false;
      }
      for (const map of r.whole) {
        const x = a[map];
        const y = b[map];
        if (!(x instanceof TrackedMap) || !(y instanceof TrackedMap)) return false;
        const xs = x.all();
        if (xs.length !== y.all().length) return false;
        for (const [k, v] of xs) if (!sameItems(v, y.peek(k))) return false;
      }
    }
    return true;
  });
  // What was read is the same in the current versions: note it against them, so older versions are not
  // kept alive and the next check of an unchanged module is one comparison.
  if (valid) {
    for (const [old, cur] of moved) {
      const r = reads.models.get(old)!;
      reads.models.delete(old);
      reads.models.set(cur, r);
    }
  }
  return valid;
}

function same(key: string, a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (key === 'imports') return sameItems(a, b);
  const cmp = sameScalar[key];
  return cmp ? cmp(a, b) : false;
}

/** A model's URI, without noting the read. */
export function uriOf(model: Model): string {
  const raw = rawOf(model);
  return (raw ? raw.uri : model.uri) as string;
}
