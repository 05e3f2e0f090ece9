// A small seeded PRNG (mulberry32) for the fuzz suite: every case is reproducible from
// (seed, target, case index), so a finding can be re-run alone with --case.
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** Case `i` of `target` under `seed`: independent of how many numbers earlier cases drew. */
  static forCase(seed: number, target: string, i: number): Rng {
    let h = 2166136261 ^ seed;
    for (const c of `${target}#${i}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
    return new Rng(h);
  }
  /** A float in [0, 1). */
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** An integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  bytes(n: number): Uint8Array {
    const b = new Uint8Array(n);
    for (let i = 0; i < n; i++) b[i] = this.int(256);
    return b;
  }
}
