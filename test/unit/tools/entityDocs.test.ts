/**
 * One index for the bundle, on the example workspace: get_context hands over the TechDocs,
 * overviews and epics of the entities a task names, after every library page, labelled with
 * their source kind; billing-worker's own dunning runbook comes for the dunning task.
 */
import assert from 'node:assert/strict';
import { Engine } from '../../../server/src/engine/engine';
import { createServices, type Services } from '../../../server/src/services/services';
import { callTool } from '../../../server/src/tools/callTool';
import type { GetContextOutput } from '../../../server/src/tools/getContext';
import { findTool } from '../../../server/src/tools/registry';
import { EXAMPLE_WORKSPACE } from '../../helpers/tempWorkspace';

const DUNNING = 'add a retry to the dunning schedule in billing-worker for soft declines';
const RUNBOOK = 'payments-platform/services/billing-worker/docs/runbooks/dunning.md';

describe('get_context: entity docs, overviews and epics of the entities a task names', function () {
  this.timeout(60_000);
  let engine: Engine;
  let services: Services;
  before(async () => {
    engine = new Engine({
      folders: [{ name: 'fernhill', absPath: EXAMPLE_WORKSPACE }],
      settings: { refreshAfterMs: 0 },
    });
    await engine.waitForIndex();
    services = createServices({ engine, now: () => new Date('2026-06-01T12:00:00Z') });
  });
  after(() => engine.dispose());

  const ask = async (
    task: string,
    format: 'json' | 'markdown' = 'json',
    scope: { folder?: string; tags?: string[] } = {},
  ) =>
    (await callTool(
      services,
      findTool('get_context')!,
      { task, format, ...scope },
      { sessionId: 't' },
    )) as GetContextOutput;

  it("brings billing-worker's own dunning runbook for the dunning task, after every library page, labelled as its TechDocs", async () => {
    const out = await ask(DUNNING);
    const entity = out.pages.filter((p) => p.reason === 'entity');
    assert.deepEqual(
      entity.map((p) => [p.path, p.sourceKind, p.entity, p.whole, p.sections.map((s) => s.heading)]),
      [
        ['payments-platform/epics/smart-dunning.md', 'epic_doc', 'component:default/billing-worker', false, ['Scope']],
        [RUNBOOK, 'catalog_doc', 'component:default/billing-worker', false, ['Collection schedule']],
      ],
    );
    // Library pages first, then the entity pages: they never push a library page out.
    const firstEntity = out.pages.findIndex((p) => p.reason === 'entity');
    assert.ok(out.pages.slice(firstEntity).every((p) => p.reason === 'entity'));
    assert.ok(out.pages.slice(0, firstEntity).some((p) => p.path === '.context/reference/decline-codes.md'));

    const md = (await ask(DUNNING, 'markdown')).markdown!;
    assert.ok(
      md.includes(
        `\n## Dunning runbook\ncatalog_doc: TechDocs of component:default/billing-worker (named in the task) · excerpts · ${RUNBOOK}\n\n### Collection schedule\n\nThe first decline starts the schedule (day 0).`,
      ),
      md.slice(-3000),
    );
    assert.ok(md.indexOf('## Dunning runbook') > md.indexOf('## Decline codes'));
  });

  it("sends the named entity's passage that matches the task, not every doc of the entity", async () => {
    const out = await ask('roll back billing-worker after a failed deploy');
    const entity = out.pages.filter((p) => p.reason === 'entity').map((p) => p.path);
    assert.ok(entity.includes('payments-platform/services/billing-worker/docs/runbooks/deploy.md'), entity.join('\n'));
    assert.ok(!entity.includes(RUNBOOK), entity.join('\n'));
  });

  it('sends no entity page with a task the library does not cover: nothing-found stays nothing-found', async () => {
    const out = await ask('write a poem about autumn leaves');
    assert.ok(out.nothingFound);
    assert.deepEqual(
      out.pages.filter((p) => p.reason === 'entity' || (p.reason !== 'rule' && p.reason !== 'pinned')),
      [],
    );
  });

  it("takes nothing from outside a folder: no other folder's rules, pinned page or instructions, no entity docs", async () => {
    const out = await ask(DUNNING, 'json', { folder: 'reference' });
    assert.ok(out.pages.length > 0);
    assert.deepEqual(
      out.pages.filter((p) => !p.path.startsWith('.context/reference/')).map((p) => `${p.reason} ${p.path}`),
      [],
    );
    assert.deepEqual(out.instructions, []);
    const md = (await ask(DUNNING, 'markdown', { folder: 'reference' })).markdown!;
    assert.ok(!md.includes('Instructions from the') && !md.includes('Rules (always follow)'), md.slice(0, 2000));
  });

  it('keeps rules and pinned pages in a tagged bundle, but no untagged entity docs', async () => {
    const out = await ask(DUNNING, 'json', { tags: ['dunning'] });
    const reasons = new Set(out.pages.map((p) => p.reason));
    assert.ok(reasons.has('rule') && reasons.has('pinned'), [...reasons].join(', '));
    assert.ok(out.pages.some((p) => p.path === '.context/reference/decline-codes.md'));
    assert.deepEqual(
      out.pages.filter((p) => p.reason === 'entity').map((p) => p.path),
      [],
    );
  });
});
