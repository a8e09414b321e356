/**
 * `wsctx file <id>`: the file attached to a library page (`get_file`). A text file prints as is;
 * a binary one is described (`--json` carries its base64 content).
 */
import type { Services } from '../../services/services';
import { callTool } from '../../tools/callTool';
import { getFileTool } from '../../tools/getFile';
import { libraryText } from '../libraryText';

export async function fileCommand(services: Services, id: string, options: { json: boolean }): Promise<string> {
  await services.engine.waitForLibrary();
  const output = await callTool(services, getFileTool, { page_id: id }, { sessionId: 'cli' });
  return options.json ? JSON.stringify(output, null, 2) : libraryText(getFileTool.renderText(output as never), output);
}
