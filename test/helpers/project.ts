// Realistic projects on disk, laid out the way published Vis extensions are: a project with
// `.vis/extensions/<name>/extension.py`, its `pyproject.toml` (`[tool.vis] source_paths = ["src"]`),
// `src/<pkg>/tools.py` with a namespace class, records in another module, a `uv.lock`, and a
// dependency's frozen dataclass in a `.venv` site-packages.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface Project {
  root: string;
  /** Absolute path of a file in the project. */
  file(rel: string): string;
  uri(rel: string): string;
  write(rel: string, text: string): void;
  /** The line (0-based) of the first line of a file that contains `needle`. */
  line(rel: string, needle: string): number;
  remove(): void;
}

export function project(files: Record<string, string>, prefix = 'vis-project-'): Project {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const p: Project = {
    root,
    file: (rel) => path.join(root, rel),
    uri: (rel) => pathToFileURL(path.join(root, rel)).href,
    write(rel, text) {
      const file = path.join(root, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      // A later mtime for sure, whatever the file system's time resolution.
      const later = new Date(Date.now() + 2000 + Math.random() * 1000);
      fs.utimesSync(file, later, later);
    },
    line(rel, needle) {
      const i = fs.readFileSync(path.join(root, rel), 'utf8').split('\n').findIndex((l) => l.includes(needle));
      if (i < 0) throw new Error(`${needle} is not in ${rel}`);
      return i;
    },
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
  for (const [rel, text] of Object.entries(files)) p.write(rel, text);
  return p;
}

const PKG = '.vis/extensions/notes';

/** The entry, its manifest and lock, the package modules and the dependency in `.venv`. */
export const NOTES = {
  entry: `${PKG}/extension.py`,
  tools: `${PKG}/src/notes/tools.py`,
  records: `${PKG}/src/notes/records.py`,
  init: `${PKG}/src/notes/__init__.py`,
  pyproject: `${PKG}/pyproject.toml`,
  files: {
    [`${PKG}/extension.py`]: `import blockether.vis.extension as vis

from notes import NotesTools

vis.register_extension(vis.Extension(
    name="notes",
    description="Keeps notes.",
    alias="notes",
    symbols=[vis.Symbol(NotesTools(), name="notes")],
))
`,
    [`${PKG}/pyproject.toml`]: `[project]
name = "notes"
version = "0.1.0"
requires-python = ">=3.11"
dependencies = ["vis-agent>=0.2.45", "vis-lang-interface"]

[tool.vis]
category = "tools"
source_paths = ["src"]
`,
    [`${PKG}/uv.lock`]: `version = 1
requires-python = ">=3.11"

[[package]]
name = "notes"
version = "0.1.0"
source = { editable = "." }

[[package]]
name = "vis-agent"
version = "0.2.47"
source = { registry = "https://pypi.org/simple" }
`,
    [`${PKG}/src/notes/__init__.py`]: `from .tools import NotesTools

__all__ = ["NotesTools"]
`,
    [`${PKG}/src/notes/records.py`]: `from dataclasses import dataclass


@dataclass(frozen=True)
class Note:
    """One stored note."""

    title: str
    body: str = ""
`,
    [`${PKG}/src/notes/tools.py`]: `import blockether.vis.extension as vis
from vis_lang_interface.results import FormatResult

from .records import Note


class NotesTools:
    """Notes in the project."""

    LIMIT = 10

    @vis.method(activity=vis.Activity("generic"))
    def read(self, title: str) -> Note:
        """Read one note by its title."""
        return Note(title=title)

    @vis.method(tag="mutation", activity=vis.Activity("generic"))
    def save(self, title: str, body: str) -> Note:
        return Note(title=title, body=body)

    @vis.method(activity=vis.Activity("generic"))
    def tidy(self, text: str) -> FormatResult:
        """Format a note's text."""
        return FormatResult(text=text, changed=False)
`,
    [`${PKG}/.venv/pyvenv.cfg`]: 'home = /usr/bin\nversion = 3.12.3\n',
    [`${PKG}/.venv/lib/python3.12/site-packages/vis_lang_interface/__init__.py`]: '',
    [`${PKG}/.venv/lib/python3.12/site-packages/vis_lang_interface/results.py`]: `from dataclasses import dataclass


@dataclass(frozen=True)
class FormatResult:
    """What a formatter returns."""

    text: str
    changed: bool
`,
    // A test file in the extensions directory: Vis never loads it.
    '.vis/extensions/test_gh.py': 'import blockether.vis.extension as vis\n\n\ndef test_builds():\n    vis.Extension(name="gh", description="GitHub.")\n',
  } as Record<string, string>,
};
