// The short run of the fuzz suite inside `npm test`: every target, its quick count of cases, the
// fixed seed. `npm run fuzz` runs the full counts (3,000 databases, 3,000 blobs, 200 gateways,
// 10,000 documents over LSP).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const ROOT = path.join(__dirname, '..');

describe('fuzz suite, short run', () => {
  it('corrupt databases, mutated blobs, misbehaving gateways and LSP clients: no escape, hang, crash, slow case or memory finding', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'fuzz/run.ts', '--quick', '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
    const line = r.stdout.split('\n').find((l) => l.startsWith('FUZZ-SUMMARY '));
    assert.ok(line, `no summary:\n${r.stdout}\n${r.stderr}`);
    const summary = JSON.parse(line.slice('FUZZ-SUMMARY '.length)) as { target: string; cases: number; planned: number; findings: number; outcomes: Record<string, number>; metrics: { sum: Record<string, number>; max: Record<string, number> } }[];
    assert.deepEqual(summary.map((s) => s.target), ['blob', 'db', 'gateway', 'lsp']);
    for (const s of summary) {
      assert.equal(s.findings, 0, `${s.target}:\n${r.stdout}`);
      assert.equal(s.cases, s.planned, `${s.target} ran every case`);
      assert.ok(s.planned >= 8);
    }
    // The mutations reach both sides: inputs that decode and inputs that are refused with a reason.
    const db = summary.find((s) => s.target === 'db')!.outcomes;
    assert.ok((db['state read'] ?? 0) > 0 && Object.keys(db).some((k) => k.startsWith('file refused')), JSON.stringify(db));
    const blob = summary.find((s) => s.target === 'blob')!.outcomes;
    assert.ok((blob.value ?? 0) > 0 && Object.keys(blob).some((k) => k.startsWith('reason')), JSON.stringify(blob));
    // Over LSP: mutated files and malformed messages both, hundreds of requests, each answered within 1 s.
    const lsp = summary.find((s) => s.target === 'lsp')!;
    assert.ok((lsp.outcomes['mutated file'] ?? 0) > 0 && (lsp.outcomes['malformed JSON-RPC'] ?? 0) > 0, JSON.stringify(lsp.outcomes));
    assert.ok(lsp.metrics.sum.requests > 300, JSON.stringify(lsp.metrics));
    assert.equal(lsp.metrics.sum.restarts, 0);
    assert.ok(lsp.metrics.max.slowestAnswerMs < 1000, JSON.stringify(lsp.metrics));
    assert.equal(r.status, 0, r.stdout);
  });
});
