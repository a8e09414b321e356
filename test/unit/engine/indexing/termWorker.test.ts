/**
 * A term worker's counts (termWorker.ts `LocalTerms`) are `sectionFields`' own, term for term and
 * in the same order: the worker counts by id as it meets the terms, the answering thread's
 * `sectionFields` through a map per section, and the postings built from either must be the same
 * bytes (sectionStore.ts maps the worker's ids in the order they come).
 */
import * as assert from 'node:assert/strict';
import { LocalTerms, type TermDoc, type TermReply } from '../../../../server/src/engine/indexing/termWorker';
import { documentFields, sectionFields } from '../../../../server/src/engine/indexing/sectionTerms';
import { packShortLengths } from '../../../../server/src/engine/lexical/fields';

/** What `sectionFields` gives each section of `docs`, in order: [term, packed counts][] and lengths. */
function expected(docs: readonly TermDoc[]) {
  return docs.flatMap((doc) => {
    const fields = documentFields(doc, doc.inFolder);
    return doc.sections.map((section) => {
      const { counts, lengths } = sectionFields(section, doc, fields);
      return { terms: [...counts], body: lengths.body, short: packShortLengths(lengths) };
    });
  });
}

/** The worker's replies read back per section, its ids turned into terms through the replies' new terms. */
function readBack(replies: readonly TermReply[]) {
  const dictionary: string[] = [];
  const sections: { terms: [string, number][]; body: number; short: number }[] = [];
  for (const reply of replies) {
    assert.equal(reply.firstNewId, dictionary.length, 'each reply numbers its new terms after the last');
    dictionary.push(...reply.newTerms);
    let at = 0;
    reply.termCounts.forEach((count, s) => {
      const terms: [string, number][] = [];
      for (let k = 0; k < count; k++, at++) terms.push([dictionary[reply.ids[at]], reply.packed[at]]);
      sections.push({ terms, body: reply.bodyLengths[s], short: reply.shortLengths[s] });
    });
    assert.equal(at, reply.ids.length);
  }
  return { dictionary, sections };
}

const doc = (path: string, title: string, sections: [string[], string][], format = 'markdown'): TermDoc =>
  ({
    title,
    path,
    format,
    sourceKind: format === 'catalog' ? 'catalog_entity' : 'catalog_doc',
    inFolder: path,
    sections: sections.map(([headingPath, text]) => ({ headingPath, text })),
  }) as TermDoc;

describe('indexing/termWorker LocalTerms', () => {
  it("counts each section's terms as sectionFields does, in its order, across batches", () => {
    // 1,300 distinct words in one section and 70,000 over the batches: past the worker's first
    // sizes of its per-section list (1,024) and of its counts by id (65,536).
    const many = (from: number, n: number) => Array.from({ length: n }, (_, i) => `w${from + i}x`).join(' ');
    const first = [
      doc('services/billing-worker/docs/runbook.md', 'Billing worker runbook', [
        [
          ['Billing worker runbook'],
          'Roll back the billing-worker when the runbook says so. Billing, billing, billing.',
        ],
        [
          ['Billing worker runbook', 'How do I retry a failed charge?'],
          'Set `spec.retry.limit` and retry.\n\n```yaml\nspec:\n  retry:\n    limit: 3\n```\n',
        ],
        [['Billing worker runbook', 'Many words'], many(0, 1_300)],
      ]),
      doc(
        'catalog-info.yaml',
        'billing-worker',
        [[['billing-worker'], 'spec:\n  owner: team-a\nbilling worker']],
        'catalog',
      ),
    ];
    const second = [
      doc('docs/a.md', 'Straße and Strasse', [
        [['Straße'], `Straße ${many(1_000, 40_000)}`],
        [['More'], `${many(40_000, 30_000)} retry billing`],
      ]),
      doc('docs/b.md', 'Billing', [[['Billing', 'Retry'], 'Retry the billing-worker; the runbook is above.']]),
    ];
    const terms = new LocalTerms();
    const replies = [terms.count({ id: 0, docs: first }), terms.count({ id: 1, docs: second })];
    const { dictionary, sections } = readBack(replies);
    assert.deepEqual(sections, expected([...first, ...second]));
    assert.equal(new Set(dictionary).size, dictionary.length, 'each term has one id');
    assert.equal(terms.size, dictionary.length);
    assert.ok(dictionary.length > 70_000);
    assert.ok(sections[2].terms.length > 1_300);
    // The document's own terms come first, then the section's in order of first occurrence.
    assert.deepEqual(
      sections[1].terms.slice(0, 8).map(([term]) => term),
      ['bill', 'worker', 'runbook', 'servic', 'billing-worker', 'billingwork', 'doc', 'retri'],
    );
  });

  it('gives the same counts whichever batch a document comes in', () => {
    const docs = [
      doc('docs/one.md', 'One', [[['One'], 'alpha beta beta gamma']]),
      doc('docs/two.md', 'Two', [[['Two'], 'beta delta alpha']]),
    ];
    const together = new LocalTerms().count({ id: 0, docs });
    const apart = new LocalTerms();
    const replies = [apart.count({ id: 0, docs: [docs[0]] }), apart.count({ id: 1, docs: [docs[1]] })];
    assert.deepEqual(readBack(replies), readBack([together]));
    assert.deepEqual(readBack([together]).sections, expected(docs));
  });
});
