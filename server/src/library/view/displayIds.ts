/**
 * The ids the library tools print (docs/ARCHITECTURE.md, "Identity, commits, freshness"): the first 8 hex characters, longer only
 * for the rare ids whose first 8 characters another served id shares, so every printed id
 * resolves to exactly one document or section when handed back.
 */
import { SHORT_ID_LENGTH } from '../../engine';

/**
 * Shortest prefix of each id, at least {@link SHORT_ID_LENGTH} characters, that no other id in
 * `ids` starts with. Runs in O(n log n) over the sorted ids: an id's prefix only has to differ
 * from its neighbours in sorted order.
 */
export function displayIds(ids: Iterable<string>): Map<string, string> {
  const sorted = [...new Set(ids)].sort();
  const shown = new Map<string, string>();
  for (let i = 0; i < sorted.length; i++) {
    const id = sorted[i];
    let length = SHORT_ID_LENGTH;
    if (i > 0) length = Math.max(length, commonPrefix(id, sorted[i - 1]) + 1);
    if (i + 1 < sorted.length) length = Math.max(length, commonPrefix(id, sorted[i + 1]) + 1);
    shown.set(id, id.slice(0, Math.min(length, id.length)));
  }
  return shown;
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
