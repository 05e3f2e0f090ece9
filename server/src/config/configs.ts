// The project configuration each module uses, and the rule selection that follows from it: the nearest
// pyproject.toml above the module with a `[tool.vis-authoring]` table, under the editor's (or the
// command line's) settings.
import path from 'node:path';
import { ruleCatalog } from '../rules/catalog';
import { readProjectConfig, type ProjectConfig } from './project';
import { resolveSelection, type SelectionLayer, type SeverityOrOff, type SeverityOverrides } from './selection';
import { CONFIG_RULE } from './rules';
import type { Severity } from '../rules/types';

let ids: Set<string> | undefined;
let defaults: Map<string, Severity> | undefined;

/** Whether a string is a rule id the product reports. */
export function isRuleId(id: string): boolean {
  return (ids ??= new Set(ruleCatalog().map((r) => r.id))).has(id);
}

function ruleDefaults(): Map<string, Severity> {
  return (defaults ??= new Map(ruleCatalog().map((r) => [r.id, r.severity])));
}

/** Finds and reads project configurations, once per directory until `reset` (a pyproject.toml changed). */
export class ProjectConfigs {
  private byDir = new Map<string, ProjectConfig | undefined>();
  private read = new Map<string, ProjectConfig>();
  private policies = new Map<string, SeverityOverrides>();

  /** `readFile` gives a file's text, or undefined when it is not a readable regular file. */
  constructor(private readFile: (file: string) => string | undefined) {}

  reset(): void {
    this.byDir.clear();
    this.read.clear();
    this.policies.clear();
  }

  /** The configuration that applies in a directory: the nearest `[tool.vis-authoring]` at or above it. */
  nearest(dir: string): ProjectConfig | undefined {
    const visited: string[] = [];
    let found: ProjectConfig | undefined;
    for (let d = path.resolve(dir); ; ) {
      if (this.byDir.has(d)) {
        found = this.byDir.get(d);
        break;
      }
      visited.push(d);
      const file = path.join(d, 'pyproject.toml');
      const text = this.readFile(file);
      const config = text === undefined ? undefined : readProjectConfig(file, text, [...ruleDefaults().keys()]);
      if (config) {
        this.read.set(file, config);
        found = config;
        break;
      }
      const up = path.dirname(d);
      if (up === d) break;
      d = up;
    }
    for (const d of visited) this.byDir.set(d, found);
    return found;
  }

  /** Every configuration read so far (to report what in them cannot be applied). */
  all(): ProjectConfig[] {
    return [...this.read.values()];
  }

  /**
   * The severity of CFG-001 on a configuration: a `select` that leaves it out does not silence it (the
   * mistake may be in that very `select`); an `ignore` that names it, or a severity `off`, does.
   */
  configSeverity(config: ProjectConfig, editor: SelectionLayer): SeverityOrOff {
    const layers = [config.layer, editor].map((l) => ({ ignore: (l.ignore ?? []).filter((s) => s !== 'ALL'), severity: l.severity }));
    return resolveSelection(new Map([[CONFIG_RULE, ruleDefaults().get(CONFIG_RULE) ?? 'warning']]), layers)[CONFIG_RULE];
  }

  /**
   * The severity (or `off`) of every rule for a file: its project's configuration, then `editor` (the
   * editor's settings or the command line's options). Files without a path use the configuration of `fallbackDir`.
   */
  policy(file: string | undefined, fallbackDir: string | undefined, editor: SelectionLayer): SeverityOverrides {
    const dir = file ? path.dirname(file) : fallbackDir;
    const config = dir ? this.nearest(dir) : undefined;
    const relative = config && file ? path.relative(path.dirname(config.file), file) : undefined;
    const ignores = relative !== undefined && !relative.startsWith('..') ? config!.perFileIgnores.filter((p) => p.matches(relative)).flatMap((p) => p.rules) : [];
    const key = `${config?.file ?? ''}\u0000${ignores.join(',')}`;
    let p = this.policies.get(key);
    if (!p) this.policies.set(key, (p = resolveSelection(ruleDefaults(), config ? [config.layer, editor] : [editor], ignores)));
    return p;
  }
}
