/**
 * The path lookups an update pass asks of the indexer's discovery (indexer.ts): the discovered
 * files by path, the repository holding a path, and whether a file the index has never seen could
 * be a source. Each is built once per discovery (or repository list) and reused while it lasts:
 * at 100k files an update pass asks them for every path git or a watcher names.
 */
import type { DiscoveredFile, DiscoveredRoot, WorkspaceDiscovery } from '../workspace/discovery';
import type { SourceMatcher } from '../workspace/globs';
import { RootMap } from '../workspace/rootMap';

export class DiscoveryLookups {
  private known: { discovery: WorkspaceDiscovery; byPath: Map<string, DiscoveredFile> } | undefined;
  private repoMap: { repos: readonly DiscoveredRoot[]; map: RootMap<DiscoveredRoot> } | undefined;
  private rootMap: { roots: readonly DiscoveredRoot[]; map: RootMap<DiscoveredRoot> } | undefined;

  constructor(private readonly matcher: SourceMatcher) {}

  /** The discovered files by path, kept in step with `discovery.files` across update passes. */
  files(discovery: WorkspaceDiscovery): Map<string, DiscoveredFile> {
    if (!this.known || this.known.discovery !== discovery) {
      this.known = { discovery, byPath: new Map(discovery.files.map((f) => [f.path, f])) };
    }
    return this.known.byPath;
  }

  /** Records `byPath` (edited in place by an update pass) as the files of the new `discovery`. */
  keepFiles(discovery: WorkspaceDiscovery, byPath: Map<string, DiscoveredFile>): void {
    this.known = { discovery, byPath };
  }

  /** The `absRoot` of the innermost repository (of `repos`) holding a workspace path. */
  repoOf(repos: readonly DiscoveredRoot[], file: string): string | undefined {
    if (this.repoMap?.repos !== repos) this.repoMap = { repos, map: new RootMap(repos) };
    return this.repoMap.map.innermost(file)?.absRoot;
  }

  /** Whether a file the index has never seen would match a source glob from its repository root. */
  couldBeSource(discovery: WorkspaceDiscovery | undefined, path: string): boolean {
    const roots = discovery?.roots ?? [];
    if (this.rootMap?.roots !== roots) this.rootMap = { roots, map: new RootMap(roots) };
    const root = this.rootMap.map.innermost(path)?.root ?? '';
    return this.matcher.isCandidate(root === '' ? path : path.slice(root.length + 1));
  }

  /**
   * The repositories where git names a path the index does not hold and only a walk can judge:
   * a `.gitignore`, a directory (a nested repository), or a new file a source glob could match.
   */
  reposToWalk(discovery: WorkspaceDiscovery, repos: readonly DiscoveredRoot[], paths: readonly string[]): Set<string> {
    const known = this.files(discovery);
    const walk = new Set<string>();
    for (const file of paths) {
      if (known.has(file)) continue;
      const judged =
        file.endsWith('/') ||
        file === '.gitignore' ||
        file.endsWith('/.gitignore') ||
        this.couldBeSource(discovery, file);
      const repo = judged ? this.repoOf(repos, file) : undefined;
      if (repo !== undefined) walk.add(repo);
    }
    return walk;
  }
}
