import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { documentId, sha256Hex } from '../../../../server/src/engine/chunking/ids';
import {
  parseMkDocs,
  parseTechDocsRef,
  readDocsSite,
  readTechDocs,
} from '../../../../server/src/engine/sources/techdocs';
import { type FileSource, MemoryFileSource } from '../../../../server/src/engine/workspace/fileSource';

/** Writes `files` under a fresh temp folder and reads every file back from disk. */
function workspaceOnDisk(files: Record<string, string>): FileSource {
  const root = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'wsctx-techdocs-'));
  for (const [path, text] of Object.entries(files)) {
    fs.mkdirSync(nodePath.dirname(nodePath.join(root, path)), { recursive: true });
    fs.writeFileSync(nodePath.join(root, path), text);
  }
  const read = new Map<string, string>();
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const abs = nodePath.join(entry.parentPath, entry.name);
    read.set(nodePath.relative(root, abs).split(nodePath.sep).join('/'), fs.readFileSync(abs, 'utf8'));
  }
  fs.rmSync(root, { recursive: true, force: true });
  return new MemoryFileSource(read);
}

const ENTITY = 'component:default/billing-worker';
const CATALOG = 'services/billing/catalog-info.yaml';

describe('sources/techdocs', () => {
  it('orders the index page, then nested nav, then pages not in nav by path', async () => {
    const files = workspaceOnDisk({
      [CATALOG]: 'kind: Component\n',
      'services/billing/mkdocs.yml': [
        'site_name: Billing Worker',
        'nav:',
        '  - Home: index.md',
        '  - Guides:',
        '      - Setup: guides/setup.md',
        '      - Advanced:',
        '          - guides/tuning.md',
        '  - runbook.md',
        '  - Issues: https://example.invalid/issues',
        '  - Gone: missing.md',
        'markdown_extensions:',
        '  - pymdownx.emoji:',
        '      emoji_index: !!python/name:material.extensions.emoji.twemoji',
      ].join('\n'),
      'services/billing/docs/index.md': '# Billing worker\nOverview text.\n',
      'services/billing/docs/runbook.md': '# Runbook\n## Alerts\nx\n',
      'services/billing/docs/guides/setup.md': '# Setting up\n',
      'services/billing/docs/guides/tuning.md': 'No heading of its own.\n',
      'services/billing/docs/zeta.md': '# Zeta\n',
      'services/billing/docs/appendix/a.md': 'Appendix body only\n',
      'services/billing/docs/diagram.png': 'not markdown',
    });
    const result = await readTechDocs({
      files,
      entityKey: ENTITY,
      catalogPath: CATALOG,
      annotation: 'dir:.',
      folder: 'acme',
    });
    assert.deepEqual(
      result.docs.map((d) => [d.path, d.docsRole, d.title]),
      [
        // A page's own H1 titles it; the nav label titles a page without one.
        ['services/billing/docs/index.md', 'overview', 'Billing worker'],
        ['services/billing/docs/guides/setup.md', 'page', 'Setting up'],
        ['services/billing/docs/guides/tuning.md', 'page', 'Tuning'],
        ['services/billing/docs/runbook.md', 'page', 'Runbook'],
        ['services/billing/docs/appendix/a.md', 'page', 'A'],
        ['services/billing/docs/zeta.md', 'page', 'Zeta'],
      ],
    );
    assert.equal(result.siteName, 'Billing Worker');
    assert.equal(result.docsDir, 'services/billing/docs');
    assert.deepEqual(
      result.problems.map((p) => [p.path, p.line, p.severity, p.code]),
      [['services/billing/mkdocs.yml', 10, 'warning', 'techdocs.nav-missing-page']],
    );
    const runbook = result.docs[3];
    assert.equal(runbook.id, documentId('services/billing/docs/runbook.md'));
    assert.equal(runbook.digest, sha256Hex('# Runbook\n## Alerts\nx\n'));
    assert.equal(runbook.sourceKind, 'catalog_doc');
    assert.equal(runbook.format, 'markdown');
    assert.equal(runbook.folder, 'acme');
    assert.deepEqual(runbook.entityRefs, [ENTITY]);
    assert.deepEqual(
      runbook.sections.map((s) => [s.headingPath, s.startLine, s.endLine]),
      [
        [['Runbook'], 1, 1],
        [['Runbook', 'Alerts'], 2, 3],
      ],
    );
  });

  it('places the pages of wildcard, folder and rest nav entries without calling them missing', async () => {
    // literate-nav and awesome-nav take wildcards and folders in mkdocs.yml's nav; awesome-pages
    // puts `...` for the rest, ordered by a folder's .pages file.
    const files = workspaceOnDisk({
      [CATALOG]: 'kind: Component\n',
      'services/billing/mkdocs.yml': [
        'site_name: Billing Worker',
        'plugins: [literate-nav, awesome-pages]',
        'nav:',
        '  - index.md',
        '  - Tutorials: tutorials/*',
        '  - reference/',
        '  - how-to',
        '  - "*.md"',
        '  - ...',
        '  - Gone: gone/*.md',
        '  - Missing: missing.md',
      ].join('\n'),
      'services/billing/docs/index.md': '# Home\n',
      'services/billing/docs/tutorials/b-second.md': '# Second tutorial\n',
      'services/billing/docs/tutorials/a-first.md': '# First tutorial\n',
      'services/billing/docs/tutorials/deep/c-third.md': '# Third tutorial\n',
      'services/billing/docs/reference/cli.md': '# CLI\n',
      'services/billing/docs/how-to/.pages': 'nav:\n  - rotate.md\n',
      'services/billing/docs/how-to/rotate.md': '# Rotate keys\n',
      'services/billing/docs/faq.md': '# FAQ\n',
      'services/billing/docs/zz/other.md': '# Other\n',
    });
    const result = await readTechDocs({ files, entityKey: ENTITY, catalogPath: CATALOG, annotation: 'dir:.' });
    assert.deepEqual(
      result.docs.map((d) => d.path.replace('services/billing/docs/', '')),
      [
        'index.md',
        'tutorials/a-first.md',
        'tutorials/b-second.md',
        'tutorials/deep/c-third.md',
        'reference/cli.md',
        'how-to/rotate.md',
        'faq.md',
        'zz/other.md',
      ],
    );
    // Only the page that is not there is missing; a wildcard matching nothing names no page.
    assert.deepEqual(
      result.problems.map((p) => [p.line, p.code, p.message]),
      [
        [
          11,
          'techdocs.nav-missing-page',
          "nav names 'missing.md', which is not a Markdown file in 'services/billing/docs'.",
        ],
      ],
    );
  });

  it('places the pages a nav pattern names (tutorials/*, reference/) in path order, with no missing-page warning', async () => {
    const files = workspaceOnDisk({
      'mkdocs.yml': [
        'site_name: Patterns',
        'nav:',
        '  - Home: index.md',
        '  - Tutorials: tutorials/*',
        '  - reference/',
        '  - faq.md',
      ].join('\n'),
      'docs/index.md': '# Home\n',
      'docs/faq.md': '# FAQ\n',
      'docs/tutorials/b.md': '# B\n',
      'docs/tutorials/a.md': '# A\n',
      'docs/tutorials/deep/c.md': '# C\n',
      'docs/reference/api/x.md': '# X\n',
      'docs/other.md': '# Other\n',
    });
    const result = await readDocsSite({ files, configPath: 'mkdocs.yml', entityKeys: [] });
    assert.deepEqual(
      result.docs.map((d) => d.path),
      [
        'docs/index.md',
        // literate-nav reads `tutorials/*` as every entry of the folder, a subfolder's pages included.
        'docs/tutorials/a.md',
        'docs/tutorials/b.md',
        'docs/tutorials/deep/c.md',
        'docs/reference/api/x.md',
        'docs/faq.md',
        'docs/other.md',
      ],
    );
    assert.deepEqual(result.problems, []);
  });

  it('honours docs_dir, takes README.md as the index and the first nav entry when neither exists', async () => {
    const files = workspaceOnDisk({
      'apps/web/catalog-info.yaml': 'kind: Component\n',
      'apps/web/site/mkdocs.yaml': 'docs_dir: content\nnav:\n  - start.md\n  - end.md\n',
      'apps/web/site/content/README.md': '# Readme\n',
      'apps/web/site/content/start.md': '# Start\n',
      'apps/web/site/content/end.md': '# End\n',
      'apps/api/catalog-info.yaml': 'kind: Component\n',
      'apps/api/mkdocs.yml': 'nav:\n  - Intro: intro.md\n  - more.md\n',
      'apps/api/docs/more.md': '# More\n',
      'apps/api/docs/intro.md': '# Intro page\n',
    });
    const web = await readTechDocs({
      files,
      entityKey: 'component:default/web',
      catalogPath: 'apps/web/catalog-info.yaml',
      annotation: 'dir:./site',
    });
    assert.deepEqual(
      web.docs.map((d) => [d.path, d.docsRole]),
      [
        ['apps/web/site/content/README.md', 'overview'],
        ['apps/web/site/content/start.md', 'page'],
        ['apps/web/site/content/end.md', 'page'],
      ],
    );
    assert.equal(web.docsDir, 'apps/web/site/content');
    assert.deepEqual(web.problems, []);

    const api = await readTechDocs({
      files,
      entityKey: 'component:default/api',
      catalogPath: 'apps/api/catalog-info.yaml',
      annotation: 'dir:.',
    });
    assert.deepEqual(
      api.docs.map((d) => [d.path, d.docsRole, d.title]),
      [
        ['apps/api/docs/intro.md', 'overview', 'Intro page'],
        ['apps/api/docs/more.md', 'page', 'More'],
      ],
    );
  });

  it('keeps url: refs unresolved with a warning and never reads anything', async () => {
    const files = workspaceOnDisk({ [CATALOG]: 'x' });
    const result = await readTechDocs({
      files,
      entityKey: ENTITY,
      catalogPath: CATALOG,
      annotation: 'url:https://github.com/acme/billing/tree/main',
      annotationLine: 7,
    });
    assert.deepEqual(result.docs, []);
    assert.equal(result.url, 'https://github.com/acme/billing/tree/main');
    assert.deepEqual(
      result.problems.map((p) => [p.path, p.line, p.severity, p.code]),
      [[CATALOG, 7, 'warning', 'techdocs.url-ref']],
    );
  });

  it('falls back to docs/ without mkdocs.yml (info) and reports a missing folder (warning)', async () => {
    const files = workspaceOnDisk({
      [CATALOG]: 'x',
      'services/billing/docs/b.md': '# B\n',
      'services/billing/docs/index.md': '# Home\n',
      'services/billing/docs/a.md': '# A\n',
    });
    const fallback = await readTechDocs({ files, entityKey: ENTITY, catalogPath: CATALOG, annotation: 'dir:.' });
    assert.deepEqual(
      fallback.docs.map((d) => [d.path, d.docsRole]),
      [
        ['services/billing/docs/index.md', 'overview'],
        ['services/billing/docs/a.md', 'page'],
        ['services/billing/docs/b.md', 'page'],
      ],
    );
    assert.deepEqual(
      fallback.problems.map((p) => [p.path, p.severity, p.code]),
      [[CATALOG, 'info', 'techdocs.missing-mkdocs']],
    );

    const missing = await readTechDocs({
      files,
      entityKey: ENTITY,
      catalogPath: CATALOG,
      annotation: 'dir:../nowhere',
    });
    assert.deepEqual(missing.docs, []);
    assert.deepEqual(
      missing.problems.map((p) => [p.severity, p.code]),
      [['warning', 'techdocs.missing-dir']],
    );
    assert.match(missing.problems[0].message, /'services\/nowhere'/);

    const outside = await readTechDocs({ files, entityKey: ENTITY, catalogPath: CATALOG, annotation: 'dir:../../..' });
    assert.deepEqual(
      outside.problems.map((p) => p.code),
      ['techdocs.invalid-ref'],
    );
    const bad = await readTechDocs({ files, entityKey: ENTITY, catalogPath: CATALOG, annotation: 'git:somewhere' });
    assert.deepEqual(
      bad.problems.map((p) => p.code),
      ['techdocs.invalid-ref'],
    );
  });

  it('reports invalid mkdocs.yml and still reads the docs folder in path order', async () => {
    const files = workspaceOnDisk({
      [CATALOG]: 'x',
      'services/billing/mkdocs.yml': 'site_name: [broken\n',
      'services/billing/docs/b.md': '# B\n',
      'services/billing/docs/a.md': '# A\n',
    });
    const result = await readTechDocs({ files, entityKey: ENTITY, catalogPath: CATALOG, annotation: 'dir:.' });
    assert.deepEqual(
      result.docs.map((d) => [d.path, d.docsRole]),
      [
        ['services/billing/docs/a.md', 'page'],
        ['services/billing/docs/b.md', 'page'],
      ],
    );
    assert.deepEqual(
      result.problems.map((p) => [p.path, p.code]),
      [['services/billing/mkdocs.yml', 'techdocs.yaml']],
    );
  });

  it('parses refs and mkdocs nav with titles, sections, anchors and lines', () => {
    assert.deepEqual(parseTechDocsRef('dir:.'), { type: 'dir', target: '.' });
    assert.deepEqual(parseTechDocsRef(' URL: https://x.invalid '), { type: 'url', target: 'https://x.invalid' });
    assert.deepEqual(parseTechDocsRef('dir:'), { type: 'invalid', value: 'dir:' });
    const config = parseMkDocs('mkdocs.yml', 'nav:\n  - a.md#top\n  - S:\n    - T: b.md\n  - 42\ndocs_dir: 7\n');
    assert.deepEqual(config.nav, [
      { file: 'a.md', sections: [], line: 2 },
      { file: 'b.md', title: 'T', sections: ['S'], line: 4 },
    ]);
    assert.equal(config.docsDir, '7');
    assert.deepEqual(
      config.problems.map((p) => [p.line, p.code]),
      [[5, 'techdocs.invalid-nav']],
    );
  });
});
