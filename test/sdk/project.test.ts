// The SDK profile through the workspace program, on a packaged extension on disk: the entry's
// pyproject.toml and uv.lock pins decide the SDK version of the entry and of the modules it imports.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { initParser } from '../../server/src/parse/parser';
import { describeProfile } from '../../server/src/sdk';
import { Program } from '../../server/src/workspace/program';
import { NOTES, project, type Project } from '../helpers/project';

before(async () => {
  await initParser();
});

const projects: Project[] = [];
after(() => projects.forEach((p) => p.remove()));

describe('SDK profile in the workspace program', () => {
  it('a package pinned to G3 in pyproject.toml that calls vis.register gets REG-003; its modules share the pinned version', () => {
    const files = { ...NOTES.files, [NOTES.entry]: NOTES.files[NOTES.entry].replace('vis.register_extension(', 'vis.register(') };
    const p = project(files);
    projects.push(p);
    const program = new Program({ root: p.root });
    const entry = program.analysis(p.uri(NOTES.entry))!;
    assert.deepEqual(
      entry.findings.filter((f) => f.rule.startsWith('REG') || f.rule.startsWith('SDK')).map((f) => `${f.rule}@${f.range.start.line}:${f.range.start.character} ${f.message}`),
      [`REG-003@${p.line(NOTES.entry, 'vis.register(')}:0 module 'blockether.vis.extension' has no attribute 'register'`],
    );
    assert.equal(entry.model.generation, 'G3');
    assert.deepEqual(describeProfile(entry.model.sdk!)?.decidedBy, [`vis-agent==0.2.47 (${p.file('.vis/extensions/notes/uv.lock')}, line 11)`, `vis-agent>=0.2.45 (${p.file(NOTES.pyproject)}, line 5)`]);
    const tools = program.analysis(p.uri(NOTES.tools))!;
    assert.equal(tools.model.generation, 'G3');
    assert.equal(tools.model.generationAssumed, false, 'the entry\'s pins decide the helper module too');
  });

  it('a package locked to a G2 version: register_extension is the AttributeError', () => {
    const lock = (NOTES.files as Record<string, string>)['.vis/extensions/notes/uv.lock'].replace('0.2.47', '0.1.45');
    const pyproject = NOTES.files[NOTES.pyproject].replace('vis-agent>=0.2.45', 'vis-agent>=0.1.45');
    const p = project({ ...NOTES.files, [NOTES.pyproject]: pyproject, '.vis/extensions/notes/uv.lock': lock });
    projects.push(p);
    const program = new Program({ root: p.root });
    const entry = program.analysis(p.uri(NOTES.entry))!;
    assert.deepEqual(
      entry.findings.filter((f) => f.rule === 'REG-003').map((f) => f.message),
      ["module 'blockether.vis.extension' has no attribute 'register_extension'"],
    );
    assert.equal(entry.model.generation, 'G2');
  });
});
