// The workspace program (pyright's Program over its SourceFiles): per workspace folder, the entry files
// Vis would load (server/src/workspace/discovery.ts), each entry's import environment (its folder,
// `[tool.vis] source_paths` and `project` from its PEP 723 block or pyproject.toml, the virtual
// environment's site-packages), the module graph with reverse dependencies, and the joins that read
// several modules: the Symbol analysis with sibling modules resolved, the rules, cross-file checks.
//
// Layers, each computed once and shared by every feature and the CLI:
//   module analysis   one per module version (ModuleStore: tree → model), whoever asks;
//   join              per module version, contract format and the versions of the modules it read:
//                     its Symbol analysis and its rule findings (findings may belong to another module:
//                     a declaration in a sibling is reported there);
//   workspace checks  across entries: one name or alias registered twice, a project extension
//                     shadowing a global one.
// Nothing here holds VS Code types or LSP objects, so the CLI and a worker thread can run it.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Analysis, ModuleAnalysis } from '../analysis';
import type { Call, FunctionDecl, Range } from '../model/types';
import { g1Tools, type G1ToolInfo } from '../contracts/g1';
import { outline, type OutlineItem } from '../editor/outline';
import { bindSdkCall } from '../sdk/table';
import { symbolInfos, type SymbolInfo, type ToolInfo } from '../contracts/symbols';
import type { ModuleLoader, ModuleScope } from '../contracts/scope';
import { applySdkProfile, contractFormatFor, sameProfile, type ContractFormatSetting } from '../sdk/profile';
import { allRules, runRules, type SeverityOverrides } from '../rules';
import type { Finding, ModuleRole } from '../rules/types';
import { filePathOf } from '../rules/util';
import { manifestRules, type ManifestRuleContext } from '../rules/manifest';
import { workspaceRules, type RegisteredExtension } from '../rules/workspace';
import { findExtension } from '../docs/extension';
import { fileStamp, readTextFileSync } from '../../../shared/files';
import { DEFAULT_MAX_FILE_SIZE } from '../parse/limits';
import { isEntryName, isExtensionsDir, projectEntries, type EntryFile } from './discovery';
import {
  lockedVisAgent,
  projectDirOf,
  readScriptManifest,
  readToml,
  sourcePathsOf,
  visAgentPins,
  type Manifest,
  type VersionPin,
} from './manifest';
import { ModuleStore, unanalysedModel } from './modules';
import { ModuleUnits } from './units';
import { releaseDerived } from '../model/derived';
import { compareModelProperty, stillValid, uriOf, type Reads } from '../model/reads';
import type { Model } from '../model/types';
import { SourceText } from '../fixes/source';
import { NO_SUPPRESSIONS, applySuppressions, suppressedBy, UNUSED, type Suppressions } from '../rules/suppression';
import { ProjectConfigs, isRuleId } from '../config/configs';
import { CONFIG_RULE } from '../config/rules';
import { ParserFault, guarded } from '../parse/parser';
import { SliceExpired, unsliced } from '../slices';
import { ModuleResolver, environmentOfInterpreter, environmentRoots, venvsIn } from './resolver';

/** The text of a module open in an editor, by its canonical URI; `uri` is the editor's own spelling of it. */
export type OpenDocuments = (uri: string) => { version: number; text: string; uri?: string } | undefined;

export interface ProgramOptions {
  /** The workspace folder; without one the program holds only the documents it is given. */
  root?: string;
  open?: OpenDocuments;
  /** The global extensions directory (`VIS_EXTENSIONS_DIR` or `~/.vis/extensions`); undefined: none. */
  globalDir?: string;
  /** `python.defaultInterpreterPath`, when the client passes it: its environment's site-packages are import roots. */
  interpreter?: string;
  /** The editor's (or the command line's) severity per rule, applied over the project's `[tool.vis-authoring]`. */
  overrides?: SeverityOverrides;
  /** The editor's (or the command line's) `select` and `ignore`, applied over the project's. */
  selection?: { select?: readonly string[]; ignore?: readonly string[] };
  /** visAuthoring.contractFormat: `auto` (each module's SDK version's format) or C1, C2, C3. */
  contractFormat?: ContractFormatSetting;
  /**
   * What the project shows about a module's SDK version, for its SDK profile (tests stand in for the
   * manifests with it); by default the program's own `projectEvidence`.
   */
  evidence?: (uri: string) => { pins: VersionPin[] };
  /** Modules with more characters are not analysed. */
  maxFileSize?: number;
  /** Keep the trees of open documents between versions (incremental re-parse). Default true. */
  keepTrees?: boolean;
  /** Told of every module version analysed and every Symbol analysis (`VIS_AUTHORING_TRACE=analysis`). */
  trace?: (message: string) => void;
  /** The entry files, when they are given rather than discovered (the CLI on a folder of extensions). */
  entries?: EntryFile[];
}

/** How an entry imports: its roots in `sys.path` order, and what the project pins. */
export interface ImportEnvironment {
  entry: string;
  roots: string[];
  /** The site-packages folders (and editable-install folders) among the roots: third-party code, read only. */
  external: string[];
  /** The entry's manifest: its PEP 723 block, or the pyproject.toml of a package. */
  manifest?: Manifest;
  pins: VersionPin[];
}

/** A name or dotted path resolved to where it is declared. */
export interface Declaration {
  uri: string;
  range: Range;
  kind: 'module' | 'class' | 'function' | 'variable';
}

interface Join {
  analysis: ModuleAnalysis;
  epoch: number;
  /** The contract format setting the join was made with (`auto`: the module's SDK version's). */
  format: ContractFormatSetting;
  /** Every module file the join read, with the stamp it read. */
  deps: Map<string, string | undefined>;
  loader: ModuleLoader;
  infos?: SymbolInfo[];
  g1?: G1ToolInfo[];
  tools?: ModuleTool[];
  outline?: OutlineItem[];
  findings?: Finding[];
}

/** One tool a module exports: its public name, tag and hidden flag, the call that exports it, and its def. */
export interface ModuleTool {
  /** The name the model calls it by (`greet.hello`; G1: `<alias>_<symbol>`). */
  name: string;
  tag: string;
  hidden: boolean;
  /** The module of the exporting call. */
  uri: string;
  /** The `vis.Symbol(...)` or `vis.symbol(...)` call. */
  call: Call;
  decl?: FunctionDecl;
  declUri?: string;
}

const toUri = (file: string) => pathToFileURL(file).href;

/** How many workspace modules `readsOpen` follows from one module before it takes it to read an open one. */
const READS_OPEN_BOUND = 200;

// A module's SDK profile is computed again for each version: results kept between versions compare what it says.
compareModelProperty('sdk', sameProfile);

/** The evidence each model's SDK profile was last computed with (`<format>|<pins>`). */
const profiled = new WeakMap<import('../model/types').Model, string>();

/** The canonical URI of a document: `file:` URIs spelled as Node spells them, any other URI as it is. */
export function canonicalUri(uri: string): string {
  const file = filePathOf(uri);
  return file ? toUri(file) : uri;
}

function inside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export class Program {
  readonly root?: string;
  readonly modules = new ModuleStore();
  readonly resolver = new ModuleResolver();
  overrides: SeverityOverrides;
  selection: { select?: readonly string[]; ignore?: readonly string[] };
  contractFormat: ContractFormatSetting;
  maxFileSize: number;
  globalDir?: string;
  interpreter?: string;
  /** Counters for tests and the bench: Symbol analyses and rule runs (one per module version and inputs). */
  readonly stats = { symbolAnalyses: 0, ruleRuns: 0 };

  private open: OpenDocuments;
  private keepTrees: boolean;
  /** Bumped when something every join reads changes: settings, entries, manifests, files created or deleted. */
  private epoch = 0;
  private entryList?: EntryFile[];
  private entryByPath?: Map<string, EntryFile>;
  private owners = new Map<string, string>();
  private envs = new Map<string, { key: string; env: ImportEnvironment }>();
  private venvRoots = new Map<string, string[]>();
  private joins = new Map<string, Join>();
  /** Per module, the files its imports resolve to, for the version with this stamp (a stamp, not the analysis: an old version's model is not kept alive). */
  private importsCache = new Map<string, { stamp: string; epoch: number; files: string[] }>();
  /** The modules each module's findings were put on, as last computed (for re-publication). */
  private targets = new Map<string, Set<string>>();
  private crossFile?: { key: string; findings: Finding[] };
  private unwatchedFor?: { entries: EntryFile[]; list: string[] };
  /** The modules whose joins read a file (a superset: a join replaced since may not read it any more). */
  private readers = new Map<string, Set<string>>();
  /** Per module: its Symbol analyses and rule findings by unit, reused across versions while what they read is unchanged. */
  private units = new Map<string, ModuleUnits>();
  /** The join whose units are being computed (a reused unit's modules become its dependencies). */
  private joining?: Join;
  /** Per module and entry flag: its scope, which always holds the module's current model. */
  private scopes = new Map<string, LiveScope>();

  constructor(options: ProgramOptions = {}) {
    this.root = options.root && path.resolve(options.root);
    this.open = options.open ?? (() => undefined);
    this.globalDir = options.globalDir;
    this.interpreter = options.interpreter;
    this.overrides = options.overrides ?? {};
    this.selection = options.selection ?? {};
    this.contractFormat = options.contractFormat ?? 'auto';
    this.evidence = options.evidence ?? ((uri) => this.projectEvidence(uri));
    this.maxFileSize = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
    this.keepTrees = options.keepTrees ?? true;
    this.givenEntries = options.entries;
    this.trace = options.trace;
    if (this.trace) this.modules.onAnalyzed = (a) => this.trace?.(`analysed ${a.uri} ${a.stamp}`);
  }

  private trace?: (message: string) => void;
  private evidence: (uri: string) => { pins: VersionPin[] };

  private givenEntries?: EntryFile[];

  // -------------------------------------------------------------------------------------------
  // Sources

  /** The URI an editor knows a module by (its own spelling for open documents). */
  clientUri(uri: string): string {
    return this.open(uri)?.uri ?? uri;
  }

  /**
   * A file's stamp on disk. Under a folder the client watches for us (`workspace/didChangeWatchedFiles`),
   * the stamp is kept until the client reports a change; anywhere else it is read again each time.
   */
  private diskStamp(file: string): string | undefined {
    if (this.stamps.has(file)) return this.stamps.get(file);
    const watched = this.watched.some((d) => inside(file, d));
    const stamp = fileStamp(file);
    if (watched) this.stamps.set(file, stamp);
    return stamp;
  }

  private stamps = new Map<string, string | undefined>();
  private paths = new Map<string, string | undefined>();

  /** The file of a `file:` URI (cached: URL parsing is not free). */
  private pathOf(uri: string): string | undefined {
    let p = this.paths.get(uri);
    if (p === undefined && !this.paths.has(uri)) this.paths.set(uri, (p = filePathOf(uri)));
    return p;
  }
  /** Folders whose file changes the client reports (set when the server registers its file watchers). */
  private watched: string[] = [];

  /** Whether a module is open in an editor. */
  isOpen(uri: string): boolean {
    return !!this.open(uri);
  }

  /** What tells this version of a module from the next, or undefined when it does not exist. */
  stamp(uri: string): string | undefined {
    if (this.overlay?.uri === uri) return this.overlay.stamp;
    const doc = this.open(uri);
    if (doc) return `open:${doc.version}:${doc.text.length}`;
    const file = this.pathOf(uri);
    return file ? this.diskStamp(file) : undefined;
  }

  /** The current version of a module, analysed (once per version). Undefined when it cannot be read or is too large. */
  module(uri: string): ModuleAnalysis | undefined {
    const a = this.readModule(uri);
    if (a) for (const entry of [true, false]) {
      const scope = this.scopes.get(`${entry}|${uri}`);
      if (scope) scope.model = a.model;
    }
    return a;
  }

  private readModule(uri: string): ModuleAnalysis | undefined {
    if (this.overlay?.uri === uri) {
      const o = this.overlay;
      return this.modules.analyze(uri, o.stamp, o.version, o.text, this.keepTrees, this.maxFileSize);
    }
    const doc = this.open(uri);
    if (doc) return this.modules.analyze(uri, `open:${doc.version}:${doc.text.length}`, doc.version, doc.text, this.keepTrees, this.maxFileSize);
    const file = this.pathOf(uri);
    if (!file) return undefined;
    const stamp = this.diskStamp(file);
    if (stamp === undefined) {
      this.modules.forget(uri);
      return undefined;
    }
    const prev = this.modules.get(uri);
    if (prev && prev.stamp === stamp) return prev;
    // Regular files only, at most 3 bytes (UTF-8) per character allowed, checked before reading.
    const read = readTextFileSync(file, { maxBytes: this.maxFileSize * 3 });
    if (!read.ok) return undefined;
    return this.modules.analyze(uri, read.stamp, 0, read.text, false, this.maxFileSize);
  }

  /**
   * The scope of a module as imports see it: the same object for every version, holding the current
   * model, so what a kept Symbol analysis computes later (a contract for a hover) reads the current code.
   */
  private scopeFor(uri: string, model: Model, path: string | undefined, entry: boolean): ModuleScope {
    const key = `${entry}|${uri}`;
    let scope = this.scopes.get(key);
    if (!scope) this.scopes.set(key, (scope = new LiveScope(model, path, entry)));
    scope.model = model;
    return scope;
  }

  /** The units of a module (created afresh when what every unit depends on changed). */
  private unitsOf(uri: string): ModuleUnits {
    const key = String(this.epoch);
    let units = this.units.get(uri);
    if (!units || units.key !== key) {
      const current = (m: Model) => this.currentModel(uriOf(m));
      units = new ModuleUnits(
        key,
        (reads) => stillValid(reads, current),
        (reads) => this.dependOn(reads),
        uri,
        (u) => this.modules.rowMapper(u),
      );
      this.units.set(uri, units);
    }
    return units;
  }

  /** A module's rule units and Symbol analyses computed and reused so far, over its versions (tests and the benchmarks). */
  unitCounts(uri: string): { rules: { computed: number; reused: number }; symbols: { computed: number; reused: number } } {
    const units = this.units.get(uri);
    return { rules: units?.counts() ?? { computed: 0, reused: 0 }, symbols: { computed: units?.symbols.computed ?? 0, reused: units?.symbols.reusedCount ?? 0 } };
  }

  /** Current models by URI while units are checked (cleared before each join's units). */
  private currents = new Map<string, Model | undefined>();

  private currentModel(uri: string): Model | undefined {
    if (!this.currents.has(uri)) this.currents.set(uri, this.module(uri)?.model);
    return this.currents.get(uri);
  }

  /** A reused unit read these modules: they are dependencies of the join being computed. */
  private dependOn(reads: Reads): void {
    const j = this.joining;
    if (!j) return;
    for (const { model: m } of reads.models) {
      const uri = uriOf(m);
      if (uri === j.analysis.uri) continue;
      const file = this.pathOf(uri);
      if (!file) continue;
      j.deps.set(file, this.stamp(uri));
      let readers = this.readers.get(file);
      if (!readers) this.readers.set(file, (readers = new Set()));
      readers.add(j.analysis.uri);
    }
  }

  /**
   * The text of a module version, or undefined when that version cannot be had any more (the file
   * changed on disk since). Open documents and overlays give theirs; files on disk are read again.
   */
  sourceOf(analysis: ModuleAnalysis): SourceText | undefined {
    if (this.overlay?.uri === analysis.uri && this.overlay.stamp === analysis.stamp) return new SourceText(this.overlay.text);
    const doc = this.open(analysis.uri);
    if (doc) return `open:${doc.version}:${doc.text.length}` === analysis.stamp ? new SourceText(doc.text) : undefined;
    const file = this.pathOf(analysis.uri);
    const read = file && readTextFileSync(file, { maxBytes: this.maxFileSize * 3 });
    return read && read.ok && read.stamp === analysis.stamp ? new SourceText(read.text) : undefined;
  }

  private overlay?: { uri: string; text: string; stamp: string; version: number };
  private overlays = 0;

  /**
   * Runs `fn` with `text` as the module's content, as if it were a new version of the document: every
   * query inside sees it (fix-all re-analysing its result, `check --fix`). Afterwards the module's
   * own version is what counts again (analysed afresh when next asked, incrementally for open documents).
   */
  withText<T>(uri: string, text: string, fn: () => T): T {
    const previous = this.overlay;
    const n = ++this.overlays;
    this.overlay = { uri, text, stamp: `overlay:${n}:${text.length}`, version: -n };
    try {
      return fn();
    } finally {
      this.overlay = previous;
    }
  }

  /**
   * An editor closed the document: its tree is freed, and the file on disk is what counts from now on. A
   * document with no file behind it (untitled, never saved, deleted) is forgotten altogether: nothing
   * reads it again, and an editor session opens and closes thousands of them.
   */
  closed(uri: string): void {
    this.modules.release(uri);
    if (this.stamp(uri) === undefined) this.forget(uri);
  }

  /** Everything kept for a module (by URI) that is gone. */
  private forget(uri: string): void {
    this.modules.forget(uri);
    this.joins.delete(uri);
    this.units.delete(uri);
    this.importsCache.delete(uri);
    this.targets.delete(uri);
    this.reportedBy.delete(uri);
    for (const by of this.reportedBy.values()) by.delete(uri);
    for (const readers of this.readers.values()) readers.delete(uri);
    for (const entry of [true, false]) this.scopes.delete(`${entry}|${uri}`);
    this.paths.delete(uri);
  }

  // -------------------------------------------------------------------------------------------
  // Structure: entries, environments, the module graph

  /** The entry files Vis would load for this folder (global, project, the folder as a package), in Vis's order. */
  entries(): EntryFile[] {
    if (!this.entryList) {
      this.entryList = this.givenEntries ?? (this.root ? projectEntries(this.root, this.globalDir) : []);
      this.entryByPath = new Map(this.entryList.map((e) => [path.resolve(e.path), e]));
    }
    return this.entryList;
  }

  entry(file: string): EntryFile | undefined {
    this.entries();
    return this.entryByPath!.get(path.resolve(file));
  }

  /** The entry whose environment a module is imported in: the one indexing found, else the package around it. */
  entryFor(file: string): string | undefined {
    if (this.entry(file)) return path.resolve(file);
    const owner = this.owners.get(path.resolve(file));
    if (owner) return owner;
    let dir = path.dirname(path.resolve(file));
    for (let i = 0; i < 12; i++) {
      if (this.isExtensionsDirectory(dir)) return undefined;
      const candidate = path.join(dir, 'extension.py');
      if (candidate !== path.resolve(file) && this.resolver.isFile(candidate)) return candidate;
      const up = path.dirname(dir);
      // Without a folder, only the package around the module (src/<pkg>/tools.py → extension.py).
      if (up === dir || (this.root ? !inside(up, this.root) : i >= 3)) return undefined;
      dir = up;
    }
    return undefined;
  }

  private isExtensionsDirectory(dir: string): boolean {
    return isExtensionsDir(dir, this.globalDir);
  }

  /** What a module is to Vis: an entry it loads, a module an entry imports, or not known. */
  role(uri: string): ModuleRole {
    const file = filePathOf(uri);
    if (!file) return 'unknown';
    if (this.entry(file)) return 'entry';
    // A top-level file of an extensions directory is an entry unless it is a test file or a dotfile,
    // which Vis never loads.
    if (this.isExtensionsDirectory(path.dirname(path.resolve(file)))) return isEntryName(path.basename(file)) ? 'entry' : 'module';
    if (this.entryFor(file)) return 'module';
    return 'unknown';
  }

  /** The import environment of a module: its entry's, or its own when no entry imports it. */
  environment(uri: string): ImportEnvironment | undefined {
    const file = filePathOf(uri);
    if (!file) return undefined;
    return this.environmentOfEntry(this.entryFor(file) ?? path.resolve(file));
  }

  private environmentOfEntry(entry: string): ImportEnvironment {
    const dir = path.dirname(entry);
    const packaged = path.basename(entry) === 'extension.py';
    const pyproject = path.join(dir, 'pyproject.toml');
    const lock = path.join(dir, 'uv.lock');
    const model = this.module(toUri(entry))?.model;
    // What the environment is read from: the entry's PEP 723 block (not the rest of its text, which
    // changes with every keystroke), or the package's manifest and lock.
    const script = model?.script;
    const key = `${this.epoch}|${script ? `${script.range.start.line}:${script.content}` : ''}|${packaged ? `${this.stamp(toUri(pyproject))}|${this.diskStamp(lock)}` : ''}`;
    const hit = this.envs.get(entry);
    if (hit && hit.key === key) return hit.env;
    let manifest: Manifest | undefined;
    if (model?.script) manifest = readScriptManifest(entry, model.script.content, model.script.range.start.line);
    else if (packaged) manifest = this.readManifest(pyproject);
    const roots = [dir];
    const pins: VersionPin[] = manifest ? visAgentPins(manifest) : [];
    if (packaged && !model?.script) pins.push(...this.readLock(lock));
    const venvDirs = [dir];
    for (const p of (manifest && sourcePathsOf(manifest)) ?? []) {
      const abs = path.resolve(dir, p);
      if (!roots.includes(abs)) roots.push(abs);
    }
    const project = manifest && projectDirOf(manifest);
    if (project) {
      // A uv project whose editable source is imported live: its `src/` layout, or the folder itself.
      const abs = path.resolve(dir, project);
      const src = path.join(abs, 'src');
      roots.push(this.resolver.isDir(src) ? src : abs);
      venvDirs.push(abs);
      const projectManifest = this.readManifest(path.join(abs, 'pyproject.toml'));
      if (projectManifest) pins.push(...visAgentPins(projectManifest));
      pins.push(...this.readLock(path.join(abs, 'uv.lock')));
    }
    if (this.root) venvDirs.push(this.root);
    const venvs = [...new Set(venvDirs.flatMap((d) => this.venvsOf(d)))];
    if (this.interpreter) {
      const env = environmentOfInterpreter(this.interpreter);
      if (env && !venvs.includes(env)) venvs.push(env);
    }
    const venvKey = venvs.join('\u0000');
    let external = this.venvRoots.get(venvKey);
    if (!external) this.venvRoots.set(venvKey, (external = environmentRoots(venvs)));
    for (const r of external) if (!roots.includes(r)) roots.push(r);
    const env: ImportEnvironment = { entry, roots, external, manifest, pins };
    this.envs.set(entry, { key, env });
    return env;
  }

  /** The virtual environments in a folder (read once until files are created, deleted or a venv changes). */
  private venvsOf(dir: string): string[] {
    let venvs = this.venvDirs.get(dir);
    if (!venvs) this.venvDirs.set(dir, (venvs = venvsIn(dir)));
    return venvs;
  }

  private venvDirs = new Map<string, string[]>();

  private readManifest(file: string): Manifest | undefined {
    return this.parsedFile(file, () => {
      const open = this.open(toUri(file));
      if (open) return readToml('pyproject', file, open.text);
      const r = readTextFileSync(file, { maxBytes: 1_000_000 });
      return r.ok ? readToml('pyproject', file, r.text) : undefined;
    });
  }

  // -------------------------------------------------------------------------------------------
  // Manifests: the pyproject.toml of a package, the PEP 723 block of a script (MAN rules)

  /** The entry a pyproject.toml belongs to: the `extension.py` beside it. */
  private entryOfManifest(uri: string): string | undefined {
    const file = this.pathOf(uri);
    if (!file || path.basename(file) !== 'pyproject.toml') return undefined;
    const entry = path.join(path.dirname(file), 'extension.py');
    return this.resolver.isFile(entry) ? entry : undefined;
  }

  /** The findings of the manifest rules for an entry: on its pyproject.toml (uri set) or on the entry itself. */
  private manifestFindings(uri: string, j: Join): Finding[] {
    const file = this.pathOf(uri);
    if (!file) return [];
    const model = j.analysis.model;
    const dir = path.dirname(file);
    const pyprojectPath = path.join(dir, 'pyproject.toml');
    const packaged = path.basename(file) === 'extension.py' && (!!this.open(toUri(pyprojectPath)) || this.resolver.isFile(pyprojectPath));
    const findings: Finding[] = [];
    let pyproject: { uri: string; manifest: Manifest } | undefined;
    if (packaged) {
      // The join reads the pyproject.toml: a change to it (on disk or in the editor) re-checks the entry.
      j.deps.set(pyprojectPath, this.stamp(toUri(pyprojectPath)));
      let readers = this.readers.get(pyprojectPath);
      if (!readers) this.readers.set(pyprojectPath, (readers = new Set()));
      readers.add(uri);
      const manifest = this.readManifest(pyprojectPath);
      if (manifest) pyproject = { uri: toUri(pyprojectPath), manifest };
    }
    const script = model.script ? { manifest: readScriptManifest(file, model.script.content, model.script.range.start.line), range: model.script.range } : undefined;
    if (!pyproject && !script) return [];
    const ext = findExtension(model);
    const name = ext?.fields.get('name');
    const ctx: ManifestRuleContext = {
      entry: { uri, path: file, dir },
      kind: packaged ? 'package' : 'script',
      pyproject,
      script,
      extensionName: name && name.value.kind === 'str' ? { value: name.value.value, range: name.value.range } : undefined,
      isDir: (p) => this.resolver.isDir(p),
      isFile: (p) => this.resolver.isFile(p),
      resolve: (d, rel) => path.resolve(d, rel),
      within: (inner, outer) => inside(path.resolve(inner), path.resolve(outer)),
      report: () => undefined,
    };
    const policy = this.policyFor(uri);
    for (const rule of manifestRules) {
      const severity = policy[rule.id] ?? rule.severity;
      if (severity === 'off') continue;
      rule.check({
        ...ctx,
        report: (target, range, message, related) => findings.push({ rule: rule.id, severity, message, range, uri: target === uri ? undefined : target, related }),
      });
    }
    return findings;
  }

  /**
   * A pyproject.toml, analysed: the manifest findings of the packaged entry beside it, and what in its
   * `[tool.vis-authoring]` cannot be applied (CFG-001). Undefined when it has neither.
   */
  private pyprojectAnalysis(uri: string): Analysis | undefined {
    const manifest = this.manifestAnalysis(uri);
    // A package's pyproject.toml that does not parse is MAN-001's; CFG-001 does not say it again.
    const broken = manifest?.findings.some((f) => f.rule === 'MAN-001');
    const config = (this.configFindings().find((c) => c.uri === uri)?.findings ?? []).filter((f) => !broken || !f.message.startsWith('pyproject.toml does not parse'));
    if (!config.length) return manifest;
    const doc = this.open(uri);
    const base = manifest ?? { uri, version: doc?.version ?? 0, stamp: this.stamp(uri) ?? '', model: unanalysedModel(uri, '', 'ANA-001', ''), millis: 0, suppressions: NO_SUPPRESSIONS, findings: [] };
    const findings = [...base.findings, ...config].sort((x, y) => x.range.start.line - y.range.start.line || x.range.start.character - y.range.start.character);
    return { ...base, findings };
  }

  /** A pyproject.toml of a packaged entry, analysed: the entry's manifest findings that are on it. */
  private manifestAnalysis(uri: string): Analysis | undefined {
    const entry = this.entryOfManifest(uri);
    if (!entry) return undefined;
    const entryUri = toUri(entry);
    const findings = this.findings(entryUri).filter((f) => f.uri === uri);
    const stamp = this.stamp(uri) ?? '';
    const doc = this.open(uri);
    return { uri, version: doc?.version ?? 0, stamp, model: unanalysedModel(uri, '', 'ANA-001', ''), millis: 0, suppressions: NO_SUPPRESSIONS, findings };
  }

  private readLock(file: string): VersionPin[] {
    return this.parsedFile(file, () => {
      const r = readTextFileSync(file, { maxBytes: 20_000_000 });
      return r.ok ? lockedVisAgent(file, r.text) : [];
    });
  }

  /** A manifest or lock file read and parsed once per version (open in an editor, or on disk): environments are recomputed more often. */
  private parsedFile<T>(file: string, read: () => T): T {
    const stamp = this.stamp(toUri(file));
    const hit = this.parsedFiles.get(file);
    if (hit && hit.stamp === stamp) return hit.value as T;
    const value = read();
    this.parsedFiles.set(file, { stamp, value });
    return value;
  }

  private parsedFiles = new Map<string, { stamp: string | undefined; value: unknown }>();

  /** What the project shows about the SDK version a module is written for: the `vis-agent` pins of its entry's manifests. */
  projectEvidence(uri: string): { pins: VersionPin[] } {
    return { pins: this.environment(uri)?.pins ?? [] };
  }

  /** Whether a file is third-party code (in the environment's site-packages): read for types, never checked. */
  isExternal(file: string, env?: ImportEnvironment): boolean {
    const e = env ?? this.environment(toUri(file));
    return !!e?.external.some((d) => inside(file, d));
  }

  /** Resolves an import written in a module: `a.b` along the environment's roots, `.a` from the module's package. */
  resolveImport(uri: string, name: string): string | undefined {
    const file = filePathOf(uri);
    const dots = /^\.*/.exec(name)![0].length;
    if (dots) return file ? this.resolver.resolveRelative(file, dots, name.slice(dots)) : undefined;
    const env = this.environment(uri);
    return env ? this.resolver.resolve(env.roots, name) : undefined;
  }

  /** The module files a module imports (`import a.b` reads `a` and `a.b`; `from a import b` reads `a` and, when it is one, the submodule `a.b`). */
  imports(uri: string): string[] {
    const analysis = this.module(uri);
    if (!analysis) return [];
    const hit = this.importsCache.get(uri);
    if (hit && hit.stamp === analysis.stamp && hit.epoch === this.epoch) return hit.files;
    const files = new Set<string>();
    const add = (name: string) => {
      const f = this.resolveImport(uri, name);
      if (f) files.add(f);
    };
    for (const imp of analysis.model.imports) {
      const dots = /^\.*/.exec(imp.module)![0].length;
      const parts = imp.module.slice(dots).split('.').filter(Boolean);
      const prefix = imp.module.slice(0, dots);
      for (let i = 1; i <= parts.length; i++) add(prefix + parts.slice(0, i).join('.'));
      if (dots && !parts.length) add(prefix);
      if (imp.name !== undefined) add(dots && !parts.length ? prefix + imp.name : `${imp.module}.${imp.name}`);
    }
    const out = [...files];
    this.importsCache.set(uri, { stamp: analysis.stamp, epoch: this.epoch, files: out });
    return out;
  }

  /** The workspace modules an entry reaches through its imports (third-party modules excluded), the entry first. */
  reached(entry: string): string[] {
    const env = this.environmentOfEntry(path.resolve(entry));
    const seen = new Set<string>([path.resolve(entry)]);
    const queue = [path.resolve(entry)];
    while (queue.length) {
      const file = queue.shift()!;
      for (const dep of this.imports(toUri(file))) {
        if (seen.has(dep) || this.isExternal(dep, env)) continue;
        seen.add(dep);
        queue.push(dep);
      }
    }
    return [...seen];
  }

  /**
   * The modules the program checks: every entry in the folder (global entries outside it are read for
   * the cross-file checks only) and the workspace modules they reach. Indexing records which entry
   * each module is imported by, for the environment its imports resolve in.
   */
  index(): string[] {
    const { reached, owners } = this.indexShare(this.entries());
    this.adoptOwners(owners);
    const seen = new Set<string>();
    return reached.flat().filter((u) => !seen.has(u) && (seen.add(u), true));
  }

  /**
   * Indexes some of the entries (all of them, or a worker's share for `check --jobs`, in Vis's order):
   * for each, the modules it checks (the entry first), and which entry each module is first imported by.
   */
  indexShare(entries: EntryFile[]): { reached: string[][]; owners: Map<string, string> } {
    const owners = new Map<string, string>();
    const reached = entries.map((e) => {
      const checked = e.scope !== 'global' || (this.root && inside(e.path, this.root));
      const list: string[] = [];
      for (const file of this.reached(e.path)) {
        if (!owners.has(file) && !this.entry(file)) owners.set(file, path.resolve(e.path));
        if (checked) list.push(toUri(file));
      }
      // A package's pyproject.toml, checked with it (the MAN rules).
      if (checked && e.packaged && path.basename(e.path) === 'extension.py') list.push(toUri(path.join(path.dirname(e.path), 'pyproject.toml')));
      return list;
    });
    return { reached, owners };
  }

  /** Which entry each module is imported by (its environment): from indexing. */
  adoptOwners(owners: Map<string, string>): void {
    const changed = owners.size !== this.owners.size || [...owners].some(([k, v]) => this.owners.get(k) !== v);
    if (changed) {
      this.owners = owners;
      this.epoch++;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Joins: Symbol analysis and rules, once per module version and inputs

  private loaderFor(uri: string, deps: Map<string, string | undefined>): ModuleLoader {
    const self = this;
    const scopes = new Map<string, ModuleScope | undefined>();
    return {
      load(from: ModuleScope, name: string): ModuleScope | undefined {
        const fromUri = from.path ? toUri(from.path) : uri;
        const file = self.resolveImport(fromUri, name);
        if (!file) return undefined;
        if (scopes.has(file)) return scopes.get(file);
        const target = toUri(file);
        const analysis = self.module(target);
        deps.set(file, analysis?.stamp);
        let readers = self.readers.get(file);
        if (!readers) self.readers.set(file, (readers = new Set()));
        readers.add(uri);
        const scope = analysis && self.scopeFor(target, analysis.model, file, !!self.entry(file));
        scopes.set(file, scope);
        return scope;
      },
    };
  }

  private join(uri: string): Join | undefined {
    const analysis = this.module(uri);
    if (!analysis) return undefined;
    const j = this.joins.get(uri);
    if (j && j.analysis === analysis && j.epoch === this.epoch && j.format === this.contractFormat && this.fresh(j)) return j;
    // The module's SDK profile with the project's evidence (its entry's pins) and the contract format
    // setting; the module store gave it the file's own (no pins, `auto`).
    const pins = this.evidence(uri).pins;
    const key = `${this.contractFormat}|${pins.map((p) => `${p.source}:${p.file}:${p.requirement}`).join('|')}`;
    if ((profiled.get(analysis.model) ?? 'auto|') !== key) {
      applySdkProfile(analysis.model, { pins, contractFormat: this.contractFormat });
      profiled.set(analysis.model, key);
    }
    const deps = new Map<string, string | undefined>();
    const next: Join = { analysis, epoch: this.epoch, format: this.contractFormat, deps, loader: this.loaderFor(uri, deps) };
    this.joins.set(uri, next);
    this.joinsMade++;
    return next;
  }

  /** Joins made so far: what a kept Symbol analysis computes lazily is computed again after a new one. */
  private joinsMade = 0;

  /**
   * The loader a module's Symbol analyses keep: the loader of the join being computed, or later (a
   * contract computed for a hover) of the module's current join, so what it reads is current.
   */
  private liveLoader(uri: string): ModuleLoader {
    return {
      load: (from, name) => {
        const j = this.joining?.analysis.uri === uri ? this.joining : this.join(uri);
        return j?.loader.load(from, name);
      },
    };
  }

  private fresh(j: Join): boolean {
    for (const [file, stamp] of j.deps) if (this.stamp(toUri(file)) !== stamp) return false;
    return true;
  }

  /** The module's `vis.Symbol(...)` declarations, analysed with its imports resolved: shared by rules, hovers, contracts and previews. */
  symbols(uri: string): SymbolInfo[] {
    const j = this.join(uri);
    if (!j) return [];
    if (!j.infos) {
      const file = filePathOf(uri);
      const entry = !file || this.role(uri) !== 'module';
      const units = this.keptUnits(uri);
      const outer = this.joining;
      this.joining = j;
      units?.symbols.begin();
      this.currents.clear();
      try {
        // In a sliced job the modules a join reads are analysed to their end; the join itself stops
        // between Symbols when the slice's time is up, and goes on in the next slice.
        j.infos = unsliced(() =>
          symbolInfos(j.analysis.model, {
            format: contractFormatFor(j.analysis.model.sdk, j.format),
            loader: this.liveLoader(uri),
            path: file,
            entry,
            scope: this.scopeFor(uri, j.analysis.model, file, entry),
            // Through the program, not this object: a lazy contract keeps these options, and must not keep units the module let go.
            memo: units && ((call, analyse) => this.unitsOf(uri).symbols.get(call, analyse)),
            version: () => this.joinsMade,
          }),
        );
        units?.symbols.sweep();
      } catch (e) {
        if (e instanceof SliceExpired) throw e;
        // A fault in the static analysis must not take the module's other results down with it.
        j.infos = [];
      } finally {
        this.joining = outer;
      }
      this.stats.symbolAnalyses++;
      this.trace?.(`symbols ${uri} ${j.analysis.stamp}`);
    }
    return j.infos;
  }

  /** The module's G1 `vis.symbol(...)` tools in the host's terms (functions in sibling modules resolved). */
  g1Tools(uri: string): G1ToolInfo[] {
    const j = this.join(uri);
    if (!j) return [];
    if (!j.g1) {
      const file = filePathOf(uri);
      try {
        j.g1 = g1Tools(j.analysis.model, { loader: j.loader, path: file, entry: !file || this.role(uri) !== 'module' });
      } catch (e) {
        if (e instanceof SliceExpired) throw e;
        j.g1 = [];
      }
    }
    return j.g1;
  }

  /** The rule findings of a module's analysis; some may belong to other modules (`uri` set). */
  findings(uri: string): Finding[] {
    // A manifest is not a module: its findings are its entry's (`analysis`).
    if (this.entryOfManifest(uri)) return [];
    const j = this.join(uri);
    if (!j) return [];
    if (!j.findings) {
      const model = j.analysis.model;
      const units = this.keptUnits(uri);
      const outer = this.joining;
      try {
        // Rules may read parts of the model lazily (parameters parse on first use): contained too.
        j.findings = unsliced(() => guarded(() => {
          units?.beginRules();
          this.currents.clear();
          this.joining = j;
          const found = runRules(model, this.policyFor(uri), allRules, {
            contractFormat: j.format,
            role: this.role(uri),
            symbols: () => this.symbols(uri),
            resolver: { loader: j.loader },
            units,
            source: () => this.sourceOf(j.analysis),
            keepMasked: true,
          });
          units?.endRules();
          return found;
        }));
      } catch (e) {
        if (!(e instanceof ParserFault)) throw e;
        // The file gets one finding that says so, in place of the rest.
        const unanalysed = { rule: 'ANA-001' as const, message: `vis-authoring could not analyse this file: a check failed (${e.reason})`, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
        j.findings = model.generation ? runRules({ ...model, unanalysed }, this.policyFor(uri)) : [];
      } finally {
        this.joining = outer;
      }
      if (this.role(uri) === 'entry') j.findings.push(...this.manifestFindings(uri, j));
      this.stats.ruleRuns++;
      const targets = new Set(j.findings.flatMap((f) => (f.uri ? [f.uri] : [])));
      const before = this.targets.get(uri);
      this.targets.set(uri, before ? new Set([...before, ...targets]) : targets);
      for (const t of targets) {
        let by = this.reportedBy.get(t);
        if (!by) this.reportedBy.set(t, (by = new Set()));
        by.add(uri);
      }
      this.settle(uri, j);
    }
    return j.findings;
  }

  /**
   * The units of a module, or none for a module that would let them go as soon as its findings are
   * known (see `settle`): nobody has it open, nor any workspace module it imports, directly or not.
   * Its rules and Symbol analysis then run without noting what they read.
   */
  private keptUnits(uri: string): ModuleUnits | undefined {
    return this.readsOpen(uri) ? this.unitsOf(uri) : undefined;
  }

  /**
   * Whether a module, or a workspace module it imports (directly or not), is open in an editor. A
   * module that imports more than READS_OPEN_BOUND workspace modules is taken to read one (it keeps
   * its units, as every module did before), so this stays cheap in a package of thousands of modules.
   */
  private readsOpen(uri: string): boolean {
    if (this.overlay || this.open(uri)) return true;
    const external = this.environment(uri)?.external ?? [];
    const seen = new Set<string>();
    const queue = [uri];
    while (queue.length) {
      for (const file of this.imports(queue.pop()!)) {
        if (seen.has(file) || external.some((d) => inside(file, d))) continue;
        if (seen.add(file).size > READS_OPEN_BOUND) return true;
        const dep = toUri(file);
        if (this.open(dep)) return true;
        queue.push(dep);
      }
    }
    return false;
  }

  /**
   * A module nobody has open, whose join reads no open document, keeps its findings and its Symbol
   * analysis once they are known, and lets go of its rule units and what was derived from its model:
   * they are reused only when the module's join is made again for the same model, which happens when
   * a module it reads changes, and a closed module's dependencies change on disk only. What is needed
   * again is derived again.
   */
  private settle(uri: string, j: Join): void {
    if (this.overlay || this.open(uri)) return;
    for (const file of j.deps.keys()) if (this.open(toUri(file))) return;
    this.units.delete(uri);
    releaseDerived(j.analysis.model);
  }

  /** A module's analysis with everything reported on it: its own findings, those other modules put on it, and the cross-file checks. */
  analysis(uri: string): Analysis | undefined {
    if (this.pathOf(uri)?.endsWith('pyproject.toml')) return this.pyprojectAnalysis(uri);
    const a = this.module(uri);
    if (!a) return undefined;
    // The entry that imports this module reports on it: make sure its findings are known.
    const file = filePathOf(uri);
    const owner = file && this.entryFor(file);
    if (owner && owner !== path.resolve(file)) this.findings(toUri(owner));
    const findings = this.findings(uri).filter((f) => !f.uri || f.uri === uri);
    // What other modules put on it, by module in URI order (so the order does not depend on what was computed first).
    for (const other of this.reporters(uri).sort()) findings.push(...this.findings(other).filter((f) => f.uri === uri));
    findings.push(...this.workspaceFindings().filter((f) => f.uri === uri));
    return { ...a, findings: shownFindings(findings, a.suppressions, this.policyFor(uri), () => this.sourceOf(a)) };
  }

  /** Modules whose analysis read this one (so may report on it), this one excluded. */
  private reporters(uri: string): string[] {
    const file = this.pathOf(uri);
    const out = new Set<string>();
    for (const other of (file && this.readers.get(file)) || []) if (other !== uri && this.joins.get(other)?.deps.has(file!)) out.add(other);
    for (const other of this.reportedBy.get(uri) ?? []) if (other !== uri) out.add(other);
    return [...out];
  }

  /** For each module, the modules whose findings were put on it. */
  private reportedBy = new Map<string, Set<string>>();

  /** The modules whose results may change when these change (themselves, what read them, what they report on), to re-publish. */
  affected(uris: Iterable<string>): Set<string> {
    const out = new Set<string>();
    const queue = [...uris];
    while (queue.length) {
      const uri = queue.pop()!;
      if (out.has(uri)) continue;
      out.add(uri);
      for (const other of this.dependents(uri)) if (!out.has(other)) queue.push(other);
      for (const t of this.targets.get(uri) ?? []) if (!out.has(t)) queue.push(t);
    }
    // A changed entry can start or stop a cross-file finding on another entry.
    if ([...out].some((u) => { const f = filePathOf(u); return f && this.entry(f); })) {
      for (const f of this.crossFile?.findings ?? []) if (f.uri) out.add(f.uri);
      for (const f of this.workspaceFindings()) if (f.uri) out.add(f.uri);
    }
    return out;
  }

  // -------------------------------------------------------------------------------------------
  // Configuration

  private configs = new ProjectConfigs((file) => {
    const r = readTextFileSync(file, { maxBytes: 1_000_000 });
    return r.ok ? r.text : undefined;
  });
  private configEpoch = -1;

  /**
   * Which rules run on a module and at what severity: the nearest `[tool.vis-authoring]` above it (for a
   * module without a path, the workspace folder's), then the editor's settings (`overrides`,
   * `selection`), then the file's `per-file-ignores`.
   */
  policyFor(uri: string): SeverityOverrides {
    if (this.configEpoch !== this.epoch) {
      this.configs.reset();
      this.configEpoch = this.epoch;
    }
    return this.configs.policy(this.pathOf(uri), this.root, { ...this.selection, severity: this.overrides });
  }

  /** The project configurations read, with what in them cannot be applied (CFG-001 findings on each pyproject.toml). */
  configFindings(): { uri: string; findings: Finding[] }[] {
    this.policyFor(this.root ? toUri(path.join(this.root, '_')) : 'untitled:_');
    return this.configs.all().sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)).map((c) => {
      const severity = this.configs.configSeverity(c, { ...this.selection, severity: this.overrides });
      const findings = severity === 'off' ? [] : c.problems.map((p) => ({ rule: CONFIG_RULE, severity, message: p.message, range: p.range }));
      return { uri: toUri(c.file), findings };
    });
  }

  // -------------------------------------------------------------------------------------------
  // Workspace checks

  /** The extensions the entries register, in Vis's load order. */
  registeredExtensions(): RegisteredExtension[] {
    return this.entries().flatMap((e) => this.registeredExtension(e) ?? []);
  }

  /** The extension an entry registers, if it registers one. */
  registeredExtension(e: EntryFile): RegisteredExtension | undefined {
    const uri = toUri(e.path);
    // Through the join, so the model carries its SDK profile with the project's pins.
    const analysis = this.join(uri)?.analysis;
    const ext = analysis && findExtension(analysis.model);
    if (!ext) return undefined;
    const text = (field: string) => {
      const arg = ext.fields.get(field);
      return arg && arg.value.kind === 'str' ? { value: arg.value.value, range: arg.value.range } : undefined;
    };
    return { uri, path: e.path, scope: e.scope, name: text('name'), alias: text('alias'), anchor: ext.anchor.range };
  }

  /** Findings across entries (WS-001…WS-003), on the entries they concern. */
  workspaceFindings(): Finding[] {
    if (!this.root) return [];
    const entries = this.entries();
    // A new version of any module may change what an entry registers; unwatched entries are checked on disk.
    if (this.unwatchedFor?.entries !== entries) this.unwatchedFor = { entries, list: entries.filter((e) => !this.watched.some((d) => inside(e.path, d))).map((e) => toUri(e.path)) };
    const unwatched = this.unwatchedFor.list;
    const key = `${this.epoch}|${this.modules.analyses}|${unwatched.map((u) => this.stamp(u)).join('|')}`;
    if (this.crossFile?.key === key) return this.crossFile.findings;
    const findings = checkWorkspace(this.registeredExtensions(), (uri) => this.policyFor(uri));
    this.crossFile = { key, findings };
    return findings;
  }

  // -------------------------------------------------------------------------------------------
  // Queries for navigation and the previews

  /** The tools an entry exports, each with the module its declaration lives in. */
  exportedTools(uri: string): { info: SymbolInfo; tool: ToolInfo; uri?: string }[] {
    return this.symbols(uri).flatMap((info) => info.tools.map((tool) => ({ info, tool, uri: tool.declUri })));
  }

  /** The tools a module's own `vis.Symbol(...)` (G1: `vis.symbol(...)`) calls export, by public name. */
  moduleTools(uri: string): ModuleTool[] {
    const j = this.join(uri);
    if (!j) return [];
    if (!j.tools) {
      const typed = this.symbols(uri).flatMap((info) => info.tools.map((t): ModuleTool => ({ name: t.name, tag: t.tag, hidden: t.hidden, uri, call: info.call, decl: t.decl, declUri: t.declUri })));
      const g1 = this.g1Tools(uri).flatMap((t): ModuleTool[] =>
        t.contract ? [{ name: t.contract.sandbox_name ?? t.contract.symbol, tag: t.contract.tag, hidden: t.contract.hidden, uri, call: t.call, decl: t.decl, declUri: t.declUri }] : [],
      );
      j.tools = [...typed, ...g1];
    }
    return j.tools;
  }

  /** The module's Outline: the extension it registers, its tools, slash commands, hooks, filters, providers and settings. */
  outline(uri: string): OutlineItem[] {
    const j = this.join(uri);
    if (!j) return [];
    const model = j.analysis.model;
    return (j.outline ??= outline(model, this.symbols(uri), this.g1Tools(uri), (call) => bindSdkCall(model, call)));
  }

  /** Every tool exported by the modules indexing found (entries and the workspace modules they import). */
  workspaceTools(): ModuleTool[] {
    const modules = new Set([...this.entries().map((e) => toUri(e.path)), ...[...this.owners.keys()].map(toUri)]);
    return [...modules].flatMap((uri) => this.moduleTools(uri));
  }

  /** The `vis.Symbol(...)` calls that export the function declared at `nameRange` in `uri`: in the module itself and in the modules that import it. */
  exportsOf(uri: string, nameRange: Range): ModuleTool[] {
    const same = (r: Range) => r.start.line === nameRange.start.line && r.start.character === nameRange.start.character;
    return [uri, ...this.dependents(uri)].flatMap((m) => this.moduleTools(m)).filter((t) => t.declUri === uri && t.decl && same(t.decl.nameRange));
  }

  /** Where a name or dotted path (`Tools`, `pkg.models.Reading`) written in a module is declared, following imports into other modules. */
  declarationOf(uri: string, dotted: string): Declaration | undefined {
    let current = uri;
    let parts = dotted.split('.');
    for (let hops = 0; hops < 32 && parts.length; hops++) {
      const model = this.module(current)?.model;
      if (!model) return undefined;
      const bindings = model.bindings.get(parts[0]);
      const b = bindings?.[bindings.length - 1];
      if (!b) {
        // A submodule of a package module (`pkg.models` reached as an attribute of `pkg`).
        const file = filePathOf(current);
        const sub = file && path.basename(file) === '__init__.py' ? this.resolveImport(current, `.${parts[0]}`) : undefined;
        if (!sub) return undefined;
        current = toUri(sub);
        parts = parts.slice(1);
        if (!parts.length) return { uri: current, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, kind: 'module' };
        continue;
      }
      if (b.kind === 'import') {
        const imp = b.binding;
        const moduleName = imp.name === undefined ? (imp.aliased ? imp.module : parts[0]) : imp.module;
        let file = this.resolveImport(current, moduleName);
        let rest = parts.slice(1);
        if (imp.name !== undefined) {
          // `from a import b`: b is a name in a, or the submodule a.b.
          const sub = this.resolveImport(current, /^\.+$/.test(imp.module) ? imp.module + imp.name : `${imp.module}.${imp.name}`);
          const inModule = file && this.module(toUri(file))?.model.bindings.has(imp.name);
          if (!inModule && sub) file = sub;
          else rest = [imp.name, ...rest];
        }
        if (!file) return undefined;
        current = toUri(file);
        parts = rest;
        if (!parts.length) return { uri: current, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, kind: 'module' };
        continue;
      }
      if (parts.length > 1) {
        if (b.kind !== 'class') return undefined;
        let cls = b.decl;
        for (const p of parts.slice(1, -1)) {
          const nested = cls.classes.find((c) => c.name === p);
          if (!nested) return undefined;
          cls = nested;
        }
        const last = parts[parts.length - 1];
        const method = cls.methods.find((m) => m.name === last);
        if (method) return { uri: current, range: method.nameRange, kind: 'function' };
        const nested = cls.classes.find((c) => c.name === last);
        if (nested) return { uri: current, range: nested.nameRange, kind: 'class' };
        const attr = cls.attributes.find((a) => a.name === last) ?? cls.fields.find((f) => f.name === last);
        return attr ? { uri: current, range: attr.range, kind: 'variable' } : undefined;
      }
      if (b.kind === 'class') return { uri: current, range: b.decl.nameRange, kind: 'class' };
      if (b.kind === 'function') return { uri: current, range: b.decl.nameRange, kind: 'function' };
      return { uri: current, range: b.range, kind: 'variable' };
    }
    return undefined;
  }

  /** The modules that import a module (reverse dependencies in the module graph, among those analysed). */
  dependents(uri: string): string[] {
    const file = this.pathOf(uri);
    if (!file) return [];
    const out = new Set<string>();
    for (const [other, hit] of this.importsCache) if (other !== uri && hit.files.includes(file)) out.add(other);
    for (const other of this.readers.get(file) ?? []) if (other !== uri && this.joins.get(other)?.deps.has(file)) out.add(other);
    return [...out];
  }

  // -------------------------------------------------------------------------------------------
  // Change

  /** Settings every join reads changed (severity overrides, contract format). */
  configure(settings: { overrides?: SeverityOverrides; selection?: { select?: readonly string[]; ignore?: readonly string[] }; contractFormat?: ContractFormatSetting; maxFileSize?: number; interpreter?: string; globalDir?: string; watched?: string[] }): void {
    if (settings.watched) {
      this.watched = settings.watched.map((d) => path.resolve(d));
      this.stamps.clear();
    }
    if (settings.overrides) this.overrides = settings.overrides;
    if (settings.selection) this.selection = settings.selection;
    if (settings.contractFormat) this.contractFormat = settings.contractFormat;
    if (settings.maxFileSize) this.maxFileSize = settings.maxFileSize;
    if ('interpreter' in settings && settings.interpreter !== this.interpreter) {
      this.interpreter = settings.interpreter;
      this.envs.clear();
    }
    if ('globalDir' in settings && settings.globalDir !== this.globalDir) {
      this.globalDir = settings.globalDir;
      this.entryList = undefined;
    }
    this.epoch++;
  }

  /**
   * A file changed on disk (`workspace/didChangeWatchedFiles`). Contents are noticed by their stamps;
   * a created or deleted module, a manifest or a lock file can change how imports resolve and which
   * files are entries, so every join is recomputed (module analyses stay).
   */
  fileChanged(file: string, kind: 'created' | 'changed' | 'deleted'): void {
    const abs = path.resolve(file);
    this.resolver.invalidate(abs);
    this.stamps.delete(abs);
    const name = path.basename(abs);
    const manifest = name === 'pyproject.toml' || name === 'uv.lock' || name.endsWith('.pth') || name === 'pyvenv.cfg';
    if (kind !== 'changed' || manifest) {
      this.epoch++;
      this.entryList = undefined;
      this.envs.clear();
      if (name.endsWith('.pth') || name === 'pyvenv.cfg' || kind !== 'changed') {
        this.venvRoots.clear();
        this.venvDirs.clear();
      }
    }
    if (kind === 'deleted') this.modules.forget(toUri(abs));
  }
}

/** A module's scope that follows its versions (see Program.scopeFor). */
class LiveScope implements ModuleScope {
  constructor(
    public model: Model,
    readonly path: string | undefined,
    private readonly entry: boolean,
  ) {}

  /** Annotations are strings: `from __future__ import annotations`, or an entry file. */
  get postponed(): boolean {
    return this.model.futureAnnotations || this.entry;
  }
}

/** The findings across entries (WS rules) for the extensions they register, in Vis's load order. */
export function checkWorkspace(extensions: RegisteredExtension[], policyFor: (uri: string) => SeverityOverrides): Finding[] {
  const findings: Finding[] = [];
  for (const rule of workspaceRules) {
    rule.check({
      extensions,
      report: (uri, range, message, related) => {
        const severity = policyFor(uri)[rule.id] ?? rule.severity;
        if (severity !== 'off') findings.push({ rule: rule.id, severity, message, range, uri, related });
      },
    });
  }
  return findings;
}

/** A module's findings as shown: in `compareFindings` order, its suppression comments applied (SUP-001 for unused ones). */
export function shownFindings(findings: Finding[], suppressions: Suppressions, policy: SeverityOverrides, source: () => SourceText | undefined): Finding[] {
  // A failure behind an earlier error of its call shows only when each of those is suppressed; otherwise
  // it is still what a suppression of its rule is there for (shown once the earlier error is fixed).
  const masked: Finding[] = [];
  const shown: Finding[] = [];
  for (const f of findings) {
    if (!f.behind) shown.push(f);
    else if (f.behind.every((b) => suppressedBy(suppressions, b.rule, b.range))) {
      const { behind: _, ...rest } = f;
      shown.push(rest);
    } else masked.push(f);
  }
  shown.sort(compareFindings);
  return applySuppressions(shown, suppressions, isRuleId, (id) => policy[id] === 'off', policy[UNUSED] ?? 'hint', source, masked);
}

/**
 * The order findings are shown in: by where they start (a stable sort: at one place, a module's own
 * findings in the order its rules found them, then those of other modules by module URI, then the
 * cross-file checks).
 */
export function compareFindings(x: Finding, y: Finding): number {
  return x.range.start.line - y.range.start.line || x.range.start.character - y.range.start.character;
}
