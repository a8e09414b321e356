import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  discoverWorkspace,
  DiskFileSource,
  type WorkspaceDiscovery,
} from '../../../../server/src/engine/workspace/discovery';
import { commitAll, git, initRepo, removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

const paths = (d: WorkspaceDiscovery): string[] => d.files.map((f) => f.path);
const problems = (d: WorkspaceDiscovery): string[] => d.problems.map((p) => `${p.severity} ${p.code} ${p.path}`);

describe('engine/workspace/discovery', () => {
  after(removeTempDirs);

  it('applies .gitignore at the root and nested (with negation) plus .git/info/exclude, as git does', async () => {
    const root = initRepo(tempDir('ignore'));
    write(root, '.gitignore', 'build/\nsecret.md\ndocs/*.draft.md\n');
    write(root, 'docs/.gitignore', '!keep.draft.md\nlocal.md\n');
    write(root, 'other/.gitignore', '*.yaml\n');
    write(root, '.git/info/exclude', 'excluded.md\n');
    for (const rel of [
      'README.md',
      'local.md',
      'secret.md',
      'excluded.md',
      'catalog-info.yaml',
      'build/out.md',
      'docs/a.md',
      'docs/x.draft.md',
      'docs/keep.draft.md',
      'docs/local.md',
      'other/catalog-info.yaml',
      'other/notes.md',
      'src/index.ts',
    ])
      write(root, rel, `# ${rel}\n`);

    const found = await discoverWorkspace([{ name: 'repo', absPath: root }]);
    const expected = [
      'README.md',
      'catalog-info.yaml',
      'docs/a.md',
      'docs/keep.draft.md',
      'local.md',
      'other/notes.md',
    ];
    assert.deepEqual(paths(found), expected);
    // The same files git itself considers not ignored (minus non-candidates such as src/index.ts).
    const gitView = git(root, ['ls-files', '--others', '--cached', '--exclude-standard', '-z'])
      .split('\0')
      .filter((p) => p.endsWith('.md') || p.endsWith('.yaml'))
      .sort();
    assert.deepEqual(gitView, expected);
    assert.deepEqual(found.problems, []);
  });

  it('never enters node_modules or .git and honours extra ignore globs', async () => {
    const root = tempDir('nm');
    write(root, 'AGENTS.md', 'root');
    write(root, 'node_modules/pkg/README.md', 'x');
    write(root, 'packages/a/node_modules/dep/AGENTS.md', 'x');
    write(root, 'packages/a/AGENTS.md', 'a');
    write(root, '.git/notes.md', 'x');
    write(root, 'test/fixtures/AGENTS.md', 'fixture');
    write(root, 'test/fixtures/deep/catalog-info.yaml', 'fixture');
    write(root, 'drafts/x.md', 'draft');

    const plain = await discoverWorkspace([{ name: 'r', absPath: root }]);
    assert.deepEqual(paths(plain), [
      'AGENTS.md',
      'drafts/x.md',
      'packages/a/AGENTS.md',
      'test/fixtures/AGENTS.md',
      'test/fixtures/deep/catalog-info.yaml',
    ]);

    const pruned = await discoverWorkspace([{ name: 'r', absPath: root }], {
      globs: { ignore: ['**/fixtures/**', 'drafts/*.md'] },
    });
    assert.deepEqual(paths(pruned), ['AGENTS.md', 'packages/a/AGENTS.md']);
  });

  it('skips files over the size cap with an info Problem (default 2 MiB, configurable)', async () => {
    const root = tempDir('size');
    write(root, 'docs/exact.md', 'x'.repeat(100));
    write(root, 'docs/over.md', 'x'.repeat(101));
    write(root, 'docs/huge.md', 'y'.repeat(2 * 1024 * 1024 + 1));
    write(root, 'docs/max.md', 'z'.repeat(2 * 1024 * 1024));

    const capped = await discoverWorkspace([{ name: 'r', absPath: root }], { maxFileSize: 100 });
    assert.deepEqual(paths(capped), ['docs/exact.md']);
    assert.deepEqual(problems(capped), [
      'info workspace.too-large docs/huge.md',
      'info workspace.too-large docs/max.md',
      'info workspace.too-large docs/over.md',
    ]);

    const byDefault = await discoverWorkspace([{ name: 'r', absPath: root }]);
    assert.deepEqual(paths(byDefault), ['docs/exact.md', 'docs/max.md', 'docs/over.md']);
    assert.deepEqual(problems(byDefault), ['info workspace.too-large docs/huge.md']);
    assert.equal(byDefault.files.find((f) => f.path === 'docs/max.md')!.size, 2 * 1024 * 1024);
  });

  it('skips binary files (a NUL byte in the first 8 KiB) with an info Problem', async () => {
    const root = tempDir('bin');
    write(root, 'docs/image.md', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    write(root, 'docs/late-nul.md', Buffer.concat([Buffer.alloc(8192, 0x61), Buffer.from([0])]));
    write(root, 'docs/empty.md', '');
    const found = await discoverWorkspace([{ name: 'r', absPath: root }]);
    assert.deepEqual(paths(found), ['docs/empty.md', 'docs/late-nul.md']);
    assert.deepEqual(problems(found), ['info workspace.binary docs/image.md']);
    assert.match(found.problems[0].message, /NUL byte/);
  });

  it('follows symlinks without looping and lists each file once', async () => {
    const root = tempDir('loop');
    const outside = tempDir('outside');
    write(outside, 'notes.md', 'outside');
    write(root, 'AGENTS.md', 'agents');
    write(root, 'docs/guide.md', 'guide');
    fs.symlinkSync('..', path.join(root, 'docs', 'loop'), 'dir'); // docs/loop -> the root
    fs.symlinkSync(path.join(root, 'docs'), path.join(root, 'docs-again'), 'dir'); // a second way into docs
    fs.symlinkSync(outside, path.join(root, 'shared'), 'dir');
    fs.symlinkSync('AGENTS.md', path.join(root, 'CLAUDE.md'), 'file');
    fs.symlinkSync('missing.md', path.join(root, 'docs', 'broken.md'), 'file');

    const found = await discoverWorkspace([{ name: 'r', absPath: root }]);
    // `shared` leads out of the workspace: not followed, and said.
    assert.deepEqual(paths(found), ['AGENTS.md', 'CLAUDE.md', 'docs/guide.md']);
    assert.deepEqual(found.files.find((f) => f.path === 'CLAUDE.md')!.roles, ['claudeMd', 'docs', 'markdown']);
    assert.deepEqual(problems(found), [
      'info workspace.broken-symlink docs/broken.md',
      'warning workspace.symlink-outside shared',
    ]);
  });

  it('prefixes paths with the folder name only in a multi-root workspace', async () => {
    const api = tempDir('api');
    const web = tempDir('web');
    write(api, 'overview.md', '# API');
    write(web, '.github/copilot-instructions.md', 'be nice');
    write(web, 'src/app.ts', 'code');

    const multi = await discoverWorkspace([
      { name: 'api', absPath: api },
      { name: 'web', absPath: web },
    ]);
    assert.deepEqual(paths(multi), ['api/overview.md', 'web/.github/copilot-instructions.md']);
    assert.deepEqual(
      multi.files.map((f) => [f.folder, f.root]),
      [
        ['api', 'api'],
        ['web', 'web'],
      ],
    );
    assert.deepEqual(
      multi.roots.map((r) => [r.root, r.folder, r.absRoot]),
      [
        ['api', 'api', api],
        ['web', 'web', web],
      ],
    );

    const single = await discoverWorkspace([{ name: 'web', absPath: web }]);
    assert.deepEqual(paths(single), ['.github/copilot-instructions.md']);
    assert.deepEqual(single.files[0].roles, ['copilotInstructions', 'docs', 'markdown']);
    assert.equal(single.roots[0].root, '');
  });

  it('finds several git repositories inside one folder and attributes files to each', async () => {
    const ws = tempDir('multi');
    // The folder ignores its clones and all YAML; neither rule reaches into a nested work tree.
    write(ws, '.gitignore', 'repos/\n*.yaml\n');
    write(ws, 'AGENTS.md', 'workspace rules');
    write(ws, 'team.yaml', 'ignored by the folder rules');
    const alpha = initRepo(path.join(ws, 'repos', 'alpha'));
    const beta = initRepo(path.join(ws, 'repos', 'beta'));
    write(alpha, 'overview.md', '# Alpha');
    write(alpha, 'catalog-info.yaml', 'kind: Component');
    write(alpha, 'docs/overview.md', 'not at a root');
    write(beta, 'OVERVIEW.md', '# Beta');
    write(beta, '.context/rules/style.md', 'rule');
    commitAll(alpha, 'alpha', 1_600_000_000);

    const found = await discoverWorkspace([{ name: 'ws', absPath: ws }]);
    assert.deepEqual(
      found.files.map((f) => [f.path, f.root, f.roles.join(',')]),
      [
        ['AGENTS.md', '', 'agentsMd,docs,markdown'],
        ['repos/alpha/catalog-info.yaml', 'repos/alpha', 'catalog,catalogTargets'],
        ['repos/alpha/docs/overview.md', 'repos/alpha', 'docs,markdown'],
        ['repos/alpha/overview.md', 'repos/alpha', 'overview,docs,markdown'],
        ['repos/beta/.context/rules/style.md', 'repos/beta', 'library,docs,markdown'],
        ['repos/beta/OVERVIEW.md', 'repos/beta', 'overview,docs,markdown'],
      ],
    );
    assert.deepEqual(
      found.roots.map((r) => [r.root, r.reasons.join(','), r.git, r.gitAbsRoot]),
      [
        ['', 'folder', false, null],
        ['repos/alpha', 'git,exported', true, alpha],
        ['repos/beta', 'git', true, beta],
      ],
    );
  });

  it('treats a directory holding catalog-info.yaml and overview.md as an exported repository root', async () => {
    const root = initRepo(tempDir('exported'));
    write(root, 'services/pay/catalog-info.yml', 'kind: Component');
    write(root, 'services/pay/Overview.md', '# Pay');
    write(root, 'services/pay/.github/copilot-instructions.md', 'pay rules');
    write(root, 'services/ship/catalog-info.yaml', 'kind: Component'); // no overview: not a root
    write(root, 'services/ship/overview.md.bak', 'not markdown');

    const found = await discoverWorkspace([{ name: 'r', absPath: root }]);
    assert.deepEqual(
      found.roots.map((r) => [r.root, r.reasons.join(','), r.git, r.gitAbsRoot]),
      [
        ['', 'folder,git', true, root],
        ['services/pay', 'exported', true, root],
      ],
    );
    assert.deepEqual(
      found.files.map((f) => [f.path, f.root, f.roles.join(',')]),
      [
        ['services/pay/.github/copilot-instructions.md', 'services/pay', 'copilotInstructions,docs,markdown'],
        ['services/pay/Overview.md', 'services/pay', 'overview,docs,markdown'],
        ['services/pay/catalog-info.yml', 'services/pay', 'catalog,catalogTargets'],
        ['services/ship/catalog-info.yaml', '', 'catalog,catalogTargets'],
      ],
    );
  });

  it('indexes a folder without git as a plain root', async () => {
    const root = tempDir('nogit');
    write(root, 'epics/2024/checkout.md', '# Checkout');
    write(root, 'billing.epic.md', '# Billing');
    const found = await discoverWorkspace([{ name: 'plain', absPath: root }]);
    assert.deepEqual(found.roots, [
      { root: '', folder: 'plain', absRoot: root, reasons: ['folder'], git: false, gitAbsRoot: null },
    ]);
    assert.deepEqual(
      found.files.map((f) => [f.path, f.roles.join(',')]),
      [
        ['billing.epic.md', 'epics,docs,markdown'],
        ['epics/2024/checkout.md', 'epics,docs,markdown'],
      ],
    );
    const stat = fs.statSync(path.join(root, 'billing.epic.md'));
    assert.deepEqual(found.files[0], {
      path: 'billing.epic.md',
      absPath: path.join(root, 'billing.epic.md'),
      folder: 'plain',
      size: 9,
      mtimeMs: stat.mtimeMs,
      root: '',
      roles: ['epics', 'docs', 'markdown'],
    });
  });

  it('reads a folder opened inside a git work tree with the rules above it', async () => {
    const repo = initRepo(tempDir('mono'));
    write(repo, '.gitignore', 'services/billing/generated/\n');
    write(repo, 'services/.gitignore', '*.tmp.md\n');
    write(repo, 'services/billing/overview.md', '# Billing');
    write(repo, 'services/billing/notes.tmp.md', 'scratch');
    write(repo, 'services/billing/generated/api.md', 'generated');
    const folder = path.join(repo, 'services', 'billing');
    const found = await discoverWorkspace([{ name: 'billing', absPath: folder }]);
    assert.deepEqual(paths(found), ['overview.md']);
    assert.deepEqual(
      found.roots.map((r) => [r.root, r.reasons.join(','), r.git, r.gitAbsRoot]),
      [['', 'folder', true, folder]],
    );
  });

  it('reports an unreadable directory or folder as a Problem instead of throwing', async function () {
    const missing = path.join(tempDir('gone'), 'does-not-exist');
    const gone = await discoverWorkspace([{ name: 'gone', absPath: missing }]);
    // A single-root workspace's folder is the path ''.
    assert.deepEqual(problems(gone), ['warning workspace.unreadable-folder ']);
    assert.deepEqual(
      gone.roots.map((r) => r.root),
      [''],
    );

    const root = tempDir('locked');
    write(root, 'AGENTS.md', 'ok');
    write(root, 'locked/AGENTS.md', 'hidden');
    fs.chmodSync(root, 0o755);
    fs.chmodSync(path.join(root, 'locked'), 0o000);
    try {
      const result =
        process.getuid?.() === 0 ? discoverAsNobody(root) : await discoverWorkspace([{ name: 'r', absPath: root }]);
      assert.deepEqual(paths(result), ['AGENTS.md']);
      assert.deepEqual(problems(result), ['warning workspace.unreadable-dir locked']);
    } finally {
      fs.chmodSync(path.join(root, 'locked'), 0o755);
    }
  });

  it('keeps known files unchanged since an earlier walk on a stat alone, and checks the others in full', async () => {
    const root = tempDir('known');
    write(root, 'a.md', '# A\n');
    write(root, 'b.md', '# B\n');
    write(root, 'c.md', '# C\n');
    const stamp = 1_700_000_000;
    fs.utimesSync(path.join(root, 'a.md'), stamp, stamp);
    const folders = [{ name: 'ws', absPath: root }];
    const first = await discoverWorkspace(folders);
    const byPath = new Map(first.files.map((f) => [f.path, f]));
    // b.md turns binary with a new mtime; c.md is listed with a stale size (as if edited since).
    fs.writeFileSync(path.join(root, 'b.md'), Buffer.from([0x23, 0x00, 0x42]));
    const future = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, 'b.md'), future, future);
    const known = (p: string) => (p === 'c.md' ? { ...byPath.get(p)!, size: 999 } : byPath.get(p));
    const again = await discoverWorkspace(folders, { known });
    const plain = await discoverWorkspace(folders);
    assert.deepEqual(again, plain);
    assert.deepEqual(paths(again), ['a.md', 'c.md']);
    assert.deepEqual(problems(again), ['info workspace.binary b.md']);
    // The stat is all a known file costs: same size and mtime, it is not opened (git's rule).
    const a = path.join(root, 'a.md');
    fs.writeFileSync(a, Buffer.from([0x23, 0x00, 0x41, 0x0a]));
    fs.utimesSync(a, stamp, stamp);
    assert.deepEqual(paths(await discoverWorkspace(folders, { known })), ['a.md', 'c.md']);
    assert.deepEqual(paths(await discoverWorkspace(folders)), ['c.md']);
    // A known file at another absolute path (another folder layout) is checked in full too.
    const moved = await discoverWorkspace(folders, {
      known: (p) => (byPath.has(p) ? { ...byPath.get(p)!, absPath: '/elsewhere' } : undefined),
    });
    assert.deepEqual(moved, await discoverWorkspace(folders));
  });

  it('DiskFileSource reads listed files as UTF-8 and records read failures', async () => {
    const root = tempDir('disk');
    write(root, 'AGENTS.md', '\ufeff# Rules\nüber\n');
    write(root, 'CLAUDE.md', 'claude');
    const found = await discoverWorkspace([{ name: 'r', absPath: root }]);
    const source = new DiskFileSource(found);
    assert.deepEqual(source.list(), ['AGENTS.md', 'CLAUDE.md']);
    assert.equal(source.has('AGENTS.md'), true);
    assert.equal(source.has('src/x.ts'), false);
    assert.equal(await source.readText('AGENTS.md'), '# Rules\nüber\n');
    fs.rmSync(path.join(root, 'CLAUDE.md'));
    assert.equal(await source.readText('CLAUDE.md'), null);
    assert.equal(await source.readText('nope.md'), null);
    assert.deepEqual(
      source.problems.map((p) => `${p.code} ${p.path}`),
      ['workspace.read-failed CLAUDE.md', 'workspace.not-listed nope.md'],
    );
  });

  it('keeps every documentation file wherever it sits, and lists each one it leaves out with why', async () => {
    const root = initRepo(tempDir('docs-by-content'));
    write(root, '.gitignore', 'scratch.md\n');
    const pages = [
      'Documentation/content/en/docs/concepts/pods.md',
      'Documentation/_index.md',
      'website/docs/intro.mdx',
      'doc/source/index.rst',
      'modules/ROOT/pages/index.adoc',
      'CONTRIBUTING.md',
      'adr/0001-record.md',
      'build/README.md',
    ];
    for (const rel of pages) write(root, rel, `# ${rel}\n`);
    write(root, 'scratch.md', '# local notes\n');
    write(root, 'vendor/github.com/acme/lib/README.md', '# lib\n');
    write(root, 'vendor/github.com/acme/lib/mkdocs.yml', 'site_name: lib\n');
    write(root, '.github/ISSUE_TEMPLATE/bug.md', '---\nname: Bug\n---\n');
    write(root, '.github/pull_request_template.md', '## What\n');
    write(root, 'site/index.html', '<html></html>');
    write(root, 'site/search.md', '# built copy\n');
    write(root, 'docs/api.md', '<!-- Code generated by gen-docs. DO NOT EDIT. -->\n# API\n');
    write(root, 'AGENTS.md', '<!-- Generated by ruler. Do not edit. -->\n# Rules\n');
    const found = await discoverWorkspace([{ name: 'r', absPath: root }]);
    assert.deepEqual(
      found.files.map((f) => [f.path, f.roles.join(','), f.generated ?? false]),
      [
        ['AGENTS.md', 'agentsMd', true],
        ['CONTRIBUTING.md', 'docs,markdown', false],
        ['Documentation/_index.md', 'docs,markdown', false],
        ['Documentation/content/en/docs/concepts/pods.md', 'docs,markdown', false],
        ['adr/0001-record.md', 'docs,markdown', false],
        ['build/README.md', 'overview,docs,markdown', false],
        ['doc/source/index.rst', 'docs', false],
        ['modules/ROOT/pages/index.adoc', 'docs', false],
        // A vendored site is no site of this repository; its YAML may still hold entities.
        ['vendor/github.com/acme/lib/mkdocs.yml', 'catalogTargets', false],
        ['website/docs/intro.mdx', 'docs', false],
      ],
    );
    assert.deepEqual(
      found.skipped.map((s) => [s.path, s.reason]),
      [
        ['.github/ISSUE_TEMPLATE/bug.md', 'template'],
        ['.github/pull_request_template.md', 'template'],
        ['AGENTS.md', 'generated'],
        ['docs/api.md', 'generated'],
        ['scratch.md', 'ignored'],
        ['site/search.md', 'generated'],
        ['vendor/github.com/acme/lib/README.md', 'vendored'],
      ],
    );

    // A second walk that knows the files from the first (one stat each) says the same.
    const known = new Map(found.files.map((f) => [f.path, f]));
    const again = await discoverWorkspace([{ name: 'r', absPath: root }], { known: (p) => known.get(p) });
    assert.deepEqual(again.files, found.files);
    assert.deepEqual(again.skipped, found.skipped);

    // A narrowed sources.docs leaves the rest out, and says so.
    const narrowed = await discoverWorkspace([{ name: 'r', absPath: root }], {
      globs: { docs: ['Documentation/**'], markdown: [] },
    });
    assert.deepEqual(
      narrowed.skipped.filter((s) => s.reason === 'not-in-sources').map((s) => s.path),
      [
        'CONTRIBUTING.md',
        'adr/0001-record.md',
        'doc/source/index.rst',
        'docs/api.md',
        'modules/ROOT/pages/index.adoc',
        'website/docs/intro.mdx',
      ],
    );
  });
});

/** Runs discovery in a child process as `nobody`, since root reads any directory. */
function discoverAsNobody(root: string): WorkspaceDiscovery {
  const modulePath = path.resolve(__dirname, '../../../../server/src/engine/workspace/discovery.ts');
  const script = `require(${JSON.stringify(modulePath)})
  .discoverWorkspace([{ name: 'r', absPath: ${JSON.stringify(root)} }])
  .then((result) => process.stdout.write(JSON.stringify(result)));`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: path.resolve(__dirname, '../../../..'),
    uid: 65534,
    gid: 65534,
    encoding: 'utf8',
    env: { ...process.env, HOME: '/tmp' },
  });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout) as WorkspaceDiscovery;
}
