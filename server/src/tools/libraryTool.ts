/**
 * What the three library tools (`get_toc`, `get_section`, `search_instructions`) share: the
 * library view a call answers from, the pinned documents that head a session's first answer,
 * and the schemas of those parts.
 */
import { z } from 'zod';
import type { IdLookup } from '../engine';
import { hiddenMatch, libraryView, shownId, type LibraryView } from '../library/view/libraryView';
import { pinnedDocuments, renderPinned, type PinnedDocument } from '../library/view/pinned';
import { dayOf } from '../library/view/readiness';
import { sectionHeading } from '../library/view/summaries';
import type { Services } from '../services/services';
import type { ToolCallContext } from './toolDefinition';
import { libraryIndexState } from './queryState';
import { ToolInputError } from './toolError';

export const pinnedSchema = z
  .array(z.object({ id: z.string(), title: z.string(), path: z.string(), text: z.string(), tokens: z.number() }))
  .optional()
  .describe('Pinned documents, whole: they apply to every task. Present on the first answer of a session only.');

export const commonOutput = {
  pinned: pinnedSchema,
  /** Why an answer is empty or partial, in words. */
  notice: z.string().optional(),
  degraded: z.array(z.string()),
  indexedAt: z.string().nullable(),
};

export type LibraryState =
  | { kind: 'ready'; view: LibraryView; indexedAt: string }
  /** The index is empty; indexing has started. */
  | { kind: 'cold' };

export const COLD_NOTICE = 'The index is still empty; indexing has started. Ask again in a moment.';

/**
 * The library view a call answers from (the engine's current state, or a store's library, on
 * today's date). `texts` are the call's own words (plan, task, pack, tags, folder): a store reads
 * how often the workspace holds them before the call.
 */
export async function libraryState(
  services: Pick<Services, 'engine' | 'now'>,
  texts: readonly (string | undefined)[] = [],
): Promise<LibraryState> {
  const state = await libraryIndexState(
    services.engine,
    texts.filter((t): t is string => t !== undefined),
  );
  if (!state) return { kind: 'cold' };
  return { kind: 'ready', view: libraryView(state, dayOf(services.now())), indexedAt: state.indexedAt };
}

/**
 * The pinned documents for this answer: all of them on the session's first answer, none after.
 * Call {@link servedPinned} once the answer is complete.
 */
export function pinnedFor(
  services: Pick<Services, 'pinnedSessions'>,
  view: LibraryView,
  context: ToolCallContext,
): PinnedDocument[] {
  return services.pinnedSessions.needs(context.sessionId) ? pinnedDocuments(view) : [];
}

export function servedPinned(services: Pick<Services, 'pinnedSessions'>, context: ToolCallContext): void {
  services.pinnedSessions.markServed(context.sessionId);
}

/** The pinned block and a blank line, or '' (for `renderText`). */
export function pinnedPrefix(pinned: readonly PinnedDocument[] | undefined): string {
  const block = renderPinned(pinned ?? []);
  return block ? `${block}\n\n---\n\n` : '';
}

/** The call log wrapper, used by every tool (callLog.ts); re-exported for the library tools. */
export { logged } from './callLog';

/**
 * The error for an id that resolved to nothing served: too short, not hex, ambiguous (listing
 * the candidates), or unknown (saying when it names a draft or expired page).
 */
export function idError(
  field: string,
  input: string,
  lookup: Extract<IdLookup, { ok: false }>,
  view: LibraryView,
  what: 'document' | 'section',
): ToolInputError {
  const given = JSON.stringify(input);
  switch (lookup.reason) {
    case 'not-hex':
      return new ToolInputError(
        `${field}: ${given} is not an id; ids are hexadecimal, printed with 8 characters (for example "3f2a9c1e"). get_toc() lists them.`,
      );
    case 'too-short':
      return new ToolInputError(
        `${field}: ${given} is too short; give at least 4 characters of the id, or all 8 as printed.`,
      );
    case 'ambiguous': {
      const list = lookup.candidates
        .slice(0, 10)
        .map((id) => describeId(view, id))
        .join('; ');
      const more = lookup.candidates.length > 10 ? `; and ${lookup.candidates.length - 10} more` : '';
      return new ToolInputError(
        `${field}: ${given} matches ${lookup.candidates.length} ${what}s: ${list}${more}. Give more characters of the id.`,
      );
    }
    case 'unknown': {
      const hidden = hiddenMatch(view, input);
      if (hidden) {
        const state = hidden.reason === 'draft' ? 'a draft' : `expired (expires: ${hidden.doc.library?.expires})`;
        return new ToolInputError(
          `${field}: ${given} belongs to "${hidden.doc.title}", which is ${state}; drafts and expired pages are not served.`,
        );
      }
      const hint =
        what === 'section' && view.docById.has(resolveAny(view, input, 'document'))
          ? ` It is a document id: get_toc(document_id=${given}) lists its sections.`
          : what === 'document' && view.sectionById.has(resolveAny(view, input, 'section'))
            ? ` It is a section id: get_section(id=${given}) returns it.`
            : ` get_toc() lists the ${what} ids.`;
      return new ToolInputError(`${field}: no ready library ${what} has the id ${given}.${hint}`);
    }
  }
}

function describeId(view: LibraryView, id: string): string {
  const section = view.sectionById.get(id);
  if (section)
    return `[${shownId(view, id)}] ${sectionHeading(section.section, section.doc)} (in "${section.doc.title}")`;
  const doc = view.docById.get(id);
  return doc ? `[doc ${shownId(view, id)}] ${doc.title}` : id.slice(0, 8);
}

/** The one full id of the other kind that `input` prefixes, or ''. */
function resolveAny(view: LibraryView, input: string, kind: 'document' | 'section'): string {
  const prefix = input.trim().toLowerCase();
  const ids = kind === 'document' ? view.docById.keys() : view.sectionById.keys();
  const found = [...ids].filter((id) => id.startsWith(prefix));
  return found.length === 1 ? found[0] : '';
}
