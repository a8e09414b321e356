import assert from 'node:assert/strict';
import { parseDocumentText } from '../../../../server/src/engine/chunking/documentFormats';
import { mdxToMarkdown } from '../../../../server/src/engine/chunking/mdxText';

/** A Docusaurus MDX page in the shape tRPC's are written (test/fixtures/layouts/docusaurus-trpc). */
const PAGE = [
  '---', // 1
  'id: setup', // 2
  'title: Set up the client', // 3
  'sidebar_label: Setup', // 4
  '---', // 5
  '', // 6
  "import TabItem from '@theme/TabItem';", // 7
  'import {', // 8
  '  Tabs,', // 9
  "} from '@theme/Tabs';", // 10
  '', // 11
  '## Install', // 12
  '', // 13
  '<InstallSnippet pkgs="@trpc/server @trpc/client" />', // 14
  '', // 15
  ':::tip AI Agents', // 16
  'Install the skills:', // 17
  '', // 18
  '```ts', // 19
  "import { x } from 'y';", // 20
  '```', // 21
  '', // 22
  ':::', // 23
  '', // 24
  '<Tabs>', // 25
  '  <TabItem value="npm" label="npm">', // 26
  '', // 27
  '    ```yaml', // 28
  '    server:', // 29
  '      port: 2022', // 30
  '    ```', // 31
  '', // 32
  '  </TabItem>', // 33
  '  <TabItem value="yarn">Use <Highlight color="red">yarn</Highlight> and `<Tabs/>`.</TabItem>', // 34
  '</Tabs>', // 35
  '', // 36
  '{/* a comment', // 37
  '   over two lines */}', // 38
  '', // 39
  'export const meta = {', // 40
  '  tags: ["a"],', // 41
  '};', // 42
  '', // 43
  '## Use it', // 44
  'Call `trpc.greet.query()`.', // 45
].join('\n');

describe('chunking/mdxText', () => {
  it("keeps every line, so line spans stay the file's", () => {
    assert.equal(mdxToMarkdown(PAGE).split('\n').length, PAGE.split('\n').length);
  });

  it('blanks imports, exports, JSX comments and self-closing components; keeps code fences as written', () => {
    const lines = mdxToMarkdown(PAGE).split('\n');
    for (const n of [7, 8, 9, 10, 14, 37, 38, 40, 41, 42]) assert.equal(lines[n - 1], '', `line ${n}`);
    assert.equal(lines[19], "import { x } from 'y';", 'an import inside a fence is an example');
    assert.deepEqual(lines.slice(0, 5), PAGE.split('\n').slice(0, 5), 'front matter untouched');
  });

  it("keeps a component's children and its label, dedented so an indented fence stays a fence", () => {
    const lines = mdxToMarkdown(PAGE).split('\n');
    assert.equal(lines[25], 'npm', 'an opening tag leaves its label');
    assert.deepEqual(lines.slice(27, 31), ['```yaml', 'server:', '  port: 2022', '```']);
    assert.equal(lines[33], 'Use yarn and `<Tabs/>`.', 'inline components go, code spans stay');
    assert.equal(lines[34], '', 'the closing tag goes');
    assert.equal(lines[15], 'Tip: AI Agents', 'an admonition reads as its kind and title');
    assert.equal(lines[22], '');
  });

  it('splits the page as Markdown: headings, exact spans, config keys still fenced', () => {
    const doc = parseDocumentText('docs/setup.mdx', PAGE);
    assert.equal(doc.title, 'Set up the client');
    assert.deepEqual(doc.page, { navTitle: 'Setup', id: 'setup' });
    assert.deepEqual(
      doc.sections.map((s) => [s.headingPath.join(' > '), s.startLine, s.endLine]),
      [
        ['Install', 12, 34],
        ['Use it', 44, 45],
      ],
    );
    assert.match(doc.sections[0].text, /```yaml\nserver:\n {2}port: 2022\n```/);
    assert.doesNotMatch(doc.sections[0].text, /@theme|InstallSnippet|TabItem/);
  });

  it('never throws on broken MDX: an unclosed tag, an unclosed fence, a runaway export', () => {
    for (const text of [
      '<Tabs value="a"\n\ntext',
      '```js\nconst a = 1;',
      'export const a = {\n\nb',
      '<',
      '{/*',
      'import',
    ]) {
      const out = mdxToMarkdown(text);
      assert.equal(out.split('\n').length, text.split('\n').length);
      parseDocumentText('x.mdx', text);
    }
  });
});
