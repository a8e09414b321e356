/**
 * Which entities own a file by where it sits, for documents no annotation attaches to anything:
 * a package's README, a docs site no `techdocs-ref` names, a `docs/` folder without mkdocs.yml.
 *
 * A folder's owners are the entities declared in the catalog files directly in it; a file is owned
 * by the owners of its own folder or, failing that, of the nearest folder above it that has some,
 * up to its repository's root. In a plugin monorepo (`plugins/foo/catalog-info.yaml` beside
 * `plugins/foo/README.md` and `plugins/foo/docs/`) that is plugin foo's component; a file with no
 * catalog file at or above it in its repository is owned by no entity. `Location` entities own
 * nothing: they only point at other catalog files.
 */
import type { CatalogEntity, EntityKey } from '../model';
import { dirName } from '../sources/paths';

export class PlaceOwners {
  /** Folder -> keys of the entities declared in catalog files directly in it, in catalog order. */
  private readonly byFolder = new Map<string, EntityKey[]>();

  constructor(entities: readonly CatalogEntity[]) {
    for (const entity of entities) {
      if (entity.kind.toLowerCase() === 'location') continue;
      const folder = dirName(entity.location.path);
      const list = this.byFolder.get(folder);
      if (!list) this.byFolder.set(folder, [entity.key]);
      else if (!list.includes(entity.key)) list.push(entity.key);
    }
  }

  /**
   * The owners of folder `folder` (workspace-relative, '' for a folder's top): its own entities,
   * else the nearest enclosing folder's, stopping at `root` (the repository root holding it,
   * included). Empty when none.
   */
  ofFolder(folder: string, root: string): readonly EntityKey[] {
    for (let dir = folder; ; dir = dirName(dir)) {
      const keys = this.byFolder.get(dir);
      if (keys) return keys;
      if (dir === root || dir === '' || !isBelowOrAt(dir, root)) return [];
    }
  }
}

/** True when `dir` is `root` or inside it. */
function isBelowOrAt(dir: string, root: string): boolean {
  return root === '' || dir === root || dir.startsWith(`${root}/`);
}
