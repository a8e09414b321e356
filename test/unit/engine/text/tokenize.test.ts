import assert from 'node:assert/strict';
import { scanTokens, tokenize } from '../../../../server/src/engine/text/tokenize';

/** Tokens as `text` for plain words and `text*` for identifiers. */
function check(input: string, expected: string[]): void {
  const got = tokenize(input).map((t) => (t.kind === 'identifier' ? `${t.text}*` : t.text));
  assert.deepEqual(got, expected, `tokenize(${JSON.stringify(input)})`);
}

describe('text/tokenize', () => {
  const table: Array<[string, string, string[]]> = [
    ['plain words', 'Who owns the billing service?', ['Who', 'owns', 'the', 'billing', 'service']],
    ['hyphen', 'billing-worker retries', ['billing-worker*', 'retries']],
    ['dots', 'emits state.run.failed on error', ['emits', 'state.run.failed*', 'on', 'error']],
    ['entity ref', 'see component:default/api now', ['see', 'component:default/api*', 'now']],
    ['snake case', 'snake_case and BILLING_RETRY_MAX_ATTEMPTS', ['snake_case*', 'and', 'BILLING_RETRY_MAX_ATTEMPTS*']],
    ['versions', 'upgrade to v1.2.3 or 2.0', ['upgrade', 'to', 'v1.2.3*', 'or', '2.0*']],
    ['camelCase', 'call invoiceApi', ['call', 'invoiceApi*']],
    ['PascalCase acronym', 'HTTPServer and http2Server', ['HTTPServer*', 'and', 'http2Server*']],
    ['capitalised word is plain', 'Billing HTTP API', ['Billing', 'HTTP', 'API']],
    ['plural acronyms are plain', 'list the APIs and IDs', ['list', 'the', 'APIs', 'and', 'IDs']],
    [
      'trailing punctuation',
      'Restart billing-worker. Then state.run.failed!',
      ['Restart', 'billing-worker*', 'Then', 'state.run.failed*'],
    ],
    ['trailing connectors', 'path a/ b- c_ d: e.', ['path', 'a', 'b', 'c', 'd', 'e']],
    ['leading connectors', 'run --force on /api/v1 and .env', ['run', 'force', 'on', 'api/v1*', 'and', 'env']],
    ['double connectors split', 'a--b c..d e__f', ['a', 'b', 'c', 'd', 'e', 'f']],
    ['colon with space', 'owner: team-payments', ['owner', 'team-payments*']],
    [
      'URL',
      'Docs at https://backstage.io/docs/features/software-catalog?tab=1.',
      ['Docs', 'at', 'https://backstage.io/docs/features/software-catalog*', 'tab', '1'],
    ],
    ['unicode words', 'naïve café über straße Ärger', ['naïve', 'café', 'über', 'straße', 'Ärger']],
    ['CJK run', '東京の billing', ['東京の', 'billing']],
    ['combining mark stays inside', 'cafe\u0301 ok', ['cafe\u0301', 'ok']],
    ['astral letters', '𝐀𝐁 x', ['𝐀𝐁', 'x']],
    ['digits', 'sha256 v2 http2 404 3rd', ['sha256', 'v2', 'http2', '404', '3rd']],
    ['digit punctuation', '1,000 items at 10:30', ['1', '000', 'items', 'at', '10:30*']],
    ['possessive', "billing-worker's queue and the team's", ['billing-worker*', 'queue', 'and', 'the', 'team']],
    ['curly possessive', 'the team’s queue', ['the', 'team', 'queue']],
    ['contractions', "don't isn’t can't", ["don't", 'isn’t', "can't"]],
    ['quotes are not apostrophes', "say 'worker' now", ['say', 'worker', 'now']],
    ['emoji and symbols', '🚀 deploy → prod (v2)', ['deploy', 'prod', 'v2']],
    [
      'markdown',
      '## Retry `billing-worker` [docs](./docs/retry.md)',
      ['Retry', 'billing-worker*', 'docs', 'docs/retry.md*'],
    ],
    ['empty', '', []],
    ['only punctuation', ' -- ... ', []],
  ];
  for (const [name, input, expected] of table) {
    it(name, () => check(input, expected));
  }

  it('gives UTF-16 offsets that slice back to the token', () => {
    const text = 'Ärger: see https://x.io/a-b, 𝐀𝐁 and billing-worker.';
    const tokens = tokenize(text);
    assert.deepEqual(
      tokens.map((t) => [t.text, t.start, t.end]),
      [
        ['Ärger', 0, 5],
        ['see', 7, 10],
        ['https://x.io/a-b', 11, 27],
        ['𝐀𝐁', 29, 33],
        ['and', 34, 37],
        ['billing-worker', 38, 52],
      ],
    );
    for (const t of tokens) assert.equal(text.slice(t.start, t.end), t.text);
  });

  it('scanTokens reports the same spans as tokenize', () => {
    const text = "The invoiceApi's v1.2 retries, don't panic.";
    const spans: Array<[number, number, boolean]> = [];
    scanTokens(text, (start, end, identifier) => spans.push([start, end, identifier]));
    assert.deepEqual(
      spans,
      tokenize(text).map((t) => [t.start, t.end, t.kind === 'identifier']),
    );
    assert.deepEqual(
      spans.map(([s, e]) => text.slice(s, e)),
      ['The', 'invoiceApi', 'v1.2', 'retries', "don't", 'panic'],
    );
  });
});
