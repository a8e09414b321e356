import assert from 'node:assert/strict';
import { DEFAULT_MAX_TOKENS, WHOLE_PAGE_SHARE } from '../../../../server/src/library/context/constants';
import { budgetOf } from '../../../../server/src/library/context/setup';
import { InputError } from '../../../../server/src/engine/errors';
import { estimateTokens } from '../../../../server/src/engine/text/tokenEstimate';
import { EXAMPLE_WORKSPACE, removeTempDirs } from '../../../helpers/tempWorkspace';
import { COLD_EMAIL, indexDir, pageText, referencePages, run, TAXWELL, writeWorkspace, type Indexed } from './herald';

/** `n` numbered sentences of ~60 characters about `topic`. */
const filler = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `Point ${i + 1} about ${topic} is written down here.`).join(' ');

describe('get_context budgets: rules in full past the budget, the three-quarter allowance, never over', function () {
  this.timeout(60_000);
  const opened: Indexed[] = [];
  after(() => {
    for (const o of opened) o.engine.dispose();
    removeTempDirs();
  });

  it('validates max_tokens: 1,000 to 30,000, default 12,000, naming the field', () => {
    assert.equal(budgetOf(undefined), DEFAULT_MAX_TOKENS);
    assert.equal(budgetOf(1_000), 1_000);
    assert.equal(budgetOf(30_000), 30_000);
    for (const bad of [999, 30_001, 1500.5]) {
      assert.throws(
        () => budgetOf(bad),
        (e: Error) =>
          e instanceof InputError &&
          e.message === `max_tokens: must be a whole number from 1,000 to 30,000 (got ${bad}); the default is 12,000`,
      );
    }
  });

  it('sends every rule in full, first, even past the budget, and then nothing else', async () => {
    const dir = writeWorkspace({
      '.context/rules/a.md': pageText({ title: 'Rule A', type: 'rule' }, `# Rule A\n\n${filler('rule a', 90)}\n`),
      '.context/rules/b.md': pageText({ title: 'Rule B', type: 'rule' }, `# Rule B\n\n${filler('rule b', 90)}\n`),
      '.context/guides/pinned.md': pageText(
        { title: 'Pinned', always_include: true },
        '# Pinned\n\nShort and pinned.\n',
      ),
      '.context/guides/refunds.md': pageText(
        { title: 'Refunds' },
        '# Refunds\n\n## Refund window\n\nRefunds within 14 days.\n',
      ),
    });
    const lib = await indexDir(dir, 'rules');
    opened.push(lib);
    const built = await run(lib.view, { task: 'what is the refund window', maxTokens: 1_000 });
    assert.equal(built.bundle.rulesOverBudget, true);
    assert.deepEqual(
      built.bundle.rules.map((p) => [p.doc.title, p.whole]),
      [
        ['Rule A', true],
        ['Rule B', true],
      ],
    );
    assert.ok(
      built.markdown.includes(filler('rule a', 90)) && built.markdown.includes(filler('rule b', 90)),
      'each rule whole, never cut',
    );
    assert.ok(built.bundle.tokens > 1_000);
    assert.deepEqual(referencePages(built), [], 'no room left for anything else');
    assert.deepEqual(
      built.bundle.skipped.map((s) => [s.doc.title, s.reason, s.why]),
      [['Pinned', 'pinned', 'budget']],
    );
    assert.ok(built.markdown.indexOf('# Rules (always follow)') < built.markdown.indexOf('## Rule A'));
    assert.ok(!built.markdown.includes('# Reference'));
  });

  it('names a page that did not fit once, however many ways it came (pinned, and found by search as a page read whole)', async () => {
    const dir = writeWorkspace({
      '.context/guides/refunds.md': pageText(
        { title: 'Refund handbook', always_include: true, read_whole: true },
        `# Refund handbook\n\n## Refund window\n\nRefunds within 14 days. ${filler('refund window', 120)}\n`,
      ),
      '.context/guides/other.md': pageText({ title: 'Other' }, '# Other\n\nNothing about it.\n'),
    });
    const lib = await indexDir(dir, 'twice');
    opened.push(lib);
    const built = await run(lib.view, { task: 'what is the refund window', maxTokens: 1_000 });
    assert.deepEqual(
      built.bundle.skipped.map((s) => [s.doc.title, s.reason]),
      [['Refund handbook', 'pinned']],
    );
  });

  it('keeps whole pages within three quarters of the budget: a pinned page that would pass it is skipped but stays searchable', async () => {
    const dir = writeWorkspace({
      '.context/guides/a-ladder.md': pageText(
        { title: 'Escalation ladder', always_include: true },
        `# Escalation ladder\n\n${filler('escalation', 260)}\n`,
      ),
      '.context/guides/b-style.md': pageText(
        { title: 'House style', always_include: true, good_for: ['formatting a slide deck'] },
        `# House style\n\n## Headline case\n\nHeadlines use sentence case, never title case.\n\n## Background\n\n${filler('style background', 120)}\n`,
      ),
    });
    const lib = await indexDir(dir, 'allowance');
    opened.push(lib);
    const built = await run(lib.view, { task: 'which case do headlines use', maxTokens: 5_000 });
    const allowance = Math.floor(WHOLE_PAGE_SHARE * 5_000 * 4);
    const [first] = built.bundle.reference;
    assert.equal(first.doc.title, 'Escalation ladder');
    assert.equal(first.whole, true);
    assert.ok(first.chars <= allowance && first.chars > allowance / 2, `${first.chars} of ${allowance}`);
    assert.deepEqual(
      built.bundle.skipped.map((s) => [s.doc.title, s.reason, s.why]),
      [['House style', 'pinned', 'allowance']],
    );
    // Its sections are still searched: the one the task asks about comes as an excerpt.
    assert.deepEqual(referencePages(built), [
      ['Escalation ladder', 'pinned', true],
      ['House style', 'search', false],
    ]);
    assert.deepEqual(
      built.bundle.reference[1].sections.map((s) => s.entry.section.headingPath.slice(1).join('')),
      ['Headline case'],
    );
    assert.ok(built.bundle.tokens <= 5_000);
  });

  it('never passes the budget (except by rules), and counts exactly what it sends', async () => {
    const taxwell = await indexDir(TAXWELL);
    const fernhill = await indexDir(EXAMPLE_WORKSPACE, 'fernhill');
    opened.push(taxwell, fernhill);
    const cases: [Indexed, string][] = [
      [taxwell, COLD_EMAIL],
      [taxwell, 'what does the Growth plan cost per year'],
      [fernhill, 'add a caller of the payments gateway that refunds a charge'],
      [fernhill, 'write a postmortem for the billing outage'],
      [fernhill, 'change the checkout page text shown when a card is declined'],
    ];
    for (const [lib, task] of cases) {
      for (const maxTokens of [1_000, 1_500, 2_500, 4_000, 12_000]) {
        const built = await run(lib.view, { task, maxTokens });
        assert.equal(
          built.bundle.tokens,
          estimateTokens(built.markdown),
          `${task} @ ${maxTokens}: tokens are the Markdown's`,
        );
        if (!built.bundle.rulesOverBudget)
          assert.ok(built.bundle.tokens <= maxTokens, `${task} @ ${maxTokens}: ${built.bundle.tokens} tokens`);
      }
    }
    // A larger budget never sends less.
    const small = await run(fernhill.view, { task: cases[2][1], maxTokens: 2_500 });
    const large = await run(fernhill.view, { task: cases[2][1], maxTokens: 12_000 });
    assert.ok(large.bundle.tokens > small.bundle.tokens);
  });
});
