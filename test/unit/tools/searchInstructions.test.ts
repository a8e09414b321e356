import assert from 'node:assert/strict';
import { documentId, sectionId } from '../../../server/src/engine/chunking/ids';
import { Engine } from '../../../server/src/engine/engine';
import { ActivityLog } from '../../../server/src/library/activity/activityLog';
import { SEARCH_TOKEN_BUDGET, TITLE_BONUS_MAX } from '../../../server/src/library/view/constants';
import { searchCommand } from '../../../server/src/cli/commands/searchCommand';
import { renderTry, tryReport } from '../../../server/src/cli/commands/tryCommand';
import { createServices, type Services } from '../../../server/src/services/services';
import { callTool } from '../../../server/src/tools/callTool';
import { findTool } from '../../../server/src/tools/registry';
import type { SearchInstructionsOutput } from '../../../server/src/tools/searchInstructions';
import { ToolInputError } from '../../../server/src/tools/toolError';
import { EXAMPLE_WORKSPACE, removeTempDirs, tempDir } from '../../helpers/tempWorkspace';

const id8 = (path: string) => documentId(path).slice(0, 8);
const GATEWAY_PLAN = 'add a caller of the payments gateway with an Idempotency-Key';

describe('search_instructions', function () {
  this.timeout(60_000);
  let engine: Engine;
  let services: Services;
  let log: ActivityLog;
  const tool = findTool('search_instructions')!;
  const search = async (args: Record<string, unknown>, sessionId = 'later') =>
    (await callTool(services, tool, args, { sessionId })) as SearchInstructionsOutput;

  before(async () => {
    engine = new Engine({
      folders: [{ name: 'fernhill', absPath: EXAMPLE_WORKSPACE }],
      settings: { refreshAfterMs: 0 },
    });
    await engine.waitForIndex();
    log = new ActivityLog(tempDir('activity'));
    services = createServices({ engine, now: () => new Date('2026-06-01T12:00:00Z'), activity: log });
    await search({ plan: 'warm up' }, 'later');
  });
  after(() => {
    engine.dispose();
    removeTempDirs();
  });

  it('returns whole sections grouped by document, best first, each saying where it comes from', async () => {
    const out = await search({ plan: GATEWAY_PLAN });
    assert.deepEqual(out.signals, { summary: true, meaning: false, exact: true });
    assert.deepEqual(out.exactTerms, ['idempotency-key']);
    assert.deepEqual(
      out.documents.map((d) => [d.title, d.namespace, d.profile, d.whole]),
      [
        ['Calling the payments gateway', 'guides', 'focused', true],
        ['Issuing refunds', 'guides', 'focused', true],
        ['Agent notes for payments-platform', '.', 'focused', true],
        ['Copilot instructions for Fernhill', '.', 'focused', true],
        ['Money and pci', '.', 'focused', true],
        ['Environments', 'reference', 'catalog', true],
      ],
    );
    const gateway = out.documents[0];
    assert.equal(gateway.id, id8('.context/guides/calling-the-payments-gateway.md'));
    assert.ok(gateway.titleBonus > 0 && gateway.titleBonus < TITLE_BONUS_MAX);
    assert.deepEqual(
      gateway.sections.map((s) => s.heading),
      ['Calling the payments gateway', 'Idempotency keys', 'Timeouts and re-sending', 'Declines', 'Amounts'],
    );
    const keys = gateway.sections[1];
    assert.equal(
      keys.id,
      sectionId('.context/guides/calling-the-payments-gateway.md', [
        'Calling the payments gateway',
        'Idempotency keys',
      ]).slice(0, 8),
    );
    assert.deepEqual(keys.signals.exact, { rank: 1, score: 1 });
    assert.equal(keys.signals.summary!.rank, 1);
    const block = `# Idempotency keys  [id: ${keys.id}]\nFrom: Calling the payments gateway  [doc ${gateway.id}]\n\n${keys.body}`;
    assert.match(keys.body, /^Every POST to the payments gateway must carry an `Idempotency-Key` header/);
    assert.equal(keys.tokens, Math.ceil(block.length / 4));
    assert.ok(tool.renderText(out).includes(`\n\n${block}\n\n`));
    assert.equal(
      out.tokens,
      out.documents.flatMap((d) => d.sections).reduce((n, s) => n + s.tokens, 0),
    );
    assert.ok(out.tokens <= SEARCH_TOKEN_BUDGET);
    assert.equal(out.tokens, 1_921);
    // Documents that matched but did not make it are named at the end, best first.
    assert.deepEqual(
      out.cut.map((c) => [c.title, c.reason]),
      [
        ['Local development setup', 'weak'],
        ['Never log card numbers', 'weak'],
        ['Feature flag naming', 'weak'],
        ['Money is always an integer in minor units', 'weak'],
        ['Decline codes', 'document-cap'],
        ['Finding a merchant account id', 'weak'],
        ['Instructions for coding agents at Fernhill', 'weak'],
        ['Glossary', 'document-cap'],
        ['Refund policy', 'document-cap'],
      ],
    );
    const text = tool.renderText(out);
    assert.ok(
      text.startsWith(
        `# Calling the payments gateway  [id: ${gateway.sections[0].id}]\nFrom: Calling the payments gateway  [doc ${gateway.id}]\n\n`,
      ),
    );
    assert.match(
      text,
      /\n\nAlso matched, not included \(open with get_toc\(document_id=\.\.\.\) or get_section\(id=\.\.\.\)\):\n- Local development setup  \[doc [0-9a-f]{8}\]: weak next to the best match; best sections \[[0-9a-f]{8}\]\n/,
    );
    assert.match(
      text,
      /\n- Decline codes  \[doc [0-9a-f]{8}\]: over the 6-document limit; best sections \[[0-9a-f]{8}\], \[[0-9a-f]{8}\]\n/,
    );
    assert.match(
      text,
      /\n\(focused profile: documents under 50% of the best match's strength are left out; profile "catalog" keeps them\)$/,
    );
    // Same call, same index: the same answer.
    assert.deepEqual(await search({ plan: GATEWAY_PLAN }), out);
  });

  it('profile catalog keeps the weak matches; the cap of 6 documents still holds', async () => {
    const out = await search({ plan: GATEWAY_PLAN, profile: 'catalog' });
    assert.equal(out.profile, 'catalog');
    assert.deepEqual(out.documents.map((d) => d.title).slice(5), ['Local development setup']);
    assert.ok(out.cut.every((c) => c.reason === 'document-cap'));
    assert.equal(out.cut.length, 9);
  });

  it('says so when nothing matches, and the pinned documents head the first answer of a session', async () => {
    const first = await search({ plan: 'kubernetes autoscaling' }, 'fresh');
    assert.deepEqual(first.documents, []);
    assert.equal(
      first.notice,
      'Nothing in the library matches this plan. get_toc() maps the library; name the product, system or identifier when you know it.',
    );
    assert.deepEqual(
      first.pinned?.map((p) => p.title),
      ['Finding a merchant account id'],
    );
    const text = tool.renderText(first);
    assert.match(text, /^Pinned documents [\s\S]*\n---\n\nNothing in the library matches this plan\./);
    assert.equal((await search({ plan: 'kubernetes autoscaling' }, 'fresh')).pinned, undefined);
  });

  it('refuses bad input with an error naming the field', async () => {
    for (const [args, pattern] of [
      [{ plan: '' }, /^Invalid input for search_instructions: plan: /],
      [{ plan: 'x', profile: 'wide' }, /^Invalid input for search_instructions: profile: /],
      [{}, /^Invalid input for search_instructions: plan: /],
    ] as const) {
      await assert.rejects(
        search(args),
        (error: Error) => error instanceof ToolInputError && pattern.test(error.message),
      );
    }
  });

  it('logs every call: tool, input, latency, returned section ids, empty or not', async () => {
    const before = log.read().length;
    const out = await search({ plan: 'what is the refund window for a merchant' }, 'log-check');
    const entry = log.read()[before];
    assert.equal(entry.tool, 'search_instructions');
    assert.equal(entry.session, 'log-check');
    assert.deepEqual(entry.input, { plan: 'what is the refund window for a merchant' });
    assert.equal(entry.empty, false);
    assert.equal(entry.resultIds.length, out.documents.flatMap((d) => d.sections).length);
    assert.ok(
      entry.resultIds.includes(sectionId('.context/reference/refund-policy.md', ['Refund policy', 'Refund window'])),
    );
    assert.ok(entry.latencyMs >= 0);
  });

  it("wsctx search prints what the agent gets; wsctx try shows each section's signals, fused score and size", async () => {
    const text = await searchCommand(services, { plan: GATEWAY_PLAN }, { json: false });
    assert.match(text, /^(Pinned documents[\s\S]*---\n\n)?# Calling the payments gateway  \[id: /);
    const report = await tryReport(services, { plan: GATEWAY_PLAN, limit: 5 });
    assert.deepEqual(report.signals, { summary: true, meaning: false, exact: true });
    assert.equal(report.rrfK, 60);
    assert.equal(report.matchedDocuments, 15);
    assert.deepEqual(
      report.rows.map((r) => [r.rank, r.heading, r.document, r.exact?.rank ?? null, r.result]),
      [
        [1, 'Idempotency keys', 'Calling the payments gateway', 1, 'included'],
        [2, 'Idempotency keys', 'Issuing refunds', 1, 'included'],
        [3, 'Hard rules here', 'Agent notes for payments-platform', 1, 'included'],
        [4, 'Copilot instructions for Fernhill', 'Copilot instructions for Fernhill', 1, 'included'],
        [5, 'Money and pci', 'Money and pci', 1, 'included'],
      ],
    );
    const top = report.rows[0];
    assert.equal(top.fused, 1 / 61 + 1 / 61 + top.titleBonus);
    const rendered = renderTry(report);
    assert.match(
      rendered,
      /^Try "add a caller of the payments gateway with an Idempotency-Key": profile per namespace; signals summary on, meaning off, exact on \[idempotency-key\]; RRF k=60\n/,
    );
    assert.match(
      rendered,
      /\n  #  section   heading +document +summary +meaning +exact +title +fused +tokens +result\n  1  [0-9a-f]{8}  Idempotency keys +Calling the payments gateway \[[0-9a-f]{8}\] +#1 [01]\.\d{3} +- +#1 1\.000 +\+0\.\d{4} +0\.\d{5} +140 +included\n/,
    );
    await assert.rejects(
      tryReport(services, { plan: 'x', profile: 'wide' }),
      /--profile must be focused or catalog \(got "wide"\)/,
    );
    // Try a search on one namespace.
    const rules = await tryReport(services, { plan: 'renaming a column', namespace: 'rules' });
    assert.deepEqual(
      [...new Set(rules.rows.map((r) => r.document))],
      ['Migrations are backwards-compatible', 'Money is always an integer in minor units'],
    );
    assert.match(renderTry(rules), /^Try "renaming a column" in namespace "rules": profile per namespace;/);
    await assert.rejects(
      tryReport(services, { plan: 'x', namespace: 'nope' }),
      /--namespace "nope" is not a library namespace; use one of "\.", "guides"/,
    );
  });
});
