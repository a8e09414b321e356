/**
 * The frame of a natural question: the words that say "this is a question" rather than what it
 * is about ("how do I", "is it possible to", "what's the best way to", "what should I check").
 * Most of them are stop words already; the ones that are not ("possible", "best", "way",
 * "procedure", "wrong") would otherwise weigh as content and reward every passage that happens to
 * say them. Only the phrases are removed, so "the best practice" or "a way out" keep their words.
 */

/** Phrases that frame a question, lower-case, apostrophes as `'`; longest first. */
const FRAME_PHRASES = [
  "what's the best way to",
  'what is the best way to',
  'what would be the best way to',
  'is there a recommended way to',
  'is there an easy way to',
  'is there any way to',
  'is there a way to',
  'is it possible to',
  'is it possible for',
  'would it be possible to',
  'the best way to',
  'what should i check',
  'what should we check',
  "what's going on",
  'what is going on',
  "what's the procedure",
  'what is the procedure',
  "what's the recommended approach",
  'did something go wrong',
  'what am i missing',
  'any ideas',
  'i would like to',
  "i'd like to",
  "we'd like to",
  'we would like to',
  'i want to',
  'we want to',
  'do i need to',
  'do we need to',
  'how do i',
  'how do we',
  'how can i',
  'how can we',
  'how should i',
  'how should we',
  'can i',
  'can we',
  'please',
].sort((a, b) => b.length - a.length);

const FRAME = new RegExp(
  `(^|[^\\p{L}\\p{N}])(?:${FRAME_PHRASES.map(escapeRegExp).join('|')})(?=$|[^\\p{L}\\p{N}])`,
  'giu',
);

const QUESTION_START =
  /^\s*(how|why|what|what's|when|where|which|who|can|could|should|is|are|does|do|did|will|would)\b/i;

/** The question with its framing phrases replaced by spaces. */
export function stripQuestionFrame(question: string): string {
  return question.replace(/’/g, "'").replace(FRAME, '$1 ');
}

/** True when the text is asked as a question: it ends with `?` or opens with a question word. */
export function isQuestion(text: string): boolean {
  return text.trim().endsWith('?') || QUESTION_START.test(text);
}

function escapeRegExp(phrase: string): string {
  return phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
}
