/**
 * The published numbers of `get_context` (docs/ARCHITECTURE.md, get_context's contract; docs/tools.md). Every tunable of the
 * Herald pipeline lives here so a reader finds them in one place and tests can name them.
 *
 * Similarities are 0..1: the share of a query's (idf-weighted) words a section holds, its
 * questions' closeness, or passage meaning when embeddings are on; whichever is highest.
 */
/** Per-signal bars: a phrasing match clears them when its words or its meaning reach theirs (phraseMatch.ts `clears`). */
export interface SignalBars {
  words: number;
  meaning: number;
}

/** The budget's range and default, in estimated tokens (characters / 4). */
export const MIN_MAX_TOKENS = 1_000;
export const MAX_MAX_TOKENS = 30_000;
export const DEFAULT_MAX_TOKENS = 12_000;

/** Whole pages (pinned, pack Always pages, read-whole Good-for pages) use at most this share of the budget. */
export const WHOLE_PAGE_SHARE = 0.75;

/**
 * Calibration. Words and meaning are different scales (words: the idf-weighted share of the
 * task's words; meaning: cosine mapped by the model's anchors, which saturates at 1 for most
 * on-topic text), so every bar below is per signal. Each was set with
 * `npx tsx bench/calibrateContext.ts` on the two labelled sets of `npm run eval -- --dataset
 * context` (awesome-copilot: 55 tasks over 54 pages; the example: 41 tasks over 28 pages); the
 * figures quoted are that script's, measured 2026-12-01.
 */

/**
 * A pack applies without the judge when its closest Good-for phrasing reaches these (words or
 * meaning). Meaning saturates: the best pack of on-topic tasks reached 0.48 at the median and
 * 0.86 at the 90th percentile, "prepare for my first on-call shift" and the refund questions
 * reached the Payments pack's 0.75 and more, and a loose 0.56 brought it to "what is the refund
 * window?". At 0.95 only a near paraphrase applies a pack on meaning (off-topic tasks: 0.20 at
 * most). Words: 0.45 (the best off-topic words match is 0.10). Packs reaching
 * {@link PACK_CANDIDATE_MIN} are the judge's candidates.
 */
export const PACK_APPLY: SignalBars = { words: 0.45, meaning: 0.95 };
export const PACK_CANDIDATE_MIN = 0.2;
/** The judge applies a pack when it is at least this sure. Default 0.7. */
export const JUDGE_SURE = 0.7;

/**
 * Pages matched by their Good-for phrasings: at most {@link GOOD_FOR_PAGES}, each reaching these.
 * Words 0.35: off-topic tasks' best page reached 0.27 (awesome-copilot) and 0.31 (example).
 * Meaning 0.7: off-topic best 0.34 at most, wrong pages 0.27-0.42 at the 90th percentile, must
 * pages 0.98 (awesome-copilot) and 0.63 (example) at the 25th. Meaning alone cannot tell the
 * right page from a wrong one (wrong pages reach 1.00, must pages 0.73), so a page clearing these
 * comes only when one of its sections is related to the task ({@link RELATED}), unless the words
 * of its own (declared or model-written) phrasings matched: over both sets, hybrid, 73 of the 74
 * must pages clearing the bars had a related section and 15 of the 59 wrong ones had none; the
 * one must page without is the dunning notice's voice page, matched on its declared words. Page
 * precision with that condition: example 0.894 words only (unchanged), 0.847 -> 0.879 hybrid;
 * awesome-copilot 0.905 -> 0.917 and 0.884 -> 0.896; recall 1.000.
 */
export const GOOD_FOR_PAGES = 3;
export const GOOD_FOR_MATCH: SignalBars = { words: 0.35, meaning: 0.7 };
/** Sections a matched page that is not read whole keeps past the closeness window. Default 2. */
export const GOOD_FOR_SECTIONS = 2;
/** A folder's phrasings reaching these (words or meaning) lift its pages into the search. */
export const FOLDER_MATCH: SignalBars = { words: 0.35, meaning: 0.7 };

/**
 * Words signal: a query word found in a section's heading path or its page's title, folder, type
 * or tags counts 1; found only in the body it counts this much. Range 0..1; default 0.6.
 */
export const BODY_WORD_WEIGHT = 0.6;

/**
 * Closeness window (step 7) without the judge, per signal: a section is close enough when one of
 * its signals reaches this share of the request's best score on that signal (and that signal's
 * {@link RELATED} bar). Pages a task must get had a best words ratio of 1.00 (awesome-copilot)
 * and 0.87 (example) at the 10th percentile, 0.50 and 0.60 at worst; the pages it must not get
 * 0.48 and 0.31 at the 90th. Meaning: must pages 1.00 and 0.95 at the 10th, wrong ones 0.59 and
 * 0.59 at the 90th. Questions: must 0.76 and 0.65 at the 10th, wrong 0.32 and 0.00 at the 90th
 * (re-measured 2026-12-01 after facets stopped scoring on body words alone: sectionSearch.ts).
 */
export const CLOSE_RATIO = { words: 0.7, meaning: 0.9, question: 0.7 } as const;

/**
 * "Related at all", per signal: below these a section is no match (nothing-found when nothing
 * reaches them) and neither a pack, a Good-for page nor a folder keeps it; a page matched by
 * its Good-for phrasings on meaning alone, or on derived ones, needs one related section, and so
 * does a guide or reference page reached by a written link. Words 0.3: on-topic tasks' best was
 * 0.39 at the 10th percentile on both sets (0.30 at worst: the dunning notice, whose voice page
 * comes by its own Good-for words); off-topic best 0.33 (awesome-copilot, 90th percentile) and
 * 0.19 (example) with one-word facets and body-only facet matches no longer scoring. Meaning
 * 0.75: off-topic best 0.57 and 0.52 at most, on-topic 0.85 (awesome-copilot) and 0.64 (example)
 * at the 10th percentile. Questions 0.5: off-topic best 0.33 and 0.16 at most.
 */
export const RELATED = { words: 0.3, meaning: 0.75, question: 0.5 } as const;

/**
 * A section reached by widening (links, coherent folders) carries its weight from the page it
 * came from; it is close enough at this share of the request's best similarity (any signal). Above the page-link
 * weight (0.7), so a link written elsewhere on a page never brings a page on its own, and a
 * sibling in a coherent folder (0.8) comes only from the best page. 0.75 and 0.8 measured alike
 * on both sets (example precision 0.829 words only, before {@link LINKED_AS_IS_TYPES}).
 */
export const WIDENED_CLOSE = 0.8;

/**
 * Page types that apply to work without resembling it (docs/ARCHITECTURE.md, get_context's contract: "voice guides, formatting rules
 * and templates rarely resemble the task they apply to"; a persona is the reader, not the topic):
 * a written `[[link]]` from a close page brings them on its own (rules need no link: they come
 * with every task). A page of any other type (a guide, a reference page) reached by a written
 * link must also be related to the task at all on its own ({@link RELATED}): on the example the
 * refund pages link the decline codes, the gateway guide and the plans page, which came to every
 * refund question. Page precision with this rule, example: 0.865 -> 0.894 words only, 0.826 ->
 * 0.879 hybrid; awesome-copilot unchanged (0.917, 0.896); recall 1.000 on both.
 */
export const LINKED_AS_IS_TYPES: ReadonlySet<string> = new Set(['voice', 'style', 'template', 'persona']);

/**
 * A page whose `globs`/`applyTo` match a file the task names is the task's own page when at most
 * this share of the pages the request may use match that file (and at least one may): `**\/*.vue`
 * for `src/components/Cart.vue` says which pages are for it, `**\/*.ts` matched by most pages of
 * a TypeScript library says nothing (globEvidence.ts, taskSubjects.ts). Range 0..1; default 0.1.
 */
export const GLOB_SPECIFIC_MAX_SHARE = 0.1;

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
export { RRF_K } from '../view/constants';
