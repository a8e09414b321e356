import assert from 'node:assert/strict';
import { isStoreUnavailable } from '../../../../server/src/engine/store/storeAvailability';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('store availability: which errors fail soft', () => {
  it('takes a stopped, restarting or unreachable server as unavailable', () => {
    assert.equal(isStoreUnavailable(withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')), true);
    assert.equal(isStoreUnavailable(withCode('57P01', 'terminating connection due to administrator command')), true);
    assert.equal(isStoreUnavailable(withCode('57P03', 'the database system is starting up')), true);
    assert.equal(isStoreUnavailable(withCode('08006')), true);
    assert.equal(isStoreUnavailable(new Error('Connection terminated unexpectedly')), true);
    assert.equal(
      isStoreUnavailable(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'connect failed')),
      true,
    );
  });

  it('never takes authorization, bad SQL or a bug as unavailable', () => {
    assert.equal(isStoreUnavailable(withCode('28P01', 'password authentication failed for user "wsctx"')), false);
    assert.equal(isStoreUnavailable(withCode('28000')), false);
    assert.equal(isStoreUnavailable(withCode('42501', 'permission denied for table wsctx_sections')), false);
    assert.equal(isStoreUnavailable(withCode('42P01', 'relation does not exist')), false);
    assert.equal(isStoreUnavailable(new TypeError("Cannot read properties of undefined (reading 'x')")), false);
    assert.equal(isStoreUnavailable(new AggregateError([withCode('ECONNREFUSED'), withCode('28P01')], 'mixed')), false);
    assert.equal(isStoreUnavailable(undefined), false);
  });
});
