/**
 * FAQ entries titled by their question (ranking/entryTitles.ts): asked as a question, a section
 * whose own heading is a question earns the title bonus for the words its question holds, where
 * its page's title ("FAQ") holds none. Real pages of rclone's and Scrapy's
 * docs (bench/corpora/rclone and bench/corpora/scrapy, MIT and BSD, see their SOURCE.txt), asked
 * two of the dev suite's faq questions (r061, s059).
 */
import assert from 'node:assert/strict';
import { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import { TITLE_WEIGHT } from '../../../../server/src/engine/ranking/contract';
import type { RankedPassage } from '../../../../server/src/engine/ranking/workspaceContextRanker';
import { removeTempDirs } from '../../../helpers/tempWorkspace';
import { corpusDocsRepository, heading, rank } from './rankingFixture';

const signal = (p: RankedPassage, name: string) => p.why.find((w) => w.signal === name)!;

async function indexed(dir: string): Promise<{ engine: Engine; state: IndexState }> {
  const engine = new Engine({ folders: [{ name: 'docs', absPath: dir }] });
  return { engine, state: await engine.waitForIndex() };
}

describe('FAQ entries are titled by their question', function () {
  this.timeout(120_000);
  const engines: Engine[] = [];
  after(() => {
    for (const e of engines) e.dispose();
    removeTempDirs();
  });

  describe("rclone: the FAQ against four copies of the serve commands' Auth Proxy", () => {
    let state: IndexState;
    const FAQ = 'docs/faq.md › Can I use rclone with an HTTP proxy?';
    before(async () => {
      // Four `rclone serve` pages repeat one generated "Auth Proxy" section; every command page's
      // title holds "rclone", the FAQ page's ("FAQ") no question word.
      const dir = corpusDocsRepository('rclone', [
        'faq.md',
        'docs.md',
        'commands/rclone_serve_ftp.md',
        'commands/rclone_serve_http.md',
        'commands/rclone_serve_sftp.md',
        'commands/rclone_serve_webdav.md',
      ]);
      const indexedDocs = await indexed(dir);
      engines.push(indexedDocs.engine);
      state = indexedDocs.state;
    });

    it('asked as a question, the entry whose question holds its words comes first, its title bonus from that question', () => {
      const passages = rank(state, 'We are behind a corporate proxy. How do I make rclone go through it?');
      assert.equal(heading(passages[0]), FAQ, passages.slice(0, 5).map(heading).join(' | '));
      const title = signal(passages[0], 'title');
      assert.deepEqual(
        title.terms!.map((t) => t.term),
        ['proxy', 'rclone'],
      );
      assert.match(
        title.detail,
        /^the FAQ entry's question "Can I use rclone with an HTTP proxy\?" holds proxy \d\.\d\d, rclone \d\.\d\d: asked as a question, an FAQ entry is titled by its question \(the page's title "FAQ" holds less\)$/,
      );
      assert.ok(Math.abs(title.contribution - TITLE_WEIGHT * title.raw) < 1e-12);
      // The copies keep their pages' titles, which hold "rclone" alone.
      const copy = passages.find((p) => heading(p).endsWith('› Auth Proxy'))!;
      assert.ok(copy, passages.map(heading).join(' | '));
      assert.match(signal(copy, 'title').detail, /^title "rclone serve (ftp|http|sftp|webdav)" holds rclone /);
      assert.ok(title.raw > signal(copy, 'title').raw, `${title.raw} > ${signal(copy, 'title').raw}`);
      // why[] adds up with the entry's title.
      const sum = passages[0].why.reduce((s, w) => s + w.contribution, 0);
      assert.ok(Math.abs(sum - passages[0].score) < 1e-12);
    });

    it('asked in words that are not a question, an entry has its page title, which holds none of them', () => {
      const passages = rank(state, 'rclone behind a corporate proxy');
      const faq = passages.find((p) => heading(p) === FAQ);
      assert.ok(faq, passages.map(heading).join(' | '));
      assert.equal(signal(faq!, 'title').raw, 0);
      assert.equal(signal(faq!, 'title').detail, 'no question term in the title "FAQ"');
    });

    it('the pruned answer at a small limit is the head of the answer at a large one', () => {
      const question = 'We are behind a corporate proxy. How do I make rclone go through it?';
      const wide = rank(state, question, 40).map(heading);
      for (const limit of [1, 2, 3, 5])
        assert.deepEqual(rank(state, question, limit).map(heading), wide.slice(0, limit));
    });
  });

  describe("Scrapy: the FAQ entry among the settings and spiders' pages", () => {
    it('asked as a question, the entry that asks it in other words comes first', async () => {
      const dir = corpusDocsRepository('scrapy', [
        'faq.rst',
        'topics/settings.rst',
        'topics/spiders.rst',
        'intro/tutorial.rst',
      ]);
      const { engine, state } = await indexed(dir);
      engines.push(engine);
      const passages = rank(state, 'Should the start URL be a setting or a spider argument?');
      assert.equal(
        heading(passages[0]),
        'docs/faq.rst › Should I use spider arguments or settings to configure my spider?',
        passages.slice(0, 5).map(heading).join(' | '),
      );
      assert.match(signal(passages[0], 'title').detail, /^the FAQ entry's question /);
    });
  });
});
