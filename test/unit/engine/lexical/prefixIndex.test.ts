import assert from 'node:assert/strict';
import { PrefixIndex, defaultFuzzy, prefixTerms } from '../../../../server/src/engine/lexical/prefixIndex';

function entities(): PrefixIndex {
  const index = new PrefixIndex({ fields: ['name', 'title', 'ref'], boost: { name: 3 } });
  index.add('billing-worker', {
    name: 'billing-worker',
    title: 'Billing worker',
    ref: 'component:default/billing-worker',
  });
  index.add('billing-api', { name: 'billing-api', title: 'Billing API', ref: 'api:default/billing-api' });
  index.add('payments-team', { name: 'payments', title: 'Payments team', ref: 'group:default/payments' });
  index.add('invoice-api', { name: 'invoiceApi', title: 'Invoice API', ref: 'api:default/invoice-api' });
  index.add('runbook', { name: 'runbook', title: 'Worker restarts runbook' });
  return index;
}

const ids = (index: PrefixIndex, query: string, limit?: number): string[] =>
  index.suggest(query, limit).map((s) => s.id);

describe('lexical/prefixIndex', () => {
  it('indexes whole lower-cased tokens and their identifier parts, unstemmed', () => {
    assert.deepEqual(prefixTerms('component:default/billing-worker Retries'), [
      'component:default/billing-worker',
      'component',
      'default',
      'billing',
      'worker',
      'retries',
    ]);
    assert.deepEqual(prefixTerms('invoiceApi'), ['invoiceapi', 'invoice', 'api']);
  });

  it('suggests by prefix while typing, best first', () => {
    const index = entities();
    assert.deepEqual(ids(index, 'bill'), ['billing-api', 'billing-worker']);
    assert.deepEqual(ids(index, 'billing-wor'), ['billing-worker']);
    assert.deepEqual(ids(index, 'component:default/bil'), ['billing-worker']);
    assert.deepEqual(ids(index, 'pay'), ['payments-team']);
    assert.deepEqual(ids(index, 'invoiceA'), ['invoice-api']);
    assert.deepEqual(ids(index, 'bill', 1), ['billing-api']);
  });

  it('requires every query token (AND), an identifier through its whole form or all its parts', () => {
    const index = entities();
    assert.deepEqual(ids(index, 'billing api'), ['billing-api']);
    assert.deepEqual(ids(index, 'worker'), ['billing-worker', 'runbook']);
    assert.deepEqual(ids(index, 'worker-restarts'), ['runbook']);
    assert.deepEqual(ids(index, 'billing zebra'), []);
  });

  it('forgives one typo in a word of 4-7 letters, none in shorter words', () => {
    const index = entities();
    assert.deepEqual(ids(index, 'paymnts'), ['payments-team']);
    assert.deepEqual(ids(index, 'runbok'), ['runbook']);
    assert.deepEqual(ids(index, 'invoic api'), ['invoice-api']);
    assert.deepEqual(ids(index, 'apx'), []);
    assert.deepEqual(
      [2, 3, 4, 7, 8, 20].map((n) => defaultFuzzy('x'.repeat(n))),
      [0, 0, 1, 1, 2, 2],
    );
  });

  it('reports the indexed terms that matched', () => {
    const [top] = entities().suggest('paymnts');
    assert.deepEqual([top.id, top.terms], ['payments-team', ['payments']]);
    const [worker] = entities().suggest('billing-wor');
    // The whole form is a prefix of `billing-worker` only; the parts match exactly.
    assert.deepEqual(worker.terms, ['billing', 'billing-worker', 'worker']);
  });

  it('adds, replaces and removes by id', () => {
    const index = entities();
    assert.throws(() => index.add('runbook', { name: 'x' }), /duplicate id 'runbook'/);
    index.replace('runbook', { name: 'deploy-guide', title: 'Deploying with helm' });
    assert.deepEqual(ids(index, 'runb'), []);
    assert.deepEqual(ids(index, 'helm'), ['runbook']);
    index.replace('new-entry', { name: 'helmfile' });
    // A prefix hit in the boosted name field outranks an exact hit in the title.
    assert.deepEqual(ids(index, 'helm'), ['new-entry', 'runbook']);
    assert.equal(index.remove('billing-api'), true);
    assert.equal(index.remove('billing-api'), false);
    assert.deepEqual(ids(index, 'bill'), ['billing-worker']);
    assert.deepEqual([index.size, index.has('billing-api'), index.has('new-entry')], [5, false, true]);
  });

  it('answers a query with no words, or a zero limit, with nothing', () => {
    assert.deepEqual(ids(entities(), ' -- '), []);
    assert.deepEqual(ids(entities(), 'bill', 0), []);
  });
});
