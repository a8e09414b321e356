/**
 * The meaning half of an index as a store writes it (Engine.meaningRows, store/storeRows.ts):
 * the embedder's id and cosine anchors, and each section's int8 windows. Its own module so the
 * store's rows need nothing of the engine's class.
 */
import type { SectionEntry } from '../indexState';
import type { SimilarityAnchors } from '../ranking/contract';

/** The meaning half of an index as a store writes it (Engine.meaningRows). */
export interface MeaningRows {
  /** The embedder id: vectors of another model are never mixed with these. */
  model: string;
  /** The model's own cosine anchors (used below MEANING_MIN_SAMPLE sections with vectors). */
  anchors: SimilarityAnchors;
  windowsOf(entry: SectionEntry): { digest: string; windows: { codes: Int8Array; inverseNorm: number }[] } | null;
}
