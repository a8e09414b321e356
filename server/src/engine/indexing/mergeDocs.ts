/**
 * One path is one document: when two sources claim the same file (an epic kept inside an entity's
 * docs folder, two entities sharing one docs folder), the more specific source wins (library,
 * then epic, then entity docs, then overview) and the entity attachments are merged.
 */
import type { Doc } from '../model';

const SOURCE_PRIORITY: Record<Doc['sourceKind'], number> = {
  library: 0,
  epic_doc: 1,
  catalog_doc: 2,
  repo_overview: 3,
  catalog_entity: 4,
};

/** The documents with one per id, in the order each id first came. */
export function mergeByPath(docs: Doc[]): Doc[] {
  const byId = new Map<string, Doc>();
  for (const doc of docs) {
    const existing = byId.get(doc.id);
    if (!existing) {
      byId.set(doc.id, doc);
      continue;
    }
    const [keep, other] =
      SOURCE_PRIORITY[doc.sourceKind] < SOURCE_PRIORITY[existing.sourceKind] ? [doc, existing] : [existing, doc];
    const refs = [...new Set([...keep.entityRefs, ...other.entityRefs])];
    byId.set(doc.id, refs.length === keep.entityRefs.length ? keep : { ...keep, entityRefs: refs });
  }
  return [...byId.values()];
}
