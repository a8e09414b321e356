/**
 * "Did you mean" for entity refs: the closest catalog refs to something a user typed.
 *
 * Compares the typed name with each entity's name (and the typed ref with each full ref) by
 * edit distance, so `payment-api` suggests `payments-api` and `component:billing-wroker` suggests
 * `component:default/billing-worker`. Cheap enough for catalogs of tens of thousands of entities:
 * distances are only computed for names within a length window of the input.
 */
import type { CatalogEntity } from '../model';

export function nearestRefs(input: string, entities: Iterable<CatalogEntity>, count = 3): string[] {
  const typed = input.trim().toLowerCase();
  const typedName = nameOf(typed);
  const scored: { ref: string; score: number }[] = [];
  for (const entity of entities) {
    const name = entity.name.toLowerCase();
    let score = Math.abs(name.length - typedName.length) > 6 ? Infinity : editDistance(typedName, name);
    // One name inside the other (`payments` for `payments-api`) is close, the closer the lengths.
    if (name.includes(typedName) || typedName.includes(name)) score = Math.min(score, 1 + Math.abs(name.length - typedName.length) / 4);
    score = Math.min(score, editDistance(typed, entity.key));
    // A kind the user named counts: prefer refs of that kind among equally close names.
    if (typed.includes(':') && !entity.key.startsWith(typed.slice(0, typed.indexOf(':') + 1))) score += 0.5;
    if (score <= Math.max(3, typedName.length / 2)) scored.push({ ref: entity.ref, score });
  }
  scored.sort((a, b) => a.score - b.score || a.ref.localeCompare(b.ref));
  return scored.slice(0, count).map((s) => s.ref);
}

/** The name part of `[kind:][namespace/]name`. */
function nameOf(ref: string): string {
  const afterKind = ref.slice(ref.indexOf(':') + 1);
  return afterKind.slice(afterKind.indexOf('/') + 1);
}

/** Levenshtein distance with two rolling rows. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = new Array<number>(b.length + 1);
  let curr = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    curr[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      curr[j] = Math.min(prev[j] + 1, curr[j - 1] + 1, prev[j - 1] + cost);
    }
    [prev, curr] = [curr, prev];
  }
  return prev[b.length];
}
