import assert from 'node:assert/strict';
import { documentId, sectionId, sha256Hex } from '../../../../server/src/engine/chunking/ids';
import { parseMarkdown } from '../../../../server/src/engine/chunking/markdownSections';
import { buildDoc } from '../../../../server/src/engine/sources/docBuilder';
import { dirName, extName, isInside, joinPath } from '../../../../server/src/engine/sources/paths';
import { heapKeptBy } from '../../../helpers/heapAfterGc';

describe('sources/docBuilder', () => {
  const text = '---\ntitle: Guide\nowner: team-a\n---\n# Start\nx\n';

  it('builds ids, digest, title, front matter and sections the same way for every source', () => {
    const { doc, problems } = buildDoc({
      path: 'docs/guide.md',
      text,
      sourceKind: 'catalog_doc',
      format: 'markdown',
      folder: 'ws',
      entityRefs: ['component:default/a', 'component:default/a', 'api:default/b'],
      docsRole: 'page',
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(doc, {
      id: documentId('docs/guide.md'),
      path: 'docs/guide.md',
      folder: 'ws',
      sourceKind: 'catalog_doc',
      format: 'markdown',
      title: 'Guide',
      digest: sha256Hex(text),
      frontMatter: { title: 'Guide', owner: 'team-a' },
      entityRefs: ['component:default/a', 'api:default/b'],
      sections: [
        {
          id: sectionId('docs/guide.md', ['Start']),
          docId: documentId('docs/guide.md'),
          headingPath: ['Start'],
          level: 1,
          startLine: 5,
          endLine: 6,
          text: '# Start\nx',
        },
      ],
      docsRole: 'page',
    });
  });

  it('lets an explicit title win and passes the Markdown problems through', () => {
    const bad = '---\ntitle: [\n---\n# H\n';
    const markdown = parseMarkdown('a.md', bad);
    const built = buildDoc({
      path: 'a.md',
      text: bad,
      sourceKind: 'library',
      format: 'agents-md',
      title: 'Nav title',
      markdown,
    });
    assert.equal(built.doc.title, 'Nav title');
    assert.equal(built.doc.folder, '');
    assert.deepEqual(built.problems, markdown.problems);
    assert.deepEqual(
      built.problems.map((p) => [p.line, p.code]),
      // At the unclosed `[` (file line 2), where the mistake is.
      [[2, 'frontmatter.yaml']],
    );
  });
});

describe('sources/paths', () => {
  it('keeps no slice of the page: the index holds its sections, not the file text twice', () => {
    // V8 keeps a slice of 13+ characters as a view on the whole file: a doc whose headings, title
    // or front matter were slices would pin every page it came from (text/detach.ts). Sixty pages
    // of ~330 kB each, with long headings and front matter values, built and kept as docs.
    const page = (i: number): string => {
      const parts = [
        `---\ntitle: The long title of page ${i}\nowner: group:default/platform-team-${i}\ntags: [a-long-tag-value-${i}]\n---\n`,
      ];
      for (let h = 0; h < 20; h++)
        parts.push(`# Heading number ${h} of page ${i}\n\n${`prose ${i} ${h} `.repeat(1400)}\n\n`);
      return parts.join('');
    };
    const {
      products: docs,
      kept,
      textBytes,
    } = heapKeptBy(
      60,
      page,
      (text, i) => buildDoc({ path: `docs/p${i}.md`, text, sourceKind: 'catalog_doc', format: 'markdown' }).doc,
    );
    assert.equal(docs[7].title, 'The long title of page 7');
    assert.deepEqual(docs[7].frontMatter, {
      title: 'The long title of page 7',
      owner: 'group:default/platform-team-7',
      tags: ['a-long-tag-value-7'],
    });
    assert.deepEqual(docs[7].sections[3].headingPath, ['Heading number 3 of page 7']);
    // The sections' own texts are the page once (~20 MB); slices would add the pages again.
    assert.ok(kept < textBytes * 1.4, `docs hold ${kept} bytes for ${textBytes} bytes of pages`);
    assert.ok(kept > textBytes * 0.8, `docs hold ${kept} bytes for ${textBytes} bytes of pages: the measure is off`);
  });

  it('joins and normalises workspace-relative paths, refusing escapes', () => {
    assert.equal(joinPath('services/billing', '.'), 'services/billing');
    assert.equal(joinPath('services/billing', './docs/'), 'services/billing/docs');
    assert.equal(joinPath('services/billing', '../web'), 'services/web');
    assert.equal(joinPath('', '.'), '');
    assert.equal(joinPath('a', '..'), '');
    assert.equal(joinPath('a', '../..'), null);
    assert.equal(joinPath('a', '/etc'), null);
    assert.equal(joinPath('a', 'C:\\x'), null);
    assert.equal(dirName('a/b/c.md'), 'a/b');
    assert.equal(dirName('c.md'), '');
    assert.equal(extName('a/B.MD'), 'md');
    assert.equal(extName('a/.context'), '');
    assert.equal(isInside('a/b', ''), true);
    assert.equal(isInside('ab/c', 'a'), false);
  });
});
