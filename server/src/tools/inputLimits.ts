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

/** A list argument of at most INPUT_LIMITS.listLength items (strings of at most INPUT_LIMITS.listItem characters by default). */
export function boundedList<Item extends z.ZodType = z.ZodString>(item?: Item): z.ZodArray<Item> {
  const of = (item ?? boundedString(INPUT_LIMITS.listItem)) as Item;
  return z
    .array(of, { error: (issue) => (issue.input === undefined ? undefined : 'must be a list') })
    .max(INPUT_LIMITS.listLength, { message: `must hold at most ${INPUT_LIMITS.listLength} items` });
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * A whole-number argument from `min` to `max`: the range is published in the JSON Schema
 * (`minimum`/`maximum`), and every way of missing it (a string, a fraction, out of range) gets the
 * same message, which states the range and the default. `why` adds the tool's reason, e.g. that
 * deeper walks are refused rather than clamped.
 */
export function wholeNumber(min: number, max: number, defaultValue: number, why?: string): z.ZodOptional<z.ZodNumber> {
  const message = `must be a whole number from ${count(min)} to ${count(max)} (the default is ${count(defaultValue)})${why ? `; ${why}` : ''}`;
  const error = (issue: { input?: unknown }) => (issue.input === undefined ? undefined : message);
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error }).optional();
}

/**
 * One of a closed set of words (a JSON Schema `enum`); the message lists them. `what` names one
 * value in the tool's words ("a source kind"), so a wrong one reads `"wiki" is not a source kind; use any of ...`.
 */
export function oneOf<Value extends string>(values: readonly Value[], what: string, many = false) {
  return z.enum(values as [Value, ...Value[]], {
    error: (issue) =>
      issue.input === undefined
        ? undefined
        : `${JSON.stringify(issue.input)} is not ${what}; use ${many ? 'any' : 'one'} of ${values.join(', ')}`,
  });
}
