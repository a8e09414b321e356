/**
 * The shared server's config file: tokens, where each comes from, and the folders it may read;
 * every mistake named by file, line and key.
 */
import assert from 'node:assert/strict';
import { parseServerConfig } from '../../../server/src/config/serverConfig';

const TOKEN = 'a'.repeat(32);

describe('server config (serve --store --config)', () => {
  it('reads tokens written out or taken from the environment, with their folders', () => {
    const config = parseServerConfig(
      '/etc/wsctx.yaml',
      `tokens:\n  - name: all\n    token: ${TOKEN}\n  - name: docs\n    tokenEnv: DOCS_TOKEN\n    folders: [argocd, fernhill]\n`,
      { DOCS_TOKEN: 'b'.repeat(40) },
    );
    assert.deepEqual(
      config.tokens.map((t) => [t.name, t.token, t.folders, t.line]),
      [
        ['all', TOKEN, null, 2],
        ['docs', 'b'.repeat(40), ['argocd', 'fernhill'], 4],
      ],
    );
  });

  it('names the file, line and key of every problem, and starts nothing', () => {
    const text = [
      'tokens:',
      '  - name: short',
      '    token: abc',
      '  - name: unset',
      '    tokenEnv: NOT_SET_ANYWHERE',
      `  - token: ${TOKEN}`,
      '    folders: []',
      '  - name: twice',
      `    token: ${TOKEN}`,
      '    folder: [x]',
      'listen: 0.0.0.0',
    ].join('\n');
    assert.throws(
      () => parseServerConfig('/etc/wsctx.yaml', text, {}),
      (error: Error) => {
        const lines = error.message.split('\n').slice(1);
        assert.deepEqual(lines, [
          '/etc/wsctx.yaml:11: listen: unknown key (the file holds `tokens` and `namespaces`)',
          '/etc/wsctx.yaml:2: tokens[0].token: a token must be at least 32 characters (got 3)',
          '/etc/wsctx.yaml:5: tokens[1].tokenEnv: the environment variable NOT_SET_ANYWHERE is not set',
          '/etc/wsctx.yaml:6: tokens[2].name: a name is required (it is what logs call the caller)',
          '/etc/wsctx.yaml:7: tokens[2].folders: a non-empty list of folder names (leave it out for every folder)',
          '/etc/wsctx.yaml:10: tokens[3].folder: unknown key (name, token, tokenEnv, folders)',
        ]);
        return true;
      },
    );
  });

  it('reads the namespaces a reader serves (names and patterns), with tokens or alone', () => {
    const alone = parseServerConfig('r.yaml', "namespaces: [billing, 'payments-*']\n", {});
    assert.deepEqual([alone.namespaces, alone.tokens, alone.namespacesLine], [['billing', 'payments-*'], [], 1]);
    const both = parseServerConfig(
      'r.yaml',
      `tokens:\n  - name: all\n    token: ${TOKEN}\nnamespaces:\n  - billing\n`,
      {},
    );
    assert.deepEqual([both.namespaces, both.tokens.map((t) => t.name), both.namespacesLine], [['billing'], ['all'], 5]);
    assert.equal(parseServerConfig('r.yaml', `tokens:\n  - name: all\n    token: ${TOKEN}\n`, {}).namespaces, null);
    assert.throws(
      () => parseServerConfig('r.yaml', 'namespaces: []\n', {}),
      /r\.yaml:1: namespaces: a non-empty list of namespace names \(or patterns with \*\) this server serves/,
    );
    assert.throws(
      () => parseServerConfig('r.yaml', 'namespaces: billing\n', {}),
      /r\.yaml:1: namespaces: a non-empty list/,
    );
    assert.throws(
      () => parseServerConfig('r.yaml', 'other: 1\n', {}),
      /r\.yaml:1: tokens: a list of \{ name, token or tokenEnv, folders \} is required/,
    );
  });

  it('refuses two callers sharing one token, and broken YAML with its line', () => {
    assert.throws(
      () =>
        parseServerConfig(
          's.yaml',
          `tokens:\n  - name: a\n    token: ${TOKEN}\n  - name: b\n    token: ${TOKEN}\n`,
          {},
        ),
      /s\.yaml:4: tokens: b has the same token as a \(line 2\)/,
    );
    assert.throws(() => parseServerConfig('s.yaml', 'tokens: [\n', {}), /s\.yaml:\d+: /);
  });
});
