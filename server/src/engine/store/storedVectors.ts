/**
 * A reader's copy of a namespace's vectors (the store's int8 windows, vector/vectorStore.ts
 * layout), kept in line with the store's generations by catching up on what each write changed.
 *
 * It gives a question's meaning half exactly as the in-memory engine's SectionVectors does: the
 * cosine of a section's best window (the same int8 arithmetic on the same codes), the crowd
 * anchors from the same sampled sections, and the nearest sections either by the same exact scan
 * (the store has no vector index: Debian's PostgreSQL without pgvector) or from the windows the
 * store's HNSW index proposes (pgvector), deduplicated per section the same way.
 */
import { anchorsFromSample } from '../meaning/questionAnchors';
import { MEANING_CANDIDATES } from '../meaning/sectionVectors';
import type { SimilarityAnchors } from '../ranking/contract';
import { ExactIndex } from '../vector/exactIndex';
import type { NearestWindows, StoredMeaningRows, StoredWindowRow, VectorCatchUp } from './indexStore';

/** The nearest sections for one question and the cosine no section left out can beat. */
export interface NearestSections {
  ordinals: number[];
  outside: number | null;
}

export class StoredVectors {
  private index: ExactIndex;
  /** Store ordinal -> the labels of its windows, in window order. */
  private readonly labelsOf = new Map<number, number[]>();
  private readonly ordinalOf: number[] = [];
  private nextLabel = 0;
  /** The generation the vectors are in line with (0: none read yet). */
  generation = 0;

  constructor(public meaning: StoredMeaningRows) {
    this.index = new ExactIndex(meaning.dimension);
  }

  /** Sections with vectors. */
  get sections(): number {
    return this.labelsOf.size;
  }

  /** Windows held. */
  get windows(): number {
    return this.index.size;
  }

  /** Applies a catch-up read (IndexStore.readWindows): removals, then the pages of added windows. */
  apply(catchUp: VectorCatchUp, pages: readonly StoredWindowRow[][], meaning: StoredMeaningRows): void {
    if (catchUp.removed === 'all' || meaning.dimension !== this.meaning.dimension) this.clear(meaning.dimension);
    else for (const ordinal of catchUp.removed) this.removeSection(ordinal);
    for (const rows of pages) for (const row of rows) this.add(row);
    this.meaning = meaning;
    this.generation = catchUp.generation;
  }

  has(ordinal: number): boolean {
    return this.labelsOf.has(ordinal);
  }

  /** Cosine of `query` with the section's best window, or null without vectors (SectionVectors.cosine). */
  cosine(ordinal: number, query: Float32Array): number | null {
    const labels = this.labelsOf.get(ordinal);
    if (!labels) return null;
    let best = -Infinity;
    for (const label of labels) {
      const s = this.index.similarity(label, query);
      if (s !== null && s > best) best = s;
    }
    return best === -Infinity ? null : best;
  }

  /** The question's anchors: the crowd sample's cosines (meaning/questionAnchors.ts), the model's with too few. */
  anchors(query: Float32Array): SimilarityAnchors {
    const sample: number[] = [];
    for (const o of this.meaning.sampleOrdinals) {
      const c = this.cosine(o, query);
      if (c !== null) sample.push(c);
    }
    return anchorsFromSample(sample, this.meaning.anchors);
  }

  /** The nearest sections by the exact scan over every window held (SectionVectors.nearest, exact index). */
  nearestExact(query: Float32Array, k = MEANING_CANDIDATES): NearestSections {
    if (this.index.size === 0) return { ordinals: [], outside: null };
    return this.dedupe(
      this.index.search(query, k * 3).map((hit) => ({ ordinal: this.ordinalOf[hit.label], cosine: hit.score })),
      k,
    );
  }

  /** The nearest sections from the windows the store's vector index proposed, in its order. */
  nearestFrom(hits: NearestWindows['hits'], k = MEANING_CANDIDATES): NearestSections {
    return this.dedupe(
      hits.filter((h) => this.labelsOf.has(h.ordinal)),
      k,
    );
  }

  /** Windows of one section can crowd the top: each section once, `outside` the last window looked at. */
  private dedupe(hits: readonly { ordinal: number; cosine: number }[], k: number): NearestSections {
    const ordinals: number[] = [];
    const seen = new Set<number>();
    let outside: number | null = null;
    for (const hit of hits) {
      outside = hit.cosine;
      if (!seen.has(hit.ordinal)) {
        seen.add(hit.ordinal);
        ordinals.push(hit.ordinal);
      }
      if (ordinals.length >= k) break;
    }
    return { ordinals, outside };
  }

  private add(row: StoredWindowRow): void {
    let labels = this.labelsOf.get(row.ordinal);
    if (!labels) this.labelsOf.set(row.ordinal, (labels = []));
    const label = this.nextLabel++;
    this.ordinalOf[label] = row.ordinal;
    this.index.addQuantized(label, row.codes, row.inverseNorm);
    labels[row.window] = label;
  }

  private removeSection(ordinal: number): void {
    const labels = this.labelsOf.get(ordinal);
    if (!labels) return;
    for (const label of labels) this.index.remove(label);
    this.labelsOf.delete(ordinal);
  }

  private clear(dimension: number): void {
    this.index = new ExactIndex(dimension);
    this.labelsOf.clear();
    this.ordinalOf.length = 0;
    this.nextLabel = 0;
  }
}
