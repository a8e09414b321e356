/**
 * Orders `workspace_context` candidates by the published contract (contract.ts), explaining every
 * score term by term in `why[]`.
 *
 * Candidates come from the postings index (any query term present) and, when embeddings are on,
 * from the vector index (the passages nearest in meaning). Candidate generators only find; the
 * order is always the formula. To stay fast on large workspaces the bonuses are computed only for
 * passages that can still reach the top: a passage whose match plus the largest possible bonus is
 * below the current k-th score cannot.
 */
import type { IndexState, SectionEntry } from '../indexState';
import { MAX_MATCH_UNITS } from '../lexical/postings';
import type { EntityKey, SourceKind } from '../model';
import { analyzeQuery, type QueryTerm } from '../text/analyzer';
import {
  FLOOR,
  idf,
  MAX_BONUS,
  MEANING_WEIGHT,
  meaningRaw,
  MIN_MATCH,
  NAMED_ENTITY_WEIGHT,
  RECENCY_WEIGHT,
  recencyRaw,
  RUN_HEALTH_WEIGHT,
  TITLE_WEIGHT,
  WORDS_WEIGHT,
  type Signal,
  type SimilarityAnchors,
} from './contract';
import { entityDictionary, type NamedEntity } from './namedEntities';

/** What the meaning half of the score can ask about a section. */
export interface MeaningSource {
  /** Cosine of the question's embedding with the section's (best window), or null without a vector. */
  cosine(ordinal: number): number | null;
  /** The model's cosine anchors (contract.ts `meaningRaw`). */
  anchors: SimilarityAnchors;
  /** Sections nearest the question in meaning: a second candidate generator. */
  nearest: readonly number[];
}

export interface RankOptions {
  question: string;
  /** 1..50. */
  limit: number;
  /** Epoch ms "now" for recency. */
  now: number;
  sourceKinds?: ReadonlySet<SourceKind>;
  /** Only sections of documents in this workspace folder. */
  folder?: string;
  /** Null or absent: embeddings off, every passage ranks on words at full weight. */
  meaning?: MeaningSource | null;
}

export interface WhyTerm {
  signal: Signal;
  weight: number;
  raw: number;
  contribution: number;
  detail: string;
}

export interface RankedPassage {
  entry: SectionEntry;
  score: number;
  match: number;
  why: WhyTerm[];
  /**
   * Weighted share of the question's terms the section says itself (heading or body) rather than
   * inherits from its document's title, folder or tags. Not part of the score: it only orders
   * passages whose scores are equal, most specific first.
   */
  ownWords: number;
}

export interface QueryUnitInfo {
  term: string;
  surface: string;
  /** Inverse document frequency weight of the term. */
  weight: number;
}

export interface RankResult {
  passages: RankedPassage[];
  terms: QueryUnitInfo[];
  /** Query terms past the postings index's 32-unit limit, not used. */
  droppedTerms: string[];
  named: NamedEntity[];
  /** Candidates considered (lexical and meaning). */
  candidates: number;
}

interface Unit {
  term: QueryTerm;
  mainBit: number;
  weight: number;
}

export function rankWorkspaceContext(state: IndexState, options: RankOptions): RankResult {
  const { units, specs, dropped } = planUnits(analyzeQuery(options.question));
  const named = entityDictionary(state.entities).find(options.question);
  const namedKeys = new Set(named.map((n) => n.key));
  const sectionCount = Math.max(1, state.lexical.sectionCount);
  for (const unit of units) unit.weight = unitWeight(state, unit, sectionCount);
  const totalWeight = units.reduce((sum, u) => sum + u.weight, 0);
  const terms = units.map((u) => ({ term: u.term.key, surface: u.term.surface, weight: u.weight }));

  const scorer = new PassageScorer(state, options, units, totalWeight, namedKeys, named);
  const lexical = units.length ? state.lexical.match(specs) : { ordinals: new Uint32Array(0), masks: new Uint32Array(0), count: 0 };
  const wordsByMask = new Map<number, number>();
  const candidates: { ordinal: number; words: number; mask: number }[] = [];
  for (let i = 0; i < lexical.count; i++) {
    const mask = lexical.masks[i];
    let words = wordsByMask.get(mask);
    if (words === undefined) {
      words = totalWeight > 0 ? presentWeight(units, mask) / totalWeight : 0;
      wordsByMask.set(mask, words);
    }
    candidates.push({ ordinal: lexical.ordinals[i], words, mask });
  }
  const seen = new Set(candidates.map((c) => c.ordinal));
  for (const ordinal of options.meaning?.nearest ?? []) {
    if (!seen.has(ordinal)) candidates.push({ ordinal, words: 0, mask: 0 });
  }

  // Stage 1: the match (words and meaning) of every eligible candidate. Meaning is only asked
  // for candidates that could still matter: the best by words, and the meaning candidates.
  const eligible = candidates.filter((c) => scorer.eligible(c.ordinal));
  eligible.sort((a, b) => b.words - a.words || a.ordinal - b.ordinal);
  const meaningShortlist = Math.max(200, options.limit * 40);
  const matched = eligible.map((c, rank) => scorer.match(c.ordinal, c.words, c.mask, rank < meaningShortlist || c.mask === 0));

  // Stage 2: full scores, best matches first, stopping once no remaining match can enter the top.
  matched.sort((a, b) => b.match - a.match || a.ordinal - b.ordinal);
  const top: RankedPassage[] = [];
  for (const m of matched) {
    if (top.length >= options.limit && m.match + MAX_BONUS < top[top.length - 1].score) break;
    const passage = scorer.finish(m);
    if (passage.score < FLOOR) continue;
    insertSorted(top, passage, options.limit);
  }
  return { passages: top, terms, droppedTerms: dropped, named, candidates: candidates.length };
}

interface Matched {
  ordinal: number;
  words: number;
  mask: number;
  cosine: number | null;
  match: number;
}

class PassageScorer {
  constructor(
    private readonly state: IndexState,
    private readonly options: RankOptions,
    private readonly units: readonly Unit[],
    private readonly totalWeight: number,
    private readonly namedKeys: ReadonlySet<EntityKey>,
    private readonly named: readonly NamedEntity[],
  ) {}

  eligible(ordinal: number): boolean {
    const entry = this.state.sections[ordinal];
    if (!entry) return false;
    if (this.options.sourceKinds && !this.options.sourceKinds.has(entry.doc.sourceKind)) return false;
    if (this.options.folder !== undefined && entry.doc.folder !== this.options.folder) return false;
    return true;
  }

  match(ordinal: number, words: number, mask: number, askMeaning: boolean): Matched {
    const cosine = askMeaning && this.options.meaning ? this.options.meaning.cosine(ordinal) : null;
    const match = cosine === null ? words : WORDS_WEIGHT * words + MEANING_WEIGHT * meaningRaw(cosine, this.options.meaning!.anchors);
    return { ordinal, words, mask, cosine, match };
  }

  finish(m: Matched): RankedPassage {
    const entry = this.state.sections[m.ordinal]!;
    const why: WhyTerm[] = [];
    const hasVector = m.cosine !== null;
    why.push(term('words', hasVector ? WORDS_WEIGHT : 1, m.words, this.wordsDetail(m.mask)));
    if (hasVector) {
      const anchors = this.options.meaning!.anchors;
      why.push(term('meaning', MEANING_WEIGHT, meaningRaw(m.cosine!, anchors), `cosine ${m.cosine!.toFixed(3)} (0 at ${anchors.unrelated}, 1 at ${anchors.related} for this model)`));
    }
    else why.push({ signal: 'meaning', weight: 0, raw: 0, contribution: 0, detail: this.options.meaning ? 'no embedding for this passage yet: words count at full weight' : 'embeddings are off: words count at full weight' });

    const bonuses = m.match >= MIN_MATCH;
    const gate = `no bonus: match ${m.match.toFixed(3)} is below the minimum ${MIN_MATCH}`;
    const title = this.titleRaw(entry, m.mask);
    why.push(bonuses ? term('title', TITLE_WEIGHT, title.raw, title.detail) : zero('title', TITLE_WEIGHT, gate));
    const entity = this.namedRaw(entry);
    why.push(bonuses ? term('namedEntity', NAMED_ENTITY_WEIGHT, entity.raw, entity.detail) : zero('namedEntity', NAMED_ENTITY_WEIGHT, gate));
    const recency = this.recencyRaw(entry);
    why.push(bonuses ? term('recency', RECENCY_WEIGHT, recency.raw, recency.detail) : zero('recency', RECENCY_WEIGHT, gate));
    const health = this.runHealthRaw(entry);
    why.push(bonuses ? term('runHealth', RUN_HEALTH_WEIGHT, health.raw, health.detail) : zero('runHealth', RUN_HEALTH_WEIGHT, gate));

    // The score is the sum of the listed contributions, in order: why[] always adds up.
    let score = 0;
    for (const t of why) score += t.contribution;
    return { entry, score, match: m.match, why, ownWords: this.ownWords(entry, m.mask) };
  }

  private ownWords(entry: SectionEntry, mask: number): number {
    if (this.totalWeight === 0) return 0;
    const context = this.state.contextTerms.get(entry.doc.id);
    let weight = 0;
    for (const unit of this.units) {
      if (unitPresent(unit, mask) && !context?.has(unit.term.key)) weight += unit.weight;
    }
    return weight / this.totalWeight;
  }

  private wordsDetail(mask: number): string {
    if (this.units.length === 0) return 'the question has no searchable words';
    const present = this.units.filter((u) => unitPresent(u, mask)).map((u) => u.term.surface);
    const missing = this.units.filter((u) => !unitPresent(u, mask)).map((u) => u.term.surface);
    const head = `${present.length} of ${this.units.length} terms`;
    return [head, present.length ? `matched ${present.join(', ')}` : '', missing.length ? `missing ${missing.join(', ')}` : '']
      .filter(Boolean)
      .join('; ');
  }

  private titleRaw(entry: SectionEntry, mask: number): { raw: number; detail: string } {
    const titleTerms = this.state.titleTerms.get(entry.doc.id);
    if (!titleTerms || this.totalWeight === 0) return { raw: 0, detail: `no question term in the title "${entry.doc.title}"` };
    let weight = 0;
    const hits: string[] = [];
    for (const unit of this.units) {
      if (!unitPresent(unit, mask)) continue;
      if (titleTerms.has(unit.term.key)) {
        weight += unit.weight;
        hits.push(unit.term.surface);
      }
    }
    if (hits.length === 0) return { raw: 0, detail: `no question term in the title "${entry.doc.title}"` };
    return { raw: weight / this.totalWeight, detail: `title "${entry.doc.title}" holds ${hits.join(', ')}` };
  }

  private namedRaw(entry: SectionEntry): { raw: number; detail: string } {
    if (this.namedKeys.size === 0) return { raw: 0, detail: 'the question names no catalog entity' };
    const refs = entry.section.entityRefs ?? entry.doc.entityRefs;
    const hit = this.named.find((n) => refs.includes(n.key));
    if (!hit) return { raw: 0, detail: `belongs to none of the named entities (${this.named.map((n) => n.ref).join(', ')})` };
    return { raw: 1, detail: `belongs to ${hit.ref}, named as "${hit.phrase}"` };
  }

  private recencyRaw(entry: SectionEntry): { raw: number; detail: string } {
    const info = this.state.commits.get(entry.doc.path);
    if (!info || info.lastCommitTime === null) return { raw: 0, detail: 'no commit history for this file' };
    const age = this.options.now - info.lastCommitTime;
    const days = Math.max(0, Math.floor(age / 86_400_000));
    return { raw: recencyRaw(age), detail: `last committed ${days} day${days === 1 ? '' : 's'} ago` };
  }

  private runHealthRaw(entry: SectionEntry): { raw: number; detail: string } {
    const root = repoRootOf(this.state, entry.doc.path);
    const health = root === undefined ? undefined : this.state.runHealth.get(root);
    if (!health || health.verdict === 'unknown') return { raw: 0, detail: `no run verdict for repository ${root || '.'} (unknown counts as nothing)` };
    const when = health.finishedAt ? ` at ${health.finishedAt}` : '';
    return { raw: health.verdict === 'succeeded' ? 1 : 0, detail: `last run of ${root || '.'} ${health.verdict}${when}` };
  }
}

function term(signal: Signal, weight: number, raw: number, detail: string): WhyTerm {
  return { signal, weight, raw, contribution: weight * raw, detail };
}

function zero(signal: Signal, weight: number, detail: string): WhyTerm {
  return { signal, weight, raw: 0, contribution: 0, detail };
}

/** Lays the query's units out as postings match units, one bit per term; terms past 32 are dropped and reported. */
function planUnits(queryTerms: QueryTerm[]): { units: Unit[]; specs: string[][]; dropped: string[] } {
  const specs: string[][] = [];
  const bitOf = new Map<string, number>();
  const bit = (key: string): number | null => {
    const known = bitOf.get(key);
    if (known !== undefined) return known;
    if (specs.length >= MAX_MATCH_UNITS) return null;
    specs.push([key]);
    bitOf.set(key, specs.length - 1);
    return specs.length - 1;
  };
  const units: Unit[] = [];
  const dropped: string[] = [];
  for (const queryTerm of queryTerms) {
    const main = bit(queryTerm.key);
    if (main === null) {
      dropped.push(queryTerm.surface);
      continue;
    }
    units.push({ term: queryTerm, mainBit: 1 << main, weight: 0 });
  }
  return { units, specs, dropped };
}

function unitWeight(state: IndexState, unit: Unit, n: number): number {
  return idf(state.lexical.df(unit.term.key), n);
}

/**
 * A question's identifier counts only when the passage holds it whole (seed 001: "the identifier is
 * matched whole"); its parts reach passages the other way round, as index terms of passages that
 * write the identifier ("workers" finds `billing-worker`).
 */
function unitPresent(unit: Unit, mask: number): boolean {
  return (mask & unit.mainBit) !== 0;
}

function presentWeight(units: readonly Unit[], mask: number): number {
  let sum = 0;
  for (const unit of units) if (unitPresent(unit, mask)) sum += unit.weight;
  return sum;
}

/**
 * Keeps `top` sorted best first and at most `limit` long. Equal scores are ordered by match, then
 * by how much of the question the section says itself, then by position in the document, then by
 * section id, so the same question on the same index always gives the same order.
 */
function insertSorted(top: RankedPassage[], passage: RankedPassage, limit: number): void {
  const better = (a: RankedPassage, b: RankedPassage): boolean => {
    if (a.score !== b.score) return a.score > b.score;
    if (a.match !== b.match) return a.match > b.match;
    if (a.ownWords !== b.ownWords) return a.ownWords > b.ownWords;
    if (a.entry.doc.id === b.entry.doc.id && a.entry.section.startLine !== b.entry.section.startLine) return a.entry.section.startLine < b.entry.section.startLine;
    return a.entry.section.id < b.entry.section.id;
  };
  let i = top.length;
  while (i > 0 && better(passage, top[i - 1])) i--;
  if (i >= limit) return;
  top.splice(i, 0, passage);
  if (top.length > limit) top.pop();
}

const rootCache = new WeakMap<IndexState, Map<string, string | undefined>>();

/** The innermost repository root holding a workspace-relative path. */
export function repoRootOf(state: IndexState, path: string): string | undefined {
  let cache = rootCache.get(state);
  if (!cache) rootCache.set(state, (cache = new Map()));
  if (cache.has(path)) return cache.get(path);
  let best: string | undefined;
  for (const repo of state.repos) {
    const prefix = repo.root === '' ? '' : `${repo.root}/`;
    if ((repo.root === '' || path.startsWith(prefix)) && (best === undefined || repo.root.length > best.length)) best = repo.root;
  }
  cache.set(path, best);
  return best;
}
