/**
 * A `FileSource` over committed files: the workspace as its repositories were at given commits
 * (`asOf`). Listing is one `git ls-tree -r -z --long` per repository; reading goes through one
 * long-lived `git cat-file --batch` process per repository (catFileBatch.ts).
 *
 * The same globs, ignore globs, `node_modules`/`.git` skipping, size cap and binary check apply
 * as in discovery; `.gitignore` does not, since committed files were not ignored. Submodules and
 * committed symlinks are not followed. Roots inside a tree follow the exported-repository rule
 * (repoRoots.ts), so role globs match as they do on disk.
 */
import * as path from 'node:path';
import type { Problem } from '../model';
import { CatFileBatch } from './catFileBatch';
import { DEFAULT_MAX_FILE_SIZE, BINARY_SNIFF_BYTES } from './discovery';
import { stripBom } from './diskFileSource';
import type { FileSource } from './fileSource';
import { compileSourceGlobs, inSkippedDir, type SourceGlobs, type SourceRole } from './globs';
import { docPathSkipReason, isDocFile, withoutDocRoles } from './docFiles';
import { defaultGitRunner } from './gitHelper';
import type { GitRunner } from './gitRunner';
import { folderOf, joinPosix, relativePosix, relativeTo, workspacePath, type WorkspaceFolderRef } from './paths';
import { isExportedRepoRoot } from './repoRoots';

/** A repository (or a workspace folder inside one) to read at a commit. */
export interface TreeAtCommit {
  /** Directory git runs in; the listing is limited to its subtree. */
  absRoot: string;
  /** A commit id (resolveAsOf's answer) or any commit-ish not starting with `-`. */
  commit: string;
}

export interface GitTreeOptions {
  /** Per-field overrides of the default globs (globs.ts). */
  globs?: Partial<SourceGlobs>;
  /** Blobs larger than this many bytes are skipped with an info Problem. Default 2 MiB. */
  maxFileSize?: number;
  runner?: GitRunner;
}

interface TreeEntry {
  repo: number;
  objectId: string;
  size: number;
  roles: SourceRole[];
}

export class GitTreeFileSource implements FileSource {
  /** Listing and read problems. */
  readonly problems: Problem[];
  private readonly paths: readonly string[];
  private readonly readers = new Map<number, CatFileBatch>();
  private disposed = false;

  private constructor(
    private readonly repos: readonly TreeAtCommit[],
    private readonly entries: ReadonlyMap<string, TreeEntry>,
    private readonly gitPath: string,
    problems: Problem[],
  ) {
    this.problems = problems;
    this.paths = [...entries.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Lists every repository's tree at its commit; a repository that fails adds a Problem. */
  static async open(
    folders: readonly WorkspaceFolderRef[],
    repos: readonly TreeAtCommit[],
    options: GitTreeOptions = {},
  ): Promise<GitTreeFileSource> {
    const runner = options.runner ?? defaultGitRunner();
    const matcher = compileSourceGlobs(options.globs);
    const maxFileSize = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
    const entries = new Map<string, TreeEntry>();
    const problems: Problem[] = [];
    const listings = await Promise.all(repos.map((repo) => listTree(runner, repo).catch((error: Error) => error)));

    repos.forEach((repo, index) => {
      const folder = folderOf(folders, repo.absRoot);
      const rootRel = folder ? relativePosix(folder.absPath, repo.absRoot) : '';
      const rootWs = folder ? workspacePath(folders, folder.name, rootRel) : '';
      const listing = listings[index];
      if (!folder || listing instanceof Error) {
        const message = !folder
          ? `${repo.absRoot} is outside every workspace folder; not read at ${repo.commit}.`
          : `Files at ${repo.commit} cannot be listed: ${listing instanceof Error ? listing.message : ''}`;
        problems.push({ path: rootWs, line: 1, severity: 'warning', code: 'git.tree-failed', message });
        return;
      }
      const roots = exportedRoots(listing.map((blob) => blob.path));
      const listed = new Set(listing.map((blob) => blob.path));
      for (const blob of listing) {
        const folderRel = joinPosix(rootRel, blob.path);
        if (inSkippedDir(blob.path) || matcher.isIgnored(folderRel)) continue;
        const root = innermostRoot(roots, blob.path);
        let roles = matcher.roles(relativeTo(root, blob.path)!);
        // Vendored, built and template pages are not documentation, as on disk (docFiles.ts).
        if (isDocFile(blob.path) && docPathSkipReason(blob.path, (p) => listed.has(p))) roles = withoutDocRoles(roles);
        if (roles.length === 0) continue;
        const wsPath = workspacePath(folders, folder.name, folderRel);
        if (blob.size > maxFileSize) {
          problems.push({
            path: wsPath,
            line: 1,
            severity: 'info',
            code: 'workspace.too-large',
            message: `File is ${blob.size} bytes at ${repo.commit}, over the ${maxFileSize}-byte size cap (maxFileSize); not read.`,
          });
          continue;
        }
        entries.set(wsPath, { repo: index, objectId: blob.objectId, size: blob.size, roles });
      }
    });
    return new GitTreeFileSource(repos, entries, runner.gitPath, problems);
  }

  list(): readonly string[] {
    return this.paths;
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  /** Blob id, size and roles of a listed file. */
  entry(path: string): Readonly<TreeEntry> | undefined {
    return this.entries.get(path);
  }

  async readText(path: string): Promise<string | null> {
    const entry = this.entries.get(path);
    if (!entry) {
      this.problem(path, 'workspace.not-listed', 'File is not part of the workspace at this commit; not read.');
      return null;
    }
    let content: Buffer | null;
    try {
      content = await this.reader(entry.repo).read(entry.objectId);
    } catch (error) {
      this.problem(path, 'git.read-failed', `File cannot be read from git: ${(error as Error).message}`);
      return null;
    }
    if (content === null) {
      this.problem(path, 'git.read-failed', `Object ${entry.objectId} is missing from the repository.`);
      return null;
    }
    if (content.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
      this.problems.push({
        path,
        line: 1,
        severity: 'info',
        code: 'workspace.binary',
        message: 'File looks binary (a NUL byte in its first 8 KiB); not read.',
      });
      return null;
    }
    return stripBom(content.toString('utf8'));
  }

  /** Stops every `git cat-file` process; later reads return null with a Problem. */
  async dispose(): Promise<void> {
    const readers = [...this.readers.values()];
    this.disposed = true;
    await Promise.all(readers.map((reader) => reader.dispose()));
  }

  /** Number of `git cat-file` processes started so far (one per repository read from). */
  get readerCount(): number {
    return this.readers.size;
  }

  private reader(repo: number): CatFileBatch {
    if (this.disposed) throw new Error('the file source was disposed');
    let reader = this.readers.get(repo);
    if (!reader) {
      reader = new CatFileBatch(this.gitPath, this.repos[repo].absRoot);
      this.readers.set(repo, reader);
    }
    return reader;
  }

  private problem(path: string, code: string, message: string): void {
    this.problems.push({ path, line: 1, severity: 'warning', code, message });
  }
}

interface TreeBlob {
  path: string;
  objectId: string;
  size: number;
}

/** Regular files (blobs that are not symlinks) of a tree, paths relative to `absRoot`. */
async function listTree(runner: GitRunner, repo: TreeAtCommit): Promise<TreeBlob[]> {
  if (repo.commit.startsWith('-') || repo.commit.trim() === '') throw new Error(`"${repo.commit}" is not a commit`);
  const result = await runner.run(['ls-tree', '-r', '-z', '--long', repo.commit], repo.absRoot);
  if (result.code !== 0) throw new Error(result.stderr.trim().split('\n')[0] || `git ls-tree exited ${result.code}`);
  const blobs: TreeBlob[] = [];
  for (const line of result.stdout.split('\0')) {
    // <mode> SP <type> SP <object> SP+ <size> TAB <path>
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, objectId, size] = line.slice(0, tab).split(/ +/);
    if (type !== 'blob' || mode === '120000') continue;
    blobs.push({ path: line.slice(tab + 1), objectId, size: Number(size) });
  }
  return blobs;
}

/** Directories of a tree that hold a catalog file and an overview (repoRoots.ts), plus ''. */
function exportedRoots(paths: readonly string[]): string[] {
  const namesByDir = new Map<string, string[]>();
  for (const p of paths) {
    const dir = path.posix.dirname(p);
    const key = dir === '.' ? '' : dir;
    let names = namesByDir.get(key);
    if (!names) namesByDir.set(key, (names = []));
    names.push(path.posix.basename(p));
  }
  const roots = [''];
  for (const [dir, names] of namesByDir) if (dir !== '' && isExportedRepoRoot(names)) roots.push(dir);
  return roots;
}

function innermostRoot(roots: readonly string[], filePath: string): string {
  let best = '';
  for (const root of roots) {
    if (root.length > best.length && relativeTo(root, filePath) !== null) best = root;
  }
  return best;
}
