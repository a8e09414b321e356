/**
 * One index pass: discover, read what changed, parse what changed, and assemble a complete new
 * `IndexState`. The same code runs for the first pass and for every update; what makes updates
 * cheap is the file table's stat cache, the producers' memo (which checks only what the table's
 * delta can have touched) and the section store's diff. Per-file tables (digests, commit facts)
 * and the section store's maps are shared by consecutive states and changed in place; the rule
 * that makes that safe is in sectionStore.ts.
 */
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { ComponentGraph } from '../graph/componentGraph';
import type { IndexState, WorkspaceFolder } from '../indexState';
import type { FileCommitInfo, Problem, SourceKind } from '../model';
import type { CatalogLoad } from '../sources/catalog/loadCatalog';
import type { EngineSettings } from '../settings';
import { WorkspaceReader } from '../workspace/readGuard';
import {
  discoverWorkspace,
  type DiscoveredFile,
  type DiscoveredRoot,
  type WorkspaceDiscovery,
} from '../workspace/discovery';
import { CommitInfoLookup, gitRunningRoots, loadGitFacts, repoInfos, type WorkspaceGitFacts } from '../workspace/git';
import { readRemotes, type RepositoryRemotes } from '../workspace/remotes';
import { compileSourceGlobs, type RefusedSourceGlob, type SourceMatcher } from '../workspace/globs';
import { fromWorkspacePath, toWorkspacePath, usesFolderPrefix } from '../workspace/paths';
import { buildAsOfState, type AsOfState } from './asOfIndex';
import { InputError } from '../errors';
import type { IndexerMemory } from './indexerMemory';
import { countState } from './counts';
import { fillFileTable, refreshFileTable, type FileEntry, type FileTable, type FillResult } from './fileTable';
import { DocProducers, type CatalogPass } from './produceDocs';
import { emptyFolderProblems } from './emptyFolders';
import { documentationCoverage, type Coverage } from './coverage';
import { SectionStore, type SectionDiff } from './sectionStore';
import { changesSinceSnapshot, type EarlyStatuses } from './gitChanges';
import { walkOutsideRepos } from './warmWalk';
import { DiscoveryLookups } from './discoveryLookups';
import { readRunHealth, runHealthFiles, type RunHealthFiles } from './runHealthFiles';

/** Files an update reads again, and those it drops, by workspace path. */
interface FileDelta {
  reread: Map<string, DiscoveredFile>;
  removed: Set<string>;
}

export interface PassReport {
  kind: 'full' | 'update';
  filesRead: number;
  filesChanged: string[];
  filesRemoved: string[];
  sections: SectionDiff;
  /** How the pass had its catalog: unchanged, patched for the changed catalog files, or loaded whole. */
  catalog: CatalogPass;
  durationMs: number;
}

/**
 * Where a full pass is: walking the folders, checking files (`done` of `total`, where unchanged
 * files cost a stat and the rest a read), then parsing and assembling. Update passes touch a few
 * files and report nothing.
 */
export type PassProgress =
  | { step: 'walking' }
  | { step: 'reading'; done: number; total: number }
  | { step: 'parsing'; files: number };

export class Indexer {
  /** Hears a full pass's progress (the engine forwards it to hosts' progress displays). */
  onProgress: ((progress: PassProgress) => void) | undefined;
  private readonly producers = new DocProducers();
  private readonly store: SectionStore;
  private table: FileTable | undefined;
  private discovery: WorkspaceDiscovery | undefined;
  private git: WorkspaceGitFacts | undefined;
  /**
   * The served repositories' remotes (TechDocs `url:` refs), read at most once per full pass and
   * only when an entity has a `url:` ref: a workspace of `dir:` refs runs no git for them.
   */
  private remotes: Promise<readonly RepositoryRemotes[]> | undefined;
  private graph: { catalog: CatalogLoad; graph: ComponentGraph } | undefined;
  private lastState: IndexState | undefined;

  private readonly matcher: SourceMatcher;
  private readonly lookups: DiscoveryLookups;
  /** Listed files the last pass could not read (tried again by the next one). */
  private unread: readonly string[] = [];
  /** Commit facts by path, from the git facts of the last full pass (see commitInfos). */
  private commitLookup: CommitInfoLookup | undefined;
  private commits: Map<string, FileCommitInfo> | undefined;

  /** Every read of a workspace file goes through it (readGuard.ts). */
  readonly reader: WorkspaceReader;

  /** Source globs past their budget, not matched (workspace/globBudget.ts). */
  get refusedGlobs(): readonly RefusedSourceGlob[] {
    return this.matcher.refused;
  }

  constructor(
    private readonly folders: readonly WorkspaceFolder[],
    private readonly settings: EngineSettings,
  ) {
    this.matcher = compileSourceGlobs(settings.globs);
    this.lookups = new DiscoveryLookups(this.matcher);
    this.store = new SectionStore({ prefixedPaths: usesFolderPrefix(folders) });
    this.reader = new WorkspaceReader(folders, settings.maxFileSize);
  }

  /** A full pass: walk every folder and reload git facts; unchanged files are still not re-read. */
  async full(): Promise<{ state: IndexState; report: PassReport }> {
    const started = performance.now();
    // Git runs in its own processes while this one walks, reads and parses; loadGitFacts never
    // rejects. The repositories are those of the last walk until this walk says otherwise.
    const before = this.discovery?.roots;
    const early = this.settings.useGit && before ? loadGitFacts(before) : undefined;
    const table = this.table;
    this.onProgress?.({ step: 'walking' });
    this.discovery = await discoverWorkspace(this.folders, {
      globs: this.settings.globs,
      maxFileSize: this.settings.maxFileSize,
      known: table && ((path) => table.get(path)),
    });
    const roots = this.discovery.roots;
    const git = !this.settings.useGit
      ? Promise.resolve(undefined)
      : early && sameGitRoots(before!, roots)
        ? early
        : loadGitFacts(roots);
    this.remotes = undefined;
    const report = this.onProgress;
    const filled = await fillFileTable(this.discovery.files, this.table, this.reader, {
      readWorkers: this.settings.readWorkers,
      onProgress: report && ((done, total) => report({ step: 'reading', done, total })),
    });
    report?.({ step: 'parsing', files: this.discovery.files.length });
    this.dirtyOverrides.clear();
    return this.finish('full', started, filled, git);
  }

  /**
   * Applies changed paths (absolute or workspace-relative). Edits and deletions of files the index
   * holds take the fast path: only they are read again. A new file that a source glob could match,
   * a new directory or a changed `.gitignore` needs a walk to learn roles and ignore status, so it
   * runs a full pass; any other new file (source code, build output) is not ours and is ignored.
   * Reads, parses and diffs only what changed; per-file tables are updated in place, not copied.
   */
  async update(
    changedPaths: readonly string[],
    gitChecked = false,
  ): Promise<{ state: IndexState; report: PassReport }> {
    if (!this.discovery || !this.table) return this.full();
    const started = performance.now();
    const delta = await this.statPaths(changedPaths);
    if (!delta) return this.full();
    return this.applyDelta(started, delta, gitChecked);
  }

  /**
   * What changed among `changedPaths`, by one `stat` each: indexed files to read again and those
   * gone (a directory takes every indexed file under it along). Null when a path needs a walk.
   */
  private async statPaths(changedPaths: readonly string[]): Promise<FileDelta | null> {
    const known = this.lookups.files(this.discovery!);
    const reread = new Map<string, DiscoveredFile>();
    const removed = new Set<string>();
    for (const input of changedPaths) {
      const path = this.toWorkspacePath(input);
      if (path === null) continue;
      if (path === '.gitignore' || path.endsWith('/.gitignore')) return null;
      const file = removed.has(path) ? undefined : (reread.get(path) ?? known.get(path));
      const abs = file?.absPath ?? fromWorkspacePath(this.folders, path)?.absPath;
      if (!abs) continue;
      let info: Stats | undefined;
      try {
        info = await stat(abs);
      } catch {
        // Gone: the file, or a directory taking every indexed file under it along. A skipped
        // documentation file (a template, a vendored page) leaves coverage with it.
        this.dropSkipped(path);
        for (const gone of [path, ...this.knownUnder(path)]) {
          if (!known.has(gone)) continue;
          removed.add(gone);
          reread.delete(gone);
        }
        continue;
      }
      if (file) {
        reread.set(path, { ...file, size: info.size, mtimeMs: info.mtimeMs });
        removed.delete(path);
      } else if (info.isDirectory() || this.lookups.couldBeSource(this.discovery, path)) {
        return null;
      }
    }
    return { reread, removed };
  }

  /** Reads `delta`'s files again, drops its gone ones, and assembles the new state. */
  private async applyDelta(
    started: number,
    { reread, removed }: FileDelta,
    gitChecked: boolean,
  ): Promise<{ state: IndexState; report: PassReport }> {
    const known = this.lookups.files(this.discovery!);
    // Files that could not be read last time are tried again, as a full read of the table would.
    for (const path of this.unread)
      if (!reread.has(path) && !removed.has(path) && known.has(path)) reread.set(path, known.get(path)!);
    if (reread.size > 0 || removed.size > 0) {
      for (const [path, file] of reread) known.set(path, file);
      for (const path of removed) known.delete(path);
      // The discovery keeps its (path-sorted) file list in step: the snapshot writes it.
      let files = this.discovery!.files;
      if (removed.size > 0) files = files.filter((f) => !removed.has(f.path));
      for (const file of reread.values()) {
        const at = indexOfPath(files, file.path);
        if (at >= 0) files[at] = file;
      }
      this.discovery = { ...this.discovery!, files };
      this.lookups.keepFiles(this.discovery, known);
    }
    const filled = await refreshFileTable(this.table!, [...reread.values()], removed);
    // Git's own answer is in this.git when the paths came from it (warmCheck); else edits are dirty.
    if (!gitChecked) this.markDirty(filled.changed);
    return this.finish('update', started, filled);
  }

  /**
   * The first pass after a snapshot was restored: asks git what changed in each repository since
   * the snapshot (gitChanges.ts), walks the files outside every repository and any repository
   * where git names a path only a walk can judge (warmWalk.ts), and re-reads only what changed.
   * Falls back to `full()` where neither can vouch for every file: git off or failing, an older
   * snapshot without git facts, a commit git no longer has, a repository added or gone. A folder
   * with no git at all is walked whole, one `stat` a file, while the engine answers from the
   * snapshot, flagged `index-stale`. `early`: the statuses the engine started while it decoded
   * the snapshot (git's look then; `watched` must hold every path the host heard of since).
   */
  async warmCheck(
    watched: readonly string[] = [],
    early?: EarlyStatuses,
  ): Promise<{ state: IndexState; report: PassReport }> {
    const discovery = this.discovery;
    const table = this.table;
    if (!discovery || !table) return this.full();
    const started = performance.now();
    const repos = gitRunningRoots(discovery.roots);
    if (repos.length > 0 && (!this.settings.useGit || !this.git)) return this.full();
    const changes = repos.length > 0 ? await changesSinceSnapshot(discovery.roots, this.git!, early) : undefined;
    if (changes === null) return this.full();
    // Paths edited after the snapshot's git facts were read (update passes marked them dirty):
    // an edit since reverted is clean to git now and in neither dirty set.
    const named = [...(changes?.paths ?? []), ...watched];
    for (const [file, info] of this.commits ?? []) if (info.dirty) named.push(file);
    const paths = named.map((file) => this.toWorkspacePath(file)).filter((file): file is string => file !== null);
    const walk = await walkOutsideRepos(discovery, this.lookups.reposToWalk(discovery, repos, paths), {
      globs: this.settings.globs,
      maxFileSize: this.settings.maxFileSize,
      known: (path) => table.get(path),
    });
    if (!walk) return this.full();
    if (changes) {
      this.git = changes.git;
      this.dirtyOverrides.clear();
      // Git's answer for every path it named, read again or not (a dirty flag can change alone),
      // and for every file of a repository whose HEAD moved (its commit, its last-commit time).
      const lookup = (this.commitLookup = new CommitInfoLookup(discovery.roots, this.git.repos));
      const moved = new Set(changes.moved);
      const again =
        moved.size === 0 ? paths : [...paths, ...table.list().filter((f) => moved.has(this.lookups.repoOf(repos, f)!))];
      for (const file of again) if (this.commits?.has(file)) this.commits.set(file, lookup.get(file));
    }
    this.discovery = walk.discovery;
    const delta = await this.statPaths(paths.filter((file) => !walk.walked(file)));
    if (!delta) return this.full();
    for (const file of walk.changed) delta.reread.set(file.path, file);
    for (const file of walk.removed) {
      delta.reread.delete(file);
      delta.removed.add(file);
    }
    if (
      this.lastState &&
      delta.reread.size === 0 &&
      delta.removed.size === 0 &&
      this.unread.length === 0 &&
      walk.discovery === discovery
    )
      return this.unchangedSinceSnapshot(started);
    return this.applyDelta(started, delta, true);
  }

  /**
   * The state restored from the snapshot, when the check found nothing to read or drop and the
   * walk kept the snapshot's discovery: every file is as the snapshot's pass read it, so assembling
   * it all again (producers, coverage, sections) would give that pass's state. Only what git said
   * in the check is new: the commit facts of the paths it named (`this.commits`, set above) and
   * the repositories' facts; and the time the index was known current.
   */
  private unchangedSinceSnapshot(started: number): { state: IndexState; report: PassReport } {
    const last = this.lastState!;
    const state: IndexState = {
      ...last,
      repos: repoInfos(this.discovery!.roots, this.git?.repos ?? []),
      commits: this.commits ?? last.commits,
      indexedAt: new Date().toISOString(),
    };
    this.lastState = state;
    const report: PassReport = {
      kind: 'update',
      filesRead: 0,
      filesChanged: [],
      filesRemoved: [],
      sections: { addedSections: 0, removedSections: 0, changedDocs: [], removedDocs: [] },
      catalog: 'kept',
      durationMs: performance.now() - started,
    };
    return { state, report };
  }

  /** Forgets the skipped documentation files at `path` or under it (they are gone). */
  private dropSkipped(path: string): void {
    const skipped = this.discovery!.skipped;
    const prefix = `${path}/`;
    const kept = skipped.filter((s) => s.path !== path && !s.path.startsWith(prefix));
    if (kept.length !== skipped.length) this.discovery = { ...this.discovery!, skipped: kept };
  }

  /** Known files below directory `dir`: those in the table, and those it could not read. */
  private knownUnder(dir: string): string[] {
    const prefix = `${dir}/`;
    return [...this.table!.listUnder(dir), ...this.unread.filter((path) => path.startsWith(prefix))];
  }

  /**
   * Produces documents and assembles the new state. Everything that awaits (parsing, run health)
   * happens before `store.apply`: from `apply` to the return, the pass runs synchronously, which
   * is what lets consecutive states share the section store's maps (sectionStore.ts).
   */
  private async finish(
    kind: PassReport['kind'],
    started: number,
    filled: FillResult,
    git?: Promise<WorkspaceGitFacts | undefined>,
  ): Promise<{ state: IndexState; report: PassReport }> {
    const discovery = this.discovery!;
    this.table = filled.table;
    this.unread = filled.unread;
    const remotes = () => (this.remotes ??= this.settings.useGit ? readRemotes(discovery.roots) : Promise.resolve([]));
    const produced = await this.producers.produce(filled.table, discovery.roots, remotes);
    // A cold index counts its sections' terms in worker threads (as many as read its files) while
    // this pass waits for git and reads run health; never rejects (sectionStore.ts).
    const counting = this.store.prepareRebuild(produced.docs, { workers: this.settings.readWorkers });
    // A full pass may have read every file; an update only those the table remembers reading.
    filled.table.releaseTexts(keepsText, kind === 'full' ? undefined : []);
    if (git) {
      this.git = await git;
      this.commitLookup = undefined;
    }
    const problems: Problem[] = [
      ...discovery.problems,
      ...filled.problems,
      ...(this.git?.problems ?? []),
      ...produced.problems,
    ];
    const coverage = this.coverageOf(discovery, filled.table, produced.docKinds);
    for (const problem of emptyFolderProblems(this.folders, produced.docs, filled.table, coverage.folders))
      problems.push(problem);
    for (const problem of coverage.problems) problems.push(problem);
    this.runHealthFound = runHealthFiles(discovery, filled.table, this.runHealthFound);
    const runHealth = await readRunHealth(discovery.roots, this.runHealthFound.files, filled.table, problems);
    await counting;
    // No await below this line (see above).
    const previousGraph = this.graph;
    if (!this.graph || this.graph.catalog !== produced.catalog) {
      // After a catalog update (catalogUpdate.ts) only the lists of entities it touched are new.
      const change = produced.catalogChange;
      const from = change && this.graph?.catalog === change.from ? this.graph.graph : undefined;
      this.graph = {
        catalog: produced.catalog,
        graph: new ComponentGraph(
          produced.catalog.entities,
          produced.catalog.relations,
          from && { from, removed: change!.removed, added: change!.added, entities: change!.entities },
        ),
      };
    }
    const commits = this.commitInfos(kind, filled);
    const sections = this.store.apply(produced.docs);
    const snapshot = this.store.snapshot();
    const state: IndexState = {
      folders: this.folders,
      repos: repoInfos(discovery.roots, this.git?.repos ?? []),
      fileDigests: this.fileDigests(kind, filled),
      commits,
      docs: snapshot.docs,
      sections: snapshot.sections,
      sectionOrdinalById: snapshot.ordinalById,
      lexical: this.store.postings,
      titleTerms: snapshot.titleTerms,
      contextTerms: snapshot.contextTerms,
      libraryFolders: produced.folders,
      packs: produced.packs,
      fieldLines: produced.catalog.fieldLines,
      entities: produced.catalog.entities,
      relations: produced.catalog.relations,
      graph: this.graph.graph,
      runHealth,
      problems,
      coverage: coverage.folders,
      indexedAt: new Date().toISOString(),
      counts: countState({
        docs: snapshot.docs,
        graph: this.graph.graph,
        entities: produced.catalog.entities,
        problems,
        files: filled.table.size,
        sections: this.store.sectionCount,
        bySourceKind: this.store.documentsByKind(),
        catalogChange:
          produced.catalogChange && previousGraph && previousGraph.catalog === produced.catalogChange.from
            ? {
                removed: produced.catalogChange.removed,
                added: produced.catalogChange.added,
                before: produced.catalogChange.before,
                after: produced.catalogChange.after,
                from: previousGraph.graph,
              }
            : undefined,
      }),
    };
    this.lastState = state;
    const report: PassReport = {
      kind,
      filesRead: filled.read,
      filesChanged: filled.changed,
      filesRemoved: filled.removed,
      sections,
      catalog: produced.catalogPass,
      durationMs: performance.now() - started,
    };
    return { state, report };
  }

  /**
   * The documentation coverage of a pass (coverage.ts), computed again only when the files, what
   * discovery skipped, the table's listing or the documents' paths changed: an edit of a page
   * costs nothing here.
   */
  private coverageOf(
    discovery: WorkspaceDiscovery,
    table: FileTable,
    docKinds: ReadonlyMap<string, SourceKind>,
  ): Coverage {
    const key = [discovery.files, discovery.files.length, discovery.skipped, table.list(), docKinds];
    const last = this.coverage;
    if (last?.key.every((part, i) => part === key[i])) return last.value;
    const value = documentationCoverage({
      folders: this.folders,
      files: discovery.files,
      skipped: discovery.skipped,
      inTable: (path) => table.has(path),
      docKinds,
    });
    this.coverage = { key, value };
    return value;
  }
  private coverage: { key: unknown[]; value: Coverage } | undefined;

  /** What a snapshot must hold to continue from the last pass (persistence/indexSnapshot.ts). */
  memory(): IndexerMemory | undefined {
    if (!this.lastState || !this.discovery || !this.table || !this.graph) return undefined;
    const docs = [...this.lastState.docs.values()];
    const producers = this.producers.export();
    // Kept only for the catalog the snapshot writes (it stands for it by a marker, not a copy).
    if (producers.catalogUpdates && producers.catalogUpdates.load !== this.graph.catalog)
      producers.catalogUpdates = null;
    return {
      discovery: this.discovery,
      table: this.table,
      git: this.git,
      producers,
      catalog: this.graph.catalog,
      docs,
      ordinals: this.store.exportOrdinals(docs),
      postings: this.store.postings,
      state: this.lastState,
    };
  }

  /** Continues from a snapshot's memory: answers at once; the next pass re-reads only what changed. */
  restore(memory: IndexerMemory): IndexState {
    this.discovery = memory.discovery;
    this.table = memory.table;
    this.unread = memory.discovery.files.filter((f) => !memory.table.has(f.path)).map((f) => f.path);
    this.git = memory.git;
    this.producers.import(memory.producers);
    this.graph = { catalog: memory.catalog, graph: memory.state.graph };
    this.commitLookup = undefined;
    this.commits = new Map(memory.state.commits);
    this.digests = new Map(memory.state.fileDigests);
    this.store.restore(memory.docs, memory.ordinals, memory.postings, memory.docTerms);
    const snapshot = this.store.snapshot();
    const state: IndexState = {
      ...memory.state,
      docs: snapshot.docs,
      sections: snapshot.sections,
      sectionOrdinalById: snapshot.ordinalById,
      titleTerms: snapshot.titleTerms,
      contextTerms: snapshot.contextTerms,
    };
    this.lastState = state;
    return state;
  }

  /** The workspace as it was at `asOf` (asOfIndex.ts); needs one completed pass first. */
  async asOf(asOf: string): Promise<AsOfState> {
    if (!this.settings.useGit)
      throw new InputError('asOf: git is off in this workspace (untrusted), so its history cannot be read.');
    if (!this.discovery || !this.table) await this.full();
    return buildAsOfState(asOf, this.folders, this.settings, this.discovery!, this.table!);
  }

  /**
   * Git facts of every file. A full pass (git facts just read) computes every file; an update
   * pass changes only the files it changed or removed, in place: like the section store's maps,
   * the map is shared by consecutive states (sectionStore.ts states the rule that makes it safe).
   */
  private commitInfos(kind: PassReport['kind'], filled: FillResult): Map<string, FileCommitInfo> {
    this.commitLookup ??= new CommitInfoLookup(this.discovery!.roots, this.git?.repos ?? []);
    const lookup = this.commitLookup;
    const infoOf = (path: string): FileCommitInfo => {
      const info = lookup.get(path);
      return this.dirtyOverrides.has(path) && info.commit !== null ? { ...info, dirty: true } : info;
    };
    if (kind === 'full' || !this.commits) {
      this.commits = new Map();
      for (const path of filled.table.list()) this.commits.set(path, infoOf(path));
    } else {
      for (const path of filled.removed) this.commits.delete(path);
      for (const path of filled.changed) this.commits.set(path, infoOf(path));
    }
    return this.commits;
  }

  /** Every file's digest: built on a full pass, changed in place on an update (as commitInfos). */
  private fileDigests(kind: PassReport['kind'], filled: FillResult): Map<string, string> {
    if (kind === 'full' || !this.digests) {
      this.digests = new Map();
      for (const entry of filled.table.entries.values()) this.digests.set(entry.path, entry.digest);
    } else {
      for (const path of filled.removed) this.digests.delete(path);
      for (const path of filled.changed) this.digests.set(path, filled.table.digest(path)!);
    }
    return this.digests;
  }
  private digests: Map<string, string> | undefined;

  /**
   * Files edited since git facts were loaded differ from HEAD unless an edit was reverted; they
   * are marked dirty without running git on every keystroke-sized update, and the next full pass
   * (the freshness refresh) reads git's own answer again.
   */
  private readonly dirtyOverrides = new Set<string>();
  /** Each root's run-health file, for the list of files and roots it was found in. */
  private runHealthFound: RunHealthFiles | undefined;
  private markDirty(paths: readonly string[]): void {
    for (const path of paths) this.dirtyOverrides.add(path);
  }

  private toWorkspacePath(input: string): string | null {
    return input.startsWith('/') ? toWorkspacePath(this.folders, input) : input;
  }
}

/**
 * Files whose text the table keeps after a pass: those parsers read again on other files' changes
 * (the catalog reloads every catalog file when one changes; mkdocs.yml and run health are small
 * and read often). Markdown, the bulk of a workspace, is read again from disk on the rare pass
 * that needs it.
 */
const TEXT_ROLES: ReadonlySet<string> = new Set(['catalog', 'catalogTargets', 'techdocs', 'runHealth']);
function keepsText(entry: FileEntry): boolean {
  return entry.roles.some((role) => TEXT_ROLES.has(role));
}

/** True when two walks found the same directories to run git in, for the same roots. */
function sameGitRoots(a: readonly DiscoveredRoot[], b: readonly DiscoveredRoot[]): boolean {
  const gitRoots = (roots: readonly DiscoveredRoot[]) =>
    roots
      .filter((r) => r.gitAbsRoot !== null && r.gitAbsRoot === r.absRoot)
      .map((r) => `${r.folder}\u0000${r.root}\u0000${r.absRoot}`);
  const x = gitRoots(a);
  const y = gitRoots(b);
  return x.length === y.length && x.every((key, i) => key === y[i]);
}

/** Index of `path` in discovered files sorted by path (code unit order), or -1. */
function indexOfPath(files: readonly DiscoveredFile[], path: string): number {
  let lo = 0;
  let hi = files.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (files[mid].path < path) lo = mid + 1;
    else hi = mid;
  }
  return lo < files.length && files[lo].path === path ? lo : -1;
}
