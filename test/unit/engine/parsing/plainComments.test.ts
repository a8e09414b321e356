/**
 * The plain scanner: the same exact answer as tree-sitter on every grammar's sample, the answer
 * for languages only it reads, and what it does with text a reader would call broken.
 */
import assert from 'node:assert/strict';
import {
  plainCommentAndStringRanges,
  plainComments,
  scanCommentsAndStrings,
} from '../../../../server/src/engine/parsing/plainComments';
import { GRAMMAR_SAMPLES, PLAIN_SAMPLES, marked } from './samples';

describe('plain comment and string scanner', () => {
  describe('gives the answer tree-sitter gives on the same samples', () => {
    for (const sample of GRAMMAR_SAMPLES) {
      it(sample.path, () => assert.deepEqual(plainCommentAndStringRanges(sample.path, sample.text), sample.ranges));
    }
  });

  describe('reads languages that have no grammar here', () => {
    for (const sample of PLAIN_SAMPLES) {
      it(sample.path, () => assert.deepEqual(plainCommentAndStringRanges(sample.path, sample.text), sample.ranges));
    }
  });

  it('answers null for prose and unknown files, through the shared interface too', async () => {
    for (const p of ['README.md', 'notes.txt', 'guide.rst', 'setup.ini', 'Makefile', 'docs/page.mdx']) {
      assert.equal(plainCommentAndStringRanges(p, '# x // y "z"'), null, p);
      assert.equal(await plainComments.commentAndStringRanges(p, '# x'), null, p);
    }
    assert.deepEqual(await plainComments.commentAndStringRanges('a.go', '// x'), [
      { start: 0, end: 4, kind: 'comment' },
    ]);
  });

  it('ends unterminated literals where the language does, and never throws', () => {
    const cases = [
      marked('a.ts', 'const s = ‹"open›\nconst t = 1; «/* never closed»'),
      marked('a.py', 's = ‹"""never closed\n›'),
      marked('a.go', 'var s = ‹`raw\n›'),
      marked('a.kt', 'val s = ‹"a ›${f(‹"b"›'),
      marked('a.rs', "fn f<'a>() { let c = ‹'\\u{1F600}'›; } «/* /* */»"),
    ];
    for (const sample of cases)
      assert.deepEqual(plainCommentAndStringRanges(sample.path, sample.text), sample.ranges, sample.path);
  });

  it('scans by language as well as by path', () => {
    assert.deepEqual(scanCommentsAndStrings('sql', '-- a\nb'), [{ start: 0, end: 4, kind: 'comment' }]);
  });
});
