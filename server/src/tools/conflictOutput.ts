/**
 * How every tool outputs a library conflict (library/view/soundness.ts): the other page with
 * its printed id, place and wording, this passage's wording, and what differs.
 */
import { z } from 'zod';
import { clipWording, type PassageFlag } from '../library/view/soundness';

/** An unsettled conflict with another page (library/soundness.ts): the other page and both wordings. */
export const conflictSchema = z.object({
  with: z.object({ id: z.string(), title: z.string(), heading: z.string(), path: z.string(), line: z.number() }),
  /** This section's heading (whole pages: which of its sections). */
  heading: z.string(),
  /** The words here, and the other page's. */
  here: z.string(),
  there: z.string(),
  /** What differs ("30 days vs 14 days"). */
  what: z.string(),
  /** How it was found: numbers, dates or model. */
  by: z.string(),
});

/** A conflict as output, ids printed. */
export function conflictOutput(f: PassageFlag, idOf: (id: string) => string): z.infer<typeof conflictSchema> {
  return {
    with: {
      id: idOf(f.other.docId),
      title: f.other.title,
      heading: f.other.heading,
      path: f.other.path,
      line: f.other.line,
    },
    heading: f.here.heading,
    here: clipWording(f.here.wording),
    there: clipWording(f.other.wording),
    what: f.what,
    by: f.by,
  };
}
