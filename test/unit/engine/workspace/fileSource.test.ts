import assert from 'node:assert/strict';
import {
  filesUnder,
  MemoryFileSource,
  sortedUnder,
  type FileSource,
} from '../../../../server/src/engine/workspace/fileSource';

const PATHS = [
  'a.md',
  'docs/index.md',
  'docs-old/index.md',
  'docs.md',
  'docs/guide/deep/x.md',
  'docs/guide/y.md',
  'docs0/z.md',
  'docs/\u00e9t\u00e9.md',
  'services/api/docs/index.md',
];

/** The answer by definition: every listed path starting with `dir/`. */
function byFilter(paths: readonly string[], dir: string): string[] {
  return dir === '' ? [...paths] : paths.filter((p) => p.startsWith(`${dir}/`));
}

describe('workspace/fileSource: files under a directory', () => {
  const sorted = [...PATHS].sort();

  it('finds exactly the files inside a directory by binary search, in list order', () => {
    for (const dir of [
      '',
      'docs',
      'docs/guide',
      'docs/guide/deep',
      'docs-old',
      'docs0',
      'services',
      'services/api/docs',
      'nothing',
      'docs/index.md',
      'a',
    ]) {
      assert.deepEqual(sortedUnder(sorted, dir), byFilter(sorted, dir), `dir '${dir}'`);
    }
    assert.deepEqual(sortedUnder(sorted, 'docs'), [
      'docs/guide/deep/x.md',
      'docs/guide/y.md',
      'docs/index.md',
      'docs/\u00e9t\u00e9.md',
    ]);
    assert.deepEqual(sortedUnder([], 'docs'), []);
  });

  it('MemoryFileSource lists under a directory, and filesUnder falls back to filtering list()', () => {
    const memory = new MemoryFileSource(new Map(PATHS.map((p) => [p, `text of ${p}`])));
    assert.deepEqual(memory.listUnder('docs/guide'), ['docs/guide/deep/x.md', 'docs/guide/y.md']);
    const plain: FileSource = { list: () => sorted, has: (p) => sorted.includes(p), readText: async () => null };
    for (const dir of ['', 'docs', 'docs-old', 'services/api']) {
      assert.deepEqual(filesUnder(plain, dir), byFilter(sorted, dir));
      assert.deepEqual(filesUnder(memory, dir), byFilter(sorted, dir));
    }
  });
});
