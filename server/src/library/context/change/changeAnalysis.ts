/**
 * What a change touches, as `get_context`'s change bundle reads it (docs/ARCHITECTURE.md,
 * get_context's contract, "A change"): its files on their workspace paths (changeInput.ts), the
 * entities that own them with their owner and lifecycle (changeOwners.ts), what depends on
 * those (changeDependents.ts), their runbooks, docs and epics (changePages.ts), the rule and
 * instruction files for the changed paths (ruleScope.ts) and the team's expectations it touches
 * (changeExpectations.ts). Plain data; changeBundle.ts sizes it to the budget and renders it.
 */
import type { CatalogEntity, Doc, EntityKey, IndexState } from '../../../engine';
import { touchedExpectations, type ExpectationsSource, type TouchedExpectation } from './changeExpectations';
import { readChange, type ChangedFile, type ChangeRequest } from './changeInput';
import { dependentsOf, type Dependent } from './changeDependents';
import { dirOf, ownersOf, type OwnershipEvidence } from './changeOwners';
import { changePages, type ChangePage } from './changePages';
import { rulesForPaths, type ApplyingRule } from './ruleScope';

export interface ChangeInput {
  request: ChangeRequest;
  /** Each served folder's expectations file, as the host read it. */
  expectations?: readonly ExpectationsSource[];
}

export interface OwnedEntity {
  key: EntityKey;
  ref: string;
  kind: string;
  title?: string;
  type?: string;
  lifecycle?: string;
  /** Its owner's ref, as the graph resolved `spec.owner`. */
  owner?: string;
  /** Why it owns the change's paths (one line per kind of evidence). */
  evidence: OwnershipEvidence[];
  /** The changed files it owns. */
  files: ChangedFile[];
  /** The APIs it provides (their consumers are among the dependents). */
  provides: string[];
}

export interface ChangeDependent extends Dependent {
  owner?: string;
  lifecycle?: string;
}

export interface ChangedFileView extends ChangedFile {
  /** Keys of the entities that own it. */
  owners: EntityKey[];
  /** The indexed document the file is (a docs page, a rule), when it is one. */
  doc?: Doc;
}

export interface ChangeAnalysis {
  from: 'changedPaths' | 'diff';
  files: ChangedFileView[];
  /** Entities owning the change, most changed files first. */
  owned: OwnedEntity[];
  /** Changed paths no entity owns. */
  unowned: string[];
  /** First hop, then (when asked) second. */
  dependents: ChangeDependent[];
  rules: ApplyingRule[];
  pages: ChangePage[];
  expectations: TouchedExpectation[];
  /** What the diff held that could not be read. */
  problems: string[];
}

/**
 * Analyses the change against `state`. `libraryDocs` are the ready library pages the request may
 * draw from (rules for the changed paths come from them). Throws InputError for a change it
 * cannot read (naming the field).
 */
export function analyseChange(
  state: IndexState,
  libraryDocs: readonly Doc[],
  input: ChangeInput,
  options: { hops: 1 | 2 },
): ChangeAnalysis {
  const read = readChange(input.request, state);
  const docsByPath = pathDocs(state);
  const owned = new Map<EntityKey, OwnedEntity>();
  const files: ChangedFileView[] = [];
  const unowned: string[] = [];
  const changedEntries = new Set<EntityKey>();
  for (const file of read.files) {
    const owners = ownersOf(state, file);
    const doc = docsByPath.get(file.path);
    files.push({ ...file, owners: owners.map((o) => o.key), ...(doc ? { doc } : {}) });
    if (owners.length === 0) unowned.push(file.path);
    for (const { key, evidence } of owners) {
      if (evidence.kind === 'catalog-entry') changedEntries.add(key);
      let entry = owned.get(key);
      if (!entry) {
        entry = describe(state, key);
        owned.set(key, entry);
      }
      entry.files.push(file);
      if (!entry.evidence.some((e) => e.kind === evidence.kind && e.detail === evidence.detail))
        entry.evidence.push(evidence);
    }
  }
  const order = [...owned.values()];
  const firstSeen = new Map(order.map((e, i) => [e.key, i]));
  // An API whose definition changed first: its consumers are who the change breaks. Last, an
  // entity that owns its files only as the repository's root component (a `.changeset/` note, a
  // package without a catalog file of its own): what it says about the change is the least.
  const roots = new Set(state.repos.map((r) => r.root));
  const rank = (e: OwnedEntity) =>
    e.evidence.some((v) => v.kind === 'api-definition')
      ? 0
      : e.evidence.every((v) => v.kind === 'catalog-place' && roots.has(dirOf(v.detail)))
        ? 2
        : 1;
  order.sort(
    (a, b) => rank(a) - rank(b) || b.files.length - a.files.length || firstSeen.get(a.key)! - firstSeen.get(b.key)!,
  );
  const keys = order.map((e) => e.key);
  const dependents = dependentsOf(state, keys, options.hops).map((d): ChangeDependent => {
    const entity = state.graph.get(d.key);
    const owner = state.graph.ownerOf(d.key);
    return { ...d, ...(owner ? { owner } : {}), ...(entity?.lifecycle ? { lifecycle: entity.lifecycle } : {}) };
  });
  const paths = read.files.map((f) => f.path);
  return {
    from: read.from,
    files,
    owned: order,
    unowned,
    dependents,
    rules: rulesForPaths(libraryDocs, paths),
    pages: changePages(
      state,
      order.map((e) => ({ key: e.key, files: e.files })),
      read.files,
    ),
    expectations: touchedExpectations(
      input.expectations ?? [],
      files.flatMap((f) => (f.doc ? [f.doc] : [])),
      read.files,
      changedEntries,
    ),
    problems: read.problems,
  };
}

const pathDocIndexes = new WeakMap<IndexState, Map<string, Doc>>();

/** Each indexed file's document by its path (not the catalog's entities, several to a file). */
function pathDocs(state: IndexState): Map<string, Doc> {
  let map = pathDocIndexes.get(state);
  if (!map) {
    map = new Map();
    for (const doc of state.docs.values()) if (doc.sourceKind !== 'catalog_entity') map.set(doc.path, doc);
    pathDocIndexes.set(state, map);
  }
  return map;
}

function describe(state: IndexState, key: EntityKey): OwnedEntity {
  const entity: CatalogEntity | undefined = state.graph.get(key);
  const owner = state.graph.ownerOf(key);
  const provides = state.graph
    .outgoing(key)
    .filter((e) => e.type === 'providesApi')
    .map((e) => e.targetRef);
  return {
    key,
    ref: entity?.ref ?? key,
    kind: entity?.kind ?? key.split(':')[0],
    ...(entity?.title ? { title: entity.title } : {}),
    ...(entity?.type ? { type: entity.type } : {}),
    ...(entity?.lifecycle ? { lifecycle: entity.lifecycle } : {}),
    ...(owner ? { owner } : {}),
    evidence: [],
    files: [],
    provides,
  };
}
