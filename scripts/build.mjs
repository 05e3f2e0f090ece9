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
  build({ ...common, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js' }),
  build({ ...common, entryPoints: ['server/src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node\n' + common.banner.js } }),
]);
fs.chmodSync(path.join(dist, 'cli.js'), 0o755);

// The parser runtime and the Python grammar: platform-neutral WASM, loaded from dist/ at run time.
const wasm = [
  [path.join(path.dirname(require.resolve('web-tree-sitter')), 'web-tree-sitter.wasm'), 'web-tree-sitter.wasm'],
  [require.resolve('tree-sitter-python/tree-sitter-python.wasm'), 'tree-sitter-python.wasm'],
];
for (const [from, to] of wasm) fs.copyFileSync(from, path.join(dist, to));
