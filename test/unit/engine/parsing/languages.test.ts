/** Languages by file name, and the containment test refs are checked with. */
import assert from 'node:assert/strict';
import { insideRanges, sourceLanguageOf, type TextRange } from '../../../../server/src/engine/parsing/languages';

describe('source languages', () => {
  it('names the language by extension, Dockerfiles by name, and nothing for prose', () => {
    const cases: Array<[string, string | null]> = [
      ['src/a.ts', 'typescript'],
      ['web/App.TSX', 'tsx'],
      ['bin/cli.cjs', 'javascript'],
      ['app/x.py', 'python'],
      ['x.kts', 'kotlin'],
      ['infra/main.tf', 'hcl'],
      ['deploy/Dockerfile', 'shell'],
      ['images/api.Dockerfile', 'shell'],
      ['catalog-info.yaml', 'yaml'],
      ['README.md', null],
      ['notes.txt', null],
      ['setup.ini', null],
      ['.bashrc', null],
      ['Makefile', null],
    ];
    for (const [p, language] of cases) assert.equal(sourceLanguageOf(p), language, p);
  });

  it('tells whether a span lies inside one range', () => {
    const ranges: TextRange[] = [
      { start: 2, end: 5, kind: 'comment' },
      { start: 8, end: 12, kind: 'string' },
    ];
    assert.equal(insideRanges(ranges, 2, 5), true);
    assert.equal(insideRanges(ranges, 9, 11), true);
    assert.equal(insideRanges(ranges, 1, 3), false);
    assert.equal(insideRanges(ranges, 4, 9), false);
    assert.equal(insideRanges(ranges, 11, 13), false);
    assert.equal(insideRanges(ranges, 6, 7), false);
    assert.equal(insideRanges([], 0, 1), false);
  });
});
