/**
 * `wsctx`: the command line. One-shot commands wait for the index instead of answering cold;
 * `mcp` and `serve` keep the engine running and serve the tools to agents.
 *
 * Exit codes: 0 ok, 1 bad input (usage, unknown entity, refused depth...), 2 internal error.
 * Results go to stdout, errors and logs to stderr.
 */
import { engineGlobsFrom } from '../config/workspaceConfig';
import { cliSettings, layeredCliSettings } from './hostConfig';
import { existsSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EmbeddingSettings } from '../engine/embeddings/embedder';
import { Engine } from '../engine/engine';
import { InputError } from '../engine/errors';
import type { WorkspaceFolder } from '../engine/indexState';
import { checkToken, startHttpMcpServer } from '../mcp/http';
import { serveStdio } from '../mcp/stdio';
import { callTool } from '../tools/callTool';
import { findTool } from '../tools/registry';
import { parseCommandLine, USAGE, UsageError, type CliOptions } from './args';
import type { ContextOutput } from '../tools/workspaceContext';
import type { ExpandOutput } from '../tools/workspaceExpand';
import { renderAskTable } from './commands/askCommand';
import { renderExpandTable } from './commands/expandCommand';
import { exportGraph, renderDot } from './commands/graphCommand';
import { renderIndexSummary, runIndex, type IndexSummary } from './commands/indexCommand';
import { watchWorkspace } from './watchWorkspace';
import { settleForInstructions } from '../engine/library/pinned';
import { activityDir, diagnosticsCommand, useActivityLog } from './commands/diagnosticsCommand';
import { contextCommand } from './commands/contextCommand';
import { fileCommand } from './commands/fileCommand';
import { pageCommand } from './commands/pageCommand';
import { startBackgroundModels } from '../engine/context/background';
import { contextHooks, setContextHooks } from '../engine/context/hooks';
import { OpenAiModelProvider } from '../engine/models/openAiProvider';
import { VerdictCache } from '../engine/models/verdictCache';
import { searchCommand } from './commands/searchCommand';
import { sectionCommand } from './commands/sectionCommand';
import { tocCommand } from './commands/tocCommand';
import { tryCommand } from './commands/tryCommand';
import { renderDoctor, runDoctor } from './commands/doctorCommand';

const VERSION = '0.1.0';

export async function main(argv: string[]): Promise<number> {
  try {
    const { command, positionals, options } = parseCommandLine(argv);
    if (options.version) return print(VERSION);
    if (options.help || !command || command === 'help') return print(USAGE);
    return await run(command, positionals, options);
  } catch (error) {
    if (error instanceof UsageError || error instanceof InputError) {
      process.stderr.write(`wsctx: ${error.message}\n`);
      if (error instanceof UsageError) process.stderr.write(`Run 'wsctx --help' for usage.\n`);
      return 1;
    }
    process.stderr.write(`wsctx: internal error: ${(error as Error).stack ?? error}\n`);
    return 2;
  }
}

async function run(command: string, positionals: string[], options: CliOptions): Promise<number> {
  switch (command) {
    case 'index': {
      const engine = createEngine(options, undefined, 'one-shot');
      const summary = await runIndex(engine);
      await embedWithProgress(engine, summary);
      await engine.saveSnapshot();
      print(options.json ? JSON.stringify(summary, null, 2) : renderIndexSummary(summary));
      // `index` exists to leave a warm index behind: a snapshot that could not be written fails it.
      if (engine.snapshotError) {
        process.stderr.write(`wsctx: ${engine.snapshotError}\n`);
        return 2;
      }
      return 0;
    }
    case 'ask': {
      if (positionals.length === 0) throw new UsageError('ask takes a question, e.g. wsctx ask "who owns billing-worker?"');
      return runTool(
        options,
        'workspace_context',
        { question: positionals.join(' '), limit: options.limit ?? cliSettings(options).budgets.contextPassages, asOf: options.asOf, sourceKinds: options.sourceKinds },
        (output) => renderAskTable(output as ContextOutput, { why: options.why, columns: terminalColumns() }),
        'one-shot',
      );
    }
    case 'expand': {
      const ref = single(positionals, 'expand', '<entity-ref>');
      return runTool(options, 'workspace_expand', {
        entityRef: ref,
        depth: options.depth,
        direction: options.direction,
        edgeTypes: options.edgeTypes,
        limit: options.limit ?? cliSettings(options).budgets.expandEdges,
        asOf: options.asOf,
      }, (output) => renderExpandTable(output as ExpandOutput, terminalColumns()), 'none');
    }
    case 'graph': {
      const format = options.format ?? 'json';
      if (format !== 'json' && format !== 'dot') throw new UsageError(`--format must be json or dot (got "${format}")`);
      const engine = createEngine(options, undefined, 'none');
      const state = await engine.waitForIndex();
      await engine.saveSnapshot();
      const graph = exportGraph(state);
      return print(format === 'dot' ? renderDot(graph) : JSON.stringify(graph, null, 2));
    }
    case 'toc':
      return print(await tocCommand(libraryEngine(options, 'none'), { query: positionals.join(' ') || undefined, document: options.document, namespace: options.namespace }, options));
    case 'section':
      return print(await sectionCommand(libraryEngine(options, 'none'), single(positionals, 'section', '<id>'), options));
    case 'search':
      if (positionals.length === 0) throw new UsageError('search takes a plan, e.g. wsctx search "writing a migration for billing-worker"');
      return oneShotDone(await searchCommand(libraryEngine(options, 'one-shot'), { plan: positionals.join(' '), profile: options.profile }, options));
    case 'try':
      if (positionals.length === 0) throw new UsageError('try takes a plan, e.g. wsctx try "writing a migration for billing-worker"');
      return oneShotDone(await tryCommand(createEngine(options, undefined, 'one-shot'), { plan: positionals.join(' '), profile: options.profile, namespace: options.namespace, limit: options.limit }, options));
    case 'context':
      if (positionals.length === 0) throw new UsageError('context takes a task, e.g. wsctx context "roll back billing-worker after a failed deploy"');
      return oneShotDone(await contextCommand(libraryEngine(options, 'one-shot'), { task: positionals.join(' '), maxTokens: options.maxTokens ?? cliSettings(options).budgets.getContextMaxTokens, pack: options.pack, tags: options.tags, folder: options.folder }, options));
    case 'page':
      return print(await pageCommand(libraryEngine(options, 'none'), single(positionals, 'page', '<id>'), options));
    case 'file':
      return print(await fileCommand(libraryEngine(options, 'none'), single(positionals, 'file', '<id>'), options));
    case 'diagnostics':
      return print(await diagnosticsCommand(libraryEngine(options, 'none'), undefined, options));
    case 'doctor': {
      // A broken .wsctx.yaml is one of doctor's checks, not a reason to skip the others: they
      // run with the values the file got right.
      const { config, settings } = layeredCliSettings(options);
      const checks = await runDoctor({
        folders: workspaceFolders(options.workspaces),
        cacheDir: cacheDir(options),
        embeddings: embeddingSettings(options, settings.embeddings),
        config,
        globs: engineGlobsFrom(settings),
      });
      print(options.json ? JSON.stringify(checks, null, 2) : renderDoctor(checks));
      return checks.some((c) => c.status === 'fail') ? 1 : 0;
    }
    case 'mcp': {
      const engine = createEngine(options, logToStderr);
      useActivityLog(engine, cacheDir(options), logToStderr);
      await settleForInstructions(engine); // start indexing; wait briefly so the instructions can carry the pinned documents
      const unwatch = watchWorkspace(engine, logToStderr);
      await serveStdio(engine, logToStderr);
      unwatch();
      await engine.saveSnapshot();
      engine.dispose();
      return 0;
    }
    case 'serve': {
      if (options.token !== undefined) checkToken(options.token);
      const engine = createEngine(options, logToStderr);
      useActivityLog(engine, cacheDir(options), logToStderr);
      engine.stateForQuery();
      const unwatch = watchWorkspace(engine, logToStderr);
      let server;
      try {
        server = await startHttpMcpServer({ engine, port: options.port, token: options.token, log: logToStderr });
      } catch (error) {
        unwatch();
        engine.dispose();
        throw error;
      }
      process.stderr.write(`wsctx: serving MCP over HTTP\n  url:   ${server.url}\n  token: ${server.token}\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      unwatch();
      await server.close();
      await engine.saveSnapshot();
      engine.dispose();
      return 0;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/** Calls a tool from the shared table on a complete index and prints its text or JSON. */
async function runTool(
  options: CliOptions,
  name: string,
  args: Record<string, unknown>,
  render?: (output: Record<string, unknown>) => string,
  meaning: MeaningUse = 'one-shot',
): Promise<number> {
  const engine = libraryEngine(options, meaning);
  await engine.waitForIndex();
  const tool = findTool(name)!;
  const input = Object.fromEntries(Object.entries({ workspace: engine.folders[0].name, ...args }).filter(([, v]) => v !== undefined));
  const output = await callTool(engine, tool, input, { sessionId: 'cli' });
  await engine.saveSnapshot();
  print(options.json ? JSON.stringify(output, null, 2) : (render ?? tool.renderText)(output));
  return finishOneShot(engine);
}

/**
 * How a command uses meaning: `none` never creates an embedder (graph, expand, toc, section,
 * page, file, diagnostics: nothing there ranks by meaning); `one-shot` uses the vectors the cache
 * holds and embeds nothing in the background (ask, context, search, try, index); `serve` embeds
 * in the background as files change (mcp, serve).
 */
type MeaningUse = 'none' | 'one-shot' | 'serve';

const oneShotEngines: Engine[] = [];

/** Prints a one-shot command's output, then says what meaning it lacked (see `finishOneShot`). */
function oneShotDone(text: string): number {
  print(text);
  const engine = oneShotEngines[oneShotEngines.length - 1];
  return engine ? finishOneShot(engine) : 0;
}

/**
 * After a one-shot answer: when sections had no vectors, says so on stderr with how long
 * `wsctx index` would take to embed them, and stops the engine so the process exits now.
 */
function finishOneShot(engine: Engine): number {
  const meaning = engine.status().meaning;
  if (meaning && meaning.sectionsPending > 0) {
    const total = meaning.sectionsPending + meaning.sectionsWithVectors;
    process.stderr.write(`wsctx: ${meaning.sectionsPending} of ${total} sections have no vectors yet, so this answer ranked them on words alone; run 'wsctx index' to embed them (${embeddingEstimate(meaning.sectionsPending, meaning.expectedSectionsPerSecond)}).\n`);
  }
  engine.dispose();
  return 0;
}

/** "about 2 min at ~50 sections/s here" at the rate the embedder expects, or says it cannot tell. */
function embeddingEstimate(sections: number, perSecond: number | null): string {
  if (!perSecond) return 'time unknown for this embedder';
  return `about ${formatDuration(sections / perSecond)} at ~${Math.round(perSecond)} sections/s here`;
}

function formatDuration(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/** An engine whose tool calls are logged in the cache dir (`wsctx diagnostics` reads them). */
function libraryEngine(options: CliOptions, meaning: MeaningUse): Engine {
  const engine = createEngine(options, undefined, meaning);
  useActivityLog(engine, cacheDir(options), logToStderr);
  return engine;
}

/**
 * get_context's model steps: an OpenAI-compatible chat endpoint when `--model-url` (or
 * $WSCTX_MODEL_URL) is given, else none (every step uses its heuristic); the judge mode; and the
 * verdict cache beside the call log, so remembered verdicts survive restarts.
 */
function useContextModels(engine: Engine, options: CliOptions): void {
  const judge = options.judge ?? process.env.WSCTX_JUDGE ?? cliSettings(options).judge.mode;
  if (judge !== 'off' && judge !== 'shadow' && judge !== 'gate') throw new UsageError(`--judge must be off, shadow or gate (got "${judge}")`);
  const baseUrl = options.modelUrl ?? process.env.WSCTX_MODEL_URL;
  const dir = cacheDir(options);
  setContextHooks(engine, {
    judgeMode: judge,
    ...(dir ? { verdicts: new VerdictCache({ file: path.join(activityDir(dir, engine.folders), 'verdicts.json') }) } : {}),
    ...(baseUrl ? { models: new OpenAiModelProvider({ baseUrl, model: options.model ?? process.env.WSCTX_MODEL ?? 'gpt-4o-mini', apiKey: process.env.WSCTX_MODEL_API_KEY }) } : {}),
  });
  if (baseUrl) startBackgroundModels(engine, { provider: () => contextHooks(engine).models, enrichmentFile: dir ? path.join(activityDir(dir, engine.folders), 'enrichment.json') : undefined, log: logToStderr });
}

function createEngine(options: CliOptions, log?: (message: string) => void, meaning: MeaningUse = 'serve'): Engine {
  const embeddings: Partial<EmbeddingSettings> = meaning === 'none' ? { provider: 'off' } : embeddingSettings(options);
  const engine = new Engine({
    folders: workspaceFolders(options.workspaces),
    log,
    cacheDir: cacheDir(options),
    settings: engineGlobsFrom(cliSettings(options)),
    embeddings,
    embedInBackground: meaning === 'serve',
  });
  useContextModels(engine, options);
  if (meaning === 'one-shot') oneShotEngines.push(engine);
  return engine;
}

/** Embeddings from `--embeddings*` flags, else $WSCTX_EMBEDDINGS, else `.wsctx.yaml`; the local model by default. */
function embeddingSettings(options: CliOptions, configured = cliSettings(options).embeddings): Partial<EmbeddingSettings> {
  const provider = options.embeddings ?? process.env.WSCTX_EMBEDDINGS ?? configured.provider;
  if (provider !== 'local' && provider !== 'openai' && provider !== 'off') {
    throw new UsageError(`--embeddings must be off, local or openai (got "${provider}")`);
  }
  if (provider === 'local') {
    const model = options.embeddingsModel ?? configured.localModel;
    if (model !== 'minilm' && model !== 'use-lite') throw new UsageError(`--embeddings-model for local must be minilm or use-lite (got "${model}")`);
    return { provider, localModel: model };
  }
  if (provider === 'openai') {
    return { provider, baseUrl: options.embeddingsUrl ?? configured.baseUrl, model: options.embeddingsModel ?? configured.model, apiKey: process.env.WSCTX_EMBEDDINGS_API_KEY };
  }
  return { provider };
}

/**
 * Where the index snapshot lives: `--cache-dir`, else $WSCTX_CACHE_DIR, else the user's cache
 * folder ($XDG_CACHE_HOME/wsctx or ~/.cache/wsctx). `--no-cache` turns snapshots off. Never
 * inside the workspace: the tool does not write to what it reads.
 */
function cacheDir(options: CliOptions): string | undefined {
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
    if (!existsSync(absPath) || !statSync(absPath).isDirectory()) throw new UsageError(`--workspace ${dir}: not a directory`);
    let name = path.basename(absPath) || absPath;
    for (let n = 2; folders.some((f) => f.name === name); n++) name = `${path.basename(absPath)}-${n}`;
    folders.push({ name, absPath });
  }
  return folders;
}

/**
 * `wsctx index` also embeds what is not embedded yet (later commands rank with whatever vectors
 * exist, and say how many sections still lack one), with progress on stderr.
 */
async function embedWithProgress(engine: Engine, summary: IndexSummary): Promise<void> {
  const first = engine.status().meaning;
  if (!first) return;
  process.stderr.write(`embedding with ${first.model} (${first.runtime ?? 'runtime unknown'})\n`);
  const started = performance.now();
  let last = 0;
  const tty = process.stderr.isTTY;
  const unsubscribe = engine.onDidChangeMeaning(() => {
    const progress = engine.status().meaning?.embedding;
    if (!progress || performance.now() - last < (tty ? 250 : 2000)) return;
    last = performance.now();
    const bar = progressBar(progress.done / Math.max(1, progress.total));
    const rate = progress.sectionsPerSecond === null ? '' : `, ${progress.sectionsPerSecond.toFixed(0)} sections/s`;
    const left = progress.secondsLeft === null ? '' : `, about ${formatDuration(progress.secondsLeft)} left`;
    process.stderr.write(`${tty ? '\r\x1b[K' : ''}embedding ${bar} ${progress.done}/${progress.total} sections${rate}${left}${tty ? '' : '\n'}`);
  });
  await engine.embedPendingMeaning();
  unsubscribe();
  const status = engine.status().meaning!;
  if (tty) process.stderr.write('\n');
  summary.meaning = { model: status.model, runtime: status.runtime, backend: status.backend, sectionsWithVectors: status.sectionsWithVectors, seconds: (performance.now() - started) / 1000, error: status.lastError };
}

function progressBar(fraction: number, width = 24): string {
  const filled = Math.round(Math.max(0, Math.min(1, fraction)) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

/** The width text output fits: $COLUMNS when it is a positive number, else 100. */
function terminalColumns(): number {
  const columns = Number(process.env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : 100;
}

function single(positionals: string[], command: string, what: string): string {
  if (positionals.length !== 1) throw new UsageError(`${command} takes exactly one ${what}${positionals.length ? ` (got ${positionals.length})` : ''}`);
  return positionals[0];
}

function print(text: string): number {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  return 0;
}

function logToStderr(message: string): void {
  process.stderr.write(`${message}\n`);
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`wsctx: internal error: ${(error as Error).stack ?? error}\n`);
      process.exitCode = 2;
    },
  );
}
