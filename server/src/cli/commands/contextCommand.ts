/**
 * `wsctx context "<task>" [--max-tokens N] [--pack P] [--tags a,b] [--folder F] [--json]`: the
 * bundle `get_context` hands an agent for a task (Markdown), or with `--json` every page with its
 * reason and each searched section's similarity.
 *
 * For a change, `--changed PATH...` (the files) or `--diff [RANGE]` / `--staged` (what git shows
 * in each served folder, read-only: tools/changeFromGit.ts), with or without a task: the bundle
 * of the entities the change touches, each item with its reason.
 */
import { InputError } from '../../engine';
import type { Services } from '../../services/services';
import { UsageError } from '../../startup/args';
import { callTool } from '../../tools/callTool';
import { changeFromGit } from '../../tools/changeFromGit';
import { getContextTool } from '../../tools/getContext';

/** The change asked about: the files as given, or what git shows (a range, the staged changes, or the working tree). */
export type ContextChange = { changedPaths: string[] } | { git: { range?: string; staged?: boolean } };

export interface ContextCommandArgs {
  task?: string;
  change?: ContextChange;
  maxTokens?: number;
  pack?: string;
  tags?: string[];
  folder?: string;
}

export async function contextCommand(
  services: Services,
  args: ContextCommandArgs,
  options: { json: boolean },
): Promise<string> {
  await services.engine.waitForLibrary();
  const input: Record<string, unknown> = { format: options.json ? 'json' : 'markdown' };
  if (args.task !== undefined) input.task = args.task;
  if (args.change && 'changedPaths' in args.change) input.changes = { changedPaths: args.change.changedPaths };
  else if (args.change) {
    let read: Awaited<ReturnType<typeof changeFromGit>>;
    try {
      const state = services.engine.current() ?? (await services.engine.waitForIndex());
      read = await changeFromGit(state.repos, args.change.git);
    } catch (error) {
      if (error instanceof InputError) throw new UsageError(error.message);
      throw error;
    }
    if (read.files === 0)
      throw new UsageError(
        `--diff: git shows no change (${read.compared}) in ${read.folders.join(', ')}: nothing to give the context of`,
      );
    for (const s of read.skipped) process.stderr.write(`wsctx: ${s.folder} is left out of the change: ${s.reason}\n`);
    input.changes = { diff: read.diff };
  }
  if (args.maxTokens !== undefined) input.max_tokens = args.maxTokens;
  if (args.pack !== undefined) input.pack = args.pack;
  if (args.tags !== undefined) input.tags = args.tags;
  if (args.folder !== undefined) input.folder = args.folder;
  const output = await callTool(services, getContextTool, input, { sessionId: 'cli' });
  return getContextTool.renderText(output as never);
}
