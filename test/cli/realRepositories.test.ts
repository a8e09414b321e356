/**
 * The workspaces people have, read as they are through the built `wsctx`: a documentation
 * folder with only mkdocs.yml (Argo CD's docs, httpx's docs), a service repository whose only
 * documentation is its README (node_exporter), and a Backstage plugin monorepo whose catalog
 * files point at their docs with `techdocs-ref: url:` into the very repository (RoadieHQ's
 * plugins). Every fixture is real public content (test/fixtures/*, SOURCE.txt in each).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { wsctx } from '../helpers/cli';
import { commitAll, initRepo, git, removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

const FIXTURES = path.resolve(__dirname, '../fixtures');

interface IndexJson {
  documents: number;
  sections: number;
  bySourceKind: Record<string, number>;
  entities: number;
  problems: {
    path: string;
    line: number;
    severity: string;
    code: string;
    message: string;
    related?: { path: string; line: number }[];
  }[];
}

interface AskJson {
  passages: {
    folder: string;
    title: string;
    headingPath: string[];
    sourceKind: string;
    entityRefs: string[];
    sourceRef: { path: string };
    score: number;
  }[];
  degraded: string[];
  notice?: string;
}

/** A copy of a fixture in a temp folder (optionally a git repository with a remote). */
function copyFixture(name: string, options: { remote?: string } = {}): string {
  const dir = tempDir(name);
  fs.cpSync(path.join(FIXTURES, name), dir, { recursive: true });
  if (options.remote !== undefined) {
    initRepo(dir);
    git(dir, ['remote', 'add', 'origin', options.remote]);
    commitAll(dir, `Import ${name}`, 1_780_000_000);
  }
  return dir;
}

/** `wsctx index --json`: it leaves its snapshot in the test run's cache folder for {@link askIndexed}. */
function indexJson(...args: string[]): IndexJson {
  const run = wsctx(['index', '--json', ...args]);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as IndexJson;
}

/** `wsctx ask --json --no-cache`: the folder indexed by this very command. */
function ask(question: string, ...args: string[]): AskJson {
  return askJson(['ask', question, '--no-cache', '--json', ...args]);
}

/**
 * `wsctx ask --json` on a folder {@link indexJson} indexed, unchanged since: answered from that
 * index's snapshot, as a person's question after `wsctx index` is, not by indexing the folder again.
 */
function askIndexed(question: string, ...args: string[]): AskJson {
  return askJson(['ask', question, '--json', ...args]);
}

function askJson(args: string[]): AskJson {
  const run = wsctx(args);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as AskJson;
}

describe('the workspaces people have (real repositories, built CLI)', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('reads a documentation folder with only mkdocs.yml (Argo CD) as documentation, every page of it', () => {
    const docs = copyFixture('argocd-docs');
    const index = indexJson('--workspace', docs);
    // 455 pages read through mkdocs.yml's docs_dir; no catalog file was added.
    assert.equal(index.bySourceKind.catalog_doc, 455);
    assert.equal(index.entities, 0);
    assert.ok(index.sections >= 3_600 && index.sections <= 3_800, `${index.sections} sections`);
    assert.deepEqual(
      index.problems.filter((p) => p.code === 'workspace.nothing-indexed'),
      [],
    );

    // The rollback pages first: the command's reference, then the rollback action's permissions
    // ("roll back" meets `rollback`, text/compounds.ts).
    const answer = askIndexed('how do I roll back an application?', '--workspace', docs);
    assert.deepEqual(answer.degraded, []);
    assert.deepEqual(
      answer.passages.slice(0, 4).map((p) => `${p.sourceRef.path} › ${p.headingPath.slice(-1)[0]}`),
      [
        'docs/user-guide/commands/argocd_app_rollback.md › argocd app rollback',
        'docs/user-guide/commands/argocd_app_rollback.md › Options',
        'docs/operator-manual/rbac.md › Enabling Separate Rollback Permission',
        'docs/operator-manual/rbac.md › The `rollback` action',
      ],
    );
    assert.equal(answer.passages[0].sourceKind, 'catalog_doc');
    assert.deepEqual(answer.passages[0].entityRefs, [], 'documentation no entity owns cites none');
  });

  it('reads a docs site in nav order and its README as the repository overview (httpx)', () => {
    const docs = copyFixture('httpx-docs', { remote: 'https://github.com/encode/httpx.git' });
    const index = indexJson('--workspace', docs);
    // The 23 pages of the site and the repository's LICENSE.md, a Markdown page at its root.
    assert.equal(index.bySourceKind.catalog_doc, 24);
    assert.equal(index.bySourceKind.repo_overview, 1);
    const answer = askIndexed('how do I set a timeout on a client?', '--workspace', docs);
    assert.equal(answer.passages[0].sourceRef.path, 'docs/advanced/timeouts.md');
    const readme = askIndexed('HTTPX features HTTP/2 support', '--workspace', docs, '--source-kinds', 'repo_overview');
    assert.deepEqual([...new Set(readme.passages.map((p) => p.sourceRef.path))], ['README.md']);
  });

  it("answers from a service repository's README, its only documentation (node_exporter)", () => {
    const repo = copyFixture('node-exporter-readme', { remote: 'git@github.com:prometheus/node_exporter.git' });
    write(repo, 'main.go', 'package main\n\nfunc main() {}\n');
    const index = indexJson('--workspace', repo);
    assert.deepEqual(index.bySourceKind.repo_overview, 1);
    assert.equal(index.documents, 1);
    const answer = askIndexed('how do I enable the textfile collector?', '--workspace', repo);
    assert.ok(answer.passages.length > 0, answer.notice);
    assert.ok(answer.passages.every((p) => p.sourceRef.path === 'README.md'));
    assert.match(answer.passages[0].headingPath.join(' › '), /Textfile Collector/i);
  });

  describe('a plugin monorepo (RoadieHQ/roadie-backstage-plugins)', () => {
    let repo: string;
    let index: IndexJson;
    before(() => {
      repo = copyFixture('roadie-backstage-plugins', {
        remote: 'git@github.com:RoadieHQ/roadie-backstage-plugins.git',
      });
      index = indexJson('--workspace', repo);
    });

    it('reads each package README as the overview of the entities declared beside it', () => {
      assert.equal(index.bySourceKind.catalog_entity, 23);
      assert.equal(index.bySourceKind.repo_overview, 47);
      const answer = askIndexed(
        'how do I configure the Argo CD plugin to read from several Argo CD instances?',
        '--workspace',
        repo,
        '--source-kinds',
        'repo_overview',
      );
      const first = answer.passages[0];
      assert.match(
        first.sourceRef.path,
        /^plugins\/(frontend|backend)\/backstage-plugin-argo-cd(-backend)?\/README\.md$/,
      );
      const byPath = Object.fromEntries(answer.passages.map((p) => [p.sourceRef.path, p.entityRefs]));
      assert.deepEqual(byPath['plugins/frontend/backstage-plugin-argo-cd/README.md'], [
        'component:default/backstage-plugin-argo-cd',
      ]);
    });

    it('reads a techdocs-ref url: that names this repository from disk, on any host form', () => {
      const answer = askIndexed('releasing the argo cd plugin', '--workspace', repo, '--source-kinds', 'catalog_doc');
      const site = answer.passages.filter((p) =>
        p.sourceRef.path.startsWith('plugins/frontend/backstage-plugin-argo-cd/docs/'),
      );
      assert.ok(site.length > 0, JSON.stringify(answer.passages.map((p) => p.sourceRef.path)));
      assert.deepEqual(site[0].entityRefs, ['component:default/backstage-plugin-argo-cd']);
      // Its annotation is read, not reported as out of the workspace.
      assert.ok(!index.problems.some((p) => p.path === 'plugins/frontend/backstage-plugin-argo-cd/catalog-info.yaml'));
    });

    it('reports a url: to another repository once per repository, and a missing folder in this one', () => {
      const urls = index.problems.filter((p) => p.code === 'techdocs.url-ref');
      assert.deepEqual(
        urls.map((p) => [p.path, p.line]),
        [
          ['plugins/frontend/backstage-plugin-github-pull-requests/catalog-info.yaml', 11],
          ['plugins/frontend/backstage-plugin-jira/catalog-info.yaml', 11],
        ],
      );
      assert.match(urls[1].message, /github\.com\/roadiehq\/backstage-plugin-jira/);
      const missing = index.problems.filter((p) => p.code === 'techdocs.missing-dir');
      assert.deepEqual(
        missing.map((p) => p.path),
        ['plugins/backend/backstage-plugin-argo-cd-backend/catalog-info.yaml'],
      );
      assert.match(missing[0].message, /'plugins\/backend\/backstage-plugin-argo-cd'/);
    });

    it('without a remote naming it, the same url: refs stay unread and are grouped by repository', () => {
      const exported = copyFixture('roadie-backstage-plugins');
      const plain = indexJson('--workspace', exported);
      const urls = plain.problems.filter((p) => p.code === 'techdocs.url-ref');
      assert.equal(urls.length, 3, urls.map((p) => p.message).join('\n'));
      const own = urls.find((p) => /roadiehq\/roadie-backstage-plugins/.test(p.message))!;
      assert.match(
        own.message,
        /^TechDocs of 2 entities \(component:default\/backstage-plugin-argo-cd-backend, component:default\/backstage-plugin-argo-cd\)/,
      );
      assert.equal(own.related?.length, 1);
    });

    it("serves the packages' READMEs to the library tools where .wsctx.yaml makes them the library", () => {
      const configured = copyFixture('roadie-backstage-plugins', {
        remote: 'git@github.com:RoadieHQ/roadie-backstage-plugins.git',
      });
      write(configured, '.wsctx.yaml', "sources:\n  library: ['plugins/**/README.md']\n");
      // toc indexes the folder and keeps its snapshot in the test run's cache; search answers from it.
      const toc = wsctx(['toc', '--json', '--workspace', configured]);
      assert.equal(toc.code, 0, toc.stderr);
      const titles = (
        JSON.parse(toc.stdout) as { namespaces: { documents: { title: string }[] }[] }
      ).namespaces.flatMap((n) => n.documents.map((d) => d.title));
      assert.equal(titles.length, 44, 'every plugin README but none outside plugins/');
      assert.ok(titles.includes('Argo CD Plugin for Backstage'));
      const search = wsctx([
        'search',
        'add the argo-cd project dependency to a Backstage app',
        '--json',
        '--workspace',
        configured,
      ]);
      assert.equal(search.code, 0, search.stderr);
      const documents = (
        JSON.parse(search.stdout) as { documents: { title: string; sections: { heading: string }[] }[] }
      ).documents;
      assert.equal(documents[0].title, 'Argo CD Plugin for Backstage');
      assert.ok(
        documents[0].sections.some((s) => s.heading === 'How to add argo-cd project dependency to Backstage app'),
      );
    });

    it('reads docs folders and mkdocs sites no entity points at, owned by the package they sit in', () => {
      const answer = askIndexed(
        'bitbucket pull request plugin releasing',
        '--workspace',
        repo,
        '--source-kinds',
        'catalog_doc',
      );
      const bitbucket = answer.passages.find((p) =>
        p.sourceRef.path.startsWith('plugins/frontend/backstage-plugin-bitbucket-pullrequest/docs/'),
      );
      // No catalog file in that package: its docs belong to the nearest one above, the root's component
      // (its Location owns nothing).
      assert.deepEqual(bitbucket?.entityRefs, ['component:default/roadie-backstage-plugins']);
      const jira = askIndexed('jira plugin docs', '--workspace', repo, '--source-kinds', 'catalog_doc').passages.find(
        (p) => p.sourceRef.path.startsWith('plugins/frontend/backstage-plugin-jira/docs/'),
      );
      assert.deepEqual(jira?.entityRefs, ['component:default/backstage-plugin-jira']);
    });
  });

  it('says a folder that yields nothing is not fine: index warns with what to do, doctor fails, answers say index-empty', () => {
    const notes = tempDir('notes');
    write(notes, 'guides/deploying.md', '# Deploying\n\nRun the pipeline, then watch the canary for ten minutes.\n');
    // Read as it is: a Markdown page is documentation wherever it sits.
    assert.equal(ask('how do we deploy?', '--workspace', notes).passages[0].sourceRef.path, 'guides/deploying.md');
    // A sources.docs narrowed to a folder the notes do not have leaves nothing to read, and says so.
    write(notes, '.wsctx.yaml', "sources:\n  docs: ['docs/**']\n  markdown: []\n");
    const index = wsctx(['index', '--no-cache', '--workspace', notes]);
    assert.equal(index.code, 0, index.stderr);
    assert.match(
      index.stdout.split('\n').slice(0, 4).join('\n'),
      /warning: Nothing in .* is indexed: 1 documentation file \(guides\/deploying\.md: not in sources\.docs\) is not read .*remove sources\.docs, or widen it, e\.g\. "sources: \{ docs: \['\*\*\/\*\.md'\] \}"/,
    );
    const doctor = wsctx(['doctor', '--workspace', notes]);
    assert.equal(doctor.code, 1, doctor.stdout);
    assert.match(doctor.stdout, /fail\s+folder wsctx-notes-\w+\s+Nothing in .* is indexed/);
    assert.match(
      doctor.stdout,
      /docs wsctx-notes-\w+\s+read 0 of 1 documentation file; not read: 1 not in sources\.docs\n/,
    );
    const answer = ask('how do we deploy?', '--workspace', notes);
    assert.deepEqual(answer.degraded, ['index-empty']);
    assert.match(answer.notice ?? '', /^Nothing is indexed/);

    // The fix the warning names works.
    write(notes, '.wsctx.yaml', "sources:\n  docs: ['**/*.md']\n");
    const fixed = ask('how do we deploy?', '--workspace', notes);
    assert.equal(fixed.passages[0].sourceRef.path, 'guides/deploying.md');
    assert.equal(wsctx(['doctor', '--workspace', notes]).code, 0);
  });
});
