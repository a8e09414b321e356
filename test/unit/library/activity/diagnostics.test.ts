import assert from 'node:assert/strict';
import { documentId, sectionId } from '../../../../server/src/engine/chunking/ids';
import { ActivityLog, type ActivityEntry } from '../../../../server/src/library/activity/activityLog';
import { diagnose, percentile } from '../../../../server/src/library/activity/diagnostics';
import { createServices } from '../../../../server/src/services/services';
import { callTool } from '../../../../server/src/tools/callTool';
import { findTool } from '../../../../server/src/tools/registry';
import { diagnosticsCommand, diagnosticsReport } from '../../../../server/src/cli/commands/diagnosticsCommand';
import { removeTempDirs, tempDir } from '../../../helpers/tempWorkspace';
import { indexLibrary, TODAY, writeLibrary, type IndexedLibrary } from '../view/libraryFixtures';

const WINDOW =
  'A captured charge can be refunded up to 30 days after capture, in full or in part, any number of times until the captured amount is used up. After that the gateway refuses the refund.';

/** Four small documents; the two "Refund window" sections differ in a few words. */
const PAGES = [
  {
    path: '.context/rules/refund-rules.md',
    front: { title: 'Refund rules' },
    body: `# Refund rules\n\nRules for refunds.\n\n## Refund window\n\n${WINDOW}\n\n## Partial refunds\n\nPartial refunds are allowed until the amount is used up.\n`,
  },
  {
    path: '.context/guides/issuing.md',
    front: { title: 'Issuing refunds' },
    body: `# Issuing refunds\n\nHow to refund.\n\n## Refund window\n\n${WINDOW.replace('30 days', '14 days').replace('refuses the refund', 'answers 422')}\n`,
  },
  {
    path: '.context/guides/setup.md',
    front: { title: 'Local setup' },
    body: '# Local setup\n\nInstall the toolchain with asdf and start Docker.\n',
  },
  {
    path: '.context/guides/deploy.md',
    front: { title: 'Deploy checklist' },
    body: '# Deploy checklist\n\nTag the release.\n\n## After the deploy\n\nWatch the dashboards for ten minutes.\n',
  },
];

describe('diagnostics: latency percentiles, empty searches, sections never returned, near-duplicates', function () {
  this.timeout(60_000);
  let lib: IndexedLibrary;
  before(async () => {
    lib = await indexLibrary(writeLibrary(PAGES));
  });
  after(() => {
    lib.engine.dispose();
    removeTempDirs();
  });

  it('percentiles by the nearest-rank method', () => {
    const values = Array.from({ length: 20 }, (_, i) => i + 1);
    assert.equal(percentile(values, 50), 10);
    assert.equal(percentile(values, 90), 18);
    assert.equal(percentile(values, 99), 20);
    assert.equal(percentile([7], 99), 7);
    assert.equal(percentile([], 50), 0);
  });

  it('figures from a scripted log', () => {
    const at = (m: number) => `2026-06-01T10:${String(m).padStart(2, '0')}:00.000Z`;
    const refundWindow = sectionId('.context/rules/refund-rules.md', ['Refund rules', 'Refund window']);
    const entries: ActivityEntry[] = [
      ...[4, 8, 2, 6, 10, 12, 3, 5, 7, 9].map(
        (ms, i): ActivityEntry => ({
          at: at(i),
          tool: 'search_instructions',
          input: { plan: `plan ${i}` },
          latencyMs: ms,
          resultIds: i === 0 ? [refundWindow] : [],
          empty: i !== 0,
        }),
      ),
      { at: at(20), tool: 'search_instructions', input: { plan: 'Plan 3 ' }, latencyMs: 1, resultIds: [], empty: true },
      { at: at(21), tool: 'get_toc', input: {}, latencyMs: 30, resultIds: [], empty: false },
      {
        at: at(22),
        tool: 'get_section',
        input: { id: 'zz' },
        latencyMs: 0.5,
        resultIds: [],
        empty: true,
        error: 'id: "zz" is not an id',
      },
    ];
    const report = diagnose(lib.view, entries);
    assert.equal(report.calls, 13);
    assert.equal(report.errors, 1);
    assert.equal(report.from, at(0));
    assert.equal(report.to, at(22));
    assert.deepEqual(report.latency, [
      { tool: 'get_section', calls: 1, p50: 0.5, p90: 0.5, p99: 0.5, max: 0.5 },
      { tool: 'get_toc', calls: 1, p50: 30, p90: 30, p99: 30, max: 30 },
      { tool: 'search_instructions', calls: 11, p50: 6, p90: 10, p99: 12, max: 12 },
      { tool: 'all', calls: 13, p50: 6, p90: 12, p99: 30, max: 30 },
    ]);
    assert.equal(report.emptySearchCalls, 10);
    // "plan 3" and "Plan 3 " are one search; counts first, then text.
    assert.deepEqual(
      report.emptySearches.slice(0, 3).map((e) => [e.text, e.count, e.lastAt]),
      [
        ['plan 3', 2, at(20)],
        ['plan 1', 1, at(1)],
        ['plan 2', 1, at(2)],
      ],
    );
    assert.equal(report.neverReturned.of, 8);
    assert.equal(report.neverReturned.count, 7);
    assert.ok(!report.neverReturned.sections.some((s) => s.id === refundWindow.slice(0, 8)));
  });

  it('figures from a scripted sequence of real tool calls, logged by the tools themselves', async () => {
    const log = new ActivityLog(tempDir('activity'), { clock: () => new Date(`${TODAY}T09:00:00.000Z`) });
    const services = createServices({
      engine: lib.engine,
      activity: log,
      now: () => new Date(`${TODAY}T09:00:00.000Z`),
    });
    const call = (tool: string, args: Record<string, unknown>) =>
      callTool(services, findTool(tool)!, args, { sessionId: 'scripted' });
    const setup = sectionId('.context/guides/setup.md', ['Local setup']);

    await call('get_toc', {});
    const found = (await call('search_instructions', { plan: 'partial refunds and the refund window' })) as {
      documents: { title: string; whole: boolean }[];
    };
    assert.deepEqual(
      found.documents.map((d) => [d.title, d.whole]),
      [
        ['Refund rules', true],
        ['Issuing refunds', true],
      ],
    );
    await call('search_instructions', { plan: 'kubernetes autoscaling' });
    await call('search_instructions', { plan: 'kubernetes autoscaling' });
    await call('get_toc', { query: 'zebra crossing' });
    await call('get_section', { id: setup.slice(0, 6) });
    await assert.rejects(call('get_section', { id: 'zzzz' }), /id: "zzzz" is not an id/);

    const entries = log.read();
    assert.deepEqual(
      entries.map((e) => [e.tool, e.empty, e.error !== undefined]),
      [
        ['get_toc', false, false],
        ['search_instructions', false, false],
        ['search_instructions', true, false],
        ['search_instructions', true, false],
        ['get_toc', true, false],
        ['get_section', false, false],
        ['get_section', true, true],
      ],
    );
    assert.deepEqual(entries[5].resultIds, [setup]);
    assert.equal(entries[1].resultIds.length, 5);

    const report = await diagnosticsReport(services, log);
    assert.equal(report.calls, 7);
    assert.equal(report.errors, 1);
    assert.deepEqual(
      report.latency.map((l) => [l.tool, l.calls]),
      [
        ['get_section', 2],
        ['get_toc', 2],
        ['search_instructions', 3],
        ['all', 7],
      ],
    );
    for (const l of report.latency) assert.ok(l.p50 <= l.p90 && l.p90 <= l.p99 && l.p99 <= l.max && l.p50 >= 0);
    assert.deepEqual(
      report.emptySearches.map((e) => [e.tool, e.text, e.count]),
      [
        ['search_instructions', 'kubernetes autoscaling', 2],
        ['get_toc', 'zebra crossing', 1],
      ],
    );
    assert.deepEqual(report.neverReturned, {
      count: 2,
      of: 8,
      sections: [
        {
          id: sectionId('.context/guides/deploy.md', ['Deploy checklist']).slice(0, 8),
          heading: 'Deploy checklist',
          document: 'Deploy checklist',
          documentId: documentId('.context/guides/deploy.md').slice(0, 8),
        },
        {
          id: sectionId('.context/guides/deploy.md', ['Deploy checklist', 'After the deploy']).slice(0, 8),
          heading: 'After the deploy',
          document: 'Deploy checklist',
          documentId: documentId('.context/guides/deploy.md').slice(0, 8),
        },
      ],
    });
    assert.deepEqual(
      report.nearDuplicates.map((p) => [p.a.document, p.a.heading, p.b.document, p.b.heading]),
      [['Issuing refunds', 'Refund window', 'Refund rules', 'Refund window']],
    );
    // 33 and 32 word 3-shingles, 27 shared ("30 days" -> "14 days", a changed ending): 27 / 38.
    assert.equal(report.nearDuplicates[0].similarity, 0.711);

    const text = await diagnosticsCommand(services, log, { json: false });
    assert.match(
      text,
      /^Tool calls: 7 from 2026-06-01T09:00:00\.000Z to 2026-06-01T09:00:00\.000Z \(1 refused or failed\)\.\nLog: /,
    );
    assert.match(
      text,
      /\nEmpty answers \(3\):\n  search_instructions  "kubernetes autoscaling"  x2  last 2026-06-01T09:00:00\.000Z\n  get_toc              "zebra crossing"          x1  last 2026-06-01T09:00:00\.000Z\n/,
    );
    assert.match(
      text,
      /\nSections never returned: 2 of 8\n  \[[0-9a-f]{8}\] Deploy checklist \(Deploy checklist \[doc [0-9a-f]{8}\]\)\n  \[[0-9a-f]{8}\] After the deploy /,
    );
    // Near-duplicates are listed once, with each page's wording, under "Duplicated ground".
    assert.match(
      text,
      /\nDuplicated ground \(1\):\n  "Refund window" is nearly the same text in both pages \(shingles, 0\.\d\d\)\n    Issuing refunds \[[0-9a-f]{8}\] › Refund window, \.context\/guides\/issuing\.md:9: /,
    );
    assert.match(
      text,
      /\n    Refund rules \[[0-9a-f]{8}\] › Refund window, \.context\/rules\/refund-rules\.md:9: A captured charge can be refunded up to 30 days after capture/,
    );
  });
});
