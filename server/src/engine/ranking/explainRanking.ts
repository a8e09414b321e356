/**
 * "Why not this page?": where an expected page, section or entity stands for a question, and why,
 * read from the `workspace_context` ranker itself (never a second scoring): the answer at the
 * caller's limit, the same ranking run deeper to find the page's position, and the formula's own
 * why[] for the page's best section when it is not a candidate at all or scores below the floor.
 *
 * Causes, in the order they are told apart:
 * - `returned`: the page is in the answer, at rank k.
 * - `held-back`: it is within the limit by score, but DOCUMENT_CAP passages of its own document
 *   came first (the per-document rule).
 * - `ranked-below-limit`: it is a candidate above the floor, ranked k-th, past the limit; the
 *   passages above it and what they hold that it lacks (terms, title, named entity) say why.
 * - `below-floor`: every section of it scores below FLOOR (the formula's why[] shows each term).
 * - `no-candidate`: it holds none of the question's terms (and meaning did not bring it).
 *
 * Each cause carries the fix the product description gives for it (split a big section, name the
 * page's words in the question or a heading, a Good-for phrasing, raise the limit). A page that is
 * not in the index at all is explained by `explainAbsent.ts`.
 */
import type { IndexState, SectionEntry } from '../indexState';
import { estimateTokens } from '../text/tokenEstimate';
import { FLOOR, MIN_MATCH, DOCUMENT_CAP } from './contract';
import {
  comparePassages,
  rankWorkspaceContext,
  scoreSections,
  type MeaningSource,
  type RankedPassage,
  type RankOptions,
} from './workspaceContextRanker';

/** One served folder's index for the question (folder-scoped when several are served) and its meaning source. */
export interface FolderRanking {
  state: IndexState;
  meaning: MeaningSource | null;
  /** The words naming this folder when the question names it among several (RankOptions.namedFolder). */
  namedFolder?: string;
}

/** A folder's naming as rank options take it. */
function named(f: FolderRanking): { namedFolder?: string } {
  return f.namedFolder !== undefined ? { namedFolder: f.namedFolder } : {};
}

export type Standing = 'returned' | 'held-back' | 'ranked-below-limit' | 'below-floor' | 'no-candidate';

/** A passage that ranked above the expected page, and what put it there. */
export interface PassageAbove {
  rank: number;
  passage: RankedPassage;
  /** Question terms this passage holds that the page's best section lacks. */
  termsTheTargetLacks: string[];
  /** Question terms both hold, this passage more strongly: `rollback 1.00 (0.10 there)`. */
  termsHeldMoreStrongly: string[];
  /** Bonuses it earned that the page's best section did not (title, namedEntity, recency, runHealth). */
  bonusesTheTargetLacks: string[];
}

export interface RankingExplanation {
  standing: Standing;
  /** Position of the page's first passage in the formula's order (1-based); null when it is not above the floor. */
  rank: number | null;
  /** The smallest limit at which the page comes (when it comes at a larger limit than the one asked). */
  limitNeeded?: number;
  /** How deep the ranking was run to look for it (when `rank` is null and it scores above the floor). */
  searchedDepth: number;
  limit: number;
  /** The page's best section as the formula scores it (null when no section of it is eligible). */
  best: RankedPassage | null;
  /** Question terms the best section does not hold (its words term by term). */
  missingTerms: string[];
  /** Question terms the best section holds only weakly (saturation below WEAK_SATURATION): a passing mention, or an identifier's parts. */
  weakTerms: string[];
  /** All question terms (surface forms). */
  questionTerms: string[];
  /** Passages above it: the answer's first ones (up to 5). */
  above: PassageAbove[];
  /** Estimated tokens of the best section. */
  bestTokens: number;
  summary: string;
  fix: string;
}

/** How deep the explain path runs the ranking to find a page's position, in steps. */
export const EXPLAIN_DEPTHS = [50, 200, 1000, 5000] as const;
/** A section past this many tokens is "a big section" where a fact gets buried (seed 000's 900-token example). */
export const BIG_SECTION_TOKENS = 600;
/** A term counts as held more strongly above when its saturation is higher by this much (0..1). */
export const STRONGER_BY = 0.2;
/** A term the page holds with less saturation than this is "held weakly" (a passing mention, or only an identifier's parts). */
export const WEAK_SATURATION = 0.3;
/** Passages above the page shown with what put them there. */
export const ABOVE_SHOWN = 5;

export interface ExplainRankingOptions extends Omit<RankOptions, 'meaning' | 'limit'> {
  limit: number;
}

/**
 * Where the sections `isTarget` accepts stand for `options.question` across `folders`, merged by
 * the ranker's own order as `workspace_context` merges folders.
 */
export function explainRanking(
  folders: readonly FolderRanking[],
  options: ExplainRankingOptions,
  isTarget: (entry: SectionEntry) => boolean,
): RankingExplanation {
  const ranked = (limit: number) => merged(folders, options, limit);
  const position = (list: readonly RankedPassage[]) => list.findIndex((p) => isTarget(p.entry));

  const answer = ranked(options.limit);
  const shown = position(answer.passages);
  let rank: number | null = null;
  let deep: RankedPassage[] = answer.passages;
  let searchedDepth = options.limit;
  let limitNeeded: number | undefined;
  if (shown < 0) {
    for (const depth of EXPLAIN_DEPTHS) {
      if (depth <= options.limit) continue;
      const run = ranked(depth);
      deep = run.passages;
      searchedDepth = depth;
      if (position(deep) >= 0) {
        // The per-document rule shows a document's later passages only while the limit leaves
        // room, so a page's position depends on the limit: find the smallest limit that shows it.
        let low = options.limit;
        let high: number = depth;
        while (high - low > 1) {
          const mid = Math.floor((low + high) / 2);
          if (position(ranked(mid).passages) >= 0) high = mid;
          else low = mid;
        }
        limitNeeded = high;
        deep = ranked(high).passages;
        rank = position(deep) + 1;
        break;
      }
      if (!run.more) break;
    }
  } else rank = shown + 1;

  const best = bestSection(folders, options, isTarget);
  const questionTerms = answer.terms;
  const missingTerms = best ? termsOf(best).missing : questionTerms;
  const bestTokens = best ? estimateTokens(best.entry.section.text) : 0;
  const weakTerms = best ? weakTermsOf(best) : [];
  const aboveCount = rank === null ? Math.min(deep.length, ABOVE_SHOWN) : Math.min(rank - 1, ABOVE_SHOWN);
  const above = deep.slice(0, aboveCount).map((passage, i) => describeAbove(i + 1, passage, best));

  const base = {
    rank,
    limitNeeded,
    searchedDepth,
    limit: options.limit,
    best,
    missingTerms,
    weakTerms,
    questionTerms,
    bestTokens,
  };
  if (shown >= 0) {
    return {
      ...base,
      standing: 'returned',
      above,
      summary: `It is returned, at rank ${rank} of ${answer.passages.length}.`,
      fix: 'Nothing to fix.',
    };
  }
  // By score it belongs in the answer, yet it is not there: only the per-document rule does that.
  const last = answer.passages.at(-1);
  const inByScore =
    best !== null &&
    best.score >= FLOOR &&
    (answer.passages.length < options.limit || (last !== undefined && comparePassages(best, last) < 0));
  if (inByScore && limitNeeded !== undefined) {
    return {
      ...base,
      standing: 'held-back',
      above,
      summary: `By score (${best!.score.toFixed(3)}) it is within the limit of ${options.limit}, but the per-document rule shows at most ${DOCUMENT_CAP} passages of one document while others are left, and its document's earlier passages came first.`,
      fix: `Ask about what this section says in its own words (its heading "${best?.entry.section.headingPath.at(-1) ?? ''}"), or raise the limit to ${limitNeeded} so its document's later passages are shown.`,
    };
  }
  if (rank !== null || (best && best.score >= FLOOR)) {
    const where =
      rank !== null
        ? `ranked ${ordinal(rank)} (it comes at limit ${limitNeeded})`
        : `ranked below the first ${searchedDepth}`;
    return {
      ...base,
      standing: 'ranked-below-limit',
      above,
      summary: `It is a candidate (score ${best ? best.score.toFixed(3) : '?'}), ${where}, past the limit of ${options.limit}.${aboveSummary(above)}`,
      fix: rankedFix(base, above),
    };
  }
  if (!best || termsOf(best).present.length === 0) {
    const meaning = best?.why.find((w) => w.signal === 'meaning' && w.weight > 0);
    return {
      ...base,
      standing: 'no-candidate',
      above,
      summary: `No section of it holds any of the question's terms (${questionTerms.join(', ') || 'none'})${meaning ? `, and its meaning alone scores ${best!.score.toFixed(3)}, below the floor ${FLOOR}` : ''}: nothing in the question points at it.`,
      fix: noCandidateFix(base),
    };
  }
  const gated =
    best.match < MIN_MATCH
      ? ` Its match ${best.match.toFixed(3)} is below the minimum ${MIN_MATCH}, so it earns no bonus (title, named entity, recency, run health).`
      : '';
  return {
    ...base,
    standing: 'below-floor',
    above,
    summary: `Its best section "${best.entry.section.headingPath.join(' > ') || best.entry.doc.title}" scores ${best.score.toFixed(3)}, below the floor ${FLOOR}: ${holding(base)}.${gated}`,
    fix: belowFloorFix(base),
  };
}

/** The folders' rankings at `limit`, merged by the ranker's order; `more` when any folder may hold more above the floor. */
function merged(
  folders: readonly FolderRanking[],
  options: ExplainRankingOptions,
  limit: number,
): { passages: RankedPassage[]; terms: string[]; more: boolean } {
  const lists = folders.map((f) =>
    rankWorkspaceContext(f.state, { ...options, limit, meaning: f.meaning, ...named(f) }),
  );
  const passages = lists
    .flatMap((l) => l.passages)
    .sort(comparePassages)
    .slice(0, limit);
  const terms = lists[0]?.terms.map((t) => t.surface) ?? [];
  return { passages, terms, more: lists.some((l) => l.passages.length >= limit) };
}

/** The page's best-scoring section (the formula's score and why[]), across the folders that hold it. */
function bestSection(
  folders: readonly FolderRanking[],
  options: ExplainRankingOptions,
  isTarget: (entry: SectionEntry) => boolean,
): RankedPassage | null {
  let best: RankedPassage | null = null;
  for (const f of folders) {
    const ordinals: number[] = [];
    for (const entry of f.state.sections) if (entry && isTarget(entry)) ordinals.push(entry.ordinal);
    if (ordinals.length === 0) continue;
    for (const p of scoreSections(f.state, { ...options, limit: 1, meaning: f.meaning, ...named(f) }, ordinals)) {
      if (!best || comparePassages(p, best) < 0) best = p;
    }
  }
  return best;
}

/** The question terms a passage holds and lacks, from its words term of why[]. */
export function termsOf(passage: RankedPassage): { present: string[]; missing: string[] } {
  const words = passage.why.find((w) => w.signal === 'words');
  const terms = words?.terms ?? [];
  return {
    present: terms.filter((t) => t.saturation > 0).map((t) => t.term),
    missing: terms.filter((t) => t.saturation === 0).map((t) => t.term),
  };
}

function describeAbove(rank: number, passage: RankedPassage, best: RankedPassage | null): PassageAbove {
  const targetHas = new Set(best ? termsOf(best).present : []);
  const termsTheTargetLacks = termsOf(passage).present.filter((t) => !targetHas.has(t));
  const targetSaturation = new Map(
    (best?.why.find((w) => w.signal === 'words')?.terms ?? []).map((t) => [t.term, t.saturation]),
  );
  const termsHeldMoreStrongly = (passage.why.find((w) => w.signal === 'words')?.terms ?? [])
    .filter((t) => targetHas.has(t.term) && t.saturation >= (targetSaturation.get(t.term) ?? 0) + STRONGER_BY)
    .map((t) => `${t.term} ${t.saturation.toFixed(2)} (${(targetSaturation.get(t.term) ?? 0).toFixed(2)} there)`);
  const bonusesTheTargetLacks: string[] = [];
  for (const signal of ['title', 'namedEntity', 'recency', 'runHealth'] as const) {
    const mine = passage.why.find((w) => w.signal === signal)?.contribution ?? 0;
    const theirs = best?.why.find((w) => w.signal === signal)?.contribution ?? 0;
    if (mine > theirs + 0.0005) bonusesTheTargetLacks.push(`${signal} +${(mine - theirs).toFixed(3)}`);
  }
  return { rank, passage, termsTheTargetLacks, termsHeldMoreStrongly, bonusesTheTargetLacks };
}

function aboveSummary(above: readonly PassageAbove[]): string {
  if (above.length === 0) return '';
  const first = above[0];
  const why = [
    first.termsTheTargetLacks.length ? `holds ${first.termsTheTargetLacks.join(', ')}, which it lacks` : '',
    first.termsHeldMoreStrongly.length ? `holds ${first.termsHeldMoreStrongly.join(', ')} more strongly` : '',
    first.bonusesTheTargetLacks.length ? `earns ${first.bonusesTheTargetLacks.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return ` The first passage above it, "${first.passage.entry.doc.title}" (${first.passage.entry.doc.path}, score ${first.passage.score.toFixed(3)})${why ? `, ${why}` : ', scores higher on the same terms'}.`;
}

type Base = Pick<
  RankingExplanation,
  | 'rank'
  | 'limitNeeded'
  | 'searchedDepth'
  | 'limit'
  | 'best'
  | 'missingTerms'
  | 'weakTerms'
  | 'questionTerms'
  | 'bestTokens'
>;

/** Question terms a passage holds with a saturation below WEAK_SATURATION. */
function weakTermsOf(passage: RankedPassage): string[] {
  return (passage.why.find((w) => w.signal === 'words')?.terms ?? [])
    .filter((t) => t.saturation > 0 && t.saturation < WEAK_SATURATION)
    .map((t) => t.term);
}

/** "it holds a, b (weakly: c) but not d, e", in words. */
function holding(base: Base): string {
  const present = base.best ? termsOf(base.best).present : [];
  const strong = present.filter((t) => !base.weakTerms.includes(t));
  const parts = [
    strong.length ? `it holds ${strong.join(', ')}` : '',
    base.weakTerms.length ? `${strong.length ? 'and ' : 'it holds '}${base.weakTerms.join(', ')} only weakly` : '',
    base.missingTerms.length ? `but not ${base.missingTerms.join(', ')}` : 'and no term is missing',
  ];
  return parts.filter(Boolean).join(' ');
}

/** Seed 000's fixes for a page below the floor: a big section to split, terms to name. */
function belowFloorFix(base: Base): string {
  if (base.best && base.bestTokens > BIG_SECTION_TOKENS && base.missingTerms.length === 0) {
    return `The fact is buried in a big section ("${base.best.entry.section.headingPath.at(-1) ?? base.best.entry.doc.title}", about ${base.bestTokens} tokens): a term in so long a section counts for little. Split it with specific headings, e.g. "## ${base.weakTerms.join(' ')}" over the part that answers.`;
  }
  if (base.missingTerms.length === 0 && base.weakTerms.length) {
    return `It mentions ${base.weakTerms.join(', ')} only in passing: give the part that answers a heading in those words ("## ${base.weakTerms.join(' ')}").`;
  }
  return noCandidateFix(base);
}

/** Seed 000's fixes for a page that ranks, but too low. */
function rankedFix(base: Base, above: readonly PassageAbove[]): string {
  const fixes: string[] = [];
  if (base.best && base.bestTokens > BIG_SECTION_TOKENS) {
    fixes.push(
      `The fact is buried in a big section ("${base.best.entry.section.headingPath.at(-1) ?? base.best.entry.doc.title}", about ${base.bestTokens} tokens): split it with specific headings, so the part that answers stands on its own.`,
    );
  }
  const lacked = [...new Set(above.flatMap((a) => a.termsTheTargetLacks))];
  if (base.missingTerms.length) {
    fixes.push(
      `It lacks ${base.missingTerms.join(', ')}${lacked.length ? ` (the passages above hold ${lacked.join(', ')})` : ''}: ask with the page's own words, or give the section a heading in the words people ask with (a library page: a Good-for phrasing).`,
    );
  } else {
    const weak = (base.best?.why.find((w) => w.signal === 'words')?.terms ?? []).filter(
      (t) => t.saturation > 0 && t.saturation < WEAK_SATURATION,
    );
    if (weak.length)
      fixes.push(
        `It holds ${weak.map((t) => `${t.term} only weakly (${t.saturation.toFixed(2)}${t.fields.includes('parts') ? ', by its parts' : ''})`).join(', ')}: nothing in the question points at it as strongly as at the passages above; a heading in the words people ask with ("${weak.map((t) => t.term).join(' ')}") lifts it.`,
      );
    else if (!fixes.length)
      fixes.push(
        'It holds every question term, but the passages above hold them more densely or earn bonuses it lacks (title, named entity): a specific heading or title with those words lifts it.',
      );
  }
  fixes.push(
    base.limitNeeded !== undefined
      ? `Or raise the limit to ${base.limitNeeded}.`
      : `It is not in the first ${base.searchedDepth}: name it in the question.`,
  );
  return fixes.join(' ');
}

/** Seed 000's fixes for a page nothing in the question points at. */
function noCandidateFix(base: Base): string {
  const doc = base.best?.entry.doc;
  const heading = base.missingTerms.length ? base.missingTerms.join(' ') : base.questionTerms.join(' ');
  const goodFor =
    doc?.sourceKind === 'library'
      ? ', or add a Good-for phrasing (good_for in its front matter) that names the work'
      : '';
  return `Nothing in the question points at it. Ask with the words the page uses, or give it a heading in the question's words (e.g. "## ${heading}")${goodFor}.`;
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
