// Cross-file types: records and functions imported from sibling modules through the import roots
// (the entry's folder, [tool.vis] source_paths from PEP 723 or pyproject.toml), cached and refreshed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { initParser } from '../../server/src/parse/parser';
import { symbolInfos, type SymbolInfo } from '../../server/src/contracts';
import { WorkspaceModules, sourcePaths } from '../../server/src/workspace/modules';
import { js, modelOf } from './helpers';

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

function infos(dir: string, modules = new WorkspaceModules(), entry = 'extension.py'): SymbolInfo[] {
  const file = path.join(dir, entry);
  const model = modelOf(fs.readFileSync(file, 'utf8'), pathToFileURL(file).href);
  return symbolInfos(model, { format: 'C3', loader: modules.loaderFor(file, model), path: file });
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
    const modules = new WorkspaceModules();
    // Contracts are computed when read: each read of the return type goes through the loader.
    returns(infos(dir, modules)[0]);
    returns(infos(dir, modules)[0]);
    assert.equal(modules.reads, 1);
    fs.writeFileSync(path.join(dir, 'models.py'), READING.replace('value: float', 'value: int\n    unit: str = "s"'));
    const changed = returns(infos(dir, modules)[0]);
    assert.equal(modules.reads, 2);
    assert.ok(changed.includes('"name":"unit"'), changed);
    const open = new WorkspaceModules((file) => (file.endsWith('models.py') ? { version: 7, text: READING.replace('value: float', 'value: bytes') } : undefined));
    assert.ok(returns(infos(dir, open)[0]).includes('"name":"bytes"'));
    assert.equal(open.reads, 0);
  });

  it('reads source_paths from TOML', () => {
    assert.deepEqual(sourcePaths('[tool.vis]\nsource_paths = ["a", \'b\']\n'), ['a', 'b']);
    assert.deepEqual(sourcePaths('[tool.other]\nsource_paths = ["a"]\n'), undefined);
    assert.deepEqual(sourcePaths('[tool.vis]\nsource_paths = [\n  "x", # first\n  "y",\n]\n'), ['x', 'y']);
  });
});
