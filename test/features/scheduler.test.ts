// Document jobs when two parser faults in a row leave no runtime for a moment (the spare is still being
// made): a job that meets no runtime runs again once one is ready, so its diagnostics arrive and nothing
// is logged as a failed analysis.
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { before, describe, it } from 'node:test';
import { Emitter } from 'vscode-languageserver/node';
import { generateExtension } from '../../bench/generate';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { Scheduler } from '../../server/src/features/scheduler';
import { initParser, injectParserFault, parserFaults } from '../../server/src/parse/parser';
import { Program } from '../../server/src/workspace/program';

before(async () => {
  await initParser();
});

const VALID = 'import blockether.vis.extension as vis\n\n\ndef hello(name: str) -> str:\n    """Say hello."""\n    return name\n\n\nvis.register_extension(vis.Extension(name="hi", description="d", alias="hi", symbols=[vis.Symbol(hello)]))\n';
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

/** A document opened in a scheduler of its own and analysed (version 1); `change` sends its next version. */
async function openAnalysed(uri: string, text: string) {
  let scheduler!: Scheduler;
  const program = new Program({ open: (u) => scheduler.shown(u) });
  scheduler = new Scheduler({ programOf: () => program, textOf: (d) => d.getText(), log: () => undefined });
  const opened = new Emitter<{ document: TextDocument }>();
  const changed = new Emitter<{ document: TextDocument }>();
  const none = new Emitter<{ document: TextDocument }>();
  scheduler.listen({ onDidOpen: opened.event, onDidChangeContent: changed.event, onDidClose: none.event } as never);
  let version = 1;
  const analysed: number[] = [];
  scheduler.onAnalysed(() => analysed.push(version));
  opened.fire({ document: TextDocument.create(uri, 'python', version, text) });
  for (let i = 0; i < 100 && !analysed.length; i++) await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(analysed, [1]);
  const change = (next: string) => changed.fire({ document: TextDocument.create(uri, 'python', ++version, next) });
  return { program, scheduler, analysed, change };
}

describe('requests while a version is analysed in slices', () => {
  it('answer from the last finished analysis until the job of the current version is done, and never run its rules themselves', async () => {
    const uri = 'file:///tmp/sched/large.py';
    const { program, scheduler, analysed, change } = await openAnalysed(uri, BROKEN);
    assert.equal(scheduler.pendingAnswer(uri), undefined, 'version 1 is analysed: requests ask the program');
    // Version 2: a file of ~700 tools, analysed in many slices. After every slice (a turn of the event loop)
    // a request asks what to answer from, as the server's providers do.
    change(generateExtension(700, 21000));
    const runs = program.stats.ruleRuns;
    const seen: string[] = [];
    while (!analysed.includes(2)) {
      const pending = scheduler.pendingAnswer(uri);
      const a = pending ? pending.analysis : program.analysis(uri);
      seen.push(`${pending ? 'pending' : 'current'} v${a?.version} ${[...new Set(a?.findings.map((f) => f.rule))].join(',')}`);
      await new Promise((r) => setImmediate(r));
    }
    const distinct = [...new Set(seen)];
    assert.deepEqual(distinct, ['pending v1 EXT-003'], `${seen.length} answers while version 2 was analysed`);
    assert.ok(seen.length > 5, `the job took ${seen.length} turns`);
    // Its rules ran once, in the job; the answers after it come from there.
    assert.equal(program.stats.ruleRuns, runs + 1);
    assert.equal(scheduler.pendingAnswer(uri), undefined);
    assert.equal(program.analysis(uri)!.version, 2);
    assert.equal(program.stats.ruleRuns, runs + 1);
  });
});

describe('the Symbol analysis requests read while a version is analysed', () => {
  it('is the one of the last finished analysis, kept with it: no request runs the join of the version in progress', async () => {
    const uri = 'file:///tmp/sched/symbols.py';
    const { program, scheduler, analysed, change } = await openAnalysed(uri, VALID);
    const joins = program.stats.symbolAnalyses;
    change(generateExtension(400, 12000));
    const seen = new Set<string>();
    let turns = 0;
    for (; !analysed.includes(2); turns++) {
      const pending = scheduler.pendingAnswer(uri);
      if (pending) seen.add(`v${pending.analysis?.version}: ${pending.symbols.map((i) => i.tools.map((t) => t.name).join(',')).join(' ')}`);
      await new Promise((r) => setImmediate(r));
    }
    assert.deepEqual([...seen], ['v1: hello']);
    assert.ok(turns > 5, `the job took ${turns} turns`);
    // One join for version 2: the job's.
    assert.equal(program.stats.symbolAnalyses, joins + 1);
    assert.equal(program.symbols(uri).flatMap((i) => i.tools).length, 400);
  });
});

describe('the G1 tools requests read while a version is analysed', () => {
  it('are computed in the job and, while the next version is analysed, those of the last finished analysis', async () => {
    const g1 = (tools: number) =>
      'import vis\n\n\n' +
      Array.from({ length: tools }, (_, i) => `def tool_${i}(n: int = ${i}) -> int:\n    """Tool ${i}."""\n    return n\n\n\n`).join('') +
      `vis.extension(name="g", description="d", alias="g", symbols=[${Array.from({ length: tools }, (_, i) => `vis.symbol(tool_${i})`).join(', ')}])\n`;
    const uri = 'file:///tmp/sched/g1.py';
    const { program, scheduler, analysed, change } = await openAnalysed(uri, g1(2));
    change(g1(600));
    const seen = new Set<string>();
    let turns = 0;
    for (; !analysed.includes(2); turns++) {
      const pending = scheduler.pendingAnswer(uri);
      if (pending) seen.add(`v${pending.analysis?.version}: ${pending.g1.map((t) => t.contract?.sandbox_name).join(',')}`);
      await new Promise((r) => setImmediate(r));
    }
    assert.deepEqual([...seen], ['v1: g_tool_0,g_tool_1']);
    assert.ok(turns > 5, `the job took ${turns} turns`);
    // The job computed version 2's: the next version's requests answer from them meanwhile.
    const done = program.g1Tools(uri);
    assert.equal(done.length, 600);
    change(g1(500));
    assert.equal(scheduler.pendingAnswer(uri)?.g1, done);
  });
});

describe('documents that come and go', () => {
  it('leave nothing behind once closed when no file is behind them: the heap stays bounded over 150 open/close cycles', async () => {
    // A real collection between measurements (the flag set at run time, `gc` taken from a fresh context).
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    let scheduler!: Scheduler;
    const program = new Program({ root: '/tmp/sched-ws', open: (uri) => scheduler.shown(uri) });
    scheduler = new Scheduler({ programOf: () => program, textOf: (d) => d.getText(), log: () => undefined });
    const opened = new Emitter<{ document: TextDocument }>();
    const closed = new Emitter<{ document: TextDocument }>();
    const none = new Emitter<{ document: TextDocument }>();
    scheduler.listen({ onDidOpen: opened.event, onDidChangeContent: none.event, onDidClose: closed.event } as never);
    closed.event((e) => program.closed(e.document.uri));
    const done = new Set<string>();
    scheduler.onAnalysed((e) => done.add(e.uri));
    const text = generateExtension(10, 300);
    const heap: number[] = [];
    for (let i = 0; i < 150; i++) {
      const uri = i % 2 ? `untitled:Untitled-${i}` : `file:///tmp/sched-ws/.vis/extensions/unsaved_${i}.py`;
      const doc = TextDocument.create(uri, 'python', 1, text.replace('ALIAS = "bench"', `ALIAS = "b${i}"`));
      opened.fire({ document: doc });
      while (!done.has(uri)) await new Promise((r) => setImmediate(r));
      assert.equal(program.analysis(uri)!.findings.filter((f) => f.severity === 'error').length, 0);
      closed.fire({ document: doc });
      if (i === 29 || i === 149) {
        gc();
        heap.push(process.memoryUsage().heapUsed / 1048576);
      }
    }
    // About 180 KB a document was kept before: 22 MB over these 120.
    assert.ok(heap[1] - heap[0] < 4, `heap after 30 and 150 documents: ${heap.map((x) => x.toFixed(1)).join(' MB, ')} MB`);
  });
});

describe('a slice shorter than any step', () => {
  it('still ends every job: a slice that finishes nothing is followed by a longer one, and the findings are those of an unsliced analysis', async () => {
    let scheduler!: Scheduler;
    const program = new Program({ open: (u) => scheduler.shown(u) });
    const slices = new Map<string, number>();
    scheduler = new Scheduler({
      programOf: () => program,
      textOf: (d) => d.getText(),
      log: () => undefined,
      sliceMs: 0,
      trace: (m) => {
        const what = m.split(' ')[1];
        slices.set(what, (slices.get(what) ?? 0) + 1);
      },
    });
    const opened = new Emitter<{ document: TextDocument }>();
    const changed = new Emitter<{ document: TextDocument }>();
    const none = new Emitter<{ document: TextDocument }>();
    scheduler.listen({ onDidOpen: opened.event, onDidChangeContent: changed.event, onDidClose: none.event } as never);
    const done: string[] = [];
    scheduler.onAnalysed((e) => done.push(`${e.uri} ${e.first ? 'first' : 'next'}`));
    const texts = { 'file:///tmp/tiny/valid.py': VALID, 'file:///tmp/tiny/broken.py': BROKEN, 'file:///tmp/tiny/many.py': generateExtension(20, 600) };
    for (const [uri, text] of Object.entries(texts)) opened.fire({ document: TextDocument.create(uri, 'python', 1, text) });
    for (let i = 0; i < 1000 && done.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
    // An edit of an analysed document: its job starts from the last version's segments.
    changed.fire({ document: TextDocument.create('file:///tmp/tiny/valid.py', 'python', 2, VALID.replace('name="hi"', 'name=""')) });
    for (let i = 0; i < 1000 && done.length < 4; i++) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(done.sort(), ['file:///tmp/tiny/broken.py first', 'file:///tmp/tiny/many.py first', 'file:///tmp/tiny/valid.py first', 'file:///tmp/tiny/valid.py next']);
    for (const uri of Object.keys(texts)) assert.ok((slices.get(uri) ?? 0) > 1, `${uri} took ${slices.get(uri)} slices`);
    const rules = (p: Program, uri: string) => p.analysis(uri)!.findings.map((f) => `${f.rule} ${f.range.start.line}:${f.range.start.character}`);
    const now = { ...texts, 'file:///tmp/tiny/valid.py': VALID.replace('name="hi"', 'name=""') };
    for (const [uri, text] of Object.entries(now)) {
      const unsliced = new Program({ open: (u) => (u === uri ? { version: 1, text, uri } : undefined) });
      assert.deepEqual(rules(program, uri), rules(unsliced, uri), uri);
    }
    assert.ok(rules(program, 'file:///tmp/tiny/valid.py').includes('EXT-003 8:42'));
  });
});
