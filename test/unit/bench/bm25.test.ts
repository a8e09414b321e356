import assert from 'node:assert/strict';
import { Bm25Index, BM25_B, BM25_K1 } from '../../../bench/baselines/bm25';
import { makeQueries, corpusVocabulary } from '../../../bench/queries';

describe('bench/baselines/bm25', () => {
  const docs = [
    { id: 100, text: 'Rolling back the billing worker: run the rollback job.' },
    { id: 101, text: 'The ledger service posts journal entries.' },
    { id: 102, text: 'Billing invoices are closed every cycle; billing runs nightly and billing retries twice.' },
    { id: 103, text: 'Nothing relevant here at all, just padding words for length normalisation to matter.' },
  ];
  const index = Bm25Index.build(docs);

  it("finds a term in the documents holding it only, with Anserini's BEIR settings", () => {
    assert.deepEqual(index.search('ledger', 10), [101]);
    assert.deepEqual(index.search('journals', 10), [101], 'stemmed like the engine: journals -> journal');
    assert.equal(BM25_K1, 0.9);
    assert.equal(BM25_B, 0.4);
  });

  it('normalises by length: one occurrence in a short passage beats one in a long one', () => {
    const two = Bm25Index.build([
      { id: 1, text: 'alpha and many more words that make this passage long, long and longer still' },
      { id: 2, text: 'alpha gamma' },
      { id: 3, text: 'gamma delta' },
    ]);
    assert.deepEqual(two.search('alpha', 10), [2, 1]);
  });

  it('ranks more occurrences of a rarer term first and returns callers ids', () => {
    // Both 100 and 102 hold "billing" (stem "bill"); 102 holds it three times.
    assert.deepEqual(index.search('billing', 10), [102, 100]);
    // "rollback" only in 100: the rare term outweighs three "billing"s.
    assert.deepEqual(index.search('billing rollback', 10), [100, 102]);
  });

  it('cuts at k, ignores unknown words and stop words, and breaks ties by document order', () => {
    assert.deepEqual(index.search('billing', 1), [102]);
    assert.deepEqual(index.search('zebra the of', 10), []);
    const twins = Bm25Index.build([
      { id: 7, text: 'alpha beta' },
      { id: 3, text: 'alpha beta' },
    ]);
    assert.deepEqual(twins.search('alpha', 10), [7, 3]);
  });

  it('leaves no score behind between queries', () => {
    const first = index.search('billing ledger', 10);
    index.search('journal', 10);
    assert.deepEqual(index.search('billing ledger', 10), first);
  });
});

describe('bench/queries', () => {
  const texts = ['Deploy the billing-worker after the ledger migration.', 'Billing retries: the ledger posts entries.'];

  it('draws content words only, identifiers kept whole', () => {
    const { words, counts } = corpusVocabulary(texts);
    assert.deepEqual(words, [
      'deploy',
      'billing-worker',
      'ledger',
      'migration',
      'billing',
      'retries',
      'posts',
      'entries',
    ]);
    assert.deepEqual([...counts], [1, 1, 2, 1, 1, 1, 1, 1]);
  });

  it('leaves out the commonest words when asked, and only them', () => {
    // `ledger` (2) is the commonest; then ties keep the first seen: `deploy`.
    const words = new Set(makeQueries(texts, 50, 5, 2).flatMap((q) => q.split(' ')));
    assert.ok(!words.has('ledger') && !words.has('deploy'), [...words].join(' '));
    assert.ok(words.has('billing-worker') && words.has('entries'), [...words].join(' '));
  });

  it('makes the same 3-8 word queries for the same seed', () => {
    const a = makeQueries(texts, 20, 5);
    assert.deepEqual(makeQueries(texts, 20, 5), a);
    assert.notDeepEqual(makeQueries(texts, 20, 6), a);
    for (const q of a) {
      const n = q.split(' ').length;
      assert.ok(n >= 3 && n <= 8, q);
    }
  });
});
