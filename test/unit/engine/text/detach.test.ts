import assert from 'node:assert/strict';
import { detachAll } from '../../../../server/src/engine/text/detach';

describe('text/detach detachAll', () => {
  it('keeps every value equal, walking nested objects and lists in place', () => {
    const page = `${'x'.repeat(5000)}\nowner: group:default/platform-team\nname: billing-worker-service`;
    const data = {
      owner: page.slice(page.indexOf('group:')),
      nested: { list: [page.slice(5001, page.indexOf('\nname')), 7, true, null, page.slice(page.indexOf('billing'))] },
      short: 'kept',
    };
    const same = data.nested;
    const out = detachAll(data);
    assert.equal(out, data);
    assert.equal(out.nested, same);
    assert.deepEqual(out, {
      owner: 'group:default/platform-team\nname: billing-worker-service',
      nested: { list: ['owner: group:default/platform-team', 7, true, null, 'billing-worker-service'] },
      short: 'kept',
    });
  });

  it('leaves a YAML `__proto__` key an own property and the prototype alone', () => {
    const data = JSON.parse('{"__proto__": "a value long enough to be a slice", "k": {"__proto__": {"x": 1}}}');
    detachAll(data);
    assert.equal(Object.getPrototypeOf(data), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(data, '__proto__')?.value, 'a value long enough to be a slice');
    assert.equal(Object.getPrototypeOf(data.k), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(data.k, '__proto__')?.value, { x: 1 });
  });

  it('returns frozen lists and class instances as they are', () => {
    const frozen = Object.freeze(['a frozen member of some length']);
    const date = new Date(0);
    assert.equal(detachAll(frozen), frozen);
    assert.equal(detachAll({ when: date }).when, date);
  });
});
