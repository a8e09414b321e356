/**
 * What a walk of the workspace folders finds (discovery.ts): the files worth reading with their
 * roles, the repository roots, the problems met, and the documentation files not kept as
 * documentation; and the options a walk takes.
 */
import type { Problem } from '../model';
import type { SkippedDocFile } from './docFiles';
import type { SourceGlobs, SourceRole } from './globs';
import type { WorkspaceFolderRef } from './paths';
import type { RootReason } from './repoRoots';

/** Default size cap: 2 MiB. */
export const DEFAULT_MAX_FILE_SIZE = 2 * 1024 * 1024;
/** Default number of directory reads and file checks in flight. */
export const DEFAULT_DISCOVERY_CONCURRENCY = 16;
/** Default depth searched for work trees inside ignored directories. */
export const DEFAULT_NESTED_REPO_PROBE_DEPTH = 2;

export interface DiscoveryOptions {
  /** Per-field overrides of the default globs (globs.ts). */
  globs?: Partial<SourceGlobs>;
  /** Files larger than this many bytes are skipped with an info Problem. Default 2 MiB. */
  maxFileSize?: number;
  /** Directory reads and file checks in flight, 1..256. Default 16. */
  concurrency?: number;
  /**
   * How many levels of a `.gitignore`d directory are searched for nested git work trees: 1 looks
   * at the directory itself, 2 also at its subdirectories; 0 never enters ignored directories.
   * Default 2, range 0..8. Nothing else in an ignored directory is read.
   */
  nestedRepoProbeDepth?: number;
  /**
   * Files an earlier discovery kept, by workspace-relative path (an index's file table). A file
   * whose path, size and modification time are unchanged was already found readable, within the
   * size cap and not binary: it costs one `stat` instead of an open and an 8 KiB read (git's own
   * stat-cache rule). Default: none.
   */
  known?: (path: string) => { absPath: string; size: number; mtimeMs: number; generated?: boolean } | undefined;
  /**
   * Directories (absolute paths, as the walk joins them) that are not entered: a warm start walks
   * only the part of a folder outside its git repositories and asks git for the rest
   * (indexing/looseFiles.ts). A folder whose own top is listed is not walked at all. Each one the
   * walk meets is listed in `stoppedAt`. Default: none.
   */
  stopAt?: ReadonlySet<string>;
}

export interface DiscoveredFile {
  /** Workspace-relative path (model.ts conventions). */
  path: string;
  absPath: string;
  /** Name of the workspace folder holding the file. */
  folder: string;
  size: number;
  mtimeMs: number;
  /** Workspace-relative path of the innermost repository root holding the file. */
  root: string;
  /**
   * Roles the file's repository-relative path matched, in `SOURCE_ROLES` order, less the
   * documentation roles of a documentation file that is generated (docFiles.ts).
   */
  roles: SourceRole[];
  /** Set on a documentation file marked generated, kept for another role it has (an `AGENTS.md`). */
  generated?: boolean;
}

export interface DiscoveredRoot {
  /** Workspace-relative root (`''` for the folder itself in a single-root workspace). */
  root: string;
  folder: string;
  absRoot: string;
  /** Why this directory is a root (repoRoots.ts). */
  reasons: RootReason[];
  /** True when the root's files are in a git work tree (its own or an enclosing one). */
  git: boolean;
  /**
   * Directory to run git in for this root's files: the root itself when it is a work tree or a
   * workspace folder inside one, the enclosing root's for an exported root inside a work tree,
   * null without git. Always one of the discovered roots' `absRoot`.
   */
  gitAbsRoot: string | null;
}

export interface WorkspaceDiscovery {
  folders: readonly WorkspaceFolderRef[];
  /** Kept files sorted by path. */
  files: DiscoveredFile[];
  /** Roots by folder order, then path. */
  roots: DiscoveredRoot[];
  problems: Problem[];
  /**
   * Documentation files seen and not kept as documentation, by path, each with its reason
   * (docFiles.ts). Files in a folder that is not entered (ignored, `node_modules`) are not seen.
   */
  skipped: SkippedDocFile[];
  /** The `stopAt` directories the walk met and did not enter; absent without `stopAt`. */
  stoppedAt?: string[];
}
