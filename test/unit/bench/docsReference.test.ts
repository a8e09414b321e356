import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadSections, splitAsciidoc } from '../../../bench/baselines/docsReference';

describe('bench/baselines/docsReference: AsciiDoc as the reference splits it', () => {
  // The shape of Spring Cloud Gateway's pages (bench/corpora/spring-cloud-gateway): an id line, a
  // `=` page title, `==` sections, and listing and table blocks whose lines start with `=`.
  const page = [
    '[[retry-gatewayfilter-factory]]',
    '= `Retry` `GatewayFilter` Factory',
    '',
    'The `Retry` factory supports the following parameters.',
    '',
    '== Defaults',
    '',
    '.application.yml',
    '[source,yaml]',
    '----',
    '== not a title: inside a listing',
    'retries: 3',
    '----',
    '',
    '=== Backoff',
    '',
    '|===',
    '|Name |Default',
    '== not a title: inside a table',
    '|===',
    '',
    '== Forcing Framework Retry',
    'When Spring Retry is on the classpath...',
  ].join('\n');

  it('splits at `=` titles outside delimited blocks, nesting by the count of `=`', () => {
    const sections = splitAsciidoc('docs/retry.adoc', page);
    assert.deepEqual(
      sections.map((s) => s.heading),
      [
        '',
        '`Retry` `GatewayFilter` Factory',
        '`Retry` `GatewayFilter` Factory > Defaults',
        '`Retry` `GatewayFilter` Factory > Defaults > Backoff',
        '`Retry` `GatewayFilter` Factory > Forcing Framework Retry',
      ],
    );
    assert.ok(sections.every((s) => s.title === '`Retry` `GatewayFilter` Factory'));
    assert.equal(sections[0].body, '[[retry-gatewayfilter-factory]]', 'the id line before the title');
    assert.match(sections[2].body, /== not a title: inside a listing\nretries: 3/);
    assert.match(sections[3].body, /== not a title: inside a table/);
  });

  it('titles a page without a `=` title by its file name', () => {
    const sections = splitAsciidoc('docs/partials/_spans.adoc', '|===\n|Name |Description\n|===\n');
    assert.deepEqual(
      sections.map((s) => [s.title, s.heading]),
      [['_spans', '']],
    );
  });

  it("reads every .adoc of a corpus's docs but an Antora module's nav.adoc", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'wsctx-docsref-'));
    try {
      const module = path.join(root, 'docs', 'modules', 'ROOT');
      mkdirSync(path.join(module, 'pages'), { recursive: true });
      writeFileSync(path.join(module, 'nav.adoc'), '* xref:intro.adoc[Intro]\n');
      writeFileSync(path.join(module, 'pages', 'intro.adoc'), '= Intro\n\nText.\n');
      writeFileSync(path.join(module, 'pages', 'notes.md'), '# Notes\n');
      const { files, sections } = loadSections(root, { formats: ['adoc'] });
      assert.deepEqual(
        files.map((f) => path.relative(root, f).split(path.sep).join('/')),
        ['docs/modules/ROOT/pages/intro.adoc'],
      );
      assert.deepEqual(
        sections.map((s) => [s.file, s.heading]),
        [['docs/modules/ROOT/pages/intro.adoc', 'Intro']],
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
