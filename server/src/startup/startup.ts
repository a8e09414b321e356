/**
 * The startup the command-line hosts share: `wsctx` (cli/main.ts) and the stdio MCP executable
 * (mcp/main.ts) both turn a command line into one `Services` value here, and neither imports the
 * other. From the options (startup/args.ts) and `.wsctx.yaml` (startup/hostConfig.ts):
 *
 * - the folders (`--workspace`), the cache folder and the embeddings;
 * - the engine over them;
 * - the call log, beside the index snapshot in the cache folder (`wsctx diagnostics` reads it);
 * - get_context's model steps: an OpenAI-compatible endpoint (`--model-url`), the judge mode, the
 *   verdict cache, and the background model work when there is an endpoint.
 *
 *   const services = startServices(options, { meaning: 'serve', log: logToStderr, callLog: true });
 */
import { existsSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { userConfigPath } from '../config/userConfig';
import { engineGlobsFrom } from '../config/workspaceConfig';
import { ActivityLog } from '../library/activity/activityLog';
import {
  sha256Hex,
  type EmbeddingSettings,
  Engine,
  InputError,
  UnavailableError,
  type WorkspaceFolder,
} from '../engine';
import { startBackgroundModels } from '../library/context/background';
import { prepareLibraryOnChange } from '../library/context/preparedLibrary';
import { checkNotesFolder, PrivateNotes } from '../library/context/privateNotes';
import { checkSetting, SETTING_SPECS } from '../../../shared/settings';
import { settleForInstructions } from '../library/view/pinned';
import type { ModelProvider } from '../library/models/modelProvider';
import { OpenAiModelProvider } from '../library/models/openAiProvider';
import { VerdictCache } from '../library/models/verdictCache';
import { serveStdio } from '../mcp/stdio';
import { createServices, type ServiceParts, type Services } from '../services/services';
import { parseCommandLine, UsageError, type CliOptions } from './args';
import { commandUsage, findCommand, usage } from './commands';
import { cliSettings } from './hostConfig';
import { watchWorkspace } from './watchWorkspace';

export const VERSION = '0.1.0';

/**
 * How a command uses meaning: `none` never creates an embedder (graph, expand, toc, section,
 * page, file, diagnostics: nothing there ranks by meaning); `one-shot` uses the vectors the cache
 * holds and embeds nothing in the background (ask, context, search, try, index); `serve` embeds
 * in the background as files change (mcp, serve).
 */
export type MeaningUse = 'none' | 'one-shot' | 'serve';

export interface StartOptions {
  meaning: MeaningUse;
  /** The engine's diagnostics (stderr for long-running hosts); none by default. */
  log?: (message: string) => void;
  /** Keep the call log in the cache folder (library and tool commands, the MCP servers). */
  callLog?: boolean;
  /**
   * Whose connections the tools answer: `own` (default: the CLI's commands, `wsctx mcp` over
   * stdio, all the user's) or `shared` (`wsctx serve`: anyone holding the token), which never
   * gets private notes.
   */
  connections?: 'own' | 'shared';
  /** The folders to serve, when not all of `--workspace`'s (`serve --config`: a token's folders). */
  folders?: readonly WorkspaceFolder[];
}

/** The services for this command line: the engine and everything its tools use, built once. */
export function startServices(options: CliOptions, start: StartOptions): Services<Engine> {
  const dir = cacheDir(options);
  const engine = new Engine({
    folders: start.folders ?? workspaceFolders(options.workspaces),
    log: start.log,
    cacheDir: dir,
    settings: engineGlobsFrom(cliSettings(options)),
    embeddings: start.meaning === 'none' ? { provider: 'off' } : embeddingSettings(options),
    embedInBackground: start.meaning === 'serve',
    vectorBackend: cliSettings(options).vectorIndex,
  });
  const activity = start.callLog ? openActivityLog(engine, dir, logToStderr) : undefined;
  const models = contextModels(engine, options, dir);
  const services = createServices({ activity, ...models.parts, ...userParts(engine, options, start), engine });
  modelWork.set(services, models.abandon);
  // A server builds each new state's library view, flags, context index and ranking tables before
  // a call needs them; a one-shot command answers one question and leaves.
  if (start.meaning === 'serve') prepareLibraryOnChange(engine, services.now, { log: start.log });
  return services;
}

/** How to give up the model work of services built here: the background runs, and every call in flight. */
const modelWork = new WeakMap<Services, () => void>();

/**
 * Gives up the model calls of `services` (built by {@link startServices}): the background work
 * stops and every request in flight or queued is abandoned. A one-shot command calls it once its
 * answer is made: the process then exits at once, whatever a slow model is still doing.
 */
export function abandonModelWork(services: Services): void {
  modelWork.get(services)?.();
}

/**
 * The user's own parts of get_context: the private notes folder (`--private-notes`, else
 * `privateNotes.folder` of the user's own configuration file, config/userConfig.ts; never the
 * workspace's, config/trust.ts; `~/` is the home folder), refused inside the workspace, and the
 * organisation name (`--organization`, else `organization`). Every connection of a CLI command or
 * of stdio MCP is the user's own; `serve` shares its connections, so it takes no notes (the flag
 * is refused, the file's key is skipped with a line on stderr).
 */
function userParts(engine: Engine, options: CliOptions, start: StartOptions): Partial<ServiceParts> {
  const settings = cliSettings(options);
  const parts: { organization?: string; privateNotes?: PrivateNotes } = {};
  if (options.organization !== undefined) {
    const checked = checkSetting(ORGANIZATION_SPEC, options.organization);
    if (!checked.ok || checked.value === '')
      throw new UsageError(`--organization: ${checked.ok ? 'expected a name' : checked.error}`);
    parts.organization = checked.value as string;
  } else if (settings.organization !== '') {
    parts.organization = settings.organization;
  }
  const given = options.privateNotes;
  const configured = settings.privateNotes.folder;
  if (given === undefined && configured === '') return parts;
  if (start.connections === 'shared') {
    if (given !== undefined)
      throw new UsageError(
        '--private-notes: wsctx serve answers anyone who holds its token, and private notes go only to your own connections (wsctx mcp, context, the editor)',
      );
    logToStderr(
      `wsctx: privateNotes.folder of ${userConfigPath()} is not used by serve: its connections are not only yours`,
    );
    return parts;
  }
  const dir =
    given !== undefined
      ? path.resolve(expandHome(given))
      : path.resolve(engine.folders[0].absPath, expandHome(configured));
  const field = given !== undefined ? '--private-notes' : `privateNotes.folder (${userConfigPath()})`;
  const folder = checkNotesFolder(
    dir,
    engine.folders.map((f) => f.absPath),
    field,
  );
  parts.privateNotes = new PrivateNotes({ dir: folder, isOwnConnection: () => true });
  return parts;
}

const ORGANIZATION_SPEC = SETTING_SPECS.find((s) => s.key === 'organization')!;

function expandHome(p: string): string {
  return p === '~' ? os.homedir() : p.startsWith('~/') ? path.join(os.homedir(), p.slice(2)) : p;
}

/**
 * get_context's model steps: an OpenAI-compatible chat endpoint when `--model-url` (or
 * $WSCTX_MODEL_URL) is given, else none (every step uses its heuristic); the judge mode; and the
 * verdict cache beside the call log, so remembered verdicts survive restarts. With an endpoint
 * the background model work starts too, and its stores join the services.
 */
function contextModels(
  engine: Engine,
  options: CliOptions,
  dir: string | undefined,
): { parts: Partial<ServiceParts>; abandon: () => void } {
  const judge = options.judge ?? process.env.WSCTX_JUDGE ?? cliSettings(options).judge.mode;
  if (judge !== 'off' && judge !== 'shadow' && judge !== 'gate')
    throw new UsageError(`--judge must be off, shadow or gate (got "${judge}")`);
  const baseUrl = options.modelUrl ?? process.env.WSCTX_MODEL_URL;
  const parts: Partial<ServiceParts> = {
    judgeMode: judge,
    ...(dir
      ? { verdicts: new VerdictCache({ file: path.join(activityDir(dir, engine.folders), 'verdicts.json') }) }
      : {}),
  };
  if (!baseUrl) return { parts, abandon: () => undefined };
  const models: ModelProvider = new OpenAiModelProvider({
    baseUrl,
    model: options.model ?? process.env.WSCTX_MODEL ?? 'gpt-4o-mini',
    apiKey: process.env.WSCTX_MODEL_API_KEY,
  });
  // Every answer the background asks for is kept by content digest beside the call log, so the
  // next run asks the model nothing about pages that have not changed.
  const kept = (name: string) => (dir ? path.join(activityDir(dir, engine.folders), name) : undefined);
  const background = startBackgroundModels(engine, {
    provider: () => models,
    enrichmentFile: kept('enrichment.json'),
    linksFile: kept('inferred-links.json'),
    conflictsFile: kept('model-conflicts.json'),
    log: logToStderr,
  });
  const abandon = () => {
    background.stop();
    models.abandon?.();
  };
  return {
    parts: {
      ...parts,
      models,
      notes: background.enrichment,
      inferredLinks: background.links,
      conflictCheck: background.conflicts,
    },
    abandon,
  };
}

/** The call log's directory for these folders inside `cacheDir`. */
export function activityDir(cacheDir: string, folders: readonly WorkspaceFolder[]): string {
  const key = sha256Hex(folders.map((f) => `${f.name}\u0000${f.absPath}`).join('\n')).slice(0, 16);
  return path.join(path.resolve(cacheDir), `activity-${key}`);
}

/**
 * The call log of `engine`'s folders in `cacheDir`: `<cache dir>/activity-<key>/`, beside the
 * index snapshot, with the same key (a digest of the served folders), so each workspace has its
 * own log. Undefined without a cache dir (`--no-cache`), or when it lies inside a served folder
 * (said through `log`): nothing we do may write into the workspace.
 */
export function openActivityLog(
  engine: Engine,
  cacheDir: string | undefined,
  log?: (message: string) => void,
): ActivityLog | undefined {
  if (cacheDir === undefined) return undefined;
  try {
    return ActivityLog.outsideWorkspace(
      activityDir(cacheDir, engine.folders),
      engine.folders.map((f) => f.absPath),
      {
        onError: (error) => log?.(`[activity] could not write the call log: ${error.message}`),
      },
    );
  } catch (error) {
    log?.(`[activity] not logging tool calls: ${(error as Error).message}`);
    return undefined;
  }
}

/** Embeddings from `--embeddings*` flags, else $WSCTX_EMBEDDINGS, else `.wsctx.yaml`; the local model by default. */
export function embeddingSettings(
  options: CliOptions,
  configured = cliSettings(options).embeddings,
): Partial<EmbeddingSettings> {
  const provider = options.embeddings ?? process.env.WSCTX_EMBEDDINGS ?? configured.provider;
  if (provider !== 'local' && provider !== 'openai' && provider !== 'off') {
    throw new UsageError(`--embeddings must be off, local or openai (got "${provider}")`);
  }
  if (provider === 'local') {
    const model = options.embeddingsModel ?? configured.localModel;
    if (model !== 'minilm' && model !== 'use-lite')
      throw new UsageError(`--embeddings-model for local must be minilm or use-lite (got "${model}")`);
    return { provider, localModel: model };
  }
  if (provider === 'openai') {
    return {
      provider,
      baseUrl: options.embeddingsUrl ?? configured.baseUrl,
      model: options.embeddingsModel ?? configured.model,
      apiKey: process.env.WSCTX_EMBEDDINGS_API_KEY,
    };
  }
  return { provider };
}

/**
 * Where the index snapshot lives: `--cache-dir`, else $WSCTX_CACHE_DIR, else the user's cache
 * folder ($XDG_CACHE_HOME/wsctx or ~/.cache/wsctx). `--no-cache` turns snapshots off. Never
 * inside the workspace: the tool does not write to what it reads.
 */
export function cacheDir(options: CliOptions): string | undefined {
  if (options.noCache) return undefined;
  if (options.cacheDir) return path.resolve(options.cacheDir);
  if (process.env.WSCTX_CACHE_DIR) return path.resolve(process.env.WSCTX_CACHE_DIR);
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'wsctx');
}

/** Folders from `--workspace` arguments; names are the directory names, made unique. */
export function workspaceFolders(dirs: readonly string[]): WorkspaceFolder[] {
  const folders: WorkspaceFolder[] = [];
  for (const dir of dirs) {
    const absPath = path.resolve(dir);
    if (!existsSync(absPath) || !statSync(absPath).isDirectory())
      throw new UsageError(`--workspace ${dir}: not a directory`);
    let name = path.basename(absPath) || absPath;
    for (let n = 2; folders.some((f) => f.name === name); n++) name = `${path.basename(absPath)}-${n}`;
    folders.push({ name, absPath });
  }
  return folders;
}

/**
 * The stdio MCP server until the client disconnects: `wsctx mcp` and dist/mcp.js. Indexing starts
 * at once; the server waits briefly so its instructions can carry the pinned documents; files are
 * watched; the snapshot is saved on the way out.
 */
/** Serves services already built (a store's engine, `wsctx mcp --store`) over stdio MCP until the client leaves. */
export function serveStdioMcp(services: Services): Promise<void> {
  return serveStdio(services, logToStderr);
}

export async function runStdioMcp(options: CliOptions): Promise<number> {
  const services = startServices(options, { meaning: 'serve', log: logToStderr, callLog: true });
  const { engine } = services;
  // Watched before the first pass can ask git anything: a warm start asks git while it loads the
  // snapshot, and a change after git's look reaches the pass only as a file event
  // (docs/ARCHITECTURE.md, "Warm start").
  const unwatch = watchWorkspace(engine, logToStderr);
  await settleForInstructions(engine);
  await serveStdio(services, logToStderr);
  unwatch();
  await engine.saveSnapshot();
  engine.dispose();
  return 0;
}

/** The command line's exit codes (docs/cli.md, "Exit codes"). */
export const EXIT = {
  ok: 0,
  /** Bad input (usage, a refused argument, a bad file), or a command's own "no" (a failed check). */
  badInput: 1,
  /** A backend the command needs is unavailable: a store that cannot be reached, a cache that cannot be written. */
  unavailable: 2,
  /** A fault of ours. */
  internal: 3,
} as const;

/**
 * A command-line host's main: parses `argv`, answers `--version` and `--help`, runs the command
 * and maps failures to exit codes (docs/cli.md, "Exit codes"): 0 ok, 1 bad input (usage, unknown
 * entity, refused depth...; a command's own "no": a failed check), 2 a backend unavailable (a
 * store that cannot be reached, a cache that cannot be written), 3 internal error. Errors go to
 * stderr as `wsctx: ...`.
 */
export async function hostMain(
  argv: string[],
  run: (command: string, positionals: string[], options: CliOptions) => Promise<number>,
): Promise<number> {
  // Everything this process writes is its cache (snapshots, vectors, the call log, which holds
  // the questions asked): folders 0700 and files 0600, so other users of the machine read none.
  process.umask(0o077);
  try {
    const { command, positionals, options } = parseCommandLine(argv);
    if (options.version) return print(VERSION);
    const width = helpColumns();
    // `wsctx help ask` as well as `wsctx ask --help`.
    const helpFor = command === 'help' ? positionals[0] : options.help ? command : undefined;
    if (helpFor !== undefined) {
      const known = findCommand(helpFor);
      if (!known) throw new UsageError(`unknown command "${helpFor}" (wsctx --help lists the commands)`);
      return print(commandUsage(known, width));
    }
    if (options.help || !command || command === 'help') return print(usage(width));
    if (!findCommand(command)) throw new UsageError(`unknown command "${command}" (wsctx --help lists the commands)`);
    return await run(command, positionals, options);
  } catch (error) {
    if (error instanceof UsageError || error instanceof InputError) {
      process.stderr.write(`wsctx: ${error.message}\n`);
      return EXIT.badInput;
    }
    if (error instanceof UnavailableError) {
      process.stderr.write(`wsctx: ${error.message}\n`);
      return EXIT.unavailable;
    }
    process.stderr.write(`wsctx: internal error: ${(error as Error).stack ?? error}\n`);
    return EXIT.internal;
  }
}

/** The width help text is wrapped to: $COLUMNS, between 60 and 120 (default 100). */
function helpColumns(): number {
  const columns = Number(process.env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? Math.max(60, Math.min(120, columns)) : 100;
}

export function print(text: string): number {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  return 0;
}

export function logToStderr(message: string): void {
  process.stderr.write(`${message}\n`);
}
