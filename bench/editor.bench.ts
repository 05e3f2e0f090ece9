// Completion on the 5,000-line benchmark extension (200 tools): p50/p95 of completion requests at
// positions inside SDK calls, once the version is analysed, and right after a one-character edit (the
// new version's parse and model included, as when typing), next to the full analysis of the same run.
// Target: completion p95 <= 10 ms on an analysed version; after an edit the new version's incremental parse
// and model come first (shown apart). Also signature help and the Outline of a new version.
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeText } from '../server/src/analysis';
import { at } from '../server/src/features/at';
import { completions } from '../server/src/features/completion';
import { defaultSettings, type ServerContext } from '../server/src/features/context';
import { signatureHelp } from '../server/src/features/signatureHelp';
import { initParser } from '../server/src/parse/parser';
import { Program } from '../server/src/workspace/program';
import { generateExtension } from './generate';
import { median } from './stats';

const URI = 'file:///bench/extension.py';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export default async function run(): Promise<void> {
  await initParser();
  const text = generateExtension(200, 5000);
  const fulls: number[] = [];
  for (let i = -2; i < 11; i++) {
    const t = performance.now();
    analyzeText(URI, text);
    if (i >= 0) fulls.push(performance.now() - t);
  }
  const full = median(fulls);

  let doc = TextDocument.create(URI, 'python', 1, text);
  const program = new Program({ open: (u) => (u === URI ? { version: doc.version, text: doc.getText() } : undefined) });
  program.analysis(URI);
  // What the providers read: the open document and its program (no connection needed for these requests).
  const ctx = { documents: { get: () => doc }, settings: defaultSettings(), workspace: { programFor: () => program } } as unknown as ServerContext;

  // Inside the registration, and after `alias=ALIAS,` (the Extension's keywords).
  const lines = text.split('\n');
  const positions = lines.flatMap((l, line) => {
    const i = l.indexOf('vis.Symbol(tool_');
    if (i === -1) return [];
    // In `tag="` where the Symbol has one (its values), else before its `)` (its keywords).
    const tag = l.indexOf('tag="');
    return [{ line, character: tag === -1 ? l.lastIndexOf(')') : tag + 5 }];
  });
  positions.push({ line: lines.findIndex((l) => l.includes('alias=ALIAS,')), character: '    alias=ALIAS,'.length });

  const steady: number[] = [];
  let items = 0;
  for (let i = 0; i < 2000; i++) {
    const p = positions[(i * 37) % positions.length];
    const t = performance.now();
    const a = at(ctx, URI, p);
    const n = a ? completions(a).length : 0;
    if (!n) throw new Error(`no completion items at ${p.line}:${p.character}`);
    items += n;
    steady.push(performance.now() - t);
  }

  // Typing: each request follows a one-character edit inside the registration (a new version, parsed and
  // modelled by the request itself, as in the server, where diagnostics wait for a pause in typing).
  const afterEdit: number[] = [];
  const reparse: number[] = [];
  const editLine = lines.findIndex((l) => l.includes('description="Generated'));
  for (let i = 0; i < 200; i++) {
    const insert = { line: editLine, character: '    description="Generated'.length };
    doc = TextDocument.update(doc, [{ range: { start: insert, end: insert }, text: i % 2 ? '' : 'x' }], doc.version + 1);
    if (i % 2) doc = TextDocument.update(doc, [{ range: { start: insert, end: { ...insert, character: insert.character + 1 } }, text: '' }], doc.version + 1);
    const p = positions[(i * 13) % positions.length];
    const t = performance.now();
    const a = at(ctx, URI, p);
    const t1 = performance.now();
    if (!a || !completions(a).length) throw new Error('no completion after an edit');
    afterEdit.push(performance.now() - t);
    // How much of it is the new version's incremental parse and model (the rest is completion's own).
    reparse.push(t1 - t);
  }

  const signature: number[] = [];
  for (let i = 0; i < 500; i++) {
    const p = positions[(i * 7) % positions.length];
    const t = performance.now();
    const a = at(ctx, URI, p);
    if (!a || !signatureHelp(a)) throw new Error('no signature help');
    signature.push(performance.now() - t);
  }
  // The Outline of a new version: its Symbol analysis included.
  const outline: number[] = [];
  for (let i = 0; i < 20; i++) {
    const insert = { line: editLine, character: '    description="Generated'.length };
    doc = TextDocument.update(doc, [{ range: { start: insert, end: insert }, text: 'y' }], doc.version + 1);
    const t = performance.now();
    if (!program.outline(URI).length) throw new Error('no outline');
    outline.push(performance.now() - t);
  }

  for (const xs of [steady, afterEdit, reparse, signature, outline]) xs.sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(2).padStart(9);
  const p95 = percentile(steady, 95);
  const p95Edit = percentile(afterEdit, 95);
  console.log(`file: ${lines.length} lines, 200 tools; ${positions.length} positions inside SDK calls`);
  console.log('| measurement                                   |        ms | / analysis |');
  console.log('| --------------------------------------------- | --------- | ---------- |');
  console.log(`| analysis (parse + model + rules), median      | ${f(full)} |     1.0000 |`);
  console.log(`| completion p50 (2,000 requests)               | ${f(percentile(steady, 50))} | ${(percentile(steady, 50) / full).toFixed(4).padStart(10)} |`);
  console.log(`| completion p95                                | ${f(p95)} | ${(p95 / full).toFixed(4).padStart(10)} |`);
  console.log(`| completion p95 after a one-character edit     | ${f(p95Edit)} | ${(p95Edit / full).toFixed(4).padStart(10)} |`);
  console.log(`|   of which the new version's parse + model p95 | ${f(percentile(reparse, 95))} | ${(percentile(reparse, 95) / full).toFixed(4).padStart(10)} |`);
  console.log(`| signature help p95                            | ${f(percentile(signature, 95))} | ${(percentile(signature, 95) / full).toFixed(4).padStart(10)} |`);
  console.log(`| outline of a new version, median              | ${f(median(outline))} | ${(median(outline) / full).toFixed(4).padStart(10)} |`);
  console.log(`completion p95 target <= 10 ms (an analysed version): ${p95 <= 10 ? 'met' : 'MISSED'}`);
}
