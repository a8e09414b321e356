import assert from 'node:assert/strict';
import { parseRst } from '../../../../server/src/engine/chunking/rstSections';
import { rstInline } from '../../../../server/src/engine/chunking/rstText';

const outline = (text: string) =>
  parseRst('docs/page.rst', text).sections.map((s) => [s.headingPath.join(' > '), s.level, s.startLine, s.endLine]);

describe('chunking/rstSections', () => {
  it('gives each adornment style the next level in the order the document first uses it', () => {
    const text = [
      '.. _top:', // 1
      '', // 2
      '=========', // 3
      'Top title', // 4
      '=========', // 5
      '', // 6
      'Intro.', // 7
      '', // 8
      'Install', // 9
      '-------', // 10
      'Steps.', // 11
      '', // 12
      'From source', // 13
      '~~~~~~~~~~~', // 14
      'Build it.', // 15
      '', // 16
      '.. _upgrade:', // 17
      '', // 18
      'Upgrade', // 19
      '-------', // 20
      'Later.', // 21
    ].join('\n');
    assert.deepEqual(outline(text), [
      ['Top title', 1, 3, 7],
      ['Top title > Install', 2, 9, 11],
      ['Top title > Install > From source', 3, 13, 15],
      ['Top title > Upgrade', 2, 19, 21],
    ]);
    const doc = parseRst('docs/page.rst', text);
    assert.equal(doc.title, 'Top title');
    assert.equal(doc.sections[0].anchor, 'top');
    assert.equal(doc.sections[3].anchor, 'upgrade', 'a target just above a title names it');
    assert.equal(doc.sections[1].text, '## Install\nSteps.');
  });

  it('reads an overline title and an underline title with the same character as two levels', () => {
    const text = ['#####', 'Parts', '#####', '', 'Chapter', '#######', 'Body.'].join('\n');
    assert.deepEqual(outline(text), [
      ['Parts', 1, 1, 3],
      ['Parts > Chapter', 2, 5, 7],
    ]);
  });

  it('never takes text inside a directive, a literal block or a paragraph for a title', () => {
    const text = [
      'Title', // 1
      '=====', // 2
      '', // 3
      'Run this::', // 4
      '', // 5
      '    Not a title', // 6
      '    -----------', // 7
      '', // 8
      '.. note::', // 9
      '', // 10
      '   Also not', // 11
      '   --------', // 12
      '', // 13
      'A paragraph line', // 14
      'then more text', // 15
      '', // 16
      '----', // 17
      '', // 18
      'After a transition.', // 19
    ].join('\n');
    assert.deepEqual(outline(text), [['Title', 1, 1, 19]]);
  });

  it('renders directives, roles and literal blocks as a reader sees them, code kept as fenced code', () => {
    const text = [
      'Configuration', // 1
      '=============', // 2
      '', // 3
      '.. highlight:: python', // 4
      '', // 5
      'Use :class:`~requests.Session` and :ref:`the guide <advanced>`, see `docs <https://x.io>`_.', // 6
      '', // 7
      '.. code-block:: yaml', // 8
      '   :caption: values.yaml', // 9
      '', // 10
      '   server:', // 11
      '     port: 8080', // 12
      '', // 13
      '.. note:: Mind the', // 14
      '   ``timeout``.', // 15
      '', // 16
      '.. image:: logo.png', // 17
      '   :alt: logo', // 18
      '', // 19
      '.. This is a comment', // 20
      '   over two lines.', // 21
      '', // 22
      'Example::', // 23
      '', // 24
      '    s = requests.Session()', // 25
      '', // 26
      '.. autofunction:: requests.get', // 27
      '', // 28
      '.. versionadded:: 2.1', // 29
      '   The thing.', // 30
    ].join('\n');
    const [section] = parseRst('docs/config.rst', text).sections;
    assert.equal(
      section.text,
      [
        '# Configuration',
        '',
        'Use `Session` and the guide, see docs.',
        '',
        '```yaml',
        'server:',
        '  port: 8080',
        '```',
        '',
        '**Note:** Mind the `timeout`.',
        '',
        'Example:',
        '',
        '```python',
        's = requests.Session()',
        '```',
        '',
        '`requests.get`',
        '',
        '*Added in version 2.1* The thing.',
      ].join('\n'),
    );
    assert.deepEqual([section.startLine, section.endLine], [1, 30]);
  });

  it('reads toctree entries in order, with titles, globs and options', () => {
    const text = [
      'Home', // 1
      '====', // 2
      '', // 3
      '.. toctree::', // 4
      '   :maxdepth: 2', // 5
      '   :caption: User guide', // 6
      '', // 7
      '   user/install', // 8
      '   Quick start <user/quickstart>', // 9
      '', // 10
      '.. toctree::', // 11
      '   :glob:', // 12
      '', // 13
      '   api/*', // 14
      '   self', // 15
    ].join('\n');
    assert.deepEqual(parseRst('docs/index.rst', text).toctrees, [
      {
        glob: false,
        caption: 'User guide',
        entries: [
          { doc: 'user/install', line: 8 },
          { doc: 'user/quickstart', title: 'Quick start', line: 9 },
        ],
      },
      {
        glob: true,
        entries: [
          { doc: 'api/*', line: 14 },
          { doc: 'self', line: 15 },
        ],
      },
    ]);
  });

  it('reports an underline shorter than its title and still reads the title, as docutils does', () => {
    const doc = parseRst('docs/short.rst', 'A long title\n======\nText.\n');
    assert.deepEqual(
      doc.sections.map((s) => s.headingPath),
      [['A long title']],
    );
    assert.deepEqual(
      doc.problems.map((p) => [p.code, p.line, p.severity]),
      [['rst.title-underline-short', 2, 'info']],
    );
  });

  it('reads inline markup as text', () => {
    assert.equal(
      rstInline('``x.y`` and :doc:`install` and |version| and Foo_ and `Bar`__'),
      '`x.y` and install and version and Foo and Bar',
    );
    assert.equal(rstInline('snake_case_name_ stays'), 'snake_case_name_ stays');
  });

  it('gives a title-less file its name and never throws on broken input', () => {
    assert.equal(parseRst('docs/getting-started.rst', 'Just text.\n').title, 'Getting started');
    for (const text of [
      '',
      '====',
      '.. code-block::',
      '::\n\n',
      '.. toctree::\n   :glob:',
      'a\n=\n',
      '\t\t\n.. |x| image:: y',
    ]) {
      parseRst('docs/x.rst', text);
    }
  });
});
