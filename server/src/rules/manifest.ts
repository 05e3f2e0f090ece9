// Manifests of Vis extensions (vis-host.md §5), checked as Vis reads them before it imports anything:
// the `pyproject.toml` of a packaged extension (`extension.py` beside it) and the PEP 723 `# /// script`
// block of a single-file one. Where Vis's loader has its own words they are used as they are; the
// other messages say what Vis refuses in ours. Package findings go on the pyproject.toml; script
// findings and the PEP-723-in-a-package refusal on the entry file.
import type { Range } from '../model/types';
import { parseRequirement, normalizeName } from '../sdk/pep440';
import type { Manifest } from '../workspace/manifest';
import type { RelatedLocation, RuleMeta } from './types';

/** What a manifest rule reads: the entry, its manifest (or both kinds), and the file system. */
export interface ManifestRuleContext {
  /** The entry file: `extension.py` of a package, or a single-file extension. */
  entry: { uri: string; path: string; dir: string };
  /** `package`: extension.py with a pyproject.toml beside it; `script`: a single-file extension. */
  kind: 'package' | 'script';
  /** The package's pyproject.toml (kind `package`). */
  pyproject?: { uri: string; manifest: Manifest };
  /** The entry's PEP 723 block, where it has one (refused in a package). */
  script?: { manifest: Manifest; range: Range };
  /** The `name=` the entry registers, when it is a literal. */
  extensionName?: { value: string; range: Range };
  isDir(path: string): boolean;
  isFile(path: string): boolean;
  resolve(dir: string, rel: string): string;
  /** Whether `inner` is `outer` or inside it. */
  within(inner: string, outer: string): boolean;
  report(uri: string, range: Range, message: string, related?: RelatedLocation[]): void;
}

export interface ManifestRule extends RuleMeta {
  check(ctx: ManifestRuleContext): void;
}

const START: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** The manifest the rule reads for this entry, and the file its findings go on. */
function manifestOf(ctx: ManifestRuleContext): { manifest: Manifest; uri: string } | undefined {
  if (ctx.kind === 'package') return ctx.pyproject && { manifest: ctx.pyproject.manifest, uri: ctx.pyproject.uri };
  return ctx.script && { manifest: ctx.script.manifest, uri: ctx.entry.uri };
}

const SCRIPT_TOOL_VIS_KEYS = new Set(['source_paths', 'project']);
const CATEGORIES = ['providers', 'tools', 'workflows'];
const MAX_SKILLS = 64;

export const manifestRules: ManifestRule[] = [
  {
    id: 'MAN-001',
    severity: 'error',
    summary: 'The TOML of a pyproject.toml or a PEP 723 block must parse: Vis reads it before it loads the extension.',
    check(ctx) {
      for (const m of [ctx.pyproject && { manifest: ctx.pyproject.manifest, uri: ctx.pyproject.uri }, ctx.script && { manifest: ctx.script.manifest, uri: ctx.entry.uri }]) {
        if (m?.manifest.error) ctx.report(m.uri, m.manifest.error.range, `${m.manifest.kind === 'pep723' ? 'The PEP 723 block' : 'pyproject.toml'} is not valid TOML: ${m.manifest.error.message}`);
      }
    },
  },
  {
    id: 'MAN-002',
    severity: 'error',
    summary: "A package's normalised project.name must equal the name the extension registers.",
    check(ctx) {
      if (ctx.kind !== 'package' || !ctx.pyproject || !ctx.extensionName) return;
      const name = ctx.pyproject.manifest.at(['project', 'name']);
      if (!name || typeof name.value !== 'string') return;
      // Both sides normalised (PEP 503): only a difference no spelling explains is reported.
      if (normalizeName(name.value) === normalizeName(ctx.extensionName.value)) return;
      ctx.report(ctx.pyproject.uri, name.valueRange, 'Extension name must match normalized project.name', [
        { uri: ctx.entry.uri, range: ctx.extensionName.range, message: `the extension registers the name '${ctx.extensionName.value}'` },
      ]);
    },
  },
  {
    id: 'MAN-003',
    severity: 'error',
    summary: "A package's project.dependencies must hold an unconditional vis-agent requirement.",
    check(ctx) {
      if (ctx.kind !== 'package' || !ctx.pyproject || ctx.pyproject.manifest.error) return;
      const m = ctx.pyproject.manifest;
      const deps = m.at(['project', 'dependencies']);
      // `dynamic = ["dependencies"]` leaves them to the build backend: not known here.
      const dynamic = m.at(['project', 'dynamic'])?.value;
      if (Array.isArray(dynamic) && dynamic.includes('dependencies')) return;
      if (deps && !Array.isArray(deps.value)) return;
      const items = m.items(['project', 'dependencies']) ?? [];
      const unconditional = items.some((i) => {
        if (typeof i.value !== 'string') return false;
        const r = parseRequirement(i.value);
        return r?.name === 'vis-agent' && !r.marker;
      });
      if (unconditional) return;
      const where = deps?.keyRange ?? m.at(['project'])?.keyRange ?? START;
      ctx.report(ctx.pyproject.uri, where, 'project.dependencies must include an unconditional vis-agent requirement (e.g. "vis-agent>=0.2.45"): Vis prepares the package with it');
    },
  },
  {
    id: 'MAN-004',
    severity: 'error',
    summary: "A packaged extension's extension.py may not carry a PEP 723 block: its metadata is its pyproject.toml.",
    check(ctx) {
      if (ctx.kind !== 'package' || !ctx.script) return;
      const r = ctx.script.range;
      ctx.report(ctx.entry.uri, { start: r.start, end: { line: r.start.line, character: '# /// script'.length } }, 'Package entries use pyproject.toml, not PEP 723 metadata');
    },
  },
  {
    id: 'MAN-005',
    severity: 'error',
    summary: "A script block's [tool.vis] accepts only source_paths and project.",
    check(ctx) {
      if (ctx.kind !== 'script' || !ctx.script) return;
      const table = ctx.script.manifest.data.tool as Record<string, unknown> | undefined;
      const vis = table && typeof table === 'object' ? (table.vis as Record<string, unknown> | undefined) : undefined;
      if (!vis || typeof vis !== 'object') return;
      for (const key of Object.keys(vis)) {
        if (SCRIPT_TOOL_VIS_KEYS.has(key)) continue;
        const at = ctx.script.manifest.at(['tool', 'vis', key]);
        ctx.report(ctx.entry.uri, at?.keyRange ?? ctx.script.range, 'tool.vis accepts only source_paths and project');
      }
    },
  },
  {
    id: 'MAN-006',
    severity: 'error',
    summary: 'A script block may not have a [tool.uv] table: Vis installs script dependencies itself.',
    check(ctx) {
      if (ctx.kind !== 'script' || !ctx.script) return;
      const at = ctx.script.manifest.at(['tool', 'uv']);
      const tool = ctx.script.manifest.data.tool as Record<string, unknown> | undefined;
      if (!at && !(tool && typeof tool === 'object' && 'uv' in tool)) return;
      ctx.report(ctx.entry.uri, at?.keyRange ?? ctx.script.range, 'A Vis script block may not configure uv: [tool.uv] is refused (list wheels in dependencies, or use [tool.vis] project)');
    },
  },
  {
    id: 'MAN-007',
    severity: 'error',
    summary: 'Script dependencies are wheels from an index: a URL or a path is refused, and so is dependencies beside [tool.vis] project.',
    check(ctx) {
      if (ctx.kind !== 'script' || !ctx.script) return;
      const m = ctx.script.manifest;
      const items = m.items(['dependencies']) ?? [];
      for (const i of items) {
        if (typeof i.value !== 'string') continue;
        const r = parseRequirement(i.value);
        const path = /^\s*(?:\.{1,2}[\\/]|[\\/]|~|[A-Za-z]:[\\/])/.test(i.value) || /\.(?:whl|tar\.gz|zip)\s*$/.test(i.value);
        if (r?.url !== undefined || path || /^\s*[a-z+]+:\/\//i.test(i.value)) {
          ctx.report(ctx.entry.uri, i.range, `Script dependencies must be packages from an index: '${i.value}' is a URL or a path, which Vis refuses`);
        }
      }
      const project = m.at(['tool', 'vis', 'project']);
      if (project && items.length > 0) {
        ctx.report(ctx.entry.uri, project.keyRange, 'tool.vis.project cannot be combined with script dependencies: declare them in the project\'s pyproject.toml');
      }
    },
  },
  {
    id: 'MAN-008',
    severity: 'error',
    summary: '[tool.vis] project must be a uv project directory: a pyproject.toml and a uv.lock.',
    check(ctx) {
      if (ctx.kind !== 'script' || !ctx.script) return;
      const project = ctx.script.manifest.at(['tool', 'vis', 'project']);
      if (!project || typeof project.value !== 'string') return;
      const dir = ctx.resolve(ctx.entry.dir, project.value);
      if (ctx.isFile(ctx.resolve(dir, 'pyproject.toml')) && ctx.isFile(ctx.resolve(dir, 'uv.lock'))) return;
      ctx.report(ctx.entry.uri, project.valueRange, 'tool.vis.project requires pyproject.toml and uv.lock');
    },
  },
  {
    id: 'MAN-009',
    severity: 'error',
    summary: '[tool.vis] source_paths must name existing directories, none of which contains the extension directory.',
    check(ctx) {
      const m = manifestOf(ctx);
      if (!m) return;
      for (const i of m.manifest.items(['tool', 'vis', 'source_paths']) ?? []) {
        if (typeof i.value !== 'string') continue;
        const dir = ctx.resolve(ctx.entry.dir, i.value);
        if (!ctx.isDir(dir)) ctx.report(m.uri, i.range, 'Extension source_paths must name existing directories');
        else if (ctx.within(ctx.entry.dir, dir)) ctx.report(m.uri, i.range, 'Extension source_paths cannot contain the extension directory');
      }
    },
  },
  {
    id: 'MAN-010',
    severity: 'warning',
    summary: '[tool.vis] values of a package: category is providers, tools or workflows; source_paths a list of strings; skills at most 64 directories that hold a SKILL.md.',
    check(ctx) {
      if (ctx.kind !== 'package' || !ctx.pyproject) return;
      const m = ctx.pyproject.manifest;
      const uri = ctx.pyproject.uri;
      const category = m.at(['tool', 'vis', 'category']);
      if (category && (typeof category.value !== 'string' || !CATEGORIES.includes(category.value))) {
        ctx.report(uri, category.valueRange, `[tool.vis] category is one of ${CATEGORIES.map((c) => `"${c}"`).join(', ')}`);
      }
      const sources = m.at(['tool', 'vis', 'source_paths']);
      if (sources && (!Array.isArray(sources.value) || sources.value.some((v) => typeof v !== 'string'))) {
        ctx.report(uri, sources.valueRange, '[tool.vis] source_paths is a list of directory names (strings), e.g. ["src"]');
      }
      const skills = m.at(['tool', 'vis', 'skills']);
      if (!skills) return;
      if (!Array.isArray(skills.value) || skills.value.some((v) => typeof v !== 'string')) {
        ctx.report(uri, skills.valueRange, '[tool.vis] skills is a list of directory names (strings)');
        return;
      }
      if (skills.value.length > MAX_SKILLS) ctx.report(uri, skills.valueRange, `[tool.vis] skills lists ${skills.value.length} directories; Vis reads at most ${MAX_SKILLS}`);
      for (const i of m.items(['tool', 'vis', 'skills']) ?? []) {
        if (typeof i.value !== 'string') continue;
        const dir = ctx.resolve(ctx.entry.dir, i.value);
        if (!ctx.isFile(ctx.resolve(dir, 'SKILL.md'))) ctx.report(uri, i.range, `[tool.vis] skills: ${i.value} has no SKILL.md`);
      }
    },
  },
];
