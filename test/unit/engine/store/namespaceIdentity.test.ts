/**
 * When a write is the repository a namespace holds (engine/store/namespaceIdentity.ts): a remote
 * in common, else a first commit in common, else the same folder; and the same folder inside
 * the work tree. The store suites (test/helpers/storeCliSuite.ts) run the same through a server.
 */
import * as assert from 'node:assert/strict';
import { namespaceConflict, sameRepository } from '../../../../server/src/engine/store/namespaceIdentity';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const at = (absPath: string, remotes: string[] = [], rootCommits: string[] = [], prefix = '') => ({
  absPath,
  identity: { remotes, rootCommits, prefix },
});

describe('engine/store/namespaceIdentity', () => {
  it('tells one repository from another by remote, then first commit, then folder', () => {
    const cases: [string, ReturnType<typeof at> | { absPath: string }, ReturnType<typeof at>, boolean][] = [
      ['written before identities were kept', { absPath: '/a/api' }, at('/b/api', ['github.com/b/api']), true],
      [
        'a remote in common, anywhere on disk',
        at('/a/api', ['github.com/o/api'], [A]),
        at('/b/api', ['x.example/m', 'github.com/o/api'], [A]),
        true,
      ],
      [
        'two remotes of two organisations',
        at('/a/api', ['github.com/a/api'], [A]),
        at('/b/api', ['github.com/b/api'], [A]),
        false,
      ],
      [
        'a remote added since: the first commit decides',
        at('/a/api', [], [A]),
        at('/b/api', ['github.com/o/api'], [A]),
        true,
      ],
      ['two histories without remotes', at('/a/api', [], [A]), at('/b/api', [], [B]), false],
      [
        'two folders of one monorepo',
        at('/m/a/api', ['github.com/o/m'], [A], 'a/api/'),
        at('/m/b/api', ['github.com/o/m'], [A], 'b/api/'),
        false,
      ],
      ['no git, the same folder', at('/a/api'), at('/a/api'), true],
      ['no git, another folder', at('/a/api'), at('/b/api'), false],
    ];
    for (const [what, stored, incoming, same] of cases) assert.equal(sameRepository(stored, incoming), same, what);
  });

  it('names both repositories when it refuses', () => {
    assert.equal(
      namespaceConflict('api', at('/a/api', ['github.com/a/api'], [A]), at('/b/api', [], [B], 'svc/api/')),
      `namespace "api" holds another repository, github.com/a/api, at /a/api; this one is the repository whose first commit is ${B.slice(0, 12)} (its folder svc/api), at /b/api. A namespace is named by its folder and holds one repository, so nothing was replaced: index this one from a folder of another name`,
    );
    assert.equal(namespaceConflict('api', at('/a/api'), at('/a/api')), undefined);
  });
});
