/**
 * Which entities own a file by where it sits, for documents no annotation attaches to anything:
 * a package's README, a docs site no `techdocs-ref` names, a `docs/` folder without mkdocs.yml.
 *
 * A folder's owners are the entities declared in the catalog files directly in it; a file is owned
 * by the owners of its own folder or, failing that, of the nearest folder above it that has some,
 * up to its repository's root. In a plugin monorepo (`plugins/foo/catalog-info.yaml` beside
 * `plugins/foo/README.md` and `plugins/foo/docs/`) that is plugin foo's component; a file with no
 * catalog file at or above it in its repository is owned by no entity. `Location` entities own
 * nothing: they only point at other catalog files. A folder an entity's
 * `backstage.io/techdocs-ref: dir:` names, and that holds no catalog file of its own, is that
 * entity's: in a monorepo whose root file declares every service with `dir:./services/<name>`,
 * `services/billing/README.md` belongs to billing, not to every service of the root file.
 *
 * A repository's own entities, which its root overview (README.md, overview.md) belongs to, are
 * those its root catalog files declare for it: the entities declared directly in its root folder,
 * less Locations, Users and Groups (people and teams are not what a repository holds). A catalog
 * repository whose root file is a `Location` pointing at hundreds of entity files has none, and
 * its README is not attached to every entity declared anywhere in it.
 */
import type { CatalogEntity, EntityKey } from '../model';
import { dirName, joinPath } from '../sources/paths';
import { parseTechDocsRef, TECHDOCS_ANNOTATION } from '../sources/techdocs';

export class PlaceOwners {
  /** Folder -> keys of the entities declared in catalog files directly in it, in catalog order. */
  private readonly byFolder = new Map<string, EntityKey[]>();
  /** Folder -> the entities of `byFolder` a repository rooted there is (no Users, no Groups). */
  private readonly repositoryByFolder = new Map<string, EntityKey[]>();
  /** Folder -> the entities whose `techdocs-ref: dir:` names it (other than their own folder). */
  private readonly sitesByFolder = new Map<string, EntityKey[]>();

  constructor(entities: readonly CatalogEntity[]) {
    for (const entity of entities) {
      const kind = entity.kind.toLowerCase();
      if (kind === 'location') continue;
      const folder = dirName(entity.location.path);
      addOnce(this.byFolder, folder, entity.key);
      if (kind !== 'user' && kind !== 'group') addOnce(this.repositoryByFolder, folder, entity.key);
      const site = techdocsDir(entity);
      if (site !== null && site !== folder) addOnce(this.sitesByFolder, site, entity.key);
    }
  }

  /**
   * The entities of the repository rooted at `root` (workspace-relative, '' for a folder's top):
   * those its root catalog files declare, less Users and Groups. Empty when none; the same array
   * on every call while the catalog's places are unchanged.
   */
  ofRepository(root: string): readonly EntityKey[] {
    return this.repositoryByFolder.get(root) ?? NONE;
  }

  /**
   * The owners of folder `folder` (workspace-relative, '' for a folder's top): its own entities,
   * else the nearest enclosing folder's, stopping at `root` (the repository root holding it,
   * included). Empty when none.
   */
  ofFolder(folder: string, root: string): readonly EntityKey[] {
    for (let dir = folder; ; dir = dirName(dir)) {
      const keys = this.byFolder.get(dir) ?? this.sitesByFolder.get(dir);
      if (keys) return keys;
      if (dir === root || dir === '' || !isBelowOrAt(dir, root)) return [];
    }
  }
}

/** The folder an entity's `techdocs-ref: dir:` names (workspace-relative), or null. */
function techdocsDir(entity: CatalogEntity): string | null {
  const annotation = entity.annotations[TECHDOCS_ANNOTATION];
  if (!annotation) return null;
  const ref = parseTechDocsRef(annotation);
  return ref.type === 'dir' ? joinPath(dirName(entity.location.path), ref.target) : null;
}

/** True when `dir` is `root` or inside it. */
function isBelowOrAt(dir: string, root: string): boolean {
  return root === '' || dir === root || dir.startsWith(`${root}/`);
}

const NONE: readonly EntityKey[] = [];

function addOnce(map: Map<string, EntityKey[]>, folder: string, key: EntityKey): void {
  const list = map.get(folder);
  if (!list) map.set(folder, [key]);
  else if (!list.includes(key)) list.push(key);
}
