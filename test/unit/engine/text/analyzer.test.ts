import assert from 'node:assert/strict';
import {
  MAX_TERM_LENGTH,
  analyzeQuery,
  analyzeText,
  analyzeToken,
  analyzeWord,
  forEachTerm,
  termCounts,
  termSet,
} from '../../../../server/src/engine/text/analyzer';
import { STOP_WORDS, isStopWord } from '../../../../server/src/engine/text/stopWords';
import { estimateTokens } from '../../../../server/src/engine/text/tokenEstimate';

/** Query units as `key` for plain words and `key*(parts)` for identifiers. */
function units(question: string): string[] {
  return analyzeQuery(question).map((u) => (u.isIdentifier ? `${u.key}*(${u.parts.join(',')})` : u.key));
}

describe('text/analyzer', () => {
  describe('analyzeWord', () => {
    it('lower-cases and stems plain words', () => {
      assert.deepEqual(['Workers', 'retries', 'Failed', 'invoices', 'running', 'billing'].map(analyzeWord), [
        'worker',
        'retri',
        'fail',
        'invoic',
        'run',
        'bill',
      ]);
    });
    it('never stems a word with a digit, only lower-cases it', () => {
      assert.deepEqual(['sha256', 'SHA256', 'v2', 'http2', 'utf8s', '404s', 'runs2'].map(analyzeWord), [
        'sha256',
        'sha256',
        'v2',
        'http2',
        'utf8s',
        '404s',
        'runs2',
      ]);
    });
    it('does not stem words with non-ASCII letters or apostrophes', () => {
      assert.deepEqual(['Cafés', 'naïve', 'straße', "o'clock"].map(analyzeWord), [
        'cafés',
        'naïve',
        'straße',
        "o'clock",
      ]);
    });
    it('drops stop words, in any case and with either apostrophe', () => {
      assert.deepEqual(['The', 'how', 'WHAT', 'does', 'not', "don't", 'don’t', 'it'].map(analyzeWord), [
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
      ]);
    });
    it('drops words longer than MAX_TERM_LENGTH', () => {
      assert.equal(analyzeWord('a'.repeat(MAX_TERM_LENGTH + 1)), null);
      assert.equal(analyzeWord('b'.repeat(MAX_TERM_LENGTH)), 'b'.repeat(MAX_TERM_LENGTH));
    });
  });

  describe('analyzeToken', () => {
    it('gives an identifier its whole form and its stemmed parts', () => {
      // Two words joined by a hyphen also give the word they join to, analysed as a word.
      assert.deepEqual(analyzeToken('billing-worker', true), ['billing-worker', 'bill', 'worker', 'billingwork']);
      assert.deepEqual(analyzeToken('BILLING_RETRY_MAX_ATTEMPTS', true), [
        'billing_retry_max_attempts',
        'bill',
        'retri',
        'max',
        'attempt',
      ]);
      assert.deepEqual(analyzeToken('HTTPServerError', true), ['httpservererror', 'http', 'server', 'error']);
    });
    it('keeps digit parts unstemmed and drops stop-word and one-character parts', () => {
      assert.deepEqual(analyzeToken('v1.2.3', true), ['v1.2.3', 'v1']);
      assert.deepEqual(analyzeToken('http2Servers', true), ['http2servers', 'http2', 'server']);
      assert.deepEqual(analyzeToken('isEnabledFor', true), ['isenabledfor', 'enabl']);
      assert.deepEqual(analyzeToken('sha256-digests', true), ['sha256-digests', 'sha256', 'digest']);
      // Only two runs of letters make a joined word: a longer chain is a name or a phrase.
      assert.deepEqual(analyzeToken('link-workspace-packages', true), [
        'link-workspace-packages',
        'link',
        'workspac',
        'packag',
      ]);
    });
    it('never stems the whole form', () => {
      assert.deepEqual(analyzeToken('state.run.failed', true), ['state.run.failed', 'state', 'run', 'fail']);
    });
  });

  describe('analyzeText', () => {
    const text = 'The billing-worker retries failed invoices. Workers retry; the billing-worker’s queue.';
    it('returns distinct index terms in order, stop words dropped', () => {
      assert.deepEqual(analyzeText(text), [
        'billing-worker',
        'bill',
        'worker',
        'billingwork',
        'retri',
        'fail',
        'invoic',
        'queue',
      ]);
      assert.deepEqual([...termSet(text)], analyzeText(text));
    });
    it('counts every occurrence', () => {
      assert.deepEqual(
        [...termCounts(text)],
        [
          ['billing-worker', 2],
          ['bill', 2],
          ['worker', 3],
          ['billingwork', 2],
          ['retri', 2],
          ['fail', 1],
          ['invoic', 1],
          ['queue', 1],
        ],
      );
      const seen: string[] = [];
      forEachTerm('Workers and workers', (t) => seen.push(t));
      assert.deepEqual(seen, ['worker', 'worker']);
    });
    it('indexes nothing for stop words only', () => {
      assert.deepEqual(analyzeText('Who is it? What did they do, and how?'), []);
    });
  });

  describe('analyzeQuery', () => {
    it('turns sample questions into units', () => {
      assert.deepEqual(units('Who owns billing-worker?'), ['own', 'billing-worker*(bill,worker)']);
      assert.deepEqual(units('How do invoice retries work?'), ['invoic', 'retri', 'work']);
      assert.deepEqual(units('What happens when state.run.failed is emitted by the BillingWorker?'), [
        'happen',
        'state.run.failed*(state,run,fail)',
        'emit',
        'billingworker*(bill,worker)',
      ]);
      assert.deepEqual(units('which APIs does component:default/payments-api provide?'), [
        'api',
        'component:default/payments-api*(compon,default,payment,api)',
        'provid',
      ]);
      assert.deepEqual(units('why is sha256 not v2 here'), ['sha256', 'v2']);
      assert.deepEqual(units('the and of'), []);
    });
    it('keeps the first surface of repeated units', () => {
      const q = analyzeQuery('Workers, worker and WORKERS for billing-worker and Billing-Worker');
      assert.deepEqual(
        q.map((u) => [u.key, u.surface, u.isIdentifier]),
        [
          ['worker', 'Workers', false],
          ['billing-worker', 'billing-worker', true],
        ],
      );
    });
    it('reaches an identifier part from a plain query word', () => {
      const index = termSet('Deploy billing-worker with helm.');
      for (const unit of analyzeQuery('workers')) assert.ok(index.has(unit.key), unit.key);
      for (const unit of analyzeQuery('billing worker')) assert.ok(index.has(unit.key), unit.key);
      assert.ok(index.has(analyzeQuery('billing-worker')[0].key));
    });
  });

  describe('analyzeQuery: key paths', () => {
    it('keeps a dotted path whole even with array marks, and carries its segments and trailing forms', () => {
      const [unit, word] = analyzeQuery('spec.acme.solvers[].http01.ingress.podTemplate.spec.nodeSelector default');
      assert.equal(unit.key, 'spec.acme.solvers.http01.ingress.podtemplate.spec.nodeselector');
      assert.equal(unit.surface, 'spec.acme.solvers[].http01.ingress.podTemplate.spec.nodeSelector');
      assert.ok(unit.isIdentifier);
      assert.deepEqual(unit.path?.written, [
        'spec',
        'acme',
        'solvers',
        'http01',
        'ingress',
        'podTemplate',
        'spec',
        'nodeSelector',
      ]);
      assert.deepEqual(unit.path?.trailing.map((t) => t.term).slice(-3), [
        'podtemplate.spec.nodeselector',
        'spec.nodeselector',
        'nodeselector',
      ]);
      // The last key, a name of two words, is also a form of its own, read as a word (contract 2026-12-06.2).
      assert.deepEqual(unit.path?.trailing.at(-1), { term: 'nodeselector', from: 7, leaf: true });
      assert.ok(
        unit.parts.includes('podtemplate') && unit.parts.includes('nodeselector') && unit.parts.includes('solver'),
      );
      assert.equal(word.key, 'default');
    });
    it('reads a placeholder segment as any key, and a plain dotted identifier as a path', () => {
      const [steps] = analyzeQuery('what does steps.<name>.when.branch do?');
      assert.equal(steps.key, 'steps.*.when.branch');
      assert.deepEqual(steps.path?.trailing, [{ term: 'when.branch', from: 2 }]);
      const [rotation] = analyzeQuery('spec.privateKey.rotationPolicy');
      assert.deepEqual(rotation.path?.trailing, [
        { term: 'privatekey.rotationpolicy', from: 1 },
        { term: 'rotationpolicy', from: 2, leaf: true },
      ]);
      // Not paths: an annotation key, a version.
      assert.equal(analyzeQuery('cert-manager.io/issuer')[0].path, undefined);
      assert.equal(analyzeQuery('upgrade to 1.18.2')[1].path, undefined);
    });
  });

  describe('stop words', () => {
    it('holds question words, auxiliaries, negations and articles, not content words', () => {
      for (const w of [
        'how',
        'what',
        'who',
        'which',
        'why',
        'when',
        'where',
        'do',
        'does',
        'did',
        'not',
        'no',
        'the',
        'a',
      ]) {
        assert.ok(STOP_WORDS.has(w), w);
      }
      for (const w of ['use', 'get', 'work', 'new', 'down', 'up', 'out', 'off', 'except', 'service', 'api']) {
        assert.ok(!STOP_WORDS.has(w), w);
      }
      assert.ok(isStopWord('DOESN’T'));
    });
  });

  describe('estimateTokens', () => {
    it('is characters / 4 rounded up', () => {
      assert.deepEqual(['', 'a', 'abcd', 'abcde', 'x'.repeat(400)].map(estimateTokens), [0, 1, 1, 2, 100]);
    });
  });
});
