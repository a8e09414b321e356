import assert from 'node:assert/strict';
import { Engine } from '../../../../server/src/engine/engine';
import { startBackgroundModels } from '../../../../server/src/library/context/background';
import { DelegatingModelProvider } from '../../../../server/src/library/models/delegatingProvider';
import { pagePhrasings } from '../../../../server/src/library/models/derivedText';
import { NO_MODEL, type ModelProvider } from '../../../../server/src/library/models/modelProvider';
import { createServices } from '../../../../server/src/services/services';
import { removeTempDirs } from '../../../helpers/tempWorkspace';
import { pageText, writeWorkspace } from './herald';

describe('background model work: enrichment, inferred links and the conflict check after each re-index', function () {
  this.timeout(60_000);
  after(removeTempDirs);

  it("hands its stores to the host's services, runs once per state, and asks nothing without a model", async () => {
    const dir = writeWorkspace({
      '.context/guides/a.md': pageText(
        { title: 'Close the books' },
        '# Close the books\n\n## Accruals\n\nPost accruals by day three.\n',
      ),
      '.context/guides/b.md': pageText(
        { title: 'Close checklist' },
        '# Close checklist\n\n## Accruals\n\nPost accruals by day five.\n',
      ),
    });
    const engine = new Engine({ folders: [{ name: 'bg', absPath: dir }], settings: { refreshAfterMs: 0 } });
    const asked: string[] = [];
    let provider: ModelProvider = NO_MODEL;
    const scripted = new DelegatingModelProvider('scripted', async (request) => {
      const system = request.messages[0].content;
      asked.push(system.split('\n')[0]);
      if (system.includes('"Good for" phrasings')) return '{"good_for": ["closing the month"]}';
      if (system.includes('questions a section')) return '{"questions": ["when are accruals posted?"]}';
      if (system.startsWith('You answer yes/no')) return '{"q1": 0.2}';
      return '{"conflicts": []}';
    });
    const logs: string[] = [];
    const bg = startBackgroundModels(engine, {
      provider: () => provider,
      log: (m) => logs.push(m),
      now: () => new Date('2026-06-01T00:00:00Z'),
    });
    try {
      const services = createServices({
        engine,
        notes: bg.enrichment,
        inferredLinks: bg.links,
        conflictCheck: bg.conflicts,
      });
      assert.deepEqual(
        [services.notes, services.inferredLinks, services.conflictCheck],
        [bg.enrichment, bg.links, bg.conflicts],
      );
      await engine.waitForIndex();
      await bg.idle();
      assert.equal(asked.length, 0, 'no model, nothing asked');
      provider = scripted;
      await engine.reindex();
      await bg.idle();
      const doc = [...engine.current()!.docs.values()].find((d) => d.title === 'Close the books')!;
      assert.deepEqual(pagePhrasings(doc, bg.enrichment), { phrasings: ['closing the month'], source: 'model' });
      assert.ok(
        asked.some((a) => a.startsWith('You answer yes/no')),
        'links inferred',
      );
      assert.ok(
        asked.some((a) => a.startsWith('Two passages from different pages')),
        'pages checked for conflicts once a model is there',
      );
      assert.ok(
        logs.some((l) =>
          /^\[library\] scripted: \d+ enrichment call\(s\) \(0 failed, 0 left\), 2 link call\(s\)$/.test(l),
        ),
        logs.join('\n'),
      );
    } finally {
      bg.stop();
      engine.dispose();
    }
  });
});
