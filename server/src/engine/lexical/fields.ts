/**
 * The fields a section is matched on, and how a term's frequency in each is packed beside its
 * posting (one uint32 per posting) and a section's field lengths beside its ordinal.
 *
 * | field | what it holds | frequency bits | length bits |
 * | --- | --- | --- | --- |
 * | body | the section's own text | 16 (cap 65,535) | 32 (own array) |
 * | heading | the section's heading path | 6 (cap 63) | 12 (cap 4,095) |
 * | title | its document's title | 5 (cap 31) | 10 (cap 1,023) |
 * | context | its document's folder words, type and tags | 5 (cap 31) | 9 (cap 511) |
 *
 * The last bit of the packed lengths says whether the section's own heading is a question
 * ("How can I terminate a sync?"): FAQ answers, which a question asked in other words should
 * reach on the words it shares with them.
 *
 * Frequencies and lengths past a cap are stored at the cap: a term said 63 times in a heading
 * path saturates long before that (BM25F, ranking/contract.ts).
 */

export const FIELDS = ['body', 'heading', 'title', 'context'] as const;
export type Field = (typeof FIELDS)[number];

const BODY_MAX = 0xffff;
const HEADING_SHIFT = 16;
const HEADING_MAX = 0x3f;
const TITLE_SHIFT = 22;
const TITLE_MAX = 0x1f;
const CONTEXT_SHIFT = 27;
const CONTEXT_MAX = 0x1f;

/** Frequencies of one term in each field of one section. */
export interface FieldCounts {
  body: number;
  heading: number;
  title: number;
  context: number;
}

/** One uint32 holding a term's frequency in every field (caps above). */
export function packCounts(c: FieldCounts): number {
  return (
    (Math.min(c.body, BODY_MAX) |
      (Math.min(c.heading, HEADING_MAX) << HEADING_SHIFT) |
      (Math.min(c.title, TITLE_MAX) << TITLE_SHIFT) |
      (Math.min(c.context, CONTEXT_MAX) << CONTEXT_SHIFT)) >>>
    0
  );
}

export function unpackCounts(packed: number): FieldCounts {
  return {
    body: packed & BODY_MAX,
    heading: (packed >>> HEADING_SHIFT) & HEADING_MAX,
    title: (packed >>> TITLE_SHIFT) & TITLE_MAX,
    context: (packed >>> CONTEXT_SHIFT) & CONTEXT_MAX,
  };
}

const FIELD_SHIFT: Readonly<Record<Field, number>> = {
  body: 0,
  heading: HEADING_SHIFT,
  title: TITLE_SHIFT,
  context: CONTEXT_SHIFT,
};
const FIELD_MAX: Readonly<Record<Field, number>> = {
  body: BODY_MAX,
  heading: HEADING_MAX,
  title: TITLE_MAX,
  context: CONTEXT_MAX,
};

/** Adds one occurrence in `field` to a packed value (saturating at the field's cap). */
export function addOccurrence(packed: number, field: Field): number {
  const shift = FIELD_SHIFT[field];
  const max = FIELD_MAX[field];
  if (((packed >>> shift) & max) === max) return packed;
  return (packed + 2 ** shift) >>> 0;
}

/**
 * A posting's packed counts with its body count at most 1: how a key path's whole form and
 * trailing forms are held (a name, not a word: neither the section's length nor the number of
 * example manifests that repeat it makes a section hold it more; its heading, title and context
 * counts stay).
 */
export function oneBodyOccurrence(packed: number): number {
  const body = packed & BODY_MAX;
  return body > 1 ? packed - body + 1 : packed;
}

/** Bit layout, read by the hot loop without unpacking objects. */
export const PACKED = {
  BODY_MAX,
  HEADING_SHIFT,
  HEADING_MAX,
  TITLE_SHIFT,
  TITLE_MAX,
  CONTEXT_SHIFT,
  CONTEXT_MAX,
} as const;

/** Lengths (in index terms) of a section's fields. */
export interface FieldLengths {
  body: number;
  heading: number;
  title: number;
  context: number;
  /** True when the section's own heading is a question. */
  questionHeading?: boolean;
}

const SHORT_HEADING_MAX = 0xfff;
const SHORT_TITLE_SHIFT = 12;
const SHORT_TITLE_MAX = 0x3ff;
const SHORT_CONTEXT_SHIFT = 22;
const SHORT_CONTEXT_MAX = 0x1ff;
const SHORT_QUESTION_BIT = 31;

/** The heading, title and context lengths in one uint32 (the body length has its own). */
export function packShortLengths(l: FieldLengths): number {
  return (
    (Math.min(l.heading, SHORT_HEADING_MAX) |
      (Math.min(l.title, SHORT_TITLE_MAX) << SHORT_TITLE_SHIFT) |
      (Math.min(l.context, SHORT_CONTEXT_MAX) << SHORT_CONTEXT_SHIFT) |
      ((l.questionHeading ? 1 : 0) << SHORT_QUESTION_BIT)) >>>
    0
  );
}

export function unpackLengths(body: number, short: number): FieldLengths {
  return {
    body,
    heading: short & SHORT_HEADING_MAX,
    title: (short >>> SHORT_TITLE_SHIFT) & SHORT_TITLE_MAX,
    context: (short >>> SHORT_CONTEXT_SHIFT) & SHORT_CONTEXT_MAX,
    questionHeading: short >>> SHORT_QUESTION_BIT === 1,
  };
}

export const SHORT = {
  SHORT_HEADING_MAX,
  SHORT_TITLE_SHIFT,
  SHORT_TITLE_MAX,
  SHORT_CONTEXT_SHIFT,
  SHORT_CONTEXT_MAX,
  SHORT_QUESTION_BIT,
} as const;

/** True when a heading reads as a question: it ends with `?`, or opens with a question word. */
export function isQuestionHeading(heading: string): boolean {
  const text = heading.trim();
  return text.endsWith('?') || /^(how|why|what|when|where|which|who|can|could|should|is|are|does|do)\b/i.test(text);
}

/** What the index stores of one section: each term's packed field counts and the field lengths. */
export interface SectionFields {
  /** Term -> packed field counts ({@link packCounts}); every term the section is matched on. */
  counts: ReadonlyMap<string, number>;
  lengths: FieldLengths;
}
