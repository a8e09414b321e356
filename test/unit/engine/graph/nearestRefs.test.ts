import assert from 'node:assert/strict';
import type { CatalogEntity } from '../../../../server/src/engine/model';
import {
  boundedEditDistance,
  editDistance,
  MAX_SUGGEST_INPUT,
  nearestRefs,
} from '../../../../server/src/engine/graph/nearestRefs';

const entity = (kind: string, name: string) =>
  ({ name, key: `${kind}:default/${name}`, ref: `${kind}:default/${name}` }) as unknown as CatalogEntity;

describe('engine/graph/nearestRefs', () => {
  it('the banded distance equals the full one up to its cutoff, and is Infinity past it', () => {
    const words = [
      '',
      'a',
      'billing',
      'billing-worker',
      'biling-wroker',
      'payments-api',
      'payment-api',
      'component:default/billing-worker',
      'xyz',
    ];
    for (const a of words) {
      for (const b of words) {
        const full = editDistance(a, b);
        for (const max of [0, 1, 3, 8])
          assert.equal(boundedEditDistance(a, b, max), full <= max ? full : Infinity, `${a} / ${b} / ${max}`);
      }
    }
  });

  it('suggests close refs, the named kind first', () => {
    const catalog = [
      entity('component', 'billing-worker'),
      entity('api', 'payments-api'),
      entity('component', 'payments-api'),
      entity('group', 'payments'),
    ];
    assert.deepEqual(nearestRefs('payment-api', catalog), [
      'api:default/payments-api',
      'component:default/payments-api',
      'group:default/payments',
    ]);
    assert.deepEqual(nearestRefs('component:billing-wroker', catalog), ['component:default/billing-worker']);
    assert.deepEqual(nearestRefs('api:payment-api', catalog).slice(0, 1), ['api:default/payments-api']);
  });

  it('gives no suggestions for input past its maximum, however long (no work on a 200 KB ref)', () => {
    const catalog = Array.from({ length: 3000 }, (_, i) => entity('component', `service-${i}`));
    assert.deepEqual(nearestRefs('x'.repeat(MAX_SUGGEST_INPUT + 1), catalog), []);
    assert.deepEqual(nearestRefs(`component:${'service-1'.repeat(22_000)}`, catalog), []);
    assert.deepEqual(nearestRefs('servce-12', catalog), [
      'component:default/service-12',
      'component:default/service-1',
      'component:default/service-10',
    ]);
  });
});
