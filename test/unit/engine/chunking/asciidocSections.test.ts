import assert from 'node:assert/strict';
import { inlineText, parseAsciidoc } from '../../../../server/src/engine/chunking/asciidocSections';

describe('chunking/asciidocSections', () => {
  const PAGE = [
    '= Load and Convert Strings', // 1
    'Dan Allen <dan@example.org>', // 2
    ':navtitle: Convert Strings', // 3
    ':url-api: https://example.org/api', // 4
    '', // 5
    'This page explains {navtitle}.', // 6
    '', // 7
    '[#load]', // 8
    '== Load a string', // 9
    '', // 10
    '[source,yaml]', // 11
    '----', // 12
    'server:', // 13
    '  port: 8080', // 14
    '== Not a heading inside a listing', // 15
    '----', // 16
    '', // 17
    'NOTE: See xref:api:options.adoc[the options] and <<load,loading>>.', // 18
    '', // 19
    '// a comment', // 20
    '=== Deeper', // 21
    'Press kbd:[Ctrl+C] or link:{url-api}[the API].', // 22
    '', // 23
    '[discrete]', // 24
    '== Discrete heading', // 25
    'Text under it.', // 26
    '', // 27
    '## Markdown style', // 28
    '....', // 29
    'literal', // 30
    '....', // 31
  ].join('\n');

  it('splits at = headings (and # headings), not inside blocks or at discrete headings; spans exact', () => {
    const doc = parseAsciidoc('docs/modules/api/pages/convert-strings.adoc', PAGE);
    assert.equal(doc.title, 'Load and Convert Strings');
    assert.deepEqual(doc.page, { navTitle: 'Convert Strings' });
    assert.deepEqual(
      doc.sections.map((s) => [s.headingPath.join(' > '), s.level, s.startLine, s.endLine, s.anchor ?? '']),
      [
        ['Load and Convert Strings', 1, 1, 6, ''],
        ['Load and Convert Strings > Load a string', 2, 9, 18, 'load'],
        ['Load and Convert Strings > Load a string > Deeper', 3, 21, 26, ''],
        ['Load and Convert Strings > Markdown style', 2, 28, 31, ''],
      ],
    );
  });

  it('drops the header and attribute lines, keeps listings as fenced code and reads inline macros', () => {
    const [title, load, deeper, markdown] = parseAsciidoc('x.adoc', PAGE).sections;
    assert.equal(title.text, '# Load and Convert Strings\n\nThis page explains Convert Strings.');
    assert.equal(
      load.text,
      [
        '## Load a string',
        '',
        '```yaml',
        'server:',
        '  port: 8080',
        '== Not a heading inside a listing',
        '```',
        '',
        '**Note:** See the options and loading.',
      ].join('\n'),
    );
    assert.equal(deeper.text, '### Deeper\nPress Ctrl+C or the API.\n\n**Discrete heading**\nText under it.');
    assert.equal(markdown.text, '## Markdown style\n```\nliteral\n```');
  });

  it('reports a block never closed and reads to the end', () => {
    const doc = parseAsciidoc('x.adoc', '= T\n\n----\ncode\n== Still code\n');
    assert.deepEqual(
      doc.sections.map((s) => s.headingPath.join(' > ')),
      ['T'],
    );
    assert.deepEqual(
      doc.problems.map((p) => [p.code, p.line]),
      [['asciidoc.unterminated-block', 3]],
    );
  });

  it('reads inline macros as their text', () => {
    assert.equal(
      inlineText('xref:install:index.adoc[] and xref:page.adoc#x[Page] menu:File[Save > As]', {}),
      'index and Page File > Save > As',
    );
    assert.equal(
      inlineText('`+{attr}+` and {known} and {unknown}', { known: 'yes' }),
      '`{attr}` and yes and {unknown}',
    );
  });

  it('titles a page without = Title by its first heading, else its nav title, else its name; never throws', () => {
    assert.equal(parseAsciidoc('x/install-guide.adoc', '== First\ntext').title, 'First');
    assert.equal(parseAsciidoc('x/install-guide.adoc', ':navtitle: Install\n\ntext').title, 'Install');
    assert.equal(parseAsciidoc('x/install-guide.adoc', 'text').title, 'Install guide');
    for (const text of ['', '=', '====', '[source', ':a: {a}', '|===\n|a', '++++\n<b>', '////'])
      parseAsciidoc('x.adoc', text);
  });
});
