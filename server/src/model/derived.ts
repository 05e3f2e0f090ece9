// What is derived from a declaration model and kept with it (the calls run at runtime, SDK bindings per
// call, the decorated methods, evidence of the SDK version...): one WeakMap per kind, made here, so
// that a module nobody has open can let all of it go once its findings are published
// (`releaseDerived`, called by the workspace program) and derive it again if it is ever read.
import type { Model } from './types';

const caches: WeakMap<Model, unknown>[] = [];

/** A cache of something derived from each model, released with the rest by `releaseDerived`. */
export function derivedCache<V>(): WeakMap<Model, V> {
  const cache = new WeakMap<Model, V>();
  caches.push(cache);
  return cache;
}

/** Lets go of everything derived from a model (it is derived again when read). */
export function releaseDerived(model: Model): void {
  for (const cache of caches) cache.delete(model);
}
