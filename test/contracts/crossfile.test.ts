// Cross-file types: records and functions imported from sibling modules through the import roots
// (the entry's folder, [tool.vis] source_paths from PEP 723 or pyproject.toml), cached and refreshed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { initParser } from '../../server/src/parse/parser';
import type { SymbolInfo } from '../../server/src/contracts';
import { readToml, sourcePathsOf } from '../../server/src/workspace/manifest';
import { Program, type OpenDocuments } from '../../server/src/workspace/program';
import { js } from './helpers';

before(async () => {
  await initParser();
});

const dirs: string[] = [];
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-xfile-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/** The Symbol analysis of the entry through a program on the folder (as the server and CLI read it). */
function infos(dir: string, program = new Program({ root: dir }), entry = 'extension.py'): SymbolInfo[] {
  return program.symbols(pathToFileURL(path.join(dir, entry)).href);
}

const returns = (i: SymbolInfo) => js((i.contract as { returns: unknown }).returns);
const READING = 'from dataclasses import dataclass\n\n@dataclass\nclass Reading:\n    """A reading."""\n    value: float\n';
const READING_SPEC = '{"kind":"record","name":"Reading","fields":[{"name":"value","type":{"kind":"scalar","name":"float"},"required":true,"has_default":false,"default_is_none":false}],"description":"A reading."}';
const ENTRY = (imp: string, ann = 'Reading') =>
  `import blockether.vis.extension as vis\n${imp}\n\ndef read() -> ${ann}:\n    """Read."""\n\nvis.register_extension(vis.Extension(name="t", description="T", alias="t", symbols=[vis.Symbol(read)]))\n`;

describe('cross-file types', () => {
  it('resolves a relative import from the entry folder', () => {
    const dir = project({ 'extension.py': ENTRY('from .models import Reading'), 'models.py': READING });
    assert.equal(returns(infos(dir)[0]), READING_SPEC);
  });

  it('resolves a package through [tool.vis] source_paths in the PEP 723 block', () => {
    const block = '# /// script\n# dependencies = []\n# [tool.vis]\n# source_paths = [\n#   "src",\n# ]\n# ///\n';
    const dir = project({ 'extension.py': block + ENTRY('from mypkg.models import Reading'), 'src/mypkg/__init__.py': '', 'src/mypkg/models.py': READING });
    assert.equal(returns(infos(dir)[0]), READING_SPEC);
  });

  it('resolves through source_paths in the pyproject.toml beside extension.py, with import-as', () => {
    const dir = project({
      'extension.py': ENTRY('import mypkg.models as m', 'm.Reading'),
      'pyproject.toml': '[project]\nname = "x"\n\n[tool.vis]\nsource_paths = ["lib"]  # helpers\n',
      'lib/mypkg/models.py': READING,
    });
    assert.equal(returns(infos(dir)[0]), READING_SPEC);
  });

  it('resolves field types in the record’s own module, and exports an imported function', () => {
    const dir = project({
      'extension.py':
        'import blockether.vis.extension as vis\nfrom .tools import measure\n\nvis.register_extension(vis.Extension(name="t", description="T", alias="t", symbols=[vis.Symbol(measure)]))\n',
      'tools.py': 'from __future__ import annotations\nfrom .models import Wrapper\n\ndef measure(limit: int = 5) -> Wrapper:\n    """Measure."""\n',
      'models.py': READING + '\n@dataclass\nclass Wrapper:\n    """Wraps."""\n    inner: Reading\n',
    });
    const info = infos(dir)[0];
    assert.equal((info.contract as { signature: string }).signature, "(limit: int = 5) -> 'Wrapper'");
    assert.equal(returns(info), `{"kind":"record","name":"Wrapper","fields":[{"name":"inner","type":${READING_SPEC},"required":true,"has_default":false,"default_is_none":false}],"description":"Wraps."}`);
  });

  it('evaluates a helper module without the __future__ import on the object path', () => {
    const dir = project({
      'extension.py': 'import blockether.vis.extension as vis\nfrom .tools import page\n\nvis.register_extension(vis.Extension(name="t", description="T", alias="t", symbols=[vis.Symbol(page)]))\n',
      'tools.py': 'from typing import Generic, TypeVar\nT = TypeVar("T")\nclass Page(Generic[T]):\n    pass\n\ndef page() -> Page[int]:\n    """Page."""\n',
    });
    assert.equal(returns(infos(dir)[0]), '{"kind":"generic","name":"Page","arguments":[{"kind":"scalar","name":"int"}]}');
  });

  it('leaves a name it cannot find unresolved', () => {
    const dir = project({ 'extension.py': ENTRY('from .missing import Reading') });
    assert.equal(returns(infos(dir)[0]), '{"kind":"opaque","name":"Reading"}');
  });

  it('caches parsed modules and re-reads a file when it changes; the open document wins', () => {
    const dir = project({ 'extension.py': ENTRY('from .models import Reading'), 'models.py': READING });
    const program = new Program({ root: dir });
    // Contracts are computed when read: each read of the return type goes through the loader.
    returns(infos(dir, program)[0]);
    returns(infos(dir, program)[0]);
    assert.equal(program.modules.analyses, 2, 'the entry and models.py, each once');
    assert.equal(program.stats.symbolAnalyses, 1);
    const models = path.join(dir, 'models.py');
    fs.writeFileSync(models, READING.replace('value: float', 'value: int\n    unit: str = "s"'));
    fs.utimesSync(models, new Date(), new Date(Date.now() + 5000));
    const changed = returns(infos(dir, program)[0]);
    assert.equal(program.modules.analyses, 3, 'models.py again, the entry not');
    assert.equal(program.stats.symbolAnalyses, 2);
    assert.ok(changed.includes('"name":"unit"'), changed);
    const uri = pathToFileURL(models).href;
    const openDocs: OpenDocuments = (u) => (u === uri ? { version: 7, text: READING.replace('value: float', 'value: bytes') } : undefined);
    const open = new Program({ root: dir, open: openDocs });
    assert.ok(returns(infos(dir, open)[0]).includes('"name":"bytes"'));
  });

  it('reads source_paths from TOML', () => {
    const paths = (toml: string) => sourcePathsOf(readToml('pyproject', '/p/pyproject.toml', toml));
    assert.deepEqual(paths('[tool.vis]\nsource_paths = ["a", \'b\']\n'), ['a', 'b']);
    assert.deepEqual(paths('[tool.other]\nsource_paths = ["a"]\n'), undefined);
    assert.deepEqual(paths('[tool.vis]\nsource_paths = [\n  "x", # first\n  "y",\n]\n'), ['x', 'y']);
    assert.deepEqual(paths('tool.vis.source_paths = "lib"\n'), ['lib']);
  });
});
