/**
 * English stop words: dropped from queries and never indexed (docs/ARCHITECTURE.md, "Text analysis and candidates").
 *
 * The `workspace_context` words score is the fraction of the query's terms a passage contains, so
 * every query word that carries no topic lowers every passage's score alike and blurs the ranking.
 * The list is deliberately modest (214 entries, 46 of them contractions): articles, pronouns,
 * determiners, auxiliaries and modals, prepositions, conjunctions, the question words a question
 * starts with, and the usual contractions. Content words that merely sound generic (`use`, `get`,
 * `work`, `new`) are kept: they name topics in technical text.
 *
 * Decisions:
 * - Negations (`no`, `not`, `nor`, `never` and the `n't` contractions) ARE stop words. A set test
 *   cannot express negation: "why is billing-worker not retrying" should score a passage about
 *   billing-worker's retries on `billing-worker` and `retry`; keeping `not` would only penalise
 *   passages that answer without using the word.
 * - Directional particles that name a state in operations text (`up`, `down`, `out`, `off`:
 *   "service down", "scale up", "opt out") are NOT stop words.
 * - `except` is NOT a stop word: an exclusion is a feature technical text documents ("run it in
 *   all projects except one" meets a filter's "Excluding" section, which says "except"). On the
 *   nine-corpus dev suite, both modes, it moves one question (pnpm's p045, 0.32 -> 1.00 words
 *   only) and lowers none. Measured the same way and left on the list: `without` and `only` (kept
 *   too, rclone's faq falls 0.028 and Argo CD, GoReleaser and rclone fall overall), and with them
 *   `all`, `every`, `each`, `other` and `any` (GoReleaser's how-tos fall 0.031).
 * - Latin abbreviations that only introduce an example (`e.g.`, `i.e.`, `etc.`) are stop words:
 *   the tokenizer reads `e.g` as an identifier, which otherwise weighed as a rare term.
 * - Matching is on the lower-cased surface before stemming; `’` is read as `'`.
 */

const WORDS = `
a an the
i me my mine myself we us our ours ourselves you your yours yourself yourselves
he him his himself she her hers herself it its itself they them their theirs themselves
this that these those
what which who whom whose why how when where whether
am is are was were be been being have has had having do does did doing
will would shall should can could may might must ought
about above after against along among around at before behind below beneath beside besides
between beyond by during for from in inside into near of on onto over per since than
through throughout till to toward towards under until upon via with within without
and or but if so because as while though although unless nor then else
there here also just very too only own same such some any each every few more most other
others another all both either neither again further once rather quite
no not never
e.g i.e etc
i'm i've i'll i'd you're you've you'll you'd he's she's it's we're we've we'll we'd
they're they've they'll they'd that's there's here's what's who's where's how's let's
don't doesn't didn't isn't aren't wasn't weren't haven't hasn't hadn't won't wouldn't
can't cannot couldn't shouldn't mustn't mightn't needn't shan't
`;

/** The stop words, lower-cased, apostrophes as `'`. */
export const STOP_WORDS: ReadonlySet<string> = new Set(WORDS.split(/\s+/).filter((w) => w.length > 0));

/** True when `word` (any case, either apostrophe) is a stop word. */
export function isStopWord(word: string): boolean {
  const lower = word.toLowerCase();
  return STOP_WORDS.has(lower.includes('’') ? lower.replace(/’/g, "'") : lower);
}
