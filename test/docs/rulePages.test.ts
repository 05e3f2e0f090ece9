// One documentation page per rule id (`docs/rules/<ID>.md`), checked against the checker itself: the
// page's Bad example must produce the rule and its Good example must not (nor any error); a rule with a
// fix shows the Bad example after the fix, exactly, and a rule without one says "No safe fix".
//
// Page layout (what a new rule's page needs):
//   # ID: title
//   | severity | fix |            severity = the rule's default; fix = yes | no
//   ## What it checks / ## Why … / ## Bad / ## Good / ## Fix
// Examples are ```python (or ```toml) blocks. `<!-- file: path -->` before a block names the file it
// is written to in a scratch project (default: extension.py, the project being an extension package);
// `<!-- settings: {"maxFileSize": 1000} -->` in a section sets program options for its files.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { before, describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { initParser } from '../../server/src/parse/parser';
import { compatibleFixes } from '../../server/src/fixes/fixAll';
import { SourceText } from '../../server/src/fixes/source';
import { ruleCatalog } from '../../server/src/rules/catalog';
import type { Finding } from '../../server/src/rules/types';
import { Program, type ProgramOptions } from '../../server/src/workspace/program';

const DIR = path.join(__dirname, '..', '..', 'docs', 'rules');

interface Example {
  file: string;
  lang: string;
  code: string;
}

interface Section {
  text: string;
  examples: Example[];
  settings: Partial<ProgramOptions>;
}

/** The page's sections by heading, with their example blocks. */
export function readPage(text: string): { title: string; header: Record<string, string>; preamble: string; sections: Map<string, Section> } {
  const lines = text.split('\n');
  const title = lines[0];
  const header: Record<string, string> = {};
  const table = lines.findIndex((l) => l.startsWith('| severity'));
  if (table !== -1) {
    const keys = lines[table].split('|').map((s) => s.trim()).filter(Boolean);
    const values = lines[table + 2].split('|').map((s) => s.trim()).filter(Boolean);
    keys.forEach((k, i) => (header[k] = values[i]));
  }
  const sections = new Map<string, Section>();
  let preamble = '';
  let current: Section | undefined;
  let file: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i];
    const h = /^## (.+)$/.exec(l);
    if (h) {
      sections.set(h[1], (current = { text: '', examples: [], settings: {} }));
      file = undefined;
      continue;
    }
    if (!current) {
      preamble += l + '\n';
      continue;
    }
    const f = /^<!-- file: (.+) -->$/.exec(l);
    if (f) {
      file = f[1];
      continue;
    }
    const s = /^<!-- settings: (.+) -->$/.exec(l);
    if (s) {
      current.settings = JSON.parse(s[1]);
      continue;
    }
    const fence = /^```(\w+)$/.exec(l);
    if (fence) {
      const code: string[] = [];
      for (i++; i < lines.length && lines[i] !== '```'; i++) code.push(lines[i]);
      current.examples.push({ file: file ?? (fence[1] === 'toml' ? 'pyproject.toml' : 'extension.py'), lang: fence[1], code: code.join('\n') + '\n' });
      file = undefined;
      continue;
    }
    current.text += l + '\n';
  }
  return { title, header, preamble, sections };
}

/** Writes a section's examples into a scratch project and analyses every Python file of it. */
function analyse(section: Section): { findings: (Finding & { file: string })[]; config: Finding[]; main: { file: string; uri: string; text: string; program: Program } } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'vis-rule-page-')));
  try {
    for (const e of section.examples) {
      fs.mkdirSync(path.dirname(path.join(root, e.file)), { recursive: true });
      fs.writeFileSync(path.join(root, e.file), e.code);
    }
    const program = new Program({ root, globalDir: path.join(root, 'global'), ...section.settings });
    // Every Python file and every pyproject.toml of the example (manifest findings are on the latter).
    const uris = new Set([...program.index(), ...section.examples.filter((e) => e.file.endsWith('.py') || e.file.endsWith('pyproject.toml')).map((e) => pathToFileURL(path.join(root, e.file)).href)]);
    for (const uri of uris) if (uri.endsWith('.py')) program.findings(uri);
    const findings = [...uris].flatMap((uri) => (program.analysis(uri)?.findings ?? []).map((f) => ({ ...f, file: path.relative(root, new URL(uri).pathname) })));
    const config = program.configFindings().flatMap((c) => c.findings);
    const first = section.examples.find((e) => e.lang === 'python')!;
    const uri = pathToFileURL(path.join(root, first.file)).href;
    // The main file's fixes are applied to its text here (the project is removed below).
    return { findings, config, main: { file: first.file, uri, text: first.code, program } };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const shown = (fs_: (Finding & { file?: string })[]) => fs_.map((f) => `${f.file ?? ''}:${f.range.start.line + 1} [${f.rule}] ${f.message}`);

before(async () => {
  await initParser();
});

describe('rule documentation pages', () => {
  const rules = ruleCatalog();

  it('every rule has a page, and every page a rule', () => {
    const pages = fs.readdirSync(DIR).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3)).sort();
    assert.deepEqual(rules.map((r) => r.id).filter((id) => !pages.includes(id)), [], 'rules without a page');
    assert.deepEqual(pages.filter((id) => !rules.some((r) => r.id === id)), [], 'pages without a rule');
  });

  it("the README's rule table links every rule's page", () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
    assert.deepEqual(rules.map((r) => r.id).filter((id) => !readme.includes(`[${id}](docs/rules/${id}.md)`)), []);
  });

  it('the pages ship in the extension package', () => {
    const ignore = fs.readFileSync(path.join(__dirname, '..', '..', '.vscodeignore'), 'utf8').split('\n');
    assert.ok(ignore.includes('!docs/rules/**'), '.vscodeignore keeps docs/rules');
  });

  for (const rule of rules) {
    it(`${rule.id}: the page's examples agree with the checker`, () => {
      const file = path.join(DIR, `${rule.id}.md`);
      if (!fs.existsSync(file)) return; // reported by the test above
      const page = readPage(fs.readFileSync(file, 'utf8'));
      assert.match(page.title, new RegExp(`^# ${rule.id}: \\S`), 'the title names the rule');
      assert.equal(page.header.severity, rule.severity, 'the header states the default severity');
      assert.equal(page.header.fix, rule.fixable ? 'yes' : 'no', 'the header states whether it has a fix');
      for (const name of ['What it checks', 'Bad', 'Good', 'Fix']) assert.ok(page.sections.has(name), `the page has a "${name}" section`);
      assert.ok([...page.sections.keys()].some((k) => k.startsWith('Why')), 'the page says why');

      const bad = analyse(page.sections.get('Bad')!);
      const of = (r: ReturnType<typeof analyse>) => [...r.findings, ...r.config].filter((f) => f.rule === rule.id);
      assert.ok(of(bad).length > 0, `the Bad example produces ${rule.id}; it produced ${JSON.stringify(shown(bad.findings))}`);

      // A message the page quotes is one the Bad example produces, word for word.
      const quoted = /^Message: `(.+)`$/m.exec(page.preamble)?.[1];
      if (quoted) assert.ok(of(bad).some((f) => f.message === quoted), `the Bad example's message is the one quoted: ${JSON.stringify(of(bad).map((f) => f.message))}`);

      const good = analyse(page.sections.get('Good')!);
      assert.deepEqual(shown(of(good)), [], `the Good example does not produce ${rule.id}`);
      assert.deepEqual(shown([...good.findings, ...good.config].filter((f) => f.severity === 'error')), [], 'the Good example has no error');

      const fix = page.sections.get('Fix')!;
      if (!rule.fixable) {
        assert.match(fix.text.trim(), /^No safe fix/, 'a rule without a fix says so');
        return;
      }
      // The Bad example's main file after this rule's fixes, applied as an LSP client applies them.
      const expected = fix.examples.find((e) => e.lang === 'python');
      assert.ok(expected, 'the Fix section shows the Bad example after the fix');
      const mine = bad.findings.filter((f) => f.rule === rule.id && f.file === bad.main.file);
      const edits = compatibleFixes(mine, new SourceText(bad.main.text)).flatMap((f) => f.fix.edits);
      assert.ok(edits.length, `the Bad example's ${rule.id} finding has a fix`);
      assert.equal(TextDocument.applyEdits(TextDocument.create(bad.main.uri, 'python', 1, bad.main.text), edits), expected.code);
    });
  }
});
