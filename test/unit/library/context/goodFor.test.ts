import assert from 'node:assert/strict';
import { CLOSE_RATIO, GOOD_FOR_MATCH, RELATED } from '../../../../server/src/library/context/constants';
import { contextIndex } from '../../../../server/src/library/context/contextIndex';
import { matchFolders, scorePages, selectGoodFor } from '../../../../server/src/library/context/goodFor';
import { matchPhrasings } from '../../../../server/src/library/context/phraseMatch';
import { termSet } from '../../../../server/src/engine/text/analyzer';
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

describe('get_context step 5: pages and folders matched by what they are for', function () {
  this.timeout(60_000);
  let lib: Indexed;
  const opened: Indexed[] = [];
  before(async () => {
    lib = await indexDir(TAXWELL);
    opened.push(lib);
  });
  after(() => {
    for (const o of opened) o.engine.dispose();
    removeTempDirs();
  });

  it('finds a page whose content shares no word with the task through its Good-for phrasings', async () => {
    const checklist = lib.view.docs.find((d) => d.title === 'Outreach checklist')!;
    const content = termSet(checklist.sections.map((s) => s.text).join('\n'));
    const task = termSet(COLD_EMAIL);
    assert.deepEqual(
      [...task].filter((t) => content.has(t)),
      [],
      'the page never says cold, email, CFO, switching or Avalara',
    );

    const built = await run(lib.view, COLD_EMAIL);
    const page = built.bundle.reference.find((p) => p.doc.title === 'Outreach checklist')!;
    assert.equal(page.reason, 'use');
    assert.equal(page.whole, false);
    // Not a page to read whole: its best two sections, kept past the closeness window.
    assert.deepEqual(
      page.sections.map((s) => [s.entry.section.headingPath[1], s.reachedBy, s.similarity]),
      [
        ['Subject line', 'use', undefined],
        ['The ask', 'use', undefined],
      ],
    );
    const scored = selectGoodFor(
      await scorePages(
        contextIndex(lib.view),
        lib.view.docs,
        { task: COLD_EMAIL, facets: ['cold email', 'CFO', 'Avalara'] },
        {},
      ),
    );
    assert.deepEqual(
      scored.map((m) => [m.doc.title, m.match.phrasing]),
      [['Outreach checklist', 'writing a cold email to a finance buyer']],
    );
  });

  it('sends a matched page that is read whole (voice) whole, with the reason use', async () => {
    const built = await run(lib.view, 'check the tone of voice of a reply');
    const voice = built.bundle.reference.find((p) => p.doc.title === 'Voice and tone')!;
    assert.deepEqual([voice.reason, voice.whole], ['use', true]);
    assert.ok(built.markdown.includes('## Voice and tone\nvoice · full page · page_id: '));
    assert.ok(
      built.markdown.includes(
        'Plain words. Numbers over adjectives. No exclamation marks.\n\n### Greetings\n\n"Hi Dana," never "Dear Sir or Madam".',
      ),
    );
  });

  it('weighs the verbs every phrasing starts with lightly: "writing" alone is no match', async () => {
    const index = contextIndex(lib.view);
    const [a, b] = await matchPhrasings(index, { task: 'writing a changelog', facets: [] }, [
      ['writing a cold email to a finance buyer'],
      ['writing a changelog entry'],
    ]);
    assert.ok(a.score < 0.15, `${a.score}`);
    assert.ok(b.score > 0.7, `${b.score}`);
  });

  it('takes a page by its title and summary only when its text is related to the task; by its own Good-for words, always', async () => {
    const body =
      '# Browser checks\n\n## Locators\n\nPrefer role-based locators over CSS selectors.\n\n## Waiting\n\nRely on auto-waiting; never sleep.\n';
    const dir = writeWorkspace({
      // No good_for: its phrasings are derived from its title and summary.
      '.context/browser/checks.md': pageText(
        { title: 'Browser checks', summary: 'Writing end-to-end tests for the web app.' },
        body,
      ),
      // The same text, with the same words declared as what it is for.
      '.context/declared/checks.md': pageText(
        { title: 'Browser checks (declared)', good_for: ['writing end-to-end tests for the web app'] },
        body.replace('# Browser checks', '# Browser checks (declared)'),
      ),
      '.context/testing/unit-tests.md': pageText(
        { title: 'Unit tests' },
        '# Unit tests\n\n## Rate limiter\n\nThe rate limiter tests use a fake clock.\n',
      ),
    });
    const gen = await indexDir(dir, 'good-for');
    opened.push(gen);
    const task = 'write end-to-end tests for the rate limiter';
    const scored = await scorePages(
      contextIndex(gen.view),
      gen.view.docs,
      { task, facets: ['write end-to-end tests', 'rate limiter'] },
      {},
    );
    const browser = scored.filter((m) => m.doc.title.startsWith('Browser checks'));
    // Both clear the words bar with the same phrasing; only one says it is its own.
    assert.deepEqual(
      browser.map((m) => [m.doc.title, m.match.words >= GOOD_FOR_MATCH.words, m.declared]),
      [
        ['Browser checks', true, false],
        ['Browser checks (declared)', true, true],
      ],
    );
    const built = await run(gen.view, task);
    // Nothing in the derived page's text is about the task: its summary's words were not enough.
    assert.deepEqual(referencePages(built), [
      ['Unit tests', 'use', false],
      ['Browser checks (declared)', 'use', false],
    ]);
  });

  it('lifts the pages of a folder whose phrasings match into the search, keeping those related to the task at all', async () => {
    const dir = writeWorkspace({
      '.context/onboarding/folder.yaml':
        'description: Getting a new hire started.\ngood_for:\n  - onboarding a new engineer\n',
      '.context/onboarding/laptop.md': pageText(
        { title: 'Laptop' },
        '# Laptop\n\n## Setup\n\nA new engineer installs the toolchain on day one.\n',
      ),
      '.context/onboarding/parking.md': pageText(
        { title: 'Parking' },
        '# Parking\n\n## Badge\n\nAsk reception for a badge for the car park.\n',
      ),
      '.context/onboarding/accounts.md': pageText(
        { title: 'Accounts' },
        '# Accounts\n\n## Access\n\nRequest access to the repositories through the portal.\n',
      ),
      '.context/security/access.md': pageText(
        { title: 'Access reviews' },
        '# Access reviews\n\n## Quarterly\n\nRequest access reviews for the repositories every quarter.\n',
      ),
    });
    const gen = await indexDir(dir, 'folders');
    opened.push(gen);
    const index = contextIndex(gen.view);
    const folders = await matchFolders(
      index,
      gen.view.docs,
      { task: 'onboarding a new engineer: request access to the repositories', facets: [] },
      {},
    );
    assert.deepEqual(
      folders.map((f) => [f.folder, f.match.phrasing, f.pages.map((p) => p.title), f.declared]),
      [['.context/onboarding', 'onboarding a new engineer', ['Accounts', 'Laptop', 'Parking'], true]],
    );
    // Laptop is related (it says "new engineer") but outside the window: lifted, it is kept past it.
    // Parking shares only the folder's own word: below the "related at all" bar, lifted or not.
    const lifted = await run(gen.view, 'onboarding a new engineer: request access to the repositories');
    assert.deepEqual(excerpts(lifted), [
      ['Accounts', 'Access'],
      ['Access reviews', 'Quarterly'],
      ['Laptop', 'Setup'],
    ]);
    const laptop = lifted.bundle.reference.find((p) => p.doc.title === 'Laptop')!;
    assert.ok(
      laptop.sections[0].similarity! >= RELATED.words && laptop.sections[0].similarity! < CLOSE_RATIO.words * 0.8,
      `${laptop.sections[0].similarity}`,
    );
    const plain = await run(gen.view, 'request access to the repositories');
    assert.deepEqual(excerpts(plain), [
      ['Accounts', 'Access'],
      ['Access reviews', 'Quarterly'],
    ]);
  });
});
