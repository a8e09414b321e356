import assert from 'node:assert/strict';
import { RootMap } from '../../../../server/src/engine/workspace/rootMap';

interface Root {
  root: string;
  folder: string;
}

const roots: Root[] = [
  { root: '', folder: 'ws' },
  { root: 'apps', folder: 'ws' },
  { root: 'apps/web', folder: 'ws' },
  { root: 'apps/web-legacy', folder: 'ws' },
  { root: 'libs/core', folder: 'ws' },
];

function holding(map: RootMap<Root>, path: string): string[] {
  const seen: string[] = [];
  map.visitHolding(path, (root) => void seen.push(root.root));
  return seen;
}

describe('workspace/rootMap', () => {
  it('walks up a path: the roots holding it, innermost first, ending at the top', () => {
    const map = new RootMap(roots);
    assert.deepEqual(holding(map, 'apps/web/src/index.md'), ['apps/web', 'apps', '']);
    assert.deepEqual(holding(map, 'apps/web-legacy/overview.md'), ['apps/web-legacy', 'apps', '']);
    assert.deepEqual(holding(map, 'libs/core/catalog-info.yaml'), ['libs/core', '']);
    assert.deepEqual(holding(map, 'libs/other/x.md'), ['']);
    assert.deepEqual(holding(map, 'AGENTS.md'), ['']);
  });

  it('never takes a sibling whose name is a prefix, nor a root for its own directory path', () => {
    const map = new RootMap(roots);
    assert.equal(map.innermost('apps/webby/x.md')?.root, 'apps');
    // `apps/web` as a path (the directory itself) lies in `apps`, not in itself.
    assert.equal(map.innermost('apps/web')?.root, 'apps');
  });

  it('stops when the visitor says so, and filters with `innermost`', () => {
    const map = new RootMap(roots);
    const seen: string[] = [];
    map.visitHolding('apps/web/a/b/c.md', (root) => {
      seen.push(root.root);
      return root.root === 'apps';
    });
    assert.deepEqual(seen, ['apps/web', 'apps']);
    assert.equal(map.innermost('apps/web/x.md', (root) => root.root.length < 5)?.root, 'apps');
    assert.equal(map.innermost('x.md', (root) => root.root !== '')?.root, undefined);
  });

  it('holds several roots at one path (two folders) in the order given, and nothing without a top root', () => {
    const map = new RootMap([
      { root: 'a', folder: 'one' },
      { root: 'a', folder: 'two' },
      { root: 'a/b', folder: 'one' },
    ]);
    assert.deepEqual(
      map.at('a').map((r) => r.folder),
      ['one', 'two'],
    );
    const seen: string[] = [];
    map.visitHolding('a/b/c.md', (root) => void seen.push(`${root.folder}:${root.root}`));
    assert.deepEqual(seen, ['one:a/b', 'one:a', 'two:a']);
    assert.equal(map.innermost('z/y.md'), undefined);
    assert.deepEqual(map.at('nowhere'), []);
  });
});
