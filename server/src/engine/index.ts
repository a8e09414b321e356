/**
 * The engine's front door. Code outside server/src/engine (the library tools and get_context in
 * server/src/library, the services, the tools, the hosts, the store) imports the engine from
 * here and nowhere else; test/unit/importRules.test.ts fails on any other import.
 *
 * What passes through it: the {@link WorkspaceIndex} the tools answer from (the in-memory
 * `Engine` implements it), the plain data types an answer is made of (documents, sections,
 * entities, index states), and the pure functions the layers above share with the index (the
 * analyser, ids, the graph walk, the ranker) so that a word, an id or a walk means the same thing
 * in every tool. Anything else in the engine is its own business and may change without notice
 * to the layers above. See docs/ARCHITECTURE.md, "Code map".
 */
export type { AsOfAnswer, EngineStatus, StateListener, WorkspaceIndex } from './workspaceIndex';
export { findServedFolder } from './servedFolder';

// The index itself: the Engine, its states, the data model, errors and settings.
export { Engine } from './engine';
export { InputError, UnavailableError } from './errors';
export type { IndexState, SectionEntry, WorkspaceFolder } from './indexState';
export { SOURCE_KINDS } from './model';
export type {
  CatalogEntity,
  Doc,
  EntityKey,
  FileCommitInfo,
  Problem,
  RelatedPlace,
  Relation,
  RelationType,
  Section,
  Severity,
  SourceKind,
} from './model';
export type { EngineSettings } from './settings';

// Ids: document and section ids, the short ids tools print, prefixes; Markdown blocks.
export { SHORT_ID_LENGTH, resolveIdPrefix, sha256Hex, shortId } from './chunking/ids';
export type { IdLookup } from './chunking/ids';
export { scanMarkdown, splitLines } from './chunking/markdownBlocks';

// Text: the analyser, stop words, identity terms, the token estimate.
export { analyzeQuery, analyzeWord, countedTermCount, termSet } from './text/analyzer';
export type { QueryTerm } from './text/analyzer';
export { identityTerms } from './text/identityTerms';
export { STOP_WORDS, isStopWord } from './text/stopWords';
export { estimateTokens } from './text/tokenEstimate';
export { tokenize } from './text/tokenize';

// The component graph: relation types, walks, entity lookup.
export type { GraphEdge } from './graph/componentGraph';
export { resolveEntityInput, summarizeEntity } from './graph/entityLookup';
export { nearestRefs } from './graph/nearestRefs';
export { RELATION_PAIRS, RELATION_TYPES, inverseType, isForward, isRelationType } from './graph/relationTypes';
export { MAX_WALK_DEPTH, directionOf, typesAgainstDirection, walkGraph } from './graph/walk';
export type { WalkDirection } from './graph/walk';

// workspace_context's ranking: the contract version, the ranker, folder scopes.
export { CONTRACT_VERSION, DOCUMENT_CAP } from './ranking/contract';
export type { RankingTuning } from './ranking/contract';
export { folderScopedState } from './ranking/folderScope';
export { prepareRanking } from './ranking/rankingTables';
export { statisticsOf, summedStatistics, type QuestionStatistics } from './ranking/questionStatistics';
export { questionIndexTerms } from './ranking/questionUnits';
export { folderNamedBy, normalizeName } from './ranking/namedEntities';
export { comparePassages, rankWorkspaceContext } from './ranking/workspaceContextRanker';
export type { MeaningSource, RankResult, RankedPassage } from './ranking/workspaceContextRanker';
export { explainRanking } from './ranking/explainRanking';
export type { FolderRanking, RankingExplanation } from './ranking/explainRanking';

// Meaning: the status of section vectors, phrase similarity.
export type { MeaningStatus } from './meaning/sectionVectors';
export type { TextMeaning } from './meaning/textSimilarity';

// Embedders (the host chooses one; the engine embeds with it).
export { DEFAULT_EMBEDDING_SETTINGS, createEmbedder } from './embeddings/embedder';
export type { Embedder, EmbeddingSettings } from './embeddings/embedder';
// ONNX Runtime, loaded with its telemetry off (the doctor checks that it loads).
export { loadOnnxRuntime } from './embeddings/onnxRuntime';

// Vector index backends (status and the optional native one).
export { loadHnswlib } from './vector/hnswIndex';
export { vectorBackendStatus } from './vector/vectorIndex';

// What an index pass reports.
export { NOTHING_INDEXED } from './indexing/emptyFolders';
export {
  DOCS_UNREAD,
  REASON_WORDS,
  UNREAD_REASONS,
  type FolderCoverage,
  type UnreadDocFile,
  type UnreadReason,
} from './indexing/coverage';
export { coverageListing, coverageSummary, unreadCounts } from './indexing/coverageText';
export type { PassProgress } from './indexing/indexer';
export { documentContextText } from './indexing/sectionTerms';

// Limits of the lexical match a tool checks its input against.
export { MAX_MATCH_UNITS } from './lexical/postings';

// Parsers a host loads or reports on (web-tree-sitter, bounded YAML).
export { parseDocumentBounded } from './parsing/boundedYaml';
export { loadWebTreeSitter, setSyntaxLog, syntaxStatus } from './parsing/syntaxTree';

// Entity mentions in any text (hovers, references, diagnostics).
export { findEntityMentions, findEntityMentionsAsync, mentionAt } from './references/entityMentions';
export type { EntityMention } from './references/entityMentions';
export { MentionIndex } from './references/mentionIndex';

// Source kinds: the library page format, paths.
export { classifyLibraryPath } from './sources/instructionFormats';
export { CONFLICTS_RESOLVED_KEY, extractPageLinks, isExpired, readLibraryPage } from './sources/library';
export type { FolderDescription, LibraryPack } from './sources/library';
export { baseName, extName } from './sources/paths';

// The Backstage catalog: the kind a relation field defaults to.
export { defaultKindForField } from './sources/catalog/relationFields';

// Reading the workspace: workspace paths, the guarded reader.
export { DEFAULT_MAX_FILE_SIZE } from './workspace/discovery';
export {
  fromWorkspacePath,
  toWorkspacePath,
  folderOf,
  isWithin,
  relativePosix,
  usesFolderPrefix,
  workspacePath,
} from './workspace/paths';
export { WorkspaceReader, decodeText, readGuardedBytes, readGuardedBytesSync } from './workspace/readGuard';
export { compileSourceGlobs, inSkippedDir, resolveSourceGlobs, sourceGlobInstructions } from './workspace/globs';
export type { RefusedSourceGlob, SourceMatcher } from './workspace/globs';
export { MAX_SOURCE_GLOB_INSTRUCTIONS } from './workspace/globBudget';
export { compileGlobs } from './workspace/globMatch';
export type { GlobMatcher, GlobOptions } from './workspace/globMatch';

// A change as git sees it (get_context's changes); ownership by place (catalog files per folder).
export { GitRangeError, MAX_RANGE_LENGTH, rangeProblem, readGitDiff } from './workspace/gitDiff';
export type { GitDiffRequest, GitDiffResult } from './workspace/gitDiff';
export { PlaceOwners } from './indexing/placeOwners';

// The store interface: the rows a store keeps and the reader that ranks a question's candidates from them.
export type {
  IndexStore,
  NamespaceBaseRows,
  NearestWindows,
  StoredMeaningRows,
  StoredNamespace,
  StoredWindowRow,
  VectorCatchUp,
  LoadSink,
  LoadedVersion,
  NamespaceLoad,
} from './store/indexStore';
export type {
  CandidateRows,
  CandidateSection,
  LibraryRows,
  NamespaceStats,
  PostingRow,
  StoredDoc,
  StoredMeaning,
  StoredSectionTerms,
  StoredWorkspace,
  StoredWorkspaceInfo,
  WriteReport,
  NamespaceSizes,
} from './store/rows';
export { isStoreUnavailable, unreadableNotice } from './store/storeAvailability';
export { StoreReader } from './store/storeReader';
export type { QuestionScope } from './store/storeReader';
export { workspaceRows } from './store/storeRows';
export { namespaceConflict } from './store/namespaceIdentity';
export type { NamespaceOrigin } from './store/namespaceIdentity';
export { readRepositoryIdentity } from './workspace/repositoryIdentity';
export type { RepositoryIdentity } from './workspace/repositoryIdentity';
export { formatBytes, parseByteSize } from './store/memoryEstimate';
export { MemoryReader, globMatches } from './store/memoryReader';
export type { NamespaceChoice } from './store/memoryReader';

// The expectations file (.wsctx/expectations.yaml): the questions and the pages that must come.
export { EXPECTATIONS_FILE, MAX_EXPECTATIONS, parseExpectations } from './expectations/expectationsFile';
export { MAX_EXPECTATIONS_BYTES, readExpectationsFile } from './expectations/readExpectations';
export type { ExpectationsRead } from './expectations/readExpectations';
export type { Expectation, ExpectationProblem, ExpectationsFile, ExpectedItem } from './expectations/expectationsFile';
