/**
 * The published maximum of every string and list argument of every tool (README "The MCP tools"),
 * enforced by the tools' zod schemas before any work starts: an argument past its maximum is
 * refused with an error naming the field and the maximum, so no input can make a call do
 * unbounded work (edit distances over a megabyte-long entity ref, a question of a million terms).
 * Each maximum is far above any real use.
 */
import { z } from 'zod';

export const INPUT_LIMITS = {
  /** `workspace`: a folder name or path. */
  workspace: 4096,
  /** `question`, `task`, `plan`: a sentence or a paragraph. */
  text: 4000,
  /** `query` of get_toc. */
  query: 1000,
  /** `entityRef`: `kind:namespace/name` (Backstage caps each part at 63 characters). */
  entityRef: 512,
  /** `asOf`: a date-time or a commit-ish. */
  asOf: 256,
  /** `page_id`, `id`, `document_id`: 8 characters, a prefix, or a full 64-character id. */
  id: 128,
  /** `pack`, `folder`, `namespace`: a name or a folder path. */
  name: 256,
  /** One item of a list argument (`tags`, `sourceKinds`, `edgeTypes`). */
  listItem: 128,
  /** Items in a list argument. */
  listLength: 50,
} as const;

/** A string argument of at most `max` characters; the error names the maximum. */
export function boundedString(max: number): z.ZodString {
  return z.string().max(max, { message: `must be at most ${max} characters` });
}

/** A list argument of at most INPUT_LIMITS.listLength strings of at most INPUT_LIMITS.listItem characters each. */
export function boundedList(item: z.ZodString = boundedString(INPUT_LIMITS.listItem)): z.ZodArray<z.ZodString> {
  return z.array(item).max(INPUT_LIMITS.listLength, { message: `must hold at most ${INPUT_LIMITS.listLength} items` });
}
