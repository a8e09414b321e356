/**
 * The change `get_context` is asked about, read from git in the served repositories: what `wsctx
 * context --diff [RANGE]` and the editor's "Context for my change" send as `changes.diff`.
 *
 * Each repository the index found in the served folders (a folder of cloned repositories holds
 * several; a folder inside a bigger work tree is one) gives its diff (engine/workspace/gitDiff.ts:
 * read-only, hardened, a range that looks like an option refused); a working-tree diff also
 * names the untracked files, as new files without content. Each diff's paths get the
 * repository's place in front, so they read as every answer prints paths. A repository git
 * cannot read (a range it does not have) is left out and said so; when none can be read, the
 * call fails with git's own words.
 */
import { GitRangeError, InputError, readGitDiff, type GitDiffRequest, type IndexState } from '../engine';
import { prefixDiffPaths, untrackedFileHeader } from '../library/context/change/unifiedDiff';

export interface GitChange {
  /** The unified diff of every folder, paths as answers print them. */
  diff: string;
  /** What was compared: "the working tree against HEAD", "main...HEAD". */
  compared: string;
  /** Repositories whose diff is in it (workspace-relative roots, '.' for a folder's top). */
  folders: string[];
  /** Repositories left out, with why. */
  skipped: { folder: string; reason: string }[];
  /** Files changed (diff headers and untracked files). */
  files: number;
}

/** Reads the change; throws InputError for a refused range, or when no repository could be read. */
export async function changeFromGit(repos: IndexState['repos'], request: GitDiffRequest): Promise<GitChange> {
  const gitRepos = [...new Map(repos.filter((r) => r.git).map((r) => [r.absRoot, r])).values()].sort((a, b) =>
    a.root < b.root ? -1 : 1,
  );
  const roots = gitRepos.map((r) => r.root);
  const parts: string[] = [];
  const read: string[] = [];
  const skipped: { folder: string; reason: string }[] = [];
  let compared = '';
  let files = 0;
  for (const repo of gitRepos) {
    const name = repo.root === '' ? '.' : repo.root;
    let result: Awaited<ReturnType<typeof readGitDiff>>;
    try {
      result = await readGitDiff(repo.absRoot, request);
    } catch (error) {
      if (error instanceof GitRangeError) throw new InputError(`--diff: ${error.message}`);
      skipped.push({ folder: name, reason: (error as Error).message });
      continue;
    }
    compared = result.compared;
    // A repository inside this one (a folder of cloned repositories) gives its own diff: its
    // folder is not an untracked file of this one.
    const inner = roots.filter((r) => r !== repo.root && (repo.root === '' || r.startsWith(`${repo.root}/`)));
    const own = (p: string) => {
      const full = repo.root === '' ? p : `${repo.root}/${p}`;
      return !p.endsWith('/') && !inner.some((r) => full === r || full.startsWith(`${r}/`));
    };
    const untracked = result.untracked.filter(own);
    const diff = [result.diff, ...untracked.map(untrackedFileHeader)].join(
      result.diff === '' || result.diff.endsWith('\n') ? '' : '\n',
    );
    files += (result.diff.match(/^diff --git /gm) ?? []).length + untracked.length;
    parts.push(repo.root === '' ? diff : prefixDiffPaths(diff, repo.root));
    read.push(name);
  }
  if (read.length === 0)
    throw new InputError(
      gitRepos.length === 0
        ? '--diff: no served folder is in a git repository'
        : `--diff: no repository could be read with git: ${skipped.map((s) => `${s.folder}: ${s.reason}`).join('; ')}`,
    );
  return { diff: parts.join(''), compared, folders: read, skipped, files };
}
