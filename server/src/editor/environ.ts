// The environment variables a module reads (`os.environ["X"]`, `os.environ.get("X")`, `os.getenv("X")`,
// `environ[...]`/`getenv(...)` imported from os, `vis.host_env("X")`), in the order first read: what
// `env=[...]` of the extension should declare. Read from the text, comments left out; names only, nothing run.
const READS = /(?:\b(?:os\.)?environ\s*(?:\[|\.get\s*\(|\.setdefault\s*\(|\.pop\s*\()|\b(?:os\.)?getenv\s*\(|\bhost_env\s*\()\s*(['"])([A-Za-z_][A-Za-z0-9_]*)\1/g;

let last: { text: string; names: string[] } | undefined;

export function envNamesRead(text: string): string[] {
  if (last?.text === text) return last.names;
  const names: string[] = [];
  for (const line of text.split('\n')) {
    const code = line.trimStart().startsWith('#') ? '' : line;
    for (const m of code.matchAll(READS)) if (!names.includes(m[2])) names.push(m[2]);
  }
  last = { text, names };
  return names;
}
