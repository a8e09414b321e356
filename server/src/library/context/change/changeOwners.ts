/**
 * Which entities a changed path belongs to, and why (`get_context`'s `owns` items). A path is
 * claimed by the entities whose evidence names it most closely; the claims, from the closest:
 *
 * 1. the file itself:
 *    - `catalog-entry`: the path is a catalog file; the entities it declares own it (with a diff,
 *      only those whose lines the change touches);
 *    - `api-definition`: an API's definition file (`definition: { $text: ./openapi.yaml }`),
 *      with the owner of the folder around it (the component that serves the API);
 *    - `file-name`: a file named for an entity (`alerts/billing-worker.rules.yaml`,
 *      `k8s/invoice-api.yaml`); only names with a separator (`-`, `_`, `.`), which single words
 *      like `app` or `index` are not;
 * 2. the nearest folder above it that an entity claims:
 *    - `techdocs-dir`: `backstage.io/techdocs-ref: dir:<folder>`, the folder the entity's docs
 *      are built from, which in a service monorepo is the service's folder;
 *    - `source-location`: `backstage.io/source-location` (and a `url:` TechDocs ref) naming a
 *      folder of the repository the catalog file is in;
 *    - `package`: a folder named like a component, API or resource declared in a catalog file
 *      at or above it in the same repository (`services/payments-gateway/` for
 *      `payments-gateway`; a package title such as `@fernhill/money` names `money/`);
 *    - `catalog-place`: the entities declared in catalog files directly in that folder
 *      (engine/indexing/placeOwners.ts): in a plugin monorepo each plugin's own catalog file.
 *      When one catalog file declares several entities, the one the folder is: the only
 *      component, else the only system, else the only domain, else every component.
 *
 * Claims stop at the repository root holding the path; a path nothing claims is unowned.
 * Locations, groups, users and templates never own a path.
 */
import { type CatalogEntity, type EntityKey, type IndexState, PlaceOwners } from '../../../engine';
import type { ChangedFile } from './changeInput';

export type OwnershipKind =
  | 'catalog-entry'
  | 'api-definition'
  | 'file-name'
  | 'techdocs-dir'
  | 'source-location'
  | 'package'
  | 'catalog-place';

export interface OwnershipEvidence {
  kind: OwnershipKind;
  /** What names the path: the folder, the annotation's value, the file. */
  detail: string;
}

export interface PathOwner {
  key: EntityKey;
  evidence: OwnershipEvidence;
}

/** Kinds that never own a path. */
const NOT_OWNERS = new Set(['location', 'group', 'user', 'template']);
/** Kinds a folder or file can be named for. */
const NAMED_KINDS = new Set(['component', 'api', 'resource']);

/** What ownership reads of one index state, built once per state. */
interface OwnershipIndex {
  /** Folder -> claims made by annotations and names (techdocs-dir, source-location). */
  folderClaims: Map<string, PathOwner[]>;
  /** File -> API definitions read from it. */
  definitionFiles: Map<string, PathOwner[]>;
  /** Catalog file -> the entities it declares, in file order. */
  catalogFiles: Map<string, CatalogEntity[]>;
  /** Lower-cased folder or file stem -> entities named so (component, API, resource). */
  byName: Map<string, CatalogEntity[]>;
  places: PlaceOwners;
  /** Repository roots, deepest first ('' last). */
  roots: string[];
  entity(key: EntityKey): CatalogEntity | undefined;
}

const indexes = new WeakMap<IndexState, OwnershipIndex>();

function ownershipIndex(state: IndexState): OwnershipIndex {
  let index = indexes.get(state);
  if (!index) {
    index = buildIndex(state);
    indexes.set(state, index);
  }
  return index;
}

function buildIndex(state: IndexState): OwnershipIndex {
  const roots = [...new Set(state.repos.map((r) => r.root))].sort((a, b) => b.length - a.length);
  const rootOf = (path: string) => roots.find((r) => r === '' || path === r || path.startsWith(`${r}/`)) ?? '';
  const folderClaims = new Map<string, PathOwner[]>();
  const definitionFiles = new Map<string, PathOwner[]>();
  const catalogFiles = new Map<string, CatalogEntity[]>();
  const byName = new Map<string, CatalogEntity[]>();
  const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  for (const entity of state.entities) {
    const kind = entity.kind.toLowerCase();
    push(catalogFiles, entity.location.path, entity);
    if (NOT_OWNERS.has(kind)) continue;
    const catalogDir = dirOf(entity.location.path);
    const techdocs = entity.annotations['backstage.io/techdocs-ref'];
    if (techdocs?.startsWith('dir:')) {
      const folder = joinRelative(catalogDir, techdocs.slice(4).trim());
      if (folder !== null)
        push(folderClaims, folder, { key: entity.key, evidence: { kind: 'techdocs-dir', detail: techdocs } });
    }
    for (const annotation of ['backstage.io/source-location', 'backstage.io/techdocs-ref']) {
      const value = entity.annotations[annotation];
      if (!value?.startsWith('url:')) continue;
      const folder = sameRepositoryFolder(value.slice(4).trim(), entity, rootOf(entity.location.path));
      if (folder !== null)
        push(folderClaims, folder, {
          key: entity.key,
          evidence: { kind: 'source-location', detail: `${annotation}: ${value}` },
        });
    }
    if (kind === 'api')
      for (const file of entity.placeholderFiles ?? [])
        push(definitionFiles, file, { key: entity.key, evidence: { kind: 'api-definition', detail: file } });
    if (NAMED_KINDS.has(kind)) {
      push(byName, entity.name.toLowerCase(), entity);
      const packageName = entity.title?.includes('/') ? entity.title.split('/').pop()?.toLowerCase() : undefined;
      if (packageName && packageName !== entity.name.toLowerCase()) push(byName, packageName, entity);
    }
  }
  const byKey = new Map(state.entities.map((e) => [e.key, e]));
  return {
    folderClaims,
    definitionFiles,
    catalogFiles,
    byName,
    places: new PlaceOwners(state.entities.filter((e) => !NOT_OWNERS.has(e.kind.toLowerCase()))),
    roots,
    entity: (key) => byKey.get(key),
  };
}

/**
 * The entities `file` belongs to, closest claim first, each with its evidence; empty when nothing
 * claims it. A file claimed by its own evidence (catalog entry, file name) is not also given to
 * the folder's owners, except an API definition, which the serving component owns too.
 */
export function ownersOf(state: IndexState, file: ChangedFile): PathOwner[] {
  const index = ownershipIndex(state);
  const path = file.path;
  const declared = index.catalogFiles.get(path);
  if (declared) {
    const touched = declared.filter((e) => !NOT_OWNERS.has(e.kind.toLowerCase()) && touchesEntity(file, e));
    if (touched.length > 0)
      return touched.map((e) => ({
        key: e.key,
        evidence: {
          kind: 'catalog-entry',
          detail: `${path}:${e.location.startLine}-${e.location.endLine}`,
        },
      }));
  }
  const named = fileNamedFor(index, path);
  if (named.length > 0) return named;
  const definitions = index.definitionFiles.get(path) ?? [];
  return dedupe([...definitions, ...folderOwners(index, path)]);
}

/** Entities named by the file's stem (`billing-worker.rules.yaml`), names with a separator only. */
function fileNamedFor(index: OwnershipIndex, path: string): PathOwner[] {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const out: PathOwner[] = [];
  for (let dot = name.indexOf('.'); dot > 0; dot = name.indexOf('.', dot + 1)) {
    const stem = name.slice(0, dot);
    if (!/[-_.]/.test(stem)) continue;
    for (const entity of index.byName.get(stem) ?? []) {
      if (entity.name.toLowerCase() !== stem) continue;
      out.push({ key: entity.key, evidence: { kind: 'file-name', detail: path } });
    }
    if (out.length > 0) break;
  }
  return out;
}

/** The claims of the nearest claimed folder above `path`, inside its repository. */
function folderOwners(index: OwnershipIndex, path: string): PathOwner[] {
  const root = index.roots.find((r) => r === '' || path.startsWith(`${r}/`)) ?? '';
  for (let dir = dirOf(path); ; dir = dirOf(dir)) {
    const claims: PathOwner[] = [...(index.folderClaims.get(dir) ?? []), ...packageClaims(index, dir)];
    const place = placeClaims(index, dir);
    if (claims.length > 0) return dedupe([...claims, ...place.filter((p) => claims.some((c) => c.key === p.key))]);
    if (place.length > 0) return place;
    if (dir === root || dir === '') return [];
  }
}

/** Entities declared in catalog files directly in `dir`, narrowed to the one the folder is. */
function placeClaims(index: OwnershipIndex, dir: string): PathOwner[] {
  const keys = index.places.ofFolder(dir, dir);
  if (keys.length === 0) return [];
  const entities = keys.map((k) => index.entity(k)).filter((e): e is CatalogEntity => e !== undefined);
  const ofKind = (kind: string) => entities.filter((e) => e.kind.toLowerCase() === kind);
  const components = ofKind('component');
  const chosen =
    components.length === 1
      ? components
      : components.length === 0 && entities.length === 1
        ? entities
        : ofKind('system').length === 1
          ? ofKind('system')
          : ofKind('domain').length === 1
            ? ofKind('domain')
            : components.length > 0
              ? components
              : entities;
  return chosen.map((e) => ({
    key: e.key,
    evidence: { kind: 'catalog-place', detail: e.location.path },
  }));
}

/** A folder named like a component, API or resource declared at or above it in its repository. */
function packageClaims(index: OwnershipIndex, dir: string): PathOwner[] {
  const name = dir.slice(dir.lastIndexOf('/') + 1).toLowerCase();
  if (name === '') return [];
  const out: PathOwner[] = [];
  for (const entity of index.byName.get(name) ?? []) {
    const declaredIn = dirOf(entity.location.path);
    const above = declaredIn === '' || dir === declaredIn || dir.startsWith(`${declaredIn}/`);
    const root = index.roots.find((r) => r === '' || entity.location.path.startsWith(`${r}/`)) ?? '';
    const sameRepository = root === '' || dir === root || dir.startsWith(`${root}/`);
    if (above && sameRepository) out.push({ key: entity.key, evidence: { kind: 'package', detail: dir } });
  }
  return out;
}

/** True when the change touches the entity's lines, or when the change says nothing of lines. */
function touchesEntity(file: ChangedFile, entity: CatalogEntity): boolean {
  if (!file.lines) return true;
  const { startLine, endLine } = entity.location;
  const hit = (ranges: readonly [number, number][]) => ranges.some(([a, b]) => a <= endLine && b >= startLine);
  return hit(file.lines.added) || hit(file.lines.removed);
}

/**
 * The workspace folder a browse URL names when it points into the repository the catalog file
 * is in: its `owner/name` is the entity's `github.com/project-slug`, or its name is the
 * repository folder's (or, at the top of a served folder, any name: the checkout's own remote
 * is not known here). `.../tree/REF/PATH`, `.../blob/REF/PATH`, `.../-/tree/REF/PATH` and
 * `.../src/REF/PATH`; a URL without a path names the repository's root, which claims nothing.
 */
function sameRepositoryFolder(url: string, entity: CatalogEntity, root: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const segments = parsed.pathname.split('/').filter((s) => s !== '');
  const marker = segments.findIndex((s, i) => i >= 2 && (s === 'tree' || s === 'blob' || s === 'src'));
  if (marker < 2) return null;
  const repository = segments.slice(0, marker).filter((s) => s !== '-');
  const slug = entity.annotations['github.com/project-slug']?.toLowerCase();
  const owned = repository.join('/').toLowerCase();
  const repoName = repository[repository.length - 1]?.toLowerCase();
  const rootName = root.slice(root.lastIndexOf('/') + 1).toLowerCase();
  const same = (slug !== undefined && owned.endsWith(slug)) || root === '' || rootName === repoName;
  if (!same) return null;
  let inRepository: string[];
  try {
    inRepository = segments.slice(marker + 2).map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
  if (inRepository.length === 0 || inRepository.some((s) => s === '..' || s === '.')) return null;
  const folder = inRepository.join('/').replace(/\/+$/, '');
  return root === '' ? folder : `${root}/${folder}`;
}

/** `dir` joined with a relative path (`./services/x`, `.`, `../docs`); null above the top. */
function joinRelative(dir: string, relative: string): string | null {
  const parts = dir === '' ? [] : dir.split('/');
  for (const part of relative.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

export function dirOf(path: string): string {
  const at = path.lastIndexOf('/');
  return at < 0 ? '' : path.slice(0, at);
}

function dedupe(owners: PathOwner[]): PathOwner[] {
  const seen = new Set<string>();
  return owners.filter((o) => !seen.has(o.key) && seen.add(o.key));
}
