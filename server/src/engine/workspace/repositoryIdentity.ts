/**
 * Which repository a served folder is, beyond its name: a store keeps one namespace per folder,
 * named by the folder, and two different repositories cloned into folders of the same name (two
 * `api`s of two organisations) must not become one namespace, the second silently replacing the
 * first's documents and entities. So a store records what it can learn of the repository when it
 * writes a namespace (store/namespaceIdentity.ts compares it at the next write):
 *
 * - its remotes' repository ids (`github.com/org/api`, workspace/remotes.ts);
 * - its root commits (the first commits of its history, which every clone shares);
 * - the folder's path inside its work tree (`services/api/` for a folder below the top), so two
 *   folders of one monorepo are two repositories here.
 *
 * Read with git through the engine's runner (no program of the repository's runs,
 * gitRunner.ts). A folder that is no git work tree has none of these: its absolute path is what
 * identifies it.
 */
import { defaultGitRunner } from './gitHelper';
import type { GitRunner } from './gitRunner';
import { parseRemoteList } from './remotes';

export interface RepositoryIdentity {
  /** Repository ids of its remotes, distinct, in git's order (none: no remote). */
  remotes: string[];
  /** Its root commits, sorted (none: not a git work tree, or no commit yet). */
  rootCommits: string[];
  /** The folder's path below its work tree's top, with a trailing `/` ('' at the top, or no git). */
  prefix: string;
}

/** What git says of the folder at `absPath`. Never throws: without git, or outside a work tree, it is empty. */
export async function readRepositoryIdentity(
  absPath: string,
  runner: GitRunner = defaultGitRunner(),
): Promise<RepositoryIdentity> {
  const none: RepositoryIdentity = { remotes: [], rootCommits: [], prefix: '' };
  try {
    const prefix = await runner.run(['rev-parse', '--show-prefix'], absPath);
    if (prefix.code !== 0) return none;
    const [listed, roots] = await Promise.all([
      runner.run(['config', '--null', '--get-regexp', '^remote\\..*\\.url$'], absPath),
      runner.run(['rev-list', '--max-parents=0', 'HEAD'], absPath),
    ]);
    return {
      remotes: listed.code === 0 ? parseRemoteList(listed.stdout) : [],
      rootCommits:
        roots.code === 0
          ? roots.stdout
              .split('\n')
              .filter((l) => /^[0-9a-f]{40,64}$/.test(l))
              .sort()
          : [],
      prefix: prefix.stdout.trim(),
    };
  } catch {
    return none;
  }
}
