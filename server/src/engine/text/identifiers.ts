/**
 * The parts of an identifier: split on connectors (`-` `_` `.` `:` `/`, apostrophes and anything
 * else that is not a word character) and on camelCase boundaries, lower-cased.
 *
 *   `billing-worker`          -> billing, worker
 *   `HTTPServerError`         -> http, server, error
 *   `component:default/api`   -> component, default, api
 *   `BILLING_RETRY_MAX`       -> billing, retry, max
 *   `http2Server`             -> http2, server      (a digit never starts a new part)
 *   `listAPIs`                -> list, apis         (plural acronyms stay whole)
 *
 * Stop-word filtering and stemming of the parts belong to the analyzer.
 */
import { isCamelBoundary, isPluralAcronym, wordCharWidth } from './charClass';

/** Lower-cased parts of `identifier`, in order, duplicates kept. */
export function identifierParts(identifier: string): string[] {
  const parts: string[] = [];
  const n = identifier.length;
  let i = 0;
  while (i < n) {
    if (wordCharWidth(identifier, i) === 0) {
      i++;
      continue;
    }
    const start = i;
    let w: number;
    while (i < n && (w = wordCharWidth(identifier, i)) > 0) i += w;
    splitCamel(identifier, start, i, parts);
  }
  return parts;
}

function splitCamel(text: string, start: number, end: number, out: string[]): void {
  if (isPluralAcronym(text, start, end)) {
    out.push(text.slice(start, end).toLowerCase());
    return;
  }
  let from = start;
  for (let i = start + 1; i < end; i++) {
    if (isCamelBoundary(text, i, start, end)) {
      out.push(text.slice(from, i).toLowerCase());
      from = i;
    }
  }
  out.push(text.slice(from, end).toLowerCase());
}
