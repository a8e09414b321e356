import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { discoverWorkspace, DiskFileSource } from '../../../../server/src/engine/workspace/discovery';
import { resolveAsOf } from '../../../../server/src/engine/workspace/asOf';
import { GitTreeFileSource } from '../../../../server/src/engine/workspace/gitTreeFileSource';
import { commitAll, git, initRepo, removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

const T1 = 1_600_000_000;
const T2 = 1_650_000_000;

describe('engine/workspace/gitTreeFileSource', () => {
  const sources: GitTreeFileSource[] = [];
  afterEach(async () => {
    await Promise.all(sources.splice(0).map((s) => s.dispose()));
  });
  after(removeTempDirs);

  async function open(...args: Parameters<typeof GitTreeFileSource.open>): Promise<GitTreeFileSource> {
    const source = await GitTreeFileSource.open(...args);
    sources.push(source);
    return source;
  }

  it('lists and reads files as they were at an older commit, not as the working tree has them', async () => {
    const repo = initRepo(tempDir('tree'));
    write(repo, 'AGENTS.md', '# Rules v1\n');
    write(repo, 'catalog-info.yaml', 'kind: Component\nmetadata:\n  name: old\n');
    write(repo, 'src/index.ts', 'export {};\n');
    write(repo, 'node_modules/pkg/README.md', 'vendored');
    git(repo, ['add', '-f', 'node_modules']);
    write(repo, 'docs/big.md', 'x'.repeat(300));
    write(repo, 'docs/logo.md', Buffer.from([0x47, 0x49, 0x46, 0x00, 0x01]));
    const old = commitAll(repo, 'v1', T1);
    write(repo, 'AGENTS.md', '# Rules v2\n');
    write(repo, 'overview.md', '# Added later\n');
    commitAll(repo, 'v2', T2);
    write(repo, 'AGENTS.md', '# Rules, uncommitted\n');

    const folders = [{ name: 'repo', absPath: repo }];
    const asOf = await resolveAsOf(repo, new Date((T1 + 60) * 1000).toISOString());
    assert.deepEqual(asOf, { ok: true, commit: old, commitTime: T1 * 1000 });

    const atOld = await open(folders, [{ absRoot: repo, commit: old }], { maxFileSize: 200 });
    assert.deepEqual(atOld.list(), ['AGENTS.md', 'catalog-info.yaml', 'docs/logo.md']);
    assert.deepEqual(
      atOld.problems.map((p) => `${p.severity} ${p.code} ${p.path}`),
      ['info workspace.too-large docs/big.md'],
    );
    assert.equal(atOld.has('overview.md'), false);
    assert.deepEqual(atOld.entry('AGENTS.md')?.roles, ['agentsMd', 'docs', 'markdown']);
    assert.equal(await atOld.readText('AGENTS.md'), '# Rules v1\n');
    assert.equal(await atOld.readText('catalog-info.yaml'), 'kind: Component\nmetadata:\n  name: old\n');
    assert.equal(await atOld.readText('docs/logo.md'), null);
    assert.equal(await atOld.readText('overview.md'), null);
    assert.deepEqual(
      atOld.problems.slice(1).map((p) => `${p.code} ${p.path}`),
      ['workspace.binary docs/logo.md', 'workspace.not-listed overview.md'],
    );
    assert.equal(atOld.readerCount, 1);

    const atHead = await open(folders, [{ absRoot: repo, commit: 'HEAD' }]);
    assert.deepEqual(atHead.list(), ['AGENTS.md', 'catalog-info.yaml', 'docs/big.md', 'docs/logo.md', 'overview.md']);
    assert.equal(await atHead.readText('AGENTS.md'), '# Rules v2\n');

    const disk = new DiskFileSource(await discoverWorkspace(folders));
    assert.equal(await disk.readText('AGENTS.md'), '# Rules, uncommitted\n');
  });

  it('maps several repositories to workspace paths and reads through one cat-file process per repository', async () => {
    const ws = tempDir('tree-multi');
    const alpha = initRepo(path.join(ws, 'repos', 'alpha'));
    const beta = initRepo(path.join(ws, 'beta'));
    for (let i = 0; i < 40; i++)
      write(alpha, `.context/pages/page-${String(i).padStart(2, '0')}.md`, `alpha page ${i}\n`.repeat(i * 50 + 1));
    write(alpha, 'services/pay/catalog-info.yaml', 'kind: Component');
    write(alpha, 'services/pay/overview.md', '# Pay');
    write(alpha, 'services/ship/overview.md', '# Not a root: no catalog file');
    const alphaHead = commitAll(alpha, 'alpha', T1);
    write(beta, 'AGENTS.md', 'beta rules');
    const betaHead = commitAll(beta, 'beta', T2);
    const other = tempDir('tree-other');
    const folders = [
      { name: 'ws', absPath: ws },
      { name: 'other', absPath: other },
    ];

    const source = await open(folders, [
      { absRoot: alpha, commit: alphaHead },
      { absRoot: beta, commit: betaHead },
    ]);
    const pages = source.list().filter((p) => p.includes('/pages/'));
    assert.equal(pages.length, 40);
    assert.deepEqual(
      source.list().filter((p) => !p.includes('/pages/')),
      [
        'ws/beta/AGENTS.md',
        'ws/repos/alpha/services/pay/catalog-info.yaml',
        'ws/repos/alpha/services/pay/overview.md',
        'ws/repos/alpha/services/ship/overview.md',
      ],
    );
    assert.deepEqual(source.entry('ws/repos/alpha/services/pay/overview.md')?.roles, ['overview', 'docs', 'markdown']);
    assert.deepEqual(source.entry('ws/repos/alpha/services/ship/overview.md')?.roles, ['docs', 'markdown']);

    // Many reads at once are pipelined through the same process and answered in order.
    const texts = await Promise.all([...pages, 'ws/beta/AGENTS.md'].map((p) => source.readText(p)));
    texts.slice(0, 40).forEach((text, i) => assert.equal(text, `alpha page ${i}\n`.repeat(i * 50 + 1)));
    assert.equal(texts[40], 'beta rules');
    assert.equal(source.readerCount, 2);
    assert.equal(source.problems.length, 0);

    await source.dispose();
    assert.equal(await source.readText('ws/beta/AGENTS.md'), null);
    assert.match(source.problems[0].message, /disposed/);
  });

  it('reports a commit that cannot be listed and keeps the other repositories', async () => {
    const ws = tempDir('tree-bad');
    const good = initRepo(path.join(ws, 'good'));
    write(good, 'AGENTS.md', 'good');
    const head = commitAll(good, 'good', T1);
    const empty = initRepo(path.join(ws, 'empty'));
    const folders = [{ name: 'ws', absPath: ws }];
    const source = await open(folders, [
      { absRoot: good, commit: head },
      { absRoot: empty, commit: 'HEAD' },
      { absRoot: good, commit: '--output=x' },
    ]);
    assert.deepEqual(source.list(), ['good/AGENTS.md']);
    assert.deepEqual(
      source.problems.map((p) => `${p.code} ${p.path}`),
      ['git.tree-failed empty', 'git.tree-failed good'],
    );
    assert.equal(await source.readText('good/AGENTS.md'), 'good');
  });
});
