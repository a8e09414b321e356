/**
 * Every `wsctx` command, written once: its arguments parsed, its tool called, its output
 * rendered. How the index is opened (in memory, or over a store with `--store`) was chosen before
 * (indexOpening.ts); an entry says only whether a store can serve it at all. The commands whose
 * work differs by where the index is (index writes the store or indexes here; mcp and serve keep
 * the engine running) choose inside their one entry.
 *
 * Arguments are parsed before the index is opened, so a usage error costs no index pass and no
 * connection to the store.
 */
import * as path from 'node:path';
import { engineGlobsFrom } from '../config/workspaceConfig';
import { EXPECTATIONS_FILE, InputError, isWithin, rangeProblem, readExpectationsFile } from '../engine';
import { createServices, type Services } from '../services/services';
import { UsageError, type CliOptions } from '../startup/args';
import { cliSettings, layeredCliSettings } from '../startup/hostConfig';
import {
  cacheDir,
  embeddingSettings,
  EXIT,
  logToStderr,
  print,
  runStdioMcp,
  serveStdioMcp,
  startServices,
  workspaceFolders,
} from '../startup/startup';
import { renderCheckReport, runExpectations } from '../tools/expectationsCheck';
import { type ExplainOutput, renderExplanation } from '../tools/explainResult';
import type { ContextOutput } from '../tools/workspaceContext';
import type { ExpandOutput } from '../tools/workspaceExpand';
import { renderAskTable } from './commands/askCommand';
import { contextCommand, type ContextChange } from './commands/contextCommand';
import { diagnosticsCommand } from './commands/diagnosticsCommand';
import { renderDoctor, runDoctor } from './commands/doctorCommand';
import { fileCommand } from './commands/fileCommand';
import { exportGraph, renderDot, renderGraphText } from './commands/graphCommand';
import { embedWithProgress, renderIndexSummary, runIndex } from './commands/indexCommand';
import { pageCommand } from './commands/pageCommand';
import { searchCommand } from './commands/searchCommand';
import { sectionCommand } from './commands/sectionCommand';
import { serveMemory, serveStore, serverConfigOf } from './commands/serveCommand';
import { indexIntoStore, renderStoreIndexSummary } from './commands/storeCommand';
import { tocCommand } from './commands/tocCommand';
import { tryCommand } from './commands/tryCommand';
import { renderExpandTable } from './commands/expandCommand';
import { ALL_FOLDERS, answerCommand, single, terminalColumns, text, toolCommand } from './commandCall';
import { fitToColumns, keepTogether } from './format';
import { type IndexOpening, type IndexUse, withIndex } from './indexOpening';

/** One command as the user typed it, with the index opening chosen for it. */
export interface CommandCall {
  positionals: string[];
  options: CliOptions;
  opening: IndexOpening;
}

export interface CommandEntry {
  /** Whether a store (`--store`) can serve it; the others read the workspace itself. */
  store: boolean;
  /** Runs it; resolves with the exit code (startup.ts EXIT: 0 ok, 1 bad input or a failed check, 2 a backend unavailable). */
  run(call: CommandCall): Promise<number>;
}

/** Ranks by meaning with the vectors the cache holds; its tool calls are logged. */
const RANKS: IndexUse = { meaning: 'one-shot', callLog: true };
/** Looks something up: no meaning needed; its tool calls are logged. */
const LOOKS_UP: IndexUse = { meaning: 'none', callLog: true };

/** A library command that reads one thing by its id (section, page, file): it looks up, nothing to rank. */
function readsById(
  name: string,
  command: (services: Services, id: string, options: CliOptions) => Promise<string>,
): CommandEntry {
  return {
    store: true,
    run: ({ positionals, options, opening }) => {
      const id = single(positionals, name, '<id>');
      // The section, the page or the file as written: never rewrapped.
      return answerCommand(opening, LOOKS_UP, ({ services }) => command(services, id, options), 'verbatim');
    },
  };
}

/** Every command, in the order `wsctx --help` lists them. */
export const COMMANDS: ReadonlyMap<string, CommandEntry> = new Map<string, CommandEntry>([
  [
    'index',
    {
      store: true,
      async run({ options, opening }) {
        if (opening.kind === 'store') {
          if (options.storeMode !== undefined || options.maxMemory !== undefined)
            throw new UsageError(
              `${options.storeMode !== undefined ? '--store-mode' : '--max-memory'}: index writes the store; it is how a reader reads it`,
            );
          const summary = await indexIntoStore(options, workspaceFolders(options.workspaces), cacheDir(options));
          print(
            options.json
              ? JSON.stringify(summary, null, 2)
              : fitToColumns(renderStoreIndexSummary(summary), terminalColumns()),
          );
          // Every folder it could was written; one that could not makes the run fail (exit 2).
          return summary.failed.length > 0 ? EXIT.unavailable : EXIT.ok;
        }
        const { engine } = startServices(options, { meaning: 'one-shot' });
        const summary = await runIndex(engine);
        await embedWithProgress(engine, summary);
        await engine.saveSnapshot();
        print(
          options.json
            ? JSON.stringify(summary, null, 2)
            : fitToColumns(renderIndexSummary(summary, { verbose: options.verbose }), terminalColumns()),
        );
        // `index` exists to leave a warm index behind: a snapshot that could not be written fails it.
        if (engine.snapshotError) {
          process.stderr.write(`wsctx: ${engine.snapshotError}\n`);
          return EXIT.unavailable;
        }
        return EXIT.ok;
      },
    },
  ],
  [
    'ask',
    {
      store: true,
      run: ({ positionals, options, opening }) => {
        const question = text(positionals, 'ask', 'a question', 'who owns billing-worker?');
        // Every served folder (or store namespace) unless --in names one (the tool's `workspace`).
        const input = {
          workspace: options.in ?? ALL_FOLDERS,
          question,
          limit: options.limit ?? cliSettings(options).budgets.contextPassages,
          asOf: options.asOf,
          sourceKinds: options.sourceKinds,
        };
        return toolCommand(opening, RANKS, 'workspace_context', input, (output) =>
          renderAskTable(output as ContextOutput, { why: options.why, columns: terminalColumns() }),
        );
      },
    },
  ],
  ['why-not', { store: false, run: ({ positionals, options, opening }) => whyNot(positionals, options, opening) }],
  ['check', { store: false, run: ({ positionals, options, opening }) => check(positionals, options, opening) }],
  [
    'expand',
    {
      store: true,
      run: ({ positionals, options, opening }) => {
        const input = {
          entityRef: single(positionals, 'expand', '<entity-ref>'),
          depth: options.depth,
          direction: options.direction,
          edgeTypes: options.edgeTypes,
          limit: options.limit ?? cliSettings(options).budgets.expandEdges,
          asOf: options.asOf,
        };
        return toolCommand(opening, LOOKS_UP, 'workspace_expand', input, (output) =>
          renderExpandTable(output as ExpandOutput, terminalColumns()),
        );
      },
    },
  ],
  [
    'graph',
    {
      store: false,
      run: ({ options, opening }) => {
        const format = options.format ?? (options.json ? 'json' : 'text');
        if (format !== 'text' && format !== 'json' && format !== 'dot')
          throw new UsageError(`--format must be text, json or dot (got "${format}")`);
        if (options.json && format !== 'json')
          throw new UsageError(`--json and --format ${format}: give one or the other`);
        // No tool is called: nothing to log.
        return answerCommand(opening, { meaning: 'none', callLog: false }, async (index) => {
          const state = await index.services.engine.waitForIndex();
          await index.saveSnapshot();
          const graph = exportGraph(state);
          if (format === 'dot') return renderDot(graph);
          return format === 'json' ? JSON.stringify(graph, null, 2) : renderGraphText(graph, terminalColumns());
        });
      },
    },
  ],
  [
    'toc',
    {
      store: true,
      run: ({ positionals, options, opening }) => {
        const args = {
          query: positionals.join(' ') || undefined,
          document: options.document,
          namespace: options.namespace,
        };
        // The map fitted to $COLUMNS, the pinned documents as written (tocCommand.ts).
        return answerCommand(opening, LOOKS_UP, ({ services }) => tocCommand(services, args, options), 'verbatim');
      },
    },
  ],
  ['section', readsById('section', sectionCommand)],
  [
    'search',
    {
      store: true,
      run: ({ positionals, options, opening }) => {
        const plan = text(positionals, 'search', 'a plan', 'writing a migration for billing-worker');
        // Whole sections as written: never rewrapped.
        return answerCommand(
          opening,
          RANKS,
          ({ services }) => searchCommand(services, { plan, profile: options.profile }, options),
          'verbatim',
        );
      },
    },
  ],
  [
    'try',
    {
      store: false,
      run: ({ positionals, options, opening }) => {
        const plan = text(positionals, 'try', 'a plan', 'writing a migration for billing-worker');
        const args = { plan, profile: options.profile, namespace: options.namespace, limit: options.limit };
        // Not logged: trying a search is not an agent's call.
        return answerCommand(opening, { meaning: 'one-shot', callLog: false }, ({ services }) =>
          tryCommand(services, args, options),
        );
      },
    },
  ],
  [
    'context',
    {
      store: true,
      run: ({ positionals, options, opening }) => {
        const change = contextChange(options);
        const task = positionals.join(' ').trim();
        const args = {
          task:
            change && task === ''
              ? undefined
              : text(positionals, 'context', 'a task', 'roll back billing-worker after a failed deploy'),
          change,
          maxTokens: options.maxTokens ?? cliSettings(options).budgets.getContextMaxTokens,
          pack: options.pack,
          tags: options.tags,
          folder: options.folder,
        };
        // The bundle as an agent gets it: never rewrapped.
        return answerCommand(opening, RANKS, ({ services }) => contextCommand(services, args, options), 'verbatim');
      },
    },
  ],
  ['page', readsById('page', pageCommand)],
  ['file', readsById('file', fileCommand)],
  [
    'diagnostics',
    {
      store: false,
      run: ({ options, opening }) =>
        answerCommand(opening, LOOKS_UP, ({ services }) => diagnosticsCommand(services, undefined, options)),
    },
  ],
  ['doctor', { store: false, run: ({ options }) => doctor(options) }],
  [
    'mcp',
    {
      store: true,
      async run({ options, opening }) {
        if (opening.kind === 'memory') return runStdioMcp(options);
        const opened = await opening.openEngine({ log: logToStderr });
        try {
          await serveStdioMcp(createServices({ engine: opened.engine }));
          return 0;
        } finally {
          await opened.close();
        }
      },
    },
  ],
  [
    'serve',
    {
      store: true,
      async run({ options, opening }) {
        if (opening.kind === 'memory') return serveMemory(options);
        // The server's config file first: its `namespaces` say what this reader loads.
        const config = serverConfigOf(options);
        if (config?.namespaces && options.workspacesGiven)
          throw new UsageError(`--workspace and ${config.path}: namespaces: give the namespaces to serve one way`);
        const opened = await opening.openEngine({
          log: logToStderr,
          ...(config?.namespaces
            ? { namespacePatterns: config.namespaces, namespacePatternsAt: `${config.path}:${config.namespacesLine}` }
            : {}),
        });
        try {
          return await serveStore(opened, options, config);
        } finally {
          await opened.close();
        }
      },
    },
  ],
]);

/** The commands a store serves, in the table's order. */
export function storeCommands(): string[] {
  return [...COMMANDS].filter(([, entry]) => entry.store).map(([name]) => name);
}

/**
 * `context --changed PATH...` / `--diff [RANGE]` / `--staged`: the change to ask about, checked
 * before the index is opened (one of the two ways; a range that looks like an option is refused
 * when git is asked, also before the index opens).
 */
function contextChange(options: CliOptions): ContextChange | undefined {
  const diff = options.diff !== undefined || options.staged;
  if (options.changed && diff)
    throw new UsageError('--changed and --diff: give the changed files or let git show the change, not both');
  if (options.staged && options.diff)
    throw new UsageError(`--staged and --diff ${options.diff}: the staged changes are compared with HEAD; give one`);
  if (options.changed) return { changedPaths: options.changed };
  const problem = options.diff ? rangeProblem(options.diff) : undefined;
  if (problem) throw new UsageError(`--diff: ${problem}`);
  if (diff) return { git: options.staged ? { staged: true } : options.diff ? { range: options.diff } : {} };
  return undefined;
}

/** `wsctx why-not`: explain_result, for a question (ask's flags) or, with --task, a get_context task (context's). */
function whyNot(positionals: string[], options: CliOptions, opening: IndexOpening): Promise<number> {
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
    return toolCommand(
      opening,
      RANKS,
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
      explanationText,
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
  return toolCommand(
    opening,
    RANKS,
    'explain_result',
    {
      workspace: options.in ?? ALL_FOLDERS,
      question,
      expected: options.expect,
      // The limit `ask` answers with by default, so a page "returned" is one `ask` shows.
      limit: options.limit ?? cliSettings(options).budgets.contextPassages,
      sourceKinds: options.sourceKinds,
    },
    explanationText,
  );
}

/** An explanation as why-not prints it: heading paths kept whole where lines wrap. */
function explanationText(output: Record<string, unknown>): string {
  return renderExplanation(output as ExplainOutput, { keep: keepTogether });
}

/**
 * `wsctx check`: the expectations file against a complete index; exit 1 when a check fails or
 * the file has a problem (each named with its line and field), 0 when all pass.
 */
async function check(positionals: string[], options: CliOptions, opening: IndexOpening): Promise<number> {
  if (positionals.length > 1)
    throw new UsageError(
      `check takes at most one file (got ${positionals.length}), e.g. wsctx check .wsctx/expectations.yaml`,
    );
  const folders = workspaceFolders(options.workspaces);
  const file = positionals[0] ? path.resolve(positionals[0]) : path.join(folders[0].absPath, EXPECTATIONS_FILE);
  // Named as the user would type it from here; a file outside the current folder by its absolute path.
  const relative = path.relative(process.cwd(), file);
  const shownAs = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
  // Through the read guard (engine/expectations/readExpectations.ts): a file in a served folder
  // must stay in the served folders; one named outside them, in its own folder.
  const inside = folders.map((f) => f.absPath).filter((dir) => isWithin(dir, file));
  const read = await readExpectationsFile(file, inside.length > 0 ? inside : [path.dirname(file)], shownAs);
  if (read.kind === 'absent')
    throw new UsageError(
      `no expectations file at ${file}: write one (docs/cli.md, "wsctx check", shows the format) or name it: wsctx check FILE`,
    );
  if (read.kind === 'refused') throw new InputError(`${shownAs}:1: ${read.message}; nothing is checked`);
  const parsed = read.file;
  return withIndex(opening, RANKS, async (index) => {
    await index.ready();
    const report = await runExpectations(index.services, parsed);
    print(
      options.json
        ? JSON.stringify(report, null, 2)
        : fitToColumns(renderCheckReport(report, { keep: keepTogether }), terminalColumns()),
    );
    return report.failed > 0 || parsed.problems.length > 0 || parsed.expectations.length === 0 ? 1 : 0;
  });
}

/** `wsctx doctor`: checks the setup without indexing; exit 1 when a check fails. */
async function doctor(options: CliOptions): Promise<number> {
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
  print(options.json ? JSON.stringify(checks, null, 2) : fitToColumns(renderDoctor(checks), terminalColumns()));
  return checks.some((c) => c.status === 'fail') ? 1 : 0;
}
