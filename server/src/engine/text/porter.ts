/**
 * The stemmer every index term and query term goes through: Porter's revised algorithm (Porter2,
 * Snowball English; `porter2.ts`), memoised.
 *
 * Porter2 rather than the 1980 algorithm because the contract's examples need it (docs/ARCHITECTURE.md, "Text analysis and candidates"): "deploy",
 * "deploying", "deployed" and "deployment" are one stem (`deploy`), and "rotating" meets
 * "rotate" (`rotat`). The 1980 algorithm split the first four (`deploi` vs `deploy`).
 */
import { BoundedCache } from './boundedCache';
import { porter2Stem } from './porter2';

const cache = new BoundedCache<string>(50_000);

/**
 * The stem of a lower-case word. Memoised (up to 100,000 recent words): a workspace's vocabulary
 * repeats, and a cache hit is several times cheaper than stemming.
 */
export function porterStem(word: string): string {
  let stem = cache.get(word);
  if (stem === undefined) {
    stem = porter2Stem(word);
    cache.set(word, stem);
  }
  return stem;
}
