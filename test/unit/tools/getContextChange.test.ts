/**
 * get_context given a change (the tool every host calls), on the example workspace: the bundle's
 * Markdown and JSON, the budget, a change with a task, and the refusals of the `changes` input.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { Engine } from '../../../server/src/engine';
import { createServices, type Services } from '../../../server/src/services/services';
import { callTool } from '../../../server/src/tools/callTool';
import { getContextTool, type GetContextOutput } from '../../../server/src/tools/getContext';
import { ToolInputError } from '../../../server/src/tools/toolError';
import { EXAMPLE_WORKSPACE } from '../../helpers/tempWorkspace';

const BW = 'payments-platform/services/billing-worker';
const DIFFS = path.resolve(__dirname, '../../../bench/corpora/changes/diffs');

describe('get_context given a change (tools/getContext.ts)', function () {
  this.timeout(60_000);
  let engine: Engine;
  let services: Services;
  before(async () => {
    engine = new Engine({
      folders: [{ name: 'fernhill', absPath: EXAMPLE_WORKSPACE }],
      settings: { refreshAfterMs: 0 },
    });
    await engine.waitForIndex();
    services = createServices({ engine });
  });
  after(() => engine.dispose());
  const call = async (input: Record<string, unknown>) =>
    (await callTool(services, getContextTool, input, { sessionId: 'test' })) as GetContextOutput;

  it('brings the owning entity with its owner, its runbooks, docs, epic and the rules for the path, each with its reason', async () => {
    const out = await call({ changes: { changedPaths: [`${BW}/src/worker.ts`] }, format: 'json' });
    assert.equal(out.task, '');
    const changes = out.changes!;
    assert.deepEqual(
      changes.entities.map((e) => [e.ref, e.owner, e.lifecycle, e.evidence.map((v) => v.kind)]),
      [['component:default/billing-worker', 'group:default/payments-team', 'production', ['techdocs-dir']]],
    );
    assert.deepEqual(
      changes.items.map((i) => `${i.reason} ${i.ref ?? i.path}`),
      [
        'owns component:default/billing-worker',
        'rule-applies .cursor/rules/money-and-pci.mdc',
        'rule-applies .github/instructions/typescript.instructions.md',
        'rule-applies payments-platform/AGENTS.md',
        'rule-applies AGENTS.md',
        'rule-applies CLAUDE.md',
        'rule-applies .github/copilot-instructions.md',
        `runbook ${BW}/docs/runbooks/alerts.md`,
        `runbook ${BW}/docs/runbooks/deploy.md`,
        `runbook ${BW}/docs/runbooks/dunning.md`,
        // The repository's README, which the index attaches to the repository's own entities.
        'doc payments-platform/README.md',
        `doc ${BW}/docs/index.md`,
        'epic payments-platform/epics/smart-dunning.md',
      ],
    );
    assert.ok(changes.items.every((i) => i.sent));
    // The always-on rules still come first, then the change's pages, each labelled.
    assert.deepEqual(
      [...new Set(out.pages.map((p) => p.changeReason ?? p.reason))],
      ['rule', 'rule-applies', 'owns', 'runbook', 'doc', 'epic'],
    );
    const runbook = out.pages.find((p) => p.path.endsWith('runbooks/deploy.md'))!;
    assert.equal(runbook.entity, 'component:default/billing-worker');
    assert.equal(runbook.why, 'runbook of component:default/billing-worker');
    assert.match(runbook.text!, /Roll back first, investigate second/);
    // Strict clients validate the structured answer against the published output schema.
    z.object(getContextTool.output).strict().parse(getContextTool.structuredContent!(out));
  });

  it('renders "The change" after the rules: the summary by entity, then each page under its label', async () => {
    const out = await call({ changes: { diff: fs.readFileSync(path.join(DIFFS, 'f15.diff'), 'utf8') } });
    const md = out.markdown!;
    const change = md.slice(md.indexOf('\n# The change\n'));
    assert.ok(md.indexOf('# Rules (always follow)') < md.indexOf('# The change'));
    assert.match(
      change,
      /\n2 changed files \(from the diff\): 2 in 2 entities, 0 owned by none\.\n\n\*\*component:default\/billing-worker\*\* \(Billing worker\): service, production, owned by group:default\/payments-team\n- Owns the change by its TechDocs folder \(dir:\.\/services\/billing-worker\)\n- Changed: payments-platform\/services\/billing-worker\/src\/dunning\/schedule\.ts \(modified \+1 −1\)\n/,
    );
    assert.match(
      change,
      /- Depended on by: component:default\/storefront-bff \(owned by group:default\/storefront-team, production\) consumes api:default\/invoice-rest-api of component:default\/invoice-api\n/,
    );
    assert.match(
      change,
      /\n## Deploy and rollback\nrunbook: runbook of component:default\/billing-worker · full page · payments-platform\/services\/billing-worker\/docs\/runbooks\/deploy\.md\n/,
    );
    assert.match(
      change,
      /\n## TypeScript at Fernhill\nrule-applies: its globs \(\*\*\/\*\.ts, \*\*\/\*\.tsx\) match payments-platform\/services\/billing-worker\/src\/dunning\/schedule\.ts, payments-platform\/services\/invoice-api\/src\/routes\/invoices\.ts · full page · page_id: [0-9a-f]{8} · \.github\/instructions\/typescript\.instructions\.md\n/,
    );
    // Grouped by entity: billing-worker's pages, then invoice-api's, then the dependents'.
    const order = [
      '## Billing worker\n',
      '## Dunning runbook\n',
      '## Invoice API\n',
      '## Runbook\n',
      '## Storefront BFF\n',
    ].map((h) => change.indexOf(h));
    assert.ok(
      order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1])),
      JSON.stringify(order),
    );
  });

  it('stays within a small budget: the summary always goes, what does not fit is named with its path', async () => {
    const out = await call({ changes: { changedPaths: [`${BW}/src/worker.ts`] }, max_tokens: 5_000, format: 'json' });
    assert.ok(out.tokens <= 5_000, `${out.tokens} tokens`);
    const sent = out.changes!.items.filter((i) => i.sent).map((i) => i.reason);
    const notSent = out.changes!.items.filter((i) => !i.sent).map((i) => i.path ?? i.ref);
    assert.ok(notSent.length > 0, 'some pages did not fit');
    assert.ok(sent.includes('rule-applies'));
    assert.deepEqual(out.skipped.filter((s) => s.why === 'budget').length, notSent.length);
    const md = await call({ changes: { changedPaths: [`${BW}/src/worker.ts`] }, max_tokens: 5_000 });
    assert.match(
      md.markdown!,
      /\n## Not sent for the budget\nEach is for this change too; read it by its path \(or page_id\):\n- /,
    );
    for (const p of notSent) assert.ok(md.markdown!.includes(p!), p);
  });

  it('with a task, the task searches what the change leaves of the budget', async () => {
    const out = await call({
      task: 'add a retry to the dunning schedule',
      changes: { changedPaths: [`${BW}/src/dunning/schedule.ts`] },
      format: 'json',
    });
    assert.equal(out.task, 'add a retry to the dunning schedule');
    assert.ok(out.tokens <= 12_000);
    assert.ok(out.pages.some((p) => p.reason === 'entity' && p.changeReason === 'owns'));
    assert.ok(
      out.pages.some((p) => p.reason === 'search' || p.reason === 'use' || p.reason === 'recipe'),
      'the search found library pages too',
    );
    assert.equal(out.plan.madeBy, 'heuristic');
  });

  it('refuses a change it cannot read, naming the field', async () => {
    const refuses = async (input: Record<string, unknown>, message: RegExp) =>
      assert.rejects(call(input), (e: Error) =>
        e instanceof ToolInputError || message.test(e.message) ? message.test(e.message) : false,
      );
    await refuses({ changes: {} }, /^changes: give changedPaths \(paths relative to a served folder\) or diff/);
    await refuses({ changes: { changedPaths: ['a'], diff: 'b' } }, /^changes: give changedPaths or diff, not both/);
    await refuses(
      { changes: { diff: 'x'.repeat(2_000_001) } },
      /changes\.diff: must be at most 2,000,000 characters; pass the changed files as changes\.changedPaths instead/,
    );
    await refuses(
      { changes: { changedPaths: ['/etc/passwd'] } },
      /^changes\.changedPaths\[0\]: "\/etc\/passwd" is absolute/,
    );
    await refuses({ changes: { paths: ['a'] } }, /changes: .*paths/);
  });
});
