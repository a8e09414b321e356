/**
 * `wsctx search "<plan>" [--profile focused|catalog]`: the library sections that apply to a plan
 * (`search_instructions`), as an agent would get them.
 */
import type { Engine } from '../../engine/engine';
import { callTool } from '../../tools/callTool';
import { searchInstructionsTool } from '../../tools/searchInstructions';
import { renderWithoutPinned } from './pinnedOnce';

export interface SearchCommandArgs {
  plan: string;
  profile?: string;
}

export async function searchCommand(engine: Engine, args: SearchCommandArgs, options: { json: boolean }): Promise<string> {
  await engine.waitForIndex();
  const input = args.profile === undefined ? { plan: args.plan } : { plan: args.plan, profile: args.profile };
  const output = await callTool(engine, searchInstructionsTool, input, { sessionId: 'cli' });
  return options.json ? JSON.stringify(output, null, 2) : renderWithoutPinned(output as Parameters<typeof searchInstructionsTool.renderText>[0], (o) => searchInstructionsTool.renderText(o));
}
