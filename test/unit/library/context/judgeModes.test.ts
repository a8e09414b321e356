import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { libraryView } from '../../../../server/src/library/view/libraryView';
import { DelegatingModelProvider } from '../../../../server/src/library/models/delegatingProvider';
import type { CompletionRequest } from '../../../../server/src/library/models/modelProvider';
import { VerdictCache } from '../../../../server/src/library/models/verdictCache';
import { removeTempDirs } from '../../../helpers/tempWorkspace';
import { COLD_EMAIL, copyTaxwell, excerpts, indexDir, run, TODAY, type Indexed } from './herald';

/**
 * A judge that disagrees with the heuristics about TaxJar (it says the TaxJar sections are not
 * about a different competitor) and is sure about every pack; a planner that answers JSON.
 */
function scripted(options: { delayMs?: number } = {}) {
  const judgeCalls: CompletionRequest[] = [];
  const planCalls: CompletionRequest[] = [];
  const provider = new DelegatingModelProvider('scripted-judge', async (request) => {
    const system = request.messages[0].content;
    if (system.startsWith('You take apart a task')) {
      planCalls.push(request);
      return JSON.stringify({
        names: [
          { text: 'Avalara', kind: 'competitor' },
          { text: 'CFO', kind: 'persona' },
        ],
        deliverable: 'cold email',
        searches: ['cold email to a finance buyer', 'Avalara'],
        constraints: [],
      });
    }
    judgeCalls.push(request);
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    const answers: Record<string, number> = {};
    for (const block of request.messages[1].content.split(/\n\n(?=\[[a-z0-9]+\] )/).slice(1)) {
      const [, id, question, material] = /^\[([a-z0-9]+)\] ([^\n]*)\n([\s\S]*)$/.exec(block)!;
      if (id.startsWith('p')) answers[id] = 0.95;
      else if (question.startsWith('Is this material specifically about a different')) answers[id] = 0.05;
      else if (question.startsWith('Is this table row')) answers[id] = 0.05;
      else answers[id] = /TaxJar|Avalara|Outreach|CFO/.test(material) ? 0.9 : 0.2;
    }
    return JSON.stringify(answers);
  });
  return { provider, judgeCalls, planCalls };
}

const itemsIn = (request: CompletionRequest) => (request.messages[1].content.match(/^\[[a-z0-9]+\] /gm) ?? []).length;

describe('get_context with a judge: gate vs shadow, heuristics on a slow judge, the verdict cache', function () {
  this.timeout(60_000);
  let lib: Indexed;
  before(async () => {
    lib = await indexDir(copyTaxwell());
  });
  after(() => {
    lib.engine.dispose();
    removeTempDirs();
  });

  it("gate: the judge's answers apply (here it keeps the TaxJar section the heuristics drop); one judge call", async () => {
    const { provider, judgeCalls, planCalls } = scripted();
    const built = await run(lib.view, COLD_EMAIL, { models: provider, judgeMode: 'gate' });
    assert.equal(judgeCalls.length, 1, 'every question of the request in one call');
    assert.equal(planCalls.length, 1);
    assert.deepEqual(built.bundle.steps, { plan: 'scripted-judge', judge: 'scripted-judge', meaning: false });
    assert.deepEqual(built.bundle.plan.searches, ['cold email to a finance buyer', 'Avalara']);
    assert.ok(
      excerpts(built).some(([title, heading]) => title === 'TaxJar battlecard' && heading === 'Cold email angle'),
    );
    assert.deepEqual(
      built.bundle.packs.map((p) => [p.name, p.applied, p.decidedBy]),
      [['Outbound email', true, 'judge']],
    );
    const taxjar = built.bundle.judge.verdicts.find(
      (v) => v.kind === 'different' && lib.view.sectionById.get(v.subject)?.doc.title === 'TaxJar battlecard',
    )!;
    assert.deepEqual(taxjar.heuristic, { yes: true, probability: 0.9 });
    assert.deepEqual(taxjar.applied, { yes: false, probability: 0.05, from: 'judge' });
  });

  it("shadow: the judge answers and is logged, but the bundle is the heuristics'", async () => {
    const { provider, judgeCalls } = scripted();
    const built = await run(lib.view, COLD_EMAIL, { models: provider, judgeMode: 'shadow' });
    const heuristic = await run(lib.view, COLD_EMAIL, { judgeMode: 'off' });
    assert.equal(judgeCalls.length, 1);
    assert.deepEqual(excerpts(built), excerpts(heuristic));
    assert.ok(!excerpts(built).some(([title]) => title === 'TaxJar battlecard'));
    const taxjar = built.bundle.judge.verdicts.find(
      (v) => v.kind === 'different' && lib.view.sectionById.get(v.subject)?.doc.title === 'TaxJar battlecard',
    )!;
    assert.deepEqual(taxjar.model, { yes: false, probability: 0.05, from: 'judge' });
    assert.deepEqual(taxjar.applied, { yes: true, probability: 0.9, from: 'heuristic' });
    assert.equal(built.bundle.steps.judge, 'scripted-judge');
  });

  it('slow judge: the heuristics decide that request', async () => {
    const { provider } = scripted({ delayMs: 300 });
    const built = await run(lib.view, COLD_EMAIL, { models: provider, judgeMode: 'gate', judgeTimeoutMs: 20 });
    const heuristic = await run(lib.view, COLD_EMAIL, { judgeMode: 'off' });
    assert.equal(built.bundle.judge.fallbackReason, 'no answer within 20 ms');
    assert.equal(built.bundle.steps.judge, 'heuristic');
    assert.deepEqual(excerpts(built), excerpts(heuristic));
  });

  it('remembers verdicts approved twice for the very same task, until a page involved changes', async () => {
    const verdicts = new VerdictCache();
    const { provider, judgeCalls } = scripted();
    await run(lib.view, COLD_EMAIL, { models: provider, verdicts });
    await run(lib.view, COLD_EMAIL, { models: provider, verdicts });
    assert.equal(judgeCalls.length, 2);
    const third = await run(lib.view, COLD_EMAIL, { models: provider, verdicts });
    assert.equal(judgeCalls.length, 2, 'every verdict remembered: the judge is not called');
    assert.equal(third.bundle.judge.called, false);
    assert.ok(third.bundle.judge.verdicts.every((v) => v.applied.from === 'cache'));
    assert.deepEqual(
      excerpts(third),
      excerpts(await run(lib.view, COLD_EMAIL, { models: provider, verdicts: new VerdictCache() })),
    );
    judgeCalls.length = 0;
    await run(lib.view, 'Cold email to a CFO   switching from Avalara', { models: provider, verdicts });
    assert.equal(judgeCalls.length, 0, 'the same task, written with other case and spacing');

    // Republish the TaxJar page: only the questions about it are asked again.
    const file = path.join(lib.dir, '.context/battlecards/taxjar.md');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('handle notices alone', 'handle state notices alone'));
    const state = await lib.engine.reindex();
    const view = libraryView(state, TODAY);
    await run(view, COLD_EMAIL, { models: provider, verdicts });
    assert.equal(judgeCalls.length, 1);
    const asked = judgeCalls[0].messages[1].content;
    assert.equal(itemsIn(judgeCalls[0]), (asked.match(/Page: TaxJar battlecard/g) ?? []).length);
    assert.ok(itemsIn(judgeCalls[0]) > 0);
  });
});
