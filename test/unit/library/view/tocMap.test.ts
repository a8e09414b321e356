import assert from 'node:assert/strict';
import { documentId, sectionId } from '../../../../server/src/engine/chunking/ids';
import { TOC_TOKEN_BUDGET } from '../../../../server/src/library/view/constants';
import { rankLibrary } from '../../../../server/src/library/view/ranking';
import { buildTocDocument, buildTocMap, buildTocQuery } from '../../../../server/src/library/view/tocMap';
import { renderToc } from '../../../../server/src/library/view/tocRender';
import { estimateTokens } from '../../../../server/src/engine/text/tokenEstimate';
import { removeTempDirs } from '../../../helpers/tempWorkspace';
import { generatedPage, indexLibrary, writeLibrary, type IndexedLibrary } from './libraryFixtures';

const id8 = (path: string) => documentId(path).slice(0, 8);
const sid8 = (path: string, headings: string[]) => sectionId(path, headings).slice(0, 8);

/** `n` generated pages in one namespace, with titles from `title(i)`, paths p000.md... */
function cards(n: number, sections: number, sentencesPerSection: number, title: (i: number) => string) {
  return Array.from({ length: n }, (_, i) =>
    generatedPage(`.context/cards/p${String(i).padStart(3, '0')}.md`, title(i), sections, sentencesPerSection),
  );
}

const CARDS_FOLDER = {
  '.context/cards/folder.yaml': 'description: Card products, one page per product and topic.\nprofile: catalog\n',
};

describe('get_toc maps (library/view/tocMap)', function () {
  this.timeout(120_000);
  const libs: IndexedLibrary[] = [];
  const open = async (dir: string) => {
    const lib = await indexLibrary(dir);
    libs.push(lib);
    return lib;
  };
  after(() => {
    for (const lib of libs) lib.engine.dispose();
    removeTempDirs();
  });

  it('level 1 (3 documents): the full map, namespace descriptions first, sections inline up to 8, a count beyond', async () => {
    const errorSections = Array.from(
      { length: 9 },
      (_, i) => `## E${100 + i}\n\nCode E${100 + i} means the request was refused for reason ${i}.`,
    ).join('\n\n');
    const lib = await open(
      writeLibrary(
        [
          {
            path: '.context/rules/refund-policy.md',
            front: {
              title: 'Refund policy',
              summary: 'Rules for refunding customers by plan and region; read before issuing any refund.',
            },
            body: '# Refund policy\n\n## Enterprise refunds\n\nRefunds on annual enterprise contracts need finance approval. Ask in the finance channel.\n\n## EU withdrawal right\n\nEU consumers may cancel within 14 days.\n',
          },
          {
            path: '.context/rules/error-codes.md',
            body: `# Error codes\n\nLook up an API error code by number. Then explain it.\n\n${errorSections}\n`,
          },
          { path: 'AGENTS.md', body: '# AGENTS.md\n\nBuild with make. Test with make test.\n' },
        ],
        {
          '.context/folder.yaml': 'description: The team library.\n',
          '.context/rules/folder.yaml': 'description: House rules for every change.\nprofile: focused\n',
        },
      ),
    );
    const map = buildTocMap(lib.view);
    const rp = '.context/rules/refund-policy.md';
    const ec = '.context/rules/error-codes.md';
    const expected = [
      '# Library map: 3 documents in 2 namespaces',
      'The team library.',
      '',
      '# Namespace "." (top level): 1 document',
      '',
      `## AGENTS.md  [doc ${id8('AGENTS.md')}]`,
      'Build with make.',
      `- [${sid8('AGENTS.md', ['AGENTS.md'])}] AGENTS.md`,
      '',
      '# Namespace "rules": 2 documents',
      'House rules for every change.',
      '',
      `## Error codes  [doc ${id8(ec)}] — 10 sections; get_toc(document_id="${id8(ec)}") lists them`,
      'Look up an API error code by number.',
      '',
      `## Refund policy  [doc ${id8(rp)}]`,
      'Rules for refunding customers by plan and region; read before issuing any refund.',
      `- [${sid8(rp, ['Refund policy'])}] Refund policy`,
      `  - [${sid8(rp, ['Refund policy', 'Enterprise refunds'])}] Enterprise refunds — Refunds on annual enterprise contracts need finance approval.`,
      `  - [${sid8(rp, ['Refund policy', 'EU withdrawal right'])}] EU withdrawal right — EU consumers may cancel within 14 days.`,
    ].join('\n');
    assert.equal(renderToc(map), expected);
    assert.equal(map.condensed, false);
    assert.deepEqual(
      map.namespaces.map((n) => [n.label, n.level, n.profile]),
      [
        ['.', 1, 'focused'],
        ['rules', 1, 'focused'],
      ],
    );
    assert.equal(map.tokens, Math.ceil(expected.length / 4));
    assert.equal(map.tokens, 170);
  });

  it('level 2 (60 documents): one line per document when the full map is over 8,000 tokens', async () => {
    const lib = await open(
      writeLibrary(
        cards(60, 6, 3, (i) => `Runbook ${i}`),
        CARDS_FOLDER,
      ),
    );
    const map = buildTocMap(lib.view);
    assert.deepEqual(
      map.namespaces.map((n) => n.level),
      [2],
    );
    assert.equal(map.condensed, true);
    const text = renderToc(map);
    assert.equal(map.tokens, estimateTokens(text));
    assert.equal(map.tokens, 1_451);
    const lines = text.split('\n');
    assert.deepEqual(lines.slice(0, 6), [
      '# Library map: 60 documents in 1 namespace',
      '',
      'Condensed to stay within about 8,000 tokens: "cards" one line per document. get_toc(query="<your task>") lists the documents that match it, best first.',
      '',
      '# Namespace "cards": 60 documents (one line per document)',
      'Card products, one page per product and topic.',
    ]);
    // Titles in natural order, each with its id and summary.
    assert.equal(
      lines[7],
      `- [doc ${id8('.context/cards/p000.md')}] Runbook 0 — The runbook 0 step 1 checks what the reviewer needs to know.`,
    );
    assert.equal(
      lines[8],
      `- [doc ${id8('.context/cards/p001.md')}] Runbook 1 — The runbook 1 step 1 checks what the reviewer needs to know.`,
    );
    assert.equal(
      lines[9],
      `- [doc ${id8('.context/cards/p002.md')}] Runbook 2 — The runbook 2 step 1 checks what the reviewer needs to know.`,
    );
    assert.equal(
      lines[66],
      `- [doc ${id8('.context/cards/p059.md')}] Runbook 59 — The runbook 59 step 1 checks what the reviewer needs to know.`,
    );
    assert.equal(lines.length, 7 + 60);
    // The full map of the same library is over budget: level 2 is the most detailed that fits.
    const full = buildTocMap(lib.view, { budget: 1_000_000 });
    assert.equal(full.namespaces[0].level, 1);
    assert.equal(full.tokens, 8_966);
    assert.ok(full.tokens > TOC_TOKEN_BUDGET);
  });

  it('level 3 (700 documents): titles only, with ids', async () => {
    const lib = await open(
      writeLibrary(
        cards(700, 3, 2, (i) => `Card ${i} fees`),
        CARDS_FOLDER,
      ),
    );
    const map = buildTocMap(lib.view);
    assert.deepEqual(
      map.namespaces.map((n) => n.level),
      [3],
    );
    const text = renderToc(map);
    // Independent size check: header lines, then one `- [doc xxxxxxxx] Title` line per document.
    const header = [
      '# Library map: 700 documents in 1 namespace',
      '',
      'Condensed to stay within about 8,000 tokens: "cards" titles only. get_toc(query="<your task>") lists the documents that match it, best first.',
      '',
      '# Namespace "cards": 700 documents (titles only)',
      'Card products, one page per product and topic.',
      '',
    ].join('\n');
    const titlesChars =
      Array.from({ length: 700 }, (_, i) => `- [doc 12345678] Card ${i} fees`.length).reduce((a, b) => a + b, 0) + 699;
    assert.equal(text.length, header.length + 1 + titlesChars);
    assert.equal(map.tokens, Math.ceil((header.length + 1 + titlesChars) / 4));
    assert.equal(map.tokens, 5_469);
    assert.ok(text.includes(`\n- [doc ${id8('.context/cards/p042.md')}] Card 42 fees\n`));
    // One line per document does not fit 8,000 tokens here, but fits a larger budget.
    const lines = buildTocMap(lib.view, { budget: 30_000 });
    assert.equal(lines.namespaces[0].level, 2);
    assert.ok(lines.tokens > TOC_TOKEN_BUDGET);
  });

  it('level 4 (700 documents with long titles): an overview with the description and the count', async () => {
    const lib = await open(
      writeLibrary(
        cards(700, 3, 2, (i) => `Rewards card product number ${i}: fees and limits`),
        CARDS_FOLDER,
      ),
    );
    const map = buildTocMap(lib.view);
    assert.equal(
      renderToc(map),
      [
        '# Library map: 700 documents in 1 namespace',
        '',
        'Condensed to stay within about 8,000 tokens: "cards" as an overview. get_toc(query="<your task>") lists the documents that match it, best first.',
        '',
        '# Namespace "cards": 700 documents (as an overview)',
        'Card products, one page per product and topic.',
        'get_toc(namespace="cards") maps it; get_toc(query="<your task>") finds the documents that match your task.',
      ].join('\n'),
    );
    assert.equal(map.tokens, 99);
    assert.deepEqual(map.namespaces[0].documents, []);
  });

  it('condenses the largest namespace first: a small namespace stays in full next to 700 documents', async () => {
    const pages = [
      ...cards(700, 3, 2, (i) => `Card ${i} fees`),
      generatedPage('.context/rules/a.md', 'Amounts in minor units', 2, 1),
      generatedPage('.context/rules/b.md', 'Never log card numbers', 2, 1),
    ];
    const lib = await open(
      writeLibrary(pages, { ...CARDS_FOLDER, '.context/rules/folder.yaml': 'description: House rules.\n' }),
    );
    const map = buildTocMap(lib.view);
    assert.deepEqual(
      map.namespaces.map((n) => [n.label, n.level]),
      [
        ['cards', 3],
        ['rules', 1],
      ],
    );
    assert.ok(map.tokens <= TOC_TOKEN_BUDGET);
    assert.match(renderToc(map), /Condensed to stay within about 8,000 tokens: "cards" titles only\./);
    // A map of one namespace is headed by that namespace's description and holds only it.
    const rules = buildTocMap(lib.view, { namespace: 'rules' });
    assert.equal(rules.documentCount, 2);
    assert.equal(rules.description, 'House rules.');
    assert.match(
      renderToc(rules),
      /^# Library map of namespace "rules": 2 documents\nHouse rules\.\n\n# Namespace "rules": 2 documents\n\n## Amounts in minor units/,
    );

    // Query mode: the best match first, in full; then shorter entries while the budget lasts.
    const ranking = await rankLibrary(lib.view, 'fees of card 42');
    const query = buildTocQuery(lib.view, ranking);
    assert.equal(query.matched, 701, 'every card page and the rule that names card numbers');
    assert.equal(query.documents[0].title, 'Card 42 fees');
    assert.equal(query.documents[0].level, 1);
    assert.equal(query.documents[0].id, id8('.context/cards/p042.md'));
    assert.ok(query.tokens <= TOC_TOKEN_BUDGET);
    assert.equal(query.tokens, estimateTokens(renderToc(query)));
    assert.equal(query.condensed, true);
    // The best 10 in full, then one line each up to 50, the rest counted.
    assert.deepEqual(
      query.documents.map((d) => d.level),
      [...Array(10).fill(1), ...Array(40).fill(2)],
    );
    assert.equal(query.omitted, 651);
    assert.equal(query.tokens, 1_805);
    const text = renderToc(query);
    assert.match(
      text,
      /^# Library map for "fees of card 42": 701 matching documents, best first\n\nCondensed \(at most about 8,000 tokens\): the first 10 documents in full, 40 as one line; 651 more matched and are not shown \(add words to the query to narrow it\)\.\n\n## Card 42 fees  \[doc /,
    );
  });

  it('query mode lists nothing but says so when no document matches; document mode lists one document', async () => {
    const errorSections = Array.from(
      { length: 11 },
      (_, i) => `## E${100 + i}\n\nCode E${100 + i} means refusal reason ${i}.`,
    ).join('\n\n');
    const lib = await open(
      writeLibrary([
        {
          path: '.context/ref/errors.md',
          front: { title: 'Error codes' },
          body: `# Error codes\n\nLook codes up here.\n\n${errorSections}\n`,
        },
      ]),
    );
    const none = buildTocQuery(lib.view, await rankLibrary(lib.view, 'kubernetes autoscaling'));
    assert.equal(none.matched, 0);
    assert.deepEqual(none.documents, []);
    assert.match(renderToc(none), /no matching documents\nNo ready document matches these words\./);

    const doc = lib.view.docs[0];
    const listing = buildTocDocument(lib.view, doc);
    assert.equal(listing.sections.length, 12);
    assert.equal(listing.omittedSections, 0);
    assert.deepEqual(
      listing.sections.slice(0, 3).map((s) => [s.id, s.heading, s.depth, s.summary]),
      [
        [sid8('.context/ref/errors.md', ['Error codes']), 'Error codes', 0, undefined],
        [sid8('.context/ref/errors.md', ['Error codes', 'E100']), 'E100', 1, 'Code E100 means refusal reason 0.'],
        [sid8('.context/ref/errors.md', ['Error codes', 'E101']), 'E101', 1, 'Code E101 means refusal reason 1.'],
      ],
    );
    // With a query, the matching sections come first, best first.
    const ranked = buildTocDocument(lib.view, doc, {
      ranking: await rankLibrary(lib.view, 'what does E107 mean', { filter: (e) => e.doc === doc }),
    });
    assert.equal(ranked.sections[0].heading, 'E107');
    assert.match(renderToc(ranked), /Sections matching "what does E107 mean" come first/);
    // A tiny budget drops summaries, then counts the sections it cannot list.
    const tight = buildTocDocument(lib.view, doc, { budget: 60 });
    assert.equal(tight.condensed, true);
    assert.ok(tight.sections.every((s) => s.summary === undefined));
    assert.ok(tight.omittedSections > 0 && tight.tokens <= 60);
    assert.equal(tight.sections.length + tight.omittedSections, 12);
  });
});
