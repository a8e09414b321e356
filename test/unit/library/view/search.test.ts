import assert from 'node:assert/strict';
import { documentId, sectionId } from '../../../../server/src/engine/chunking/ids';
import {
  FOCUSED_MIN_RELATIVE_STRENGTH,
  RRF_K,
  SEARCH_TOKEN_BUDGET,
  TITLE_BONUS_MAX,
} from '../../../../server/src/library/view/constants';
import { libraryView } from '../../../../server/src/library/view/libraryView';
import { pinnedDocuments } from '../../../../server/src/library/view/pinned';
import { searchLibrary } from '../../../../server/src/library/view/search';
import { documentTokens } from '../../../../server/src/library/view/sectionRender';
import { removeTempDirs } from '../../../helpers/tempWorkspace';
import { indexLibrary, sentences, TODAY, writeLibrary, type IndexedLibrary, type PageSpec } from './libraryFixtures';

const id8 = (path: string) => documentId(path).slice(0, 8);
const titles = (docs: { ranked: { doc: { title: string } } }[]) => docs.map((d) => d.ranked.doc.title);

/** A page of one `# title` section and `n` sentences about `topic`. */
function page(path: string, title: string, topic: string, n: number, front: Record<string, unknown> = {}): PageSpec {
  return { path, front: { title, ...front }, body: `# ${title}\n\n${sentences(topic, n)}\n` };
}

/** A page with `# title` and one `##` section per entry of `sections` (heading -> sentence count and topic). */
function sectioned(
  path: string,
  title: string,
  sections: [string, string, number][],
  front: Record<string, unknown> = {},
): PageSpec {
  const parts = [`# ${title}\n\nThis page collects the ${title.toLowerCase()} notes.`];
  for (const [heading, topic, n] of sections) parts.push(`## ${heading}\n\n${sentences(topic, n)}`);
  return { path, front: { title, ...front }, body: `${parts.join('\n\n')}\n` };
}

describe('search_instructions in the engine (ranking, fusion, budgets, profiles)', function () {
  this.timeout(60_000);
  const libs: IndexedLibrary[] = [];
  const open = async (pages: PageSpec[], folders: Record<string, string> = {}) => {
    const lib = await indexLibrary(writeLibrary(pages, folders));
    libs.push(lib);
    return lib;
  };
  after(() => {
    for (const lib of libs) lib.engine.dispose();
    removeTempDirs();
  });

  it('caps an answer at 6 documents and names the rest, best first, with the reason', async () => {
    const pages = Array.from({ length: 9 }, (_, i) =>
      page(`.context/faq/q${i + 1}.md`, `Refund question ${i + 1}`, `refund question ${i + 1}`, 12),
    );
    const lib = await open(pages, { '.context/faq/folder.yaml': 'description: Questions.\nprofile: catalog\n' });
    const { pack, ranking } = await searchLibrary(lib.view, 'refund question');
    assert.equal(ranking.documents.length, 9);
    assert.deepEqual(titles(pack.documents), [
      'Refund question 1',
      'Refund question 2',
      'Refund question 3',
      'Refund question 4',
      'Refund question 5',
      'Refund question 6',
    ]);
    assert.ok(pack.documents.every((d) => d.whole && d.profile === 'catalog'));
    assert.deepEqual(
      pack.cut.map((c) => [c.ranked.doc.title, c.reason]),
      [
        ['Refund question 7', 'document-cap'],
        ['Refund question 8', 'document-cap'],
        ['Refund question 9', 'document-cap'],
      ],
    );
    assert.equal(
      pack.tokens,
      pack.documents.reduce((n, d) => n + d.sections.reduce((m, s) => m + s.tokens, 0), 0),
    );
    assert.equal(pack.tokens, 1_374);
    // No title is named specifically: every title shares "refund question" with eight others.
    assert.ok(ranking.sections.every((s) => s.titleBonus === 0));
  });

  it('stops at the token budget, never cutting a document of at most 800 tokens in half', async () => {
    const pages = 'ABCDEF'
      .split('')
      .map((l) => page(`.context/big/${l}.md`, `Chargeback guide ${l}`, `chargeback guide ${l}`, 42));
    const lib = await open(pages, { '.context/big/folder.yaml': 'description: Guides.\nprofile: catalog\n' });
    for (const doc of lib.view.docs) {
      const tokens = documentTokens(doc);
      assert.ok(tokens > 700 && tokens <= 800, `${doc.title}: ${tokens} tokens`);
    }
    const { pack } = await searchLibrary(lib.view, 'chargeback guide');
    assert.deepEqual(titles(pack.documents), [
      'Chargeback guide A',
      'Chargeback guide B',
      'Chargeback guide C',
      'Chargeback guide D',
      'Chargeback guide E',
    ]);
    assert.ok(pack.documents.every((d) => d.whole));
    assert.deepEqual(
      pack.cut.map((c) => [c.ranked.doc.title, c.reason]),
      [['Chargeback guide F', 'budget']],
    );
    assert.equal(pack.tokens, 3_840);
    assert.ok(pack.tokens <= SEARCH_TOKEN_BUDGET);
  });

  const MANUAL = sectioned('.context/manual/ops.md', 'Operations manual', [
    ['Backups', 'nightly backup', 10],
    ['Dunning schedule', 'dunning schedule', 10],
    ['Restores', 'restore drill', 10],
    ['Dunning emails', 'dunning email', 10],
    ['Deploys', 'deploy train', 10],
    ['Dunning limits', 'dunning limit', 10],
    ['Rollbacks', 'rollback plan', 10],
  ]);

  it('a document over 800 tokens gives its best two matched sections, in document order', async () => {
    const small = ['Dunning notice wording', 'Dunning questions', 'Dunning retries'].map((t, i) =>
      page(`.context/faq/d${i}.md`, t, t.toLowerCase(), 3),
    );
    const lib = await open([MANUAL, ...small], {
      '.context/faq/folder.yaml': 'description: Questions.\nprofile: catalog\n',
    });
    const manual = lib.view.docs.find((d) => d.title === 'Operations manual')!;
    assert.ok(documentTokens(manual) > 800);
    const { pack, ranking } = await searchLibrary(lib.view, 'dunning schedule and dunning emails');
    assert.equal(ranking.documents[0].doc.title, 'Operations manual');
    const ops = pack.documents.find((d) => d.ranked.doc === manual)!;
    assert.equal(ops.whole, false);
    assert.deepEqual(
      ops.sections.map((s) => s.ranked.entry.section.headingPath.at(-1)),
      ['Dunning schedule', 'Dunning emails'],
    );
    assert.equal(pack.documents.length, 4);
    // Four documents matched, so the budget left over is not spent on the manual's third match.
    assert.ok(
      ranking.sections.some((s) => s.entry.doc === manual && s.entry.section.headingPath.at(-1) === 'Dunning limits'),
    );
  });

  it('when few documents matched, the budget left goes to more matched sections of the larger ones', async () => {
    const lib = await open([MANUAL]);
    const { pack } = await searchLibrary(lib.view, 'dunning schedule, dunning emails and dunning limits');
    assert.equal(pack.documents.length, 1);
    assert.deepEqual(
      pack.documents[0].sections.map((s) => s.ranked.entry.section.headingPath.at(-1)),
      ['Dunning schedule', 'Dunning emails', 'Dunning limits'],
    );
    assert.equal(pack.documents[0].whole, false);
  });

  const RULES = [
    sectioned('.context/rules/money.md', 'Money in minor units', [
      ['Amounts', 'money amount stored in minor units', 3],
    ]),
    page('.context/rules/logging.md', 'Logging rules', 'structured logging with one money field', 2),
  ];

  it('focused leaves out documents whose match is weak next to the best one; catalog keeps every match', async () => {
    const lib = await open(RULES, { '.context/rules/folder.yaml': 'description: Rules.\nprofile: focused\n' });
    const plan = 'store money amounts in minor units';
    const focused = await searchLibrary(lib.view, plan);
    const [best, weak] = focused.ranking.documents;
    assert.equal(best.doc.title, 'Money in minor units');
    assert.equal(weak.doc.title, 'Logging rules');
    assert.ok(weak.strength < FOCUSED_MIN_RELATIVE_STRENGTH * best.strength, `${weak.strength} vs ${best.strength}`);
    assert.deepEqual(titles(focused.pack.documents), ['Money in minor units']);
    assert.deepEqual(
      focused.pack.cut.map((c) => [c.ranked.doc.title, c.reason, c.profile]),
      [['Logging rules', 'weak', 'focused']],
    );
    const catalog = await searchLibrary(lib.view, plan, { profile: 'catalog' });
    assert.deepEqual(titles(catalog.pack.documents), ['Money in minor units', 'Logging rules']);
    assert.deepEqual(catalog.pack.cut, []);
  });

  it('the namespace page sets the profile: a catalog namespace keeps weak matches without a per-call profile', async () => {
    const lib = await open(RULES, { '.context/rules/folder.yaml': 'description: Rules.\nprofile: catalog\n' });
    const { pack } = await searchLibrary(lib.view, 'store money amounts in minor units');
    assert.deepEqual(
      pack.documents.map((d) => [d.ranked.doc.title, d.profile]),
      [
        ['Money in minor units', 'catalog'],
        ['Logging rules', 'catalog'],
      ],
    );
    const overridden = await searchLibrary(lib.view, 'store money amounts in minor units', { profile: 'focused' });
    assert.deepEqual(titles(overridden.pack.documents), ['Money in minor units']);
  });

  it('fuses the signals with reciprocal rank fusion: exact identifiers are a signal of their own', async () => {
    const lib = await open([
      page('.context/ref/config.md', 'Worker configuration', 'worker setting', 2),
      {
        path: '.context/ref/retry.md',
        front: { title: 'Retry settings' },
        body: '# Retry settings\n\nHow retries are tuned.\n\n## Limits\n\nSet `BILLING_RETRY_MAX` to at most 5. The worker reads it at start.\n',
      },
    ]);
    const { ranking } = await searchLibrary(lib.view, 'raise BILLING_RETRY_MAX for the worker');
    assert.deepEqual(ranking.exactTerms, ['billing_retry_max']);
    assert.deepEqual(ranking.signals, { summary: true, meaning: false, exact: true });
    const top = ranking.sections[0];
    assert.deepEqual(top.entry.section.headingPath, ['Retry settings', 'Limits']);
    assert.deepEqual(top.signals.exact, { rank: 1, score: 1 });
    assert.equal(top.signals.meaning, undefined);
    const expected = 1 / (RRF_K + top.signals.summary!.rank) + 1 / (RRF_K + 1);
    assert.equal(top.fused, expected);
    // Sections the exact word does not reach rank on the summary signal alone.
    const config = ranking.sections.find((s) => s.entry.doc.title === 'Worker configuration')!;
    assert.equal(config.signals.exact, undefined);
    assert.equal(config.fused, 1 / (RRF_K + config.signals.summary!.rank));
    // Same call, same index: the same answer.
    assert.deepEqual(
      await searchLibrary(lib.view, 'raise BILLING_RETRY_MAX for the worker'),
      await searchLibrary(lib.view, 'raise BILLING_RETRY_MAX for the worker'),
    );
  });

  it('the meaning signal joins the fusion when a scorer is installed, and is absent when it answers null', async () => {
    const lib = await open(RULES);
    const money = lib.view.sections.find((s) => s.doc.title === 'Logging rules')!;
    const withMeaning = await searchLibrary(lib.view, 'store money amounts in minor units', {
      profile: 'catalog',
      meaning: async (_plan, candidates) =>
        new Map(candidates.filter((c) => c === money).map((c) => [c.section.id, 0.9])),
    });
    assert.equal(withMeaning.ranking.signals.meaning, true);
    const ranked = withMeaning.ranking.sections.find((s) => s.entry === money)!;
    assert.deepEqual(ranked.signals.meaning, { rank: 1, score: 0.9 });
    const off = await searchLibrary(lib.view, 'store money amounts in minor units', { meaning: async () => null });
    assert.equal(off.ranking.signals.meaning, false);
  });

  it('drafts and expired pages are never returned', async () => {
    const lib = await open([
      page('.context/guides/live.md', 'Chargeback evidence', 'chargeback evidence', 2),
      page('.context/guides/draft.md', 'Chargeback evidence draft', 'chargeback evidence', 2, { status: 'draft' }),
      page('.context/guides/old.md', 'Chargeback evidence 2024', 'chargeback evidence', 2, { expires: '2025-01-31' }),
      page('.context/guides/later.md', 'Chargeback evidence 2027', 'chargeback evidence', 2, { expires: '2027-01-31' }),
    ]);
    assert.deepEqual(
      lib.view.docs.map((d) => d.title),
      ['Chargeback evidence', 'Chargeback evidence 2027'],
    );
    const { ranking, pack } = await searchLibrary(lib.view, 'chargeback evidence');
    assert.deepEqual(ranking.documents.map((d) => d.doc.title).sort(), [
      'Chargeback evidence',
      'Chargeback evidence 2027',
    ]);
    assert.equal(pack.cut.length + pack.documents.length, 2);
    // The day after its expiry date a page is gone; on the date itself it is still served.
    assert.deepEqual(
      libraryView(lib.state, '2027-01-31').docs.map((d) => d.title),
      ['Chargeback evidence', 'Chargeback evidence 2027'],
    );
    assert.deepEqual(
      libraryView(lib.state, '2027-02-01').docs.map((d) => d.title),
      ['Chargeback evidence'],
    );
    assert.equal(TODAY, '2026-06-01');
    assert.ok(!lib.view.sectionById.has(sectionId('.context/guides/draft.md', ['Chargeback evidence draft'])));
    assert.ok(!lib.view.docById.has(documentId('.context/guides/old.md')));
  });

  it('pins always_include pages and Cursor rules with alwaysApply, never a draft or an expired page', async () => {
    const lib = await open([
      page('.context/guides/ids.md', 'Finding an account id', 'account id lookup', 1, { always_include: true }),
      page('.context/guides/draft.md', 'Escalation codes', 'escalation code', 1, {
        always_include: true,
        status: 'draft',
      }),
      page('.context/guides/old.md', 'Old escalation codes', 'escalation code', 1, {
        always_include: true,
        expires: '2026-01-01',
      }),
      {
        path: '.cursor/rules/always.mdc',
        body: '---\ndescription: Always on\nalwaysApply: true\n---\n\n- Say which page a number came from.\n',
      },
      {
        path: '.cursor/rules/scoped.mdc',
        body: '---\ndescription: Scoped\nglobs: src/**/*.ts\nalwaysApply: false\n---\n\n- Typed props.\n',
      },
    ]);
    const pinned = pinnedDocuments(lib.view);
    assert.deepEqual(
      pinned.map((p) => [p.title, p.id]),
      [
        ['Always', id8('.cursor/rules/always.mdc')],
        ['Finding an account id', id8('.context/guides/ids.md')],
      ],
    );
    assert.equal(pinned[0].text, '- Say which page a number came from.');
    assert.equal(pinned[0].tokens, 9); // 36 characters
  });

  describe('the title rule: "Gold Rewards Card" vs "Business Gold Rewards Card"', () => {
    const CARDS = ['Bronze', 'Silver', 'Gold', 'Platinum', 'Business Gold', 'Business Platinum'];
    const cardPage = (name: string): PageSpec =>
      sectioned(`.context/cards/${name.toLowerCase().replace(/ /g, '-')}.md`, `${name} Rewards Card: how to apply`, [
        ['Eligibility and pre-application checklist', `${name.toLowerCase()} rewards card eligibility`, 3],
        ['Fees', `${name.toLowerCase()} rewards card fee`, 3],
        ['Rewards', `${name.toLowerCase()} rewards card points`, 3],
      ]);
    let lib: IndexedLibrary;
    before(async () => {
      lib = await open(CARDS.map(cardPage), {
        '.context/cards/folder.yaml': 'description: One page per card product.\nprofile: catalog\n',
      });
    });

    it('naming the Gold Rewards Card ranks it above the Business Gold Rewards Card, and both above the rest', async () => {
      const { ranking, pack } = await searchLibrary(
        lib.view,
        'checking eligibility before applying for the Gold Rewards Card',
      );
      assert.deepEqual(
        ranking.documents.slice(0, 2).map((d) => d.doc.title),
        ['Gold Rewards Card: how to apply', 'Business Gold Rewards Card: how to apply'],
      );
      const [gold, business] = ranking.documents;
      assert.equal(gold.title!.strength, 1);
      const w = (df: number) => Math.log(7 / df);
      // Weighted by inverse title frequency over the 6 titles: "business" and "gold" are in 2 titles,
      // "reward", "card" and "appli" (apply) in all 6. Summed in title order, as the code does.
      assert.equal(business.title!.strength, (w(2) + w(6) + w(6) + w(6)) / (w(2) + w(2) + w(6) + w(6) + w(6)));
      assert.ok(Math.abs(business.title!.strength - 0.578) < 0.001);
      assert.deepEqual(gold.title!.matched, ['gold', 'reward', 'card', 'appli']);
      assert.equal(gold.title!.shared, 1);
      assert.equal(gold.sections[0].titleBonus, TITLE_BONUS_MAX);
      assert.ok(ranking.documents.slice(2).every((d) => d.title === undefined));
      assert.deepEqual(gold.sections[0].entry.section.headingPath, [
        'Gold Rewards Card: how to apply',
        'Eligibility and pre-application checklist',
      ]);
      assert.equal(pack.documents[0].ranked.doc.id, documentId('.context/cards/gold.md'));
      assert.equal(id8('.context/cards/gold.md'), pack.documents[0].ranked.doc.id.slice(0, 8));
    });

    it('a word that is in most titles earns nothing by itself', async () => {
      for (const plan of ['rewards card fees', 'card application', 'how to apply for a card']) {
        const { ranking } = await searchLibrary(lib.view, plan);
        assert.ok(
          ranking.sections.every((s) => s.titleBonus === 0),
          plan,
        );
      }
      // One specific word is not a phrase either: "gold" alone names no title.
      const gold = await searchLibrary(lib.view, 'gold');
      assert.ok(gold.ranking.sections.every((s) => s.titleBonus === 0));
      // Two of its words that few titles share do: "business platinum" names one card.
      const bp = await searchLibrary(lib.view, 'business platinum perks');
      assert.equal(bp.ranking.documents[0].doc.title, 'Business Platinum Rewards Card: how to apply');
      assert.ok(bp.ranking.documents[0].title!.strength > 0);
    });
  });
});
