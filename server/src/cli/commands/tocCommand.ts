/**
 * `wsctx toc [query] [--document ID] [--namespace NS]`: the library map, the documents matching a
 * query, or one document's sections: `get_toc` run on a complete index, printed as text or JSON.
 */
import type { Services } from '../../services/services';
import { callTool } from '../../tools/callTool';
import { getTocTool } from '../../tools/getToc';
import { renderPinned } from '../../library/view/pinned';
import { terminalColumns } from '../commandCall';
import { fitToColumns, keepTogether } from '../format';
import { libraryText } from '../libraryText';

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
  if (options.json) return JSON.stringify(output, null, 2);
  // The pinned documents as written; the map (ours) fitted to $COLUMNS.
  const { pinned, ...map } = output as Parameters<typeof getTocTool.renderText>[0];
  const text = fitToColumns(libraryText(getTocTool.renderText(map), output), terminalColumns());
  if (!pinned?.length) return text;
  // Each pinned document's heading (ours) fitted, its text as written. A heading too long for
  // the line breaks before its id and file, never leaving its closing `===` alone.
  const block = renderPinned(pinned)
    .split('\n')
    .map((line) =>
      line.startsWith('=== ') || line.startsWith('Pinned documents')
        ? fitToColumns(
            libraryText(line, output).replace(/\[doc [^\]]+\] ===$/, (tail) => keepTogether(tail)),
            terminalColumns(),
          )
        : line,
    )
    .join('\n');
  return `${block}\n\n${text}`;
}
