/**
 * Repository roots by workspace-relative path, for the question "which repository holds this
 * file?" asked once per file and per entity on every index pass.
 *
 * A lookup walks up the path's directories (`a/b/c.md`: `a/b`, `a`, `''`) and probes a map at
 * each: O(path depth) whatever the number of repositories, where scanning every root for a
 * prefix costs O(roots) per lookup and O(roots x files) per pass.
 *
 * Roots of different workspace folders never share a path in a multi-root workspace (paths carry
 * the folder's name), but the map allows it: each path holds a list, in the order given.
 */

/** What the map needs of a root: its workspace-relative directory (`''` for a folder's top). */
export interface RootLike {
  root: string;
}

export class RootMap<R extends RootLike> {
  private readonly byPath = new Map<string, R[]>();

  constructor(roots: Iterable<R>) {
    for (const root of roots) {
      const list = this.byPath.get(root.root);
      if (list) list.push(root);
      else this.byPath.set(root.root, [root]);
    }
  }

  /** The roots at exactly `dir` (empty when none). */
  at(dir: string): readonly R[] {
    return this.byPath.get(dir) ?? [];
  }

  /**
   * Calls `visit` with the roots holding `path`, innermost first (a root holds the paths below
   * its directory, not its own directory path), until `visit` returns true.
   */
  visitHolding(path: string, visit: (root: R) => boolean | void): void {
    for (let end = path.lastIndexOf('/'); ; end = path.lastIndexOf('/', end - 1)) {
      const list = this.byPath.get(end < 0 ? '' : path.slice(0, end));
      if (list) for (const root of list) if (visit(root) === true) return;
      if (end <= 0) return;
    }
  }

  /** The innermost root holding `path` that `accept` takes (any root by default). */
  innermost(path: string, accept: (root: R) => boolean = () => true): R | undefined {
    let found: R | undefined;
    this.visitHolding(path, (root) => {
      if (!accept(root)) return false;
      found = root;
      return true;
    });
    return found;
  }
}
