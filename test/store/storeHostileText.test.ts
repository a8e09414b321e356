/**
 * `index --store` against text PostgreSQL refuses (a lone UTF-16 surrogate, a NUL in a catalog
 * string): the built CLI writes that document with U+FFFD in their place and names it, and
 * writes every other folder. On PGlite (PostgreSQL in WASM) over the wire protocol.
 */
import assert from 'node:assert/strict';
import { wsctxAsync } from '../helpers/cli';
import { startPgliteServer, type PgliteServer } from '../helpers/pgliteServer';
import { removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

const COMPONENT = (name: string, description: string) =>
  `apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: ${name}\n  description: ${description}\nspec:\n  type: service\n  owner: payments\n  lifecycle: production\n`;

describe('wsctx index --store: text PostgreSQL refuses (built CLI, PGlite)', function () {
  this.timeout(180_000);
  let server: PgliteServer;
  before(async () => {
    server = await startPgliteServer({ pgvector: false });
  });
  after(async () => {
    await server?.stop();
    removeTempDirs();
  });

  it('writes a lone surrogate and a NUL as U+FFFD, names the document, and writes the next folder', async () => {
    const first = tempDir('store-hostile');
    // YAML escapes: \uD800 is a high surrogate with no low one after it; \0 is NUL.
    write(first, 'catalog-info.yaml', COMPONENT('broken-text', '"The ledger \\uD800 sync, with a \\0 byte."'));
    const second = tempDir('store-plain');
    write(
      second,
      'catalog-info.yaml',
      COMPONENT('plain-service', 'The plain service reconciles invoices every night.'),
    );
    const env = { WSCTX_STORE_CONNECTIONS: '1' };
    const index = await wsctxAsync(
      ['index', '--store', server.url, '--workspace', first, '--workspace', second, '--json'],
      { env },
    );
    assert.equal(index.code, 0, index.stderr);
    const summary = JSON.parse(index.stdout) as {
      namespaces: { namespace: string; documentsWritten: number; cleaned?: { path: string; characters: number }[] }[];
      failed: unknown[];
    };
    assert.deepEqual(summary.failed, []);
    assert.deepEqual(
      summary.namespaces.map((n) => [n.namespace, n.documentsWritten]),
      [
        [first.split('/').pop(), 1],
        [second.split('/').pop(), 1],
      ],
    );
    assert.deepEqual(
      summary.namespaces[0].cleaned?.map((c) => c.path),
      ['catalog-info.yaml'],
    );
    assert.deepEqual(summary.namespaces[1].cleaned, []);

    const plain = await wsctxAsync(
      [
        'ask',
        'which service reconciles invoices?',
        '--store',
        server.url,
        '--workspace',
        second.split('/').pop()!,
        '--json',
      ],
      { env },
    );
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(JSON.parse(plain.stdout).passages[0].text, /reconciles invoices every night/);
    const broken = await wsctxAsync(
      ['ask', 'ledger sync', '--store', server.url, '--workspace', first.split('/').pop()!, '--json'],
      { env },
    );
    assert.equal(broken.code, 0, broken.stderr);
    assert.match(JSON.parse(broken.stdout).passages[0].text, /The ledger \uFFFD sync, with a \uFFFD byte\./);
  });
});
