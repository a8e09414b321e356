import assert from 'node:assert/strict';
import { resolveTechDocsUrl } from '../../../../server/src/engine/sources/techdocsUrl';
import { parseRemoteList, repositoryId, type RepositoryRemotes } from '../../../../server/src/engine/workspace/remotes';

/** Folders on disk in the workspace the URLs resolve against. */
const DIRS = new Set(['plugins/argo', 'plugins/argo/docs', 'docs', 'apps/web/site', 'team/a/docs', 'sub/docs']);
const exists = (dir: string) => DIRS.has(dir);

function remotes(id: string, root = '', prefix = ''): RepositoryRemotes[] {
  return [{ root, prefix, repositories: [id] }];
}

describe('sources/techdocsUrl and workspace/remotes', () => {
  it('names a repository the same from its clone URLs and its browse URLs', () => {
    const cases: [string, string | null][] = [
      ['git@github.com:RoadieHQ/roadie-backstage-plugins.git', 'github.com/roadiehq/roadie-backstage-plugins'],
      ['https://github.com/RoadieHQ/roadie-backstage-plugins', 'github.com/roadiehq/roadie-backstage-plugins'],
      ['ssh://git@github.com:22/org/repo.git', 'github.com/org/repo'],
      ['https://user:token@gitlab.example.com/group/sub/repo.git', 'gitlab.example.com/group/sub/repo'],
      ['git@ssh.dev.azure.com:v3/Contoso/Platform/docs-repo', 'dev.azure.com/contoso/platform/_git/docs-repo'],
      [
        'https://Contoso@dev.azure.com/Contoso/Platform/_git/docs-repo',
        'dev.azure.com/contoso/platform/_git/docs-repo',
      ],
      ['https://contoso.visualstudio.com/Platform/_git/docs-repo', 'dev.azure.com/contoso/platform/_git/docs-repo'],
      ['https://bitbucket.example.com/scm/PLAT/docs.git', 'bitbucket.example.com/projects/plat/repos/docs'],
      ['/srv/git/repo.git', null],
      ['file:///srv/git/repo.git', null],
      ['', null],
    ];
    for (const [url, id] of cases) assert.equal(repositoryId(url), id, url);
    assert.deepEqual(
      parseRemoteList(
        'remote.origin.url\ngit@github.com:a/b.git\0remote.mirror.url\nhttps://github.com/A/B\0remote.up.url\nhttps://gitlab.com/x/y\0',
      ),
      ['github.com/a/b', 'gitlab.com/x/y'],
    );
  });

  it('reads browse URLs of every host family from disk, with any ref', () => {
    const cases: [string, RepositoryRemotes[], string][] = [
      [
        'https://github.com/RoadieHQ/roadie-backstage-plugins/tree/main/plugins/argo',
        remotes('github.com/roadiehq/roadie-backstage-plugins'),
        'plugins/argo',
      ],
      [
        'https://github.com/org/repo/blob/v1.2.0/plugins/argo/mkdocs.yml',
        remotes('github.com/org/repo'),
        'plugins/argo',
      ],
      [
        'https://github.com/org/repo/tree/feature/new-docs/plugins/argo',
        remotes('github.com/org/repo'),
        'plugins/argo',
      ],
      ['https://github.com/org/repo', remotes('github.com/org/repo'), ''],
      ['https://github.com/org/repo/tree/main', remotes('github.com/org/repo'), ''],
      [
        'https://gitlab.example.com/group/sub/repo/-/tree/main/apps/web/site',
        remotes('gitlab.example.com/group/sub/repo'),
        'apps/web/site',
      ],
      ['https://bitbucket.org/team/repo/src/main/docs', remotes('bitbucket.org/team/repo'), 'docs'],
      [
        'https://bitbucket.example.com/projects/PLAT/repos/docs/browse/team/a/docs?at=refs%2Fheads%2Fmain',
        remotes('bitbucket.example.com/projects/plat/repos/docs'),
        'team/a/docs',
      ],
      [
        'https://dev.azure.com/Contoso/Platform/_git/docs-repo?path=/sub/docs&version=GBmain',
        remotes('dev.azure.com/contoso/platform/_git/docs-repo'),
        'sub/docs',
      ],
      ['https://gitea.example.com/org/repo/src/branch/main/docs', remotes('gitea.example.com/org/repo'), 'docs'],
    ];
    for (const [url, known, dir] of cases)
      assert.deepEqual(resolveTechDocsUrl(url, known, exists), { kind: 'local', dir }, url);
  });

  it('maps into the served folder: a repository served from a subfolder, or under a multi-root prefix', () => {
    // The served folder is the work tree's `plugins/` (git's prefix), under the folder name `ws`.
    const served = remotes('github.com/org/repo', 'ws', 'plugins/');
    assert.deepEqual(
      resolveTechDocsUrl('https://github.com/org/repo/tree/main/plugins/argo', served, (d) => d === 'ws/argo'),
      { kind: 'local', dir: 'ws/argo' },
    );
    assert.deepEqual(
      resolveTechDocsUrl('https://github.com/org/repo/tree/main/docs', served, () => false),
      {
        kind: 'elsewhere',
        repository: 'github.com/org/repo',
        outsideServed: true,
      },
    );
  });

  it('says where a URL to a repository the workspace does not hold leads', () => {
    const known = remotes('github.com/roadiehq/roadie-backstage-plugins');
    assert.deepEqual(resolveTechDocsUrl('https://github.com/RoadieHQ/backstage-plugin-jira/tree/main', known, exists), {
      kind: 'elsewhere',
      repository: 'github.com/roadiehq/backstage-plugin-jira',
    });
    assert.deepEqual(resolveTechDocsUrl('not a url', known, exists), { kind: 'elsewhere', repository: 'not a url' });
    // A repository whose name starts like a served one is another repository.
    assert.deepEqual(resolveTechDocsUrl('https://github.com/roadiehq/roadie-backstage-plugins-extra', known, exists), {
      kind: 'elsewhere',
      repository: 'github.com/roadiehq/roadie-backstage-plugins-extra',
    });
  });

  it('prefers the checkout holding the catalog file when two served ones share a remote', () => {
    const two: RepositoryRemotes[] = [
      { root: 'main-checkout', prefix: '', repositories: ['github.com/org/repo'] },
      { root: 'worktree', prefix: '', repositories: ['github.com/org/repo'] },
    ];
    const url = 'https://github.com/org/repo/tree/main/docs';
    assert.deepEqual(
      resolveTechDocsUrl(url, two, () => true, 'worktree'),
      { kind: 'local', dir: 'worktree/docs' },
    );
    assert.deepEqual(
      resolveTechDocsUrl(url, two, () => true, 'main-checkout'),
      { kind: 'local', dir: 'main-checkout/docs' },
    );
  });

  it('resolves a url: ref of 20,000 path segments in one pass over it: no split longer than a path on disk is built', () => {
    // The audit's ref (40 KB over the repository's own remote) built 20,000 paths of up to 40 KB
    // each and asked for every one (8.5 s, quadratic in the segments).
    const deep = Array.from({ length: 20_000 }, () => 'a').join('/');
    const asked: string[] = [];
    const spy = (dir: string) => {
      asked.push(dir);
      return exists(dir);
    };
    const target = resolveTechDocsUrl(
      `https://github.com/org/repo/tree/main/${deep}/docs`,
      remotes('github.com/org/repo'),
      spy,
    );
    // The split whose folder exists (a REF of 19,999 segments, as the rule reads it) is still found.
    assert.deepEqual(target, { kind: 'local', dir: 'docs' });
    assert.ok(asked.length > 0 && asked.length <= 2048, String(asked.length));
    assert.ok(
      asked.every((dir) => dir.length <= 4096),
      `asked for a folder of ${Math.max(...asked.map((d) => d.length))} characters`,
    );
    // When no split exists, the most likely one is reported missing, whatever its length.
    assert.deepEqual(
      resolveTechDocsUrl(
        `https://github.com/org/repo/tree/main/${deep}/nowhere`,
        remotes('github.com/org/repo'),
        exists,
      ),
      { kind: 'local', dir: `${deep}/nowhere` },
    );
    // An Azure path of 40,000 slashes is trimmed in one pass too.
    assert.deepEqual(
      resolveTechDocsUrl(
        `https://dev.azure.com/o/p/_git/r?path=${'/'.repeat(40_000)}docs${'/'.repeat(40_000)}`,
        remotes('dev.azure.com/o/p/_git/r'),
        exists,
      ),
      { kind: 'local', dir: 'docs' },
    );
  });
});
