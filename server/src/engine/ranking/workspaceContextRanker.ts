/**
 * Orders `workspace_context` candidates by the published contract (contract.ts), explaining every
 * score term by term in `why[]`.
 *
 * Candidates come from the postings index (any question term present) and, when embeddings are
 * on, from the vector index (the passages nearest in meaning). Candidate generators only find;
 * the order is always the formula.
 *
 * Speed: a common term can make most of a large workspace a candidate, so the hot loop scores a
 * candidate with numbers only. A passage's words score depends only on which question terms it
 * holds (its bit mask), and every bonus is a per-document value read from typed arrays
 * (rankingTables.ts), so a candidate costs a few array reads; only the final few get a `why[]`
 * with its words. Candidates with a vector need a cosine: they are first bounded by the best
 * meaning they could have, and their cosine is only computed while that bound can still reach
 * the top. A section outside the nearest ones by meaning cannot beat the last nearest hit's
 * cosine, which is the bound used for it; at 100k sections that spares most of the cosines
 * (with HNSW the bound is as good as its recall: a section the graph search missed may be bounded
 * below its cosine, the rare case where an approximate index changes an order).
 */
import type { IndexState, SectionEntry } from '../indexState';
import { MAX_MATCH_UNITS } from '../lexical/postings';
import { SOURCE_KINDS, type SourceKind } from '../model';
import { analyzeQuery, type QueryTerm } from '../text/analyzer';
import * as contract from './contract';
import type { Signal, SimilarityAnchors } from './contract';
import { entityDictionary, type NamedEntity } from './namedEntities';
import { rankingTables, type RankingTables } from './rankingTables';

// Local bindings of the contract's numbers and helpers: read once here rather than through a
// module namespace on every candidate of the hot loop (a measurable cost under CommonJS
// transforms, where each imported name is a getter).
const { FLOOR, MEANING_WEIGHT, MIN_MATCH, NAMED_ENTITY_WEIGHT, RECENCY_WEIGHT, RUN_HEALTH_WEIGHT, TITLE_WEIGHT, WORDS_WEIGHT } = contract;
const { idf, meaningRaw, recencyRaw } = contract;

/** What the meaning half of the score can ask about a section. */
export interface MeaningSource {
  /** Cosine of the question's embedding with the section's (best window), or null without a vector for its text. */
  cosine(ordinal: number): number | null;
  /** True when the section may have a vector (cheap; `cosine` has the last word). */
  hasVector(ordinal: number): boolean;
  /** The model's cosine anchors (contract.ts `meaningRaw`). */
  anchors: SimilarityAnchors;
  /** Sections nearest the question in meaning: a second candidate generator. */
  nearest: readonly number[];
  /**
   * The highest cosine a section outside `nearest` can have (the last nearest hit's), or null
   * when unknown. It bounds those sections' meaning, so most of them need no cosine at all.
   */
  outsideCosine: number | null;
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
  bit: number;
  weight: number;
}

/** One scored candidate: enough to order it and, if it is kept, to explain it. */
interface Scored {
  ordinal: number;
  doc: number;
  mask: number;
  cosine: number | null;
  words: number;
  match: number;
  score: number;
  own: number;
}

export function rankWorkspaceContext(state: IndexState, options: RankOptions): RankResult {
  const { units, dropped } = planUnits(analyzeQuery(options.question));
  const named = entityDictionary(state.entities).find(options.question);
  const n = Math.max(1, state.lexical.sectionCount);
  for (const unit of units) unit.weight = idf(state.lexical.df(unit.term.key), n);
  const terms = units.map((u) => ({ term: u.term.key, surface: u.term.surface, weight: u.weight }));
  const scorer = new Scorer(state, rankingTables(state), options, units, named);
  const top = new TopK(options.limit, state.sections);

  const lexical = units.length ? state.lexical.match(units.map((u) => [u.term.key])) : { ordinals: new Uint32Array(0), masks: new Uint32Array(0), count: 0 };
  const meaning = options.meaning ?? null;
  let candidates = lexical.count;

  // The nearest sections by meaning first, with their cosines: their scores fill the top, so
  // that most lexical candidates below are rejected on their bound without a cosine.
  const nearestMask = new Map<number, number>();
  if (meaning) {
    for (const ordinal of meaning.nearest) nearestMask.set(ordinal, NOT_LEXICAL);
    for (let i = 0; i < lexical.count; i++) if (nearestMask.has(lexical.ordinals[i])) nearestMask.set(lexical.ordinals[i], lexical.masks[i]);
    for (const [ordinal, found] of nearestMask) {
      if (found === NOT_LEXICAL) candidates++;
      const doc = scorer.eligibleDoc(ordinal);
      if (doc >= 0) top.offer(scorer.score(ordinal, doc, found === NOT_LEXICAL ? 0 : found, meaning.cosine(ordinal)));
    }
  }

  // Lexical candidates, scored with numbers; those with a vector wait for their cosine, bounded
  // by the best meaning a section outside the nearest can have.
  const outsideMeaning = meaning && meaning.outsideCosine !== null ? meaningRaw(meaning.outsideCosine, meaning.anchors) : 1;
  const deferred: { ordinal: number; doc: number; mask: number; bound: number }[] = [];
  for (let i = 0; i < lexical.count; i++) {
    const ordinal = lexical.ordinals[i];
    if (nearestMask.has(ordinal)) continue;
    const doc = scorer.eligibleDoc(ordinal);
    if (doc < 0) continue;
    const mask = lexical.masks[i];
    if (meaning && meaning.hasVector(ordinal)) {
      const bound = scorer.upperBound(doc, mask, outsideMeaning);
      if (!top.rejects(bound)) deferred.push({ ordinal, doc, mask, bound });
    } else if (!top.rejects(scorer.wordsOnlyScore(doc, mask))) {
      // Most candidates stop at the line above; only those that can enter the top are built.
      top.offer(scorer.score(ordinal, doc, mask, null));
    }
  }
  if (meaning) {
    // Best bounds first; stop once no remaining bound can enter the top.
    deferred.sort((a, b) => b.bound - a.bound || a.ordinal - b.ordinal);
    for (const c of deferred) {
      if (top.rejects(c.bound)) break;
      top.offer(scorer.score(c.ordinal, c.doc, c.mask, meaning.cosine(c.ordinal)));
    }
  }
  return { passages: top.sorted().map((s) => scorer.explain(s)), terms, droppedTerms: dropped, named, candidates };
}

/** Marks a nearest section that holds no question term (masks are never negative). */
const NOT_LEXICAL = -1;

/** Questions of up to this many terms get a words table indexed by mask (2^12 entries). */
const WORDS_TABLE_UNITS = 12;

class Scorer {
  private readonly totalWeight: number;
  private readonly wordsByMask = new Map<number, number>();
  /** words(mask) for every mask, when the question is short enough (the usual case). */
  private readonly wordsTable: Float64Array | null;
  /** Per document: named-entity + recency + run-health bonus, which do not depend on the mask. */
  private readonly staticBonus: Float64Array;
  /** Per document: bit mask of the question terms its title holds, and its context fields. */
  private readonly titleMask: Int32Array;
  private readonly contextMask: Int32Array;
  private readonly namedDoc: Uint8Array;
  private readonly kindAllowed: Uint8Array | null;

  constructor(
    private readonly state: IndexState,
    private readonly tables: RankingTables,
    private readonly options: RankOptions,
    private readonly units: readonly Unit[],
    private readonly named: readonly NamedEntity[],
  ) {
    this.totalWeight = units.reduce((sum, u) => sum + u.weight, 0);
    const docs = tables.docs.length;
    this.titleMask = new Int32Array(docs);
    this.contextMask = new Int32Array(docs);
    for (const unit of units) {
      for (const d of tables.titleIndex.get(unit.term.key) ?? []) this.titleMask[d] |= unit.bit;
      for (const d of tables.contextIndex.get(unit.term.key) ?? []) this.contextMask[d] |= unit.bit;
    }
    this.namedDoc = new Uint8Array(docs);
    for (const entity of named) for (const d of tables.entityDocs.get(entity.key) ?? []) this.namedDoc[d] = 1;
    this.kindAllowed = options.sourceKinds ? Uint8Array.from(SOURCE_KINDS, (k) => (options.sourceKinds!.has(k) ? 1 : 0)) : null;
    this.wordsTable = units.length <= WORDS_TABLE_UNITS ? wordsTable(units, this.totalWeight) : null;
    this.staticBonus = new Float64Array(docs);
    for (let d = 0; d < docs; d++) {
      const commit = tables.lastCommitOfDoc[d];
      this.staticBonus[d] =
        NAMED_ENTITY_WEIGHT * this.namedDoc[d] +
        RECENCY_WEIGHT * (Number.isNaN(commit) ? 0 : recencyRaw(options.now - commit)) +
        RUN_HEALTH_WEIGHT * tables.healthyDoc[d];
    }
  }

  /** The candidate's document index, or -1 when the section is gone or filtered out. */
  eligibleDoc(ordinal: number): number {
    const d = ordinal < this.tables.docOfSection.length ? this.tables.docOfSection[ordinal] : -1;
    if (d < 0) return -1;
    if (this.kindAllowed && !this.kindAllowed[this.tables.kindOfDoc[d]]) return -1;
    if (this.options.folder !== undefined && this.tables.folderOfDoc[d] !== this.options.folder) return -1;
    return d;
  }

  words(mask: number): number {
    if (this.wordsTable) return this.wordsTable[mask >>> 0];
    let w = this.wordsByMask.get(mask);
    if (w === undefined) {
      let sum = 0;
      for (const unit of this.units) if (mask & unit.bit) sum += unit.weight;
      w = this.totalWeight > 0 ? sum / this.totalWeight : 0;
      this.wordsByMask.set(mask, w);
    }
    return w;
  }

  /** The score of a passage without a vector, as a number only (the hot path). */
  wordsOnlyScore(doc: number, mask: number): number {
    const words = this.words(mask);
    return words >= MIN_MATCH ? words + this.bonuses(doc, mask) : words;
  }

  /** The best score a passage with a vector could reach: full meaning, every bonus it qualifies for. */
  /** The best score a candidate with a vector can reach when its meaning is at most `meaningMax`. */
  upperBound(doc: number, mask: number, meaningMax: number): number {
    // Without its vector (text changed since) a candidate scores its words at full weight.
    const words = this.words(mask);
    return Math.max(words, WORDS_WEIGHT * words + MEANING_WEIGHT * meaningMax) + this.bonuses(doc, mask);
  }

  score(ordinal: number, doc: number, mask: number, cosine: number | null): Scored {
    const words = this.words(mask);
    const match = cosine === null ? words : WORDS_WEIGHT * words + MEANING_WEIGHT * meaningRaw(cosine, this.options.meaning!.anchors);
    const score = match + (match >= MIN_MATCH ? this.bonuses(doc, mask) : 0);
    const own = this.words(mask & ~this.contextMask[doc]);
    return { ordinal, doc, mask, cosine, words, match, score, own };
  }

  private bonuses(doc: number, mask: number): number {
    const title = this.titleMask[doc];
    return this.staticBonus[doc] + (title === 0 ? 0 : TITLE_WEIGHT * this.words(mask & title));
  }

  /** The kept passage with its why[]: every term, weight, raw value, contribution and detail. */
  explain(s: Scored): RankedPassage {
    const entry = this.state.sections[s.ordinal]!;
    const doc = entry.doc;
    const why: WhyTerm[] = [];
    const hasVector = s.cosine !== null;
    why.push(term('words', hasVector ? WORDS_WEIGHT : 1, s.words, this.wordsDetail(s.mask)));
    if (hasVector) {
      const anchors = this.options.meaning!.anchors;
      why.push(term('meaning', MEANING_WEIGHT, meaningRaw(s.cosine!, anchors), `cosine ${s.cosine!.toFixed(3)} (0 at ${anchors.unrelated}, 1 at ${anchors.related} for this model)`));
    } else {
      why.push({ signal: 'meaning', weight: 0, raw: 0, contribution: 0, detail: this.options.meaning ? 'no embedding for this passage yet: words count at full weight' : 'embeddings are off: words count at full weight' });
    }
    const bonuses = s.match >= MIN_MATCH;
    const gate = `no bonus: match ${s.match.toFixed(3)} is below the minimum ${MIN_MATCH}`;
    const bonus = (signal: Signal, weight: number, raw: number, detail: string) => why.push(bonuses ? term(signal, weight, raw, detail) : zero(signal, weight, gate));

    const titleMask = s.mask & this.titleMask[s.doc];
    const titleHits = this.units.filter((u) => titleMask & u.bit).map((u) => u.term.surface);
    bonus('title', TITLE_WEIGHT, this.words(titleMask), titleHits.length ? `title "${doc.title}" holds ${titleHits.join(', ')}` : `no question term in the title "${doc.title}"`);

    const refs = entry.section.entityRefs ?? doc.entityRefs;
    const hit = this.named.find((e) => refs.includes(e.key));
    const namedDetail = this.named.length === 0 ? 'the question names no catalog entity' : hit ? `belongs to ${hit.ref}, named as "${hit.phrase}"` : `belongs to none of the named entities (${this.named.map((e) => e.ref).join(', ')})`;
    bonus('namedEntity', NAMED_ENTITY_WEIGHT, this.namedDoc[s.doc], namedDetail);

    const commit = this.tables.lastCommitOfDoc[s.doc];
    if (Number.isNaN(commit)) bonus('recency', RECENCY_WEIGHT, 0, 'no commit history for this file');
    else {
      const days = Math.max(0, Math.floor((this.options.now - commit) / 86_400_000));
      bonus('recency', RECENCY_WEIGHT, recencyRaw(this.options.now - commit), `last committed ${days} day${days === 1 ? '' : 's'} ago`);
    }

    const root = this.tables.rootOfDoc[s.doc];
    const health = root === undefined ? undefined : this.state.runHealth.get(root);
    if (!health || health.verdict === 'unknown') bonus('runHealth', RUN_HEALTH_WEIGHT, 0, `no run verdict for repository ${root || '.'} (unknown counts as nothing)`);
    else bonus('runHealth', RUN_HEALTH_WEIGHT, health.verdict === 'succeeded' ? 1 : 0, `last run of ${root || '.'} ${health.verdict}${health.finishedAt ? ` at ${health.finishedAt}` : ''}`);

    // The score is the sum of the listed contributions, in order: why[] always adds up.
    let score = 0;
    for (const t of why) score += t.contribution;
    return { entry, score, match: s.match, why, ownWords: s.own };
  }

  private wordsDetail(mask: number): string {
    if (this.units.length === 0) return 'the question has no searchable words';
    const present = this.units.filter((u) => mask & u.bit).map((u) => u.term.surface);
    const missing = this.units.filter((u) => !(mask & u.bit)).map((u) => u.term.surface);
    const head = `${present.length} of ${this.units.length} terms`;
    return [head, present.length ? `matched ${present.join(', ')}` : '', missing.length ? `missing ${missing.join(', ')}` : ''].filter(Boolean).join('; ');
  }
}

/**
 * The best `limit` candidates, kept sorted best first. Equal scores are ordered by match, then by
 * how much of the question the section says itself, then by position in its document, then by
 * section id, so the same question on the same index always gives the same order.
 */
class TopK {
  private readonly items: Scored[] = [];

  constructor(
    private readonly limit: number,
    private readonly sections: readonly (SectionEntry | undefined)[],
  ) {}

  /** True when a candidate scoring at most `bound` can no longer enter. */
  rejects(bound: number): boolean {
    return bound < FLOOR || (this.items.length >= this.limit && bound < this.items[this.items.length - 1].score);
  }

  offer(s: Scored): void {
    if (this.rejects(s.score)) return;
    const items = this.items;
    let i = items.length;
    while (i > 0 && this.better(s, items[i - 1])) i--;
    if (i >= this.limit) return;
    items.splice(i, 0, s);
    if (items.length > this.limit) items.pop();
  }

  sorted(): Scored[] {
    return this.items;
  }

  private better(a: Scored, b: Scored): boolean {
    if (a.score !== b.score) return a.score > b.score;
    if (a.match !== b.match) return a.match > b.match;
    if (a.own !== b.own) return a.own > b.own;
    const ea = this.sections[a.ordinal]!;
    const eb = this.sections[b.ordinal]!;
    if (ea.doc.id === eb.doc.id && ea.section.startLine !== eb.section.startLine) return ea.section.startLine < eb.section.startLine;
    return ea.section.id < eb.section.id;
  }
}

/** words(mask) for every mask of `units.length` bits: each mask adds its lowest bit's weight to the rest. */
function wordsTable(units: readonly Unit[], total: number): Float64Array {
  const size = 1 << units.length;
  const sums = new Float64Array(size);
  for (let m = 1; m < size; m++) {
    const low = m & -m;
    sums[m] = sums[m ^ low] + units[31 - Math.clz32(low)].weight;
  }
  // Normalise by the table's own full sum (same additions, same rounding), so a passage holding
  // every term scores exactly 1.
  const full = sums[size - 1];
  if (total > 0 && full > 0) for (let m = 0; m < size; m++) sums[m] /= full;
  return sums;
}

function term(signal: Signal, weight: number, raw: number, detail: string): WhyTerm {
  return { signal, weight, raw, contribution: weight * raw, detail };
}

function zero(signal: Signal, weight: number, detail: string): WhyTerm {
  return { signal, weight, raw: 0, contribution: 0, detail };
}

/** One bit per distinct question term; terms past the 32-bit mask are dropped and reported. */
function planUnits(queryTerms: QueryTerm[]): { units: Unit[]; dropped: string[] } {
  const units: Unit[] = [];
  const dropped: string[] = [];
  for (const queryTerm of queryTerms) {
    if (units.length >= MAX_MATCH_UNITS) dropped.push(queryTerm.surface);
    else units.push({ term: queryTerm, bit: 1 << units.length, weight: 0 });
  }
  return { units, dropped };
}

/** The innermost repository root holding a workspace-relative path. */
export function repoRootOf(state: IndexState, path: string): string | undefined {
  let best: string | undefined;
  for (const repo of state.repos) {
    if ((repo.root === '' || path.startsWith(`${repo.root}/`)) && (best === undefined || repo.root.length > best.length)) best = repo.root;
  }
  return best;
}
