/**
 * `wsctx search "<plan>" [--profile focused|catalog]`: the library sections that apply to a plan
 * (`search_instructions`), as an agent would get them.
 */
import type { Services } from '../../services/services';
import { callTool } from '../../tools/callTool';
import { searchInstructionsTool } from '../../tools/searchInstructions';
import { libraryText } from '../libraryText';
import { renderWithoutPinned } from './pinnedOnce';

export interface SearchCommandArgs {
  plan: string;
  profile?: string;
}

export async function searchCommand(
  services: Services,
  args: SearchCommandArgs,
  options: { json: boolean },
): Promise<string> {
  await services.engine.waitForLibrary();
  const input = args.profile === undefined ? { plan: args.plan } : { plan: args.plan, profile: args.profile };
  const output = await callTool(services, searchInstructionsTool, input, { sessionId: 'cli' });
  return options.json
    ? JSON.stringify(output, null, 2)
    : libraryText(
        renderWithoutPinned(output as Parameters<typeof searchInstructionsTool.renderText>[0], (o) =>
          searchInstructionsTool.renderText(o),
        ),
        output,
      );
}
