/**
 * Where a question's meaning is measured from: the cosine that counts as "unrelated" for this
 * question in this workspace.
 *
 * A model's cosines depend on the corpus as much as on the question. On a documentation set about
 * one product every section shares its vocabulary, so the loosely related crowd already sits at
 * cosine 0.35-0.6 with MiniLM, where the passages that answer do; on a workspace spanning many
 * subjects the answers themselves can sit at 0.3-0.5. Fixed anchors fit one or the other (see
 * contract.ts, 2026-12-01.2). So meaning is 0 at the cosine the question reaches with the section
 * at the MEANING_CROWD_PERCENTILE of the workspace's sections, and 1 MEANING_SPAN above it: a
 * passage earns meaning by standing out from the sections around it, not by being on the
 * workspace's subject at all.
 *
 * The percentile is read from the sections at MEANING_SAMPLE evenly strided ordinals (so the cost
 * is the same at 1k and 1M sections), which makes it the same for the same index and question. Below MEANING_MIN_SAMPLE sections with vectors a percentile
 * says little, and the model's own anchors apply.
 */
import {
  crowdAnchors,
  MEANING_CROWD_PERCENTILE,
  MEANING_MIN_SAMPLE,
  MEANING_SAMPLE,
  type SimilarityAnchors,
} from '../ranking/contract';

export interface QuestionCosines {
  /** Sections in the index (ordinals 0..count-1; some may be empty slots). */
  count: number;
  /** True when the section may have a vector (cheap). */
  hasVector(ordinal: number): boolean;
  /** The question's cosine with the section's best window, or null without a vector. */
  cosine(ordinal: number): number | null;
}

/** The anchors for one question: the crowd's cosine -> 0, MEANING_SPAN above it -> 1; `model` with too few vectors. */
export function questionAnchors(cosines: QuestionCosines, model: SimilarityAnchors): SimilarityAnchors {
  const sample: number[] = [];
  // Never a scan of the index: while embedding is under way fewer sampled sections have a vector.
  for (const o of anchorSampleOrdinals(cosines.count)) {
    if (!cosines.hasVector(o)) continue;
    const c = cosines.cosine(o);
    if (c !== null) sample.push(c);
  }
  return anchorsFromSample(sample, model);
}

/**
 * The ordinals the crowd is read from in an index of `count` ordinals: `size` evenly strided
 * ones. A store records the sections at these ordinals when it is written, so its answers read
 * the same crowd as the in-memory index it was written from.
 */
export function anchorSampleOrdinals(count: number, size = MEANING_SAMPLE): number[] {
  const stride = Math.max(1, count / size);
  const out: number[] = [];
  for (let i = 0; i * stride < count; i++) out.push(Math.floor(i * stride));
  return out;
}

/** The anchors from the sampled sections' cosines (any order); `model` below MEANING_MIN_SAMPLE of them. */
export function anchorsFromSample(cosines: readonly number[], model: SimilarityAnchors): SimilarityAnchors {
  if (cosines.length < MEANING_MIN_SAMPLE) return model;
  const sample = [...cosines].sort((a, b) => a - b);
  const crowd = sample[Math.min(sample.length - 1, Math.floor(sample.length * MEANING_CROWD_PERCENTILE))];
  return crowdAnchors(crowd);
}
