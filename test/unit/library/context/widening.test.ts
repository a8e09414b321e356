import assert from 'node:assert/strict';
import { folderCoherence } from '../../../../server/src/library/context/coherence';
import { contextIndex } from '../../../../server/src/library/context/contextIndex';
import {
  FOLDER_COHERENCE_MIN,
  LINKED_AS_IS_TYPES,
  REACH_WEIGHT,
  RELATED,
} from '../../../../server/src/library/context/constants';
import { removeTempDirs } from '../../../helpers/tempWorkspace';
import { indexDir, pageText, referencePages, run, TAXWELL, writeWorkspace, type Indexed } from './herald';

describe('get_context step 6, widening: links both ways and coherent folders', function () {
  this.timeout(60_000);
  let lib: Indexed;
  before(async () => {
    lib = await indexDir(TAXWELL);
  });
  after(() => {
    lib.engine.dispose();
    removeTempDirs();
  });

  it('follows a [[link]] written in a best hit to the page it names, carrying how it was reached', async () => {
    const built = await run(lib.view, 'questions to ask on a discovery call');
    const persona = built.bundle.reference.find((p) => p.doc.title === 'CFO persona')!;
    assert.equal(persona.reason, 'link');
    const [section] = persona.sections;
    assert.deepEqual(
      [section.entry.section.headingPath[1], section.reachedBy, section.via?.title, section.similarity],
      ['What they care about', 'link', 'Discovery call', undefined],
    );
    assert.equal(REACH_WEIGHT.link, 0.9);
  });

  it('brings siblings from a coherent folder (voice, focused) and none from a folder of one page per competitor', async () => {
    const index = contextIndex(lib.view);
    assert.deepEqual(folderCoherence(index, '.context/voice'), {
      folder: '.context/voice',
      score: 1,
      basis: 'profile',
      pages: folderCoherence(index, '.context/voice').pages,
    });
    const battlecards = folderCoherence(index, '.context/battlecards');
    assert.deepEqual(
      [battlecards.score, battlecards.basis, battlecards.pages.map((p) => p.title)],
      [0, 'one-name-per-page', ['Avalara battlecard', 'TaxJar battlecard']],
    );

    const voice = await run(lib.view, 'check the tone of voice of a reply');
    const signatures = voice.bundle.reference.find((p) => p.doc.title === 'Signatures')!;
    assert.deepEqual(
      [signatures.reason, signatures.sections[0].reachedBy, signatures.sections[0].via?.title],
      ['folder', 'folder', 'Voice and tone'],
    );

    const avalara = await run(lib.view, 'why do customers leave Avalara');
    assert.deepEqual(
      avalara.bundle.reference.map((p) => p.doc.title).filter((t) => t.endsWith('battlecard')),
      ['Avalara battlecard'],
    );
  });

  it('brings a linked template on the link alone, a linked reference page only when it is related to the task itself', async () => {
    const dir = writeWorkspace({
      '.context/reference/refund-policy.md': pageText(
        { title: 'Refund policy', type: 'reference' },
        '# Refund policy\n\n## Refund window\n\nMerchants refund a charge within 14 days of capture. Card fees are kept (see [[Plans and limits]]); reply with the [[Refund reply template]].\n',
      ),
      '.context/reference/plans.md': pageText(
        { title: 'Plans and limits', type: 'reference' },
        '# Plans and limits\n\n## Plans\n\nStarter costs 0.25 EUR per transaction, Growth 0.20 EUR.\n',
      ),
      '.context/templates/refund-reply.md': pageText(
        { title: 'Refund reply template', type: 'template' },
        '# Refund reply template\n\n## Body\n\nHi {name}, the amount is back on your card in five days.\n',
      ),
    });
    const gen = await indexDir(dir, 'links');
    try {
      const built = await run(gen.view, 'what is the refund window for a charge?');
      // The template applies to the work without resembling it: the link in the hit brings it whole.
      // The plans page is about another topic: the same link brings nothing of it, nothing on it
      // being related to refunds.
      assert.deepEqual(referencePages(built), [
        ['Refund reply template', 'link', true],
        ['Refund policy', 'use', false],
      ]);
      assert.ok(LINKED_AS_IS_TYPES.has('template') && !LINKED_AS_IS_TYPES.has('reference'));
      const template = built.bundle.reference[0];
      // Not related to the task on its own (its title's "refund" is a small share of the task's words).
      assert.deepEqual(
        template.sections.map((s) => [s.reachedBy, (s.similarity ?? 0) < RELATED.words]),
        [['link', true]],
      );

      // A task the plans page is related to on its own ("plan"): the link counts again.
      const plan = await run(gen.view, 'refund window and the Starter plan');
      assert.deepEqual(referencePages(plan), [
        ['Refund reply template', 'link', true],
        ['Refund policy', 'search', false],
        ['Plans and limits', 'link', false],
      ]);
      const plans = plan.bundle.reference[2].sections[0];
      assert.deepEqual(
        [plans.reachedBy, plans.via?.title, (plans.similarity ?? 0) >= RELATED.words],
        ['link', 'Refund policy', true],
      );
    } finally {
      gen.engine.dispose();
    }
  });

  it('scores a folder without a profile by how alike its pages are', async () => {
    const dir = writeWorkspace({
      '.context/tone/greetings.md': pageText(
        {
          title: 'Greetings in customer emails',
          tags: ['voice', 'email'],
          summary: 'How customer emails greet the reader.',
        },
        '# Greetings in customer emails\n\nUse the first name.\n',
      ),
      '.context/tone/closings.md': pageText(
        { title: 'Closings in customer emails', tags: ['voice', 'email'], summary: 'How customer emails close.' },
        '# Closings in customer emails\n\nEnd with a next step.\n',
      ),
      '.context/misc/parking.md': pageText(
        { title: 'Office parking', tags: ['office'], summary: 'Where to park at the office.' },
        '# Office parking\n\nLevel two.\n',
      ),
      '.context/misc/kubernetes.md': pageText(
        { title: 'Kubernetes upgrades', tags: ['infra'], summary: 'Upgrading the clusters.' },
        '# Kubernetes upgrades\n\nOne minor version at a time.\n',
      ),
    });
    const gen = await indexDir(dir, 'coherence');
    try {
      const index = contextIndex(gen.view);
      const tone = folderCoherence(index, '.context/tone');
      const misc = folderCoherence(index, '.context/misc');
      assert.equal(tone.basis, 'similarity');
      assert.ok(tone.score >= FOLDER_COHERENCE_MIN, `tone ${tone.score}`);
      assert.ok(misc.score < 0.1, `misc ${misc.score}`);
      const built = await run(gen.view, 'how to greet the reader of a customer email');
      const closings = built.bundle.reference.find((p) => p.doc.title === 'Closings in customer emails');
      assert.equal(closings?.reason, 'folder');
    } finally {
      gen.engine.dispose();
    }
  });
});
