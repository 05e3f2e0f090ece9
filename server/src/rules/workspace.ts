// Checks across the entries of one project (vis-host.md §5): Vis keeps one extension per name, so two
// entries registering the same name (or the same alias, which names their tools) lose one of them
// silently; and a project extension with a global extension's name replaces it inside the project.
// These rules read what each entry registers, from the workspace program.
import type { Range } from '../model/types';
import type { EntryScope } from '../workspace/discovery';
import type { RelatedLocation, RuleMeta } from './types';
import { pathOf } from './util';

/** What one entry file registers. */
export interface RegisteredExtension {
  uri: string;
  path: string;
  scope: EntryScope;
  name?: { value: string; range: Range };
  alias?: { value: string; range: Range };
  /** The registration call (where a finding without a name argument goes). */
  anchor: Range;
}

export interface WorkspaceRuleContext {
  /** In Vis's load order: global entries first, then the project's. */
  extensions: RegisteredExtension[];
  report(uri: string, range: Range, message: string, related?: RelatedLocation[]): void;
}

export interface WorkspaceRule extends RuleMeta {
  check(ctx: WorkspaceRuleContext): void;
}

function duplicates(id: string, field: 'name' | 'alias', summary: string): WorkspaceRule {
  return {
    id,
    severity: 'warning',
    summary,
    check({ extensions, report }) {
      const first = new Map<string, RegisteredExtension>();
      for (const ext of extensions) {
        if (ext.scope === 'global') continue;
        const v = ext[field];
        if (!v) continue;
        const earlier = first.get(v.value);
        if (!earlier) {
          first.set(v.value, ext);
          continue;
        }
        report(
          ext.uri,
          v.range,
          `extension ${field} '${v.value}' is also registered by ${pathOf(earlier.uri)}; Vis keeps only one extension per ${field}, so one of the two is not loaded`,
          [{ uri: earlier.uri, range: earlier[field]!.range, message: `'${v.value}' is registered here first` }],
        );
      }
    },
  };
}

export const workspaceRules: WorkspaceRule[] = [
  duplicates('WS-001', 'name', 'Two extensions in one project register the same name.'),
  duplicates('WS-002', 'alias', 'Two extensions in one project register the same alias.'),
  {
    id: 'WS-003',
    severity: 'information',
    summary: 'A project extension has the name of a global extension and replaces it inside this project.',
    check({ extensions, report }) {
      const global = new Map<string, RegisteredExtension>();
      for (const ext of extensions) if (ext.scope === 'global' && ext.name) global.set(ext.name.value, ext);
      for (const ext of extensions) {
        if (ext.scope === 'global' || !ext.name) continue;
        const g = global.get(ext.name.value);
        if (!g) continue;
        report(ext.uri, ext.name.range, `this project's extension '${ext.name.value}' replaces the global extension of that name (${pathOf(g.uri)}) inside this project`, [
          { uri: g.uri, range: g.name!.range, message: 'the global extension' },
        ]);
      }
    },
  },
];
