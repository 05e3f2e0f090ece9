// python3 as the oracle: what CPython's compile() says of sources (the tests need python3, as CI has it).
import { spawnSync } from 'node:child_process';

export interface PythonError {
  type: string;
  msg: string;
  /** 1-based, as Python gives them. */
  line: number;
  col: number;
}

const SCRIPT = String.raw`
import json, sys, warnings
warnings.simplefilter("ignore")
out = []
for src in json.load(sys.stdin):
    try:
        compile(src, "extension.py", "exec")
        out.append(None)
    except SyntaxError as e:
        out.append({"type": type(e).__name__, "msg": e.msg, "line": e.lineno, "col": e.offset})
print(json.dumps(out))
`;

/** CPython's first SyntaxError for each source (null when it compiles), from one python3 process. */
export function compileErrors(sources: string[]): (PythonError | null)[] {
  const r = spawnSync('python3', ['-c', SCRIPT], { input: JSON.stringify(sources), encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.error) throw new Error(`python3 is needed for this test: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`python3 failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as (PythonError | null)[];
}

/** The version of that python3, e.g. `3.11.7`. */
export function pythonVersion(): string {
  const r = spawnSync('python3', ['-c', 'import platform; print(platform.python_version())'], { encoding: 'utf8' });
  return r.stdout.trim();
}
