/**
 * The meaning half of a question on an in-memory index state: each section's cosine to the
 * question from the engine's section vectors, the question's anchors among the sections asked
 * (one folder's when the state is scoped to it), and the nearest sections by meaning.
 */
import type { IndexState } from '../indexState';
import type { SimilarityAnchors } from '../ranking/contract';
import type { MeaningSource } from '../ranking/workspaceContextRanker';
import { questionAnchors } from './questionAnchors';
import type { SectionVectors } from './sectionVectors';

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
