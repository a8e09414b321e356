/**
 * The meaning half of a question on an in-memory index state: each section's cosine to the
 * question from the engine's section vectors, the question's anchors among the sections asked
 * (one folder's when the state is scoped to it), and the nearest sections by meaning.
 *
 * A question asked before any section has a vector is not embedded (engine.ts `embedQuery`): it
 * stands as {@link UNEMBEDDED_QUESTION}, and its meaning source says "no embedding yet" for every
 * section, exactly what a real vector compared with no section vector gives.
 */
import type { IndexState } from '../indexState';
import type { SimilarityAnchors } from '../ranking/contract';
import type { MeaningSource } from '../ranking/workspaceContextRanker';
import { questionAnchors } from './questionAnchors';
import type { SectionVectors } from './sectionVectors';

/** The question's stand-in vector when no section had a vector to compare it with (never compared itself). */
export const UNEMBEDDED_QUESTION: Float32Array = new Float32Array(0);

/** Every section "without a vector yet": words count at full weight, no meaning candidates. */
export function unembeddedMeaningSource(similarity: SimilarityAnchors, state: IndexState): MeaningSource {
  const cosine = (): number | null => null;
  const hasVector = (): boolean => false;
  const count = state.scope ? state.scope.ordinals.length : state.sections.length;
  return {
    outsideCosine: null,
    cosine,
    hasVector,
    anchors: questionAnchors({ count, cosine, hasVector }, similarity),
    nearest: [],
  };
}

export function stateMeaningSource(
  vectors: SectionVectors,
  similarity: SimilarityAnchors,
  state: IndexState,
  queryVector: Float32Array,
): MeaningSource {
  const nearest: number[] = [];
  const found = vectors.nearest(queryVector);
  for (const id of found.ids) {
    const ordinal = state.sectionOrdinalById.get(id);
    if (ordinal !== undefined) nearest.push(ordinal);
  }
  const cosine = (ordinal: number): number | null => {
    const entry = state.sections[ordinal];
    return entry ? vectors.cosine(entry, queryVector) : null;
  };
  const hasVector = (ordinal: number): boolean => {
    const entry = state.sections[ordinal];
    return entry !== undefined && vectors.has(entry.section.id);
  };
  const scope = state.scope;
  return {
    outsideCosine: found.outside,
    cosine,
    hasVector,
    // One folder of several (ranking/folderScope.ts): the crowd is that folder's sections.
    anchors: scope
      ? questionAnchors(
          {
            count: scope.ordinals.length,
            cosine: (i) => cosine(scope.ordinals[i]),
            hasVector: (i) => hasVector(scope.ordinals[i]),
          },
          similarity,
        )
      : questionAnchors({ count: state.sections.length, cosine, hasVector }, similarity),
    nearest,
  };
}
