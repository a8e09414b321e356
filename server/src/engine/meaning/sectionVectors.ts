/**
 * The meaning half of the index: one vector per window of every section, kept in line with the
 * live index state, and the vector index over them (a second candidate generator).
 *
 * - Vectors are keyed by section id and the digest of the text embedded, so they survive
 *   renumbering and are never used for a section whose text has changed (an `asOf` state's
 *   older text simply has no vector and ranks on words at full weight).
 * - Embedding is progressive and never blocks answers: `sync` attaches what the on-disk cache
 *   already holds at once, then embeds the rest in the background, in chunks, reporting progress;
 *   a newer `sync` (files changed again) cancels the running job and plans afresh.
 * - A section longer than the model's input is embedded in windows (embeddings/windows.ts); its
 *   meaning for a question is its best window.
 */
import type { IndexState, SectionEntry } from '../indexState';
import type { Embedder } from '../embeddings/embedder';
import { isAbortError } from '../embeddings/abort';
import { embedTextsCached } from '../embeddings/cachedEmbedding';
import { textDigest, type VectorCache } from '../embeddings/vectorCache';
import { splitWindows, windowOptionsFor, type WindowOptions } from '../embeddings/windows';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import {
  createVectorIndex,
  loadVectorIndexAsync,
  vectorBackendStatus,
  type VectorBackendChoice,
  type VectorIndex,
  type VectorIndexKind,
} from '../vector/vectorIndex';
import type { Section } from '../model';

/** Version of the saved section-to-label map. */
const SAVED_FORMAT = 1;

/** Sections embedded per chunk of the background job: the grain of progress and cancellation. */
export const EMBED_CHUNK_SECTIONS = 32;
/** Windows per chunk at most (a chunk holds at least one section, however long). */
export const EMBED_CHUNK_WINDOWS = 128;
/**
 * Windows attached to the vector index between two yields to the event loop. Each is an HNSW
 * insertion (about a millisecond at 50k windows on a loaded core), so a question that arrives
 * while a chunk is being attached waits for at most this many, not the whole chunk.
 */
export const ATTACH_SLICE_WINDOWS = 8;
/** Nearest sections the vector index proposes as candidates for one question. */
export const MEANING_CANDIDATES = 50;

export interface MeaningProgress {
  done: number;
  total: number;
  /**
   * True until the first chunk is in when the job had to load the model first (Embedder.warm was
   * false): "loading the model", not "embedding 0 of N".
   */
  loadingModel: boolean;
  /**
   * Sections per second measured since the model was loaded (the load is not embedding, and
   * counting it made a 10 s job read "about 1 min left"); null until it is measured.
   */
  sectionsPerSecond: number | null;
  /** Estimated seconds until every section has vectors, from that rate; null before it is known. */
  secondsLeft: number | null;
}

export interface MeaningStatus {
  /** The embedder id (the vector cache key), e.g. `local:all-minilm-l6-v2+onnx-int8@0.1.0`. */
  model: string;
  /** What runs the model (ONNX Runtime or the WASM fallback, and why), when the embedder says. */
  runtime: string | null;
  /** The embedder's expected sections per second (for "how long will meaning take"), when known. */
  expectedSectionsPerSecond: number | null;
  /** The vector index that runs (`hnsw`: the built-in graph; `hnswlib`: hnswlib-node; `exact`: the scan), null before the first vector. */
  backend: VectorIndexKind | null;
  backendReason: string;
  sectionsWithVectors: number;
  sectionsPending: number;
  embedding: MeaningProgress | null;
  lastError: string | null;
}

/** A section's place in the vector index: the digest of the text embedded and its windows' labels. */
interface SectionVectorsEntry {
  digest: string;
  labels: number[];
}

export class SectionVectors {
  private bySection = new Map<string, SectionVectorsEntry>();
  private labelToSection: (string | undefined)[] = [];
  private freeLabels: number[] = [];
  private index: VectorIndex | undefined;
  private job: AbortController | undefined;
  private progress: MeaningProgress | null = null;
  private pending = 0;
  private lastError: string | null = null;
  private readonly windowOptions: WindowOptions;
  /** Digest of the text embedded for each section object (the windows are cut only when needed). */
  private readonly digestCache = new WeakMap<Section, string>();
  private readonly listeners = new Set<() => void>();
  /** The state the vectors were last brought in line with: every entry's digest is of that state's text. */
  private inLineWith: IndexState | undefined;
  /** The id of the snapshot the loaded section map was saved with, until the first `sync` uses or drops it. */
  private loadedFor: string | null = null;

  /**
   * `embedInBackground` false (one-shot commands): `sync` attaches what the cache holds and
   * counts the rest as pending, but embeds nothing (`wsctx index` embeds).
   */
  constructor(
    private readonly embedder: Embedder,
    private readonly cache: VectorCache | null,
    private readonly log: (message: string) => void,
    private readonly embedInBackground = true,
    private readonly backend: VectorBackendChoice = 'auto',
  ) {
    this.windowOptions = windowOptionsFor(embedder);
  }

  status(): MeaningStatus {
    // A loaded index is rebuilt as the chosen backend when another saved it: it is of this kind.
    const backend = vectorBackendStatus(this.backend);
    return {
      model: this.embedder.id,
      runtime: this.embedder.runtime ?? null,
      expectedSectionsPerSecond: this.embedder.expectedSectionsPerSecond ?? null,
      backend: this.index?.kind ?? null,
      backendReason: backend.reason,
      sectionsWithVectors: this.bySection.size,
      sectionsPending: this.pending,
      embedding: this.progress,
      lastError: this.lastError,
    };
  }

  /** Called when embedding progresses or finishes (status displays). */
  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Brings the vectors in line with `state`: drops vectors of sections gone or changed, attaches
   * cached vectors, and starts embedding the rest in the background (cancelling an older job).
   * Resolves when the background job ends (callers that must wait, like `wsctx index`, await it).
   */
  sync(state: IndexState, restoredFrom?: string): Promise<void> {
    return this.bringInLine(state, this.embedInBackground, restoredFrom);
  }

  /**
   * `restoredFrom`: the id of the snapshot `state` was restored from. When the loaded section map
   * was saved with that very snapshot, its digests are the digests of `state`'s texts (the
   * snapshot holds the texts they were computed from), so they are taken as they are instead of
   * digesting every section's text again: at 100k sections that digesting was most of a restart.
   */
  private bringInLine(state: IndexState, embed: boolean, restoredFrom?: string): Promise<void> {
    this.job?.abort();
    const adopt = restoredFrom !== undefined && restoredFrom === this.loadedFor;
    this.loadedFor = null;
    this.inLineWith = state;
    const todo: { id: string; digest: string; windows: string[] }[] = [];
    // Live sections holding vectors when the loop is done: when that is every entry held, none
    // is stale and the set of live ids is never built (section ids are unique in a state).
    let liveHeld = 0;
    for (const entry of state.sections) {
      if (!entry) continue;
      const id = entry.section.id;
      const have = this.bySection.get(id);
      if (adopt && have && !this.digestCache.has(entry.section)) this.digestCache.set(entry.section, have.digest);
      const digest = this.digestOf(entry);
      if (have?.digest === digest) {
        liveHeld++;
        continue;
      }
      if (have) this.removeSection(id);
      const windows = splitWindows(embeddingText(entry), this.windowOptions).map((w) => w.text);
      const cached = this.cachedVectors(windows);
      if (cached) this.attach(id, digest, cached);
      else todo.push({ id, digest, windows });
      if (this.bySection.has(id)) liveHeld++;
    }
    if (liveHeld !== this.bySection.size) {
      const live = new Set<string>();
      for (const entry of state.sections) if (entry) live.add(entry.section.id);
      for (const id of [...this.bySection.keys()]) if (!live.has(id)) this.removeSection(id);
    }
    this.pending = todo.length;
    if (todo.length === 0 || !embed) {
      this.progress = null;
      this.emit();
      return Promise.resolve();
    }
    const controller = new AbortController();
    this.job = controller;
    return this.run(todo, controller.signal).finally(() => {
      if (this.job === controller) this.job = undefined;
    });
  }

  /**
   * Cosine of the query (unit length) with a section's best window, read from the vector index
   * (the one copy of the vectors), or null when the section has no vector for its current text.
   */
  cosine(entry: SectionEntry, query: Float32Array): number | null {
    const have = this.bySection.get(entry.section.id);
    if (!have || !this.index || have.digest !== this.digestOf(entry)) return null;
    let best = -Infinity;
    for (const label of have.labels) {
      const s = this.index.similarity(label, query);
      if (s !== null && s > best) best = s;
    }
    return best === -Infinity ? null : best;
  }

  /**
   * The section's windows as the vector index holds them (int8 codes and 1 / |codes| each, in
   * window order) and the digest of the text embedded, or null when it has no vector for its
   * current text: what a store writes (engine/store/storeRows.ts).
   */
  quantizedWindows(
    entry: SectionEntry,
  ): { digest: string; windows: { codes: Int8Array; inverseNorm: number }[] } | null {
    const have = this.bySection.get(entry.section.id);
    if (!have || !this.index || have.digest !== this.digestOf(entry)) return null;
    const windows: { codes: Int8Array; inverseNorm: number }[] = [];
    for (const label of have.labels) {
      const q = this.index.quantized(label);
      if (!q) return null;
      windows.push(q);
    }
    return { digest: have.digest, windows };
  }

  /** True when the section has vectors (possibly for older text: `cosine` checks the digest). */
  has(sectionId: string): boolean {
    return this.bySection.has(sectionId);
  }

  /**
   * Section ids nearest the query in meaning, best first, and `outside`: the cosine no section
   * left out can beat. Every window of a section left out comes after the last hit looked at, so
   * its cosine is at most that hit's (exactly so for the exact scan; for HNSW, up to the windows
   * the graph search missed). Null when nothing was looked at.
   */
  nearest(query: Float32Array, k = MEANING_CANDIDATES): { ids: string[]; outside: number | null } {
    if (!this.index || this.index.size === 0) return { ids: [], outside: null };
    const ids: string[] = [];
    let outside: number | null = null;
    // Windows of one section can crowd the top; ask for more and keep each section once.
    for (const hit of this.index.search(query, k * 3)) {
      outside = hit.score;
      const id = this.labelToSection[hit.label];
      if (id && !ids.includes(id)) ids.push(id);
      if (ids.length >= k) break;
    }
    return { ids, outside };
  }

  /**
   * Writes the vector index (the int8 vectors and the graph) and which labels belong to which
   * section, so a restart serves meaning at once without reading the vector cache or rebuilding
   * the graph. Atomic per file; a failure only costs a rebuild. `snapshot`: the index snapshot
   * written just before (its state and id), which the section map is then bound to.
   */
  save(file: string, snapshot?: { state: IndexState; id: string }): void {
    if (!this.index || this.job) return; // mid-embedding: the next save after the job has everything
    this.index.save(file);
    const sections = [...this.bySection].map(([id, e]) => [id, e.digest, e.labels] as const);
    // Bound to the snapshot only when every digest here is of that snapshot's state (no later
    // pass synced meanwhile); else a restart checks each section's digest as before.
    const boundTo = snapshot && snapshot.state === this.inLineWith ? snapshot.id : null;
    const temp = `${file}.sections.json.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ format: SAVED_FORMAT, model: this.embedder.id, snapshot: boundTo, sections }));
    renameSync(temp, `${file}.sections.json`);
  }

  /**
   * Loads what `save` wrote. Anything missing or inconsistent is ignored with a log line and the
   * index is rebuilt from the vector cache by `sync`. The big reads do not block the thread
   * (hnswlib reads its file on the thread pool): a restart starts this before it parses the
   * lexical snapshot and awaits it after. The state changes only at the end, all at once, and
   * only while nothing is attached yet.
   */
  async load(file: string): Promise<boolean> {
    if (!existsSync(file) || !existsSync(`${file}.sections.json`)) return false;
    // Another backend's file is refused, not rebuilt here: the restore waits for this read, and the
    // background sync re-attaches every vector from the cache without holding answers back.
    const indexRead = loadVectorIndexAsync(file, {
      backend: this.backend,
      foreign: 'refuse',
      log: (m) => this.log(`[meaning] ${m}`),
    });
    indexRead.catch(() => {}); // observed below; a failed map read must not leave it unhandled
    try {
      // The section map is small and read first: parsed while the index's files (and the lexical
      // snapshot) are still being read, the thread's wait for them hides its parse.
      const saved = JSON.parse(await readFile(`${file}.sections.json`, 'utf8')) as {
        format: number;
        model: string;
        snapshot?: string | null;
        sections: [string, string, number[]][];
      };
      if (saved.format !== SAVED_FORMAT || saved.model !== this.embedder.id)
        throw new Error('saved for another model or format');
      const bySection = new Map<string, SectionVectorsEntry>();
      const labelToSection: string[] = [];
      for (const [id, digest, labels] of saved.sections) {
        bySection.set(id, { digest, labels });
        for (const label of labels) labelToSection[label] = id;
      }
      const index = await indexRead;
      if (this.index) return false; // vectors attached meanwhile: they are newer than the file
      for (const [id, { labels }] of bySection)
        for (const label of labels)
          if (!index.has(label)) throw new Error(`label ${label} of ${id} is not in the index`);
      // Nothing is attached (no index yet), so the loaded maps replace the empty ones outright.
      this.bySection = bySection;
      this.labelToSection = labelToSection;
      this.index = index;
      this.loadedFor = typeof saved.snapshot === 'string' ? saved.snapshot : null;
      return true;
    } catch (error) {
      this.log(
        `[meaning] saved vector index not used (${(error as Error).message}); rebuilding it from the vector cache`,
      );
      return false;
    }
  }

  /** Stops the background job (pending sections keep ranking on words). */
  cancel(): void {
    this.job?.abort();
  }

  /**
   * Embeds what the last `sync` left pending, even when background embedding is off
   * (`wsctx index`); resolves when done. Same as `sync` otherwise.
   */
  embedPending(state: IndexState): Promise<void> {
    return this.bringInLine(state, true);
  }

  private async run(todo: { id: string; digest: string; windows: string[] }[], signal: AbortSignal): Promise<void> {
    const total = todo.length;
    // Sections of about one length together: batches pad little (the worker pool sorts within a call).
    const length = (s: { windows: string[] }) => s.windows.reduce((n, w) => n + w.length, 0);
    todo.sort((a, b) => length(b) - length(a));
    const loadingModel = this.embedder.warm === false;
    // Where the rate is measured from: the job's start when the model is up, else the end of the
    // first chunk (which carried the model's load), with the sections done by then.
    let measuredFrom = loadingModel ? null : { at: performance.now(), done: 0 };
    this.progress = { done: 0, total, loadingModel, sectionsPerSecond: null, secondsLeft: null };
    this.emit();
    // Chunks of at most EMBED_CHUNK_SECTIONS sections or EMBED_CHUNK_WINDOWS windows, so progress
    // keeps moving when the longest sections (64 windows each, at most) come first.
    const chunks: (typeof todo)[] = [];
    let chunk: typeof todo = [];
    let windows = 0;
    for (const section of todo) {
      if (
        chunk.length &&
        (chunk.length >= EMBED_CHUNK_SECTIONS || windows + section.windows.length > EMBED_CHUNK_WINDOWS)
      ) {
        chunks.push(chunk);
        chunk = [];
        windows = 0;
      }
      chunk.push(section);
      windows += section.windows.length;
    }
    if (chunk.length) chunks.push(chunk);
    const embedChunk = (chunk: typeof todo) =>
      embedTextsCached(
        this.embedder,
        chunk.flatMap((s) => s.windows),
        { cache: this.cache, signal },
      );
    try {
      let done = 0;
      // One chunk queued ahead, so the workers never wait while a finished chunk is attached.
      let next = chunks.length ? embedChunk(chunks[0]) : null;
      for (let c = 0; c < chunks.length; c++) {
        const current = next!;
        next = c + 1 < chunks.length ? embedChunk(chunks[c + 1]) : null;
        next?.catch(() => {}); // observed below, or dropped when this chunk fails
        const { vectors } = await current;
        if (signal.aborted) return;
        let offset = 0;
        let sinceYield = 0;
        for (const s of chunks[c]) {
          if (sinceYield >= ATTACH_SLICE_WINDOWS) {
            sinceYield = 0;
            await new Promise((resolve) => setImmediate(resolve));
            // A newer sync planned afresh from what is attached so far; the rest is not ours to add.
            if (signal.aborted) return;
          }
          this.attach(s.id, s.digest, vectors.slice(offset, offset + s.windows.length));
          offset += s.windows.length;
          sinceYield += s.windows.length;
        }
        done += chunks[c].length;
        this.pending = total - done;
        const now = performance.now();
        let rate: number | null = null;
        if (measuredFrom && done > measuredFrom.done)
          rate = (done - measuredFrom.done) / Math.max(0.001, (now - measuredFrom.at) / 1000);
        measuredFrom ??= { at: now, done };
        // Longest sections go first, so the rate so far under-promises: the estimate errs long.
        this.progress = {
          done,
          total,
          loadingModel: false,
          sectionsPerSecond: rate,
          secondsLeft: rate === null ? null : (total - done) / rate,
        };
        this.emit();
      }
      this.progress = null;
      this.lastError = null;
    } catch (error) {
      if (isAbortError(error) || signal.aborted) return;
      this.lastError = (error as Error).message;
      this.progress = null;
      this.log(`[meaning] embedding stopped: ${this.lastError}; passages without vectors rank on words`);
    } finally {
      this.emit();
    }
  }

  /**
   * The digest of the text embedded for a section, computed once per section object. Only the
   * digest is kept: a restart checks every section against the saved index, and keeping every
   * section's windows as strings besides cost ~150 MB at 100k sections.
   */
  private digestOf(entry: SectionEntry): string {
    let digest = this.digestCache.get(entry.section);
    if (digest === undefined) {
      digest = textDigest(embeddingText(entry));
      this.digestCache.set(entry.section, digest);
    }
    return digest;
  }

  private cachedVectors(windows: readonly string[]): Float32Array[] | null {
    if (!this.cache) return null;
    const vectors: Float32Array[] = [];
    for (const text of windows) {
      const hit = this.cache.get(textDigest(text));
      if (hit?.length !== 1) return null;
      vectors.push(hit[0]);
    }
    return vectors;
  }

  private attach(id: string, digest: string, vectors: Float32Array[]): void {
    if (vectors.length === 0) return;
    this.index ??= createVectorIndex(vectors[0].length, {
      backend: this.backend,
      log: (m) => this.log(`[meaning] ${m}`),
    });
    const labels = vectors.map((vector) => {
      const label = this.freeLabels.pop() ?? this.labelToSection.length;
      this.labelToSection[label] = id;
      this.index!.add(label, vector);
      return label;
    });
    this.bySection.set(id, { digest, labels });
  }

  private removeSection(id: string): void {
    const have = this.bySection.get(id);
    if (!have) return;
    for (const label of have.labels) {
      this.index?.remove(label);
      this.labelToSection[label] = undefined;
      // HNSW keeps deleted slots; an exact index reuses labels freely.
      if (this.index?.kind === 'exact') this.freeLabels.push(label);
    }
    this.bySection.delete(id);
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

/**
 * What is embedded for a section: its document's title and heading path give the passage its
 * subject ("Deploy and rollback > Rolling back"), then the text itself.
 */
export function embeddingText(entry: SectionEntry): string {
  const { section, doc } = entry;
  const path = section.headingPath.filter((h, i) => !(i === 0 && h === doc.title));
  const head = [doc.title, ...path].join(' > ');
  const lead = documentLead(entry);
  return lead ? `${head}\n${lead}\n\n${section.text}` : `${head}\n\n${section.text}`;
}

/** The document's opening sentences (its first section's body), when the section is not that section. */
function documentLead(entry: SectionEntry): string {
  const first = entry.doc.sections[0];
  if (!first || first === entry.section || entry.doc.sections.length < 2) return '';
  const body = first.text
    .split('\n')
    .filter((l) => l.trim() && !/^#{1,6}\s/.test(l) && !/^[=-]{3,}\s*$/.test(l))
    .join(' ');
  const sentences = body.match(/[^.!?]+[.!?]+/g) ?? [body];
  let lead = '';
  for (const s of sentences) {
    if ((lead + s).length > 300) break;
    lead += s;
  }
  return lead.trim();
}
