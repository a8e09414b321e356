/**
 * The published numbers of the library tools (docs/ARCHITECTURE.md, the library tools' contract; docs/tools.md): budgets, caps and
 * the constants of the ranking. Every tunable of `get_toc`, `get_section` and
 * `search_instructions` lives here, so a reader finds them in one place and tests can name them.
 *
 * Token counts are estimates (characters / 4, rounded up; text/tokenEstimate.ts) of the text a
 * tool renders.
 */

/** Most tokens a `get_toc` map may take before it is condensed. Default 8,000. */
export const TOC_TOKEN_BUDGET = 8_000;

/** A document with at most this many sections lists them inline in the map. Default 8. */
export const TOC_INLINE_SECTIONS = 8;

/**
 * `get_toc(query=...)` shows at most this many best matches in full (with their sections), then
 * one line each up to {@link TOC_QUERY_MAX_DOCUMENTS}, and counts the rest. Defaults 10 and 50;
 * the token budget may cut in earlier.
 */
export const TOC_QUERY_FULL_DOCUMENTS = 10;
export const TOC_QUERY_MAX_DOCUMENTS = 50;

/** Characters of a section's one-line summary in the map (cut at a word). Default 90. */
export const TOC_SECTION_SUMMARY_CHARS = 90;

/** Characters of a derived document summary (cut at a word). Default 200. */
export const DOC_SUMMARY_CHARS = 200;

/** Most tokens the sections of one `search_instructions` answer may take. Default 4,000. */
export const SEARCH_TOKEN_BUDGET = 4_000;

/** Most documents one `search_instructions` answer draws sections from. Default 6. */
export const SEARCH_MAX_DOCUMENTS = 6;

/** A document of at most this many tokens comes back whole, every section in order. Default 800. */
export const SMALL_DOCUMENT_TOKENS = 800;

/** Sections a larger document contributes on the first pass. Default 2. */
export const BEST_SECTIONS_PER_DOCUMENT = 2;

/**
 * When at most this many documents matched (after the profile), the budget left after the first
 * pass goes to further matched sections of the larger ones (a namespace of a few long policies).
 * Default 3.
 */
export const FEW_DOCUMENTS = 3;

/**
 * `focused` profile: a document is left out when its match strength (0..1, see ranking.ts) is
 * below this share of the best document's. Range 0..1; default 0.5.
 */
export const FOCUSED_MIN_RELATIVE_STRENGTH = 0.5;

/** Documents that matched but did not fit are named at the end, at most this many. Default 20. */
export const MAX_NAMED_CUT_DOCUMENTS = 20;

/**
 * Reciprocal rank fusion constant: a section's fused score is the sum over signals of
 * `1 / (RRF_K + rank)`. 60 is the value of Cormack, Clarke and Büttcher, "Reciprocal Rank Fusion
 * outperforms Condorcet and individual Rank Learning Methods" (SIGIR 2009), which damps the
 * weight of the very first ranks without letting a long tail add up. Range > 0; default 60.
 */
export const RRF_K = 60;

/**
 * The most a document's title adds to its sections' fused score: what a first place in one more
 * signal list is worth (`1 / (RRF_K + 1)`), scaled by how specifically the plan names the title
 * (0..1, titleSpecificity.ts).
 */
export const TITLE_BONUS_MAX = 1 / (RRF_K + 1);

/**
 * A title is named specifically only when at most this many OTHER titles of its namespace hold
 * every title word the plan matched, or this share of the namespace's titles when that is more.
 * Defaults 3 and 0.05 (5%).
 */
export const TITLE_FEW_SHARED_MIN = 3;
export const TITLE_FEW_SHARED_SHARE = 0.05;

/**
 * Summary signal: a plan word found only in the document's card (its summary, `good_for`,
 * `questions`) counts this much of one found in the section's own heading path or first
 * sentences, so the sections that say it themselves rank first within a document (a document of
 * one section takes its card at full weight). Range 0..1; default 0.7.
 */
export const DOCUMENT_CARD_WEIGHT = 0.7;

/** The profile a namespace gets when its `folder.yaml` names none. */
export const DEFAULT_PROFILE = 'focused';

export type LibraryProfile = 'focused' | 'catalog';
