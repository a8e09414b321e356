/**
 * The lookups `explain_result` resolves its expected page with (explainTarget.ts), built once per
 * index state rather than scanning every document on every call: the documents by path and by
 * each path's tails (what follows any `/`, so `docs/a.md` finds `svc/docs/a.md`), and the document
 * ids in sorted order, where the ids starting with a prefix lie side by side.
 *
 * A memo keyed by the immutable state: the same answer whichever engine asks.
 */
import type { Doc, IndexState } from '../../engine';

interface TargetLookup {
  /** Path or tail -> the documents with that path or ending in `/` + it, in the state's document order. */
  byTail: Map<string, Doc[]>;
  /** Every document id, sorted. */
  docIds: string[];
}

const lookups = new WeakMap<IndexState, TargetLookup>();

function lookupOf(state: IndexState): TargetLookup {
  let lookup = lookups.get(state);
  if (!lookup) lookups.set(state, (lookup = build(state)));
  return lookup;
}

function build(state: IndexState): TargetLookup {
  const byTail = new Map<string, Doc[]>();
  // A path's tails are ever shorter, so no document is listed twice under one key.
  const add = (key: string, doc: Doc) => {
    const list = byTail.get(key);
    if (list) list.push(doc);
    else byTail.set(key, [doc]);
  };
  for (const doc of state.docs.values()) {
    add(doc.path, doc);
    for (let slash = doc.path.indexOf('/'); slash >= 0; slash = doc.path.indexOf('/', slash + 1))
      add(doc.path.slice(slash + 1), doc);
  }
  return { byTail, docIds: [...state.docs.keys()].sort() };
}

/** The documents whose path is `text` or ends with `/` + `text`, in the state's document order. */
export function docsByPath(state: IndexState, text: string): readonly Doc[] {
  return lookupOf(state).byTail.get(text) ?? [];
}

/**
 * The document id `hex` names: the whole id, or the one id it is a prefix of (engine's
 * resolveIdPrefix over the documents, found by halving the sorted ids). `hex` is 4+ hex digits.
 */
export function docIdByPrefix(state: IndexState, hex: string): string | undefined {
  const ids = lookupOf(state).docIds;
  const prefix = hex.toLowerCase();
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (ids[mid] < prefix) low = mid + 1;
    else high = mid;
  }
  const first = ids[low];
  if (!first?.startsWith(prefix)) return undefined;
  if (first === prefix) return first;
  const next = ids[low + 1];
  return next?.startsWith(prefix) ? undefined : first;
}
