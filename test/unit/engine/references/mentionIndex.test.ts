/**
 * The mention index over a real temporary workspace: indexed sources and source code alike,
 * `.gitignore` honoured, a file re-read only after invalidation when it changed, and refs in source
 * code counted only in comments and strings (the example workspace's all are).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MentionIndex } from '../../../../server/src/engine/references/mentionIndex';
import { EXAMPLE_WORKSPACE, initRepo, removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

describe('mention index', () => {
  after(() => removeTempDirs());

  it('finds every place naming an entity across catalog files, Markdown and code, skipping ignored files', async () => {
    const root = tempDir('mentions');
    initRepo(root);
    write(
      root,
      'catalog-info.yaml',
      'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: api-gw\nspec:\n  type: service\n  lifecycle: production\n  owner: team-a\n',
    );
    write(root, 'docs/notes.md', 'The gateway is component:api-gw.\n');
    write(root, 'src/main.go', '// served by component:default/api-gw\npackage main\n');
    write(root, 'build/out.js', '// component:api-gw\n');
    write(root, '.gitignore', 'build/\n');
    write(root, 'image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));

    const index = new MentionIndex([{ name: 'ws', absPath: root }]);
    const found = async (key: string) =>
      (await index.mentionsOf(key)).map((m) => `${m.path}:${m.mention.line}:${m.mention.column} ${m.mention.via}`);
    assert.deepEqual(await found('component:default/api-gw'), [
      'catalog-info.yaml:4:9 name',
      'docs/notes.md:1:16 text',
      'src/main.go:1:14 text',
    ]);
    assert.deepEqual(await found('Group:Default/Team-A'), ['catalog-info.yaml:8:10 field']);
    assert.deepEqual(await found('component:default/none'), []);

    // Not re-read until invalidated; then changed files are.
    fs.writeFileSync(path.join(root, 'docs/notes.md'), 'Moved.\n\nNow see component:api-gw here.\n');
    assert.deepEqual(await found('component:default/api-gw'), [
      'catalog-info.yaml:4:9 name',
      'docs/notes.md:1:16 text',
      'src/main.go:1:14 text',
    ]);
    index.invalidate();
    assert.deepEqual(await found('component:default/api-gw'), [
      'catalog-info.yaml:4:9 name',
      'docs/notes.md:3:9 text',
      'src/main.go:1:14 text',
    ]);
    fs.rmSync(path.join(root, 'src/main.go'));
    index.invalidate();
    assert.deepEqual(await found('component:default/api-gw'), ['catalog-info.yaml:4:9 name', 'docs/notes.md:3:9 text']);
  });

  it('counts a ref in source code only in a comment or a string', async () => {
    const root = tempDir('mentions-code');
    initRepo(root);
    write(
      root,
      'src/client.ts',
      'const target = { component:api-gw };\n// Calls component:api-gw.\nconst name = "component:api-gw";\n',
    );
    write(root, 'infra/main.tf', 'locals { x = component:api-gw }\n# Fronts component:api-gw\n');
    write(root, 'notes.txt', 'x = { component:api-gw }\n');
    const index = new MentionIndex([{ name: 'ws', absPath: root }]);
    const found = (await index.mentionsOf('component:default/api-gw')).map(
      (m) => `${m.path}:${m.mention.line}:${m.mention.column}`,
    );
    assert.deepEqual(found, ['infra/main.tf:2:10', 'notes.txt:1:7', 'src/client.ts:2:10', 'src/client.ts:3:15']);
  });

  it('still finds every ref the example workspace writes in comments of its source files', async () => {
    const index = new MentionIndex([{ name: 'fernhill', absPath: EXAMPLE_WORKSPACE }]);
    const inCode = async (key: string) =>
      (await index.mentionsOf(key))
        .filter((m) => /\.(ts|go|kt|py|proto|tf)$/.test(m.path))
        .map((m) => `${m.path}:${m.mention.line}:${m.mention.column}`);
    assert.deepEqual(await inCode('component:default/billing-worker'), [
      'payments-platform/libs/money/src/allocate.ts:1:70',
      'payments-platform/services/billing-worker/src/dunning/schedule.ts:1:25',
      'payments-platform/services/billing-worker/src/worker.ts:1:19',
      'payments-platform/services/ledger-service/internal/posting/validate.go:2:13',
    ]);
    assert.deepEqual(await inCode('component:default/payments-gateway'), [
      'payments-platform/services/ledger-service/internal/posting/validate.go:2:39',
      'payments-platform/services/payments-gateway/src/main/kotlin/io/fernhill/gateway/ChargeController.kt:1:4',
    ]);
    assert.deepEqual(await inCode('api:default/ledger-api'), [
      'payments-platform/services/billing-worker/src/worker.ts:3:74',
      'payments-platform/services/ledger-service/proto/ledger.proto:1:4',
    ]);
    assert.deepEqual(await inCode('resource:default/payments-queue'), [
      'payments-platform/services/billing-worker/src/worker.ts:2:20',
      'payments-platform/services/payments-gateway/src/main/kotlin/io/fernhill/gateway/ChargeController.kt:24:25',
      'platform-infra/terraform/modules/sqs/main.tf:1:33',
    ]);
    assert.deepEqual(await inCode('resource:default/search-index'), [
      'storefront/services/search-service/app/ranking.py:3:9',
    ]);
    assert.deepEqual(await inCode('component:default/checkout-web'), [
      'storefront/services/storefront-bff/src/resolvers/checkoutSession.ts:2:16',
    ]);
  });
});
