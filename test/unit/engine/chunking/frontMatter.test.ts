import assert from 'node:assert/strict';
import { parseFrontMatter } from '../../../../server/src/engine/chunking/frontMatter';

describe('chunking/frontMatter', () => {
  it('reads YAML between --- lines and returns the body with its line offset', () => {
    const text = '---\ntitle: Billing\ntags: [a, b]\n---\n# Heading\nbody\n';
    const fm = parseFrontMatter(text, 'docs/a.md');
    assert.equal(fm.present, true);
    assert.deepEqual(fm.data, { title: 'Billing', tags: ['a', 'b'] });
    assert.deepEqual(fm.keyLines, { title: 2, tags: 3 });
    assert.equal(fm.body, '# Heading\nbody\n');
    assert.equal(fm.bodyLineOffset, 4);
    assert.deepEqual(fm.problems, []);
  });

  it('accepts ... as the closing line, CRLF line ends and a byte-order mark', () => {
    const fm = parseFrontMatter('\uFEFF---\r\ntitle: X\r\n...\r\nbody\r\n', 'a.md');
    assert.deepEqual(fm.data, { title: 'X' });
    assert.equal(fm.body, 'body\r\n');
    assert.equal(fm.bodyLineOffset, 3);
  });

  it('treats an empty block as present with no data', () => {
    const fm = parseFrontMatter('---\n---\ntext', 'a.md');
    assert.equal(fm.present, true);
    assert.deepEqual(fm.data, {});
    assert.equal(fm.body, 'text');
    assert.equal(fm.bodyLineOffset, 2);
  });

  it('is absent when the first line is not --- or the block never closes', () => {
    for (const text of ['# Title\n---\nx: 1\n---\n', '---\nx: 1\nno closing line\n', '', 'plain']) {
      const fm = parseFrontMatter(text, 'a.md');
      assert.equal(fm.present, false, text);
      assert.equal(fm.body, text);
      assert.equal(fm.bodyLineOffset, 0);
    }
  });

  it('reports invalid YAML at its file line and still returns the body', () => {
    const text = '---\ntitle: ok\ntags: [a, b\nowner: x\n---\n# Body\n';
    const fm = parseFrontMatter(text, 'docs/bad.md');
    assert.equal(fm.present, true);
    assert.deepEqual(fm.data, {});
    assert.equal(fm.body, '# Body\n');
    assert.equal(fm.bodyLineOffset, 5);
    assert.equal(fm.problems.length, 1);
    const [problem] = fm.problems;
    assert.equal(problem.path, 'docs/bad.md');
    assert.equal(problem.code, 'frontmatter.yaml');
    assert.equal(problem.severity, 'warning');
    // At the unclosed `[` (file line 3), where the mistake is, not where the parser gave up.
    assert.equal(problem.line, 3);
    assert.match(problem.message, /^Invalid YAML in front matter: /);
  });

  it('reports front matter that is not a mapping', () => {
    const fm = parseFrontMatter('---\n- a\n- b\n---\nbody', 'a.md');
    assert.deepEqual(fm.data, {});
    assert.deepEqual(
      fm.problems.map((p) => [p.code, p.line]),
      [['frontmatter.not-a-map', 2]],
    );
  });

  it('refuses alias bombs instead of throwing', () => {
    const text =
      '---\na: &a [x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n---\nbody';
    const fm = parseFrontMatter(text, 'a.md');
    assert.deepEqual(fm.data, {});
    assert.equal(fm.problems[0].code, 'frontmatter.yaml');
    assert.equal(fm.body, 'body');
  });
});
