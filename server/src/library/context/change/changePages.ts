/**
 * The pages a change's reviewer reads beside the diff, for each entity the change owns:
 *
 * - `runbook`: its TechDocs pages that are runbooks (a path segment or a title naming a runbook,
 *   playbook or on-call page: `docs/runbooks/deploy.md`, `operations/runbook.md`);
 * - `doc`: its docs overview (the TechDocs index), the README of the changed package (the
 *   nearest repository or package overview at or above a changed path, below the repository's
 *   root), and docs pages whose title or file name shares a word with the changed files' names
 *   (`src/dunning/schedule.ts` and `runbooks/dunning.md`); when none of these exists, the
 *   repository's overview;
 * - `epic`: epics whose front matter lists it (`entities:`), or, for an epic without such a
 *   list, that name it in their text; epics marked done or cancelled are left out.
 *
 * A page the change itself edits is not repeated: the reviewer has it in the diff (the change's
 * summary names it with its page_id).
 */
import type { Doc, EntityKey, IndexState } from '../../../engine';
import type { ChangedFile } from './changeInput';
import { dirOf } from './changeOwners';

export type ChangePageReason = 'runbook' | 'doc' | 'epic';

export interface ChangePage {
  doc: Doc;
  reason: ChangePageReason;
  /** The owned entity it is for. */
  entity: EntityKey;
}

/** Words of file names too common to tie a file to a docs page. */
const COMMON_WORDS = new Set([
  'src',
  'lib',
  'index',
  'main',
  'test',
  'tests',
  'spec',
  'app',
  'utils',
  'util',
  'types',
  'type',
  'docs',
  'doc',
  'readme',
  'md',
  'ts',
  'tsx',
  'js',
  'jsx',
  'go',
  'py',
  'kt',
  'java',
  'yaml',
  'yml',
  'json',
  'sql',
  'proto',
  'internal',
  'service',
  'services',
  'components',
  'component',
  'handler',
  'handlers',
  'api',
  'config',
  'page',
  'plugin',
  'plugins',
  'package',
  'mocks',
  'mock',
  'alpha',
  'dev',
  'the',
  'and',
  'of',
  'for',
  'new',
  'default',
]);
const RUNBOOK = /(^|[^a-z])(runbooks?|playbooks?|on-?call)([^a-z]|$)/i;
const CLOSED_EPIC = /^(done|complete|completed|cancel+ed|shipped|closed|abandoned)$/i;

interface EntityDocs {
  docs: Map<EntityKey, Doc[]>;
  /** Entities that name their docs (a `backstage.io/techdocs-ref`): their TechDocs are their own. */
  namesDocs: Set<EntityKey>;
  /** Folders holding catalog files in folders below them: a folder of packages, not a package. */
  containers: Set<string>;
  /** Epics by the entities their front matter lists (or, without a list, their text names). */
  epics: Map<EntityKey, Doc[]>;
}

const indexes = new WeakMap<IndexState, EntityDocs>();

function entityDocs(state: IndexState): EntityDocs {
  let index = indexes.get(state);
  if (index) return index;
  const docs = new Map<EntityKey, Doc[]>();
  const epics = new Map<EntityKey, Doc[]>();
  const push = (map: Map<EntityKey, Doc[]>, key: EntityKey, doc: Doc) => {
    const list = map.get(key);
    if (list) list.push(doc);
    else map.set(key, [doc]);
  };
  for (const doc of state.docs.values()) {
    if (doc.sourceKind === 'catalog_doc' || doc.sourceKind === 'repo_overview')
      for (const key of doc.entityRefs) push(docs, key, doc);
    else if (doc.sourceKind === 'epic_doc') {
      const status = doc.frontMatter.status;
      if (typeof status === 'string' && CLOSED_EPIC.test(status.trim())) continue;
      const listed = listedEntities(doc);
      for (const key of listed ?? doc.entityRefs) push(epics, key, doc);
    }
  }
  const namesDocs = new Set<EntityKey>();
  const containers = new Set<string>();
  for (const entity of state.entities) {
    if (entity.annotations['backstage.io/techdocs-ref'] !== undefined) namesDocs.add(entity.key);
    for (let dir = dirOf(dirOf(entity.location.path)); ; dir = dirOf(dir)) {
      if (dir !== '' && dirOf(entity.location.path) !== dir) containers.add(dir);
      if (dir === '') break;
    }
  }
  index = { docs, epics, namesDocs, containers };
  indexes.set(state, index);
  return index;
}

/** The keys an epic's front matter `entities:` lists (kind defaulting to component), or null without a list. */
function listedEntities(doc: Doc): EntityKey[] | null {
  const listed = doc.frontMatter.entities;
  if (!Array.isArray(listed)) return null;
  const keys: EntityKey[] = [];
  for (const item of listed) {
    if (typeof item !== 'string' || item.trim() === '') continue;
    const text = item.trim().toLowerCase();
    const colon = text.indexOf(':');
    const kind = colon > 0 ? text.slice(0, colon) : 'component';
    const rest = colon > 0 ? text.slice(colon + 1) : text;
    keys.push(`${kind}:${rest.includes('/') ? rest : `default/${rest}`}`);
  }
  return keys.filter((k) => doc.entityRefs.includes(k));
}

/**
 * The runbooks, docs and epics of each owned entity (in order, with the changed files it owns),
 * each page once (for the first entity that brought it), runbooks before docs before epics per
 * entity. `files` is the whole change: none of its pages is sent.
 */
export function changePages(
  state: IndexState,
  owned: readonly { key: EntityKey; files: readonly ChangedFile[] }[],
  files: readonly ChangedFile[],
): ChangePage[] {
  const index = entityDocs(state);
  const changed = new Set(files.map((f) => f.path));
  const roots = state.repos.map((r) => r.root);
  const out: ChangePage[] = [];
  const taken = new Set<string>();
  const take = (doc: Doc, reason: ChangePageReason, entity: EntityKey) => {
    if (taken.has(doc.id) || changed.has(doc.path)) return;
    taken.add(doc.id);
    out.push({ doc, reason, entity });
  };
  for (const { key: entity, files: own } of owned) {
    const paths = own.map((f) => f.path);
    // An entity that names its docs has them all; one that was given docs by where they sit (a
    // repository's root component holds every unclaimed docs folder) has those of the changed package only.
    const docs = (index.docs.get(entity) ?? [])
      .filter(
        (d) =>
          d.sourceKind !== 'catalog_doc' ||
          index.namesDocs.has(entity) ||
          samePackage(d.path, paths, roots, index.containers),
      )
      .sort(byPath);
    const named = state.graph.get(entity);
    const words = fileWords(own, `${named?.name ?? ''} ${named?.title ?? ''}`);
    for (const doc of docs) if (doc.sourceKind === 'catalog_doc' && isRunbook(doc)) take(doc, 'runbook', entity);
    const pages: Doc[] = [];
    for (const doc of docs) if (doc.sourceKind === 'catalog_doc' && doc.docsRole === 'overview') pages.push(doc);
    for (const doc of nearestOverviews(docs, paths, roots, index.containers)) pages.push(doc);
    for (const doc of docs)
      if (doc.sourceKind === 'catalog_doc' && !isRunbook(doc) && sharesWord(doc, words)) pages.push(doc);
    if (pages.length === 0) {
      const top = docs.filter((d) => d.sourceKind === 'repo_overview' && roots.includes(dirOf(d.path)));
      pages.push(...top.slice(0, 1));
    }
    for (const doc of pages) take(doc, 'doc', entity);
    for (const doc of (index.epics.get(entity) ?? []).slice().sort(byPath)) take(doc, 'epic', entity);
  }
  return out;
}

function isRunbook(doc: Doc): boolean {
  return RUNBOOK.test(doc.path.replace(/\.[^./]+$/, '')) || RUNBOOK.test(doc.title);
}

/**
 * For each changed path, the overview (a README or overview.md: `repo_overview`) nearest above it
 * and below its repository's root: the changed package's own README. Not a hidden folder's (a
 * tool's folder, `.changeset/README.md`) nor that of a folder of packages (`packages/README.md`,
 * above folders with catalog files of their own).
 */
function nearestOverviews(
  docs: readonly Doc[],
  paths: readonly string[],
  roots: readonly string[],
  containers: ReadonlySet<string>,
): Doc[] {
  const overviews = new Map<string, Doc>();
  for (const doc of docs) {
    const dir = dirOf(doc.path);
    if (doc.sourceKind !== 'repo_overview' || containers.has(dir) || dir.split('/').some((s) => s.startsWith('.')))
      continue;
    overviews.set(dir, doc);
  }
  const out = new Set<Doc>();
  for (const path of paths) {
    for (let dir = dirOf(path); ; dir = dirOf(dir)) {
      if (roots.includes(dir)) break;
      const doc = overviews.get(dir);
      if (doc) {
        out.add(doc);
        break;
      }
      if (dir === '') break;
    }
  }
  return [...out];
}

/**
 * The page sits in the package of one of `paths`: they share a folder below the repository's
 * root that is not a folder of packages (`plugins/`).
 */
function samePackage(
  page: string,
  paths: readonly string[],
  roots: readonly string[],
  containers: ReadonlySet<string>,
): boolean {
  const a = dirOf(page).split('/');
  return paths.some((path) => {
    const b = dirOf(path).split('/');
    let common = '';
    for (let i = 0; i < Math.min(a.length, b.length) && a[i] === b[i]; i++) common = a.slice(0, i + 1).join('/');
    return common !== '' && !roots.includes(common) && !containers.has(common);
  });
}

/**
 * The distinctive words of the changed files' names and their two nearest folders: not the
 * common ones, not the words of the entity's own name (every page of billing-worker says
 * "billing"), not numbers.
 */
function fileWords(files: readonly ChangedFile[], entityName: string): Set<string> {
  const own = new Set(entityName.toLowerCase().split(/[^a-z0-9]+/));
  const words = new Set<string>();
  for (const file of files)
    for (const segment of file.path.toLowerCase().split('/').slice(-3))
      for (const part of segment.split(/[._-]+/))
        if (part.length >= 4 && !COMMON_WORDS.has(part) && !own.has(part) && !/^\d+$/.test(part)) words.add(part);
  return words;
}

/** The page's file name or title holds one of `words`. */
function sharesWord(doc: Doc, words: ReadonlySet<string>): boolean {
  if (words.size === 0) return false;
  const name = doc.path.slice(doc.path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
  const own = `${name} ${doc.title}`.toLowerCase().split(/[^a-z0-9]+/);
  return own.some((w) => words.has(w));
}

function byPath(a: Doc, b: Doc): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
