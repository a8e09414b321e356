/**
 * `explain_result`: every cause it names must be true. On Argo CD's docs (words only), every
 * labelled question whose gold file is not among the first 10 passages is explained, and the
 * cause is checked by re-running the ranking with it removed: the limit raised to the rank named
 * (the page comes exactly there), or, for a page below the floor or not a candidate, the missing
 * terms written into it as a heading (the page comes within the limit). Then each "not indexed"
 * cause, and the per-document rule, on small workspaces.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../../server/src/engine/engine';
import { rankWorkspaceContext } from '../../../server/src/engine/ranking/workspaceContextRanker';
import { createServices } from '../../../server/src/services/services';
import { callTool } from '../../../server/src/tools/callTool';
import type { ExplainOutput } from '../../../server/src/tools/explainResult';
import { findTool } from '../../../server/src/tools/registry';
import type { ContextOutput } from '../../../server/src/tools/workspaceContext';
import { docsCorpora, loadDocsQuestions, writeDocsWorkspace } from '../../../bench/evalDocs';
import { removeTempDirs, tempDir, write } from '../../helpers/tempWorkspace';

const ARGOCD = path.resolve(__dirname, '../../fixtures/argocd-docs');

async function ask(engine: Engine, question: string, limit: number): Promise<ContextOutput> {
  return (await callTool(createServices({ engine }), findTool('workspace_context')!, { question, limit }, { sessionId: 't' })) as ContextOutput;
}

async function explain(engine: Engine, question: string, expected: string, limit = 10, extra: Record<string, unknown> = {}): Promise<ExplainOutput> {
  return (await callTool(createServices({ engine }), findTool('explain_result')!, { question, expected, limit, ...extra }, { sessionId: 't' })) as ExplainOutput;
}

/** Position (1-based) of the first passage of `file` when the ranking is run to `limit`, or null. */
function rankOf(engine: Engine, question: string, file: string, limit: number): number | null {
  const ranked = rankWorkspaceContext(engine.stateForQuery()!, { question, limit, now: Date.now(), meaning: null });
  const at = ranked.passages.findIndex((p) => p.entry.doc.path === file);
  return at < 0 ? null : at + 1;
}

describe('explain_result: why not this page?', function () {
  this.timeout(300_000);

  describe("Argo CD's labelled questions whose gold file is not in the first 10", () => {
    let engine: Engine;
    let workspace: string;
    before(async () => {
      workspace = writeDocsWorkspace(docsCorpora(ARGOCD)[0], tempDir('explain-argocd'));
      engine = new Engine({ folders: [{ name: 'argocd', absPath: workspace }], embeddings: { provider: 'off' } });
      await engine.waitForIndex();
    });
    after(() => engine.dispose());

    it('names a cause for each, and the cause is true: removing it brings the page', async () => {
      const tally: Record<string, number> = {};
      let misses = 0;
      let verified = 0;
      for (const q of loadDocsQuestions(ARGOCD)) {
        const files = (await ask(engine, q.question, 10)).passages.map((p) => p.sourceRef.path);
        for (const gold of q.gold.filter((g) => !files.includes(g))) {
          misses++;
          const e = await explain(engine, q.question, gold);
          tally[e.standing] = (tally[e.standing] ?? 0) + 1;
          const label = `${q.id} ${gold}: ${e.standing} ${e.summary}`;
          assert.ok(['ranked-below-limit', 'below-floor', 'no-candidate', 'held-back'].includes(e.standing), label);
          assert.ok(e.fix.length > 0 && e.summary.length > 0, label);
          if (e.standing === 'ranked-below-limit' || e.standing === 'held-back') {
            assert.ok(e.rank !== null && e.limitNeeded !== undefined && e.limitNeeded > 10, label);
            // The limit raised to the one named: the page comes, at the rank named, and not before.
            assert.equal(rankOf(engine, q.question, gold, e.limitNeeded!), e.rank, label);
            assert.equal(rankOf(engine, q.question, gold, e.limitNeeded! - 1), null, label);
            assert.ok(e.above.length > 0 && e.above[0].score >= e.best!.score, label);
          } else {
            // Below the floor or no candidate: not in the ranking however deep...
            assert.equal(rankOf(engine, q.question, gold, 5000), null, label);
            assert.ok(e.missingTerms.length > 0, label);
            // ...and with the terms it lacks written into it as a heading (the fix), it comes.
            const file = path.join(workspace, gold);
            const original = readFileSync(file, 'utf8');
            writeFileSync(file, `${original}\n\n## ${e.missingTerms.join(' ')}\n\nThe answer.\n`);
            try {
              await engine.update([file]);
              const rank = rankOf(engine, q.question, gold, 10);
              assert.ok(rank !== null, `${label}: still absent with the heading added`);
            } finally {
              writeFileSync(file, original);
              await engine.update([file]);
            }
          }
          verified++;
        }
      }
      // Reported by the eval too; here: there are misses, and every one was explained truly.
      assert.ok(misses >= 20, `misses ${misses}`);
      assert.equal(verified, misses, JSON.stringify(tally));
    });

    it('says a page that comes is returned, at its rank', async () => {
      const out = await ask(engine, 'cosign verify argocd container image signature', 10);
      const first = out.passages[0].sourceRef.path;
      const e = await explain(engine, 'cosign verify argocd container image signature', first);
      assert.equal(e.standing, 'returned');
      assert.equal(e.rank, 1);
    });
  });

  describe('not indexed, and the per-document rule', () => {
    let engine: Engine;
    let dir: string;
    let outside: string;
    before(async () => {
      dir = tempDir('explain-small');
      outside = write(tempDir('explain-outside'), 'docs/elsewhere.md', '# Elsewhere\n\nWebhook cache notes.\n');
      const runbook = ['---', 'kind: epic', '---', '# Webhook cache runbook', '', 'How the webhook cache is run.', ''];
      for (const part of ['Sizing', 'Eviction', 'Warming', 'Metrics', 'Limits']) {
        runbook.push(`## Webhook cache ${part.toLowerCase()}`, '', `${part} of the webhook cache: the webhook cache size bounds the webhook cache; set webhook.cache.size for the webhook cache.`, '');
      }
      write(dir, 'epics/webhook-cache.md', runbook.join('\n'));
      write(dir, 'epics/dashboards.md', '---\nkind: epic\n---\n# Dashboards\n\n## Panels\n\nThe dashboards show the queue, the workers and the webhook cache size of the last day.\n');
      write(dir, 'notes/cache.md', '# Cache notes\n\nThe webhook cache size is set by hand.\n');
      write(dir, 'private/docs/cache.md', '# Private cache\n\nThe webhook cache size.\n');
      write(dir, 'catalog-info.yaml', 'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: cache-service\n  annotations: [unclosed\nspec:\n  type: service\n');
      engine = new Engine({ folders: [{ name: 'ws', absPath: dir }], embeddings: { provider: 'off' }, settings: { globs: { ignore: ['private/**'] } } });
      await engine.waitForIndex();
    });
    after(() => {
      engine.dispose();
      removeTempDirs();
    });

    const q = 'webhook cache size';

    it('a file no source glob reads', async () => {
      const e = await explain(engine, q, 'notes/cache.md');
      assert.equal(e.standing, 'not-indexed');
      assert.equal(e.reason, 'no-page');
      assert.match(e.summary, /notes\/cache\.md is read only as markdown/);
      assert.match(e.fix, /docs\/ or \.context\//);
    });

    it('a file outside the served folders', async () => {
      const e = await explain(engine, q, outside);
      assert.equal(e.reason, 'outside-served-folders');
      assert.match(e.fix, /Serve the folder/);
    });

    it('an ignored path, and a path that is no file', async () => {
      assert.equal((await explain(engine, q, 'private/docs/cache.md')).reason, 'ignored');
      assert.equal((await explain(engine, q, 'docs/missing.md')).reason, 'no-such-file');
    });

    it('an unreadable file, with its problem', async () => {
      const e = await explain(engine, q, 'catalog-info.yaml');
      assert.equal(e.reason, 'unreadable');
      assert.match(e.summary, /catalog-info\.yaml could not be read: line \d+/);
    });

    it('a page the sourceKinds filter leaves out', async () => {
      const e = await explain(engine, q, 'epics/dashboards.md', 10, { sourceKinds: ['library'] });
      assert.equal(e.reason, 'filtered-out');
    });

    it('a section held back by the per-document rule, with the limit that shows it', async () => {
      const limits = (await ask(engine, q, 10)).passages.map((p) => p.id);
      const sections = (await ask(engine, q, 10)).passages.filter((p) => p.sourceRef.path === 'epics/webhook-cache.md');
      const third = sections[2];
      assert.ok(limits.includes(third.id));
      const e = await explain(engine, q, third.id, 3);
      assert.equal(e.standing, 'held-back');
      assert.match(e.summary, /per-document rule shows at most 2 passages of one document/);
      const raised = (await ask(engine, q, e.limitNeeded!)).passages.map((p) => p.id);
      assert.equal(raised.indexOf(third.id) + 1, e.rank);
      assert.ok(!(await ask(engine, q, e.limitNeeded! - 1)).passages.some((p) => p.id === third.id));
      assert.ok(raised.includes(third.id), 'the limit the fix names shows it');
    });

    it('a page without any question term is no candidate, and the fix names a heading', async () => {
      const e = await explain(engine, 'dashboards queue workers', 'epics/webhook-cache.md');
      assert.equal(e.standing, 'no-candidate');
      assert.deepEqual(e.missingTerms.sort(), ['dashboards', 'queue', 'workers']);
      assert.match(e.fix, /## /);
    });
  });
});
