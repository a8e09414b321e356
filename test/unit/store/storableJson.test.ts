/**
 * JSON PostgreSQL will take: NUL and unpaired surrogates written as U+FFFD and counted; paired
 * surrogates, escaped backslashes and every other character left as JSON.stringify wrote them.
 */
import * as assert from 'node:assert/strict';
import { storableJson } from '../../../server/src/store/postgres/storableJson';

describe('store/postgres/storableJson', () => {
  it('replaces what jsonb refuses, in values and keys, and nothing else', () => {
    const out = storableJson({
      a: 'x\u0000y\ud800z',
      b: '\\u0000 as text',
      c: '\ud83d\ude00',
      d: '\udc00 alone',
      'k\u0000': 1,
    });
    assert.equal(out.replaced, 4);
    assert.deepEqual(JSON.parse(out.json), {
      a: 'x\ufffdy\ufffdz',
      b: '\\u0000 as text',
      c: '\ud83d\ude00',
      d: '\ufffd alone',
      'k\ufffd': 1,
    });
    const plain = { text: 'nothing to do, \\ud800 is text here', n: 3 };
    assert.deepEqual(storableJson(plain), { json: JSON.stringify(plain), replaced: 0 });
  });
});
