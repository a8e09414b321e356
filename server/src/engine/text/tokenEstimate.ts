/**
 * Token counts are estimates (docs/ARCHITECTURE.md, "Text analysis and candidates"): characters / 4, rounded up. Characters are
 * UTF-16 code units (`text.length`), which is what every budget in the tools is measured against.
 */
export const CHARS_PER_TOKEN = 4;

/** Estimated model tokens in `text`: `ceil(text.length / 4)`; 0 for the empty string. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
