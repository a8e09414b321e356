import assert from 'node:assert/strict';
import { htmlText, scanMarkdown, splitLines } from '../../../../server/src/engine/chunking/markdownBlocks';

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

  it('reads HTML headings as headings, their id the anchor, even when they interrupt a paragraph', () => {
    // The shape of a generated API reference (gen-crd-api-reference-docs): no Markdown heading at all.
    const lines = [
      '<p>Packages:</p>', // 0
      '<h2 id="ceph.rook.io/v1">ceph.rook.io/v1</h2>', // 1
      'Resource Types:', // 2
      '<h3 id="ceph.rook.io/v1.CephBlockPool">CephBlockPool', // 3
      '</h3>', // 4
      '<table>', // 5
      '  <H4 class="x">Spec &amp; <code>status</code></H4>', // 6
    ];
    assert.deepEqual(scanMarkdown(lines).headings, [
      { level: 2, text: 'ceph.rook.io/v1', startLine: 1, endLine: 1, anchor: 'ceph.rook.io/v1' },
      { level: 3, text: 'CephBlockPool', startLine: 3, endLine: 4, anchor: 'ceph.rook.io/v1.CephBlockPool' },
      { level: 4, text: 'Spec & status', startLine: 6, endLine: 6 },
    ]);
  });

  it('keeps an HTML heading with no text, one never closed, or one in code as content', () => {
    const lines = [
      '<h1 align="center"><img src="logo.png" alt="Fernhill"></h1>', // 0: the image's alt names it
      '<h2><img src="badge.svg"></h2>', // 1: nothing to read
      '<h2>Never closed', // 2
      '', // 3
      '```html', // 4
      '<h2 id="x">In code</h2>', // 5
      '```', // 6
      '<header>not a heading</header>', // 7
    ];
    assert.deepEqual(scanMarkdown(lines).headings, [{ level: 1, text: 'Fernhill', startLine: 0, endLine: 0 }]);
  });

  it("takes a Markdown heading's {#id} as its anchor, not as text", () => {
    assert.deepEqual(scanMarkdown(['## Install {#install .wide}', 'Setext {#setext}', '---']).headings, [
      { level: 2, text: 'Install', startLine: 0, endLine: 0, anchor: 'install' },
      { level: 2, text: 'Setext', startLine: 1, endLine: 2, anchor: 'setext' },
    ]);
  });

  it('reads the text of HTML: tags dropped, entities decoded', () => {
    assert.equal(htmlText('<b>A&nbsp;&lt;b&gt;</b>  &#123;x&#x7D; &bogus;'), 'A <b> {x} &bogus;');
  });

  it('reads a Hugo code shortcode closed further on as code; one that stands alone is not a block', () => {
    const lines = [
      '{{< codeFromInline lang="bash" >}}', // 0
      '# For AMD64 / x86_64', // 1: a shell comment, as kind's quick start has it
      '{{< /codeFromInline >}}', // 2
      '{{< codeFromFile file="x.yaml" >}}', // 3: no closing tag anywhere
      '# Real heading', // 4
    ];
    const scan = scanMarkdown(lines);
    assert.deepEqual(scan.code, [true, true, true, false, false]);
    assert.deepEqual(scan.headings, [{ level: 1, text: 'Real heading', startLine: 4, endLine: 4 }]);
  });
});
