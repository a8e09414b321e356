/**
 * `search_instructions` in the engine: rank the ready sections against the plan (ranking.ts),
 * then fill the answer within the budgets (searchPack.ts). Both steps are deterministic: the same
 * plan on the same index gives the same answer.
 */
import type { LibraryProfile } from './constants';
import type { LibraryView } from './libraryView';
import { rankLibrary, type LibraryRanking, type MeaningScorer, type RankOptions } from './ranking';
import { packSearch, type PackOptions, type SearchPack } from './searchPack';

export interface SearchOptions extends PackOptions {
  profile?: LibraryProfile;
  meaning?: MeaningScorer;
  /** Only sections this predicate accepts (one namespace, for "try a search on a namespace"). */
  filter?: RankOptions['filter'];
}

export interface LibrarySearch {
  ranking: LibraryRanking;
  pack: SearchPack;
}

export async function searchLibrary(
  view: LibraryView,
  plan: string,
  options: SearchOptions = {},
): Promise<LibrarySearch> {
  const ranking = await rankLibrary(view, plan, { meaning: options.meaning, filter: options.filter });
  return { ranking, pack: packSearch(view, ranking, options) };
}
