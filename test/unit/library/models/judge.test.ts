import assert from 'node:assert/strict';
import { DelegatingModelProvider } from '../../../../server/src/library/models/delegatingProvider';
import { runJudge, type JudgeQuestion } from '../../../../server/src/library/models/judge';
import { NO_MODEL, type CompletionRequest } from '../../../../server/src/library/models/modelProvider';
import { VerdictCache } from '../../../../server/src/library/models/verdictCache';

/** A judge that answers 0.9 for items whose material says "yes", 0.1 otherwise, counting its calls. */
function scriptedJudge(options: { delayMs?: number; fail?: boolean } = {}) {
  const calls: CompletionRequest[] = [];
  const provider = new DelegatingModelProvider('scripted', async (request) => {
    calls.push(request);
    if (options.fail) throw new Error('model unavailable');
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    const answers: Record<string, number> = {};
    for (const m of request.messages[1].content.matchAll(/^\[([a-z0-9]+)\] [^\n]*\n([^\n]*)/gm))
      answers[m[1]] = m[2].includes('yes') ? 0.9 : 0.1;
    return JSON.stringify(answers);
  });
  return { provider, calls };
}

const questions: JudgeQuestion[] = [
  {
    id: 'q1',
    kind: 'use',
    subject: 'a',
    material: 'say yes',
    pages: { a: '1' },
    heuristic: { yes: false, probability: 0.3 },
  },
  {
    id: 'q2',
    kind: 'different',
    subject: 'b',
    material: 'say no',
    pages: { b: '1' },
    heuristic: { yes: true, probability: 0.9 },
  },
];

describe('the judge: gate, shadow and off, one call per request, heuristics on failure', () => {
  it("gate: one call with every question; the judge's answers apply", async () => {
    const { provider, calls } = scriptedJudge();
    const run = await runJudge(questions, { task: 't', mode: 'gate', provider });
    assert.equal(calls.length, 1);
    assert.equal(run.called, true);
    assert.equal(run.provider, 'scripted');
    assert.deepEqual(run.answer('q1'), { yes: true, probability: 0.9, from: 'judge' });
    assert.deepEqual(run.answer('q2'), { yes: false, probability: 0.1, from: 'judge' });
    assert.deepEqual(run.verdicts[0].heuristic, { yes: false, probability: 0.3 });
  });

  it('shadow: the judge answers and is logged, the heuristics apply', async () => {
    const { provider, calls } = scriptedJudge();
    const run = await runJudge(questions, { task: 't', mode: 'shadow', provider });
    assert.equal(calls.length, 1);
    assert.deepEqual(run.answer('q1'), { yes: false, probability: 0.3, from: 'heuristic' });
    assert.deepEqual(run.verdicts[0].model, { yes: true, probability: 0.9, from: 'judge' });
    assert.deepEqual(run.answer('q2'), { yes: true, probability: 0.9, from: 'heuristic' });
  });

  it('off, or no provider: no call, the heuristics apply (and say why when a judge was wanted)', async () => {
    const { provider, calls } = scriptedJudge();
    const off = await runJudge(questions, { task: 't', mode: 'off', provider });
    assert.equal(calls.length, 0);
    assert.equal(off.provider, 'none');
    assert.equal(off.fallbackReason, undefined);
    assert.equal(off.answer('q1').from, 'heuristic');
    const none = await runJudge(questions, { task: 't', mode: 'gate', provider: NO_MODEL });
    assert.equal(none.fallbackReason, 'no model provider is available (none)');
    assert.equal(none.answer('q2').from, 'heuristic');
  });

  it('slow or failing: the heuristics decide the whole request', async () => {
    const slow = scriptedJudge({ delayMs: 500 });
    const late = await runJudge(questions, { task: 't', mode: 'gate', provider: slow.provider, timeoutMs: 20 });
    assert.equal(late.fallbackReason, 'no answer within 20 ms');
    assert.deepEqual(
      late.verdicts.map((v) => v.applied.from),
      ['heuristic', 'heuristic'],
    );
    const failing = scriptedJudge({ fail: true });
    const failed = await runJudge(questions, { task: 't', mode: 'gate', provider: failing.provider });
    assert.equal(failed.fallbackReason, 'model unavailable');
    assert.equal(failed.answer('q1').yes, false);
  });

  it('records answers in the verdict cache and stops asking once a verdict is remembered', async () => {
    const cache = new VerdictCache();
    const { provider, calls } = scriptedJudge();
    await runJudge(questions, { task: 'the same task', mode: 'gate', provider, cache });
    await runJudge(questions, { task: 'the same task', mode: 'gate', provider, cache });
    assert.equal(calls.length, 2);
    const third = await runJudge(questions, { task: 'the same task', mode: 'gate', provider, cache });
    assert.equal(calls.length, 2, 'both verdicts remembered: no call');
    assert.equal(third.called, false);
    assert.deepEqual(third.answer('q1'), { yes: true, probability: 0.9, from: 'cache' });
    const changed = await runJudge([{ ...questions[0], pages: { a: '2' } }, questions[1]], {
      task: 'the same task',
      mode: 'gate',
      provider,
      cache,
    });
    assert.equal(calls.length, 3, 'a changed page is asked again');
    assert.equal(
      (calls[2].messages[1].content.match(/^\[q\d\]/gm) ?? []).length,
      1,
      'only the question whose page changed',
    );
    assert.equal(changed.answer('q2').from, 'cache');
  });
});
