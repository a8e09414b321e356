/**
 * Per-state tables that let the workspace_context ranker score a candidate with a few typed-array
 * reads instead of map lookups and string work: each section's document index, each document's
 * source kind, folder, last commit time and run verdict, and small inverted indexes from a term to
 * the documents whose title (or context fields) hold it, and from an entity to its documents; and
 * the FAQ entries, titled by their questions (entryTitles.ts).
 *
 * Built lazily, once per index state, on the first question asked of it.
 */
import type { IndexState } from '../indexState';
import { SOURCE_KINDS, type Doc, type EntityKey } from '../model';
import { RootMap } from '../workspace/rootMap';
import { countedTermCount } from '../text/analyzer';
import { RELEASE_NOTE_WEIGHT, SIGNED_RECORD_WEIGHT } from './contract';
import { isReleaseNote } from './documentRoles';
import { entryTitles, type EntryTitles } from './entryTitles';

export interface RankingTables {
  docs: Doc[];
  /** Section ordinal -> document index, -1 for removed sections. */
  docOfSection: Int32Array;
  /** The FAQ entries, each titled by its question, and their pruning groups (entryTitles.ts). */
  entries: EntryTitles;
  /** Document index -> position of its source kind in SOURCE_KINDS. */
  kindOfDoc: Uint8Array;
  folderOfDoc: string[];
  /** Epoch ms of the document file's last commit; NaN when unknown. */
  lastCommitOfDoc: Float64Array;
  /** 1 when the document's repository's last run succeeded. */
  healthyDoc: Uint8Array;
  /** Innermost repository root of each document (for why[] details). */
  rootOfDoc: (string | undefined)[];
  /** Term -> documents whose title holds it. */
  titleIndex: Map<string, number[]>;
  /** Term -> documents whose context fields (title, folder, type, tags) hold it. */
  contextIndex: Map<string, number[]>;
  /** Entity key -> documents attached to it. */
  entityDocs: Map<EntityKey, number[]>;
  /** Mean number of distinct terms in a document title (the title bonus normalises by it). */
  averageTitleTerms: number;
  /** Distinct terms in each document's title. */
  titleTermsOfDoc: Uint16Array;
  /**
   * What each document's match counts for when the question asks about a version or a change:
   * SIGNED_RECORD_WEIGHT for a signed record, else 1 (contract.ts). One slot per document, then
   * one per FAQ entry (its document's), so that a pruning group reads it too.
   */
  matchScaleOfDoc: Float64Array;
  /** The same for any other question: a release note's also times RELEASE_NOTE_WEIGHT (documentRoles.ts). */
  pageMatchScaleOfDoc: Float64Array;
  /** 1 for a release note (documentRoles.ts). */
  releaseNoteDoc: Uint8Array;
  /** 1 for a signed record (documentRoles.ts): what a measurement's record weight applies to. */
  signedRecordDoc: Uint8Array;
  /** The ranker's per-question work arrays, made at the first question (workspaceContextRanker.ts). */
  questionArrays?: QuestionArrays;
  /** The pruning's groups (`docOfSection`, or `entries.groupOf`) with a question's source-kind and folder filters applied, by filter: made on first use. */
  filteredGroups?: Map<string, Int32Array>;
}

/** Per document (and per FAQ entry), what one question's ranking fills. */
export interface QuestionArrays {
  contextMask: Int32Array;
  namedDoc: Uint8Array;
  /** Per document: graded words of its title. */
  titleWords: Float64Array;
  /** Per pruning group (each document, then each FAQ entry): the bonuses a passage of it earns. */
  bonusOfGroup: Float64Array;
  /** Per FAQ entry: graded words of its question, as a title. */
  entryTitleWords: Float64Array;
  /** An identifier's title work: 1 for titles that spell it whole (zero between uses), documents then entries. */
  titleWhole: Uint8Array;
  /** An identifier's title work: the weight of its parts each title holds (zero between uses), documents then entries. */
  titlePartWeight: Float64Array;
}

const tables = new WeakMap<IndexState, RankingTables>();

export function rankingTables(state: IndexState): RankingTables {
  let built = tables.get(state);
  if (!built) {
    built = buildTables(state);
    tables.set(state, built);
  }
  return built;
}

/**
 * Builds `state`'s ranking tables now rather than in its first question (a host that prepares
 * each new state off the answering path: library/context/preparedLibrary.ts).
 */
export function prepareRanking(state: IndexState): void {
  rankingTables(state);
}

function buildTables(state: IndexState): RankingTables {
  const docs = [...state.docs.values()];
  const docIndex = new Map<string, number>();
  docs.forEach((doc, i) => docIndex.set(doc.id, i));
  const docOfSection = new Int32Array(state.sections.length).fill(-1);
  for (const entry of state.sections) if (entry) docOfSection[entry.ordinal] = docIndex.get(entry.doc.id) ?? -1;

  // By directory, not a scan of every root per document: O(path depth) each, where the scan cost
  // O(repositories x documents), over half a second per state at 685 repositories.
  const roots = new RootMap(state.repos);
  const kindOfDoc = new Uint8Array(docs.length);
  const folderOfDoc: string[] = new Array(docs.length);
  const lastCommitOfDoc = new Float64Array(docs.length);
  const healthyDoc = new Uint8Array(docs.length);
  const rootOfDoc: (string | undefined)[] = new Array(docs.length);
  const titleIndex = new Map<string, number[]>();
  const contextIndex = new Map<string, number[]>();
  const entityDocs = new Map<EntityKey, number[]>();
  const matchScaleOfDoc = new Float64Array(docs.length);
  const pageMatchScaleOfDoc = new Float64Array(docs.length);
  const releaseNoteDoc = new Uint8Array(docs.length);
  const signedRecordDoc = new Uint8Array(docs.length);
  docs.forEach((doc, d) => {
    signedRecordDoc[d] = isSignedRecord(doc) ? 1 : 0;
    matchScaleOfDoc[d] = signedRecordDoc[d] ? SIGNED_RECORD_WEIGHT : 1;
    releaseNoteDoc[d] = isReleaseNote(doc) ? 1 : 0;
    pageMatchScaleOfDoc[d] = matchScaleOfDoc[d] * (releaseNoteDoc[d] ? RELEASE_NOTE_WEIGHT : 1);
    kindOfDoc[d] = SOURCE_KINDS.indexOf(doc.sourceKind);
    folderOfDoc[d] = doc.folder;
    lastCommitOfDoc[d] = state.commits.get(doc.path)?.lastCommitTime ?? NaN;
    const root = roots.innermost(doc.path)?.root;
    rootOfDoc[d] = root;
    healthyDoc[d] = root !== undefined && state.runHealth.get(root)?.verdict === 'succeeded' ? 1 : 0;
    for (const term of state.titleTerms.get(doc.id) ?? []) push(titleIndex, term, d);
    for (const term of state.contextTerms.get(doc.id) ?? []) push(contextIndex, term, d);
    for (const key of doc.entityRefs) push(entityDocs, key, d);
  });
  let titleTermCount = 0;
  const titleTermsOfDoc = new Uint16Array(docs.length);
  docs.forEach((doc, d) => {
    const titleTerms = state.titleTerms.get(doc.id);
    const n = titleTerms ? countedTermCount(titleTerms) : 0;
    titleTermsOfDoc[d] = Math.min(n, 0xffff);
    titleTermCount += n;
  });
  // A state of candidates only (a store's) normalises by the whole corpus's mean.
  const averageTitleTerms = state.corpus
    ? state.corpus.averageTitleTerms
    : docs.length
      ? titleTermCount / docs.length
      : 1;
  const entries = entryTitles(state, docOfSection, docs.length);
  return {
    docs,
    docOfSection,
    entries,
    kindOfDoc,
    folderOfDoc,
    lastCommitOfDoc,
    healthyDoc,
    rootOfDoc,
    titleIndex,
    contextIndex,
    entityDocs,
    averageTitleTerms,
    titleTermsOfDoc,
    matchScaleOfDoc: withEntries(matchScaleOfDoc, entries),
    pageMatchScaleOfDoc: withEntries(pageMatchScaleOfDoc, entries),
    releaseNoteDoc,
    signedRecordDoc,
  };
}

/**
 * True when the document's front matter names who wrote it (`author` or `authors`, a non-empty
 * string or list): a signed record of a moment, such as a design proposal, an RFC or a blog
 * post, rather than a maintained page of the manual. Read from the front matter's structure
 * only: no path, file name or heading decides it.
 */
export function isSignedRecord(doc: Pick<Doc, 'frontMatter'>): boolean {
  const fm = doc.frontMatter ?? {};
  return [fm.author, fm.authors].some((v) =>
    typeof v === 'string'
      ? v.trim() !== ''
      : Array.isArray(v) && v.some((a) => a !== null && a !== undefined && String(a).trim() !== ''),
  );
}

/** A per-document array followed by each FAQ entry's document's value (the entries' pruning groups). */
function withEntries(ofDoc: Float64Array, entries: EntryTitles): Float64Array {
  const out = new Float64Array(ofDoc.length + entries.count);
  out.set(ofDoc);
  for (let e = 0; e < entries.count; e++) out[ofDoc.length + e] = ofDoc[entries.docOf[e]];
  return out;
}

function push<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
