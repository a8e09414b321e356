import assert from 'node:assert/strict';
import { ActivityLog } from '../../../../server/src/library/activity/activityLog';
import {
  contextDiagnostics,
  renderContextDiagnostics,
} from '../../../../server/src/library/context/contextDiagnostics';
import { createServices } from '../../../../server/src/services/services';
import { callTool } from '../../../../server/src/tools/callTool';
import { getContextTool, type GetContextOutput } from '../../../../server/src/tools/getContext';
import { removeTempDirs, tempDir } from '../../../helpers/tempWorkspace';
import { indexDir, pageText, run, TAXWELL, writeWorkspace, type Indexed } from './herald';

const TASK = 'configure kubernetes autoscaling for the filing service';

describe('get_context when nothing matches', function () {
  this.timeout(60_000);
  let lib: Indexed;
  before(async () => {
    lib = await indexDir(TAXWELL);
  });
  after(() => {
    lib.engine.dispose();
    removeTempDirs();
  });

  it('says so, tells the agent to check with the user, and names the nearest pages with their ids', async () => {
    const built = await run(lib.view, TASK);
    const nearest = built.bundle.nothingFound!.nearest.map((n) => [n.doc.title, n.score]);
    assert.deepEqual(nearest, [
      // The task's own words: the facet "filing service" touches these pages only in their bodies
      // ("slow filing support"), so it ranks them but gives no similarity (sectionSearch.ts).
      ['Avalara battlecard', 0.061],
      ['Discovery call', 0.061],
      ['Renewal playbook', 0.061],
    ]);
    const id = (title: string) => built.idOf(lib.view.docs.find((d) => d.title === title)!.id);
    assert.ok(
      built.markdown.endsWith(
        [
          '# Reference',
          '',
          '## Taxwell glossary',
          `reference · full page · page_id: ${id('Taxwell glossary')}`,
          '',
          '**Nexus**: a state where a customer must collect tax.',
          '',
          'Nothing in the library comes close enough to this task to send: the workspace may not cover it. Check with the user rather than guess.',
          'Nearest pages (pass a page_id to read_page if one plainly covers the task):',
          `- Avalara battlecard (page_id: ${id('Avalara battlecard')})`,
          `- Discovery call (page_id: ${id('Discovery call')})`,
          `- Renewal playbook (page_id: ${id('Renewal playbook')})`,
        ].join('\n'),
      ),
      built.markdown,
    );
    // The rules still go: they apply to every task.
    assert.equal(built.bundle.rules.length, 2);
  });

  it('names two or three nearest pages on words alone even when the task shares no word with the library', async () => {
    // None of these words is in the Taxwell library: the nearest are the pages spelled most like them.
    const built = await run(lib.view, 'organize the holiday party for the office');
    const nearest = built.bundle.nothingFound!.nearest;
    assert.equal(nearest.length, 3);
    assert.ok(
      built.bundle.reference.every((p) => p.reason === 'pinned'),
      'nothing is sent',
    );
    assert.match(
      built.markdown,
      /Nearest pages \(pass a page_id to read_page if one plainly covers the task\):\n- .+ \(page_id: [0-9a-f]+\)\n- .+\n- .+$/,
    );
    // The same for the same task, every time.
    assert.deepEqual(
      (await run(lib.view, 'organize the holiday party for the office')).bundle.nothingFound!.nearest.map(
        (n) => n.doc.id,
      ),
      nearest.map((n) => n.doc.id),
    );
  });

  it('lists such requests, with the nearest pages, for wsctx diagnostics', async () => {
    const log = new ActivityLog(tempDir('activity'), { clock: () => new Date('2026-06-01T10:00:00Z') });
    const services = createServices({ engine: lib.engine, activity: log, now: () => new Date('2026-06-01T10:00:00Z') });
    const call = (task: string) =>
      callTool(services, getContextTool, { task }, { sessionId: 's1' }) as Promise<GetContextOutput>;
    const out = await call(TASK);
    assert.deepEqual(
      out.nothingFound?.nearest.map((n) => n.title),
      ['Avalara battlecard', 'Discovery call', 'Renewal playbook'],
    );
    await call(TASK);
    await call('what does the Growth plan cost per year');
    const report = contextDiagnostics(lib.view, log.read());
    assert.equal(report.requests, 3);
    assert.deepEqual(
      report.nothingFound.map((n) => [n.task, n.count, n.nearest.map((p) => p.title)]),
      [[TASK, 2, ['Avalara battlecard', 'Discovery call', 'Renewal playbook']]],
    );
    assert.deepEqual(report.providers, { plan: { heuristic: 3 }, judge: { heuristic: 3 } });
    const text = renderContextDiagnostics(report);
    assert.match(
      text,
      /^get_context requests: 3\.\n  plan made by: heuristic x3; judged by: heuristic x3\n\nNothing found \(2\):\n  "configure kubernetes autoscaling for the filing service"  x2  last 2026-06-01T10:00:00\.000Z\n    nearest: Avalara battlecard \[[0-9a-f]{8}\]; Discovery call \[[0-9a-f]{8}\]; Renewal playbook \[[0-9a-f]{8}\]\n/,
    );
    assert.match(text, /\n\nConflicting pages \(0\):\n  none\n\nDuplicated ground \(0\):\n  none$/);
  });

  it('names the nearest pages on words alone even when only a one-word facet touches them', async () => {
    const dir = writeWorkspace({
      '.context/guides/office-moves.md': pageText(
        { title: 'Office moves' },
        '# Office moves\n\n## Desks\n\nFacilities moves desks between floors of the office on Fridays.\n',
      ),
      '.context/guides/visitors.md': pageText(
        { title: 'Visitors' },
        '# Visitors\n\n## Badges\n\nVisitors to the office sign in at reception.\n',
      ),
      '.context/guides/deploys.md': pageText(
        { title: 'Deploys' },
        '# Deploys\n\n## Pipeline\n\nEvery merge deploys to staging.\n',
      ),
    });
    const gen = await indexDir(dir, 'office');
    try {
      const built = await run(gen.view, 'organize the holiday party for the office');
      assert.deepEqual(built.bundle.reference, []);
      assert.deepEqual(built.bundle.nothingFound!.nearest.map((n) => n.doc.title).sort(), ['Office moves', 'Visitors']);
    } finally {
      gen.engine.dispose();
    }
  });
});
