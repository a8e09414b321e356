/**
 * What the commands of the table (commandTable.ts) do alike with their call: read the words after
 * the command, call a tool on the opened index and print its answer, or print what a library
 * command makes of the index. Whether that index is in memory or in a store is the opening's
 * (indexOpening.ts); nothing here asks.
 */
import { UsageError } from '../startup/args';
import { findCommand } from '../startup/commands';
import { EXIT, print } from '../startup/startup';
import { fitToColumns } from './format';
import { callTool } from '../tools/callTool';
import { findTool } from '../tools/registry';
import { type IndexOpening, type IndexUse, type OpenIndex, withIndex } from './indexOpening';

/** A `workspace` argument meaning "leave it out": the tool answers from every served folder. */
export const ALL_FOLDERS = Symbol('every served folder');

/**
 * Calls a tool from the shared table on a complete index and prints its text (`render`'s, else
 * the tool's own) or its JSON. A tool's `workspace` defaults to the index's default one
 * (OpenIndex.defaultWorkspace); ALL_FOLDERS leaves it out.
 */
export function toolCommand(
  opening: IndexOpening,
  use: IndexUse,
  name: string,
  args: Record<string, unknown>,
  render?: (output: Record<string, unknown>) => string,
): Promise<number> {
  return withIndex(opening, use, async (index) => {
    await index.ready();
    const tool = findTool(name)!;
    const withWorkspace = { workspace: args.workspace ?? index.defaultWorkspace(), ...args };
    const input = Object.fromEntries(
      Object.entries(withWorkspace).filter(([, v]) => v !== undefined && v !== ALL_FOLDERS),
    );
    const output = await callTool(index.services, tool, input, { sessionId: 'cli' });
    await index.saveSnapshot();
    print(
      opening.options.json
        ? JSON.stringify(output, null, 2)
        : fitToColumns((render ?? tool.renderText)(output), terminalColumns()),
    );
    // A store that could not be read answers empty and says so (reads fail soft for agents); a
    // command line says it by its exit code too: a backend unavailable.
    const degraded = (output as { degraded?: unknown }).degraded;
    return Array.isArray(degraded) && degraded.includes('scope-unreadable') ? EXIT.unavailable : EXIT.ok;
  });
}

/**
 * Prints what `answer` makes of the opened index (a library command's text or JSON): fitted to
 * `$COLUMNS` unless it is the workspace's own text as written (`verbatim`: a page, a section, a
 * bundle), which is never rewrapped.
 */
export function answerCommand(
  opening: IndexOpening,
  use: IndexUse,
  answer: (index: OpenIndex) => Promise<string>,
  layout: 'fit' | 'verbatim' = 'fit',
): Promise<number> {
  return withIndex(opening, use, async (index) => {
    const text = await answer(index);
    return print(layout === 'fit' && !opening.options.json ? fitToColumns(text, terminalColumns()) : text);
  });
}

/** The words after the command, as one text; refused when there are none (or only spaces). */
export function text(positionals: string[], command: string, what: string, example: string): string {
  const joined = positionals.join(' ').trim();
  if (joined === '')
    throw new UsageError(
      `${command} takes ${what}${positionals.length ? ' (got an empty one)' : ''}, e.g. wsctx ${command} "${example}"`,
    );
  return joined;
}

/** The one word after the command (an id, a ref); refused when there are none or several. */
export function single(positionals: string[], command: string, what: string): string {
  if (positionals.length !== 1)
    throw new UsageError(
      `${command} takes exactly one ${what}${positionals.length ? ` (got ${positionals.length})` : ''}, e.g. ${findCommand(command)?.examples[0] ?? `wsctx ${command} ${what}`}`,
    );
  return positionals[0];
}

/** The width text output fits: $COLUMNS when it is a positive number, else 100. */
export function terminalColumns(): number {
  const columns = Number(process.env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : 100;
}
