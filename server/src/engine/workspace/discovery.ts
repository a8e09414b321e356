/**
 * Workspace discovery: walks every workspace folder and returns the files worth reading, the
 * repository roots it found, and a `Problem` for everything it skipped for a reason a user may
 * want to know (too large, binary, unreadable). It never throws on the file system's content.
 *
 * Rules, in the order they apply:
 * - `node_modules` and `.git` are never entered; the `ignore` globs prune paths and directories;
 * - `.gitignore` files at every level and `.git/info/exclude` apply as git applies them
 *   (ignoreRules.ts), also in folders that are not git repositories; a directory `.gitignore`
 *   excludes is still searched `nestedRepoProbeDepth` levels deep for git work trees
 *   (repositories cloned inside another one, the usual multi-repo layout: `repos/` ignored,
 *   clones in `repos/*`), and a nested work tree starts its own rules;
 * - a file is kept when its repository-relative path matches a role glob (globs.ts), it is at most
 *   `maxFileSize` bytes and its first 8 KiB hold no NUL byte (fileCheck.ts);
 * - a documentation file (Markdown, MDX, reStructuredText, AsciiDoc) that is vendored, generated
 *   or a template loses its documentation roles (docFiles.ts), and every documentation file not
 *   kept as documentation is listed in `skipped` with its reason, for coverage to say;
 * - symlinks to files and directories are followed while their real path stays inside a served
 *   folder; a link out of every served folder (to `/etc`, to `/proc/self/environ`, to a folder of
 *   someone's notes) is never followed, and is a `workspace.symlink-outside` problem naming the
 *   link. Each real directory is walked once (real directories win over links to them, then
 *   links in path order), so link loops terminate;
 * - only regular files are kept (FIFOs, sockets and devices are skipped), opened non-blocking;
 * - a directory that is another workspace folder's root is left to that folder.
 *
 * Only kept candidates are opened (one open, fstat and read of at most 8 KiB each); every other
 * file costs one directory entry and no system call of its own. Telling a documentation file
 * from another is a look at its extension; its generated marker is read from the bytes the binary
 * check reads anyway.
 */
import type { Dirent } from 'node:fs';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Problem } from '../model';
import {
  folderSkipReason,
  hasDocRole,
  isDocFile,
  isTemplatePath,
  withoutDocRoles,
  type DocSkipReason,
  type SkippedDocFile,
} from './docFiles';
import {
  DEFAULT_DISCOVERY_CONCURRENCY,
  DEFAULT_MAX_FILE_SIZE,
  DEFAULT_NESTED_REPO_PROBE_DEPTH,
  type DiscoveredFile,
  type DiscoveredRoot,
  type DiscoveryOptions,
  type WorkspaceDiscovery,
} from './discovered';
import { checkFile, errorReason as reason, unchangedSince } from './fileCheck';
import { compileSourceGlobs, type SourceMatcher, type SourceRole, ALWAYS_SKIPPED_DIRS } from './globs';
import { IgnoreChain } from './ignoreRules';
import { readSmallFile } from './readGuard';
import { isWithin, joinPosix, relativePosix, relativeTo, workspacePath, type WorkspaceFolderRef } from './paths';
import { findEnclosingWorkTree, hasGitEntry, infoExcludePath, isExportedRepoRoot, type RootReason } from './repoRoots';

export { DiskFileSource } from './diskFileSource';
export type { RootReason } from './repoRoots';
export { BINARY_SNIFF_BYTES } from './fileCheck';
export type { DocSkipReason, SkippedDocFile } from './docFiles';

export * from './discovered';

interface RootCtx {
  readonly dirRel: string;
  readonly ws: string;
  readonly gitAbsRoot: string | null;
}

interface DirTask {
  readonly kind: 'dir';
  readonly abs: string;
  readonly real: string;
  readonly rel: string;
  readonly folder: number;
  readonly chain: IgnoreChain;
  /** Null for a folder's root directory. */
  readonly root: RootCtx | null;
  /** Set inside an ignored directory: levels left to search for a work tree; nothing is kept. */
  readonly probe?: number;
  /** Set inside a vendored or generated folder: its documentation files are not documentation. */
  readonly docSkip?: 'vendored' | 'generated';
}

interface FileTask {
  readonly kind: 'file';
  readonly abs: string;
  readonly rel: string;
  readonly folder: number;
  readonly root: RootCtx;
  readonly roles: SourceRole[];
  /** A documentation file: checked for a generated marker, and listed when not kept. */
  readonly docFile: boolean;
}

type Task = DirTask | FileTask;

/** A directory reached through a symlink, walked after every real directory. */
type PendingLink = Omit<DirTask, 'real'>;

export async function discoverWorkspace(
  folders: readonly WorkspaceFolderRef[],
  options: DiscoveryOptions = {},
): Promise<WorkspaceDiscovery> {
  const walker = new Walker(folders, options);
  return walker.run();
}

class Walker {
  private readonly matcher: SourceMatcher;
  private readonly maxFileSize: number;
  private readonly concurrency: number;
  private readonly probeDepth: number;
  private readonly known: DiscoveryOptions['known'];
  private readonly stopAt: ReadonlySet<string> | undefined;
  private readonly stoppedAt = new Set<string>();
  private readonly files: DiscoveredFile[] = [];
  private readonly skipped: SkippedDocFile[] = [];
  private readonly roots: (DiscoveredRoot & { order: number })[] = [];
  private readonly problems: Problem[] = [];
  private readonly visited = new Set<string>();
  /** Real path of each folder root -> folder index. */
  private readonly folderReals = new Map<string, number>();
  /** Per folder: git work tree above the folder, when the folder is opened inside one. */
  private readonly enclosingGit: (string | null)[] = [];
  private pending: PendingLink[] = [];

  constructor(
    private readonly folders: readonly WorkspaceFolderRef[],
    options: DiscoveryOptions,
  ) {
    this.matcher = compileSourceGlobs(options.globs);
    this.maxFileSize = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
    this.concurrency = Math.min(256, Math.max(1, Math.floor(options.concurrency ?? DEFAULT_DISCOVERY_CONCURRENCY)));
    this.probeDepth = Math.min(
      8,
      Math.max(0, Math.floor(options.nestedRepoProbeDepth ?? DEFAULT_NESTED_REPO_PROBE_DEPTH)),
    );
    this.known = options.known;
    this.stopAt = options.stopAt;
  }

  async run(): Promise<WorkspaceDiscovery> {
    const starts: DirTask[] = [];
    for (let i = 0; i < this.folders.length; i++) {
      if (this.stops(path.resolve(this.folders[i].absPath))) continue;
      const start = await this.startFolder(i);
      if (start) starts.push(start);
    }
    for (const start of starts) this.visited.add(start.real);
    await this.drain(starts);
    while (this.pending.length > 0) await this.drain(await this.claimLinks());

    this.files.sort((a, b) => compare(a.path, b.path));
    this.roots.sort((a, b) => a.order - b.order || compare(a.root, b.root));
    this.problems.sort((a, b) => compare(a.path, b.path) || compare(a.code, b.code));
    this.skipped.sort((a, b) => compare(a.path, b.path));
    return {
      folders: this.folders,
      files: this.files,
      roots: this.roots.map(({ order, ...root }) => root),
      problems: this.problems,
      skipped: this.skipped,
      ...(this.stopAt ? { stoppedAt: [...this.stoppedAt].sort(compare) } : {}),
    };
  }

  /** True for a `stopAt` directory, which is then listed as met and not entered. */
  private stops(abs: string): boolean {
    if (!this.stopAt?.has(abs)) return false;
    this.stoppedAt.add(abs);
    return true;
  }

  /** Resolves a folder's real path and, for a folder inside a work tree, the rules above it. */
  private async startFolder(index: number): Promise<DirTask | null> {
    const folder = this.folders[index];
    const abs = path.resolve(folder.absPath);
    let real: string;
    try {
      real = await fs.realpath(abs);
    } catch (error) {
      this.problem(
        folder.name,
        '',
        'warning',
        'workspace.unreadable-folder',
        `Workspace folder ${abs} cannot be read: ${reason(error)}.`,
      );
      this.addRoot(index, '', abs, ['folder'], null);
      return null;
    }
    if (this.folderReals.has(real)) return null;
    this.folderReals.set(real, index);
    let chain = IgnoreChain.EMPTY;
    const top = await findEnclosingWorkTree(abs);
    this.enclosingGit[index] = top !== null && top !== abs ? top : null;
    if (top !== null && top !== abs) {
      const below = relativePosix(top, abs);
      const exclude = await this.readRules(await infoExcludePath(top), folder.name);
      if (exclude !== null) chain = chain.with(exclude, '', below);
      // .gitignore files from the work tree's top down to the folder's parent.
      const segments = below.split('/');
      for (let depth = 0; depth < segments.length; depth++) {
        const dir = path.join(top, ...segments.slice(0, depth));
        const text = await this.readRules(path.join(dir, '.gitignore'), folder.name);
        if (text !== null) chain = chain.with(text, '', segments.slice(depth).join('/'));
      }
    }
    return { kind: 'dir', abs, real, rel: '', folder: index, chain, root: null };
  }

  /** Claims pending symlinked directories in path order and returns those not yet walked. */
  private async claimLinks(): Promise<DirTask[]> {
    const links = this.pending.sort((a, b) => a.folder - b.folder || compare(a.rel, b.rel));
    this.pending = [];
    const reals = await Promise.all(links.map((link) => fs.realpath(link.abs).catch(() => null)));
    const tasks: DirTask[] = [];
    links.forEach((link, i) => {
      const real = reals[i];
      if (real === null || this.visited.has(real) || this.isOtherFolderRoot(real, link.folder)) return;
      // Checked again here: the link may have been pointed elsewhere since it was first seen.
      if (!this.isInside(real)) return this.refuseOutside(link.folder, link.rel, real);
      this.visited.add(real);
      tasks.push({ ...link, real });
    });
    return tasks;
  }

  /** True when a real path lies inside one of the served folders. */
  private isInside(real: string): boolean {
    for (const root of this.folderReals.keys()) if (isWithin(root, real)) return true;
    return false;
  }

  private refuseOutside(folder: number, rel: string, real: string): void {
    this.problem(
      this.folders[folder].name,
      rel,
      'warning',
      'workspace.symlink-outside',
      `Symbolic link points outside the served folders (to ${real}); not followed.`,
    );
  }

  private isOtherFolderRoot(real: string, folder: number): boolean {
    const owner = this.folderReals.get(real);
    return owner !== undefined && owner !== folder;
  }

  /** Runs tasks with bounded concurrency; tasks may add more. Depth-first to keep the queue short. */
  private drain(initial: Task[]): Promise<void> {
    const queue: Task[] = [...initial].reverse();
    let active = 0;
    return new Promise((resolve, reject) => {
      const pump = (): void => {
        if (queue.length === 0 && active === 0) return resolve();
        while (active < this.concurrency && queue.length > 0) {
          const task = queue.pop()!;
          active++;
          const done = task.kind === 'dir' ? this.visitDir(task, queue) : this.checkFile(task);
          done.then(() => {
            active--;
            pump();
          }, reject);
        }
      };
      pump();
    });
  }

  private async visitDir(task: DirTask, queue: Task[]): Promise<void> {
    const folder = this.folders[task.folder];
    let entries: Dirent[];
    try {
      entries = await fs.readdir(task.abs, { withFileTypes: true });
    } catch (error) {
      if (task.probe !== undefined) return; // ignored content: nothing to report
      this.problem(
        folder.name,
        task.rel,
        'warning',
        'workspace.unreadable-dir',
        `Directory cannot be read: ${reason(error)}.`,
      );
      if (task.root === null)
        this.addRoot(task.folder, '', task.abs, ['folder'], this.enclosingGit[task.folder] ? task.abs : null);
      return;
    }
    let chain = task.chain;
    let root = task.root;
    const names = entries.map((entry) => entry.name);
    const reasons: RootReason[] = [];
    if (root === null) reasons.push('folder');
    const gitHere = hasGitEntry(names);
    if (task.probe !== undefined && !gitHere) {
      this.probeChildren(task, entries, queue);
      return;
    }
    if (gitHere) reasons.push('git');
    if (isExportedRepoRoot(names)) reasons.push('exported');
    if (reasons.length > 0) {
      let gitAbsRoot: string | null;
      if (gitHere) gitAbsRoot = task.abs;
      else if (root === null) gitAbsRoot = this.enclosingGit[task.folder] ? task.abs : null;
      else gitAbsRoot = root.gitAbsRoot;
      if (gitHere) {
        // A work tree starts its own rules: the enclosing tree's .gitignore does not reach into it.
        chain = IgnoreChain.EMPTY;
        const exclude = await this.readRules(await infoExcludePath(task.abs), folder.name);
        if (exclude !== null) chain = chain.with(exclude, task.rel);
      }
      root = { dirRel: task.rel, ws: workspacePath(this.folders, folder.name, task.rel), gitAbsRoot };
      this.addRoot(task.folder, task.rel, task.abs, reasons, gitAbsRoot);
    }
    if (names.includes('.gitignore')) {
      const text = await this.readRules(path.join(task.abs, '.gitignore'), folder.name);
      if (text !== null) chain = chain.with(text, task.rel);
    }
    const dirRoot = root!;
    // A vendored or generated folder's documentation is not this repository's (docFiles.ts).
    const docSkip =
      task.docSkip ??
      (task.rel === '' ? undefined : folderSkipReason(path.basename(task.abs), (entry) => names.includes(entry)));

    const kept = entries.filter((entry) => !ALWAYS_SKIPPED_DIRS.has(entry.name));
    const rels = kept.map((entry) => joinPosix(task.rel, entry.name));
    // Links and untyped entries need a stat each; run those together, not one after another.
    const kinds = await Promise.all(
      kept.map(async (entry, i): Promise<[Kind, boolean]> => {
        let kind = direntKind(entry);
        if (kind === 'file' || kind === 'dir' || kind === 'other') return [kind, false];
        if (this.matcher.isIgnored(rels[i])) return ['other', false];
        const abs = path.join(task.abs, entry.name);
        if (kind === 'unknown') kind = await lstatKind(abs);
        if (kind !== 'link') return [kind, false];
        return [await this.followLink(abs, task.folder, rels[i], dirRoot), true];
      }),
    );
    for (let i = 0; i < kept.length; i++) {
      const name = kept[i].name;
      const rel = rels[i];
      const [kind, viaLink] = kinds[i];
      if (kind === 'other') continue;
      if (this.matcher.isIgnored(rel)) {
        if (kind === 'file' && isDocFile(name)) this.skip(task.folder, rel, 'ignored');
        continue;
      }
      const abs = path.join(task.abs, name);
      if (kind === 'dir') {
        const ignored = chain.ignores(`${rel}/`);
        if (ignored && (viaLink || this.probeDepth === 0)) continue;
        if (this.stops(abs)) continue;
        if (viaLink) {
          this.pending.push({ kind: 'dir', abs, rel, folder: task.folder, chain, root: dirRoot, docSkip });
          continue;
        }
        const real = path.join(task.real, name);
        if (this.visited.has(real) || this.isOtherFolderRoot(real, task.folder)) continue;
        this.visited.add(real);
        const probe = ignored ? this.probeDepth : undefined;
        queue.push({ kind: 'dir', abs, real, rel, folder: task.folder, chain, root: dirRoot, probe, docSkip });
      } else if (kind === 'file') {
        const file = this.fileTask(task.folder, abs, rel, name, dirRoot, chain, docSkip);
        if (file) queue.push(file);
      }
    }
  }

  /**
   * The check a file in a walked folder gets, or null when it is not kept: it matches no role, or
   * git ignores it, or it is a documentation file that is vendored, generated or a template and
   * has no other role. A documentation file not kept as documentation is listed with its reason.
   */
  private fileTask(
    folder: number,
    abs: string,
    rel: string,
    name: string,
    root: RootCtx,
    chain: IgnoreChain,
    docSkip: DirTask['docSkip'],
  ): FileTask | null {
    const repoRel = relativeTo(root.dirRel, rel)!;
    let roles = this.matcher.roles(repoRel);
    if (!isDocFile(name)) {
      // A vendored or built mkdocs.yml is no site of this repository either.
      if (docSkip && roles.includes('techdocs')) roles = roles.filter((role) => role !== 'techdocs');
      if (roles.length === 0 || chain.ignores(rel)) return null;
      return { kind: 'file', abs, rel, folder, root, roles, docFile: false };
    }
    if (chain.ignores(rel)) {
      this.skip(folder, rel, 'ignored');
      return null;
    }
    const why = docSkip ?? (isTemplatePath(repoRel) ? 'template' : undefined);
    if (why) {
      this.skip(folder, rel, why);
      roles = withoutDocRoles(roles);
    } else if (roles.length === 0) {
      this.skip(folder, rel, 'not-in-sources');
    }
    return roles.length === 0 ? null : { kind: 'file', abs, rel, folder, root, roles, docFile: true };
  }

  /** Lists a documentation file not kept as documentation. */
  private skip(folder: number, rel: string, reason: DocSkipReason): void {
    const name = this.folders[folder].name;
    this.skipped.push({ path: workspacePath(this.folders, name, rel), folder: name, reason });
  }

  /** Inside an ignored directory: queues subdirectories (no links) while levels are left. */
  private probeChildren(task: DirTask, entries: Dirent[], queue: Task[]): void {
    const levels = task.probe ?? 0;
    if (levels <= 1) return;
    for (const entry of entries) {
      if (!entry.isDirectory() || ALWAYS_SKIPPED_DIRS.has(entry.name)) continue;
      const rel = joinPosix(task.rel, entry.name);
      if (this.matcher.isIgnored(rel)) continue;
      const abs = path.join(task.abs, entry.name);
      if (this.stops(abs)) continue;
      queue.push({
        ...task,
        abs,
        real: path.join(task.real, entry.name),
        rel,
        probe: levels - 1,
      });
    }
  }

  /** Type of a symlink's target; a broken link that would have been read is a Problem. */
  private async followLink(abs: string, folder: number, rel: string, root: RootCtx): Promise<Kind> {
    try {
      const stat = await fs.stat(abs);
      const kind: Kind = stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : 'other';
      if (kind === 'other') return kind;
      const real = await fs.realpath(abs);
      if (!this.isInside(real)) {
        // A link to a file is reported when it would have been read; one to a folder always.
        if (kind === 'dir' || this.matcher.isCandidate(relativeTo(root.dirRel, rel)!))
          this.refuseOutside(folder, rel, real);
        return 'other';
      }
      return kind;
    } catch (error) {
      if (this.matcher.isCandidate(relativeTo(root.dirRel, rel)!)) {
        this.problem(
          this.folders[folder].name,
          rel,
          'info',
          'workspace.broken-symlink',
          `Symbolic link cannot be followed: ${reason(error)}; not read.`,
        );
      }
      return 'other';
    }
  }

  private async checkFile(task: FileTask): Promise<void> {
    const folderName = this.folders[task.folder].name;
    if (await this.stillKnown(task, folderName)) return;
    const sniff = task.docFile && hasDocRole(task.roles);
    const verdict = await checkFile(task.abs, this.maxFileSize, sniff);
    if (verdict.kind === 'none') return;
    if (verdict.kind === 'refused') {
      this.problem(folderName, task.rel, verdict.severity, verdict.code, verdict.message);
      if (task.docFile) this.skip(task.folder, task.rel, verdict.reason);
      return;
    }
    this.keep(task, folderName, workspacePath(this.folders, folderName, task.rel), verdict, verdict.generated);
  }

  /**
   * Keeps a file the earlier discovery kept when one `stat` shows it unchanged (`known`); false
   * sends it through the full check. A generated documentation file stays generated.
   */
  private async stillKnown(task: FileTask, folderName: string): Promise<boolean> {
    const path = workspacePath(this.folders, folderName, task.rel);
    const known = this.known?.(path);
    if (!known || known.absPath !== task.abs) return false;
    const stat = await unchangedSince(task.abs, known, this.maxFileSize);
    if (!stat) return false;
    this.keep(task, folderName, path, stat, known.generated === true);
    return true;
  }

  /**
   * A file that passed the checks (or one `stat` shows unchanged): indexed by this pass, less its
   * documentation roles when it is marked generated (not kept at all when it has no other).
   */
  private keep(
    task: FileTask,
    folderName: string,
    path: string,
    stat: { size: number; mtimeMs: number },
    generated: boolean,
  ): void {
    let roles = task.roles;
    if (generated && task.docFile) {
      this.skip(task.folder, task.rel, 'generated');
      roles = withoutDocRoles(roles);
      if (roles.length === 0) return;
    }
    this.files.push({
      path,
      absPath: task.abs,
      folder: folderName,
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      root: task.root.ws,
      roles,
      ...(generated && task.docFile ? { generated: true } : {}),
    });
  }

  /** Text of a rules file, null when absent; an unreadable one (other than absent) is a Problem. */
  private async readRules(file: string | null, folderName: string): Promise<string | null> {
    if (file === null) return null;
    try {
      return await readSmallFile(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        this.problems.push({
          path: folderName,
          line: 1,
          severity: 'warning',
          code: 'workspace.unreadable-ignore',
          message: `Ignore rules in ${file} cannot be read: ${reason(error)}.`,
        });
      }
      return null;
    }
  }

  private addRoot(
    folder: number,
    rel: string,
    absRoot: string,
    reasons: RootReason[],
    gitAbsRoot: string | null,
  ): void {
    const name = this.folders[folder].name;
    this.roots.push({
      order: folder,
      root: workspacePath(this.folders, name, rel),
      folder: name,
      absRoot,
      reasons,
      git: gitAbsRoot !== null,
      gitAbsRoot,
    });
  }

  private problem(folderName: string, rel: string, severity: Problem['severity'], code: string, message: string): void {
    this.problems.push({ path: workspacePath(this.folders, folderName, rel), line: 1, severity, code, message });
  }
}

type Kind = 'dir' | 'file' | 'link' | 'unknown' | 'other';

function direntKind(entry: Dirent): Kind {
  if (entry.isDirectory()) return 'dir';
  if (entry.isFile()) return 'file';
  if (entry.isSymbolicLink()) return 'link';
  if (entry.isFIFO() || entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice()) return 'other';
  return 'unknown';
}

/** Type of an entry the file system did not type in its directory listing. */
async function lstatKind(abs: string): Promise<Kind> {
  try {
    const stat = await fs.lstat(abs);
    if (stat.isSymbolicLink()) return 'link';
    return stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : 'other';
  } catch {
    return 'other';
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
