/**
 * `read_page(page_id)` (docs/ARCHITECTURE.md, get_context's contract): the whole page behind a `get_context` label, without front
 * matter, with its type, usage notes and attached file. Ids as docs/ARCHITECTURE.md, "Identity, commits, freshness": the printed 8
 * characters, any unique prefix of 4 or more, or the full id. The user's own private notes are
 * readable from the user's own connections only.
 */
import { z } from 'zod';
import { boundedString, INPUT_LIMITS } from './inputLimits';
import { resolveIdPrefix, type Doc, baseName, estimateTokens } from '../engine';
import { isPrivateNote } from '../library/context/privateNotes';
import { lookupDocument, shownId, type LibraryView } from '../library/view/libraryView';
import { namespaceLabel } from '../library/view/namespaces';
import { documentText } from '../library/view/sectionRender';
import { documentSummary } from '../library/view/summaries';
import { COLD_NOTICE, idError, libraryState, logged } from './libraryTool';
import type { Services } from '../services/services';
import type { ToolCallContext, ToolDefinition } from './toolDefinition';

const input = {
  page_id: boundedString(INPUT_LIMITS.id)
    .min(1)
    .describe('A page_id as get_context printed it (8 characters), any unique prefix of 4 or more, or the full id.'),
};

const output = {
  page: z
    .object({
      id: z.string(),
      title: z.string(),
      type: z.string(),
      path: z.string(),
      namespace: z.string(),
      summary: z.string(),
      tags: z.array(z.string()),
      usage: z.string().optional(),
      /** Name of the attached file (get_file returns it). */
      file: z.string().optional(),
      /** The user's own private note. */
      private: z.boolean(),
      /** The page as written, without front matter. */
      text: z.string(),
      tokens: z.number(),
    })
    .optional(),
  notice: z.string().optional(),
  degraded: z.array(z.string()),
  indexedAt: z.string().nullable(),
};

export type ReadPageOutput = z.infer<z.ZodObject<typeof output>>;

export const readPageTool: ToolDefinition<typeof input, typeof output> = {
  name: 'read_page',
  title: 'Read a whole page',
  description: [
    'Returns one whole page of the library (a rule, a runbook, a template for a postmortem; without front matter), with its type, usage notes and attached file.',
    'Pass a page_id from get_context: the 8 printed characters, any unique prefix of 4 or more, or the full id.',
  ].join(' '),
  input,
  output,
  async run(services: Services, args, context) {
    let returned: string[] | undefined; // the page's id and its sections', for the call log
    return logged(
      services,
      context,
      'read_page',
      { page_id: args.page_id },
      async (): Promise<ReadPageOutput> => {
        const found = await libraryState(services);
        if (found.kind === 'cold') return { notice: COLD_NOTICE, degraded: ['index-cold'], indexedAt: null };
        const doc = findPage(services, found.view, 'page_id', args.page_id, context);
        returned = [doc.id, ...doc.sections.map((s) => s.id)];
        const text = documentText(doc);
        const library = doc.library!;
        return {
          page: {
            id: shownIdOf(found.view, doc),
            title: doc.title,
            type: library.type ?? 'page',
            path: doc.path,
            namespace: namespaceLabel(library.namespace),
            summary: documentSummary(doc),
            tags: library.tags,
            ...(library.usage ? { usage: library.usage } : {}),
            ...(library.file ? { file: library.file } : {}),
            private: isPrivateNote(doc),
            text,
            tokens: estimateTokens(text),
          },
          degraded: [],
          indexedAt: found.indexedAt,
        };
      },
      () => ({ resultIds: returned ?? [], empty: returned === undefined }),
    );
  },
  unreadable: (_args, notice) => ({ notice, degraded: ['scope-unreadable'], indexedAt: null }),
  renderText(out) {
    const page = out.page;
    if (!page) return out.notice ?? 'No page.';
    const facts = [`page_id: ${page.id}`, page.private ? `${page.type} (your own private note)` : page.type, page.path];
    const lines = [facts.join(' · ')];
    if (page.usage) lines.push(`Usage: ${page.usage}`);
    if (page.file) lines.push(`Attached file: ${baseName(page.file)} (get_file with page_id ${page.id} returns it)`);
    return `${lines.join('\n')}\n\n${page.text}`;
  },
};

/**
 * The ready page (or, on the user's own connections, private note) an id names; an error naming
 * `field` otherwise (too short, ambiguous with the candidates, a draft, unknown).
 */
export function findPage(
  services: Pick<Services, 'privateNotes'>,
  view: LibraryView,
  field: string,
  id: string,
  context: ToolCallContext,
): Doc {
  const notes = services.privateNotes;
  const own = notes?.ownedBy(context.sessionId) ? notes.docs(view.today) : [];
  if (own.length > 0) {
    const lookup = resolveIdPrefix(id, [...view.docById.keys(), ...own.map((d) => d.id)]);
    if (lookup.ok) return view.docById.get(lookup.id) ?? own.find((d) => d.id === lookup.id)!;
  }
  const lookup = lookupDocument(view, id);
  if (!lookup.ok) throw idError(field, id, lookup, view, 'document');
  return view.docById.get(lookup.id)!;
}

function shownIdOf(view: LibraryView, doc: Doc): string {
  return view.docById.has(doc.id) ? shownId(view, doc.id) : doc.id.slice(0, 8);
}
