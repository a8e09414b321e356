import assert from 'node:assert/strict';
import * as path from 'node:path';
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

/**
 * 2,400 sections in 600 documents of every kind a section's fields come from: library pages with
 * a type and tags, docs in folders, configuration files (key paths), epics; identifiers, words
 * past the analyzer's cap, non-ASCII words. Past the 2,000 sections a store counts in workers.
 */
function manyDocs(): Doc[] {
  const docs: Doc[] = [];
  for (let i = 0; i < 600; i++) {
    const folder = i % 2 === 0 ? 'alpha' : 'beta';
    const body = (n: number) =>
      `Roll back step ${i * 4 + n} of the billing-worker with \`spec.rollout.maxSurge${n}\` set; ` +
      `retries ${'x'.repeat(120 + (i % 20))} straße naïve SHA256 v${n} ${['refund', 'wombat', 'gamma'][(i + n) % 3]}.`;
    const text = `# Runbook ${i}\n\n${body(0)}\n\n## How do I retry ${i}?\n\n${body(1)}\n\n## Steps\n\n${body(2)}\n\n### Deep\n\n${body(3)}\n`;
    switch (i % 4) {
      case 0:
        docs.push(
          buildDoc({
            path: `${folder}/rules/page-${i}.md`,
            folder,
            text,
            sourceKind: 'library',
            format: 'markdown',
            library: {
              type: i % 8 === 0 ? 'rule' : undefined,
              goodFor: [],
              questions: [],
              tags: i % 3 === 0 ? ['payments', `tag-${i % 7}`] : [],
              alwaysInclude: false,
              status: 'published',
              links: [],
              namespace: '',
            },
          }).doc,
        );
        break;
      case 1:
        docs.push(
          buildDoc({
            path: `${folder}/services/svc-${i}/docs/index.md`,
            folder,
            text,
            sourceKind: 'catalog_doc',
            format: 'markdown',
          }).doc,
        );
        break;
      case 2:
        docs.push(
          buildDoc({ path: `${folder}/epics/epic-${i}.md`, folder, text, sourceKind: 'epic_doc', format: 'markdown' })
            .doc,
        );
        break;
      default:
        docs.push(
          buildDoc({
            path: `${folder}/README-${i}.md`,
            folder,
            text,
            title: `Overview ${i}`,
            sourceKind: 'repo_overview',
            format: 'markdown',
          }).doc,
        );
    }
  }
  return docs;
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

  it('counts a cold index in worker threads into the postings one thread builds, byte for byte', async function () {
    // Two worker threads start under tsx.
    this.timeout(60_000);
    const docs = manyDocs();
    const here = new SectionStore({ prefixedPaths: true });
    here.apply(docs);
    const pooled = new SectionStore({ prefixedPaths: true });
    assert.equal(await pooled.prepareRebuild(docs, { workers: 2 }), true);
    assert.deepEqual(pooled.apply(docs), {
      addedSections: 2_400,
      removedSections: 0,
      changedDocs: docs.map((d) => d.id),
      removedDocs: [],
    });
    assert.equal(here.sectionCount, 2_400);
    assert.deepEqual(Buffer.from(pooled.postings.serialize()), Buffer.from(here.postings.serialize()));
    assert.deepEqual(view(pooled, TERMS), view(here, TERMS));
    assert.deepEqual(pooled.exportOrdinals(docs), here.exportOrdinals(docs));
  });

  it('counts on this thread when the workers cannot start, or none are asked for, or the store is not empty', async () => {
    const docs = manyDocs();
    const here = new SectionStore();
    here.apply(docs);
    const missing = new SectionStore();
    assert.equal(
      await missing.prepareRebuild(docs, { workers: 2, script: path.join(__dirname, 'no-such-worker.js') }),
      false,
    );
    missing.apply(docs);
    assert.deepEqual(Buffer.from(missing.postings.serialize()), Buffer.from(here.postings.serialize()));
    assert.equal(await new SectionStore().prepareRebuild(docs, { workers: 0 }), false);
    assert.equal(await here.prepareRebuild(docs, { workers: 2 }), false);
  });
});
