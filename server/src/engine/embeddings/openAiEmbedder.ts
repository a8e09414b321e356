/**
 * Embeddings from any OpenAI-compatible endpoint: `POST {baseUrl}/embeddings` with
 * `{ model, input: string[] }`, answered by `{ data: [{ index, embedding: number[] }] }`.
 * OpenAI, Ollama (`http://127.0.0.1:11434/v1`), LM Studio (`http://127.0.0.1:1234/v1`) and vLLM
 * all speak it. The dimension is learned from the first response; a later response with another
 * length is an error, never mixed into the index.
 *
 * Batches go one at a time (a local server has one model to share); queries jump the line by
 * simply not waiting for the bulk queue, since HTTP servers interleave requests themselves.
 */
import { abortError } from './abort';
import type { Embedder, ProgressFn } from './embedder';
import type { SimilarityRange } from './localModels';
import { normalizeInPlace } from './vectorMath';

export interface OpenAiEmbedderOptions {
  /** Base URL up to (not including) `/embeddings`, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /** Texts per request. Default 16. */
  batchSize?: number;
  /** Per-request timeout in milliseconds. Default 60,000. */
  timeoutMs?: number;
  /** Input limit in estimated tokens. Default 512. */
  maxInputTokens?: number;
  /** Cosine for unrelated and related texts; default 0 and 1 (see EmbeddingSettings.similarity). */
  similarity?: SimilarityRange;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_INPUT_TOKENS = 512;
/** How much of an error body to quote. */
const BODY_SNIPPET = 300;

export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  readonly maxInputTokens: number;
  readonly similarity: SimilarityRange;
  private readonly url: string;
  private readonly model: string;
  private readonly apiKey?: string;
  private readonly batchSize: number;
  private readonly timeoutMs: number;
  private dim = 0;
  private readonly inFlight = new Set<AbortController>();
  private disposed = false;

  constructor(options: OpenAiEmbedderOptions) {
    const base = options.baseUrl.trim().replace(/\/+$/, '');
    if (!/^https?:\/\//i.test(base))
      throw new Error(`embeddings: baseUrl must start with http:// or https:// (got '${options.baseUrl}')`);
    if (!options.model.trim()) throw new Error('embeddings: a model name is required for the openai provider');
    this.url = `${base}/embeddings`;
    this.model = options.model.trim();
    this.apiKey = options.apiKey || undefined;
    this.batchSize = Math.max(1, Math.round(options.batchSize ?? 16));
    this.timeoutMs = Math.max(1, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.maxInputTokens = options.maxInputTokens ?? DEFAULT_MAX_INPUT_TOKENS;
    this.similarity = options.similarity ?? { unrelated: 0, related: 1 };
    this.id = `openai:${base}#${this.model}`;
  }

  /** 0 until the first response arrives. */
  get dimension(): number {
    return this.dim;
  }

  async embed(texts: readonly string[], signal?: AbortSignal, onProgress?: ProgressFn): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      if (signal?.aborted) throw abortError(signal);
      out.push(...(await this.request(texts.slice(start, start + this.batchSize), signal)));
      onProgress?.(out.length, texts.length);
    }
    return out;
  }

  async embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    const [vector] = await this.request([text], signal);
    return vector;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const c of this.inFlight) c.abort(new Error('embeddings: the embedder was disposed'));
    this.inFlight.clear();
  }

  private async request(input: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (this.disposed) throw new Error('embeddings: the embedder was disposed');
    if (signal?.aborted) throw abortError(signal);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(timeoutError(this.url, this.timeoutMs)), this.timeoutMs);
    const onAbort = () => controller.abort(abortError(signal));
    signal?.addEventListener('abort', onAbort, { once: true });
    this.inFlight.add(controller);
    try {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
      let res: Response | undefined;
      let body = '';
      // One retry on a network error: a pooled keep-alive socket the server already closed fails
      // with "other side closed", and an embeddings request is safe to repeat.
      for (let attempt = 1; !res; attempt++) {
        try {
          res = await fetch(this.url, {
            method: 'POST',
            headers,
            body: JSON.stringify({ model: this.model, input }),
            signal: controller.signal,
          });
          body = await res.text();
        } catch (err) {
          if (controller.signal.aborted)
            throw controller.signal.reason instanceof Error ? controller.signal.reason : abortError(signal);
          if (attempt >= 2) throw new Error(`embeddings: could not reach ${this.url}: ${causeText(err)}`);
          res = undefined;
        }
      }
      if (!res.ok) {
        throw new Error(`embeddings: ${this.url} answered HTTP ${res.status} ${res.statusText}: ${snippet(body)}`);
      }
      return this.parse(body, input.length);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      this.inFlight.delete(controller);
    }
  }

  private parse(body: string, expected: number): Float32Array[] {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new Error(`embeddings: ${this.url} answered with invalid JSON: ${snippet(body)}`);
    }
    const data = (json as { data?: unknown })?.data;
    if (!Array.isArray(data))
      throw new Error(`embeddings: ${this.url} answered without a 'data' array: ${snippet(body)}`);
    if (data.length !== expected) {
      throw new Error(`embeddings: ${this.url} returned ${data.length} embeddings for ${expected} inputs`);
    }
    const vectors: Float32Array[] = new Array(expected);
    data.forEach((item: { index?: unknown; embedding?: unknown }, position) => {
      // Servers may reorder; `index` says which input an item belongs to.
      const index = typeof item?.index === 'number' ? item.index : position;
      const emb = item?.embedding;
      if (!Array.isArray(emb) || emb.length === 0 || !emb.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new Error(`embeddings: ${this.url} returned a non-numeric embedding at data[${position}]`);
      }
      if (index < 0 || index >= expected || vectors[index]) {
        throw new Error(`embeddings: ${this.url} returned a bad or repeated index ${index} at data[${position}]`);
      }
      this.checkDimension(emb.length);
      vectors[index] = normalizeInPlace(Float32Array.from(emb as number[]));
    });
    return vectors;
  }

  private checkDimension(length: number): void {
    if (this.dim === 0) {
      this.dim = length;
    } else if (length !== this.dim) {
      throw new Error(
        `embeddings: ${this.url} returned a ${length}-dimension embedding for model '${this.model}', ` +
          `but earlier responses had ${this.dim}; was the model changed on the server?`,
      );
    }
  }
}

function timeoutError(url: string, ms: number): Error {
  const err = new Error(`embeddings: ${url} did not answer within ${ms} ms`);
  err.name = 'TimeoutError';
  return err;
}

function snippet(body: string): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  if (!flat) return '(empty body)';
  return flat.length > BODY_SNIPPET ? `${flat.slice(0, BODY_SNIPPET)}...` : flat;
}

/** fetch's TypeError says only "fetch failed"; the useful part is in `cause`. */
function causeText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof Error) return `${err.message} (${cause.message})`;
  return err.message;
}
