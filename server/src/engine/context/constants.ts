/**
 * The published numbers of `get_context` (seed 000, DESIGN.md section 5). Every tunable of the
 * Herald pipeline lives here so a reader finds them in one place and tests can name them.
 *
 * Similarities are 0..1: the share of a query's (idf-weighted) words a section holds, its
 * questions' closeness, or passage meaning when embeddings are on; whichever is highest.
 */

/** The budget's range and default, in estimated tokens (characters / 4). */
export const MIN_MAX_TOKENS = 1_000;
export const MAX_MAX_TOKENS = 30_000;
export const DEFAULT_MAX_TOKENS = 12_000;

/** Whole pages (pinned, pack Always pages, read-whole Good-for pages) use at most this share of the budget. */
export const WHOLE_PAGE_SHARE = 0.75;

/**
 * A pack applies without the judge when its closest Good-for phrasing is at least this similar to
 * the task; packs at {@link PACK_CANDIDATE_MIN} or more are the judge's candidates. Defaults 0.45, 0.2.
 */
export const PACK_MATCH_MIN = 0.45;
export const PACK_CANDIDATE_MIN = 0.2;
/** The judge applies a pack when it is at least this sure. Default 0.7. */
export const JUDGE_SURE = 0.7;

/** Pages matched by their Good-for phrasings: at most this many, each at least this similar. Defaults 3, 0.35. */
export const GOOD_FOR_PAGES = 3;
export const GOOD_FOR_MIN = 0.35;
/** Sections a matched page that is not read whole keeps past the closeness window. Default 2. */
export const GOOD_FOR_SECTIONS = 2;
/** A folder's phrasings this similar to the task lift its pages into the search. Default 0.35. */
export const FOLDER_MATCH_MIN = 0.35;

/**
 * Words signal: a query word found in a section's heading path or its page's title, folder, type
 * or tags counts 1; found only in the body it counts this much. Range 0..1; default 0.6.
 */
export const BODY_WORD_WEIGHT = 0.6;

/**
 * Closeness window (step 7): without the judge, a section is kept when its similarity is within
 * this distance of the best match's. Range 0..1; default 0.25.
 */
export const CLOSENESS_WINDOW = 0.25;
/** Nothing closer than this counts as a match at all (below it: "nothing found"). Default 0.3. */
export const MIN_SIMILARITY = 0.3;

/** Pages named as nearest when nothing was found. Default 3. */
export const NEAREST_PAGES = 3;

/** Widening starts from the pages of this many best hits. Default 3. */
export const WIDEN_FROM_PAGES = 3;
/**
 * What a page reached by widening carries of the similarity of the hit it was reached from: a
 * `[[link]]` written in the hit section itself, one written elsewhere on its page (or on a page
 * linking to it), a link the judge inferred, a sibling in a coherent folder.
 */
export const REACH_WEIGHT = { link: 0.9, 'page-link': 0.7, 'inferred-link': 0.85, folder: 0.8 } as const;
/** A folder's siblings come along when its coherence is at least this. Range 0..1; default 0.25. */
export const FOLDER_COHERENCE_MIN = 0.25;

/**
 * A catalog name found in more than this share of the library's sections does not make sections
 * surface on its own (a system named after the company is in everything). Library names
 * (competitors, products, personas, markets) always do. Default 0.25.
 */
export const NAME_MAX_SHARE = 0.25;

/** Most sections and table rows one judge call is asked about (the rest keep the heuristic's answer). */
export const MAX_JUDGED_SECTIONS = 30;
export const MAX_JUDGED_ROWS = 40;

/** Time the planner may take before the task is searched alone. Default 3,000 ms. */
export const PLAN_TIMEOUT_MS = 3_000;

/** Reciprocal rank fusion constant (library/constants.ts RRF_K): the same 60. */
export { RRF_K } from '../library/constants';
