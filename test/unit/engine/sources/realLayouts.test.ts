/**
 * Real documentation as nine public projects lay it out (test/fixtures/layouts/*, SOURCE.txt in
 * each): a Hugo site under content/ and one under a capitalised Documentation/, Docusaurus with
 * MDX and a TypeScript sidebars file, an mdBook, a Sphinx project, an Antora component, a GitBook,
 * an MkDocs site ordered by awesome-pages `.pages` files with a generated API reference in HTML
 * headings, and a repository's ADRs. For each: the pages split into the sections a reader sees
 * (exact heading paths and line spans), titles from front matter or the first title, the order
 * the site's own configuration gives, and one question answered from the right page first
 * through `workspace_context`.
 *
 * Until discovery reads every documentation file by content (issue 38, discovery), each fixture
 * names its documentation with `sources.docs` globs; the MkDocs site is read from its mkdocs.yml.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import type { Doc } from '../../../../server/src/engine/model';
import { callTool } from '../../../../server/src/tools/callTool';
import { createServices } from '../../../../server/src/services/services';
import { findTool } from '../../../../server/src/tools/registry';
import type { ContextOutput } from '../../../../server/src/tools/workspaceContext';
import { removeTempDirs, tempDir } from '../../../helpers/tempWorkspace';

const LAYOUTS = path.resolve(__dirname, '../../../fixtures/layouts');

interface Layout {
  name: string;
  /** `sources.docs` for the fixture (none: the defaults read it). */
  docs?: string[];
  /** Documentation pages read, and their sections. */
  pages: number;
  sections: number;
  /** The first pages in reading order. */
  order: string[];
  /** Page -> its title. */
  titles: Record<string, string>;
  /** Page -> its first sections: heading path (joined by ' > '), first line, last line. */
  splits: Record<string, [string, number, number][]>;
  question: string;
  /** The page and section the first passage must come from. */
  answer: [string, string];
}

const CASES: Layout[] = [
  {
    name: 'hugo-kind',
    docs: ['site/content/**/*.md'],
    pages: 21,
    sections: 202,
    // The user guide's pages by their menu weight (quick start 1, known issues 2, ingress 3...).
    order: ['site/content/_index.md', 'site/content/docs/contributing/getting-started.md'],
    titles: {
      'site/content/docs/user/quick-start.md': 'Quick Start',
      'site/content/docs/user/ingress.md': 'Ingress',
    },
    splits: {
      // `# For AMD64` comments inside {{< codeFromInline >}} are code, not headings.
      'site/content/docs/user/quick-start.md': [
        ['Installation', 16, 28],
        ['Installation > Installing From Release Binaries', 30, 64],
        ['Installation > Installing From Source', 66, 70],
      ],
    },
    question: 'how do I load a local docker image into my kind cluster?',
    answer: ['site/content/docs/user/quick-start.md', 'Loading an Image Into Your Cluster'],
  },
  {
    name: 'hugo-etcd',
    docs: ['Documentation/**/*.md'],
    pages: 72,
    sections: 813,
    // `_index.md` first, then the pages with a weight (1, 2, 3), then the rest by name.
    order: [
      'Documentation/_index.md',
      'Documentation/dl_build.md',
      'Documentation/integrations.md',
      'Documentation/metrics.md',
      'Documentation/branch_management.md',
    ],
    titles: {
      'Documentation/_index.md': 'etcd version 3.3.12',
      'Documentation/op-guide/maintenance.md': 'Maintenance',
    },
    splits: {
      'Documentation/op-guide/maintenance.md': [
        ['Overview', 5, 9],
        ['Raft log retention', 11, 19],
        ['History compaction: v3 API Key-Value Database', 21, 39],
        ['History compaction: v3 API Key-Value Database > Auto Compaction', 41, 71],
        ['Defragmentation', 73, 103],
      ],
    },
    question: 'how do I defragment etcd to reclaim disk space?',
    answer: ['Documentation/op-guide/maintenance.md', 'Defragmentation'],
  },
  {
    name: 'docusaurus-trpc',
    docs: ['www/docs/**/*.{md,mdx}'],
    pages: 90,
    sections: 624,
    // sidebars.ts: `main/skills` is tanstack-intent.mdx, whose front matter says `id: skills`.
    order: [
      'www/docs/main/introduction.mdx',
      'www/docs/main/quickstart.mdx',
      'www/docs/main/tanstack-intent.mdx',
      'www/docs/main/concepts.mdx',
    ],
    titles: {
      'www/docs/server/adapters/fetch.mdx': 'Fetch / Edge Runtimes Adapter',
      'www/docs/main/tanstack-intent.mdx': 'Agent Skills',
    },
    splits: {
      'www/docs/main/tanstack-intent.mdx': [
        ['Agent Skills', 9, 11],
        ['Agent Skills > Setup', 13, 13],
        ['Agent Skills > Setup > 1. Run install', 15, 23],
      ],
    },
    question: 'how do I use tRPC on an edge runtime with the fetch adapter?',
    answer: ['www/docs/server/adapters/fetch.mdx', 'How to use tRPC server with an edge runtime'],
  },
  {
    name: 'mdbook-api-guidelines',
    docs: ['src/**/*.md'],
    // SUMMARY.md is the book's navigation, not a page.
    pages: 14,
    sections: 98,
    order: ['src/about.md', 'src/checklist.md', 'src/naming.md', 'src/interoperability.md', 'src/macros.md'],
    titles: { 'src/about.md': 'Rust API Guidelines', 'src/naming.md': 'Naming' },
    splits: {
      'src/naming.md': [
        ['Naming', 1, 4],
        ['Naming > Casing conforms to RFC 430 (C-CASE)', 5, 41],
        ['Naming > Casing conforms to RFC 430 (C-CASE) > Examples from the standard library', 43, 48],
        ['Naming > Ad-hoc conversions follow `as_`, `to_`, `into_` conventions (C-CONV)', 49, 118],
      ],
    },
    question: 'how should conversion methods be named with as_, to_ and into_ prefixes?',
    answer: ['src/naming.md', 'Ad-hoc conversions follow `as_`, `to_`, `into_` conventions (C-CONV)'],
  },
  {
    name: 'sphinx-requests',
    docs: ['docs/**/*.rst'],
    pages: 15,
    sections: 118,
    // index.rst's toctrees, depth first.
    order: [
      'docs/index.rst',
      'docs/user/install.rst',
      'docs/user/quickstart.rst',
      'docs/user/advanced.rst',
      'docs/user/authentication.rst',
      'docs/community/recommended.rst',
    ],
    titles: { 'docs/index.rst': 'Requests: HTTP for Humans™', 'docs/user/advanced.rst': 'Advanced Usage' },
    splits: {
      'docs/user/advanced.rst': [
        ['Advanced Usage', 3, 6],
        ['Advanced Usage > Session Objects', 10, 83],
        ['Advanced Usage > Request and Response Objects', 87, 117],
      ],
    },
    question: 'how do I persist cookies across requests with a session?',
    answer: ['docs/user/advanced.rst', 'Session Objects'],
  },
  {
    name: 'antora-asciidoctor',
    docs: ['docs/modules/*/pages/**/*.adoc'],
    pages: 78,
    sections: 436,
    // The ROOT module's index is the start page, then the nav files antora.yml lists.
    order: [
      'docs/modules/ROOT/pages/index.adoc',
      'docs/modules/ROOT/pages/features.adoc',
      'docs/modules/ROOT/pages/whats-new.adoc',
      'docs/modules/install/pages/index.adoc',
    ],
    titles: {
      'docs/modules/ROOT/pages/index.adoc': 'Asciidoctor Documentation',
      'docs/modules/api/pages/convert-strings.adoc': 'Load and Convert Strings Using the API',
    },
    splits: {
      'docs/modules/api/pages/convert-strings.adoc': [
        ['Load and Convert Strings Using the API', 1, 5],
        ['Load and Convert Strings Using the API > Load an AsciiDoc string', 7, 31],
        ['Load and Convert Strings Using the API > Convert an AsciiDoc string', 33, 61],
      ],
    },
    question: 'how do I convert an AsciiDoc string to HTML with the API?',
    answer: ['docs/modules/api/pages/convert-strings.adoc', 'Convert an AsciiDoc string'],
  },
  {
    name: 'gitbook-laravel-translatable',
    docs: ['docs/**/*.md'],
    pages: 15,
    sections: 169,
    order: ['docs/README.md', 'docs/issues.md', 'docs/changelog.md', 'docs/faq.md', 'docs/installation.md'],
    titles: { 'docs/README.md': 'Introduction', 'docs/package/fallback-locale.md': 'Fallback locale' },
    splits: {
      'docs/package/fallback-locale.md': [
        ['Fallback locale', 1, 1],
        ['Fallback locale > App wide', 3, 45],
        ['Fallback locale > per Model', 47, 56],
      ],
    },
    question: 'how do I configure the fallback locale?',
    answer: ['docs/package/fallback-locale.md', 'App wide'],
  },
  {
    name: 'mkdocs-rook',
    // 61 Markdown pages less the two Helm chart pages marked generated at their top (helm-docs'
    // "DO NOT EDIT"): discovery leaves files marked generated out and counts them as such.
    pages: 59,
    sections: 791,
    // Documentation/.pages, then each section's own .pages.
    order: [
      'Documentation/README.md',
      'Documentation/Getting-Started/intro.md',
      'Documentation/Getting-Started/glossary.md',
      'Documentation/Getting-Started/Prerequisites/prerequisites.md',
    ],
    titles: { 'Documentation/Getting-Started/quickstart.md': 'Quickstart' },
    splits: {
      // The generated API reference: HTML headings only.
      'Documentation/CRDs/specification.md': [
        ['', 1, 6],
        ['ceph.rook.io/v1', 7, 44],
        ['ceph.rook.io/v1 > CephBlockPool', 45, 146],
        ['ceph.rook.io/v1 > CephBucketNotification', 147, 260],
      ],
    },
    question: 'CephCOSIDriver deploymentStrategy',
    answer: ['Documentation/CRDs/specification.md', 'CephCOSIDriver'],
  },
  {
    name: 'adr-react-router',
    docs: ['decisions/*.md'],
    pages: 20,
    sections: 203,
    order: ['decisions/0001-use-blocker.md', 'decisions/0001-use-npm-to-manage-npm-dependencies-for-deno-projects.md'],
    titles: { 'decisions/0002-do-not-clone-request.md': 'Do not clone request' },
    splits: {
      'decisions/0002-do-not-clone-request.md': [
        ['Do not clone request', 1, 5],
        ['Do not clone request > Context', 7, 9],
        ['Do not clone request > Decision', 11, 13],
        ['Do not clone request > Consequences', 15, 19],
      ],
    },
    question: 'why do we not clone the request?',
    answer: ['decisions/0002-do-not-clone-request.md', 'Do not clone request'],
  },
];

describe('real documentation layouts: sections, titles, order and answers', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  for (const layout of CASES) {
    describe(layout.name, () => {
      let engine: Engine;
      let state: IndexState;
      let docs: Doc[];
      before(async () => {
        const dir = tempDir(layout.name);
        fs.cpSync(path.join(LAYOUTS, layout.name), dir, { recursive: true });
        engine = new Engine({
          folders: [{ name: layout.name, absPath: dir }],
          embeddings: { provider: 'off' },
          settings: { globs: layout.docs ? { docs: layout.docs } : {} },
        });
        state = await engine.waitForIndex();
        docs = [...state.docs.values()].filter((d) => d.sourceKind === 'catalog_doc');
      });
      after(() => engine.dispose());

      it('reads every page and splits it into the sections a reader sees', () => {
        assert.equal(docs.length, layout.pages);
        assert.equal(
          docs.reduce((n, d) => n + d.sections.length, 0),
          layout.sections,
        );
        for (const [page, expected] of Object.entries(layout.splits)) {
          const doc = docs.find((d) => d.path === page);
          assert.ok(doc, `${page} is read`);
          assert.deepEqual(
            doc.sections.slice(0, expected.length).map((s) => [s.headingPath.join(' > '), s.startLine, s.endLine]),
            expected,
            page,
          );
        }
        assert.deepEqual(
          state.problems.filter((p) => p.severity !== 'info').map((p) => `${p.code} ${p.path}:${p.line}`),
          [],
        );
      });

      it('titles pages by front matter or their first title, in the order the site gives', () => {
        for (const [page, title] of Object.entries(layout.titles))
          assert.equal(docs.find((d) => d.path === page)?.title, title, page);
        assert.deepEqual(
          docs.slice(0, layout.order.length).map((d) => d.path),
          layout.order,
        );
      });

      it(`answers "${layout.question}" from the right page first`, async () => {
        const out = (await callTool(
          createServices({ engine }),
          findTool('workspace_context')!,
          { workspace: layout.name, question: layout.question, limit: 5 },
          { sessionId: 'layouts' },
        )) as ContextOutput;
        const [first] = out.passages;
        assert.deepEqual([first.sourceRef.path, first.headingPath[first.headingPath.length - 1]], layout.answer);
      });
    });
  }
});
