/**
 * The ranker's scored candidates (workspaceContextRanker.ts): what one is, the order they are kept
 * in, and the evidence rules that hold back the meaning of some of them once all are scored (or,
 * words only, the words of a passage lacking the name the question asks about).
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
   * Set when an evidence rule held this passage's meaning back (`holdToEvidence`): the meaning
   * value it counts instead of its lift, the passage it names, and why: it may not pass that
   * passage's words (`rarest`), or it repeats that passage's text, which meaning lifted (`copy`).
   */
  heldTo?: { meaning: number; by: number; rule: 'rarest' | 'copy' };
  /**
   * Set when the words-only evidence rule held this passage back (`holdToNames`): the words value
   * it counts instead of its own (which `words` keeps, as measured), and the passage it names.
   */
  wordsHeldTo?: { words: number; by: number };
}

/** What the evidence rules ask of the ranker's scorer about the question and its candidates. */
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
  /** `s` scored on its words alone (its meaning counts its words, no lift), as a copy of `of`'s text. */
  wordsAlone(s: Scored, of: Scored): Scored;
  /** Whether the question's rarest unit is a name: an identifier that is not a word written joined. */
  rarestIsName(): boolean;
  /** `s`, words only, with its words held back so that it scores `below` under `by`'s score. */
  holdWordsBelow(s: Scored, by: Scored, below: number): Scored;
}

/** How far under the passage it may not pass a held-back passage scores (holdToEvidence). */
export const HELD_MARGIN = 1e-9;

/**
 * The evidence rules: where MiniLM and the words disagree, the words' evidence decides. First
 * (contract.ts, 2026-12-06.3): a passage that lacks the question's rarest term (its most specific word, the
 * one an embedding of the passage's gist cannot tell present from absent) is not lifted by its
 * meaning past a passage that holds every term of the question (whole, or a key path by a trailing
 * form; not by an identifier's parts alone) with at least its words: its meaning then counts just
 * enough to rank right after that passage, and never less than its words. Meaning still orders
 * everything else: passages that each hold something the other lacks, and every question no
 * passage holds whole, as a paraphrase. Then (2026-12-06.5, `liftOneCopy`): meaning lifts one copy
 * of a text.
 */
export function holdToEvidence(sorted: readonly Scored[], scorer: EvidenceScorer): Scored[] {
  const rarest = scorer.rarestUnit();
  if (rarest < 0) return [...sorted];
  return liftOneCopy(holdToHolders(sorted, scorer, rarest), scorer, rarest);
}

/** The rarest-term rule of `holdToEvidence`, on candidates in score order. */
function holdToHolders(sorted: readonly Scored[], scorer: EvidenceScorer, rarest: number): Scored[] {
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

/**
 * The words-only evidence rule (contract.ts, 2026-12-08.2): when the question's rarest term is a
 * name (a key path, a flag, an environment variable: an identifier that is not a word written
 * joined by a hyphen or a camelCase capital), a passage that lacks it does not rank above a
 * passage that holds every term of the question (whole, or a key path by a trailing form; not by
 * an identifier's parts alone). Each such passage above the last holder among the kept candidates
 * is held to score just under that holder, in its own order: the other words a passage holds
 * more often or more strongly do not make up for the one thing the question names. Where no
 * passage holds every term, or the rarest term is a word, the words' order stands. The rule reads
 * the first `window` passages only (contract.ts NAME_EVIDENCE_WINDOW) and moves none past them,
 * so the passages after the window keep the formula's order.
 */
export function holdToNames(sorted: readonly Scored[], scorer: EvidenceScorer, window: number): Scored[] {
  const rarest = scorer.rarestUnit();
  const full = scorer.everyUnit();
  if (rarest < 0 || full === -1 || !scorer.rarestIsName()) return [...sorted];
  const head = sorted.slice(0, window);
  // A candidate's match mask has a unit's bit wherever the unit adds to its words (whole, a form
  // or its parts), so what it holds is within its mask: the held units, a few postings reads per
  // candidate, are read only where the mask leaves the answer open.
  const held = new Map<number, number>();
  const heldAt = (i: number) => {
    let h = held.get(i);
    if (h === undefined) held.set(i, (h = scorer.heldUnits(head[i].ordinal)));
    return h;
  };
  let last = head.length - 1;
  while (last > 0 && ((head[last].mask & full) !== full || heldAt(last) !== full)) last--;
  if (last <= 0) return [...sorted];
  const by = head[last];
  const bit = 1 << rarest;
  let below = 0;
  let changed = false;
  const out = head.map((s, i) => {
    if (i >= last || (s.mask & bit && heldAt(i) & bit)) return s;
    changed = true;
    return scorer.holdWordsBelow(s, by, ++below);
  });
  if (changed) out.sort((a, b) => compareScored(a, b, scorer.sections));
  return [...out, ...sorted.slice(window)];
}

/**
 * The copy rule (contract.ts, 2026-12-06.5): meaning lifts one copy of a text. Generated pages
 * repeat sections word for word (a flag's section on every command that takes it); the copies'
 * vectors differ only by their page's title and opening lines, so their cosines are all but
 * equal, and a paraphrase that MiniLM reads close to that text otherwise fills the answer with the
 * copies, every one lifted past the pages the words found. A passage whose text (heading line
 * included) is the text of a passage ranked above it, and which lacks the question's rarest term,
 * scores its words alone: its meaning adds nothing the first copy did not. A copy that holds the
 * rarest term keeps its lift, as the words vouch for each copy (a question naming a flag every
 * command page documents is answered by all of them). A store ranks its candidates before it
 * reads their texts (storeReader.ts completeTexts): there the digest of each text, written with
 * the section, stands for it (`copyKey`). An empty text is no one's copy.
 */
function liftOneCopy(sorted: Scored[], scorer: EvidenceScorer, rarest: number): Scored[] {
  const first = new Map<string, Scored>();
  let changed = false;
  const out = sorted.map((s) => {
    const key = copyKey(scorer.sections[s.ordinal]!);
    if (!key) return s;
    const of = first.get(key);
    if (!of) {
      first.set(key, s);
      return s;
    }
    if (s.cosine === null || scorer.heldUnits(s.ordinal) & (1 << rarest)) return s;
    // A copy whose meaning lifts nothing (it counts its words already) is left as it is.
    const alone = scorer.wordsAlone(s, of);
    if (alone.score >= s.score) return s;
    changed = true;
    return alone;
  });
  return changed ? out.sort((a, b) => compareScored(a, b, scorer.sections)) : out;
}

/**
 * What two passages of one ranking share exactly when their texts are equal: the text itself, or
 * where it is not read yet (a store's candidates) the digest of it the store wrote. Every passage
 * of one ranking comes from one state, so keys are never compared with texts.
 */
function copyKey(entry: SectionEntry): string {
  return entry.textKey ?? entry.section.text;
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
