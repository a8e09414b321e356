/**
 * Graded words (contract 2026-12-01.1): each question term counts by its BM25F saturation in
 * the passage, not by presence alone. Each case here failed under the presence-only words term.
 */
import assert from 'node:assert/strict';
import type { Engine } from '../../../../server/src/engine/engine';
import { DOCUMENT_CAP } from '../../../../server/src/engine/ranking/contract';
import { removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';
import { epic, heading, index, rank } from './rankingFixture';

/** A long changelog: many releases, each naming the common words of the question once. */
function changelog(releases: number): string {
  const out = ['---', 'kind: epic', '---', '# Changelog', ''];
  for (let r = releases; r >= 1; r--) {
    out.push(`## v1.${r}.0`, '');
    out.push(
      `- Fixed a race in the sync queue when the cache was cold (#${1000 + r}).`,
      `- The webhook retry now backs off; the cache size is configurable.`,
      `- Documentation: sync, cache and webhook pages reworded, and the controller's logs are quieter.`,
      `- Dependency bumps and small fixes across the controller, the server and the command line.`,
      '',
    );
  }
  return out.join('\n');
}

describe('workspace_context graded words', () => {
  const engines: Engine[] = [];
  afterEach(() => engines.splice(0).forEach((e) => e.dispose()));
  after(removeTempDirs);

  it('finds the one short section that answers among a changelog of similar sections', async () => {
    const dir = tempDir('changelog');
    write(dir, 'epics/changelog.md', changelog(60));
    write(
      dir,
      'epics/webhook-cache.md',
      epic(
        'Webhook cache',
        '## Sizing the webhook cache\n\nThe webhook cache holds recent deliveries. Set `webhook.cache.size` to bound it; the default is 500 entries.',
      ),
    );
    const { engine, state } = await index(dir);
    engines.push(engine);
    const passages = rank(state, 'webhook cache size');
    assert.equal(heading(passages[0]), 'epics/webhook-cache.md › Sizing the webhook cache');
    // The changelog cannot fill the answer: at most DOCUMENT_CAP of its sections come before others'.
    const firstOther = passages.findIndex((p) => p.entry.doc.path !== 'epics/changelog.md');
    assert.ok(passages.slice(0, DOCUMENT_CAP + 1).some((p) => p.entry.doc.path === 'epics/webhook-cache.md'));
    assert.equal(firstOther, 0);
  });

  it('meets a reworded question under an FAQ heading that is itself a question', async () => {
    const dir = tempDir('faq');
    write(
      dir,
      'epics/faq.md',
      epic(
        'FAQ',
        [
          '## How can I terminate a sync?',
          '',
          'Use the command line or the UI to terminate the running operation of the application.',
          '',
          '## Why does the UI show Unknown health?',
          '',
          'A resource type with no health check reports Unknown until a check is configured.',
        ].join('\n'),
      ),
    );
    write(
      dir,
      'epics/operations.md',
      epic(
        'Operations',
        '## Sync options\n\nSync options change how a sync applies resources: prune last, replace, server-side apply, or skip the dry run for resources whose definitions are not installed yet.',
      ),
    );
    const { engine, state } = await index(dir);
    engines.push(engine);
    const passages = rank(
      state,
      'A sync has been hanging for ages. How can I cancel the sync that is currently in progress?',
    );
    assert.equal(heading(passages[0]), 'epics/faq.md › How can I terminate a sync?');
  });

  it('finds "How deployment works" for "how to deploy" (Porter2: one stem)', async () => {
    const dir = tempDir('deploy');
    write(
      dir,
      'epics/release.md',
      epic(
        'Release train',
        '## How deployment works\n\nEvery merge to main builds an image and rolls it out to staging, then production.',
      ),
    );
    write(
      dir,
      'epics/other.md',
      epic('Local setup', '## Running tests\n\nRun the suite before opening a pull request.'),
    );
    const { engine, state } = await index(dir);
    engines.push(engine);
    const passages = rank(state, 'how to deploy');
    assert.equal(heading(passages[0]), 'epics/release.md › How deployment works');
    const words = passages[0].why.find((w) => w.signal === 'words')!;
    assert.deepEqual(
      words.terms!.map((t) => [t.term, t.fields]),
      [['deploy', ['heading', 'body']]],
    );
  });

  it("why[] lists every term's weight, share, saturation and fields, and they add up to words", async () => {
    const dir = tempDir('why');
    write(
      dir,
      'epics/dunning.md',
      epic(
        'Dunning',
        '## Dunning schedule\n\nThe dunning schedule retries a failed invoice on day 1, 3 and 7. Invoices are retried by billing-worker.',
      ),
    );
    write(dir, 'epics/invoices.md', epic('Invoices', '## Invoice numbering\n\nInvoices are numbered per tenant.'));
    const { engine, state } = await index(dir);
    engines.push(engine);
    const passages = rank(state, 'dunning schedule for a failed invoice');
    const top = passages[0];
    assert.equal(heading(top), 'epics/dunning.md › Dunning schedule');
    const words = top.why.find((w) => w.signal === 'words')!;
    const terms = words.terms!;
    assert.deepEqual(
      terms.map((t) => t.term),
      ['dunning', 'schedule', 'failed', 'invoice'],
    );
    const shares = terms.reduce((sum, t) => sum + t.share, 0);
    assert.ok(Math.abs(shares - 1) < 1e-9, `shares add to 1, got ${shares}`);
    const sum = terms.reduce((acc, t) => acc + t.share * t.saturation, 0);
    assert.ok(Math.abs(sum - words.raw) < 1e-9, `sum of share x saturation ${sum} equals words ${words.raw}`);
    for (const t of terms)
      assert.ok(t.saturation > 0 && t.saturation < 1, `${t.term} saturation ${t.saturation} is graded`);
    assert.deepEqual(terms.find((t) => t.term === 'dunning')!.fields, ['heading', 'title', 'body']);
    // A term in the heading and the body saturates more than one said once in the body.
    assert.ok(terms.find((t) => t.term === 'dunning')!.saturation > terms.find((t) => t.term === 'failed')!.saturation);
    // The invoice page holds one term of four, weakly: it ranks below.
    const other = passages.find((p) => p.entry.doc.path === 'epics/invoices.md');
    assert.ok(!other || other.score < top.score);
  });
});
