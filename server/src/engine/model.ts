/**
 * The engine's data model: what every parser produces and every ranker reads.
 *
 * Plain serializable data only (no classes with behaviour, no host types), so a snapshot can be
 * written to disk and any host can send these values over its own protocol.
 *
 * Conventions used throughout:
 * - `path` is always workspace-relative with `/` separators, as VS Code's `asRelativePath` prints
 *   it: relative to the workspace folder, prefixed with the folder's name only when the engine
 *   serves more than one folder.
 * - Lines are 1-based and ranges inclusive (`startLine`..`endLine`).
 * - Entity identity is the lower-cased canonical ref (`EntityKey`, equal to what Backstage's
 *   `stringifyEntityRef` prints); the display ref (`CatalogEntity.ref`) keeps the name's case.
 */

/** The five kinds of source the engine reads (docs/ARCHITECTURE.md, "What is read"). */
export type SourceKind = 'catalog_entity' | 'catalog_doc' | 'repo_overview' | 'epic_doc' | 'library';

export const SOURCE_KINDS: readonly SourceKind[] = [
  'catalog_entity',
  'catalog_doc',
  'repo_overview',
  'epic_doc',
  'library',
];

export type Severity = 'error' | 'warning' | 'info';

/** Another place a problem refers to (the other duplicate, the conflicting page...). */
export interface RelatedPlace {
  path: string;
  line: number;
  message: string;
}

/**
 * Something wrong with the workspace's content. Parsers never throw on user content; they return
 * what they could read plus problems like this one, and the rest of the workspace still indexes.
 */
export interface Problem {
  path: string;
  line: number;
  /** 1-based column when known. */
  column?: number;
  severity: Severity;
  /** Stable machine-readable code, dotted: `yaml.syntax`, `catalog.invalid-entity`, ... */
  code: string;
  message: string;
  related?: RelatedPlace[];
}

// ---------------------------------------------------------------------------------------------
// Catalog

/** A parsed entity reference: `[kind:][namespace/]name`. */
export interface EntityName {
  kind: string;
  namespace: string;
  name: string;
}

/** Lower-cased canonical ref: the identity used for lookups and edges. */
export type EntityKey = string;

/** Where something was declared in a file. */
export interface SourceLocation {
  path: string;
  startLine: number;
  endLine: number;
}

export interface CatalogEntity {
  /** Display ref `kind:namespace/name`: kind and namespace lower-cased, the name's case kept. */
  ref: string;
  /** `ref` lower-cased (Backstage's `stringifyEntityRef`): identity. */
  key: EntityKey;
  kind: string;
  namespace: string;
  name: string;
  apiVersion: string;
  title?: string;
  description?: string;
  tags: string[];
  annotations: Record<string, string>;
  labels: Record<string, string>;
  /** `spec.type`, `spec.lifecycle`, `spec.owner` as written (owner unresolved form). */
  type?: string;
  lifecycle?: string;
  /** The whole entity as parsed (metadata, spec, relations as written). */
  raw: Record<string, unknown>;
  location: SourceLocation;
  /**
   * Workspace-relative files its placeholders read (`definition: { $text: ./openapi.yaml }` and
   * the files an `$openapi` bundles): an API's definition file is part of the API, so a change
   * to it is a change to the API. Absent when it has none.
   */
  placeholderFiles?: string[];
}

/** Backstage's built-in relation types, both directions of each pair. */
export type RelationType =
  | 'ownedBy'
  | 'ownerOf'
  | 'partOf'
  | 'hasPart'
  | 'dependsOn'
  | 'dependencyOf'
  | 'providesApi'
  | 'apiProvidedBy'
  | 'consumesApi'
  | 'apiConsumedBy'
  | 'parentOf'
  | 'childOf'
  | 'memberOf'
  | 'hasMember';

export interface Relation {
  source: EntityKey;
  type: RelationType;
  target: EntityKey;
  /** Canonical printed refs of both ends (keep the names' case for display). */
  sourceRef: string;
  targetRef: string;
  /** False when the target (for a reverse edge: the source) is not in the catalog. */
  resolved: boolean;
  /** The field that produced the edge (`spec.owner`, `spec.dependsOn`, ...) and where. */
  origin: { path: string; line: number; field: string };
}

// ---------------------------------------------------------------------------------------------
// Documents and sections

/**
 * How a document came in. Library documents keep their origin format so tools can say where an
 * instruction came from (an `AGENTS.md`, a Cursor rule...) whatever format it was written in.
 */
export type DocFormat =
  | 'catalog'
  | 'markdown'
  | 'mdx'
  | 'rst'
  | 'asciidoc'
  | 'agents-md'
  | 'copilot-instructions'
  | 'instructions-md'
  | 'claude-md'
  | 'cursor-mdc'
  | 'windsurf-md'
  | 'context-page';

/** Library page properties (docs/ARCHITECTURE.md, "What is read"); all optional in front matter. */
export interface LibraryProps {
  /** rule, guide, template, voice, process, reference, table, instructions... */
  type?: string;
  summary?: string;
  goodFor: string[];
  questions: string[];
  tags: string[];
  alwaysInclude: boolean;
  readWhole?: boolean;
  status: 'published' | 'draft';
  /** ISO date (YYYY-MM-DD) after which the page is no longer served. */
  expires?: string;
  usage?: string;
  /** Workspace-relative path of an attached file (`get_file`). */
  file?: string;
  /**
   * The attachment the front matter names when no regular file was there at indexing time (a
   * problem says so); `get_file` looks again and says why it cannot serve it, instead of
   * answering as if the page named no file.
   */
  missingFile?: string;
  /** Copilot `applyTo` or Cursor `globs`, kept as written. */
  applyTo?: string[];
  /** Cursor `alwaysApply`. */
  alwaysApply?: boolean;
  /**
   * `conflicts_resolved`: the pages (titles or workspace-relative paths, as written) whose
   * conflict and duplicate flags with this page the author has settled, and the 1-based line of
   * the key (library/soundness.ts checks the names against the library).
   */
  conflictsResolved?: { pages: string[]; line: number };
  /** `[[Page title]]` link targets found in the body, in order. */
  links: string[];
  /** Namespace: the library folder the page lives in (`.context/<namespace>/...`), '' at the top. */
  namespace: string;
}

export interface Section {
  /** SHA-256 hex of `path#heading path`, disambiguated by ordinal for repeated headings. */
  id: string;
  docId: string;
  /** Headings from the document's top to this section (empty for text before any heading). */
  headingPath: string[];
  /** Heading level 1..6, 0 for a preamble without heading. */
  level: number;
  startLine: number;
  endLine: number;
  /** The section's text as written, heading line included. */
  text: string;
  /** Entities this section belongs to when they differ from its document's (one per catalog entity). */
  entityRefs?: EntityKey[];
}

export interface Doc {
  /** SHA-256 hex of `path`. */
  id: string;
  path: string;
  /** Name of the workspace folder holding the file. */
  folder: string;
  sourceKind: SourceKind;
  format: DocFormat;
  title: string;
  /** SHA-256 hex of the file's bytes. */
  digest: string;
  /** Parsed front matter (empty when none). */
  frontMatter: Record<string, unknown>;
  /** Entities this document is attached to (keys). */
  entityRefs: EntityKey[];
  sections: Section[];
  /** Library properties; present on `library` documents. */
  library?: LibraryProps;
  /** For catalog docs: `overview` (the docs' index page) or `page`. */
  docsRole?: 'overview' | 'page';
}

// ---------------------------------------------------------------------------------------------
// Documentation coverage (indexing/coverage.ts)

/**
 * Why a documentation file (Markdown, MDX, reStructuredText, AsciiDoc) is not read: ignored
 * (`.gitignore`, `sources.ignore`), vendored, generated, an issue or pull-request template, over
 * the size cap, unreadable, left out by the `sources.docs` globs, in a format no splitter reads
 * yet, or claimed by another source that made no document of it.
 */
export type UnreadReason =
  | 'ignored'
  | 'vendored'
  | 'generated'
  | 'template'
  | 'too-big'
  | 'unreadable'
  | 'not-in-sources'
  | 'unsupported-format'
  | 'another-role';

export interface UnreadDocFile {
  path: string;
  reason: UnreadReason;
}

/** One served folder's documentation files: found, read (by source kind), and the rest by reason. */
export interface FolderCoverage {
  /** The served folder's name. */
  folder: string;
  /** Documentation files found in it (each Markdown, MDX, reStructuredText and AsciiDoc file seen). */
  files: number;
  /** Of those, the files a document was made of. */
  read: number;
  /** The files read, by the source kind of their document. */
  readAs: Partial<Record<SourceKind, number>>;
  /** Every file not read, most actionable reason first, then path order. */
  unread: UnreadDocFile[];
}

// ---------------------------------------------------------------------------------------------
// Git facts

export interface RepoInfo {
  /** Workspace-relative root ('' for the folder itself in a single-root workspace). */
  root: string;
  folder: string;
  /** Absolute path on disk. */
  absRoot: string;
  /** HEAD commit, or null when the folder is not a git repository (or has no commits). */
  head: string | null;
  /** True when this root is a git repository. */
  git: boolean;
}

/** Per-file git facts (docs/ARCHITECTURE.md, "Identity, commits, freshness"). */
export interface FileCommitInfo {
  /** HEAD of the repository holding the file when it was read, or null without git. */
  commit: string | null;
  /** True when the working-tree file differs from HEAD (or is untracked). */
  dirty: boolean;
  /** Epoch milliseconds of the last commit that touched the file, or null. */
  lastCommitTime: number | null;
}
