import assert from 'node:assert/strict';
import { folderCoherence } from '../../../../server/src/engine/context/coherence';
import { contextIndex } from '../../../../server/src/engine/context/contextIndex';
import { FOLDER_COHERENCE_MIN, REACH_WEIGHT } from '../../../../server/src/engine/context/constants';
import { removeTempDirs } from '../../../helpers/tempWorkspace';
import { indexDir, pageText, run, TAXWELL, writeWorkspace, type Indexed } from './herald';

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
    assert.deepEqual([section.entry.section.headingPath[1], section.reachedBy, section.via?.title, section.similarity], ['What they care about', 'link', 'Discovery call', undefined]);
    assert.equal(REACH_WEIGHT.link, 0.9);
  });

  it('brings siblings from a coherent folder (voice, focused) and none from a folder of one page per competitor', async () => {
    const index = contextIndex(lib.view);
    assert.deepEqual(folderCoherence(index, '.context/voice'), { folder: '.context/voice', score: 1, basis: 'profile', pages: folderCoherence(index, '.context/voice').pages });
    const battlecards = folderCoherence(index, '.context/battlecards');
    assert.deepEqual([battlecards.score, battlecards.basis, battlecards.pages.map((p) => p.title)], [0, 'one-name-per-page', ['Avalara battlecard', 'TaxJar battlecard']]);

    const voice = await run(lib.view, 'check the tone of voice of a reply');
    const signatures = voice.bundle.reference.find((p) => p.doc.title === 'Signatures')!;
    assert.deepEqual([signatures.reason, signatures.sections[0].reachedBy, signatures.sections[0].via?.title], ['folder', 'folder', 'Voice and tone']);

    const avalara = await run(lib.view, 'why do customers leave Avalara');
    assert.deepEqual(avalara.bundle.reference.map((p) => p.doc.title).filter((t) => t.endsWith('battlecard')), ['Avalara battlecard']);
  });

  it('scores a folder without a profile by how alike its pages are', async () => {
    const dir = writeWorkspace({
      '.context/tone/greetings.md': pageText({ title: 'Greetings in customer emails', tags: ['voice', 'email'], summary: 'How customer emails greet the reader.' }, '# Greetings in customer emails\n\nUse the first name.\n'),
      '.context/tone/closings.md': pageText({ title: 'Closings in customer emails', tags: ['voice', 'email'], summary: 'How customer emails close.' }, '# Closings in customer emails\n\nEnd with a next step.\n'),
      '.context/misc/parking.md': pageText({ title: 'Office parking', tags: ['office'], summary: 'Where to park at the office.' }, '# Office parking\n\nLevel two.\n'),
      '.context/misc/kubernetes.md': pageText({ title: 'Kubernetes upgrades', tags: ['infra'], summary: 'Upgrading the clusters.' }, '# Kubernetes upgrades\n\nOne minor version at a time.\n'),
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
