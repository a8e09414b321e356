/**
 * Whether a write of a namespace is the repository the namespace already holds
 * (workspace/repositoryIdentity.ts says why a store asks). A namespace is named by its folder;
 * a write from another repository under the same name is refused, naming both, so nothing is
 * silently replaced.
 */
import type { RepositoryIdentity } from '../workspace/repositoryIdentity';

/** What a store knows of the repository a namespace was written from. */
export interface NamespaceOrigin {
  absPath: string;
  /** Absent for a namespace written before identities were kept: then any write is its own. */
  identity?: RepositoryIdentity;
}

/**
 * True when `incoming` is the repository `stored` was written from: a remote in common when
 * both have remotes, else a root commit in common when both have commits, else the same
 * absolute path; and the same path inside the work tree whenever both are in git.
 */
export function sameRepository(stored: NamespaceOrigin, incoming: NamespaceOrigin): boolean {
  const a = stored.identity;
  const b = incoming.identity;
  if (!a || !b) return true;
  const inGit = (i: RepositoryIdentity) => i.remotes.length > 0 || i.rootCommits.length > 0;
  if (inGit(a) && inGit(b) && a.prefix !== b.prefix) return false;
  if (a.remotes.length > 0 && b.remotes.length > 0) return a.remotes.some((r) => b.remotes.includes(r));
  if (a.rootCommits.length > 0 && b.rootCommits.length > 0) return a.rootCommits.some((c) => b.rootCommits.includes(c));
  return stored.absPath === incoming.absPath;
}

/** How a repository is named in messages: its first remote, else its first commit, else its folder. */
export function describeOrigin(origin: NamespaceOrigin): string {
  const i = origin.identity;
  const below = i?.prefix ? ` (its folder ${i.prefix.replace(/\/$/, '')})` : '';
  if (i?.remotes.length) return `${i.remotes[0]}${below}, at ${origin.absPath}`;
  if (i?.rootCommits.length)
    return `the repository whose first commit is ${i.rootCommits[0].slice(0, 12)}${below}, at ${origin.absPath}`;
  return `the folder ${origin.absPath}`;
}

/** Why `incoming` may not be written as `namespace`, or undefined when it may. */
export function namespaceConflict(
  namespace: string,
  stored: NamespaceOrigin,
  incoming: NamespaceOrigin,
): string | undefined {
  if (sameRepository(stored, incoming)) return undefined;
  return `namespace "${namespace}" holds another repository, ${describeOrigin(stored)}; this one is ${describeOrigin(incoming)}. A namespace is named by its folder and holds one repository, so nothing was replaced: index this one from a folder of another name`;
}
