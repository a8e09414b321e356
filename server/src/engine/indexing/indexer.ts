/**
 * One index pass: discover, read what changed, parse what changed, and assemble a complete new
 * `IndexState`. The same code runs for the first pass and for every update; what makes updates
 * cheap is the file table's stat cache, the producers' memo and the section store's diff.
 */
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { ComponentGraph } from '../graph/componentGraph';
import type { IndexState, WorkspaceFolder } from '../indexState';
import type { FileCommitInfo, Problem } from '../model';
import type { CatalogLoad } from '../sources/catalog/loadCatalog';
import type { EngineSettings } from '../settings';
import { discoverWorkspace, type WorkspaceDiscovery } from '../workspace/discovery';
import { fileCommitInfo, loadGitFacts, repoInfos, type WorkspaceGitFacts } from '../workspace/git';
import { compileSourceGlobs, type SourceMatcher } from '../workspace/globs';
import { fromWorkspacePath, joinPosix, toWorkspacePath } from '../workspace/paths';
import { parseRunHealth, type RunHealth } from '../sources/runHealth';
import { buildAsOfState, type AsOfState } from './asOfIndex';
import { InputError } from '../errors';
import type { IndexerMemory } from '../persistence/indexSnapshot';
import { countState } from './counts';
import { fillFileTable, type FileTable } from './fileTable';
import { DocProducers } from './produceDocs';
import { SectionStore, type SectionDiff } from './sectionStore';

export interface PassReport {
  kind: 'full' | 'update';
  filesRead: number;
  filesChanged: string[];
  filesRemoved: string[];
  sections: SectionDiff;
  durationMs: number;
}

export class Indexer {
  private readonly producers = new DocProducers();
  private readonly store = new SectionStore();
  private table: FileTable | undefined;
  private discovery: WorkspaceDiscovery | undefined;
  private git: WorkspaceGitFacts | undefined;
  private graph: { catalog: CatalogLoad; graph: ComponentGraph } | undefined;
  private lastState: IndexState | undefined;

  private readonly matcher: SourceMatcher;

  constructor(
    private readonly folders: readonly WorkspaceFolder[],
    private readonly settings: EngineSettings,
  ) {
    this.matcher = compileSourceGlobs(settings.globs);
  }

  /** A full pass: walk every folder and reload git facts; unchanged files are still not re-read. */
  async full(): Promise<{ state: IndexState; report: PassReport }> {
    const started = performance.now();
    this.discovery = await discoverWorkspace(this.folders, { globs: this.settings.globs, maxFileSize: this.settings.maxFileSize });
    const filled = await fillFileTable(this.discovery.files, this.table);
    this.git = this.settings.useGit ? await loadGitFacts(this.discovery.roots) : undefined;
    this.dirtyOverrides.clear();
    return this.finish('full', started, filled);
  }

  /**
   * Applies changed paths (absolute or workspace-relative). Edits and deletions of files the index
   * holds take the fast path: only they are read again. A new file that a source glob could match,
   * a new directory or a changed `.gitignore` needs a walk to learn roles and ignore status, so it
   * runs a full pass; any other new file (source code, build output) is not ours and is ignored.
   */
  async update(changedPaths: readonly string[]): Promise<{ state: IndexState; report: PassReport }> {
    if (!this.discovery || !this.table) return this.full();
    const started = performance.now();
    const byPath = new Map(this.discovery.files.map((f) => [f.path, f]));
    const forceRead = new Set<string>();
    let needsWalk = false;
    for (const input of changedPaths) {
      const path = this.toWorkspacePath(input);
      if (path === null) continue;
      if (path === '.gitignore' || path.endsWith('/.gitignore')) {
        needsWalk = true;
        continue;
      }
      const file = byPath.get(path);
      const abs = file?.absPath ?? fromWorkspacePath(this.folders, path)?.absPath;
      if (!abs) continue;
      let info: Stats | undefined;
      try {
        info = await stat(abs);
      } catch {
        // Gone: the file, or a directory taking every indexed file under it along.
        byPath.delete(path);
        for (const known of [...byPath.keys()]) if (known.startsWith(`${path}/`)) byPath.delete(known);
        continue;
      }
      if (file) {
        byPath.set(path, { ...file, size: info.size, mtimeMs: info.mtimeMs });
        forceRead.add(path);
      } else if (info.isDirectory() || this.couldBeSource(path)) {
        needsWalk = true;
      }
    }
    if (needsWalk) return this.full();
    const files = [...byPath.values()];
    this.discovery = { ...this.discovery, files };
    const filled = await fillFileTable(files, this.table, { forceRead });
    this.markDirty(filled.changed);
    return this.finish('update', started, filled);
  }

  /** Whether a file the index has never seen would match a source glob from its repository root. */
  private couldBeSource(path: string): boolean {
    let root = '';
    for (const r of this.discovery?.roots ?? []) {
      const prefix = r.root === '' ? '' : `${r.root}/`;
      if ((r.root === '' || path.startsWith(prefix)) && r.root.length >= root.length) root = r.root;
    }
    return this.matcher.isCandidate(root === '' ? path : path.slice(root.length + 1));
  }

  private async finish(kind: PassReport['kind'], started: number, filled: Awaited<ReturnType<typeof fillFileTable>>): Promise<{ state: IndexState; report: PassReport }> {
    const discovery = this.discovery!;
    this.table = filled.table;
    const produced = await this.producers.produce(filled.table, discovery.roots);
    if (!this.graph || this.graph.catalog !== produced.catalog) {
      this.graph = { catalog: produced.catalog, graph: new ComponentGraph(produced.catalog.entities, produced.catalog.relations) };
    }
    const sections = this.store.apply(produced.docs);
    const snapshot = this.store.snapshot();
    const problems: Problem[] = [...discovery.problems, ...filled.problems, ...(this.git?.problems ?? []), ...produced.problems];
    const commits = this.commitInfos(filled.table);
    const runHealth = await readRunHealth(discovery, filled.table, problems);
    const state: IndexState = {
      folders: this.folders,
      repos: repoInfos(discovery.roots, this.git?.repos ?? []),
      fileDigests: new Map([...filled.table.entries.values()].map((f) => [f.path, f.digest])),
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
      indexedAt: new Date().toISOString(),
      counts: countState({ docs: snapshot.docs, graph: this.graph.graph, entities: produced.catalog.entities, problems, files: filled.table.size, sections: this.store.sectionCount }),
    };
    this.lastState = state;
    const report: PassReport = {
      kind,
      filesRead: filled.read,
      filesChanged: filled.changed,
      filesRemoved: filled.removed,
      sections,
      durationMs: performance.now() - started,
    };
    return { state, report };
  }

  /** What a snapshot must hold to continue from the last pass (persistence/indexSnapshot.ts). */
  memory(): IndexerMemory | undefined {
    if (!this.lastState || !this.discovery || !this.table || !this.graph) return undefined;
    const docs = [...this.lastState.docs.values()];
    return {
      discovery: this.discovery,
      table: this.table,
      git: this.git,
      producers: this.producers.export(),
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
    this.git = memory.git;
    this.producers.import(memory.producers);
    this.graph = { catalog: memory.catalog, graph: memory.state.graph };
    this.store.restore(memory.docs, memory.ordinals, memory.postings);
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
    if (!this.settings.useGit) throw new InputError('asOf: git is off in this workspace (untrusted), so its history cannot be read.');
    if (!this.discovery || !this.table) await this.full();
    return buildAsOfState(asOf, this.folders, this.settings, this.discovery!, this.table!);
  }

  private commitInfos(table: FileTable): Map<string, FileCommitInfo> {
    const commits = new Map<string, FileCommitInfo>();
    const repos = this.git?.repos ?? [];
    for (const path of table.list()) commits.set(path, fileCommitInfo(path, this.folders, repos));
    for (const path of this.dirtyOverrides) {
      const info = commits.get(path);
      if (info && info.commit !== null) commits.set(path, { ...info, dirty: true });
    }
    return commits;
  }

  /**
   * Files edited since git facts were loaded differ from HEAD unless an edit was reverted; they
   * are marked dirty without running git on every keystroke-sized update, and the next full pass
   * (the freshness refresh) reads git's own answer again.
   */
  private readonly dirtyOverrides = new Set<string>();
  private markDirty(paths: readonly string[]): void {
    for (const path of paths) this.dirtyOverrides.add(path);
  }

  private toWorkspacePath(input: string): string | null {
    return input.startsWith('/') ? toWorkspacePath(this.folders, input) : input;
  }
}

/** Each repository root's `.wsctx/run-health.json`, when present (sources/runHealth.ts). */
async function readRunHealth(discovery: WorkspaceDiscovery, table: FileTable, problems: Problem[]): Promise<Map<string, RunHealth>> {
  const health = new Map<string, RunHealth>();
  for (const root of discovery.roots) {
    const path = joinPosix(root.root, '.wsctx/run-health.json');
    const text = await table.readText(path);
    if (text === null) continue;
    const parsed = parseRunHealth(path, text);
    health.set(root.root, parsed.health);
    problems.push(...parsed.problems);
  }
  return health;
}
