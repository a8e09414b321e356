/**
 * `wsctx`: the command line. One-shot commands wait for the index instead of answering cold;
 * `mcp` and `serve` keep the engine running and serve the tools to agents.
 *
 * Each command is written once, in commandTable.ts. Here it is looked up, and the index it
 * answers from is chosen up front (indexOpening.ts): in this process's memory, or over a
 * PostgreSQL store when `--store URL` is given.
 *
 * Exit codes: 0 ok, 1 bad input (usage, unknown entity, refused depth...) or a failed check, 2 a
 * backend unavailable (a store that cannot be reached, a cache that cannot be written), 3 internal
 * error.
 * Results go to stdout, errors and logs to stderr.
 */
import { InputError } from '../engine';
import { UsageError, type CliOptions } from '../startup/args';
import { EXIT, hostMain } from '../startup/startup';
import { inCliTerms } from './cliTerms';
import { COMMANDS, type CommandEntry, storeCommands } from './commandTable';
import { type IndexOpening, memoryOpening, storeOpening } from './indexOpening';

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

async function run(command: string, positionals: string[], options: CliOptions): Promise<number> {
  const entry = COMMANDS.get(command);
  if (!entry) throw new UsageError(`unknown command "${command}" (wsctx --help lists the commands)`);
  return entry.run({ positionals, options, opening: openingFor(command, entry, options) });
}

/**
 * Where `command`'s index is: a store with `--store` (refused by a command that reads the
 * workspace itself), else this process's memory.
 */
function openingFor(command: string, entry: CommandEntry, options: CliOptions): IndexOpening {
  if (options.store === undefined) return memoryOpening(options);
  if (!entry.store)
    throw new UsageError(
      `--store is not supported by ${command}: a store answers ${storeCommands().join(', ')}; ${command} reads the workspace itself (leave --store out)`,
    );
  return storeOpening(command, options);
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`wsctx: internal error: ${(error as Error).stack ?? error}\n`);
      process.exitCode = EXIT.internal;
    },
  );
}
