import assert from 'node:assert/strict';
import { CLOSE_RATIO } from '../../../../server/src/library/context/constants';
import { isSpecificName } from '../../../../server/src/library/context/sectionSearch';
import { removeTempDirs } from '../../../helpers/tempWorkspace';
import {
  COLD_EMAIL,
  excerpts,
  indexDir,
  pageText,
  referencePages,
  run,
  TAXWELL,
  writeWorkspace,
  type Indexed,
} from './herald';

const filler = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `Step ${i + 1} of the ${topic} is written down here for the team.`).join(' ');

describe('get_context step 7: focus (closeness window, the heuristic judge, table rows, read-whole pages)', function () {
  this.timeout(60_000);
  let taxwell: Indexed;
  let gen: Indexed;
  before(async () => {
    taxwell = await indexDir(TAXWELL);
    gen = await indexDir(
      writeWorkspace({
        '.context/competitors/slotly.md': pageText(
          { title: 'Slotly', tags: ['competitor', 'slotly'] },
          '# Slotly\n\n## Pricing\n\nSlotly charges per seat and per booking.\n\n## Integrations\n\nSlotly connects to two calendars only.\n\n## Weaknesses\n\nSlotly has no audit log and no single sign-on.\n\n## Migration\n\nCustomers move from Slotly in a week with our importer.\n',
        ),
        '.context/guides/comparison-pages.md': pageText(
          { title: 'Comparison pages', good_for: ['writing a comparison page against a competitor'] },
          '# Comparison pages\n\n## Structure\n\nA comparison page opens with the three differences that matter, then a feature table.\n\n## Claims\n\nEvery claim on a comparison page links to a public source.\n',
        ),
        '.context/reference/refund-policy.md': pageText(
          { title: 'Refund policy' },
          '# Refund policy\n\n## Refund window\n\nCustomers can ask for a refund within 14 days.\n\n## Partial refunds\n\nPartial refunds are allowed until the amount is used up.\n\n## Fees\n\nCard fees are not returned.\n',
        ),
        '.context/guides/sales-faq.md': pageText(
          { title: 'Sales FAQ', good_for: ["answering a prospect's question on a call"] },
          '# Sales FAQ\n\n## Common questions\n\nProspects often ask about onboarding time, training and whether Slotly data can be kept.\n',
        ),
        '.context/guides/release-process.md': pageText(
          { title: 'Release process', type: 'process', good_for: ['shipping a mobile build'] },
          `# Release process\n\n## Freeze\n\nThe release freeze starts on Wednesday at noon.\n\n## Checks\n\n${filler('checks', 40)}\n\n## Rollout\n\n${filler('rollout', 40)}\n`,
        ),
      }),
      'focus',
    );
  });
  after(() => {
    taxwell.engine.dispose();
    gen.engine.dispose();
    removeTempDirs();
  });

  it("drops the battlecard of a different competitor than the task names (heuristic judge), keeping the task's", async () => {
    const built = await run(taxwell.view, COLD_EMAIL);
    assert.deepEqual(
      excerpts(built).filter(([title]) => title.endsWith('battlecard')),
      [
        ['Avalara battlecard', 'Why customers switch'],
        ['Avalara battlecard', 'Cold email angle'],
      ],
    );
    const taxjar = taxwell.view.docs.find((d) => d.title === 'TaxJar battlecard')!;
    const angle = taxjar.sections.find((s) => s.headingPath[1] === 'Cold email angle')!;
    const verdicts = built.bundle.judge.verdicts.filter((v) => v.subject === angle.id);
    // It reads like the task (question 1 says yes: inside the window) but is about TaxJar (question 2).
    assert.deepEqual(
      verdicts.map((v) => [v.kind, v.applied.yes, v.applied.from]),
      [
        ['use', true, 'heuristic'],
        ['different', true, 'heuristic'],
      ],
    );
    assert.ok(!built.markdown.includes('TaxJar'), 'nothing about TaxJar is sent');
    assert.equal(built.bundle.judge.provider, 'none');
  });

  it('keeps only sections close to the best match: a narrow question gets a few, a broad task more', async () => {
    const narrow = await run(gen.view, 'what is the refund window?');
    assert.deepEqual(excerpts(narrow), [['Refund policy', 'Refund window']]);
    const broad = await run(gen.view, 'write a comparison page against Slotly');
    assert.deepEqual(excerpts(broad), [
      ['Slotly', 'Pricing'],
      ['Slotly', 'Integrations'],
      ['Slotly', 'Weaknesses'],
      ['Slotly', 'Migration'],
      ['Sales FAQ', 'Common questions'],
      ['Comparison pages', 'Structure'],
      ['Comparison pages', 'Claims'],
    ]);
    const [window] = narrow.bundle.reference[0].sections;
    assert.equal(window.similarity, 1);
    const fees = narrow.bundle.judge.verdicts.find(
      (v) => v.kind === 'use' && gen.view.sectionById.get(v.subject)?.section.headingPath[1] === 'Fees',
    );
    assert.equal(fees?.applied.yes, false, 'Fees shares "refund" through its page title only: outside the window');
    assert.equal(CLOSE_RATIO.words, 0.7);
  });

  it('always surfaces a section that holds a name the plan found, however it does otherwise', async () => {
    const built = await run(gen.view, 'write a comparison page against Slotly');
    const faq = built.bundle.reference.find((p) => p.doc.title === 'Sales FAQ')!;
    const [common] = faq.sections;
    assert.ok(common.similarity! < CLOSE_RATIO.words, `${common.similarity}: outside the window`);
    assert.equal(faq.reason, 'search');
    assert.deepEqual(
      built.bundle.plan.names.map((n) => [n.text, n.kind]),
      [['Slotly', 'competitor']],
    );
    // A catalog entity named with a plain word does not make every section that says it surface.
    assert.equal(
      isSpecificName({ text: 'billing', kind: 'system', source: 'catalog', docIds: [], key: 'billing' }),
      false,
    );
    assert.equal(
      isSpecificName({
        text: 'billing-worker',
        kind: 'component',
        source: 'catalog',
        docIds: [],
        key: 'billing worker',
      }),
      true,
    );
  });

  it('judges table rows on the second question only: rows about another plan than the task names are dropped', async () => {
    const growth = await run(taxwell.view, 'what does the Growth plan cost per year');
    const page = growth.bundle.reference.find((p) => p.doc.title === 'Price list')!;
    assert.deepEqual(page.sections[0].rows, { kept: [1], dropped: 2 });
    assert.ok(
      growth.markdown.includes(
        '### Plans\n\n| Plan | Yearly price | Filings included |\n| --- | --- | --- |\n| Growth | 4,800 USD | 60 |',
      ),
    );
    assert.ok(!growth.markdown.includes('| Starter |') && !growth.markdown.includes('| Scale |'));
    const rowVerdicts = growth.bundle.judge.verdicts
      .filter((v) => v.kind === 'row')
      .map((v) => [v.subject.slice(65), v.applied.yes]);
    assert.deepEqual(rowVerdicts, [
      ['0:starter', true],
      ['1:growth', false],
      ['2:scale', true],
    ]);
    const all = await run(taxwell.view, 'how are the plans priced per year');
    const every = all.bundle.reference.find((p) => p.doc.title === 'Price list')!;
    assert.deepEqual(every.sections[0].rows, { kept: [0, 1, 2], dropped: 0 });
  });

  it('never sends a read-whole page in pieces: the whole page when it fits, else nothing from it', async () => {
    const fits = await run(gen.view, { task: 'when does the release freeze start', maxTokens: 4_000 });
    assert.deepEqual(referencePages(fits), [['Release process', 'search', true]]);
    assert.ok(fits.markdown.includes('## Release process\nprocess · full page · page_id: '));
    const tight = await run(gen.view, { task: 'when does the release freeze start', maxTokens: 1_000 });
    assert.deepEqual(referencePages(tight), []);
    assert.deepEqual(
      tight.bundle.skipped.map((s) => [s.doc.title, s.reason, s.why]),
      [['Release process', 'search', 'budget']],
    );
    assert.ok(!tight.markdown.includes('release freeze starts'));
  });
});
