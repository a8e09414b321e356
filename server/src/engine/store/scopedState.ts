/**
 * Index states built from a store's rows: a namespace's base state (catalog, graph, repositories,
 * run verdicts; no sections) for the graph tools, a question's state (the base plus the
 * sections holding one of its terms, scored with the corpus's statistics) for workspace_context,
 * and a library state (the base plus the whole library) for the library tools.
 *
 * The ranker reads a question's state exactly as it reads a whole in-memory index: the postings
 * of the asked terms are the same postings, and every number that is not per-candidate comes
 * from {@link CorpusStatistics} (corpus.ts). Candidates are renumbered 0..n-1 in store-ordinal
 * order; the ranker never orders by ordinal (ties fall to section ids), so the numbering is free.
 */
import type { ComponentGraph } from '../graph/componentGraph';
import type { IndexState, SectionEntry } from '../indexState';
import { PostingsIndex } from '../lexical/postings';
import { bitsetWords, emptySegment, setBit, type BaseSegment } from '../lexical/segment';
import type { CatalogEntity, Doc, FileCommitInfo, Relation, Section } from '../model';
import type { RunHealth } from '../sources/runHealth';
import { CorpusScopedPostings, type CorpusStatistics } from '../lexical/corpus';
import type { CandidateRows, LibraryRows, NamespaceStats, StoredDoc, StoredWorkspaceInfo } from './rows';
import type { StoredVectors } from './storedVectors';

/** What a reader keeps of a namespace between questions (one per generation written). */
export interface NamespaceBase {
  info: StoredWorkspaceInfo;
  /** Bumped by every write; a reader re-reads the base when it changed. */
  generation: number;
  entities: readonly CatalogEntity[];
  relations: readonly Relation[];
  graph: ComponentGraph;
  runHealth: ReadonlyMap<string, RunHealth>;
  stats: NamespaceStats;
  /** The namespace's vectors at this generation; absent when none were written. */
  vectors?: StoredVectors;
}

/** The namespace without sections: the graph tools' state. */
export function baseState(base: NamespaceBase): IndexState {
  return stateOf(base, {
    docs: new Map(),
    sections: [],
    lexical: new PostingsIndex(emptySegment()),
    commits: new Map(),
    titleTerms: new Map(),
    contextTerms: new Map(),
  });
}

/**
 * The state `rankWorkspaceContext` answers a question from: the candidates in `rows` (the
 * sections holding an asked term, with every posting of those terms they hold) over the
 * namespace's base; `frequencies`, the namespace's count of each asked term, when `rows` do not
 * hold every posting of them.
 * Section texts are empty until {@link StoreReader.completeTexts} fills the kept ones; each
 * entry's `textKey`, the digest of its text, stands for it until then (the copy rule).
 */
export function questionState(
  base: NamespaceBase,
  rows: CandidateRows,
  askedTerms: readonly string[],
  frequencies?: ReadonlyMap<string, number>,
): IndexState {
  // Rows holding every posting of the asked terms count them; rows read for some sections only
  // (candidateBound.ts) come with the namespace's counts.
  let documentFrequency = frequencies;
  if (!documentFrequency) {
    const counted = new Map<string, number>();
    for (const term of askedTerms) counted.set(term, 0);
    for (const p of rows.postings) counted.set(p.term, (counted.get(p.term) ?? 0) + 1);
    documentFrequency = counted;
  }
  return sectionsState(base, rows, corpusOf(rows.stats, documentFrequency, rows.namedEntitySections));
}

/**
 * The state the library tools answer from: the namespace's whole library (every library
 * document, section and posting, texts included) over its base, scored with the corpus's
 * numbers. `documentFrequency` holds the whole namespace's counts of the terms asked so far;
 * the reader adds a call's terms before the call (storeReader.ts), so it grows and never
 * changes within a generation.
 */
export function libraryState(
  base: NamespaceBase,
  rows: LibraryRows,
  documentFrequency: ReadonlyMap<string, number>,
  unknownTerms?: Set<string>,
): IndexState {
  return sectionsState(base, rows, {
    ...corpusOf(rows.stats, documentFrequency, 0),
    ...(unknownTerms ? { unknownTerms } : {}),
  });
}

function corpusOf(
  stats: NamespaceStats,
  documentFrequency: ReadonlyMap<string, number>,
  namedEntitySections: number,
): CorpusStatistics {
  return {
    sectionCount: stats.sectionCount,
    lengthSums: stats.lengthSums,
    documentFrequency,
    averageTitleTerms: stats.docCount ? stats.titleTermSum / stats.docCount : 1,
    namedEntitySections,
  };
}

/** Sections read from a store (a question's candidates or a library) as a state over `base`. */
function sectionsState(
  base: NamespaceBase,
  rows: Pick<CandidateRows, 'sections' | 'docs' | 'postings' | 'commits'>,
  corpus: CorpusStatistics,
): IndexState {
  const candidates = sortedCandidates(rows);
  const dense = new Map<number, number>();
  candidates.forEach((c, i) => dense.set(c.ordinal, i));

  const storedDocs = new Map<string, StoredDoc>(rows.docs.map((d) => [d.id, d]));
  const docs = new Map<string, Doc>();
  const sections: SectionEntry[] = new Array(candidates.length);
  const byDoc = new Map<string, { position: number; section: Section; textKey: string; i: number }[]>();
  candidates.forEach((c, i) => {
    const section: Section = {
      id: c.id,
      docId: c.docId,
      headingPath: c.headingPath,
      level: c.level,
      startLine: c.startLine,
      endLine: c.endLine,
      text: c.text,
      ...(c.entityRefs ? { entityRefs: c.entityRefs } : {}),
    };
    let list = byDoc.get(c.docId);
    if (!list) byDoc.set(c.docId, (list = []));
    list.push({ position: c.position, section, textKey: c.textDigest, i });
  });
  const titleTerms = new Map<string, ReadonlySet<string>>();
  const contextTerms = new Map<string, ReadonlySet<string>>();
  for (const [docId, list] of byDoc) {
    const stored = storedDocs.get(docId);
    if (!stored) throw new Error(`store: section of document ${docId} returned without its document`);
    list.sort((a, b) => a.position - b.position);
    const {
      sectionCount: _count,
      titleTerms: title,
      contextTerms: context,
      contentDigest: _digest,
      ...fields
    } = stored;
    const doc: Doc = { ...fields, sections: list.map((s) => s.section) };
    docs.set(docId, doc);
    titleTerms.set(docId, new Set(title));
    contextTerms.set(docId, new Set(context));
    // The text's digest stands for the text, which a question's candidates are ranked without.
    for (const s of list) sections[s.i] = { ordinal: s.i, section: s.section, doc, textKey: s.textKey };
  }

  const lexical = new CorpusScopedPostings(candidateSegment(candidates, rows.postings, dense), corpus);
  return { ...stateOf(base, { docs, sections, lexical, commits: rows.commits, titleTerms, contextTerms }), corpus };
}

/** The candidates in the order {@link questionState} numbers them: dense ordinal i is element i's store ordinal. */
export function sortedCandidates(rows: Pick<CandidateRows, 'sections'>): CandidateRows['sections'] {
  return [...rows.sections].sort((a, b) => a.ordinal - b.ordinal);
}

/** The candidates' postings laid out as a postings index segment (segment.ts), ordinals dense. */
function candidateSegment(
  candidates: readonly { bodyLength: number; shortLengths: number }[],
  postings: CandidateRows['postings'],
  dense: ReadonlyMap<number, number>,
): BaseSegment {
  const byTerm = new Map<string, { o: number; packed: number }[]>();
  for (const p of postings) {
    const o = dense.get(p.ordinal);
    if (o === undefined) throw new Error(`store: posting of section ${p.ordinal} returned without its section`);
    let list = byTerm.get(p.term);
    if (!list) byTerm.set(p.term, (list = []));
    list.push({ o, packed: p.packed });
  }
  const terms = [...byTerm.keys()];
  const offsets = new Uint32Array(terms.length + 1);
  const total = postings.length;
  const ordinals = new Uint32Array(total);
  const freqs = new Uint32Array(total);
  let at = 0;
  terms.forEach((term, id) => {
    const list = byTerm.get(term)!.sort((a, b) => a.o - b.o);
    for (const p of list) {
      ordinals[at] = p.o;
      freqs[at] = p.packed;
      at++;
    }
    offsets[id + 1] = at;
  });
  const n = candidates.length;
  const present = new Uint32Array(bitsetWords(n));
  for (let i = 0; i < n; i++) setBit(present, i);
  return {
    terms,
    offsets,
    postings: ordinals,
    freqs,
    bodyLengths: Uint32Array.from(candidates, (c) => c.bodyLength),
    shortLengths: Uint32Array.from(candidates, (c) => c.shortLengths),
    present,
    sectionCount: n,
    ordinalBound: n,
  };
}

interface SectionParts {
  docs: Map<string, Doc>;
  sections: SectionEntry[];
  lexical: PostingsIndex;
  commits: ReadonlyMap<string, FileCommitInfo>;
  titleTerms: ReadonlyMap<string, ReadonlySet<string>>;
  contextTerms: ReadonlyMap<string, ReadonlySet<string>>;
}

function stateOf(base: NamespaceBase, parts: SectionParts): IndexState {
  const { info } = base;
  return {
    folders: [info.folder],
    repos: info.repos,
    fileDigests: new Map(),
    commits: parts.commits,
    docs: parts.docs,
    sections: parts.sections,
    sectionOrdinalById: new Map(parts.sections.map((e) => [e.section.id, e.ordinal])),
    lexical: parts.lexical,
    titleTerms: parts.titleTerms,
    contextTerms: parts.contextTerms,
    libraryFolders: info.libraryFolders,
    packs: info.packs,
    fieldLines: {},
    entities: base.entities,
    relations: base.relations,
    graph: base.graph,
    runHealth: base.runHealth,
    problems: info.problems,
    indexedAt: info.indexedAt,
    counts: info.counts,
  };
}
