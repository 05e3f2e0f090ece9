// One esbuild script for the whole product: the VS Code client, the language server and the CLI,
// each bundled into dist/ with the tree-sitter WASM files copied beside them.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const production = process.argv.includes('--production');
const dist = path.join(root, 'dist');
fs.mkdirSync(dist, { recursive: true });

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  absWorkingDir: root,
  // web-tree-sitter's ESM build reads import.meta.url, which a CJS bundle lacks.
  define: { 'import.meta.url': '__importMetaUrl' },
  banner: { js: "const __importMetaUrl = require('url').pathToFileURL(__filename).href;" },
};

await Promise.all([
  build({ ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] }),
  // dist/server.js starts dist/server-main.js from V8's code cache (server/src/launch.ts).
  build({ ...common, entryPoints: ['server/src/launch.ts'], outfile: 'dist/server.js', banner: {} }),
  build({ ...common, entryPoints: ['server/src/server.ts'], outfile: 'dist/server-main.js' }),
  build({ ...common, entryPoints: ['server/src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node\n' + common.banner.js } }),
]);
fs.chmodSync(path.join(dist, 'cli.js'), 0o755);

// The parser runtime and the Python grammar: platform-neutral WASM, loaded from dist/ at run time.
// The runtime's JavaScript stays a file of its own (not bundled) so that the server can evaluate it
// afresh, with a new WebAssembly memory, after a fault (server/src/parse/parser.ts).
const wasm = [
  [require.resolve('web-tree-sitter'), 'web-tree-sitter.cjs'],
  [path.join(path.dirname(require.resolve('web-tree-sitter')), 'web-tree-sitter.wasm'), 'web-tree-sitter.wasm'],
  [require.resolve('tree-sitter-python/tree-sitter-python.wasm'), 'tree-sitter-python.wasm'],
];
for (const [from, to] of wasm) fs.copyFileSync(from, path.join(dist, to));

// The o200k_base token table (2.3 MB), read by the server only when a docs preview first needs it.
const { pat_str, bpe_ranks } = require('js-tiktoken/ranks/o200k_base');
fs.writeFileSync(path.join(dist, 'o200k_base.json'), JSON.stringify({ pat_str, bpe_ranks }));
