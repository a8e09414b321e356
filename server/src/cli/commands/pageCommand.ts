/**
 * `wsctx page <id>`: one whole library page (`read_page`), by the page_id `get_context` printed,
 * a unique prefix of 4+ characters or the full id.
 */
import type { Engine } from '../../engine/engine';
import { callTool } from '../../tools/callTool';
import { readPageTool } from '../../tools/readPage';

export async function pageCommand(engine: Engine, id: string, options: { json: boolean }): Promise<string> {
  await engine.waitForIndex();
  const output = await callTool(engine, readPageTool, { page_id: id }, { sessionId: 'cli' });
  return options.json ? JSON.stringify(output, null, 2) : readPageTool.renderText(output as never);
}
