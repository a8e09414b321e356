import assert from 'node:assert/strict';
import { scanMarkdown, splitLines } from '../../../../server/src/engine/chunking/markdownBlocks';

describe('chunking/markdownBlocks', () => {
  it('splits lines on LF and CRLF without a phantom last line', () => {
    assert.deepEqual(splitLines('a\r\nb\n\nc\n'), ['a', 'b', '', 'c']);
    assert.deepEqual(splitLines(''), []);
    assert.deepEqual(splitLines('\n'), ['']);
  });

  it('marks fence lines, fenced content and indented code as code', () => {
    const lines = ['text', '```js', '# x', '```', '', '    code', '\tcode', 'para', '    lazy'];
    assert.deepEqual(scanMarkdown(lines).code, [false, true, true, true, false, true, true, false, false]);
  });

  it('does not open a backtick fence whose info string holds a backtick', () => {
    const scan = scanMarkdown(['``` a`b', '# Heading']);
    assert.deepEqual(scan.code, [false, false]);
    assert.deepEqual(scan.headings, [{ level: 1, text: 'Heading', startLine: 1, endLine: 1 }]);
  });

  it('reads empty ATX headings and headings made only of closing hashes as empty text', () => {
    assert.deepEqual(scanMarkdown(['#', '### ###', '   ## indented ok', '    ## too indented']).headings, [
      { level: 1, text: '', startLine: 0, endLine: 0 },
      { level: 3, text: '', startLine: 1, endLine: 1 },
      { level: 2, text: 'indented ok', startLine: 2, endLine: 2 },
    ]);
  });

  it('lets only a list starting at 1 interrupt a paragraph', () => {
    // "2." continues the paragraph, so the underline makes a setext heading of both lines.
    assert.deepEqual(scanMarkdown(['Intro', '2. two', '---']).headings, [
      { level: 2, text: 'Intro 2. two', startLine: 0, endLine: 2 },
    ]);
    assert.deepEqual(scanMarkdown(['Intro', '1. one', '---']).headings, []);
  });
});
