/**
 * `get_section(id)` (docs/ARCHITECTURE.md, the library tools' contract): one whole section of a ready library document, with its
 * document's title and id. Ids as docs/ARCHITECTURE.md, "Identity, commits, freshness": the printed 8 characters, any unique prefix
 * of 4 or more, or the full id; an ambiguous prefix is refused with the candidates listed.
 */
import { z } from 'zod';
import { boundedString, INPUT_LIMITS } from './inputLimits';
import { lookupSection, shownId } from '../library/view/libraryView';
import { namespaceLabel } from '../library/view/namespaces';
import { formatSectionBlock, sectionBlockTokens } from '../library/view/sectionRender';
import { sectionBody, sectionHeading } from '../library/view/summaries';
import {
  COLD_NOTICE,
  commonOutput,
  idError,
  libraryState,
  logged,
  pinnedFor,
  pinnedPrefix,
  servedPinned,
} from './libraryTool';
import type { Services } from '../services/services';
import type { ToolDefinition } from './toolDefinition';

const input = {
  id: boundedString(INPUT_LIMITS.id)
    .min(1)
    .describe(
      'A section id as get_toc or search_instructions printed it (8 characters), any unique prefix of 4 or more, or the full id.',
    ),
};

const output = {
  /** Absent when the index was cold. */
  section: z
    .object({
      id: z.string(),
      heading: z.string(),
      headingPath: z.array(z.string()),
      /** The section as written, without its heading line. */
      body: z.string(),
      /** Estimated tokens of the rendered section (heading with id, From line, body). */
      tokens: z.number(),
      /** Workspace-relative path and line range, heading included. */
      sourceRef: z.string(),
    })
    .optional(),
  document: z
    .object({ id: z.string(), title: z.string(), path: z.string(), namespace: z.string(), format: z.string() })
    .optional(),
  ...commonOutput,
};

export type GetSectionOutput = z.infer<z.ZodObject<typeof output>>;

export const getSectionTool: ToolDefinition<typeof input, typeof output> = {
  name: 'get_section',
  title: 'Read one library section',
  description: [
    'Returns one whole section of the rules and instructions library, with the title and id of the document it comes from.',
    'Pass a section id from get_toc or search_instructions: the 8 printed characters, any unique prefix of 4 or more, or the full id.',
    "For a document's list of sections use get_toc(document_id); to find sections by task use search_instructions(plan).",
  ].join(' '),
  input,
  output,
  async run(services: Services, args, context) {
    let returned: string | undefined; // the full id, for the call log
    return logged(
      services,
      context,
      'get_section',
      { id: args.id },
      async () => {
        const found = await libraryState(services);
        if (found.kind === 'cold') return { notice: COLD_NOTICE, degraded: ['index-cold'], indexedAt: null };
        const { view } = found;
        const lookup = lookupSection(view, args.id);
        if (!lookup.ok) throw idError('id', args.id, lookup, view, 'section');
        const { section, doc } = view.sectionById.get(lookup.id)!;
        returned = section.id;
        const pinned = pinnedFor(services, view, context);
        servedPinned(services, context);
        return {
          section: {
            id: shownId(view, section.id),
            heading: sectionHeading(section, doc),
            headingPath: section.headingPath,
            body: sectionBody(section),
            tokens: sectionBlockTokens(view, section, doc),
            sourceRef: `${doc.path}:${section.startLine}-${section.endLine}`,
          },
          document: {
            id: shownId(view, doc.id),
            title: doc.title,
            path: doc.path,
            namespace: namespaceLabel(doc.library!.namespace),
            format: doc.format,
          },
          ...(pinned.length > 0 ? { pinned } : {}),
          degraded: [],
          indexedAt: found.indexedAt,
        };
      },
      () => ({ resultIds: returned ? [returned] : [], empty: returned === undefined }),
    );
  },
  unreadable: (_args, notice) => ({ notice, degraded: ['scope-unreadable'], indexedAt: null }),
  renderText(out) {
    const { section, document } = out;
    if (!section || !document) return out.notice ?? 'No section.';
    const block = formatSectionBlock({
      heading: section.heading,
      id: section.id,
      title: document.title,
      docId: document.id,
      body: section.body,
    });
    return `${pinnedPrefix(out.pinned)}${block}`;
  },
};
