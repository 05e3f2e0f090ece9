// The workspace program on generated workspaces of 50, 500 and 2,000 extension files (packages of an
// entry, its pyproject.toml with source_paths, and three sibling modules: __init__, a namespace class,
// records): indexing time and peak RSS per size (each size in a fresh process, so RSS is its own), and
// an edit in a sibling module → fresh diagnostics on its entry. Baselines, in the same run: the
// analysis of one extension file alone (parse + model + rules), and for RSS, a child process that
// indexes an empty folder (what every size pays before a module is read).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { analyzeText } from '../server/src/analysis';
import { initParser } from '../server/src/parse/parser';
import { Program } from '../server/src/workspace/program';
import { median } from './stats';

const SIZES = [50, 500, 2000];
const FILES_PER_PACKAGE = 4;

function entry(i: number): string {
  return `import blockether.vis.extension as vis

from ext_${i} import Tools

vis.register_extension(vis.Extension(
    name="ext_${i}",
    description="Generated extension ${i}.",
    alias="e${i}",
    symbols=[vis.Symbol(Tools(), name="tools_${i}")],
))
`;
}

function tools(i: number, edit = ''): string {
  const methods = [0, 1, 2]
    .map(
      (m) => `    @vis.method(tag="${m === 1 ? 'mutation' : 'observation'}", activity=vis.Activity("generic"))
    def op_${m}(self, target: str, *, limit: int = ${m}) -> Record${i}:
        """Operation ${m} of extension ${i}.${edit}"""
        return Record${i}(name=target, count=limit)
`,
    )
    .join('\n');
  return `import blockether.vis.extension as vis

from .records import Record${i}


class Tools:
    """Tools of extension ${i}."""

${methods}`;
}

function records(i: number): string {
  return `from dataclasses import dataclass, field


@dataclass(frozen=True)
class Record${i}:
    """A record of extension ${i}."""

    name: str
    count: int = 0
    tags: list[str] = field(default_factory=list)
`;
}

/** A workspace of `files` Python files in packages under .vis/extensions. */
export function generateWorkspace(dir: string, files: number): number {
  const packages = Math.max(1, Math.round(files / FILES_PER_PACKAGE));
  for (let i = 0; i < packages; i++) {
    const pkg = path.join(dir, '.vis', 'extensions', `ext_${i}`);
    const src = path.join(pkg, 'src', `ext_${i}`);
    fs.mkdirSync(src, { recursive: true });
    fs.writeFileSync(path.join(pkg, 'extension.py'), entry(i));
    fs.writeFileSync(path.join(pkg, 'pyproject.toml'), `[project]\nname = "ext_${i}"\ndependencies = ["vis-agent>=0.2.45"]\n\n[tool.vis]\nsource_paths = ["src"]\n`);
    fs.writeFileSync(path.join(src, '__init__.py'), `from .tools import Tools\n`);
    fs.writeFileSync(path.join(src, 'tools.py'), tools(i));
    fs.writeFileSync(path.join(src, 'records.py'), records(i));
  }
  return packages;
}

/**
 * In a child process: peak RSS of what every size pays before a module is read (Node, the code, the
 * parser's runtimes, a program over an empty folder), the baseline of the RSS column.
 */
async function emptyChild(dir: string): Promise<void> {
  await initParser();
  const program = new Program({ root: dir });
  program.configure({ watched: [dir] });
  for (const u of program.index()) program.analysis(u);
  process.stdout.write(JSON.stringify({ rss: process.resourceUsage().maxRSS / 1024 }));
}

/** In a child process: index one workspace and report time, modules and peak RSS. */
async function child(dir: string): Promise<void> {
  await initParser();
  const t0 = performance.now();
  // As the server runs it: the client reports file changes, so stamps are not read again each time.
  const program = new Program({ root: dir });
  program.configure({ watched: [dir] });
  const uris = program.index();
  let findings = 0;
  for (const u of uris) findings += program.analysis(u)?.findings.length ?? 0;
  const ms = performance.now() - t0;
  if (findings) throw new Error(`the generated workspace should be valid, got ${findings} findings`);
  // Sibling edit → fresh entry diagnostics, as the server does it: affected modules, then the entry's analysis.
  const toolsUri = pathToFileURL(path.join(dir, '.vis', 'extensions', 'ext_0', 'src', 'ext_0', 'tools.py')).href;
  const entryUri = pathToFileURL(path.join(dir, '.vis', 'extensions', 'ext_0', 'extension.py')).href;
  let version = 1;
  let text = tools(0);
  const open = new Program({ root: dir, open: (u) => (u === toolsUri ? { version, text } : undefined) });
  open.configure({ watched: [dir] });
  for (const u of open.index()) open.analysis(u);
  const edits: number[] = [];
  for (let i = 0; i < 41; i++) {
    version++;
    text = tools(0, i % 2 ? '' : ' Edited.');
    const t = performance.now();
    for (const u of open.affected([toolsUri])) open.analysis(u);
    const a = open.analysis(entryUri);
    if (i) edits.push(performance.now() - t);
    if (!a || a.findings.length) throw new Error('the entry should stay valid');
  }
  const rss = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ ms, modules: uris.length, rss, edit: median(edits) }));
}

export default async function run(): Promise<void> {
  await initParser();
  // Baseline: one extension file analysed alone (median of 31, after warming).
  const single: number[] = [];
  const text = entry(0) + '\n' + tools(0).replace('from .records import Record0', 'from dataclasses import dataclass\n\n@dataclass\nclass Record0:\n    """R."""\n    name: str\n    count: int = 0');
  for (let i = -3; i < 31; i++) {
    const t = performance.now();
    analyzeText('file:///bench/single.py', text);
    if (i >= 0) single.push(performance.now() - t);
  }
  const base = median(single);
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-bench-program-'));
  let emptyRss: number;
  try {
    const r = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--empty-child', empty], { encoding: 'utf8', cwd: path.join(__dirname, '..') });
    if (r.status !== 0) throw new Error(r.stderr || `child exited ${r.status}`);
    emptyRss = (JSON.parse(r.stdout) as { rss: number }).rss;
  } finally {
    fs.rmSync(empty, { recursive: true, force: true });
  }
  console.log('| workspace | packages | modules checked | index ms | ms per module / single-file analysis | peak RSS MB | peak RSS beyond the empty folder MB | sibling edit → entry diagnostics, median ms |');
  console.log('|---|---|---|---|---|---|---|---|');
  console.log(`| single-file analysis (baseline) | | 1 | ${base.toFixed(2)} | 1.00 | | | |`);
  console.log(`| empty folder (RSS baseline: Node, the code, the parser) | 0 | 0 | | | ${emptyRss.toFixed(0)} | 0 | |`);
  const rows: { files: number; ms: number }[] = [];
  for (const files of SIZES) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-bench-program-'));
    try {
      const packages = generateWorkspace(dir, files);
      const r = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--child', dir], { encoding: 'utf8', cwd: path.join(__dirname, '..') });
      if (r.status !== 0) throw new Error(r.stderr || `child exited ${r.status}`);
      const m = JSON.parse(r.stdout) as { ms: number; modules: number; rss: number; edit: number };
      rows.push({ files, ms: m.ms });
      console.log(`| ${files} files | ${packages} | ${m.modules} | ${m.ms.toFixed(0)} | ${(m.ms / m.modules / base).toFixed(2)} | ${m.rss.toFixed(0)} | ${(m.rss - emptyRss).toFixed(0)} | ${m.edit.toFixed(2)} |`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const growth = rows[rows.length - 1].ms / rows[0].ms / (rows[rows.length - 1].files / rows[0].files);
  console.log(`growth from ${rows[0].files} to ${rows[rows.length - 1].files} files: ${growth.toFixed(2)} × linear (1.00 = linear). Targets: 500 files ≤ 3,000 ms and ≤ 150 MB; sibling edit ≤ 50 ms.`);
}

if (process.argv[2] === '--empty-child') {
  emptyChild(process.argv[3]).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
if (process.argv[2] === '--child') {
  child(process.argv[3]).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
