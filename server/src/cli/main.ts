/**
 * `wsctx`: the command line. One-shot commands wait for the index instead of answering cold;
 * `mcp` and `serve` keep the engine running and serve the tools to agents.
 *
 * Exit codes: 0 ok, 1 bad input (usage, unknown entity, refused depth...), 2 internal error.
 * Results go to stdout, errors and logs to stderr.
 */
import { type Engine, InputError } from '../engine';
import { createServices } from '../services/services';
import type { Services } from '../services/services';
import { callTool } from '../tools/callTool';
import { findTool } from '../tools/registry';
import type { ContextOutput } from '../tools/workspaceContext';
import type { ExpandOutput } from '../tools/workspaceExpand';
import { UsageError, type CliOptions } from '../startup/args';
import { inCliTerms } from './cliTerms';
import { MovingRate } from './progress';
import { findCommand } from '../startup/commands';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { EXPECTATIONS_FILE, parseExpectations } from '../engine';
import { renderCheckReport, runExpectations } from '../tools/expectationsCheck';
import { cliSettings, layeredCliSettings } from '../startup/hostConfig';
import { engineGlobsFrom } from '../config/workspaceConfig';
import {
  abandonModelWork,
  cacheDir,
  embeddingSettings,
  hostMain,
  logToStderr,
  print,
  runStdioMcp,
  serveStdioMcp,
  startServices,
  workspaceFolders,
  type MeaningUse,
} from '../startup/startup';
import { renderAskTable } from './commands/askCommand';
import { contextCommand } from './commands/contextCommand';
import { diagnosticsCommand } from './commands/diagnosticsCommand';
import { renderDoctor, runDoctor } from './commands/doctorCommand';
import { fileCommand } from './commands/fileCommand';
import { renderExpandTable } from './commands/expandCommand';
import { exportGraph, renderDot, renderGraphText } from './commands/graphCommand';
import { renderIndexSummary, runIndex, type IndexSummary } from './commands/indexCommand';
import { pageCommand } from './commands/pageCommand';
import { searchCommand } from './commands/searchCommand';
import { sectionCommand } from './commands/sectionCommand';
import { tocCommand } from './commands/tocCommand';
import { tryCommand } from './commands/tryCommand';
import {
  indexIntoStore,
  openStoreEngine,
  renderStoreIndexSummary,
  STORE_COMMANDS,
  storeModeOf,
  type StoreEngine,
} from './commands/storeCommand';
import { serveMemory, serveStore, serverConfigOf } from './commands/serveCommand';

export function main(argv: string[]): Promise<number> {
  return hostMain(argv, runInCliTerms);
}

/** Runs a command; a tool's refusal is reworded in the command line's terms (cliTerms.ts). */
async function runInCliTerms(command: string, positionals: string[], options: CliOptions): Promise<number> {
  try {
    return await run(command, positionals, options);
  } catch (error) {
    if (error instanceof InputError) throw new InputError(inCliTerms(error.message, command));
    throw error;
  }
}

/** The words after the command, as one text; refused when there are none (or only spaces). */
function text(positionals: string[], command: string, what: string, example: string): string {
  const joined = positionals.join(' ').trim();
  if (joined === '')
    throw new UsageError(
      `${command} takes ${what}${positionals.length ? ' (got an empty one)' : ''}, e.g. wsctx ${command} "${example}"`,
    );
  return joined;
}

async function run(command: string, positionals: string[], options: CliOptions): Promise<number> {
  if (options.store !== undefined) return runWithStore(command, positionals, options);
  if (options.storeMode !== undefined || options.maxMemory !== undefined)
    throw new UsageError(
      `${options.storeMode !== undefined ? '--store-mode' : '--max-memory'}: only with --store (how a PostgreSQL store is read)`,
    );
  switch (command) {
    case 'index': {
      const { engine } = startServices(options, { meaning: 'one-shot' });
      const summary = await runIndex(engine);
      await embedWithProgress(engine, summary);
      await engine.saveSnapshot();
      print(
        options.json ? JSON.stringify(summary, null, 2) : renderIndexSummary(summary, { verbose: options.verbose }),
      );
      // `index` exists to leave a warm index behind: a snapshot that could not be written fails it.
      if (engine.snapshotError) {
        process.stderr.write(`wsctx: ${engine.snapshotError}\n`);
        return 2;
      }
      return 0;
    }
    case 'ask': {
      const question = text(positionals, 'ask', 'a question', 'who owns billing-worker?');
      return runTool(
        options,
        'workspace_context',
        // Every served folder unless --in names one (the tool's `workspace`).
        {
          workspace: options.in ?? ALL_FOLDERS,
          question,
          limit: options.limit ?? cliSettings(options).budgets.contextPassages,
          asOf: options.asOf,
          sourceKinds: options.sourceKinds,
        },
        (output) => renderAskTable(output as ContextOutput, { why: options.why, columns: terminalColumns() }),
        'one-shot',
      );
    }
    case 'why-not': {
      const question = text(positionals, 'why-not', 'a question', 'how do I roll back billing-worker?');
      if (!options.expect?.trim())
        throw new UsageError(
          'why-not needs --expect PAGE: the page, section id or entity ref you expected, e.g. wsctx why-not "how do I roll back billing-worker?" --expect docs/rollback.md',
        );
      if (options.task) {
        if (options.limit !== undefined || options.sourceKinds !== undefined)
          throw new UsageError(
            "--limit and --source-kinds are ask's: with --task give context's --max-tokens, --pack, --tags, --folder",
          );
        return runTool(
          options,
          'explain_result',
          {
            workspace: options.in ?? ALL_FOLDERS,
            task: question,
            expected: options.expect,
            max_tokens: options.maxTokens,
            pack: options.pack,
            tags: options.tags,
            folder: options.folder,
          },
          undefined,
          'one-shot',
        );
      }
      if (
        options.maxTokens !== undefined ||
        options.pack !== undefined ||
        options.tags !== undefined ||
        options.folder !== undefined
      )
        throw new UsageError(
          "--max-tokens, --pack, --tags and --folder are context's: add --task to explain a get_context task",
        );
      return runTool(
        options,
        'explain_result',
        {
          workspace: options.in ?? ALL_FOLDERS,
          question,
          expected: options.expect,
          limit: options.limit,
          sourceKinds: options.sourceKinds,
        },
        undefined,
        'one-shot',
      );
    }
    case 'check':
      return checkCommand(options, positionals);
    case 'expand': {
      const ref = single(positionals, 'expand', '<entity-ref>');
      return runTool(
        options,
        'workspace_expand',
        {
          entityRef: ref,
          depth: options.depth,
          direction: options.direction,
          edgeTypes: options.edgeTypes,
          limit: options.limit ?? cliSettings(options).budgets.expandEdges,
          asOf: options.asOf,
        },
        (output) => renderExpandTable(output as ExpandOutput, terminalColumns()),
        'none',
      );
    }
    case 'graph': {
      const format = options.format ?? (options.json ? 'json' : 'text');
      if (format !== 'text' && format !== 'json' && format !== 'dot')
        throw new UsageError(`--format must be text, json or dot (got "${format}")`);
      if (options.json && format !== 'json')
        throw new UsageError(`--json and --format ${format}: give one or the other`);
      return oneShot(startServices(options, { meaning: 'none' }), async ({ engine }) => {
        const state = await engine.waitForIndex();
        await engine.saveSnapshot();
        const graph = exportGraph(state);
        if (format === 'dot') return renderDot(graph);
        return format === 'json' ? JSON.stringify(graph, null, 2) : renderGraphText(graph, terminalColumns());
      });
    }
    case 'toc':
      // Its notices name the other tools (get_toc(), search_instructions(plan)): here, the commands.
      return oneShot(libraryServices(options, 'none'), async (services) => {
        const toc = await tocCommand(
          services,
          { query: positionals.join(' ') || undefined, document: options.document, namespace: options.namespace },
          options,
        );
        return options.json ? toc : inCliTerms(toc, 'toc');
      });
    case 'section':
      return oneShot(libraryServices(options, 'none'), (services) =>
        sectionCommand(services, single(positionals, 'section', '<id>'), options),
      );
    case 'search': {
      const plan = text(positionals, 'search', 'a plan', 'writing a migration for billing-worker');
      return oneShot(libraryServices(options, 'one-shot'), (services) =>
        searchCommand(services, { plan, profile: options.profile }, options),
      );
    }
    case 'try': {
      const plan = text(positionals, 'try', 'a plan', 'writing a migration for billing-worker');
      return oneShot(startServices(options, { meaning: 'one-shot' }), (services) =>
        tryCommand(
          services,
          { plan, profile: options.profile, namespace: options.namespace, limit: options.limit },
          options,
        ),
      );
    }
    case 'context': {
      const task = text(positionals, 'context', 'a task', 'roll back billing-worker after a failed deploy');
      return oneShot(libraryServices(options, 'one-shot'), (services) =>
        contextCommand(
          services,
          {
            task,
            maxTokens: options.maxTokens ?? cliSettings(options).budgets.getContextMaxTokens,
            pack: options.pack,
            tags: options.tags,
            folder: options.folder,
          },
          options,
        ),
      );
    }
    case 'page':
      return oneShot(libraryServices(options, 'none'), (services) =>
        pageCommand(services, single(positionals, 'page', '<id>'), options),
      );
    case 'file':
      return oneShot(libraryServices(options, 'none'), (services) =>
        fileCommand(services, single(positionals, 'file', '<id>'), options),
      );
    case 'diagnostics':
      return oneShot(libraryServices(options, 'none'), (services) => diagnosticsCommand(services, undefined, options));
    case 'doctor': {
      // A broken .wsctx.yaml is one of doctor's checks, not a reason to skip the others: they
      // run with the values the file got right.
      const { config, user, refused, settings } = layeredCliSettings(options);
      const checks = await runDoctor({
        folders: workspaceFolders(options.workspaces),
        cacheDir: cacheDir(options),
        embeddings: embeddingSettings(options, settings.embeddings),
        config,
        user,
        refused,
        globs: engineGlobsFrom(settings),
      });
      print(options.json ? JSON.stringify(checks, null, 2) : renderDoctor(checks));
      return checks.some((c) => c.status === 'fail') ? 1 : 0;
    }
    case 'mcp':
      return runStdioMcp(options);
    case 'serve':
      return serveMemory(options);
    default:
      throw new UsageError(`unknown command "${command}" (wsctx --help lists the commands)`);
  }
}

/**
 * The commands a PostgreSQL store serves (`--store URL`): `index` writes there, the others answer
 * from there with the same tools, output and exit codes as without a store.
 */
async function runWithStore(command: string, positionals: string[], options: CliOptions): Promise<number> {
  if (!(STORE_COMMANDS as readonly string[]).includes(command)) {
    throw new UsageError(
      `--store is not supported by ${command}: a store answers ${STORE_COMMANDS.join(', ')}; ${command} reads the workspace itself (leave --store out)`,
    );
  }
  if (command === 'index') {
    if (options.storeMode !== undefined || options.maxMemory !== undefined)
      throw new UsageError(
        `${options.storeMode !== undefined ? '--store-mode' : '--max-memory'}: index writes the store; it is how a reader reads it`,
      );
    const summary = await indexIntoStore(options, workspaceFolders(options.workspaces), cacheDir(options));
    print(options.json ? JSON.stringify(summary, null, 2) : renderStoreIndexSummary(summary));
    // Every folder it could was written; one that could not makes the run fail (exit 2).
    return summary.failed.length > 0 ? 2 : 0;
  }
  if (options.asOf !== undefined)
    throw new UsageError('--as-of cannot be used with --store: a store holds each workspace as it was last indexed');
  // The server's config file first: its `namespaces` say what this reader loads.
  const config = command === 'serve' ? serverConfigOf(options) : undefined;
  if (config?.namespaces && options.workspacesGiven)
    throw new UsageError(`--workspace and ${config.path}: namespaces: give the namespaces to serve one way`);
  const mode = storeModeOf(options, command);
  const opened = await openStoreEngine(options, {
    mode,
    log: command === 'mcp' || command === 'serve' ? logToStderr : undefined,
    ...(config?.namespaces
      ? { namespacePatterns: config.namespaces, namespacePatternsAt: `${config.path}:${config.namespacesLine}` }
      : {}),
  });
  try {
    switch (command) {
      case 'ask': {
        const question = text(positionals, 'ask', 'a question', 'who owns billing-worker?');
        // Every namespace served unless --in names one, as without a store.
        return await callStoreTool(
          opened,
          options,
          'workspace_context',
          {
            workspace: options.in ?? ALL_FOLDERS,
            question,
            limit: options.limit ?? cliSettings(options).budgets.contextPassages,
            sourceKinds: options.sourceKinds,
          },
          (output) => renderAskTable(output as ContextOutput, { why: options.why, columns: terminalColumns() }),
        );
      }
      case 'expand':
        return await callStoreTool(opened, options, 'workspace_expand', {
          entityRef: single(positionals, 'expand', '<entity-ref>'),
          depth: options.depth,
          direction: options.direction,
          edgeTypes: options.edgeTypes,
          limit: options.limit ?? cliSettings(options).budgets.expandEdges,
        });
      case 'toc':
        return print(
          await tocCommand(
            storeServices(opened),
            { query: positionals.join(' ') || undefined, document: options.document, namespace: options.namespace },
            options,
          ),
        );
      case 'section':
        return print(await sectionCommand(storeServices(opened), single(positionals, 'section', '<id>'), options));
      case 'search':
        return print(
          await searchCommand(
            storeServices(opened),
            {
              plan: text(positionals, 'search', 'a plan', 'writing a migration for billing-worker'),
              profile: options.profile,
            },
            options,
          ),
        );
      case 'context':
        return print(
          await contextCommand(
            storeServices(opened),
            {
              task: text(positionals, 'context', 'a task', 'roll back billing-worker after a failed deploy'),
              maxTokens: options.maxTokens ?? cliSettings(options).budgets.getContextMaxTokens,
              pack: options.pack,
              tags: options.tags,
              folder: options.folder,
            },
            options,
          ),
        );
      case 'page':
        return print(await pageCommand(storeServices(opened), single(positionals, 'page', '<id>'), options));
      case 'file':
        return print(await fileCommand(storeServices(opened), single(positionals, 'file', '<id>'), options));
      case 'mcp':
        await serveStdioMcp(createServices({ engine: opened.engine }));
        return 0;
      default:
        return await serveStore(opened, options, config);
    }
  } finally {
    await opened.close();
  }
}

/** The services of a library command over the store (one namespace's library: tools/queryState.ts). */
function storeServices(opened: StoreEngine): Services {
  return createServices({ engine: opened.engine });
}

/** One tool call on the store's only (or the named) namespace. */
async function callStoreTool(
  opened: StoreEngine,
  options: CliOptions,
  name: string,
  args: Record<string, unknown>,
  render?: (output: Record<string, unknown>) => string,
): Promise<number> {
  if (opened.namespaces.length > 1 && args.workspace !== ALL_FOLDERS && args.workspace === undefined) {
    throw new UsageError(
      `the store holds ${opened.namespaces.map((n) => n.name).join(', ')}: name the one to ask with --workspace`,
    );
  }
  const tool = findTool(name)!;
  const withWorkspace: Record<string, unknown> = { workspace: opened.namespaces[0].name, ...args };
  const input = Object.fromEntries(
    Object.entries(withWorkspace).filter(([, v]) => v !== undefined && v !== ALL_FOLDERS),
  );
  const output = await callTool(createServices({ engine: opened.engine }), tool, input, { sessionId: 'cli' });
  return print(options.json ? JSON.stringify(output, null, 2) : (render ?? tool.renderText)(output));
}

/** Calls a tool from the shared table on a complete index and prints its text or JSON. */
/** A `workspace` argument meaning "leave it out": the tool answers from every served folder. */
const ALL_FOLDERS = Symbol('every served folder');

async function runTool(
  options: CliOptions,
  name: string,
  args: Record<string, unknown>,
  render?: (output: Record<string, unknown>) => string,
  meaning: MeaningUse = 'one-shot',
): Promise<number> {
  const services = libraryServices(options, meaning);
  const { engine } = services;
  await engine.waitForIndex();
  const tool = findTool(name)!;
  // A tool's workspace defaults to the first served folder; ALL_FOLDERS leaves it out.
  const withWorkspace: Record<string, unknown> = { workspace: engine.folders[0].name, ...args };
  const input = Object.fromEntries(
    Object.entries(withWorkspace).filter(([, v]) => v !== undefined && v !== ALL_FOLDERS),
  );
  const output = await callTool(services, tool, input, { sessionId: 'cli' });
  await engine.saveSnapshot();
  print(options.json ? JSON.stringify(output, null, 2) : (render ?? tool.renderText)(output));
  return finishOneShot(services);
}

/**
 * `wsctx check`: the expectations file against a complete index; exit 1 when a check fails or
 * the file has a problem (each named with its line and field), 0 when all pass.
 */
async function checkCommand(options: CliOptions, positionals: string[]): Promise<number> {
  if (positionals.length > 1)
    throw new UsageError(
      `check takes at most one file (got ${positionals.length}), e.g. wsctx check .wsctx/expectations.yaml`,
    );
  const folder = workspaceFolders(options.workspaces)[0];
  const file = positionals[0] ? path.resolve(positionals[0]) : path.join(folder.absPath, EXPECTATIONS_FILE);
  if (!existsSync(file))
    throw new UsageError(
      `no expectations file at ${file}: write one (docs/cli.md, "wsctx check", shows the format) or name it: wsctx check FILE`,
    );
  // Named as the user would type it from here; a file outside the current folder by its absolute path.
  const relative = path.relative(process.cwd(), file);
  const parsed = parseExpectations(
    relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file,
    readFileSync(file, 'utf8'),
  );
  const services = libraryServices(options, 'one-shot');
  let failed = 0;
  try {
    await services.engine.waitForIndex();
    const report = await runExpectations(services, parsed);
    failed = report.failed;
    print(options.json ? JSON.stringify(report, null, 2) : renderCheckReport(report));
  } finally {
    finishOneShot(services);
  }
  return failed > 0 || parsed.problems.length > 0 || parsed.expectations.length === 0 ? 1 : 0;
}

/** Runs a one-shot command, prints its output, then says what meaning it lacked (see `finishOneShot`). */
async function oneShot(
  services: Services<Engine>,
  command: (services: Services<Engine>) => Promise<string>,
): Promise<number> {
  try {
    print(await command(services));
  } catch (error) {
    abandonModelWork(services);
    throw error;
  }
  return finishOneShot(services);
}

/**
 * After a one-shot answer: abandons the model calls still pending (the background work, a slow
 * judge: nobody will read their answers), says on stderr when sections had no vectors with how
 * long `wsctx index` would take to embed them, and stops the engine so the process exits now.
 */
function finishOneShot(services: Services<Engine>): number {
  abandonModelWork(services);
  const { engine } = services;
  const meaning = engine.status().meaning;
  if (meaning && meaning.sectionsPending > 0) {
    const total = meaning.sectionsPending + meaning.sectionsWithVectors;
    process.stderr.write(
      `wsctx: ${meaning.sectionsPending} of ${total} sections have no vectors yet, so this answer ranked them on words alone; run 'wsctx index' to embed them (${embeddingEstimate(meaning.sectionsPending, meaning.expectedSectionsPerSecond)}).\n`,
    );
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

/** Services whose tool calls are logged in the cache dir (`wsctx diagnostics` reads them). */
function libraryServices(options: CliOptions, meaning: MeaningUse): Services<Engine> {
  return startServices(options, { meaning, callLog: true });
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
  const rate = new MovingRate();
  const unsubscribe = engine.onDidChangeMeaning(() => {
    const progress = engine.status().meaning?.embedding;
    if (!progress) return;
    const now = performance.now();
    rate.add(now, progress.done);
    if (now - last < (tty ? 250 : 2000)) return;
    last = now;
    const bar = progressBar(progress.done / Math.max(1, progress.total));
    const perSecond = rate.perSecond(now - started, progress.done, progress.total);
    const estimate =
      perSecond === null
        ? ''
        : `, ${perSecond.toFixed(0)} sections/s, about ${formatDuration((progress.total - progress.done) / perSecond)} left`;
    process.stderr.write(
      `${tty ? '\r\x1b[K' : ''}embedding ${bar} ${progress.done}/${progress.total} sections${estimate}${tty ? '' : '\n'}`,
    );
  });
  await engine.embedPendingMeaning();
  unsubscribe();
  const status = engine.status().meaning!;
  if (tty) process.stderr.write('\n');
  summary.meaning = {
    model: status.model,
    runtime: status.runtime,
    backend: status.backend,
    sectionsWithVectors: status.sectionsWithVectors,
    seconds: (performance.now() - started) / 1000,
    error: status.lastError,
  };
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
  if (positionals.length !== 1)
    throw new UsageError(
      `${command} takes exactly one ${what}${positionals.length ? ` (got ${positionals.length})` : ''}, e.g. ${findCommand(command)?.examples[0] ?? `wsctx ${command} ${what}`}`,
    );
  return positionals[0];
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
