import assert from 'node:assert/strict';
import { RELATED } from '../../../../server/src/library/context/constants';
import { findPack } from '../../../../server/src/library/context/packs';
import { InputError } from '../../../../server/src/engine/errors';
import { COLD_EMAIL, indexDir, referencePages, run, TAXWELL, type Indexed } from './herald';

describe('get_context step 4: packs matched by their Good-for phrasings, or forced', function () {
  this.timeout(60_000);
  let lib: Indexed;
  before(async () => {
    lib = await indexDir(TAXWELL);
  });
  after(() => lib.engine.dispose());

  it('applies a pack whose phrasing is close to the task; its Always pages come whole, after pinned pages', async () => {
    const built = await run(lib.view, COLD_EMAIL);
    assert.deepEqual(built.bundle.packs, [
      {
        name: 'Outbound email',
        path: '.context/packs/outbound.yaml',
        phrasing: 'writing a cold email to a prospect',
        score: 0.575,
        forced: false,
        applied: true,
        decidedBy: 'heuristic',
      },
    ]);
    assert.deepEqual(referencePages(built).slice(0, 2), [
      ['Taxwell glossary', 'pinned', true],
      ['Voice and tone', 'recipe', true],
    ]);
    assert.match(built.markdown, /^<!-- packs applied: Outbound email; tags found in the task: avalara -->$/m);
  });

  it('applies no pack when none is close (several can apply, or none)', async () => {
    const built = await run(lib.view, 'what does the Growth plan cost per year');
    assert.deepEqual(built.bundle.packs, []);
    assert.match(built.markdown, /^<!-- packs applied: none; tags found in the task: none -->$/m);
  });

  it('`pack` forces that pack and matches no other', async () => {
    const built = await run(lib.view, { task: COLD_EMAIL, pack: 'renewals' });
    assert.deepEqual(
      built.bundle.packs.map((p) => [p.name, p.applied, p.forced, p.decidedBy]),
      [['Renewals', true, true, 'forced']],
    );
    assert.deepEqual(referencePages(built).slice(0, 2), [
      ['Taxwell glossary', 'pinned', true],
      ['Renewal playbook', 'recipe', true],
    ]);
    assert.ok(
      !referencePages(built).some(([title]) => title === 'Voice and tone'),
      'the matching pack does not apply when another is forced',
    );
    // By file name too.
    assert.equal(findPack(lib.view.state.packs, 'outbound').name, 'Outbound email');
  });

  it('refuses an unknown pack, listing the packs', async () => {
    await assert.rejects(
      run(lib.view, { task: COLD_EMAIL, pack: 'Nope' }),
      (e: Error) =>
        e instanceof InputError && e.message === 'pack: no pack is named "Nope". Packs: "Outbound email", "Renewals".',
    );
  });

  it("keeps an applied pack's When-relevant sections past the closeness window when they are related at all", async () => {
    const task = 'cold email to a prospect quoting our plan prices';
    const plain = await run(lib.view, { task, pack: 'Renewals' });
    const prices = (b: typeof plain) => b.bundle.reference.find((p) => p.doc.title === 'Price list');
    assert.equal(prices(plain), undefined, 'outside the window without the pack');
    const built = await run(lib.view, task);
    assert.deepEqual(
      built.bundle.packs.filter((p) => p.applied).map((p) => p.name),
      ['Outbound email'],
    );
    const page = prices(built)!;
    assert.equal(page.reason, 'recipe');
    assert.equal(page.whole, false);
    const [plans] = page.sections;
    assert.equal(plans.entry.section.headingPath.join(' › '), 'Price list › Plans');
    assert.ok(plans.similarity! >= RELATED.words && plans.similarity! < 0.5, `${plans.similarity}`);
    // "Related at all" is a calibrated bar, not any similarity above 0: sharing only "pricing" is not enough.
    const loose = await run(lib.view, 'cold email to a prospect quoting our pricing');
    assert.deepEqual(
      loose.bundle.packs.filter((p) => p.applied).map((p) => p.name),
      ['Outbound email'],
    );
    assert.equal(prices(loose), undefined);
  });
});
