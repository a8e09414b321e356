/**
 * Every short text get_context compares a task with by meaning (phraseMatch.ts): each library
 * page's phrasings (its `good_for`, else its title and summary), every page title (a folder without
 * `good_for` is described by its pages' titles), each folder's `good_for` and description, and each
 * pack's phrasings. The engine embeds them with the index (meaning/textSimilarity.ts `prepare`), so
 * the first request compares with the same vectors as every later one.
 */
import type { IndexState } from '../../engine';
import { folderPhrasings, packPhrasings, pagePhrasings } from '../models/derivedText';

/** The phrasing texts of a state's library, each once, in a stable order. */
export function libraryPhrasingTexts(state: IndexState): string[] {
  const texts = new Set<string>();
  const docs = [...state.docs.values()].filter((d) => d.sourceKind === 'library');
  for (const doc of docs) {
    for (const p of pagePhrasings(doc).phrasings) texts.add(p);
    texts.add(doc.title);
  }
  for (const folder of state.libraryFolders) for (const p of folderPhrasings(folder, [])) texts.add(p);
  for (const pack of state.packs) for (const p of packPhrasings(pack)) texts.add(p);
  return [...texts].filter((t) => t.trim() !== '');
}
