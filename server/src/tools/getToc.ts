/**
 * `get_toc(query?, document_id?, namespace?)` (docs/ARCHITECTURE.md, the library tools' contract, "The table of contents"): the map of the
 * ready library documents within about 8,000 tokens; with `query`, the documents that best match,
 * best first; with `document_id`, one document's sections. No model runs.
 */
import { z } from 'zod';
import { boundedString, INPUT_LIMITS } from './inputLimits';
import { TOC_INLINE_SECTIONS, TOC_TOKEN_BUDGET } from '../library/view/constants';
import { lookupDocument } from '../library/view/libraryView';
import { namespaceFromArg, namespaceLabel } from '../library/view/namespaces';
import { rankLibrary } from '../library/view/ranking';
import { buildTocDocument, buildTocMap, buildTocQuery } from '../library/view/tocMap';
import { renderToc, type TocResult } from '../library/view/tocRender';
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
import { ToolInputError } from './toolError';

const input = {
  query: boundedString(INPUT_LIMITS.query)
    .optional()
    .describe(
      'What you are working on, e.g. "postmortem for a billing-worker incident": returns the documents that best match, best first, instead of the whole map.',
    ),
  document_id: boundedString(INPUT_LIMITS.id)
    .optional()
    .describe("A document id from the map (8 characters, or any unique prefix of 4+): lists that document's sections."),
  namespace: boundedString(INPUT_LIMITS.name)
    .optional()
    .describe('A namespace (a folder of the library, "." for the top): the map, or the query, of that namespace only.'),
};

const sectionLine = z.object({
  id: z.string(),
  heading: z.string(),
  depth: z.number(),
  summary: z.string().optional(),
});
const documentEntry = z.object({
  id: z.string(),
  title: z.string(),
  /** Workspace-relative path. */
  path: z.string(),
  namespace: z.string(),
  level: z.number(),
  summary: z.string().optional(),
  sectionCount: z.number(),
  pinned: z.boolean(),
  format: z.string(),
  applyTo: z.array(z.string()).optional(),
  sections: z.array(sectionLine).optional(),
});
const namespaceBlock = z.object({
  name: z.string(),
  label: z.string(),
  description: z.string().optional(),
  documentCount: z.number(),
  profile: z.string(),
  level: z.number(),
  documents: z.array(documentEntry),
});

const output = {
  mode: z.enum(['map', 'query', 'document']),
  namespace: boundedString(INPUT_LIMITS.name).optional(),
  query: boundedString(INPUT_LIMITS.query).optional(),
  /** What heads the map: the namespace's description. */
  description: z.string().optional(),
  documentCount: z.number().optional(),
  namespaces: z.array(namespaceBlock).optional(),
  matched: z.number().optional(),
  documents: z.array(documentEntry).optional(),
  omitted: z.number().optional(),
  document: documentEntry.optional(),
  sections: z.array(sectionLine).optional(),
  matchedSections: z.number().optional(),
  omittedSections: z.number().optional(),
  condensed: z.boolean(),
  /** Estimated tokens of the map text (pinned documents not included). */
  tokens: z.number(),
  budget: z.number(),
  ...commonOutput,
};

export type GetTocOutput = z.infer<z.ZodObject<typeof output>>;

export const getTocTool: ToolDefinition<typeof input, typeof output> = {
  name: 'get_toc',
  title: 'Map the rules and instructions library',
  description: [
    "The table of contents of the team's rules and instructions library (coding rules, runbooks, templates for postmortems and architecture decisions): one entry per document with its id, a one-line summary and, for documents of up to",
    `${TOC_INLINE_SECTIONS} sections, the sections with their ids. The map stays within about ${TOC_TOKEN_BUDGET.toLocaleString('en-US')} tokens and says when a large namespace is condensed.`,
    "Pass `query` (what you are about to do) for the documents that best match, best first; `document_id` to list one document's sections; `namespace` to map one folder.",
    'Then read a section with get_section(id), or call search_instructions(plan) to get the matching sections whole.',
  ].join(' '),
  input,
  output,
  async run(services: Services, args, context) {
    const query = args.query?.trim() || undefined;
    const logInput = { query, document_id: args.document_id, namespace: args.namespace };
    return logged(
      services,
      context,
      'get_toc',
      logInput,
      async () => {
        const found = await libraryState(services, [args.query]);
        if (found.kind === 'cold') {
          return {
            mode: 'map' as const,
            condensed: false,
            tokens: 0,
            budget: TOC_TOKEN_BUDGET,
            notice: COLD_NOTICE,
            degraded: ['index-cold'],
            indexedAt: null,
          };
        }
        const { view } = found;
        let namespace: string | undefined;
        if (args.namespace !== undefined) {
          namespace = namespaceFromArg(args.namespace);
          if (!view.namespaceByName.has(namespace)) {
            const known = view.namespaces.map((n) => JSON.stringify(namespaceLabel(n.name))).join(', ');
            throw new ToolInputError(
              `namespace: ${JSON.stringify(args.namespace)} is not a library namespace; use one of ${known || '(none: the library is empty)'}.`,
            );
          }
        }
        const meaning = services.sectionMeaning;
        let result: TocResult;
        if (args.document_id !== undefined) {
          const lookup = lookupDocument(view, args.document_id);
          if (!lookup.ok) throw idError('document_id', args.document_id, lookup, view, 'document');
          const doc = view.docById.get(lookup.id)!;
          if (namespace !== undefined && doc.library!.namespace !== namespace) {
            throw new ToolInputError(
              `namespace: document ${JSON.stringify(args.document_id)} ("${doc.title}") is in namespace ${JSON.stringify(namespaceLabel(doc.library!.namespace))}, not ${JSON.stringify(args.namespace)}; leave namespace out.`,
            );
          }
          const ranking = query ? await rankLibrary(view, query, { meaning, filter: (e) => e.doc === doc }) : undefined;
          result = buildTocDocument(view, doc, { ranking });
        } else if (query) {
          const ranking = await rankLibrary(view, query, {
            meaning,
            filter: namespace === undefined ? undefined : (e) => e.doc.library!.namespace === namespace,
          });
          result = buildTocQuery(view, ranking, { namespace });
        } else {
          result = buildTocMap(view, { namespace });
        }
        const pinned = pinnedFor(services, view, context);
        servedPinned(services, context);
        const notice = view.docs.length === 0 ? 'The library holds no published, unexpired document.' : undefined;
        return {
          ...result,
          ...(pinned.length > 0 ? { pinned } : {}),
          ...(notice ? { notice } : {}),
          degraded: [],
          indexedAt: found.indexedAt,
        };
      },
      (out) => tocOutcome(out),
    );
  },
  unreadable: (_args, notice) => ({
    mode: 'map' as const,
    condensed: false,
    tokens: 0,
    budget: TOC_TOKEN_BUDGET,
    notice,
    degraded: ['scope-unreadable'],
    indexedAt: null,
  }),
  renderText(out) {
    if (
      out.notice &&
      (out.degraded.includes('index-cold') || (out.degraded.includes('scope-unreadable') && out.tokens === 0))
    )
      return out.notice;
    const text = renderToc(out as unknown as TocResult);
    return `${pinnedPrefix(out.pinned)}${text}${out.notice ? `\n\n${out.notice}` : ''}`;
  },
};

/** Logged result: the documents a query or map listed (ids as printed), or the sections of one. */
function tocOutcome(out: GetTocOutput): { resultIds: string[]; empty: boolean } {
  if (out.mode === 'query')
    return { resultIds: (out.documents ?? []).map((d) => d.id), empty: (out.matched ?? 0) === 0 };
  if (out.mode === 'document') return { resultIds: out.document ? [out.document.id] : [], empty: false };
  return { resultIds: [], empty: (out.documentCount ?? 0) === 0 };
}
