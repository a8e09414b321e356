/**
 * JSON that PostgreSQL will take. Its `jsonb` refuses `\u0000` and a UTF-16 surrogate without its
 * pair (`text` refuses NUL too), and workspace text holds whatever its files hold: one lone
 * `\uD800` in a catalog string used to fail the namespace's whole write, and the folders after
 * it. Each such character is written as U+FFFD instead, and counted, so the writer can name the
 * documents that held one.
 *
 * The check runs over the JSON text `JSON.stringify` made (which writes both as `\u` escapes):
 * one scan that finds nothing in the common case, and a rewrite of the escapes only when it does.
 */

/** Every escape of a JSON text, left to right (so `\\u0000`, an escaped backslash, is not read as NUL). */
const ESCAPE =
  /\\(u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[dD][89a-fA-F][0-9a-fA-F]{2}|u0000|[\s\S])/g;
/** Anything worth the rewrite: a NUL or a surrogate escape. */
const SUSPECT = /\\u(?:0000|[dD][89a-fA-F])/;

export interface StorableJson {
  json: string;
  /** Characters written as U+FFFD. */
  replaced: number;
}

/** `JSON.stringify(value)` with NUL and unpaired surrogates written as U+FFFD. */
export function storableJson(value: unknown): StorableJson {
  const json = JSON.stringify(value);
  if (!SUSPECT.test(json)) return { json, replaced: 0 };
  let replaced = 0;
  const cleaned = json.replace(ESCAPE, (match: string, body: string) => {
    if (body === 'u0000' || (body.length === 5 && /^u[dD][89a-fA-F]/.test(body))) {
      replaced++;
      return '\\ufffd';
    }
    return match;
  });
  return { json: cleaned, replaced };
}

/** Characters of `value`'s JSON that {@link storableJson} would replace (0 for most values). */
export function unstorableCharacters(value: unknown): number {
  return storableJson(value).replaced;
}
