// The bundled server (dist/server.js) over stdio, as an editor drives it, each figure beside a baseline
// measured in the same run:
// - publishDiagnostics per document version: 500 opened files, 50 edits each awaited, a burst of 10;
// - a hover on a small document while a 1.9 MB document is analysed (in slices), against the same hover
//   with nothing else going on; the same while a poison document (300 nested blocks, 2 MB) is open;
// - previewDocs on a docstring of 30,000 identical characters against the preview of a small extension,
//   and a hover sent right after it against the hover alone;
// - why slices and not a worker: the model of a 0.9 MB file handed to another thread (structured clone,
//   which reads every lazily read part) against analysing it, and the longest the event loop waited
//   while it was analysed in slices against analysing it at once.
import { generateExtension } from './generate';
import { median } from './stats';
import { startServer, type TestServer } from '../test/helpers/lsp';
import { initParser } from '../server/src/parse/parser';
import { Program } from '../server/src/workspace/program';
import { betweenSteps, runInSlices } from '../server/src/slices';

const SMALL = 'import blockether.vis.extension as vis\n\n\ndef hello(name: str) -> str:\n    """Say hello."""\n    return name\n\n\nvis.register_extension(vis.Extension(name="hi", description="d", alias="hi", symbols=[vis.Symbol(hello)]))\n';
const BROKEN = SMALL.replace('name="hi"', 'name=""');
const HOVER_AT = { line: 3, character: 5 };

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const row = (name: string, value: string, baseline: string, ratio: number, target = '') => console.log(`| ${name} | ${value} | ${baseline} | ${ratio.toFixed(2)} | ${target} |`);

async function settled(server: TestServer, quietMs = 300): Promise<void> {
  for (let seen = -1; seen !== server.published.length; ) {
    seen = server.published.length;
    await new Promise((r) => setTimeout(r, quietMs));
  }
}

async function hoverMs(server: TestServer, uri: string): Promise<number> {
  const t = performance.now();
  await server.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: HOVER_AT });
  return performance.now() - t;
}

/** Hovers on `uri` every 20 ms until `done` resolves; their latencies. */
async function hoversDuring(server: TestServer, uri: string, done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  void done.then(() => (finished = true));
  const out: number[] = [];
  while (!finished) {
    out.push(await hoverMs(server, uri));
    await new Promise((r) => setTimeout(r, 20));
  }
  return out;
}

async function publishes(): Promise<void> {
  const server = await startServer();
  try {
    const uris = Array.from({ length: 500 }, (_, i) => `file:///tmp/vis-bench/open/m${i}.py`);
    uris.forEach((u, i) => server.open(u, i % 2 ? SMALL : BROKEN));
    const deadline = Date.now() + 60_000;
    while (new Set(server.published.map((x) => x.uri)).size < uris.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await settled(server);
    const opened = server.published.length;
    const edited = 'file:///tmp/vis-bench/edited.py';
    server.open(edited, BROKEN);
    await settled(server);
    const before = server.published.length;
    for (let v = 2; v <= 51; v++) {
      const next = server.diagnostics(edited, (p) => p.version === v);
      server.change(edited, v % 2 ? BROKEN : SMALL, v);
      await next;
    }
    await settled(server);
    const edits = server.published.length - before;
    const burstStart = server.published.length;
    for (let v = 52; v <= 61; v++) server.change(edited, v % 2 ? BROKEN : SMALL, v);
    await settled(server);
    const burst = server.published.length - burstStart;
    console.log('| publishDiagnostics over stdio | sent | versions (baseline) | ratio | target |');
    console.log('|---|---|---|---|---|');
    row('500 files opened', String(opened), '500', opened / 500, '1.00');
    row('50 edits, each awaited', String(edits), '50', edits / 50, '1.00');
    row('a burst of 10 edits (only the last is current)', String(burst), '1', burst, '1.00');
  } finally {
    await server.stop();
  }
}

async function responsiveness(): Promise<void> {
  const server = await startServer();
  try {
    const small = 'file:///tmp/vis-bench/small.py';
    const p = server.diagnostics(small);
    server.open(small, SMALL);
    await p;
    // The token table loads in the background after the first analysis: loaded before measuring.
    await server.connection.sendRequest('visAuthoring/previewDocs', { uri: small });
    const alone: number[] = [];
    for (let i = 0; i < 40; i++) alone.push(await hoverMs(server, small));

    const big = generateExtension(1500, 48_000);
    const bigUri = 'file:///tmp/vis-bench/big.py';
    const bigDone = server.diagnostics(bigUri);
    const t0 = performance.now();
    server.open(bigUri, big);
    const during = await hoversDuring(server, small, bigDone);
    const analysed = performance.now() - t0;
    // An edit: the newer version is analysed in slices too (incrementally).
    const v2 = server.diagnostics(bigUri, (x) => x.version === 2);
    server.change(bigUri, big.replace('total = 7', 'total = 77'), 2);
    const duringEdit = await hoversDuring(server, small, v2);

    // A poison document: 300 nested blocks in 2 MB (over Python's limits: refused before parsing).
    const poison = 'import blockether.vis.extension as vis\n' + Array.from({ length: 300 }, (_, i) => `${'  '.repeat(i)}if x:\n`).join('') + `${'  '.repeat(300)}pass\n` + '# padding\n'.repeat(190_000);
    const poisonUri = 'file:///tmp/vis-bench/poison.py';
    const poisonDone = server.diagnostics(poisonUri);
    server.open(poisonUri, poison);
    const afterPoison = [await hoverMs(server, small)];
    await poisonDone;
    for (let i = 0; i < 19; i++) afterPoison.push(await hoverMs(server, small));

    const base = median(alone);
    console.log(`\nA hover on a small document (baseline: the same hover with nothing else going on, median ${base.toFixed(1)} ms, p95 ${pct(alone, 0.95).toFixed(1)} ms).`);
    console.log('| while | hovers | p50 ms | p95 ms | max ms | p50 / baseline | target |');
    console.log('|---|---|---|---|---|---|---|');
    const line = (what: string, xs: number[], target: string) => console.log(`| ${what} | ${xs.length} | ${median(xs).toFixed(1)} | ${pct(xs, 0.95).toFixed(1)} | ${Math.max(...xs).toFixed(1)} | ${(median(xs) / base).toFixed(2)} | ${target} |`);
    line(`a 1.9 MB document (1,500 tools) opens (analysed in ${(analysed / 1000).toFixed(1)} s)`, during, 'max ≤ 100 ms');
    line('that document is edited (incremental, in slices)', duringEdit, 'max ≤ 100 ms');
    line('a 2 MB poison document (300 nested blocks) was just opened', afterPoison, 'max ≤ 100 ms');
  } finally {
    await server.stop();
  }
}

async function previews(): Promise<void> {
  const server = await startServer();
  try {
    const small = 'file:///tmp/vis-bench/p-small.py';
    const same = 'file:///tmp/vis-bench/p-same.py';
    const other = 'file:///tmp/vis-bench/p-other.py';
    for (const [u, t] of [[small, SMALL], [same, SMALL.replace('"""Say hello."""', `"""${'a'.repeat(30_000)}"""`)], [other, SMALL]] as const) {
      const p = server.diagnostics(u);
      server.open(u, t);
      await p;
    }
    // The first preview of a session waits for the token table: not what is measured here.
    await server.connection.sendRequest('visAuthoring/previewDocs', { uri: small });
    const preview = async (uri: string) => {
      const t = performance.now();
      await server.connection.sendRequest('visAuthoring/previewDocs', { uri });
      return performance.now() - t;
    };
    const base: number[] = [];
    const heavy: number[] = [];
    const hoverAlone: number[] = [];
    const hoverBehind: number[] = [];
    for (let i = 0; i < 15; i++) {
      base.push(await preview(small));
      // A new text each time, so that no count is cached: one character differs.
      const v = i + 2;
      const p = server.diagnostics(same, (x) => x.version === v);
      server.change(same, SMALL.replace('"""Say hello."""', `"""${String.fromCharCode(97 + (i % 26)).repeat(30_000)}${i}"""`), v);
      await p;
      const t = performance.now();
      const sent = preview(same);
      const h = hoverMs(server, other);
      const [pMs, hMs] = await Promise.all([sent, h]);
      heavy.push(pMs);
      hoverBehind.push(hMs);
      void t;
      hoverAlone.push(await hoverMs(server, other));
    }
    console.log('\n| previewDocs | median ms | baseline | baseline ms | ratio | target |');
    console.log('|---|---|---|---|---|---|');
    console.log(`| docstring of 30,000 identical characters | ${median(heavy).toFixed(1)} | preview of a small extension | ${median(base).toFixed(1)} | ${(median(heavy) / median(base)).toFixed(2)} | ≤ 200 ms |`);
    console.log(`| a hover sent right after it (max ${Math.max(...hoverBehind).toFixed(1)} ms) | ${median(hoverBehind).toFixed(1)} | the hover alone | ${median(hoverAlone).toFixed(1)} | ${(median(hoverBehind) / median(hoverAlone)).toFixed(2)} | not behind it |`);
  } finally {
    await server.stop();
  }
}

async function slicesOrWorker(): Promise<void> {
  await initParser();
  const text = generateExtension(1000, 25_000);
  const uri = 'file:///tmp/vis-bench/worker.py';
  const analyse = () => {
    const p = new Program({ open: (u) => (u === uri ? { version: 1, text } : undefined) });
    const t = performance.now();
    p.analysis(uri);
    return { p, ms: performance.now() - t };
  };
  analyse();
  const { p, ms: at } = analyse();
  const model = p.module(uri)!.model;
  let t = performance.now();
  const cloned = structuredClone(model);
  const clone = performance.now() - t;
  void cloned;
  // Sliced: the longest the event loop waited, against the whole analysis at once.
  const gaps: number[] = [];
  let last = performance.now();
  let done = false;
  const tick = () => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
    if (!done) setImmediate(tick);
  };
  setImmediate(tick);
  const q = new Program({ open: (u) => (u === uri ? { version: 1, text } : undefined) });
  t = performance.now();
  await runInSlices(uri, () => {
    q.module(uri);
    betweenSteps();
    q.symbols(uri);
    betweenSteps();
    q.analysis(uri);
  });
  const sliced = performance.now() - t;
  done = true;
  console.log(`\nSlices or a worker (a ${(text.length / 1e6).toFixed(2)} MB file, 1,000 tools; see CONTRIBUTING.md, Architecture).`);
  console.log('| measurement | ms | baseline | baseline ms | ratio |');
  console.log('|---|---|---|---|---|');
  console.log(`| hand its model to another thread (structured clone) | ${clone.toFixed(0)} | analyse it | ${at.toFixed(0)} | ${(clone / at).toFixed(2)} |`);
  console.log(`| longest event-loop wait while analysed in slices | ${Math.max(...gaps).toFixed(0)} | analysed at once | ${at.toFixed(0)} | ${(Math.max(...gaps) / at).toFixed(2)} |`);
  console.log(`| the sliced analysis in all | ${sliced.toFixed(0)} | analysed at once | ${at.toFixed(0)} | ${(sliced / at).toFixed(2)} |`);
}

export default async function run(): Promise<void> {
  await publishes();
  await responsiveness();
  await previews();
  await slicesOrWorker();
}
