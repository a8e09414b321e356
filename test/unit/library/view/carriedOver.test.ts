/**
 * What a new index state reuses of the one before when an edit left the library alone: the
 * library's near-duplicate pairs (nearDuplicates.ts) and its pages' subjects (subjects.ts) are
 * found again only when a library page changed. Real edits of a copy of the example workspace,
 * each put into service by the engine's own update.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sectionId } from '../../../../server/src/engine/chunking/ids';
import { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import { contextIndex } from '../../../../server/src/library/context/contextIndex';
import { libraryView } from '../../../../server/src/library/view/libraryView';
import { findNearDuplicates } from '../../../../server/src/library/view/nearDuplicates';
import { copyExampleWorkspace, removeTempDirs } from '../../../helpers/tempWorkspace';

const TODAY = '2026-06-01';
const REFUNDS = '.context/guides/issuing-refunds.md';
const GATEWAY = '.context/guides/calling-the-payments-gateway.md';
const RUNBOOK = 'platform-infra/docs/runbooks/rollback.md';

describe('per-state library work carried over from the state before when what it reads did not change', function () {
  this.timeout(60_000);
  let dir: string;
  let engine: Engine;

  before(() => {
    dir = copyExampleWorkspace({ git: true });
    engine = new Engine({ folders: [{ name: 'fernhill', absPath: dir }], settings: { refreshAfterMs: 0 } });
  });
  after(() => {
    engine.dispose();
    removeTempDirs();
  });

  /** Rewrites a file of the copy with `edit` and returns the state the engine's update puts into service. */
  async function edited(rel: string, edit: (text: string) => string): Promise<IndexState> {
    const abs = path.join(dir, rel);
    fs.writeFileSync(abs, edit(fs.readFileSync(abs, 'utf8')));
    const report = await engine.update([abs]);
    assert.ok(report, `the update of ${rel} ran`);
    const state = engine.current();
    assert.ok(state);
    return state;
  }

  const pairIds = (pairs: ReturnType<typeof findNearDuplicates>) =>
    pairs.map((p) => [p.a.section.id, p.b.section.id, Math.round(p.similarity * 1000) / 1000]);

  it('finds the same pairs and subjects after a docs edit, among the new view; a library edit finds them again', async () => {
    const first = libraryView(await engine.waitForIndex(), TODAY);
    const firstPairs = findNearDuplicates(first);
    const idempotency = [
      sectionId(GATEWAY, ['Calling the payments gateway', 'Idempotency keys']),
      sectionId(REFUNDS, ['Issuing refunds', 'Idempotency keys']),
    ].sort();
    assert.deepEqual(
      firstPairs.map((p) => [p.a.section.id, p.b.section.id].sort()),
      [idempotency],
    );
    const firstSubjects = contextIndex(first).subjects;

    // A runbook outside the library: a new state, the library's pages the same objects.
    const second = libraryView(await edited(RUNBOOK, (t) => `${t}\n\nRoll back before you roll forward.\n`), TODAY);
    assert.notEqual(second, first);
    assert.ok(
      second.docs.every((doc, i) => doc === first.docs[i]),
      'the edit left every library page as it was',
    );
    const secondPairs = findNearDuplicates(second);
    assert.deepEqual(pairIds(secondPairs), pairIds(firstPairs));
    // The pairs are the new view's entries, not the old view's.
    for (const pair of secondPairs) {
      assert.equal(pair.a, second.sectionById.get(pair.a.section.id));
      assert.equal(pair.b, second.sectionById.get(pair.b.section.id));
    }
    assert.equal(contextIndex(second).subjects, firstSubjects);
    // The catalog's and the library's names too, with the names already found in each section.
    assert.equal(contextIndex(second).names, contextIndex(first).names);

    // The refunds guide's idempotency section rewritten: no longer a copy of the gateway's.
    const third = libraryView(
      await edited(REFUNDS, (t) =>
        t.replace(
          /## Idempotency keys\n[\s\S]*?(?=\n## )/,
          '## Idempotency keys\n\nSupport never builds these by hand: the refund form in the back office sets one for every request it sends, and a ticket that shows a 409 goes to the payments on-call.\n',
        ),
      ),
      TODAY,
    );
    const refunds = third.docs.find((d) => d.path === REFUNDS);
    assert.ok(refunds);
    assert.notEqual(
      refunds,
      first.docs.find((d) => d.path === REFUNDS),
    );
    assert.deepEqual(findNearDuplicates(third), []);
    // The subjects are read again; the pages the edit left alone keep theirs.
    const thirdSubjects = contextIndex(third).subjects;
    assert.notEqual(thirdSubjects, firstSubjects);
    for (const doc of third.docs) {
      if (doc === refunds) continue;
      assert.deepEqual(thirdSubjects.of(doc)?.names, firstSubjects.of(doc)?.names, doc.path);
    }

    // A tag added: the page's names follow it (a tag is the library's own label for a page).
    const fourth = libraryView(
      await edited(REFUNDS, (t) =>
        t.replace('tags: [refunds, payments, support]', 'tags: [refunds, payments, support, zorbex]'),
      ),
      TODAY,
    );
    const renamed = fourth.docs.find((d) => d.path === REFUNDS);
    assert.ok(renamed);
    assert.ok(contextIndex(fourth).subjects.of(renamed)?.names.has('zorbex'));
    assert.ok(!thirdSubjects.of(refunds)?.names.has('zorbex'));
    assert.notEqual(contextIndex(fourth).names, contextIndex(first).names);

    // A catalog edit outside the library: the library's subjects stay, the names follow the catalog.
    const fifth = libraryView(
      await edited('payments-platform/catalog-info.yaml', (t) =>
        t.replace('  title: Billing\n', '  title: Billing Quasar\n'),
      ),
      TODAY,
    );
    assert.equal(contextIndex(fifth).subjects, contextIndex(fourth).subjects);
    assert.notEqual(contextIndex(fifth).names, contextIndex(fourth).names);
    assert.deepEqual(
      contextIndex(fifth)
        .names.find('the Billing Quasar service')
        .map((m) => [m.entry.kind, m.entry.ref]),
      [['system', 'system:default/billing']],
    );
  });
});
