import assert from 'node:assert/strict';
import { identifierParts } from '../../../../server/src/engine/text/identifiers';

describe('text/identifiers', () => {
  const table: Array<[string, string[]]> = [
    ['billing-worker', ['billing', 'worker']],
    ['state.run.failed', ['state', 'run', 'failed']],
    ['component:default/api', ['component', 'default', 'api']],
    ['snake_case', ['snake', 'case']],
    ['BILLING_RETRY_MAX_ATTEMPTS', ['billing', 'retry', 'max', 'attempts']],
    ['v1.2.3', ['v1', '2', '3']],
    ['invoiceApi', ['invoice', 'api']],
    ['HTTPServerError', ['http', 'server', 'error']],
    ['XMLHttpRequest', ['xml', 'http', 'request']],
    ['http2Server', ['http2', 'server']],
    ['sha256sum', ['sha256sum']],
    ['getByID', ['get', 'by', 'id']],
    ['listAPIs', ['list', 'apis']],
    ['APIs', ['apis']],
    ['OAuth2Client', ['o', 'auth2', 'client']],
    ['https://backstage.io/docs', ['https', 'backstage', 'io', 'docs']],
    ['naïveCafé-straße', ['naïve', 'café', 'straße']],
    ['billing-worker’s', ['billing', 'worker', 's']],
    ['plain', ['plain']],
    ['', []],
  ];
  for (const [input, expected] of table) {
    it(`${input || '(empty)'} -> ${expected.join(', ') || '(none)'}`, () => {
      assert.deepEqual(identifierParts(input), expected);
    });
  }
});
