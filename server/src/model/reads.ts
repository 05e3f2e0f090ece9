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
import { derivedCache } from './derived';
import type { Model } from './types';

interface ModelReads {
  /** The model read (moved to its current version once a check found the reads unchanged). */
  model: Model;
  /** Properties read: key, value, key, value... */
  props?: unknown[];
  /** Per map: the keys looked up and what they gave (while recording). */
  lookups?: Map<string, Map<unknown, unknown>>;
  /** The same once recorded (`compact`): map, key, value, map, key, value... */
  looked?: unknown[];
  /** Maps read whole (iterated, or their size). */
  whole?: string[];
}

/** What a unit of analysis read, per model. */
export class Reads {
  /** One entry per model read (a unit reads one or a few). */
  models: ModelReads[] = NO_MODELS;

  private of(model: Model): ModelReads {
    for (const r of this.models) if (r.model === model) return r;
    const r: ModelReads = { model };
    // Most units read one model: a list of its size, not one grown by push (which keeps room for 16).
    if (this.models === NO_MODELS) this.models = [r];
    else this.models.push(r);
    return r;
  }

  /** A property of a model and its value (a list is compared by its items). */
  prop(model: Model, key: string, value: unknown): void {
    const r = this.of(model);
    const props = r.props;
    if (!props) {
      r.props = [key, value];
      return;
    }
    for (let i = 0; i < props.length; i += 2) if (props[i] === key) return;
    props.push(key, value);
  }

  lookup(model: Model, map: string, key: unknown, value: unknown): void {
    const r = this.of(model);
    const lookups = (r.lookups ??= new Map());
    let m = lookups.get(map);
    if (!m) lookups.set(map, (m = new Map()));
    if (!m.has(key)) m.set(key, value);
  }

  whole(model: Model, map: string): void {
    const r = this.of(model);
    if (!r.whole?.includes(map)) (r.whole ??= []).push(map);
  }

  /** Adds what another unit read (a unit that used another's result depends on its reads too). */
  merge(other: Reads): void {
    for (const r of other.models) {
      if (r.props) for (let i = 0; i < r.props.length; i += 2) this.prop(r.model, r.props[i] as string, r.props[i + 1]);
      r.lookups?.forEach((keys, map) => keys.forEach((v, k) => this.lookup(r.model, map, k, v)));
      const looked = r.looked;
      if (looked) for (let i = 0; i < looked.length; i += 3) this.lookup(r.model, looked[i] as string, looked[i + 1], looked[i + 2]);
      if (r.whole) for (const map of r.whole) this.whole(r.model, map);
      if (!r.props && !r.lookups && !looked && !r.whole) this.of(r.model);
    }
  }

  /**
   * What was noted, in as little memory as it takes (it is kept as long as the result it was noted
   * for, and an open document keeps thousands): lists cut to their length (V8 leaves room for 16 more
   * in a list pushed to), the lookups in one flat list. Nothing is noted into it afterwards.
   */
  compact(): void {
    if (this.models.length > 1) this.models = this.models.slice();
    for (const r of this.models) {
      if (r.props && r.props.length > 2) r.props = r.props.slice();
      if (r.whole) r.whole = r.whole.slice();
      if (r.lookups) {
        const looked: unknown[] = [];
        r.lookups.forEach((keys, map) => keys.forEach((v, k) => looked.push(map, k, v)));
        r.looked = looked.slice();
        r.lookups = undefined;
      }
    }
  }
}

/** The models of a Reads that has read none yet (shared: never added to). */
const NO_MODELS: ModelReads[] = [];

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
    reads.compact();
  }
}

/** Whether a recording is in progress (what is read now is noted). */
export function isRecording(): boolean {
  return recorder !== undefined;
}

/** Tells the recording in progress (if any) that a reused result read these. */
export function reused(reads: Reads): void {
  recorder?.merge(reads);
}

/** A result kept with what computing it read, so that a unit reusing it still notes those reads. */
export interface WithReads<T> {
  value: T;
  reads: Reads;
}

/** Computes `work`, noting what it reads (for a result kept and reused by `keptValue`). */
export function withReads<T>(work: () => T): WithReads<T> {
  const reads = new Reads();
  return { value: recording(reads, work), reads };
}

/** A kept result's value, its reads passed on to the recording in progress. */
export function keptValue<T>(kept: WithReads<T>): T {
  reused(kept.reads);
  return kept.value;
}

const RAW = Symbol('raw');
type Tracked = Model & { [RAW]?: Record<string, unknown> };

/** A map of a model whose lookups are noted. */
export class TrackedMap<K, V> extends Map<K, V> {
  /** The model it belongs to and its property name (set by trackModel). */
  private owner?: Model;
  private label = '';

  constructor(entries?: Iterable<readonly [K, V]>) {
    super();
    if (entries) for (const [k, v] of entries) super.set(k, v);
  }

  /** Makes its reads noted as reads of `model[label]`. */
  own(model: Model, label: string): this {
    this.owner = model;
    this.label = label;
    return this;
  }

  /** The value, without noting the read. */
  peek(key: K): V | undefined {
    return super.get(key);
  }

  override get(key: K): V | undefined {
    const v = super.get(key);
    if (recorder && this.owner) recorder.lookup(this.owner, this.label, key, v);
    return v;
  }

  override has(key: K): boolean {
    const v = super.get(key);
    if (recorder && this.owner) recorder.lookup(this.owner, this.label, key, v);
    return v !== undefined || super.has(key);
  }

  override get size(): number {
    if (recorder && this.owner) recorder.whole(this.owner, this.label);
    return super.size;
  }

  override forEach(fn: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    if (recorder && this.owner) recorder.whole(this.owner, this.label);
    super.forEach(fn, thisArg);
  }

  override entries(): MapIterator<[K, V]> {
    if (recorder && this.owner) recorder.whole(this.owner, this.label);
    return super.entries();
  }

  override keys(): MapIterator<K> {
    if (recorder && this.owner) recorder.whole(this.owner, this.label);
    return super.keys();
  }

  override values(): MapIterator<V> {
    if (recorder && this.owner) recorder.whole(this.owner, this.label);
    return super.values();
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    if (recorder && this.owner) recorder.whole(this.owner, this.label);
    return super.entries();
  }

  /** Every entry, without noting the read. */
  all(): [K, V][] {
    return [...super.entries()];
  }
}

/**
 * A model whose every property read is noted while recording: a copy of `model` (which is not used
 * afterwards) whose properties are accessors over the same values, maps made TrackedMaps. The
 * accessors are shared by every model (one pair per property name, reading the model's own values
 * through `this`), and the copy is built property by property in the same order every time, so every
 * tracked model has one shape: a model costs its values and one record of them, not a closure per
 * property or a property dictionary of its own.
 */
export function trackModel<M extends Model>(model: M): M {
  const raw: Record<string, unknown> = {};
  const m = model as unknown as Record<string, unknown>;
  const tracked = {} as Tracked;
  Object.defineProperty(tracked, RAW, { value: raw, enumerable: false });
  for (const key of Object.keys(model)) {
    raw[key] = wrap(tracked, key, m[key]);
    Object.defineProperty(tracked, key, accessorsOf(key));
  }
  // Optional properties set later (an absent `script`, `unanalysed`, `generation`) are read as undefined:
  // noted too.
  for (const key of OPTIONAL) {
    if (key in raw) continue;
    raw[key] = undefined;
    Object.defineProperty(tracked, key, accessorsOf(key, true));
  }
  return tracked as M;
}

const OPTIONAL = ['generation', 'script', 'unanalysed', 'sdk'];

function wrap(model: Model, key: string, v: unknown): unknown {
  return v instanceof TrackedMap ? v.own(model, key) : v instanceof Map ? new TrackedMap(v).own(model, key) : v;
}

const accessors = new Map<string, PropertyDescriptor>();

/**
 * The accessors of a model property: present when the model was tracked, or optional (absent then,
 * not enumerable until set).
 */
function accessorsOf(key: string, optional = false): PropertyDescriptor {
  const id = optional ? `?${key}` : key;
  let d = accessors.get(id);
  if (!d) {
    d = {
      enumerable: !optional,
      configurable: true,
      get(this: Tracked) {
        const v = this[RAW]![key];
        if (recorder && !(v instanceof Map)) recorder.prop(this, key, v);
        return v;
      },
      set(this: Tracked, v: unknown) {
        this[RAW]![key] = wrap(this, key, v);
        if (optional) Object.defineProperty(this, key, { enumerable: true });
      },
    };
    accessors.set(id, d);
  }
  return d;
}

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
 * version of a model, or undefined when the module is gone). When it is, the reads are moved to the
 * current versions (older versions are not kept alive, and the next check of an unchanged module is one
 * comparison).
 */
export function stillValid(reads: Reads, current: (model: Model) => Model | undefined): boolean {
  const outer = recorder;
  recorder = undefined;
  try {
    for (const r of reads.models) if (!unchanged(r, current)) return false;
  } finally {
    recorder = outer;
  }
  for (const r of reads.models) r.model = current(r.model)!;
  return true;
}

/**
 * What changed from one version of a model to another: the properties whose values differ, and per map
 * the keys whose values differ. Computed once per pair of versions, so that checking a unit's reads is
 * a lookup per read rather than a comparison of what it read (a list of every call, a map read whole).
 * A unit's recorded values are those of the version its reads name (recorded there, or found the same
 * there by the last check), so comparing that version with the current one is comparing them.
 */
interface ModelDiff {
  props: Set<string>;
  /** Per map: the keys whose values differ (absent: the map is the same). */
  maps: Map<string, Set<unknown>>;
}

/**
 * The last difference computed from each version, to a version it names by a serial number (not a
 * WeakRef, whose target V8 keeps alive to the end of the task: one that analyses many versions kept them all).
 */
const diffs = derivedCache<{ cur: number; diff: ModelDiff | undefined }>();
const serials = new WeakMap<Model, number>();
let lastSerial = 0;

function serialOf(model: Model): number {
  let n = serials.get(model);
  if (n === undefined) serials.set(model, (n = ++lastSerial));
  return n;
}

function diffOf(old: Model, cur: Model): ModelDiff | undefined {
  const kept = diffs.get(old);
  const to = serialOf(cur);
  if (kept && kept.cur === to) return kept.diff;
  const diff = computeDiff(old, cur);
  diffs.set(old, { cur: to, diff });
  return diff;
}

/** The difference of two versions (undefined when either is not tracked: nothing can be said to be the same). */
function computeDiff(old: Model, cur: Model): ModelDiff | undefined {
  const a = rawOf(old);
  const b = rawOf(cur);
  if (!a || !b) return undefined;
  const diff: ModelDiff = { props: new Set(), maps: new Map() };
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const x = a[key];
    const y = b[key];
    if (x instanceof TrackedMap && y instanceof TrackedMap) {
      const changed = new Set<unknown>();
      for (const [k, v] of x.all()) if (!sameItems(v, y.peek(k))) changed.add(k);
      for (const [k] of y.all()) if (x.peek(k) === undefined && !x.has(k)) changed.add(k);
      if (changed.size) diff.maps.set(key, changed);
    } else if (x instanceof TrackedMap || y instanceof TrackedMap) {
      diff.props.add(key);
      diff.maps.set(key, new Set([ANY_KEY]));
    } else if (!same(key, x, y)) diff.props.add(key);
  }
  return diff;
}

/** Stands for every key of a map that is not a map in both versions. */
const ANY_KEY = Symbol('any key');

function unchanged(r: ModelReads, current: (model: Model) => Model | undefined): boolean {
  const old = r.model;
  const cur = current(old);
  if (!cur) return false;
  if (cur === old) return true;
  const diff = diffOf(old, cur);
  if (!diff) return false;
  const changed = diff.props;
  if (changed.size) {
    for (const key of QUALIFYING) if (changed.has(key)) return false;
    const props = r.props;
    if (props) for (let i = 0; i < props.length; i += 2) if (changed.has(props[i] as string)) return false;
  }
  if (diff.maps.size) {
    let ok = true;
    r.lookups?.forEach((keys, map) => {
      const ch = diff.maps.get(map);
      if (!ok || !ch) return;
      if (ch.has(ANY_KEY)) ok = false;
      else keys.forEach((_, k) => {
        if (ch.has(k)) ok = false;
      });
    });
    const looked = r.looked;
    if (looked) {
      for (let i = 0; ok && i < looked.length; i += 3) {
        const ch = diff.maps.get(looked[i] as string);
        if (ch && (ch.has(ANY_KEY) || ch.has(looked[i + 1]))) ok = false;
      }
    }
    if (!ok) return false;
    if (r.whole) for (const map of r.whole) if (diff.maps.has(map)) return false;
  }
  return true;
}

function same(key: string, a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return sameItems(a, b);
  const cmp = sameScalar[key];
  return cmp ? cmp(a, b) : false;
}

/** A model's URI, without noting the read. */
export function uriOf(model: Model): string {
  const raw = rawOf(model);
  return (raw ? raw.uri : model.uri) as string;
}
