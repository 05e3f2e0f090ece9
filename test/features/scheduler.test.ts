// Document jobs when two parser faults in a row leave no runtime for a moment (the spare is still being
// made): a job that meets no runtime runs again once one is ready, so its diagnostics arrive and nothing
// is logged as a failed analysis.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Emitter } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { Scheduler } from '../../server/src/features/scheduler';
import { initParser, injectParserFault, parserFaults } from '../../server/src/parse/parser';
import { Program } from '../../server/src/workspace/program';

before(async () => {
  await initParser();
});

const BROKEN = 'import blockether.vis.extension as vis\n\nvis.register_extension(vis.Extension(name="", description="d"))\n';

describe('document jobs and parser faults', () => {
  it('analyses a document again once a runtime is ready when two faults in a row left none', async () => {
    const logs: string[] = [];
    let scheduler!: Scheduler;
    const program = new Program({ open: (uri) => scheduler.shown(uri) });
    scheduler = new Scheduler({ programOf: () => program, textOf: (d) => d.getText(), log: (m) => logs.push(m) });
    const opened = new Emitter<{ document: TextDocument }>();
    const none = new Emitter<{ document: TextDocument }>();
    scheduler.listen({ onDidOpen: opened.event, onDidChangeContent: none.event, onDidClose: none.event } as never);
    const done = new Set<string>();
    scheduler.onAnalysed((e) => done.add(e.uri));
    const faults = parserFaults();
    // The first document faults on the runtime and again on the spare; the second finds no runtime.
    injectParserFault(2);
    opened.fire({ document: TextDocument.create('file:///tmp/sched/poison.py', 'python', 1, BROKEN) });
    opened.fire({ document: TextDocument.create('file:///tmp/sched/next.py', 'python', 1, BROKEN) });
    for (let i = 0; i < 100 && done.size < 2; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(parserFaults(), faults + 2);
    assert.deepEqual([...done].sort(), ['file:///tmp/sched/next.py', 'file:///tmp/sched/poison.py']);
    assert.deepEqual(program.analysis('file:///tmp/sched/next.py')!.findings.map((f) => f.rule), ['EXT-003']);
    assert.deepEqual(logs, []);
  });
});
