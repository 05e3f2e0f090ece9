// Results of units of analysis (a Symbol's analysis, the findings of one rule on one call) kept between
// versions of a module: each is kept with what it read from the models (server/src/model/reads.ts) and
// reused while all of that is the same in the current models. So an edit re-runs the rules only on the
// units whose inputs it changed.
import { Reads, recording, reused } from '../model/reads';
import type { SymbolInfo } from '../contracts/symbols';
import type { Finding, RuleUnits } from '../rules/types';

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

  get(key: K, compute: () => V): V {
    const hit = this.entries.get(key);
    if (hit && this.valid(hit.reads)) {
      hit.used = this.run;
      this.reusedCount++;
      this.onReuse(hit.reads);
      reused(hit.reads);
      return hit.value;
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

/** One module's units: its Symbol analyses and its rule findings, for one set of settings. */
export class ModuleUnits implements RuleUnits {
  readonly symbols: UnitMemo<object, SymbolInfo>;
  private rules = new Map<string, UnitMemo<object, Finding[]>>();

  constructor(
    /** What every unit depends on beside the models (settings, the program's structure). */
    readonly key: string,
    private readonly valid: (reads: Reads) => boolean,
    private readonly onReuse: (reads: Reads) => void,
  ) {
    this.symbols = new UnitMemo(valid, onReuse);
  }

  findings(rule: string, unit: object, check: () => Finding[]): Finding[] {
    let memo = this.rules.get(rule);
    if (!memo) {
      this.rules.set(rule, (memo = new UnitMemo(this.valid, this.onReuse)));
      memo.begin();
    }
    return memo.get(unit, check);
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
