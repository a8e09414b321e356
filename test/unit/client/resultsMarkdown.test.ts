/**
 * The results view's text (client/src/views/): a question's passages with their own Markdown kept
 * in shape (code blocks, code spans, lists, tables) and each whole why[] table; "Why not this
 * page?" with the fix first; the view's own links, the only ones, registered by number; and the
 * page around them with its Content Security Policy. Hostile workspace text stays text.
 */
import assert from 'node:assert/strict';
import type { SearchPassage, SearchResult } from '../../../shared/protocol';
import { inline, passageMarkdown } from '../../../client/src/views/passageMarkdown';
import {
  explanationMarkdown,
  LinkTable,
  resultsMarkdown,
  type ExplainView,
} from '../../../client/src/views/resultsMarkdown';
import { contentSecurityPolicy, htmlText, markdownSourceHtml, viewPage } from '../../../client/src/views/viewPage';
import { linkTargets } from '../../helpers/markdownLinks';

/** Link targets outside fenced code blocks (whose content CommonMark never reads as links). */
function links(markdown: string): string[] {
  const outsideFences = markdown.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '');
  return linkTargets(outsideFences);
}

const RUNBOOK = [
  '## Rolling back',
  '',
  'Roll back first, investigate second. A rollback takes about **3 minutes**.',
  '',
  '```bash',
  '# find the last good release',
  'fernctl releases billing-worker --env production --limit 5',
  '```',
  '',
  '- Run `fernctl rollback` from the *ops* box.',
  '- See [the dashboard](https://grafana.example/d/billing) first.',
].join('\n');

const passage: SearchPassage = {
  id: '1a2b3c4d',
  documentId: '9f8e7d6c',
  title: 'Deploy and rollback',
  headingPath: ['Rolling back'],
  label: 'Deploy and rollback › Rolling back',
  sourceKind: 'catalog_doc',
  path: 'payments-platform/docs/deploy.md',
  startLine: 35,
  endLine: 45,
  uri: 'file:///ws/payments-platform/docs/deploy.md#L35-L45',
  score: 1.109,
  leadingWhy: [],
  why: [
    { signal: 'words', weight: 1, raw: 0.811, contribution: 0.811, detail: '2 of 2 terms; matched roll back 0.84' },
    { signal: 'meaning', weight: 0, raw: 0, contribution: 0, detail: 'embeddings are off: words count at full weight' },
    {
      signal: 'title',
      weight: 0.15,
      raw: 0.99,
      contribution: 0.148,
      detail: 'title "Deploy and rollback" holds roll back',
    },
    {
      signal: 'namedEntity',
      weight: 0.15,
      raw: 1,
      contribution: 0.15,
      detail: 'belongs to component:default/billing-worker',
    },
    { signal: 'recency', weight: 0.1, raw: 0, contribution: 0, detail: 'no commit date' },
    { signal: 'runHealth', weight: 0.05, raw: 0, contribution: 0, detail: 'no run-health file' },
  ],
  preview: 'Roll back first, investigate second.',
  text: RUNBOOK,
};

const result: SearchResult = {
  question: 'how do I roll back billing-worker?',
  passages: [passage],
  contractVersion: '2026-12-04.3',
  indexedAt: '2026-12-06T10:00:00.000Z',
  degraded: [],
};

describe('client results view text', () => {
  it("shows each passage's place as a link of the view, its text in shape, and its whole why[] table", () => {
    const table = new LinkTable();
    const lines = resultsMarkdown(result, table).split('\n');
    assert.deepEqual(lines.slice(0, 8), [
      '# how do I roll back billing-worker?',
      '',
      '1 passage · contract 2026-12-04.3 · indexed 2026-12-06T10:00:00.000Z',
      '',
      '## 1. Deploy and rollback › Rolling back',
      '',
      '**score 1.109** · catalog\\_doc · [payments-platform/docs/deploy.md:35-45](wsctx-open:1)',
      '',
    ]);
    assert.deepEqual(table.resolve('wsctx-open:1'), { uri: passage.uri });
    // The heading the view already shows is left out; the code block is a code block.
    assert.deepEqual(lines.slice(8, 16), [
      'Roll back first, investigate second. A rollback takes about **3 minutes**.',
      '',
      '```bash',
      '# find the last good release',
      'fernctl releases billing-worker --env production --limit 5',
      '```',
      '',
      '- Run `fernctl rollback` from the *ops* box.',
    ]);
    assert.equal(
      lines[16],
      // The address is escaped where it would become a link (shared/markdown.ts): shown, not linked.
      '- See the dashboard (https\\:\\//grafana.example/d/billing) first.',
      'a link in the passage keeps its words and shows its target as text',
    );
    const tableStart = lines.indexOf('| signal | weight | raw | contribution | detail |');
    assert.deepEqual(lines.slice(tableStart + 2), [
      '| words | 1.00 | 0.811 | 0.811 | 2 of 2 terms; matched roll back 0.84 |',
      '| meaning | 0.00 | 0.000 | 0.000 | embeddings are off: words count at full weight |',
      '| title | 0.15 | 0.990 | 0.148 | title "Deploy and rollback" holds roll back |',
      '| namedEntity | 0.15 | 1.000 | 0.150 | belongs to component:default/billing-worker |',
      '| recency | 0.10 | 0.000 | 0.000 | no commit date |',
      '| runHealth | 0.05 | 0.000 | 0.000 | no run-health file |',
      '| **score** | | | **1.109** | |',
      '',
    ]);
    assert.deepEqual(links(lines.join('\n')), ['wsctx-open:1']);
  });

  it('says so when nothing matches, with the notice', () => {
    const text = resultsMarkdown({ ...result, passages: [], notice: 'Nothing is indexed yet.' }, new LinkTable());
    assert.match(text, /^# how do I roll back billing-worker\?\n\n0 passages · /);
    assert.match(text, /Nothing is indexed yet\.\n\nNothing in the indexed workspace matches this question\./);
  });

  it("keeps a passage's code blocks whole, fenced past any backticks they hold, and closes an unclosed one", () => {
    assert.equal(passageMarkdown('```\na ``` b\n````x\n```'), ['`````', 'a ``` b', '````x', '`````'].join('\n'));
    assert.equal(passageMarkdown('~~~ js title="x"\nlet a = `b`;'), '```js\nlet a = `b`;\n```');
    assert.equal(passageMarkdown('# Title\n\ntext', { dropHeading: true }), 'text');
    assert.equal(passageMarkdown('### Steps #\n1. one\n   2) two'), '**Steps**\n1. one\n   2) two');
  });

  it("keeps a passage's tables, each cell escaped", () => {
    assert.equal(
      passageMarkdown('| flag | what |\n|:---|---:|\n| `--to` | the release \\| tag |\n| [x](command:y) | <b>z</b> |'),
      [
        '| flag | what |',
        '| --- | --- |',
        '| `--to` | the release \\| tag |',
        '| x (command:y) | \\<b\\>z\\</b\\> |',
      ].join('\n'),
    );
  });

  it('never lets workspace text link, embed or run anything', () => {
    const hostile = [
      '[click](command:workspaceContext.showEntityDocs?%5B%5D)',
      '![img](https://evil.example/x.png)',
      '<command:workspaceContext.expandEntity>',
      '[r]: command:workspaceContext.expandEntity',
      '`` ` ``](command:x)',
      '**[b](command:x)**',
      '<img src=x onerror=alert(1)>',
      '> [q](command:x)',
      '- [l](command:x)',
    ];
    for (const text of hostile) {
      assert.deepEqual(links(passageMarkdown(text)), [], text);
      assert.deepEqual(links(inline(text)), [], text);
      const viewed = resultsMarkdown(
        {
          ...result,
          question: text,
          notice: text,
          degraded: [text],
          passages: [
            {
              ...passage,
              label: text,
              path: text,
              sourceKind: text,
              markers: [text],
              text,
              why: [{ signal: text, weight: 1, raw: 1, contribution: 1, detail: text }],
            },
          ],
        },
        new LinkTable(),
      );
      assert.deepEqual(links(viewed), ['wsctx-open:1'], text);
    }
  });

  it('puts the fix of a "Why not this page?" first, then why, then its best section and what ranked above it', () => {
    const out: ExplainView = {
      question: 'how do I issue a refund?',
      expected: '.context/guides/issuing-refunds.md',
      target: { kind: 'path', label: '.context/guides/issuing-refunds.md' },
      standing: 'ranked-below-limit',
      summary: 'It ranked 12th; the limit was 10.',
      fix: 'Ask with limit 12, or name "refund" in its title.',
      best: {
        title: 'Issuing refunds',
        path: '.context/guides/issuing-refunds.md',
        headingPath: ['Issuing refunds', 'Partial refunds'],
        startLine: 23,
        score: 0.42,
        tokens: 180,
        why: [{ signal: 'words', weight: 1, raw: 0.42, contribution: 0.42, detail: '1 of 2 terms' }],
      },
      above: [
        {
          rank: 1,
          title: 'Refund policy',
          path: '.context/reference/refund-policy.md',
          headingPath: ['Refund policy'],
          startLine: 5,
          score: 0.91,
          termsTheTargetLacks: ['issue'],
          termsHeldMoreStrongly: [],
          bonusesTheTargetLacks: ['title'],
        },
      ],
    };
    const table = new LinkTable();
    const standing =
      '.context/guides/issuing-refunds.md: ranked below the limit, rank 12 for "how do I issue a refund?" (limit 10)';
    const lines = explanationMarkdown(out, standing, table).split('\n');
    assert.deepEqual(lines.slice(0, 7), [
      '# Why not `.context/guides/issuing-refunds.md`?',
      '',
      '**Fix:** Ask with limit 12, or name "refund" in its title.',
      '',
      'It ranked 12th; the limit was 10.',
      '',
      '.context/guides/issuing-refunds.md: ranked below the limit, rank 12 for "how do I issue a refund?" (limit 10)',
    ]);
    assert.ok(lines.includes('## Its best section: Issuing refunds › Partial refunds'));
    assert.ok(lines.includes('| words | 1.00 | 0.420 | 0.420 | 1 of 2 terms |'));
    assert.ok(
      lines.includes(
        '1. Refund policy · score 0.910 · [.context/reference/refund-policy.md:5](wsctx-open:2) · holds issue; title',
      ),
      lines.join('\n'),
    );
    assert.deepEqual(table.resolve('wsctx-open:1'), { path: '.context/guides/issuing-refunds.md', line: 23 });
    assert.deepEqual(table.resolve('wsctx-open:2'), { path: '.context/reference/refund-policy.md', line: 5 });
    // A page that did come: no best section or passages above it to show.
    const returned = explanationMarkdown({ ...out, standing: 'returned' }, standing, new LinkTable());
    assert.doesNotMatch(returned, /Its best section|Above it/);
  });

  it('opens only the links it registered', () => {
    const table = new LinkTable();
    const link = table.add({ path: 'a.md', line: 3 });
    assert.equal(link, 'wsctx-open:1');
    assert.deepEqual(table.resolve(link), { path: 'a.md', line: 3 });
    for (const other of ['wsctx-open:2', 'wsctx-open:0', 'wsctx-open:1x', 'command:x', 'file:///etc/passwd', ''])
      assert.equal(table.resolve(other), undefined, other);
  });

  it('wraps the rendered HTML in a page with a strict CSP, its own nonce, and the title escaped', () => {
    const page = viewPage('Results: <b>"x"</b>', '<h1>x</h1>', 'abc123');
    assert.match(
      page,
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-abc123'; script-src 'nonce-abc123'; img-src data:; /,
    );
    assert.match(page, /<title>Results: &#60;b&#62;&#34;x&#34;&#60;\/b&#62;<\/title>/);
    assert.match(page, /<style nonce="abc123">/);
    assert.match(page, /<script nonce="abc123">/);
    assert.match(page, /<main><h1>x<\/h1><\/main>/);
    assert.doesNotMatch(contentSecurityPolicy('n'), /unsafe|https?:|\*/);
    assert.equal(htmlText(`<a href="x" onclick='y'>&`), '&#60;a href=&#34;x&#34; onclick=&#39;y&#39;&#62;&#38;');
    assert.equal(markdownSourceHtml('# a <b>'), '<pre># a &#60;b&#62;</pre>');
  });
});
