/**
 * The ranker's scored candidates (workspaceContextRanker.ts): what one is, the order they are kept
 * in, and the evidence rule that holds back the meaning of some of them once all are scored.
 */
import type { SectionEntry } from '../indexState';

/** One scored candidate: enough to order it and, if it is kept, to explain it. */
export interface Scored {
  ordinal: number;
  doc: number;
  mask: number;
  cosine: number | null;
  words: number;
  match: number;
  score: number;
  own: number;
  /**
   * Set when the evidence rule held this passage's meaning back (`holdToEvidence`): the meaning
   * value it counts instead of its lift, and the passage whose words it may not pass.
   */
  heldTo?: { meaning: number; by: number };
}

/** What the evidence rule asks of the ranker's scorer about the question and its candidates. */
export interface EvidenceScorer {
  /** The sections, for the order of scored candidates. */
  readonly sections: readonly (SectionEntry | undefined)[];
  /** The question's rarest unit (the greatest weight), or -1 without units. */
  rarestUnit(): number;
  /** The mask of every unit of the question. */
  everyUnit(): number;
  /** The units a section holds, whole or by a key path's trailing form (not by an identifier's parts alone). */
  heldUnits(ordinal: number): number;
  /** `s` with its meaning held back so that it ranks right after `by`. */
  holdBelow(s: Scored, by: Scored): Scored;
}

/** How far under the passage it may not pass a held-back passage scores (holdToEvidence). */
export const HELD_MARGIN = 1e-9;

/**
 * The evidence rule (contract.ts, 2026-12-06.3): where MiniLM and the words disagree, the words'
 * evidence decides. A passage that lacks the question's rarest term (its most specific word, the
 * one an embedding of the passage's gist cannot tell present from absent) is not lifted by its
 * meaning past a passage that holds every term of the question (whole, or a key path by a trailing
 * form; not by an identifier's parts alone) with at least its words: its meaning then counts just
 * enough to rank right after that passage, and never less than its words. Meaning still orders
 * everything else: passages that each hold something the other lacks, and every question no
 * passage holds whole, as a paraphrase.
 */
export function holdToEvidence(sorted: readonly Scored[], scorer: EvidenceScorer): Scored[] {
  const rarest = scorer.rarestUnit();
  if (rarest < 0) return [...sorted];
  const full = scorer.everyUnit();
  const held = sorted.map((s) => scorer.heldUnits(s.ordinal));
  const holders = sorted.filter((_, i) => held[i] === full);
  if (holders.length === 0) return [...sorted];
  const out = sorted.map((s, i) => {
    if (held[i] & (1 << rarest) || s.cosine === null) return s;
    // The lowest-scoring holder of every term it would pass on its meaning.
    let by: Scored | undefined;
    for (const a of holders) if (a.score < s.score && a.words >= s.words && (!by || a.score < by.score)) by = a;
    return by ? scorer.holdBelow(s, by) : s;
  });
  return out.sort((a, b) => compareScored(a, b, scorer.sections));
}

/** TopK's order as a comparator (negative: `a` first): score, match, own words, reading order. */
export function compareScored(a: Scored, b: Scored, sections: readonly (SectionEntry | undefined)[]): number {
  if (a.score !== b.score) return a.score > b.score ? -1 : 1;
  if (a.match !== b.match) return a.match > b.match ? -1 : 1;
  if (a.own !== b.own) return a.own > b.own ? -1 : 1;
  const ea = sections[a.ordinal]!;
  const eb = sections[b.ordinal]!;
  if (ea.doc.id === eb.doc.id) {
    if (ea.section.startLine !== eb.section.startLine) return ea.section.startLine < eb.section.startLine ? -1 : 1;
  } else if (ea.doc.folder !== eb.doc.folder || ea.doc.path !== eb.doc.path) {
    if (ea.doc.folder !== eb.doc.folder) return ea.doc.folder < eb.doc.folder ? -1 : 1;
    return ea.doc.path < eb.doc.path ? -1 : 1;
  }
  return ea.section.id < eb.section.id ? -1 : ea.section.id > eb.section.id ? 1 : 0;
}
