/**
 * `wsctx section <id>`: one whole library section (`get_section`), by its printed id, a unique
 * prefix of 4+ characters or the full id: the section first (see pinnedOnce.ts).
 */
import type { Services } from '../../services/services';
import { callTool } from '../../tools/callTool';
import { getSectionTool, type GetSectionOutput } from '../../tools/getSection';
import { libraryText } from '../libraryText';
import { renderWithoutPinned } from './pinnedOnce';

export async function sectionCommand(services: Services, id: string, options: { json: boolean }): Promise<string> {
  await services.engine.waitForLibrary();
  const output = await callTool(services, getSectionTool, { id }, { sessionId: 'cli' });
  return options.json
    ? JSON.stringify(output, null, 2)
    : libraryText(
        renderWithoutPinned(output as GetSectionOutput, (o) => getSectionTool.renderText(o)),
        output,
      );
}
