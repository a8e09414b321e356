import assert from 'node:assert/strict';
import { documentId, sectionId } from '../../../../server/src/engine/chunking/ids';
import {
  type MarkdownSection,
  humanizeFileName,
  markdownSections,
  parseMarkdown,
  splitSections,
} from '../../../../server/src/engine/chunking/markdownSections';

/** [headingPath joined by ' > ', level, startLine, endLine] per section. */
function outline(sections: readonly MarkdownSection[]): [string, number, number, number][] {
  return sections.map((s) => [s.headingPath.join(' > '), s.level, s.startLine, s.endLine]);
}

describe('chunking/markdownSections', () => {
  it('splits at ATX headings, nests heading paths and strips closing hashes', () => {
    const text = [
      '# Billing worker #', // 1
      'Intro.', // 2
      '', // 3
      '## Setup ##', // 4
      'Install it.', // 5
      '### Linux ###   ', // 6
      'apt', // 7
      '## Run #not-closing', // 8
      '#### Deep', // 9
      '# C# notes', // 10
      '#NoSpace is text', // 11
      '', // 12
    ].join('\n');
    const sections = splitSections(text);
    assert.deepEqual(outline(sections), [
      ['Billing worker', 1, 1, 2],
      ['Billing worker > Setup', 2, 4, 5],
      ['Billing worker > Setup > Linux', 3, 6, 7],
      ['Billing worker > Run #not-closing', 2, 8, 8],
      ['Billing worker > Run #not-closing > Deep', 4, 9, 9],
      ['C# notes', 1, 10, 11],
    ]);
    assert.equal(sections[0].text, '# Billing worker #\nIntro.');
    assert.equal(sections[5].text, '# C# notes\n#NoSpace is text');
  });

  it('reads setext headings of both levels, paragraph lines included in the heading', () => {
    const text = [
      'Payments', // 1
      '========', // 2
      'Moves money.', // 3
      '', // 4
      'Refunds and', // 5
      'chargebacks', // 6
      '---', // 7
      'Rules here.', // 8
    ].join('\n');
    const sections = splitSections(text);
    assert.deepEqual(outline(sections), [
      ['Payments', 1, 1, 3],
      ['Payments > Refunds and chargebacks', 2, 5, 8],
    ]);
    assert.equal(sections[1].text, 'Refunds and\nchargebacks\n---\nRules here.');
  });

  it('reads --- after a blank line, a list item or a quote as a thematic break, not a heading', () => {
    const text = [
      '# Title', // 1
      'para', // 2
      '', // 3
      '---', // 4
      '- item', // 5
      '---', // 6
      '> quote', // 7
      '---', // 8
      'text', // 9
      '- - -', // 10
      'more', // 11
      '***', // 12
      '===', // 13
    ].join('\n');
    const sections = splitSections(text);
    assert.deepEqual(outline(sections), [['Title', 1, 1, 13]]);
  });

  it('reads === with no paragraph above as text', () => {
    assert.deepEqual(outline(splitSections('===\n\n# A\n')), [
      ['', 0, 1, 1],
      ['A', 1, 3, 3],
    ]);
  });

  it('never splits fenced code: backticks, tildes, longer fences, info strings, unclosed fences', () => {
    const text = [
      '# Build', // 1
      '```bash', // 2
      '# install deps', // 3
      'npm ci', // 4
      '```', // 5
      '## Tilde', // 6
      '~~~~ python title="x"', // 7
      '# a comment', // 8
      '~~~', // 9  (shorter: does not close)
      'Heading', // 10
      '---', // 11
      '~~~~~', // 12 closes
      '## After', // 13
      '````', // 14
      '```', // 15  (shorter: does not close)
      '# still code', // 16
      '', // 17
    ].join('\n');
    const sections = splitSections(text);
    assert.deepEqual(outline(sections), [
      ['Build', 1, 1, 5],
      ['Build > Tilde', 2, 6, 12],
      ['Build > After', 2, 13, 16],
    ]);
    assert.equal(sections[2].text, '## After\n````\n```\n# still code');
  });

  it('ignores headings in indented code and HTML comments but not in lazy paragraph lines', () => {
    const text = [
      '# Top', // 1
      '', // 2
      '    # indented code', // 3
      '', // 4
      '<!--', // 5
      '# commented out', // 6
      '-->', // 7
      'para', // 8
      '    # continuation, not code', // 9
      '## Next', // 10
    ].join('\n');
    assert.deepEqual(outline(splitSections(text)), [
      ['Top', 1, 1, 9],
      ['Top > Next', 2, 10, 10],
    ]);
  });

  it('keeps a non-blank preamble as a level-0 section and drops a blank one', () => {
    const text = '\n\nSome intro\nwith two lines\n\n# First\nbody\n';
    const sections = splitSections(text);
    assert.deepEqual(outline(sections), [
      ['', 0, 3, 4],
      ['First', 1, 6, 7],
    ]);
    assert.deepEqual(sections[0].headingPath, []);
    assert.equal(sections[0].text, 'Some intro\nwith two lines');
    assert.deepEqual(outline(splitSections('\n  \n# First\n')), [['First', 1, 3, 3]]);
    assert.deepEqual(outline(splitSections('')), []);
  });

  it('trims trailing blank lines and drops MkDocs anchor ids from heading text', () => {
    const sections = splitSections('# One {#one}\nx\n\n\n# Two\n');
    assert.deepEqual(outline(sections), [
      ['One', 1, 1, 2],
      ['Two', 1, 5, 5],
    ]);
  });

  it('shifts line numbers past front matter so they point into the original file', () => {
    const text = [
      '---',
      'title: Runbook',
      'tags: [ops]',
      '---',
      '',
      'Intro',
      '# Alerts',
      'Page on call.',
      '## Paging',
      'Use the pager.',
    ].join('\n');
    const doc = parseMarkdown('docs/runbook.md', text);
    assert.equal(doc.title, 'Runbook');
    assert.deepEqual(doc.problems, []);
    assert.deepEqual(outline(doc.sections), [
      ['', 0, 6, 6],
      ['Alerts', 1, 7, 8],
      ['Alerts > Paging', 2, 9, 10],
    ]);
    assert.equal(doc.sections[2].text, '## Paging\nUse the pager.');
  });

  it('sections a document with invalid front matter and reports the line', () => {
    const text = ['---', 'title: Runbook', 'owner: [team', '---', '# Alerts', 'x'].join('\n');
    const doc = parseMarkdown('docs/runbook.md', text);
    assert.deepEqual(doc.frontMatter.data, {});
    assert.equal(doc.title, 'Alerts');
    assert.deepEqual(outline(doc.sections), [['Alerts', 1, 5, 6]]);
    assert.deepEqual(
      doc.problems.map((p) => [p.path, p.line, p.code]),
      // At the unclosed `[` (file line 3), where the mistake is.
      [['docs/runbook.md', 3, 'frontmatter.yaml']],
    );
  });

  it('gives repeated heading paths distinct ids with ordinals', () => {
    const path = 'docs/api.md';
    const text = '# API\n## Example\na\n## Example\nb\n## Example\nc\n# Other\n## Example\nd\n';
    const docId = documentId(path);
    const sections = markdownSections(path, text, docId);
    assert.deepEqual(
      sections.map((s) => s.id),
      [
        sectionId(path, ['API']),
        sectionId(path, ['API', 'Example'], 1),
        sectionId(path, ['API', 'Example'], 2),
        sectionId(path, ['API', 'Example'], 3),
        sectionId(path, ['Other']),
        sectionId(path, ['Other', 'Example'], 1),
      ],
    );
    assert.equal(new Set(sections.map((s) => s.id)).size, 6);
    assert.ok(sections.every((s) => s.docId === docId));
    assert.deepEqual(sections[3], {
      id: sectionId(path, ['API', 'Example'], 3),
      docId,
      headingPath: ['API', 'Example'],
      level: 2,
      startLine: 6,
      endLine: 7,
      text: '## Example\nc',
    });
  });

  describe('title', () => {
    it('prefers front matter title, then the first level-1 heading', () => {
      assert.equal(parseMarkdown('a.md', '---\ntitle: From FM\n---\n# H1\n').title, 'From FM');
      assert.equal(parseMarkdown('a.md', '## Sub first\n# The H1\n').title, 'The H1');
      assert.equal(parseMarkdown('a.md', '---\ntitle: 2024\n---\n# H1\n').title, '2024');
    });

    it('falls back to the first heading, then the humanized file name', () => {
      assert.equal(parseMarkdown('a.md', 'intro\n### Deep first\n## Then\n').title, 'Deep first');
      assert.equal(parseMarkdown('docs/getting-started.md', 'no headings').title, 'Getting started');
      assert.equal(parseMarkdown('docs/my_page.epic.md', '').title, 'My page epic');
    });

    it('reports a front matter title that is not text and falls back', () => {
      const doc = parseMarkdown('a.md', '---\ntitle: [x]\n---\n# Real\n');
      assert.equal(doc.title, 'Real');
      assert.deepEqual(
        doc.problems.map((p) => [p.line, p.code]),
        [[2, 'frontmatter.invalid-field']],
      );
      assert.match(doc.problems[0].message, /'title'/);
    });
  });

  it('humanizes file names', () => {
    assert.equal(humanizeFileName('x/release_notes-2024.md'), 'Release notes 2024');
    assert.equal(humanizeFileName('AGENTS.md'), 'AGENTS');
    assert.equal(humanizeFileName('.cursor/rules/api-style.mdc'), 'Api style');
  });
});
