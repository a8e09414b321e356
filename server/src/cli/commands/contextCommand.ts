/**
 * `wsctx context "<task>" [--max-tokens N] [--pack P] [--tags a,b] [--folder F] [--json]`: the
 * bundle `get_context` hands an agent for a task (Markdown), or with `--json` every page with its
 * reason and each searched section's similarity.
 */
import type { Services } from '../../services/services';
import { callTool } from '../../tools/callTool';
import { getContextTool } from '../../tools/getContext';

export interface ContextCommandArgs {
  task: string;
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
  const input: Record<string, unknown> = { task: args.task, format: options.json ? 'json' : 'markdown' };
  if (args.maxTokens !== undefined) input.max_tokens = args.maxTokens;
  if (args.pack !== undefined) input.pack = args.pack;
  if (args.tags !== undefined) input.tags = args.tags;
  if (args.folder !== undefined) input.folder = args.folder;
  const output = await callTool(services, getContextTool, input, { sessionId: 'cli' });
  return getContextTool.renderText(output as never);
}
