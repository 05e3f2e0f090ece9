// CPython's `random.Random` for integer seeds (MT19937, `init_by_array`, and the `random`,
// `getrandbits`, `_randbelow`, `randrange`, `randint` and `choice` built on it), so the generators the
// shared vectors describe in Python produce the same inputs here.

const N = 624;
const M = 397;

export class PyRandom {
  private readonly mt = new Uint32Array(N);
  private index = N + 1;

  constructor(seed: number) {
    if (!Number.isSafeInteger(seed)) throw new Error('PyRandom takes a safe integer seed');
    // CPython seeds with the 32-bit words of abs(seed), least significant first ([0] for 0).
    let rest = Math.abs(seed);
    const key: number[] = [];
    do {
      key.push(rest % 2 ** 32);
      rest = Math.floor(rest / 2 ** 32);
    } while (rest > 0);
    this.initByArray(key);
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) mt[i] = (Math.imul(1812433253, mt[i - 1] ^ (mt[i - 1] >>> 30)) + i) >>> 0;
    this.index = N;
  }

  private initByArray(key: number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      mt[i] = ((mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1664525)) + key[j] + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      mt[i] = ((mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  private next32(): number {
    const mt = this.mt;
    if (this.index >= N) {
      for (let k = 0; k < N; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % N] & 0x7fffffff);
        mt[k] = mt[(k + M) % N] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `random()`: 53 random bits in [0, 1). */
  random(): number {
    const a = this.next32() >>> 5;
    const b = this.next32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** `getrandbits(k)` for 0 < k <= 32. */
  getrandbits(k: number): number {
    if (k <= 0 || k > 32) throw new Error('getrandbits supports 1..32 bits here');
    return this.next32() >>> (32 - k);
  }

  /** `_randbelow(n)`: uniform in [0, n) by rejection on `n.bit_length()` bits. */
  randbelow(n: number): number {
    if (!Number.isInteger(n) || n <= 0 || n >= 2 ** 31) throw new Error('randbelow supports 1..2**31-1');
    const k = 32 - Math.clz32(n);
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  /** `randrange(stop)` or `randrange(start, stop)`. */
  randrange(start: number, stop?: number): number {
    if (stop === undefined) return this.randbelow(start);
    return start + this.randbelow(stop - start);
  }

  /** `randint(a, b)`: inclusive of both ends. */
  randint(a: number, b: number): number {
    return this.randrange(a, b + 1);
  }

  choice<T>(items: readonly T[]): T {
    return items[this.randbelow(items.length)];
  }
}
