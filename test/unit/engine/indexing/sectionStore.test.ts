import assert from 'node:assert/strict';
import { SectionStore } from '../../../../server/src/engine/indexing/sectionStore';
import type { Doc } from '../../../../server/src/engine/model';
import { buildDoc } from '../../../../server/src/engine/sources/docBuilder';

function page(
  path: string,
  text: string,
  entityRefs: string[] = [],
  sourceKind: 'library' | 'catalog_doc' = 'library',
): Doc {
  return buildDoc({ path, text, sourceKind, format: 'markdown', entityRefs }).doc;
}

/** What a store holds, independent of ordinals: section texts by id, and which sections each term finds. */
function view(store: SectionStore, terms: readonly string[]) {
  const snapshot = store.snapshot();
  const byOrdinal = new Map(snapshot.sections.filter((e) => e !== undefined).map((e) => [e!.ordinal, e!]));
  const sections = [...byOrdinal.values()]
    .map((e) => [e.section.id, e.section.text, e.doc.entityRefs.join(',')])
    .sort();
  const found = terms.map((term) => {
    const match = store.postings.match([[term]]);
    const ids: string[] = [];
    for (let i = 0; i < match.count; i++) ids.push(byOrdinal.get(match.ordinals[i])!.section.id);
    return [term, ids.sort()];
  });
  // Documents by source kind, as the store keeps them and as a count of its documents gives them.
  const byKind: Record<string, number> = {};
  for (const doc of snapshot.docs.values()) byKind[doc.sourceKind] = (byKind[doc.sourceKind] ?? 0) + 1;
  const kept = Object.fromEntries(Object.entries(store.documentsByKind()).filter(([, n]) => n !== 0));
  assert.deepEqual(kept, byKind);
  return { docs: [...snapshot.docs.keys()].sort(), sections, found, count: store.sectionCount, byKind };
}

const TERMS = ['alpha', 'beta', 'gamma', 'delta', 'refund', 'wombat'];

describe('indexing/sectionStore', () => {
  it('an update with the same documents at the same positions looks only at the replaced ones, and ends as a rebuild would', () => {
    const a = page('a.md', '# Alpha\n\nalpha text\n\n## Refund\n\nrefund rules\n');
    const b = page('b.md', '# Beta\n\nbeta text\n');
    const c = page('c.md', '# Gamma\n\ngamma text\n');
    const store = new SectionStore();
    store.apply([a, b, c]);
    const b2 = page('b.md', '# Beta\n\nbeta text about a wombat\n');
    const c2 = page('c.md', '# Gamma\n\ngamma text\n', ['component:default/gamma']);
    const diff = store.apply([a, b2, c2]);
    assert.deepEqual(diff, { addedSections: 1, removedSections: 1, changedDocs: [b2.id], removedDocs: [] });
    const rebuilt = new SectionStore();
    rebuilt.rebuild([a, b2, c2]);
    assert.deepEqual(view(store, TERMS), view(rebuilt, TERMS));
    // Re-attached but otherwise identical: the section keeps its ordinal and shows the new attachment.
    assert.equal(store.snapshot().docs.get(c.id), c2);
  });

  it('takes the full path when documents come, go or move, with the same result', () => {
    const a = page('a.md', '# Alpha\n\nalpha text\n');
    const b = page('b.md', '# Beta\n\nbeta text\n');
    const c = page('c.md', '# Gamma\n\ngamma text\n');
    const d = page('d.md', '# Delta\n\ndelta text\n', [], 'catalog_doc');
    const store = new SectionStore();
    store.apply([a, b, c]);
    const diff = store.apply([c, a, d]);
    assert.deepEqual(diff, { addedSections: 1, removedSections: 1, changedDocs: [d.id], removedDocs: [b.id] });
    const rebuilt = new SectionStore();
    rebuilt.rebuild([c, a, d]);
    assert.deepEqual(view(store, TERMS), view(rebuilt, TERMS));
    // Same ids again at the same positions, nothing replaced: nothing to do.
    assert.deepEqual(store.apply([c, a, d]), {
      addedSections: 0,
      removedSections: 0,
      changedDocs: [],
      removedDocs: [],
    });
  });
});
