/**
 * `wsctx doctor`: one line per thing a first run depends on, each saying what was found and, when
 * it is wrong, what to do: Node, git, the native modules (and which fallback runs without them),
 * the embedding model (loaded and timed on one question), the cache folder (written to), the
 * `.wsctx.yaml` config file (parsed and checked, each problem on its own line with its file, line
 * and key), and each served folder with what indexing found in it. Exit 0 when nothing failed; a `warn` (a fallback
 * runs) does not fail it.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  type EmbeddingSettings,
  DOCS_UNREAD,
  NOTHING_INDEXED,
  coverageListing,
  coverageSummary,
  type FolderCoverage,
  type IndexState,
  Engine,
  type WorkspaceFolder,
  loadWebTreeSitter,
  loadHnswlib,
  vectorBackendStatus,
  type EngineSettings,
  fromWorkspacePath,
  loadOnnxRuntime,
} from '../../engine';
import {
  CONFIG_FILE_NAME,
  formatConfigProblem,
  type ConfigProblem,
  type WorkspaceConfig,
} from '../../config/workspaceConfig';
import { UNREAD_SHOWN } from './indexCommand';

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface DoctorCheck {
  name: string;
  status: CheckStatus;
  /** What was found, and for warn/fail what to do about it (further lines list what it found). */
  detail: string;
  /** `docs` checks: the folder's documentation files, read and not read (every unread file, with why). */
  coverage?: FolderCoverage;
}

export interface DoctorInput {
  folders: readonly WorkspaceFolder[];
  /** Undefined: `--no-cache`. */
  cacheDir: string | undefined;
  embeddings: Partial<EmbeddingSettings>;
  /** The first folder's `.wsctx.yaml` as read (config/workspaceConfig.ts). */
  config: WorkspaceConfig;
  /** Source globs the folders are indexed with (the config file's, where valid). */
  globs?: Partial<EngineSettings>;
  /** The user's own configuration file (config/userConfig.ts), and what the workspace's may not set (config/trust.ts). */
  user?: WorkspaceConfig;
  refused?: readonly ConfigProblem[];
}

/** The oldest Node the package supports (package.json `engines.node`). */
const MIN_NODE: readonly [number, number] = [20, 19];

export async function runDoctor(input: DoctorInput): Promise<DoctorCheck[]> {
  return [
    nodeCheck(process.versions.node),
    gitCheck(),
    hnswCheck(),
    await treeSitterCheck(),
    ...(await modelChecks(input)),
    cacheCheck(input.cacheDir, input.folders),
    ...configChecks(input.config, input.folders[0]?.absPath ?? '.'),
    ...userConfigChecks(input.user, input.refused ?? []),
    ...(await folderChecks(input.folders, input.globs)),
  ];
}

export function nodeCheck(version: string): DoctorCheck {
  const [major, minor] = version.split('.').map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return {
    name: 'node',
    status: ok ? 'ok' : 'fail',
    detail: ok ? `v${version}` : `v${version} is too old; install Node ${MIN_NODE.join('.')} or newer`,
  };
}

function gitCheck(): DoctorCheck {
  const run = spawnSync('git', ['--version'], { encoding: 'utf8' });
  if (run.status === 0) return { name: 'git', status: 'ok', detail: run.stdout.trim() };
  const why = run.error ? run.error.message : run.stderr.trim();
  return {
    name: 'git',
    status: 'fail',
    detail: `git could not be run (${why}); commits, dirty flags and asOf need it: install git and put it on PATH`,
  };
}

function hnswCheck(): DoctorCheck {
  // The default needs nothing native; hnswlib-node is the alternative backend, told apart.
  const addon = loadHnswlib();
  const alternative =
    'lib' in addon
      ? 'hnswlib-node also loads (backend hnswlib)'
      : `hnswlib-node does not load, so backend hnswlib is unavailable: ${addon.error}`;
  return {
    name: 'vector index',
    status: 'ok',
    detail: `${vectorBackendStatus().reason}: nearest sections by meaning; ${alternative}`,
  };
}

async function treeSitterCheck(): Promise<DoctorCheck> {
  try {
    await loadWebTreeSitter();
    return {
      name: 'syntax trees',
      status: 'ok',
      detail: 'web-tree-sitter loaded: comments and strings in code are found by syntax tree',
    };
  } catch (error) {
    return {
      name: 'syntax trees',
      status: 'warn',
      detail: `web-tree-sitter could not be loaded (${firstLine(error)}); the plain-text scanner runs instead`,
    };
  }
}

/** The ONNX runtime, when the package is installed (the local model runs on it). */
function onnxRuntime(): { version: string } | { error: string } {
  try {
    const ort = loadOnnxRuntime() as { env?: { versions?: { node?: string; common?: string } } };
    return { version: ort.env?.versions?.node ?? ort.env?.versions?.common ?? 'loaded' };
  } catch (error) {
    return { error: firstLine(error) };
  }
}

async function modelChecks(input: DoctorInput): Promise<DoctorCheck[]> {
  const provider = input.embeddings.provider ?? 'local';
  if (provider === 'off')
    return [
      {
        name: 'embeddings',
        status: 'ok',
        detail: 'off: passages rank on words alone (--embeddings local to rank on meaning too)',
      },
    ];
  const model =
    provider === 'local'
      ? `local ${input.embeddings.localModel ?? 'minilm'}`
      : `openai ${input.embeddings.model ?? '(default model)'} at ${input.embeddings.baseUrl ?? 'the default URL'}`;
  // The real thing: the configured model embeds one question, through the engine, timed.
  const logs: string[] = [];
  const engine = new Engine({ folders: input.folders, embeddings: input.embeddings, log: (m) => logs.push(m) });
  let embedded: DoctorCheck;
  try {
    const started = performance.now();
    const vector = await engine.embedQueryWithModel('how do we roll back billing-worker?');
    const ms = performance.now() - started;
    embedded = vector
      ? {
          name: 'embeddings',
          status: 'ok',
          detail: `${model}: loaded and embedded a question in ${Math.round(ms)} ms (${vector.length} dimensions)`,
        }
      : {
          name: 'embeddings',
          status: 'fail',
          detail: `${model} did not load${logs.length ? ` (${logs.join('; ')})` : ''}; run with --embeddings off to rank on words alone`,
        };
  } finally {
    engine.dispose();
  }
  if (provider !== 'local') return [embedded];
  // Said either way, so a failed model shows whether the runtime it may need is there; a model
  // that ran without the package needs nothing from it.
  const ort = onnxRuntime();
  const runtime: DoctorCheck =
    'version' in ort
      ? { name: 'onnxruntime-node', status: 'ok', detail: `loaded (${ort.version})` }
      : {
          name: 'onnxruntime-node',
          status: embedded.status === 'ok' ? 'ok' : 'warn',
          detail: `not installed (${ort.error})${embedded.status === 'ok' ? '; the local model ran without it' : ''}`,
        };
  return [runtime, embedded];
}

export function cacheCheck(cacheDir: string | undefined, folders: readonly WorkspaceFolder[]): DoctorCheck {
  if (cacheDir === undefined)
    return { name: 'cache', status: 'ok', detail: 'off (--no-cache): every run indexes from scratch' };
  const inside = folders.find((f) => cacheDir === f.absPath || cacheDir.startsWith(f.absPath + path.sep));
  if (inside)
    return {
      name: 'cache',
      status: 'fail',
      detail: `${cacheDir} is inside the served folder ${inside.absPath}, and nothing is written into a workspace; pass --cache-dir elsewhere`,
    };
  try {
    fs.mkdirSync(cacheDir, { recursive: true });
    const probe = path.join(cacheDir, `.doctor-${process.pid}`);
    fs.writeFileSync(probe, 'ok');
    fs.rmSync(probe);
    return { name: 'cache', status: 'ok', detail: `${cacheDir} is writable` };
  } catch (error) {
    return {
      name: 'cache',
      status: 'fail',
      detail: `${cacheDir} is not writable (${firstLine(error)}); pass --cache-dir DIR or set $WSCTX_CACHE_DIR`,
    };
  }
}

/**
 * The config file: absent (the defaults), read with the settings it sets, or one `fail` line per
 * problem as `file:line: key: message`; a key with a problem is not applied, so the other
 * checks ran without it.
 */
export function configChecks(config: WorkspaceConfig, folder: string): DoctorCheck[] {
  const name = 'config';
  if (config.path === null)
    return [{ name, status: 'ok', detail: `no ${CONFIG_FILE_NAME} in ${folder}: the built-in defaults apply` }];
  const keys = Object.keys(config.values);
  if (config.problems.length === 0) {
    return [
      {
        name,
        status: 'ok',
        detail: `${config.path} read: ${keys.length ? `sets ${keys.join(', ')}` : 'sets nothing'}`,
      },
    ];
  }
  return config.problems.map((problem) => ({
    name,
    status: 'fail' as const,
    detail: `${formatConfigProblem(problem)} (other commands stop on this: ${problem.key ? 'fix or remove the key' : 'fix the file'})`,
  }));
}

/**
 * The user's own configuration file (read, or one `fail` line per problem), and one `warn` line
 * per setting the workspace's file set and may not (its value is not used).
 */
export function userConfigChecks(user: WorkspaceConfig | undefined, refused: readonly ConfigProblem[]): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  if (user?.path) {
    if (user.problems.length === 0)
      checks.push({
        name: 'user config',
        status: 'ok',
        detail: `${user.path} read: ${Object.keys(user.values).length ? `sets ${Object.keys(user.values).join(', ')}` : 'sets nothing'}`,
      });
    for (const problem of user.problems)
      checks.push({
        name: 'user config',
        status: 'fail',
        detail: `${formatConfigProblem(problem)} (other commands stop on this)`,
      });
  }
  for (const warning of refused) checks.push({ name: 'config', status: 'warn', detail: formatConfigProblem(warning) });
  return checks;
}

/** Indexes the folders (words only, no snapshot) with the configured globs and says what each holds. */
async function folderChecks(
  folders: readonly WorkspaceFolder[],
  globs: Partial<EngineSettings> = {},
): Promise<DoctorCheck[]> {
  const engine = new Engine({ folders, embeddings: { provider: 'off' }, settings: globs });
  try {
    const state = await engine.waitForIndex();
    return folders.flatMap((folder) => [folderCheck(state, folders, folder), ...docsCheck(state, folders, folder)]);
  } finally {
    engine.dispose();
  }
}

/** What indexing found in a folder: files, entities, documents by kind, problems; `fail` when nothing is indexed. */
function folderCheck(state: IndexState, folders: readonly WorkspaceFolder[], folder: WorkspaceFolder): DoctorCheck {
  const mine = (p: string) => fromWorkspacePath(folders, p)?.folder?.name === folder.name;
  const docs = [...state.docs.values()].filter((d) => mine(d.path));
  const kinds = new Map<string, number>();
  for (const d of docs) kinds.set(d.sourceKind, (kinds.get(d.sourceKind) ?? 0) + 1);
  const entities = state.entities.filter((e) => mine(e.location.path)).length;
  const problems = state.problems.filter((p) => mine(p.path)).length;
  const files = [...state.fileDigests.keys()].filter(mine).length;
  // Most documents first, as wsctx index lists them.
  const byCount = [...kinds].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const found = `${files} files, ${entities} catalog entities, ${docs.length} documents (${byCount.map(([k, n]) => `${n} ${k}`).join(', ') || 'none'}), ${problems} problem${problems === 1 ? '' : 's'}`;
  const name = `folder ${folder.name}`;
  // A folder that yields no document fails, with the indexer's reason and what to do.
  const empty = state.problems.find(
    (p) => p.code === NOTHING_INDEXED && (folders.length === 1 || p.path === folder.name),
  );
  if (empty || docs.length === 0)
    return { name, status: 'fail', detail: empty?.message ?? `${folder.absPath}: ${found}; nothing is indexed` };
  return {
    name,
    status: problems > 0 ? 'warn' : 'ok',
    detail: `${folder.absPath}: ${found}${problems ? ' (wsctx index lists them)' : ''}`,
  };
}

/**
 * The folder's documentation files as `wsctx index` says them: read N of M, the folders that read
 * few of theirs (`warn`), and the unread files by reason; `coverage` carries every one (`--json`).
 */
function docsCheck(state: IndexState, folders: readonly WorkspaceFolder[], folder: WorkspaceFolder): DoctorCheck[] {
  const coverage = state.coverage?.find((c) => c.folder === folder.name);
  if (!coverage) return [];
  const mine = (p: string) => fromWorkspacePath(folders, p)?.folder?.name === folder.name;
  const warnings = state.problems.filter((p) => p.code === DOCS_UNREAD && mine(p.path));
  return [
    {
      name: `docs ${folder.name}`,
      status: warnings.length > 0 ? 'warn' : 'ok',
      detail: [
        coverageSummary(coverage),
        ...warnings.map((w) => `warning: ${w.message}`),
        ...coverageListing(coverage, UNREAD_SHOWN),
      ].join('\n'),
      coverage,
    },
  ];
}

export function renderDoctor(checks: readonly DoctorCheck[]): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  // A detail's further lines (what a check lists) hang under its first.
  const hang = `\n${' '.repeat(4 + 2 + width + 2)}  `;
  const lines = checks.map((c) => `${c.status.padEnd(4)}  ${c.name.padEnd(width)}  ${c.detail.split('\n').join(hang)}`);
  const failed = checks.filter((c) => c.status === 'fail').length;
  lines.push(failed ? `${failed} check${failed === 1 ? '' : 's'} failed.` : 'All checks passed.');
  return lines.join('\n');
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}
