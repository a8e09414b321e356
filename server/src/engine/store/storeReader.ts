/**
 * Answers tool calls from an {@link IndexStore}: keeps each namespace's base (catalog, graph,
 * statistics) and its library until a write bumps its generation, and builds each question's
 * state from the candidates the store finds.
 */
import { identityTerms } from '../text/identityTerms';
import { ComponentGraph } from '../graph/componentGraph';
import type { IndexState, SectionEntry } from '../indexState';
import { entityDictionary } from '../ranking/namedEntities';
import { termSet } from '../text/analyzer';
import { questionIndexTerms } from '../ranking/questionUnits';
import { MEANING_CANDIDATES } from '../meaning/sectionVectors';
import type { MeaningSource, QuestionStatistics } from '../ranking/workspaceContextRanker';
import { FIRST_ROUND_POSTINGS } from './candidateBound';
import { readBoundedCandidates, type QuestionScope } from './boundedCandidates';

export type { QuestionScope } from './boundedCandidates';
import type { IndexStore, StoredMeaningRows, StoredWindowRow } from './indexStore';
import { baseState, libraryState, questionState, sortedCandidates, type NamespaceBase } from './scopedState';
import { StoredVectors, type NearestSections } from './storedVectors';
import type { CandidateRows, LibraryRows } from './rows';

/** A namespace's library as read at one generation, with the corpus counts of the terms asked so far. */
interface StoredLibrary {
  base: NamespaceBase;
  rows: LibraryRows;
  documentFrequency: Map<string, number>;
  /** Terms the library tools asked for that `documentFrequency` did not hold (should stay empty). */
  unknownTerms: Set<string>;
  state: IndexState;
}

/** A question's candidate rows and the state built from them. */
interface FoundCandidates {
  rows: CandidateRows;
  state: IndexState;
}

/** Terms whose counts a reader holds per namespace before it starts again (a few MB). */
const MAX_HELD_FREQUENCIES = 50_000;

/** A question's embedding and the embedder id it came from (vectors of another model are not used). */
export interface QueryVector {
  vector: Float32Array;
  model: string;
}

export interface StoreReaderOptions {
  /**
   * Where the nearest sections by meaning come from: `auto` (default) the store's HNSW index
   * when it has one (pgvector), else the exact scan of the reader's copy of the vectors;
   * `exact` always scans (answers then equal an in-memory engine's on the exact backend).
   */
  vectorSearch?: 'auto' | 'exact';
  /**
   * Postings a question told how it will be ranked reads whole in its first round
   * (candidateBound.ts): default FIRST_ROUND_POSTINGS (4096); minimum 1. Smaller reads fewer
   * sections and may take more rounds.
   */
  firstRoundPostings?: number;
}

/** What a question's state from the store carries for the meaning half. */
interface QuestionMeaning {
  source: MeaningSource;
  model: string;
  sectionsWithVectors: number;
}

export class StoreReader {
  private readonly bases = new Map<string, Promise<NamespaceBase | undefined>>();
  private readonly libraries = new Map<string, Promise<StoredLibrary | undefined>>();
  /** Each namespace's vectors, caught up one write at a time (one chain per namespace). */
  private readonly vectors = new Map<string, { vectors: StoredVectors | undefined; chain: Promise<unknown> }>();
  private readonly meanings = new WeakMap<IndexState, QuestionMeaning>();
  /** Each namespace's document frequencies read so far, at one generation. */
  private readonly frequencies = new Map<string, { generation: number; counts: Map<string, number> }>();
  private readonly vectorSearch: 'auto' | 'exact';
  private readonly firstRoundPostings: number;

  constructor(
    readonly store: IndexStore,
    options: StoreReaderOptions = {},
  ) {
    this.vectorSearch = options.vectorSearch ?? 'auto';
    this.firstRoundPostings = Math.max(1, Math.floor(options.firstRoundPostings ?? FIRST_ROUND_POSTINGS));
  }

  /** The namespace's base, re-read when a write has bumped its generation; undefined when not stored. */
  async base(namespace: string): Promise<NamespaceBase | undefined> {
    const generation = await this.store.generation(namespace);
    if (generation === undefined) {
      this.bases.delete(namespace);
      return undefined;
    }
    const cached = this.bases.get(namespace);
    if (cached) {
      const base = await cached;
      if (base && base.generation === generation) return base;
    }
    // One read per generation however many callers ask at once.
    const reading = this.readBase(namespace);
    this.bases.set(namespace, reading);
    reading.catch(() => this.bases.delete(namespace));
    return reading;
  }

  /** The graph tools' state of a namespace (no sections), or undefined when it is not stored. */
  async baseState(namespace: string): Promise<IndexState | undefined> {
    const base = await this.base(namespace);
    return base ? baseState(base) : undefined;
  }

  /**
   * The state `rankWorkspaceContext` ranks `question` on: the namespace's sections holding any of
   * the question's terms (as the ranker analyses it: its frame stripped, identifiers with their
   * parts) over the base, and with `query` the nearest sections by meaning besides (their
   * meaning source: {@link meaningOf}). With `scope`, how its passages will be ranked, only the
   * sections that can be among them (boundedCandidates.ts): the same passages, fewer read.
   * Undefined when the namespace is not stored.
   */
  async questionState(
    namespace: string,
    question: string,
    query?: QueryVector,
    scope?: QuestionScope,
  ): Promise<IndexState | undefined> {
    const base = await this.base(namespace);
    if (!base) return undefined;
    const vectors =
      query &&
      base.vectors &&
      base.vectors.meaning.model === query.model &&
      base.vectors.meaning.dimension === query.vector.length
        ? base.vectors
        : undefined;
    let nearest: NearestSections | undefined;
    if (vectors && query) {
      const proposed =
        this.vectorSearch === 'auto' && vectors.meaning.hnsw
          ? await this.store.nearestWindows(namespace, query.vector, MEANING_CANDIDATES * 3)
          : undefined;
      if (proposed && proposed.generation !== base.generation)
        return this.questionState(namespace, question, query, scope);
      nearest = proposed ? vectors.nearestFrom(proposed.hits) : vectors.nearestExact(query.vector);
    }
    // The ranker's terms (two adjacent words the namespace may hold as one among them: it joins
    // them only when it does, which their counts say).
    const asked = questionIndexTerms(question);
    const named = entityDictionary(base.entities)
      .find(question)
      .map((e) => e.key);
    const meaningOf = (rows: CandidateRows) =>
      vectors && query && nearest ? meaningSource(rows, vectors, query.vector, nearest) : undefined;
    const found = scope
      ? await this.boundedCandidates(namespace, base, question, asked, named, nearest, meaningOf, scope)
      : await this.allCandidates(namespace, base, asked, named, nearest);
    // A write landed between the base and the candidates: read both at the new generation.
    if (!found) return this.questionState(namespace, question, query, scope);
    const meaning = meaningOf(found.rows);
    if (vectors && meaning)
      this.meanings.set(found.state, {
        source: meaning,
        model: vectors.meaning.model,
        sectionsWithVectors: vectors.sections,
      });
    return found.state;
  }

  /**
   * The namespace's section count and the document frequencies of `terms`, as its question
   * states weigh them; undefined when the namespace is not stored.
   */
  async questionStatistics(namespace: string, terms: readonly string[]): Promise<QuestionStatistics | undefined> {
    const base = await this.base(namespace);
    if (!base) return undefined;
    const df = await this.documentFrequencies(namespace, base.generation, terms);
    // A write moved the namespace on: its new base's numbers.
    if (!df) return this.questionStatistics(namespace, terms);
    return { sectionCount: base.stats.sectionCount, df };
  }

  /** Every section holding an asked term (and the nearest by meaning); undefined when a write moved the namespace on. */
  private async allCandidates(
    namespace: string,
    base: NamespaceBase,
    asked: string[],
    named: string[],
    nearest: NearestSections | undefined,
  ): Promise<FoundCandidates | undefined> {
    const rows = await this.store.candidates(namespace, asked, named, nearest?.ordinals ?? []);
    if (rows.generation !== base.generation) return undefined;
    return { rows, state: questionState(base, rows, asked) };
  }

  /**
   * The sections that can be among the passages of `question` ranked with `scope`, read round
   * by round (boundedCandidates.ts). Undefined when a write moved the namespace on.
   */
  private async boundedCandidates(
    namespace: string,
    base: NamespaceBase,
    question: string,
    asked: string[],
    named: string[],
    nearest: NearestSections | undefined,
    meaningOf: (rows: CandidateRows) => MeaningSource | undefined,
    scope: QuestionScope,
  ): Promise<FoundCandidates | undefined> {
    const frequencies = await this.documentFrequencies(namespace, base.generation, asked);
    if (!frequencies) return undefined;
    return readBoundedCandidates({
      store: this.store,
      namespace,
      base,
      question,
      asked,
      named,
      nearest: nearest?.ordinals ?? [],
      frequencies,
      meaningOf,
      scope,
      firstRoundPostings: this.firstRoundPostings,
    });
  }

  /**
   * The namespace's count of each of `terms` at `generation`, from the reader's copy (one per
   * namespace and generation) or the store; undefined when a write moved the namespace on.
   */
  private async documentFrequencies(
    namespace: string,
    generation: number,
    terms: readonly string[],
  ): Promise<ReadonlyMap<string, number> | undefined> {
    let held = this.frequencies.get(namespace);
    if (!held || held.generation !== generation || held.counts.size > MAX_HELD_FREQUENCIES) {
      held = { generation, counts: new Map() };
      this.frequencies.set(namespace, held);
    }
    const counts = held.counts;
    const missing = terms.filter((t) => !counts.has(t));
    if (missing.length > 0) {
      const read = await this.store.documentFrequencies(namespace, missing, generation);
      if (!read) return undefined;
      for (const [term, n] of read) counts.set(term, n);
    }
    return new Map(terms.map((t) => [t, counts.get(t) ?? 0]));
  }

  /** The meaning half of a question state {@link questionState} built with a query vector; undefined without. */
  meaningOf(state: IndexState): MeaningSource | undefined {
    return this.meanings.get(state)?.source;
  }

  /** The model and how many of the namespace's sections have vectors, for a question state built with a query vector. */
  meaningSummaryOf(state: IndexState): { model: string; sectionsWithVectors: number } | undefined {
    const m = this.meanings.get(state);
    return m ? { model: m.model, sectionsWithVectors: m.sectionsWithVectors } : undefined;
  }

  /** True when some stored namespace has vectors of `model` (else questions need no embedding). */
  async holdsVectorsOf(model: string): Promise<boolean> {
    return (await this.store.namespaces()).some((n) => n.vectorModel === model);
  }

  /**
   * The state the library tools answer from, over the served `namespaces`: the whole library of
   * the one that holds library pages (the first when none does), read once per generation, and
   * every namespace holding one (`holders`; no state when there are two or more, since their
   * pages and the counts they are weighed by cannot come from one namespace). The library tools
   * weigh terms by the whole namespace's counts, so the counts of every term of `texts` (the
   * call's plan or task, its pack, tags and folder) are read before the call, beside those of
   * the library's own words, read with it.
   */
  async libraryStateOf(
    namespaces: readonly string[],
    texts: readonly string[],
  ): Promise<{ state: IndexState | undefined; holders: string[] }> {
    const libraries: { namespace: string; library: StoredLibrary | undefined }[] = [];
    for (const namespace of namespaces) libraries.push({ namespace, library: await this.library(namespace) });
    const holders = libraries.filter((l) => (l.library?.rows.docs.length ?? 0) > 0);
    if (holders.length > 1) return { state: undefined, holders: holders.map((h) => h.namespace) };
    const chosen = holders[0] ?? libraries[0];
    const state = chosen?.library ? await this.withCountsOf(chosen.namespace, chosen.library, texts) : undefined;
    return { state, holders: holders.map((h) => h.namespace) };
  }

  /** `library`'s state once the counts of `texts`' terms are known (read from the store if not yet). */
  private async withCountsOf(
    namespace: string,
    library: StoredLibrary,
    texts: readonly string[],
  ): Promise<IndexState | undefined> {
    const wanted = [...callTerms(texts)].filter((t) => !library.documentFrequency.has(t));
    if (wanted.length === 0) return library.state;
    const counts = await this.store.documentFrequencies(namespace, wanted, library.base.generation);
    if (!counts) {
      // A write moved the namespace on: read the library again at its new generation.
      const fresh = await this.library(namespace);
      return fresh ? this.withCountsOf(namespace, fresh, texts) : undefined;
    }
    let askedBefore = false;
    for (const [term, df] of counts) {
      library.documentFrequency.set(term, df);
      if (library.unknownTerms.delete(term)) askedBefore = true;
    }
    // A state whose caches never saw these terms needs no rebuilding; one that scored them as absent does.
    if (askedBefore)
      library.state = libraryState(library.base, library.rows, library.documentFrequency, library.unknownTerms);
    return library.state;
  }

  /** Terms the library tools asked about whose counts were not read (a reader bug if any; tests assert none). */
  unknownLibraryTerms(namespace: string): Promise<string[]> {
    return (this.libraries.get(namespace) ?? Promise.resolve(undefined)).then((l) => [...(l?.unknownTerms ?? [])]);
  }

  /** Fills in the texts of the passages a question kept (candidates are ranked without them). */
  async completeTexts(namespace: string, entries: readonly SectionEntry[]): Promise<void> {
    const missing = entries.filter((e) => e.section.text === '');
    if (missing.length === 0) return;
    const texts = await this.store.sectionTexts(
      namespace,
      missing.map((e) => e.section.id),
    );
    // These sections were made for this one question (scopedState.ts): nothing else holds them.
    for (const entry of missing) entry.section.text = texts.get(entry.section.id) ?? '';
  }

  /** The namespace's library at its current generation (one read per generation however many ask). */
  private async library(namespace: string): Promise<StoredLibrary | undefined> {
    const base = await this.base(namespace);
    if (!base) {
      this.libraries.delete(namespace);
      return undefined;
    }
    const cached = this.libraries.get(namespace);
    if (cached) {
      const library = await cached;
      if (library && library.base.generation === base.generation) return library;
    }
    const reading = this.readLibrary(namespace, base);
    this.libraries.set(namespace, reading);
    reading.catch(() => this.libraries.delete(namespace));
    return reading;
  }

  private async readLibrary(namespace: string, base: NamespaceBase): Promise<StoredLibrary | undefined> {
    // Written since the base was read: read both again.
    const again = async () => {
      this.bases.delete(namespace);
      const fresh = await this.base(namespace);
      return fresh ? this.readLibrary(namespace, fresh) : undefined;
    };
    const rows = await this.store.libraryRows(namespace);
    if (!rows) return undefined;
    if (rows.generation !== base.generation) return again();
    // The words the library tools weigh without a call naming them: the library's own (its
    // sections' terms, front matter, packs and folders) and the catalog's names.
    const terms = new Set(rows.postings.map((p) => p.term));
    for (const t of callTerms([
      JSON.stringify(rows.docs),
      JSON.stringify(base.info.packs),
      JSON.stringify(base.info.libraryFolders),
      JSON.stringify(base.entities),
    ]))
      terms.add(t);
    const documentFrequency = await this.store.documentFrequencies(namespace, [...terms], base.generation);
    if (!documentFrequency) return again();
    const unknownTerms = new Set<string>();
    return {
      base,
      rows,
      documentFrequency,
      unknownTerms,
      state: libraryState(base, rows, documentFrequency, unknownTerms),
    };
  }

  private async readBase(namespace: string): Promise<NamespaceBase | undefined> {
    const rows = await this.store.readBase(namespace);
    if (!rows) return undefined;
    const vectors = rows.meaning ? await this.catchUpVectors(namespace, rows.meaning) : undefined;
    return {
      info: rows.info,
      generation: rows.generation,
      entities: rows.entities,
      relations: rows.relations,
      graph: new ComponentGraph(rows.entities, rows.relations),
      runHealth: new Map(rows.info.runHealth),
      stats: rows.stats,
      ...(vectors ? { vectors } : {}),
    };
  }

  /**
   * Brings the reader's copy of the namespace's vectors to the store's generation: only what the
   * writes since changed is read. One catch-up at a time per namespace; a first read fills a
   * fresh copy page by page, a catch-up applies its pages at once (questions in flight keep
   * reading a whole generation).
   */
  private catchUpVectors(namespace: string, meaning: StoredMeaningRows): Promise<StoredVectors> {
    let slot = this.vectors.get(namespace);
    if (!slot) this.vectors.set(namespace, (slot = { vectors: undefined, chain: Promise.resolve() }));
    const entry = slot;
    const run = entry.chain.then(async () => {
      const have = entry.vectors && entry.vectors.meaning.model === meaning.model ? entry.vectors : undefined;
      if (!have) {
        const fresh = new StoredVectors(meaning);
        const catchUp = await this.store.readWindows(namespace, 0, (rows) =>
          fresh.apply({ generation: 0, removed: [] }, [rows], meaning),
        );
        fresh.apply({ generation: catchUp.generation, removed: [] }, [], meaning);
        entry.vectors = fresh;
        return fresh;
      }
      const pages: StoredWindowRow[][] = [];
      const catchUp = await this.store.readWindows(namespace, have.generation, (rows) => pages.push(rows));
      have.apply(catchUp, pages, meaning);
      return have;
    });
    entry.chain = run.catch(() => undefined);
    return run;
  }
}

/** The question state's meaning source: dense candidate ordinals mapped to store ordinals. */
function meaningSource(
  rows: CandidateRows,
  vectors: StoredVectors,
  query: Float32Array,
  nearest: NearestSections,
): MeaningSource {
  const ordinals = sortedCandidates(rows).map((c) => c.ordinal);
  const dense = new Map(ordinals.map((o, i) => [o, i]));
  return {
    cosine: (i) => (i < ordinals.length ? vectors.cosine(ordinals[i], query) : null),
    hasVector: (i) => i < ordinals.length && vectors.has(ordinals[i]),
    anchors: vectors.anchors(query),
    nearest: nearest.ordinals.map((o) => dense.get(o)).filter((i): i is number => i !== undefined),
    outsideCosine: nearest.outside,
  };
}

/** Every term the library tools can weigh of `texts`: their index terms, with and without stack spellings (C# as csharp). */
function callTerms(texts: readonly string[]): Set<string> {
  const terms = new Set<string>();
  for (const text of texts) {
    for (const t of termSet(text)) terms.add(t);
    for (const t of identityTerms(text)) terms.add(t);
  }
  return terms;
}
