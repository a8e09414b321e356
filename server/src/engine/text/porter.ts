/**
 * Porter's ORIGINAL stemming algorithm (M.F. Porter, "An algorithm for suffix stripping",
 * Program 14(3), 1980), as published with its reference vocabulary at
 * tartarus.org/~martin/PorterStemmer (including the two departures of the reference C version,
 * `bli` -> `ble` and `logi` -> `log`, and leaving words of one or two letters alone).
 *
 * The `stemmer` package (v2) implements exactly that; the unit test runs Porter's whole published
 * vocabulary (23,531 words) through this module so an upgrade that drifts is caught. Not Porter2 /
 * Snowball English, which stems differently (`generously` -> `generous` vs `gener`).
 */
import { stemmer } from 'stemmer';
import { BoundedCache } from './boundedCache';

const cache = new BoundedCache<string>(50_000);

/**
 * The Porter stem of a lower-case word. Memoised (up to 100,000 recent words): a workspace's
 * vocabulary repeats, and a cache hit is several times cheaper than stemming.
 * Callers pass lower-case ASCII letters; anything else is stemmed as the package would.
 */
export function porterStem(word: string): string {
  let stem = cache.get(word);
  if (stem === undefined) {
    stem = stemmer(word);
    cache.set(word, stem);
  }
  return stem;
}
