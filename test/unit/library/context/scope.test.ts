import assert from 'node:assert/strict';
import * as path from 'node:path';
import { buildContext } from '../../../../server/src/library/context/getContext';
import { PrivateNotes } from '../../../../server/src/library/context/privateNotes';
import { InputError } from '../../../../server/src/engine/errors';
import { removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';
import { COLD_EMAIL, indexDir, referencePages, run, TAXWELL, testHooks, type Indexed } from './herald';

describe('get_context scope: tags, folder, drafts, expired pages and private notes', function () {
  this.timeout(60_000);
  let lib: Indexed;
  before(async () => {
    lib = await indexDir(TAXWELL);
  });
  after(() => {
    lib.engine.dispose();
    removeTempDirs();
  });

  it('never includes drafts or expired pages, even when they match the task best', async () => {
    const built = await run(lib.view, COLD_EMAIL);
    const titles = [...built.bundle.rules, ...built.bundle.reference].map((p) => p.doc.title);
    assert.ok(!titles.includes('Pricing FAQ') && !titles.includes('Spring promotion'), titles.join(', '));
    assert.ok(!built.markdown.includes('two months free') && !built.markdown.includes('not reviewed yet'));
  });

  it('takes everything from the folder and its subfolders only: rules, pinned pages and the team instructions too', async () => {
    const whole = await run(lib.view, COLD_EMAIL);
    assert.deepEqual(
      [whole.bundle.instructions.length, whole.bundle.rules.length],
      [1, 2],
      'without a folder: the instructions and both rules',
    );
    const built = await run(lib.view, { task: COLD_EMAIL, folder: 'battlecards' });
    assert.deepEqual(
      built.bundle.rules.map((p) => p.doc.title),
      [],
    );
    assert.deepEqual(built.bundle.instructions, []);
    assert.deepEqual(referencePages(built), [['Avalara battlecard', 'search', false]]);
    assert.ok(
      !built.markdown.includes('Instructions from the Taxwell team') &&
        !built.markdown.includes('Rules (always follow)'),
      built.markdown,
    );
    assert.deepEqual(built.bundle.scope, { folder: 'battlecards' });
    const same = await run(lib.view, { task: COLD_EMAIL, folder: '.context/battlecards/' });
    assert.deepEqual(referencePages(same), [['Avalara battlecard', 'search', false]]);
    // The pinned glossary comes with its own folder; the rules with theirs.
    const guides = await run(lib.view, { task: COLD_EMAIL, folder: 'guides' });
    assert.deepEqual(referencePages(guides)[0], ['Taxwell glossary', 'pinned', true]);
    assert.ok(
      referencePages(guides).every(([title]) =>
        lib.view.docs.find((d) => d.title === title)!.path.startsWith('.context/guides/'),
      ),
    );
    const rules = await run(lib.view, { task: 'what may I promise about discounts', folder: '.context/rules' });
    assert.deepEqual(
      rules.bundle.rules.map((p) => p.doc.title),
      ['Cite the price list', 'No discount promises'],
    );
    assert.deepEqual(referencePages(rules), []);
    // The whole library is a folder too: everything comes.
    const all = await run(lib.view, { task: COLD_EMAIL, folder: '.context' });
    assert.deepEqual(
      [all.bundle.instructions.length, all.bundle.rules.length, referencePages(all)[0][0]],
      [1, 2, 'Taxwell glossary'],
    );
    await assert.rejects(
      run(lib.view, { task: COLD_EMAIL, folder: 'wiki' }),
      (e: Error) =>
        e instanceof InputError &&
        e.message.startsWith(
          'folder: no ready library page is in "wiki". Folders: .context, .context/battlecards, .context/guides,',
        ),
    );
  });

  it('searches only pages with one of the tags, rules and pinned pages still come; an unknown tag is refused with the tags in use', async () => {
    const built = await run(lib.view, { task: 'what does the Growth plan cost per year', tags: ['Pricing'] });
    assert.deepEqual(
      built.bundle.rules.map((p) => p.doc.title),
      ['Cite the price list', 'No discount promises'],
    );
    assert.deepEqual(
      referencePages(built),
      [
        ['Taxwell glossary', 'pinned', true],
        ['Price list', 'use', false],
      ],
      'the pinned glossary is not tagged pricing and still comes; the price list is Good for a yearly price (Porter2: yearly and year are one stem)',
    );
    await assert.rejects(
      run(lib.view, { task: 'x', tags: ['pricing', 'nope'] }),
      (e: Error) =>
        e instanceof InputError &&
        e.message ===
          'tags: no ready page is tagged "nope". Tags in use: avalara, competitor, outreach, persona, pricing, sales, taxjar.',
    );
  });

  it("uses the user's own private notes only on their own connections, labelled as theirs", async () => {
    const dir = tempDir('notes');
    write(
      dir,
      'avalara-call.md',
      '---\ntitle: My Avalara call notes\n---\n\n# My Avalara call notes\n\n## Cold email follow-up\n\nThe CFO at Northwind asked for a cold email recap of the Avalara filing delays.\n',
    );
    write(dir, 'draft.md', '---\ntitle: Unfinished\nstatus: draft\n---\n\n# Unfinished\n\nCold email CFO Avalara.\n');
    const notes = new PrivateNotes({ dir, isOwnConnection: (session) => session === 'me' });
    const docs = notes.docs('2026-06-01');
    assert.deepEqual(
      docs.map((d) => [d.title, d.path]),
      [['My Avalara call notes', '~notes/avalara-call.md']],
      'drafts skipped',
    );
    assert.equal(notes.ownedBy('me'), true);
    assert.equal(notes.ownedBy('someone-else'), false);
    const mine = await buildContext({
      view: lib.view,
      request: { task: COLD_EMAIL, sessionId: 'me' },
      hooks: testHooks({ privateNotes: notes }),
      organization: 'Taxwell',
      privateDocs: docs,
      privateSections: notes.sections(docs),
    });
    const note = mine.bundle.reference.find((p) => p.private)!;
    assert.equal(note.doc.title, 'My Avalara call notes');
    assert.ok(
      mine.markdown.includes(
        '## My Avalara call notes\npage · your own private note · excerpts (read_page for the whole page) · page_id: ',
      ),
    );
    // Another connection of the same engine never gets them (the tool passes none; see tools/getContext.ts).
    const theirs = await run(lib.view, { task: COLD_EMAIL, sessionId: 'someone-else' }, { privateNotes: notes });
    assert.ok(!theirs.markdown.includes('Northwind'));
    assert.equal(path.isAbsolute(notes.dir), true);
  });
});
