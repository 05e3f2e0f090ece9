// No false positives from the declaration families: realistic valid extensions that use every family the
// way the SDK documents it (test/fixtures/valid/: a G3 provider extension, an Activity-rich tool extension,
// settings and a catalog, a language surface, runtime calls in tool bodies and hooks, G2 and G1 files, and
// a packaged extension whose tools and provider live in sibling modules) give no error and no warning.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { before, describe, it } from 'node:test';
import { initParser } from '../../server/src/parse/parser';
import { Program } from '../../server/src/workspace/program';

before(async () => {
  await initParser();
});

const dir = path.join(__dirname, '..', 'fixtures', 'valid');
const shown = (f: { rule: string; message: string; range: { start: { line: number } } }) => `${f.rule}@${f.range.start.line + 1} ${f.message}`;

describe('valid extensions of every family give no error or warning', () => {
  const single: Record<string, string> = {
    'provider_g3.py': 'f3ef1e26',
    'activity_g3.py': 'f3ef1e26',
    'settings_catalog_g3.py': 'f3ef1e26',
    'language_g3.py': '1a8b6ead',
    'runtime_g3.py': 'f3ef1e26',
    'activity_g2.py': '00b3a0c1',
    'provider_g1.py': 'vis-0.1.41',
  };
  for (const [file, release] of Object.entries(single)) {
    it(`${file} (checked against ${release})`, () => {
      const uri = pathToFileURL(path.join(dir, file)).href;
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      const program = new Program({ open: (u) => (u === uri ? { version: 1, text } : undefined), keepTrees: false });
      const a = program.analysis(uri)!;
      assert.equal(a.model.sdk?.release?.id, release);
      assert.deepEqual(a.findings.filter((f) => f.severity === 'error' || f.severity === 'warning').map(shown), []);
    });
  }

  it('a packaged extension: the entry and the sibling modules its tools, render callbacks and provider live in', () => {
    const root = path.join(dir, 'packaged');
    const program = new Program({ root, keepTrees: false });
    const modules = program.index();
    assert.deepEqual(
      modules.map((u) => path.relative(root, new URL(u).pathname)).sort(),
      ['extension.py', 'pyproject.toml', 'src/acme_tools/__init__.py', 'src/acme_tools/provider.py', 'src/acme_tools/tickets.py'],
    );
    const found = modules.flatMap((u) => program.findings(u)).filter((f) => f.severity === 'error' || f.severity === 'warning');
    assert.deepEqual(found.map(shown), []);
    // The families did look at the sibling modules: a mistake there is found.
    const tickets = pathToFileURL(path.join(root, 'src/acme_tools/tickets.py')).href;
    const broken = new Program({
      root,
      keepTrees: false,
      open: (u) => (u === tickets ? { version: 1, text: fs.readFileSync(new URL(u), 'utf8').replace('vis.Activity("observation", label="Read ticket"', 'vis.Activity("bogus", label="read_ticket"') } : undefined),
    });
    broken.index();
    assert.deepEqual(broken.findings(tickets).map((f) => f.rule), ['ACT-003', 'ACT-006']);
  });
});
