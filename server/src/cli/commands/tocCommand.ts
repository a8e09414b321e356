/**
 * `wsctx toc [query] [--document ID] [--namespace NS]`: the library map, the documents matching a
 * query, or one document's sections: `get_toc` run on a complete index, printed as text or JSON.
 */
import type { Services } from '../../services/services';
import { callTool } from '../../tools/callTool';
import { getTocTool } from '../../tools/getToc';

export interface TocCommandArgs {
  query?: string;
  document?: string;
  namespace?: string;
}

export async function tocCommand(
  services: Services,
  args: TocCommandArgs,
  options: { json: boolean },
): Promise<string> {
  await services.engine.waitForLibrary();
  const input = Object.fromEntries(
    Object.entries({ query: args.query, document_id: args.document, namespace: args.namespace }).filter(
      ([, v]) => v !== undefined,
    ),
  );
  const output = await callTool(services, getTocTool, input, { sessionId: 'cli' });
  return options.json ? JSON.stringify(output, null, 2) : getTocTool.renderText(output as never);
}
