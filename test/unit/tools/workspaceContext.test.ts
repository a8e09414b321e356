import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../../server/src/engine/engine';
import { CONTRACT_VERSION } from '../../../server/src/engine/ranking/contract';
import { callTool } from '../../../server/src/tools/callTool';
import { createServices } from '../../../server/src/services/services';
import { findTool } from '../../../server/src/tools/registry';
import type { ContextOutput } from '../../../server/src/tools/workspaceContext';
import { commitAll, copyExampleWorkspace, initRepo, removeTempDirs, tempDir, write } from '../../helpers/tempWorkspace';

const tool = findTool('workspace_context')!;
const ask = (engine: Engine, args: Record<string, unknown>) =>
  callTool(createServices({ engine }), tool, args, { sessionId: 't' }) as Promise<ContextOutput>;

describe('workspace_context tool', () => {
  after(removeTempDirs);

  it('answers the first question on an empty index at once, flagged index-cold, and starts indexing', async () => {
    const dir = copyExampleWorkspace();
    const engine = new Engine({ folders: [{ name: 'fernhill', absPath: dir }] });
    const cold = await ask(engine, { workspace: 'fernhill', question: 'how is dunning scheduled?' });
    assert.deepEqual(cold.passages, []);
    assert.deepEqual(cold.degraded, ['index-cold']);
    assert.equal(cold.indexedAt, null);
    assert.equal(cold.contractVersion, CONTRACT_VERSION);
    assert.equal(cold.notice, 'Nothing is indexed yet; indexing has started. Ask again in a moment.');
    await engine.waitForIndex();
    const warm = await ask(engine, { workspace: 'fernhill', question: 'how is dunning scheduled?' });
    assert.deepEqual(warm.degraded, []);
    assert.ok(warm.passages.length > 0);
    assert.ok(warm.indexedAt);
    engine.dispose();
  });

  it('returns every passage field with provenance: lines, commit, dirty, file URI, entity refs', async () => {
    const dir = tempDir('fields');
    initRepo(dir);
    write(
      dir,
      'catalog-info.yaml',
      'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata: { name: search-api, annotations: { backstage.io/techdocs-ref: "dir:." } }\nspec: { type: service, lifecycle: production, owner: team-a }\n',
    );
    write(dir, 'mkdocs.yml', 'site_name: Search\nnav:\n  - Home: index.md\n');
    write(
      dir,
      'docs/index.md',
      '# Search API\n\n## Reindexing\n\nRun `search reindex --full` after a mapping change.\n',
    );
    const commit = commitAll(dir, 'docs', Math.floor(Date.now() / 1000) - 3600);
    fs.appendFileSync(path.join(dir, 'docs/index.md'), '\nIt takes about forty minutes.\n');
    const engine = new Engine({ folders: [{ name: 'search', absPath: dir }] });
    await engine.waitForIndex();
    const out = await ask(engine, {
      workspace: 'search',
      question: 'how do I reindex after a mapping change?',
      limit: 1,
    });
    const [p] = out.passages;
    assert.equal(p.title, 'Search API');
    assert.deepEqual(p.headingPath, ['Search API', 'Reindexing']);
    assert.equal(p.sourceKind, 'catalog_doc');
    assert.deepEqual(p.sourceRef, { path: 'docs/index.md', startLine: 3, endLine: 7 });
    assert.equal(p.sourceCommit, commit);
    assert.equal(p.dirty, true);
    assert.equal(p.sourceUri, `file://${dir}/docs/index.md#L3-L7`);
    assert.deepEqual(p.entityRefs, ['component:default/search-api']);
    assert.match(p.id, /^[0-9a-f]{8}$/);
    assert.ok(p.text.startsWith('## Reindexing'));
    assert.deepEqual(
      out.neighbourhood.map((n) => [n.entity, n.edges.map((e) => `${e.type} ${e.target}`)]),
      [['component:default/search-api', ['ownedBy group:default/team-a']]],
    );
    engine.dispose();
  });

  it('filters by sourceKinds and refuses bad values naming the field', async () => {
    const dir = copyExampleWorkspace();
    const engine = new Engine({ folders: [{ name: 'fernhill', absPath: dir }] });
    await engine.waitForIndex();
    const epics = await ask(engine, {
      workspace: 'fernhill',
      question: 'dunning',
      sourceKinds: ['epic_doc'],
      limit: 50,
    });
    assert.ok(epics.passages.length > 0);
    assert.ok(epics.passages.every((p) => p.sourceKind === 'epic_doc'));
    await assert.rejects(
      ask(engine, { workspace: 'fernhill', question: 'dunning', limit: 0 }),
      /^ToolInputError|Invalid input for workspace_context: limit: must be a whole number from 1 to 50 \(the default is 10\)$/,
    );
    await assert.rejects(ask(engine, { workspace: 'fernhill', question: '   ' }), /question: ask something/);
    await assert.rejects(
      ask(engine, { workspace: 'fernhill', question: 'x', sourceKinds: ['wiki'] }),
      /sourceKinds\[0\]: "wiki" is not a source kind; use any of catalog_entity, catalog_doc, repo_overview, epic_doc, library$/,
    );
    await assert.rejects(
      ask(engine, { workspace: 'fernhill', question: 'x', extra: 1 }),
      /Invalid input for workspace_context: input: "extra" is not an argument of workspace_context; it takes workspace, question, limit, asOf, sourceKinds$/,
    );
    engine.dispose();
  });

  it('says so when nothing clears the floor', async () => {
    const dir = copyExampleWorkspace();
    const engine = new Engine({ folders: [{ name: 'fernhill', absPath: dir }] });
    await engine.waitForIndex();
    const out = await ask(engine, { workspace: 'fernhill', question: 'zyxwvut quokka marmalade' });
    assert.deepEqual(out.passages, []);
    assert.equal(out.notice, 'No passage scored above the floor; try other words or name the service.');
    engine.dispose();
  });
});

describe('workspace_context honesty flags', () => {
  after(removeTempDirs);

  it('flags scope-unreadable when part of the workspace cannot be read', async function () {
    if (process.getuid?.() === 0) {
      // Root reads everything; run the engine as nobody in a child process instead.
      const dir = tempDir('unreadable');
      write(dir, 'epics/open.md', '# Open\n\nThe ledger closes nightly.\n');
      write(dir, 'secret/epics/closed.md', '# Closed\n\nThe ledger closes nightly.\n');
      fs.chmodSync(path.join(dir, 'secret'), 0o000);
      fs.chmodSync(dir, 0o755);
      const script = `
        const { Engine } = require(${JSON.stringify(path.resolve(__dirname, '../../../server/src/engine/engine.ts'))});
        const { callTool } = require(${JSON.stringify(path.resolve(__dirname, '../../../server/src/tools/callTool.ts'))});
        const { findTool } = require(${JSON.stringify(path.resolve(__dirname, '../../../server/src/tools/registry.ts'))});
        const { createServices } = require(${JSON.stringify(path.resolve(__dirname, '../../../server/src/services/services.ts'))});
        (async () => {
          const engine = new Engine({ folders: [{ name: 'ws', absPath: ${JSON.stringify(dir)} }] });
          await engine.waitForIndex();
          const out = await callTool(createServices({ engine }), findTool('workspace_context'), { workspace: 'ws', question: 'ledger nightly' }, { sessionId: 't' });
          process.stdout.write(JSON.stringify({ degraded: out.degraded, paths: out.passages.map((p) => p.sourceRef.path) }));
          engine.dispose();
        })();`;
      const { execFileSync } = await import('node:child_process');
      for (const p of [path.dirname(dir), dir]) fs.chmodSync(p, 0o755);
      const stdout = execFileSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', script], {
        uid: 65534,
        gid: 65534,
        encoding: 'utf8',
        env: { ...process.env, HOME: '/tmp' },
      });
      fs.chmodSync(path.join(dir, 'secret'), 0o755);
      const result = JSON.parse(stdout) as { degraded: string[]; paths: string[] };
      assert.deepEqual(result.degraded, ['scope-unreadable']);
      assert.deepEqual(result.paths, ['epics/open.md']);
    } else {
      const dir = tempDir('unreadable');
      write(dir, 'epics/open.md', '# Open\n\nThe ledger closes nightly.\n');
      write(dir, 'secret/epics/closed.md', '# Closed\n\nThe ledger closes nightly.\n');
      fs.chmodSync(path.join(dir, 'secret'), 0o000);
      const engine = new Engine({ folders: [{ name: 'ws', absPath: dir }] });
      await engine.waitForIndex();
      const out = await ask(engine, { workspace: 'ws', question: 'ledger nightly' });
      fs.chmodSync(path.join(dir, 'secret'), 0o755);
      assert.deepEqual(out.degraded, ['scope-unreadable']);
      assert.deepEqual(
        out.passages.map((p) => p.sourceRef.path),
        ['epics/open.md'],
      );
      engine.dispose();
    }
  });
});
