import assert from 'node:assert/strict';
import { documentId } from '../../../server/src/engine/chunking/ids';
import { Engine } from '../../../server/src/engine/engine';
import { PrivateNotes } from '../../../server/src/library/context/privateNotes';
import { pageCommand } from '../../../server/src/cli/commands/pageCommand';
import { createServices, type Services } from '../../../server/src/services/services';
import { callTool } from '../../../server/src/tools/callTool';
import type { ReadPageOutput } from '../../../server/src/tools/readPage';
import { findTool } from '../../../server/src/tools/registry';
import { ToolInputError } from '../../../server/src/tools/toolError';
import { removeTempDirs, tempDir, write } from '../../helpers/tempWorkspace';
import { TAXWELL } from '../library/context/herald';

const id8 = (path: string) => documentId(path).slice(0, 8);

describe('read_page (tool)', function () {
  this.timeout(60_000);
  let engine: Engine;
  let services: Services;
  const tool = findTool('read_page')!;
  const call = async (page_id: string, sessionId = 'cli', on = services) =>
    (await callTool(on, tool, { page_id }, { sessionId })) as ReadPageOutput;

  before(async () => {
    engine = new Engine({ folders: [{ name: 'taxwell', absPath: TAXWELL }], settings: { refreshAfterMs: 0 } });
    await engine.waitForIndex();
    services = createServices({ engine, now: () => new Date('2026-06-01T12:00:00Z') });
  });
  after(() => {
    engine.dispose();
    removeTempDirs();
  });

  it('returns the whole page without front matter, with its type, usage and attached file', async () => {
    const id = id8('.context/reference/price-list.md');
    const out = await call(id.slice(0, 5));
    assert.deepEqual(
      { ...out.page, text: undefined },
      {
        id,
        title: 'Price list',
        type: 'table',
        path: '.context/reference/price-list.md',
        namespace: 'reference',
        summary: "Taxwell's plans and their yearly prices.",
        tags: ['pricing'],
        usage: 'Quote plan prices from this table only.',
        file: '.context/reference/price-list.csv',
        private: false,
        text: undefined,
        tokens: Math.ceil(out.page!.text.length / 4),
      },
    );
    assert.equal(
      out.page!.text,
      '# Price list\n\n## Plans\n\n| Plan | Yearly price | Filings included |\n| --- | --- | --- |\n| Starter | 1,200 USD | 12 |\n| Growth | 4,800 USD | 60 |\n| Scale | 12,000 USD | 240 |',
    );
    assert.equal(
      tool.renderText(out),
      `page_id: ${id} · table · .context/reference/price-list.md\nUsage: Quote plan prices from this table only.\nAttached file: price-list.csv (get_file with page_id ${id} returns it)\n\n${out.page!.text}`,
    );
  });

  it('refuses drafts, expired pages, short and unknown ids, naming page_id', async () => {
    await assert.rejects(
      call(id8('.context/guides/pricing-faq-draft.md')),
      (e: Error) =>
        e instanceof ToolInputError &&
        e.message ===
          `page_id: "${id8('.context/guides/pricing-faq-draft.md')}" belongs to "Pricing FAQ", which is a draft; drafts and expired pages are not served.`,
    );
    await assert.rejects(
      call(id8('.context/guides/spring-promo.md')),
      (e: Error) =>
        e instanceof ToolInputError &&
        /belongs to "Spring promotion", which is expired \(expires: 2025-05-31\)/.test(e.message),
    );
    await assert.rejects(
      call('abc'),
      (e: Error) => e instanceof ToolInputError && e.message.startsWith('page_id: "abc" is too short'),
    );
    await assert.rejects(
      call('zzzz'),
      (e: Error) => e instanceof ToolInputError && e.message.startsWith('page_id: "zzzz" is not an id'),
    );
  });

  it("reads the user's own private notes on their own connections only", async () => {
    const dir = tempDir('notes');
    write(dir, 'mine.md', '# My note\n\nOnly for me.\n');
    const notes = new PrivateNotes({ dir, isOwnConnection: (s) => s === 'me' });
    const withNotes: Services = { ...services, privateNotes: notes };
    const note = notes.docs('2026-06-01')[0];
    const mine = await call(note.id.slice(0, 8), 'me', withNotes);
    assert.deepEqual([mine.page!.title, mine.page!.private, mine.page!.path], ['My note', true, '~notes/mine.md']);
    assert.match(
      tool.renderText(mine),
      /^page_id: [0-9a-f]{8} · page \(your own private note\) · ~notes\/mine\.md\n\n# My note/,
    );
    await assert.rejects(
      call(note.id.slice(0, 8), 'someone-else', withNotes),
      (e: Error) => e instanceof ToolInputError && /no ready library document has the id/.test(e.message),
    );
  });

  it('wsctx page prints the page', async () => {
    const text = await pageCommand(services, id8('.context/voice/voice-and-tone.md'), { json: false });
    assert.equal(
      text,
      `doc ${id8('.context/voice/voice-and-tone.md')} · voice · .context/voice/voice-and-tone.md\n\n# Voice and tone\n\nPlain words. Numbers over adjectives. No exclamation marks.\n\n## Greetings\n\n"Hi Dana," never "Dear Sir or Madam".`,
    );
    assert.equal(
      JSON.parse(await pageCommand(services, id8('.context/voice/voice-and-tone.md'), { json: true })).page.title,
      'Voice and tone',
    );
  });
});
