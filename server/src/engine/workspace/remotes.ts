/**
 * Which hosted repository each served git repository is a checkout of, from its remotes' URLs,
 * so that a catalog's `backstage.io/techdocs-ref: url:https://github.com/org/repo/tree/main/docs`
 * that names a repository the workspace holds can be read from disk instead of being skipped as
 * "outside the workspace" (sources/techdocsRef.ts).
 *
 * A repository is identified by its host and path, lower-cased, without `.git`, a user, a port
 * or a scheme: `git@github.com:Org/Repo.git`, `https://github.com/org/repo` and
 * `ssh://git@github.com:22/org/repo.git` are all `github.com/org/repo`. Two hosts spell one
 * repository differently in their clone and browse URLs; both are brought to the browse form:
 * - Azure DevOps: `git@ssh.dev.azure.com:v3/O/P/R` and `https://O@dev.azure.com/O/P/_git/R` are
 *   `dev.azure.com/o/p/_git/r` (`O.visualstudio.com/P/_git/R` is `dev.azure.com/o/p/_git/r` too);
 * - Bitbucket Server / Data Center: `https://host/scm/P/R.git` is `host/projects/p/repos/r`.
 *
 * Reading remotes runs `git config`, which runs no program of the repository's (gitRunner.ts
 * fixes every program-naming key on the command line); without git, or in an untrusted
 * workspace where git is not run, no remote is known and such URLs stay unread.
 */
import type { DiscoveredRoot } from './discovery';
import { eachRoot, gitRunningRoots } from './git';
import { defaultGitRunner } from './gitHelper';
import type { GitRunner } from './gitRunner';

/** A served repository and the hosted repositories its remotes name. */
export interface RepositoryRemotes {
  /** Workspace-relative root of the served repository (a discovered root running its own git). */
  root: string;
  /**
   * The served root's path below its work tree's top, with a trailing `/` ('' at the top): a
   * URL's path inside the repository starts with it when it points into the served folder.
   */
  prefix: string;
  /** Normalised repository ids (`github.com/org/repo`), one per distinct remote. */
  repositories: string[];
}

/** The remotes of every root that runs its own git. Never throws: a root git cannot read has none. */
export async function readRemotes(
  roots: readonly DiscoveredRoot[],
  runner: GitRunner = defaultGitRunner(),
): Promise<RepositoryRemotes[]> {
  const found = await eachRoot(gitRunningRoots(roots), async (root): Promise<RepositoryRemotes | null> => {
    try {
      const [listed, prefix] = await Promise.all([
        runner.run(['config', '--null', '--get-regexp', '^remote\\..*\\.url$'], root.absRoot),
        runner.run(['rev-parse', '--show-prefix'], root.absRoot),
      ]);
      // Exit 1: no remote at all.
      if (listed.code !== 0 || prefix.code !== 0) return null;
      const repositories = parseRemoteList(listed.stdout);
      return repositories.length > 0 ? { root: root.root, prefix: prefix.stdout.trim(), repositories } : null;
    } catch {
      // Git missing or failing: this root has no known remote (git.ts reports git's state).
      return null;
    }
  });
  return found.filter((r): r is RepositoryRemotes => r !== null);
}

/** Repository ids from `git config --null --get-regexp` output (`key\nvalue\0`...), distinct, in order. */
export function parseRemoteList(stdout: string): string[] {
  const ids: string[] = [];
  for (const record of stdout.split('\0')) {
    const newline = record.indexOf('\n');
    if (newline < 0) continue;
    const id = repositoryId(record.slice(newline + 1).trim());
    if (id && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/**
 * The repository id of a remote or browse URL's repository part, or null when it names no
 * hosted repository (a local path, `file://`, an empty string).
 */
export function repositoryId(url: string): string | null {
  let host: string;
  let path: string;
  // scp-like syntax: [user@]host:path (no scheme, and the colon before any slash).
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/.exec(url);
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && scp) {
    host = scp[1];
    path = scp[2];
  } else {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    if (parsed.protocol === 'file:' || !parsed.hostname) return null;
    host = parsed.hostname;
    path = decodeURIComponent(parsed.pathname);
  }
  host = host.toLowerCase();
  const segments = path
    .replace(/\.git\/?$/i, '')
    .split('/')
    .filter((s) => s !== '')
    .map((s) => s.toLowerCase());
  if (segments.length === 0) return null;
  return canonical(host, segments);
}

/** The browse form of a host's clone paths (see the header). */
function canonical(host: string, segments: string[]): string {
  if (host === 'ssh.dev.azure.com' && segments[0] === 'v3' && segments.length >= 4) {
    return `dev.azure.com/${segments[1]}/${segments[2]}/_git/${segments[3]}`;
  }
  const visualStudio = /^([^.]+)\.visualstudio\.com$/.exec(host);
  if (visualStudio && segments.includes('_git')) return `dev.azure.com/${visualStudio[1]}/${segments.join('/')}`;
  if (segments[0] === 'scm' && segments.length === 3) return `${host}/projects/${segments[1]}/repos/${segments[2]}`;
  return `${host}/${segments.join('/')}`;
}
