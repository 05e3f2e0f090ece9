// The test entry of `npm run test:vscode` (@vscode/test-electron's extensionTestsPath). The harness
// extension runs the checks when it activates, as it does under code-server, and writes VIS_E2E_RESULT;
// this waits for that file and fails the run, with every failed check, unless all passed.
import * as fs from 'node:fs';
import type { HarnessResult } from './harness';

export async function run(): Promise<void> {
  const out = process.env.VIS_E2E_RESULT;
  if (!out) throw new Error('VIS_E2E_RESULT is not set (run it with npm run test:vscode)');
  const deadline = Date.now() + Number(process.env.VIS_E2E_TIMEOUT || 180000);
  while (!fs.existsSync(out)) {
    if (Date.now() > deadline) throw new Error(`the harness wrote no result to ${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const result = JSON.parse(fs.readFileSync(out, 'utf8')) as HarnessResult;
  for (const c of result.checks) console.log(`${c.ok ? 'PASS' : c.soft ? 'SOFT-FAIL' : 'FAIL'} ${c.name} (${c.ms} ms)${c.ok ? '' : `\n     ${(c.error ?? '').split('\n').slice(0, 8).join('\n     ')}`}`);
  const failed = result.checks.filter((c) => !c.ok && !c.soft);
  console.log(`vscode: ${result.checks.length - failed.length} passed, ${failed.length} failed`);
  if (!result.ok) throw new Error(result.error ?? `${failed.length} check(s) failed: ${failed.map((c) => c.name).join('; ')}`);
}
