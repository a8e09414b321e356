/**
 * `wsctx page <id>`: one whole library page (`read_page`), by the page_id `get_context` printed,
 * a unique prefix of 4+ characters or the full id.
 */
import type { Services } from '../../services/services';
import { callTool } from '../../tools/callTool';
import { readPageTool } from '../../tools/readPage';
import { libraryText } from '../libraryText';

export async function pageCommand(services: Services, id: string, options: { json: boolean }): Promise<string> {
  await services.engine.waitForLibrary();
  const output = await callTool(services, readPageTool, { page_id: id }, { sessionId: 'cli' });
  return options.json ? JSON.stringify(output, null, 2) : libraryText(readPageTool.renderText(output as never), output);
}
