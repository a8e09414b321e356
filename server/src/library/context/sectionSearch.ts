/**
 * Step 6, searching sections: the task and each of the plan's facet searches run as rankings and
 * the rankings are combined with reciprocal rank fusion, so a section that does well for several
 * facets comes out on top.
 *
 * Signals, each a ranking per query (competition ranks, ties by library order):
 * - **words**: the share of the query's words the section holds, each weighted by its idf (task
 *   verbs like "write" much less: {@link TASK_VERBS}); a word in the section's heading path or
 *   its page's title, folder, type or tags counts 1, one only in the body {@link BODY_WORD_WEIGHT};
 * - **meaning**: passage similarity from embeddings (the services' `sectionMeaning` scorer), when on;
 * - **questions**: the closeness of the query to the questions the section answers
 *   (derivedText.ts `sectionQuestions`).
 * And once per request:
 * - **names**: sections (or their page titles) holding a name the plan found, as an exact phrase;
 *   such a section always surfaces, however it does otherwise, and ranks higher (catalog names
 *   that are plain words, or held by more than {@link NAME_MAX_SHARE} of the sections, do not:
 *   see {@link isSpecificName});
 * - **tags**: library tags the task mentions boost the sections tagged with them;
 * - **folder**: sections of pages in a folder whose phrasings match the task (step 5's lift).
 *
 * A section's similarity (0..1) is its best words, meaning or question score over the queries:
 * what the closeness window (step 7) compares, signal by signal. A facet search of the plan counts
 * {@link FACET_WEIGHT} of its scores there, and a one-word facet only ranks (its fused score),
 * never sets a similarity: one shared word ("migration", "office") is no match, and a section
 * holding it would otherwise score 1.0 and defeat the closeness window. Nor does a facet whose
 * words a section holds only in its body (none in its heading path, page title, folder, type or
 * tags): the section is not about that part of the task, it mentions its words. "invoice API" in
 * a list of the repositories' services, "test keys" in a page of coding rules scored 0.51 and sat
 * inside the closeness window of the pages that are about the task; the task's own words still
 * score the section, and the facet still ranks it. Measured on both labelled sets (npm run eval
 * -- --dataset context, every other rule as it is): page precision, example 0.849 -> 0.894 words
 * only, 0.835 -> 0.879 hybrid; awesome-copilot 0.903 -> 0.917 and 0.882 -> 0.896; recall 1.000.
 */
import { type Section, normalizeName, analyzeQuery, analyzeWord } from '../../engine';
import type { LibrarySection } from '../view/libraryView';
import { competitionRanks, type MeaningScorer } from '../view/ranking';
import { sectionQuestions, type ModelNotes } from '../models/derivedText';
import type { PlanName } from '../models/heuristicPlan';
import { BODY_WORD_WEIGHT, NAME_MAX_SHARE, RRF_K } from './constants';
import { sectionTermsOf, type ContextIndex } from './contextIndex';
import { FACET_WEIGHT, phraseTerms, termCosine } from './phraseMatch';

/**
 * Verbs that say what the agent will do rather than what it is about ("write", "add", "fix"):
 * in the words signal they weigh {@link TASK_VERB_WEIGHT} of their idf, so "write a postmortem"
 * is a search for postmortems, not for every page titled "Writing ...". Default 0.2.
 */
export const TASK_VERB_WEIGHT = 0.2;
export const TASK_VERBS: ReadonlySet<string> = new Set(
  [
    'write',
    'writing',
    'draft',
    'add',
    'create',
    'make',
    'update',
    'change',
    'fix',
    'handle',
    'prepare',
    'build',
    'implement',
    'send',
    'need',
    'want',
    'help',
    'get',
    'use',
    'do',
  ]
    .map((w) => analyzeWord(w))
    .filter((w): w is string => w !== null),
);

export interface SearchSignals {
  /** Best words score over the queries, 0..1. */
  words: number;
  /** Best meaning score, when the signal ran. */
  meaning?: number;
  /** Best question score, 0..1. */
  question: number;
  /** Plan names the section (or its page title) holds. */
  names: string[];
  /** Task tags its page carries. */
  tags: string[];
  /** Its page is in a folder the task matched. */
  folder: boolean;
}

export interface SearchHit {
  entry: LibrarySection;
  /** 0..1: the best of words, meaning and questions over the queries. */
  similarity: number;
  /** Reciprocal rank fusion over every query's rankings and the request-wide ones. */
  fused: number;
  /** The query that gave the similarity. */
  query: string;
  signals: SearchSignals;
}

export interface SearchInput {
  index: ContextIndex;
  /** The sections the request may search. */
  sections: readonly LibrarySection[];
  /** The task first, then the plan's searches. */
  queries: readonly string[];
  names: readonly PlanName[];
  /** Library tags found in the task. */
  tags: readonly string[];
  /** Page ids lifted by a folder match. */
  liftedPages: ReadonlySet<string>;
  meaning?: MeaningScorer;
  notes?: ModelNotes;
}

export interface SearchResult {
  /** Every section with a similarity above 0 or a name, best fused score first. */
  hits: SearchHit[];
  /** Every section any query touched (one-word facets and task verbs too), best fused score first. */
  touched: SearchHit[];
  /** Signals that ran. */
  meaning: boolean;
  /** Names that make sections surface. */
  surfacingNames: string[];
}

export async function searchSections(input: SearchInput): Promise<SearchResult> {
  const { index, sections } = input;
  const byEntry = new Map<LibrarySection, SearchHit>();
  const hit = (entry: LibrarySection): SearchHit => {
    let h = byEntry.get(entry);
    if (!h) {
      h = {
        entry,
        similarity: 0,
        fused: 0,
        query: '',
        signals: { words: 0, question: 0, names: [], tags: [], folder: false },
      };
      byEntry.set(entry, h);
    }
    return h;
  };
  let meaningRan = false;
  const questionTerms = new Map<LibrarySection, readonly ReadonlySet<string>[]>();
  const termsOfQuestions = (entry: LibrarySection) => {
    let terms = questionTerms.get(entry);
    if (!terms) questionTerms.set(entry, (terms = questionTermsOf(entry, input.notes)));
    return terms;
  };

  for (const [queryIndex, query] of input.queries.entries()) {
    const units = analyzeQuery(query).map((u) => u.key);
    if (units.length === 0) continue;
    // The task as written scores in full; a facet of two or more words at FACET_WEIGHT; one word only ranks.
    const scale = queryIndex === 0 ? 1 : units.length >= 2 ? FACET_WEIGHT : 0;
    const scanned = candidatesFor(index, sections, units, input.notes);
    const weights = units.map((u) => index.idf(u) * (TASK_VERBS.has(u) ? TASK_VERB_WEIGHT : 1));
    const total = weights.reduce((a, b) => a + b, 0);
    const qTerms = phraseTerms(query);
    const words = new Map<LibrarySection, number>();
    const questions = new Map<LibrarySection, number>();
    // Sections a facet's words score on only in their body: ranked, never given a similarity.
    const bodyOnly = new Set<LibrarySection>();
    for (const entry of scanned) {
      const terms = sectionTermsOf(entry.section, entry.doc);
      let found = 0;
      let inHead = false;
      for (let i = 0; i < units.length; i++) {
        if (terms.head.has(units[i])) {
          found += weights[i];
          inHead = true;
        } else if (terms.body.has(units[i])) found += BODY_WORD_WEIGHT * weights[i];
      }
      if (found > 0 && total > 0) words.set(entry, found / total);
      if (queryIndex > 0 && !inHead) bodyOnly.add(entry);
      let q = 0;
      for (const terms of termsOfQuestions(entry)) q = Math.max(q, termCosine(index, qTerms, terms));
      if (q > 0) questions.set(entry, q);
    }
    let meaning: Map<LibrarySection, number> | undefined;
    if (input.meaning && sections.length > 0) {
      const scores = await input.meaning(query, sections).catch(() => null);
      if (scores) {
        meaningRan = true;
        meaning = new Map();
        for (const entry of sections) {
          const s = scores.get(entry.section.id);
          if (s !== undefined && s > 0) meaning.set(entry, Math.min(1, s));
        }
      }
    }
    for (const [list, name] of [
      [words, 'words'],
      [questions, 'question'],
      [meaning, 'meaning'],
    ] as const) {
      if (!list) continue;
      for (const [entry, rank] of ranksOf(list)) {
        const h = hit(entry);
        h.fused += 1 / (RRF_K + rank);
        const score = name === 'words' && bodyOnly.has(entry) ? 0 : list.get(entry)! * scale;
        if (score === 0) continue;
        if (name === 'words') h.signals.words = Math.max(h.signals.words, score);
        else if (name === 'question') h.signals.question = Math.max(h.signals.question, score);
        else h.signals.meaning = Math.max(h.signals.meaning ?? 0, score);
        if (score > h.similarity) {
          h.similarity = score;
          h.query = query;
        }
      }
    }
  }

  // Names: exact phrases in the section or its page title; too common a name does not surface.
  const surfacing = input.names.filter(
    (n) => isSpecificName(n) && (n.source !== 'catalog' || index.nameShare(n.key) <= NAME_MAX_SHARE),
  );
  if (surfacing.length > 0) {
    const named = new Map<LibrarySection, number>();
    for (const entry of sections) {
      const held = namesIn(index, entry, surfacing);
      if (held.length === 0) continue;
      hit(entry).signals.names = held;
      named.set(entry, held.length);
    }
    for (const [entry, rank] of ranksOf(named)) hit(entry).fused += 1 / (RRF_K + rank);
  }
  if (input.tags.length > 0) {
    const tagged = new Map<LibrarySection, number>();
    for (const entry of byEntry.keys()) {
      const held = entry.doc.library!.tags.filter((t) => input.tags.includes(t));
      if (held.length === 0) continue;
      byEntry.get(entry)!.signals.tags = held;
      tagged.set(entry, held.length / input.tags.length);
    }
    for (const [entry, rank] of ranksOf(tagged)) byEntry.get(entry)!.fused += 1 / (RRF_K + rank);
  }
  if (input.liftedPages.size > 0) {
    const lifted = new Map<LibrarySection, number>();
    for (const [entry, h] of byEntry) {
      if (!input.liftedPages.has(entry.doc.id)) continue;
      h.signals.folder = true;
      lifted.set(entry, h.similarity);
    }
    for (const [entry, rank] of ranksOf(lifted)) byEntry.get(entry)!.fused += 1 / (RRF_K + rank);
  }

  const touched = [...byEntry.values()].filter((h) => h.fused > 0 || h.similarity > 0);
  touched.sort((a, b) => b.fused - a.fused || b.similarity - a.similarity || a.entry.order - b.entry.order);
  const hits = touched.filter((h) => h.similarity > 0 || h.signals.names.length > 0);
  return { hits, touched, meaning: meaningRan, surfacingNames: surfacing.map((n) => n.text) };
}

/**
 * A name specific enough to make sections surface: a library name (a competitor, product, persona,
 * market), a model-found one, or a catalog name that is not a plain word (`billing-worker`,
 * "Payments gateway", `sha256`); a catalog entity called `billing` or `search` names a topic too
 * often to surface every section that says the word.
 */
export function isSpecificName(name: PlanName): boolean {
  if (name.source !== 'catalog') return true;
  return name.key.includes(' ') || /[-_\d]/.test(name.text);
}

/** The plan names (their texts) a section or its page title holds as an exact phrase. */
function namesIn(index: ContextIndex, entry: LibrarySection, names: readonly PlanName[]): string[] {
  const mentioned = new Set(index.names.inSection(entry.section).map((m) => m.entry.key));
  const title = ` ${normalizeName(entry.doc.title)} `;
  let text: string | undefined;
  const held: string[] = [];
  for (const name of names) {
    let found = mentioned.has(name.key) || title.includes(` ${name.key} `);
    if (!found && name.source === 'model') {
      // A model-found name the dictionary does not hold: look for the phrase itself.
      text ??= ` ${normalizeName(`${entry.section.headingPath.join(' ')} ${entry.section.text}`)} `;
      found = text.includes(` ${name.key} `);
    }
    if (found && !held.includes(name.text)) held.push(name.text);
  }
  return held;
}

/**
 * The sections a query's words can score on: those the postings index says hold one of its units
 * (heading path, page title, folder, type, tags and body are all indexed), plus sections without a
 * postings ordinal (private notes) and sections whose page declares questions or whose questions
 * a model wrote (their words may be anywhere). Everything else scores 0 on words and questions.
 * Each library section is looked up in the units' postings, rather than every section of the
 * workspace holding a unit gathered first: a library is a few thousand sections of 100,000.
 */
function candidatesFor(
  index: ContextIndex,
  sections: readonly LibrarySection[],
  units: readonly string[],
  notes: ModelNotes | undefined,
): LibrarySection[] {
  const lexical = index.view.state.lexical;
  return sections.filter(
    (s) =>
      s.ordinal < 0 ||
      notes !== undefined ||
      (s.doc.library?.questions.length ?? 0) > 0 ||
      units.some((u) => lexical.fieldCounts(s.ordinal, u) !== 0),
  );
}

const derivedQuestionTerms = new WeakMap<Section, readonly ReadonlySet<string>[]>();
const noteQuestionTerms = new WeakMap<ModelNotes, WeakMap<Section, readonly ReadonlySet<string>[]>>();

/** The terms of each question a section answers, cached per section (and per model notes). */
function questionTermsOf(entry: LibrarySection, notes: ModelNotes | undefined): readonly ReadonlySet<string>[] {
  let cache = derivedQuestionTerms;
  if (notes) {
    let byNotes = noteQuestionTerms.get(notes);
    if (!byNotes) noteQuestionTerms.set(notes, (byNotes = new WeakMap()));
    cache = byNotes;
  }
  let terms = cache.get(entry.section);
  if (!terms) {
    terms = sectionQuestions(entry.doc, entry.section, notes).map(phraseTerms);
    cache.set(entry.section, terms);
  }
  return terms;
}

/** Each entry's competition rank ("1224"), best score first, ties by library order. */
function* ranksOf(scores: ReadonlyMap<LibrarySection, number>): Iterable<[LibrarySection, number]> {
  for (const [entry, { rank }] of competitionRanks(scores, (a, b) => a.order - b.order)) yield [entry, rank];
}
