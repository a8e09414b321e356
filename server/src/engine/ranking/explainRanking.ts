/**
 * "Why not this page?": where an expected page, section or entity stands for a question, and why,
 * read from the `workspace_context` ranker itself (never a second scoring): the answer at the
 * caller's limit, the same ranking run deeper to find the page's position, and the formula's own
 * why[] for the page's sections.
 *
 * Two sections of the page can matter, and the explanation tells them apart:
 * - its **top** section, the one that scores highest: the page ranks where this one does;
 * - its **best section for the question**, the one holding the most of the question's terms
 *   (weighted as the formula weighs them; the top one when none holds more). A fact buried in a
 *   big section loses to a short section that merely mentions the same words, so this is the
 *   section a fix is about, and the one the explanation shows.
 * A term is "lacking" only when no section of the page holds it.
 *
 * Causes, in the order they are told apart:
 * - `returned`: the page is in the answer, at rank k (and when its best section for the question
 *   is not, although another of its sections is, that is said, with the fix: never "nothing to
 *   fix" for a section the answer does not show);
 * - `held-back`: it is within the limit by score, but DOCUMENT_CAP passages of its own document
 *   came first (the per-document rule);
 * - `ranked-below-limit`: it is a candidate above the floor, ranked k-th, past the limit; the
 *   passages above it and what they hold that it lacks (terms, title, named entity) say why;
 * - `below-floor`: every section of it scores below FLOOR (the formula's why[] shows each term);
 * - `no-candidate`: it holds none of the question's terms (and meaning did not bring it).
 *
 * Each cause carries the fix the product description gives for it (split a big section where a
 * fact is buried, name the page's words in the question or a heading, a Good-for phrasing, raise
 * the limit). A page that is not in the index at all is explained by `explainTarget.ts`.
 */
import type { IndexState, SectionEntry } from '../indexState';
import { estimateTokens } from '../text/tokenEstimate';
import { FLOOR, MIN_MATCH, DOCUMENT_CAP } from './contract';
import {
  comparePassages,
  questionRanking,
  type MeaningSource,
  type QuestionRanking,
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
  /** Question terms this passage holds that no section of the page holds. */
  termsTheTargetLacks: string[];
  /** Question terms both hold, this passage more strongly than the page's best section: `rollback 1.00 (0.10 there)`. */
  termsHeldMoreStrongly: string[];
  /** Bonuses it earned that the page's best section did not (title, namedEntity, recency, runHealth). */
  bonusesTheTargetLacks: string[];
}

/** The page's best section for the question is big and holds the question's terms only weakly. */
export interface BuriedFact {
  /** Estimated tokens of the section. */
  tokens: number;
  /** The question terms it holds only weakly (all of them held, or none lacking beyond the page's). */
  weakTerms: string[];
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
  /** The page's best section for the question (the one holding the most of its terms), scored by the formula; null when no section of it is eligible. */
  best: RankedPassage | null;
  /** The best section's own position, when it is not the page's top section and comes within the deepest run. */
  bestRank: number | null;
  /** The page's highest-scoring section when it is not `best`: the page ranks where this one does. */
  top: RankedPassage | null;
  /** Question terms no section of the page holds. */
  missingTerms: string[];
  /** Question terms the best section holds only weakly (saturation below WEAK_SATURATION): a passing mention, or an identifier's parts. */
  weakTerms: string[];
  /** Set when the fact is buried in a big section (the best section is big and holds the question's terms weakly). */
  buried?: BuriedFact;
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

/** Where a set of sections first comes in the ranking run as deep as needed. */
interface Located {
  /** 1-based, at `limitNeeded` (or at the caller's limit when shown there); null when not found. */
  rank: number | null;
  limitNeeded?: number;
  searchedDepth: number;
  /** The ranking at the limit that shows it (or the deepest run). */
  deep: Ranked;
}

/**
 * Where the sections `isTarget` accepts stand for `options.question` across `folders`, merged by
 * the ranker's own order as `workspace_context` merges folders. `docIds`, when given, holds every
 * document with a section `isTarget` accepts: only their sections are tested, not every section
 * of the index.
 */
export function explainRanking(
  folders: readonly FolderRanking[],
  options: ExplainRankingOptions,
  isTarget: (entry: SectionEntry) => boolean,
  docIds?: ReadonlySet<string>,
): RankingExplanation {
  // Each folder's question analysed once; the ranking read at every limit the search asks for,
  // each limit merged once (the bisection and the best section's search ask again).
  const rankings = folders.map((f) => questionRanking(f.state, { ...options, meaning: f.meaning, ...named(f) }));
  const byLimit = new Map<number, Ranked>();
  const ranked = (limit: number) => {
    let run = byLimit.get(limit);
    if (!run) byLimit.set(limit, (run = merged(rankings, limit)));
    return run;
  };
  const answer = ranked(options.limit);
  const answerPassages = Array.from({ length: answer.size }, (_, k) => answer.passage(k));
  const shown = answer.has(isTarget);
  const sections = targetSections(folders, rankings, isTarget, docIds);
  // A page none of whose sections reaches the floor is in no run, so locate reads every depth to
  // the last: words only, the deepest run is made first and the shallower ones read from its prefix.
  const deepest = EXPLAIN_DEPTHS[EXPLAIN_DEPTHS.length - 1];
  if (
    deepest > options.limit &&
    folders.every((f) => f.meaning === null) &&
    sections.every((p) => p.score < FLOOR - SAME_SCORE)
  )
    ranked(deepest);
  const page = locate(ranked, answer, options.limit, isTarget);

  const top = sections[0] ?? null;
  const best = bestForQuestion(sections);
  const questionTerms = answer.terms;
  const held = new Set(sections.flatMap((p) => termsOf(p).present));
  const missingTerms = questionTerms.filter((t) => !held.has(t));
  const bestTokens = best ? estimateTokens(best.entry.section.text) : 0;
  const weakTerms = best ? weakTermsOf(best) : [];
  // Buried: the page holds every term, and its best section is big and says some of them only in
  // passing in its own text (a term held weakly by its title or an identifier's parts is not a
  // fact a split would free).
  const diluted = best ? weakTermsOf(best, true) : [];
  const buried: BuriedFact | undefined =
    best && bestTokens > BIG_SECTION_TOKENS && diluted.length > 0 && missingTerms.length === 0
      ? { tokens: bestTokens, weakTerms: diluted }
      : undefined;
  // The best section's own place, when the page ranks by another of its sections.
  const separate = best !== null && top !== null && best !== top;
  const bestPlace = separate ? locate(ranked, answer, options.limit, (e) => e === best.entry) : null;
  const aboveCount = page.rank === null ? Math.min(page.deep.size, ABOVE_SHOWN) : Math.min(page.rank - 1, ABOVE_SHOWN);
  const above = Array.from({ length: aboveCount }, (_, i) => describeAbove(i + 1, page.deep.passage(i), best, held));

  const base: Base = {
    rank: page.rank,
    limitNeeded: page.limitNeeded,
    searchedDepth: page.searchedDepth,
    limit: options.limit,
    best,
    bestRank: bestPlace?.rank ?? (separate ? null : page.rank),
    top: separate ? top : null,
    missingTerms,
    weakTerms,
    ...(buried ? { buried } : {}),
    questionTerms,
    bestTokens,
  };
  const answering = separate ? answeringSentence(base, bestPlace!) : '';
  if (shown) {
    const bestShown = !separate || answer.has((e) => e === best.entry);
    if (bestShown)
      return {
        ...base,
        standing: 'returned',
        above,
        summary: `It is returned, at rank ${page.rank} of ${answerPassages.length}.`,
        fix: 'Nothing to fix.',
      };
    return {
      ...base,
      standing: 'returned',
      above,
      summary: `Its section "${heading(top!)}" is returned, at rank ${page.rank} of ${answerPassages.length}, but not the section that answers.${answering}`,
      fix: sectionFix(base, bestPlace!),
    };
  }
  // By score it belongs in the answer, yet it is not there: only the per-document rule does that.
  const last = answerPassages.at(-1);
  const inByScore =
    top !== null &&
    top.score >= FLOOR &&
    (answerPassages.length < options.limit || (last !== undefined && comparePassages(top, last) < 0));
  if (inByScore && page.limitNeeded !== undefined) {
    return {
      ...base,
      standing: 'held-back',
      above,
      summary: `By score (${top!.score.toFixed(3)}) it is within the limit of ${options.limit}, but the per-document rule shows at most ${DOCUMENT_CAP} passages of one document while others are left, and its document's earlier passages came first.`,
      fix: `Ask about what this section says in its own words (its heading "${top!.entry.section.headingPath.at(-1) ?? ''}"), or raise the limit to ${page.limitNeeded} so its document's later passages are shown.`,
    };
  }
  if (page.rank !== null || (top && top.score >= FLOOR)) {
    const where =
      page.rank !== null
        ? `ranked ${ordinal(page.rank)} (it comes at limit ${page.limitNeeded})`
        : `ranked below the first ${page.searchedDepth}`;
    const by = separate ? `its section "${heading(top!)}", ` : '';
    return {
      ...base,
      standing: 'ranked-below-limit',
      above,
      summary: `It is a candidate (${by}score ${top ? top.score.toFixed(3) : '?'}), ${where}, past the limit of ${options.limit}.${aboveSummary(above)}${answering}`,
      fix: rankedFix(base, above),
    };
  }
  if (!best || held.size === 0) {
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
    summary: `Its best section for the question, "${heading(best)}", scores ${best.score.toFixed(3)}, below the floor ${FLOOR} (and so does every other section of it): ${holding(base)}.${gated}`,
    fix: belowFloorFix(base),
  };
}

/**
 * One merged ranking: its passages' sections, each passage explained when read. Its order is the
 * ranker's, where passages whose scores tie are ordered only when a position among them is read.
 */
interface Ranked {
  /** How many passages it shows. */
  size: number;
  /** The position of the first passage `accept` takes (-1 when none). */
  position(accept: (entry: SectionEntry) => boolean): number;
  /** Whether any passage is one `accept` takes (no ordering needed). */
  has(accept: (entry: SectionEntry) => boolean): boolean;
  passage(k: number): RankedPassage;
  terms: string[];
  /** True when any folder may hold more above the floor. */
  more: boolean;
}

/**
 * Two passages whose formula scores are further apart than this keep their order once explained
 * (why[] sums the same numbers in another order: they differ in the last digits, ~1e-15).
 */
const SAME_SCORE = 1e-9;

/**
 * The folders' rankings at `limit`, merged by the ranker's order (comparePassages, on the
 * explained passages). One folder's ranking is in that order already, but for passages whose
 * scores differ only in the last digits: those are explained and ordered a run of ties at a time,
 * when a position inside the run is read (the explain path reads a few positions of up to 5,000).
 */
function merged(rankings: readonly QuestionRanking[], limit: number): Ranked {
  const lists = rankings.map((r) => r.shownAt(limit));
  const terms = lists[0]?.terms.map((t) => t.surface) ?? [];
  const more = lists.some((l) => l.entries.length >= limit);
  if (lists.length !== 1) {
    const passages = lists
      .flatMap((l) => l.entries.map((_, i) => l.passage(i)))
      .sort(comparePassages)
      .slice(0, limit);
    const entries = passages.map((p) => p.entry);
    return {
      size: entries.length,
      position: (accept) => entries.findIndex(accept),
      has: (accept) => entries.some(accept),
      passage: (k) => passages[k],
      terms,
      more,
    };
  }
  const [list] = lists;
  const n = list.entries.length;
  // The run of ties each position is in: [runStart[i], runEnd(i)), by the ranker's scores.
  const runStart = new Int32Array(n);
  for (let i = 1; i < n; i++) runStart[i] = list.scores[i - 1] - list.scores[i] <= SAME_SCORE ? runStart[i - 1] : i;
  const runEnd = (i: number) => {
    let end = i + 1;
    while (end < n && runStart[end] === runStart[i]) end++;
    return end;
  };
  // order[k]: the list index shown k-th, once its run is ordered.
  const order = Array.from({ length: n }, (_, i) => i);
  const ordered = new Set<number>();
  const orderRun = (k: number) => {
    const start = runStart[k];
    if (ordered.has(start)) return;
    ordered.add(start);
    const end = runEnd(start);
    if (end - start < 2) return;
    const tied = order.slice(start, end).sort((a, b) => comparePassages(list.passage(a), list.passage(b)));
    for (let j = start; j < end; j++) order[j] = tied[j - start];
  };
  return {
    size: n,
    position: (accept) => {
      // Runs are blocks in both orders: the first run holding a taken passage holds the first one.
      const first = list.entries.findIndex(accept);
      if (first < 0) return -1;
      orderRun(first);
      const start = runStart[first];
      for (let k = start; k < n; k++) if (accept(list.entries[order[k]])) return k;
      return -1;
    },
    has: (accept) => list.entries.some(accept),
    passage: (k) => {
      orderRun(k);
      return list.passage(order[k]);
    },
    terms,
    more,
  };
}

/**
 * Where the first section `accept` takes comes: in the answer at the caller's limit, else in the
 * ranking run deeper (EXPLAIN_DEPTHS), with the smallest limit that shows it (the per-document
 * rule makes a page's position depend on the limit).
 */
function locate(
  ranked: (limit: number) => Ranked,
  answer: Ranked,
  limit: number,
  accept: (entry: SectionEntry) => boolean,
): Located {
  const shown = answer.position(accept);
  if (shown >= 0) return { rank: shown + 1, searchedDepth: limit, deep: answer };
  let deep = answer;
  let searchedDepth = limit;
  for (const depth of EXPLAIN_DEPTHS) {
    if (depth <= limit) continue;
    const run = ranked(depth);
    deep = run;
    searchedDepth = depth;
    if (deep.has(accept)) {
      let low = limit;
      let high: number = depth;
      while (high - low > 1) {
        const mid = Math.floor((low + high) / 2);
        if (ranked(mid).has(accept)) high = mid;
        else low = mid;
      }
      const at = ranked(high);
      return { rank: at.position(accept) + 1, limitNeeded: high, searchedDepth: depth, deep: at };
    }
    if (!run.more) break;
  }
  return { rank: null, searchedDepth, deep };
}

/** Every section of the target, scored by the formula, best first (the ranker's order). */
function targetSections(
  folders: readonly FolderRanking[],
  rankings: readonly QuestionRanking[],
  isTarget: (entry: SectionEntry) => boolean,
  docIds: ReadonlySet<string> | undefined,
): RankedPassage[] {
  const out: RankedPassage[] = [];
  folders.forEach((f, i) => {
    const ordinals = docIds ? ordinalsWithin(f.state, docIds, isTarget) : ordinalsOf(f.state, isTarget);
    if (ordinals.length > 0) out.push(...rankings[i].scoreSections(ordinals));
  });
  return out.sort(comparePassages);
}

/** The ordinals of the sections `isTarget` accepts, in index order: every section tested. */
function ordinalsOf(state: IndexState, isTarget: (entry: SectionEntry) => boolean): number[] {
  const ordinals: number[] = [];
  for (const entry of state.sections) if (entry && isTarget(entry)) ordinals.push(entry.ordinal);
  return ordinals;
}

/**
 * The same, reading only the sections of the documents `docIds` (a page's few sections, looked up
 * by id, rather than 100k tested), in index order as `ordinalsOf` gives them.
 */
function ordinalsWithin(
  state: IndexState,
  docIds: ReadonlySet<string>,
  isTarget: (entry: SectionEntry) => boolean,
): number[] {
  const ordinals = new Set<number>();
  for (const id of docIds) {
    for (const section of state.docs.get(id)?.sections ?? []) {
      const ordinal = state.sectionOrdinalById.get(section.id);
      const entry = ordinal === undefined ? undefined : state.sections[ordinal];
      if (entry && isTarget(entry)) ordinals.add(entry.ordinal);
    }
  }
  return [...ordinals].sort((a, b) => a - b);
}

/** The share of the question's weight a passage holds at all (each held term's share, however weakly held). */
function coverage(passage: RankedPassage): number {
  return (passage.why.find((w) => w.signal === 'words')?.terms ?? [])
    .filter((t) => t.saturation > 0)
    .reduce((sum, t) => sum + t.share, 0);
}

/** The section holding the most of the question (by the formula's weights); the top-scoring one among equals. */
function bestForQuestion(sections: readonly RankedPassage[]): RankedPassage | null {
  let best: RankedPassage | null = null;
  for (const p of sections) if (!best || coverage(p) > coverage(best) + 1e-9) best = p;
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

function describeAbove(
  rank: number,
  passage: RankedPassage,
  best: RankedPassage | null,
  pageHolds: ReadonlySet<string>,
): PassageAbove {
  const termsTheTargetLacks = termsOf(passage).present.filter((t) => !pageHolds.has(t));
  const bestHolds = new Set(best ? termsOf(best).present : []);
  const targetSaturation = new Map(
    (best?.why.find((w) => w.signal === 'words')?.terms ?? []).map((t) => [t.term, t.saturation]),
  );
  const termsHeldMoreStrongly = (passage.why.find((w) => w.signal === 'words')?.terms ?? [])
    .filter(
      (t) =>
        pageHolds.has(t.term) &&
        t.saturation > 0 &&
        t.saturation >= (targetSaturation.get(t.term) ?? 0) + STRONGER_BY &&
        (bestHolds.has(t.term) || !best),
    )
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
  | 'bestRank'
  | 'top'
  | 'missingTerms'
  | 'weakTerms'
  | 'buried'
  | 'questionTerms'
  | 'bestTokens'
>;

/** Question terms a passage holds with a saturation below WEAK_SATURATION (`inBody`: in its own body text, as written). */
function weakTermsOf(passage: RankedPassage, inBody = false): string[] {
  return (passage.why.find((w) => w.signal === 'words')?.terms ?? [])
    .filter((t) => t.saturation > 0 && t.saturation < WEAK_SATURATION)
    .filter((t) => !inBody || (t.fields.includes('body') && t.matched === undefined))
    .map((t) => t.term);
}

function heading(p: RankedPassage): string {
  return p.entry.section.headingPath.at(-1) ?? p.entry.doc.title;
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

/**
 * What the page's best section for the question is, when the page ranks by another section:
 * which terms it holds that the top one does not, its size, and where it comes.
 */
function answeringSentence(base: Base, place: Located): string {
  const best = base.best!;
  const topHolds = new Set(termsOf(base.top!).present);
  const more = termsOf(best).present.filter((t) => !topHolds.has(t));
  const where =
    place.rank !== null
      ? `ranks ${ordinal(place.rank)}${place.limitNeeded !== undefined ? ` (it comes at limit ${place.limitNeeded})` : ''}`
      : `is not in the first ${place.searchedDepth}`;
  const buried = base.buried
    ? ` The fact is buried in a big section: it holds ${base.buried.weakTerms.join(', ')} only weakly in about ${base.buried.tokens} tokens.`
    : '';
  return ` The section that holds the most of the question, "${heading(best)}" (${best.entry.doc.path}:${best.entry.section.startLine}, about ${base.bestTokens} tokens), holds ${more.length ? `${more.join(', ')}, which "${heading(base.top!)}" lacks,` : 'the same terms'} and ${where}.${buried}`;
}

/** Seed 000's fix for a fact buried in a big section. */
function buriedFix(base: Base): string {
  return `The fact is buried in a big section ("${heading(base.best!)}", about ${base.bestTokens} tokens): a term in so long a section counts for little. Split it with specific headings, so the part that answers stands on its own (e.g. "## ${base.buried!.weakTerms.join(' ')}" over it).`;
}

/** The page is returned by another section: what would bring the section that answers. */
function sectionFix(base: Base, place: Located): string {
  if (base.buried) return buriedFix(base);
  const words = base.weakTerms.length ? base.weakTerms : base.questionTerms;
  return `Give "${heading(base.best!)}" a heading in the words people ask with ("## ${words.join(' ')}")${place.limitNeeded !== undefined ? `, or raise the limit to ${place.limitNeeded}` : ''}.`;
}

/** Seed 000's fixes for a page below the floor: a big section to split, terms to name. */
function belowFloorFix(base: Base): string {
  if (base.buried && base.missingTerms.length === 0) return buriedFix(base);
  if (base.missingTerms.length === 0 && base.weakTerms.length) {
    return `It mentions ${base.weakTerms.join(', ')} only in passing: give the part that answers a heading in those words ("## ${base.weakTerms.join(' ')}").`;
  }
  return noCandidateFix(base);
}

/** Seed 000's fixes for a page that ranks, but too low. */
function rankedFix(base: Base, above: readonly PassageAbove[]): string {
  const fixes: string[] = [];
  if (base.buried) fixes.push(buriedFix(base));
  const lacked = [...new Set(above.flatMap((a) => a.termsTheTargetLacks))];
  if (base.missingTerms.length) {
    fixes.push(
      `No section of it holds ${base.missingTerms.join(', ')}${lacked.length ? ` (the passages above hold ${lacked.join(', ')})` : ''}: ask with the page's own words, or give the section a heading in the words people ask with (a library page: a Good-for phrasing).`,
    );
  } else if (!base.buried) {
    const weak = (base.best?.why.find((w) => w.signal === 'words')?.terms ?? []).filter(
      (t) => t.saturation > 0 && t.saturation < WEAK_SATURATION,
    );
    if (weak.length)
      fixes.push(
        `It holds ${weak.map((t) => `${t.term} only weakly (${t.saturation.toFixed(2)}${t.fields.includes('parts') ? ', by its parts' : ''})`).join(', ')}: nothing in the question points at it as strongly as at the passages above; a heading in the words people ask with ("${weak.map((t) => t.term).join(' ')}") lifts it.`,
      );
    else
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
  const words = base.missingTerms.length ? base.missingTerms.join(' ') : base.questionTerms.join(' ');
  const goodFor =
    doc?.sourceKind === 'library'
      ? ', or add a Good-for phrasing (good_for in its front matter) that names the work'
      : '';
  return `Nothing in the question points at it. Ask with the words the page uses, or give it a heading in the question's words (e.g. "## ${words}")${goodFor}.`;
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
