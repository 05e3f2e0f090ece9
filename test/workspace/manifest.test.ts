// Manifest rules (MAN-001…MAN-010): the pyproject.toml of a packaged extension and the PEP 723 block of a
// single-file one, checked as Vis reads them, on realistic projects written to disk; each rule fails on
// the mistake with its exact message and range, and stays silent on the valid project.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { initParser } from '../../server/src/parse/parser';
import { Program } from '../../server/src/workspace/program';
import { NOTES, project, type Project } from '../helpers/project';

before(async () => {
  await initParser();
});

const projects: Project[] = [];
after(() => projects.forEach((p) => p.remove()));

/** The MAN findings of a project's files, as `file:line:col-line:col RULE message`. */
function manifestFindings(files: Record<string, string>, ...rels: string[]): string[] {
  const p = project(files);
  projects.push(p);
  const program = new Program({ root: p.root });
  program.index();
  return rels.flatMap((rel) =>
    (program.analysis(p.uri(rel))?.findings ?? [])
      .filter((f) => f.rule.startsWith('MAN-'))
      .map((f) => `${rel.split('/').pop()}:${f.range.start.line}:${f.range.start.character}-${f.range.end.line}:${f.range.end.character} ${f.rule} ${f.message}`),
  );
}

const PY = NOTES.pyproject;
const ENTRY = NOTES.entry;
const withPyproject = (text: string, extra: Record<string, string> = {}) => ({ ...NOTES.files, [PY]: text, ...extra });
const PYPROJECT = NOTES.files[PY];

describe('manifest rules: packaged extensions (pyproject.toml)', () => {
  it('are silent on the valid package', () => {
    assert.deepEqual(manifestFindings(NOTES.files, PY, ENTRY), []);
  });

  it('MAN-001: the TOML must parse', () => {
    assert.deepEqual(manifestFindings(withPyproject('[project\nname = "notes"\n'), PY), [
      'pyproject.toml:1:0-1:0 MAN-001 pyproject.toml is not valid TOML: The key, equals sign, and value must be on the same line',
    ]);
  });

  it('MAN-002: the normalised project.name must equal the registered name', () => {
    assert.deepEqual(manifestFindings(withPyproject(PYPROJECT.replace('name = "notes"', 'name = "vis-notes"')), PY), [
      'pyproject.toml:1:7-1:18 MAN-002 Extension name must match normalized project.name',
    ]);
    // Spellings PEP 503 normalises alike are the same name.
    assert.deepEqual(manifestFindings(withPyproject(PYPROJECT.replace('name = "notes"', 'name = "Notes"')), PY), []);
  });

  it('MAN-003: project.dependencies must hold an unconditional vis-agent requirement', () => {
    const message = 'MAN-003 project.dependencies must include an unconditional vis-agent requirement (e.g. "vis-agent>=0.2.45"): Vis prepares the package with it';
    assert.deepEqual(manifestFindings(withPyproject(PYPROJECT.replace('"vis-agent>=0.2.45", ', '')), PY), [`pyproject.toml:4:0-4:12 ${message}`]);
    assert.deepEqual(manifestFindings(withPyproject(PYPROJECT.replace('"vis-agent>=0.2.45"', '"vis-agent>=0.2.45; python_version < \'3.12\'"')), PY), [`pyproject.toml:4:0-4:12 ${message}`]);
    assert.deepEqual(manifestFindings(withPyproject(PYPROJECT.replace('dependencies = ["vis-agent>=0.2.45", "vis-lang-interface"]\n', '')), PY), [`pyproject.toml:0:1-0:8 ${message}`]);
    // Dependencies the build backend fills in are not known here.
    assert.deepEqual(manifestFindings(withPyproject(PYPROJECT.replace('dependencies = ["vis-agent>=0.2.45", "vis-lang-interface"]', 'dynamic = ["dependencies"]')), PY), []);
  });

  it('MAN-004: a package entry carries no PEP 723 block', () => {
    const entry = '# /// script\n# dependencies = ["vis-agent"]\n# ///\n' + NOTES.files[ENTRY];
    assert.deepEqual(manifestFindings({ ...NOTES.files, [ENTRY]: entry }, ENTRY), ['extension.py:0:0-0:12 MAN-004 Package entries use pyproject.toml, not PEP 723 metadata']);
  });

  it('MAN-009: source_paths name existing directories that do not contain the extension', () => {
    assert.deepEqual(manifestFindings(withPyproject(PYPROJECT.replace('source_paths = ["src"]', 'source_paths = ["src", "lib", ".."]')), PY), [
      'pyproject.toml:8:23-8:28 MAN-009 Extension source_paths must name existing directories',
      'pyproject.toml:8:30-8:34 MAN-009 Extension source_paths cannot contain the extension directory',
    ]);
  });

  it('MAN-010: category, source_paths and skills of the right kinds', () => {
    const text = PYPROJECT.replace('category = "tools"', 'category = "utilities"').replace('source_paths = ["src"]', 'source_paths = ["src"]\nskills = ["skills/summarize", "skills/none"]');
    assert.deepEqual(manifestFindings(withPyproject(text, { [`.vis/extensions/notes/skills/summarize/SKILL.md`]: '# Summarize\n' }), PY), [
      'pyproject.toml:7:11-7:22 MAN-010 [tool.vis] category is one of "providers", "tools", "workflows"',
      'pyproject.toml:9:30-9:43 MAN-010 [tool.vis] skills: skills/none has no SKILL.md',
    ]);
  });
});

describe('manifest rules: single-file extensions (PEP 723)', () => {
  const tool = (block: string) => ({
    '.vis/extensions/clock.py': `${block}import blockether.vis.extension as vis\n\ndef now() -> str:\n    """The time."""\n    return ""\n\nvis.register_extension(vis.Extension(name="clock", description="Tells the time.", alias="clock", symbols=[vis.Symbol(now)]))\n`,
  });
  const script = (...lines: string[]) => `# /// script\n${lines.map((l) => `# ${l}\n`).join('')}# ///\n`;
  const CLOCK = '.vis/extensions/clock.py';

  it('are silent on a valid script block', () => {
    assert.deepEqual(manifestFindings({ ...tool(script('dependencies = ["httpx>=0.27"]', 'requires-python = ">=3.11"', '[tool.vis]', 'source_paths = ["clock_lib"]')), '.vis/extensions/clock_lib/util.py': 'X = 1\n' }, CLOCK), []);
  });

  it('MAN-005: [tool.vis] accepts only source_paths and project', () => {
    assert.deepEqual(manifestFindings(tool(script('[tool.vis]', 'category = "tools"')), CLOCK), ['clock.py:2:2-2:10 MAN-005 tool.vis accepts only source_paths and project']);
  });

  it('MAN-006: no [tool.uv]', () => {
    assert.deepEqual(manifestFindings(tool(script('dependencies = []', '[tool.uv]', 'index-url = "https://example.invalid"')), CLOCK), [
      'clock.py:2:3-2:10 MAN-006 A Vis script block may not configure uv: [tool.uv] is refused (list wheels in dependencies, or use [tool.vis] project)',
    ]);
  });

  it('MAN-007: dependencies are packages from an index, and never beside [tool.vis] project', () => {
    assert.deepEqual(manifestFindings(tool(script('dependencies = ["httpx", "mylib @ https://example.invalid/mylib.whl", "./vendor/x.whl"]')), CLOCK), [
      "clock.py:1:27-1:70 MAN-007 Script dependencies must be packages from an index: 'mylib @ https://example.invalid/mylib.whl' is a URL or a path, which Vis refuses",
      "clock.py:1:72-1:88 MAN-007 Script dependencies must be packages from an index: './vendor/x.whl' is a URL or a path, which Vis refuses",
    ]);
    const files = { ...tool(script('dependencies = ["httpx"]', '[tool.vis]', 'project = "../../proj"')), 'proj/pyproject.toml': '[project]\nname = "proj"\n', 'proj/uv.lock': 'version = 1\n' };
    assert.deepEqual(manifestFindings(files, CLOCK), ["clock.py:3:2-3:9 MAN-007 tool.vis.project cannot be combined with script dependencies: declare them in the project's pyproject.toml"]);
  });

  it('MAN-008: [tool.vis] project is a directory with pyproject.toml and uv.lock', () => {
    assert.deepEqual(manifestFindings({ ...tool(script('[tool.vis]', 'project = "../../proj"')), 'proj/pyproject.toml': '[project]\nname = "proj"\n' }, CLOCK), [
      'clock.py:2:12-2:24 MAN-008 tool.vis.project requires pyproject.toml and uv.lock',
    ]);
    assert.deepEqual(manifestFindings({ ...tool(script('[tool.vis]', 'project = "../../proj"')), 'proj/pyproject.toml': '[project]\nname = "proj"\n', 'proj/uv.lock': 'version = 1\n' }, CLOCK), []);
  });

  it('MAN-009: source_paths of a script must exist and not contain its directory', () => {
    assert.deepEqual(manifestFindings(tool(script('[tool.vis]', 'source_paths = ["missing", "."]')), CLOCK), [
      'clock.py:2:18-2:27 MAN-009 Extension source_paths must name existing directories',
      'clock.py:2:29-2:32 MAN-009 Extension source_paths cannot contain the extension directory',
    ]);
  });
});
