import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { toOutput } from '../../../../server/src/tools/getContext';
import { COLD_EMAIL, GOLDEN, indexDir, run, TAXWELL, type Indexed } from './herald';

/** Compares with a golden file; `UPDATE_GOLDEN=1` rewrites it (review the diff before committing). */
function golden(name: string, actual: string): void {
  const file = path.join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === '1') fs.writeFileSync(file, actual);
  assert.equal(actual, fs.readFileSync(file, 'utf8'));
}

describe('get_context step 8: rendering (golden Markdown) and JSON reasons', function () {
  this.timeout(60_000);
  let lib: Indexed;
  before(async () => {
    lib = await indexDir(TAXWELL);
  });
  after(() => lib.engine.dispose());

  it("renders the contract's order (docs/ARCHITECTURE.md): team instructions, the comment, rules, then reference pages whole and excerpts by page", async () => {
    const built = await run(lib.view, COLD_EMAIL);
    golden('cold-email-avalara.md', `${built.markdown}\n`);
    const headings = built.markdown.split('\n').filter((l) => /^#{1,2} |^<!--/.test(l));
    assert.deepEqual(headings, [
      '# Instructions from the Taxwell team',
      '## Always',
      '<!-- packs applied: Outbound email; tags found in the task: avalara -->',
      '# Rules (always follow)',
      '## Cite the price list',
      '## No discount promises',
      '# Reference',
      '## Taxwell glossary',
      '## Voice and tone',
      '## Avalara battlecard',
      '## CFO persona',
      '## Discovery call',
      '## Outreach checklist',
    ]);
  });

  it('labels a page with its usage notes and its attached file', async () => {
    const built = await run(lib.view, 'what does the Growth plan cost per year');
    golden('growth-plan.md', `${built.markdown}\n`);
    const id = built.idOf(lib.view.docs.find((d) => d.title === 'Price list')!.id);
    assert.ok(
      built.markdown.includes(
        `## Price list\ntable · excerpts (read_page for the whole page) · page_id: ${id}\nUsage: Quote plan prices from this table only.\nAttached file: price-list.csv (get_file with page_id ${id} returns it)\n\n### Plans\n`,
      ),
    );
  });

  it('gives every page its reason and each searched section its similarity in JSON', async () => {
    const built = await run(lib.view, COLD_EMAIL);
    const out = toOutput(built, 'json', '2026-06-01T00:00:00.000Z');
    assert.equal(out.markdown, undefined);
    assert.deepEqual(
      out.pages.map((p) => [
        p.title,
        p.reason,
        p.whole,
        p.sections.map((s) => [s.heading, s.reachedBy, s.similarity ?? null, s.via ?? null]),
      ]),
      [
        ['Cite the price list', 'rule', true, []],
        ['No discount promises', 'rule', true, []],
        ['Taxwell glossary', 'pinned', true, []],
        ['Voice and tone', 'recipe', true, []],
        // One-word facets ("CFO", "Avalara") rank but never set a similarity; the task scores in full, a facet at 0.85.
        [
          'Avalara battlecard',
          'search',
          false,
          [
            ['Why customers switch', 'search', 0.434, null],
            ['Cold email angle', 'search', 0.85, null],
          ],
        ],
        // Both hold a name the task says (CFO): they come on the name.
        ['CFO persona', 'search', false, [['What they care about', 'search', 0.274, null]]],
        ['Discovery call', 'link', false, [['Questions to ask', 'link', 0.095, out.pages[5].id]]],
        [
          'Outreach checklist',
          'use',
          false,
          [
            ['Subject line', 'use', null, null],
            ['The ask', 'use', null, null],
          ],
        ],
      ],
    );
    assert.deepEqual(out.plan, {
      names: [
        { text: 'CFO', kind: 'persona', source: 'library' },
        { text: 'Avalara', kind: 'competitor', source: 'library' },
      ],
      deliverable: 'cold email',
      searches: ['cold email', 'CFO', 'Avalara'],
      constraints: [],
      madeBy: 'heuristic',
    });
    assert.equal(out.tokens, built.bundle.tokens);
    assert.equal(out.pages.reduce((n, p) => n + p.tokens, 0) <= out.tokens, true);
    const markdownOut = toOutput(built, 'markdown', null);
    assert.equal(markdownOut.markdown, built.markdown);
  });
});
