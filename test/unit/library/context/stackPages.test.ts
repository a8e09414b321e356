/**
 * A task that names a stack gets the page whose subject is that stack, even when a narrower page
 * of the stack matches its other words better; the narrower pages, and other stacks' versions of
 * the page, stay out. On the awesome-copilot library (54 instruction files nobody here wrote).
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { stackPages, subjectOf } from '../../../../server/src/library/context/stackPages';
import { indexDir, run, type Indexed } from './herald';

const LIBRARY = path.resolve(__dirname, '../../../fixtures/awesome-copilot/library');
const page = (p: string) => path.basename(p).replace(/\.instructions\.md$/, '');

describe('get_context: the pages of the stack a task names', function () {
  this.timeout(60_000);
  let lib: Indexed;
  before(async () => {
    lib = await indexDir(LIBRARY, 'awesome-copilot');
  });
  after(() => lib.engine.dispose());

  const sent = async (task: string) => {
    const built = await run(lib.view, task);
    return {
      pages: built.bundle.reference.map((p) => page(p.doc.path)),
      nothing: built.bundle.nothingFound !== undefined,
    };
  };

  it("reads a page's subject from its file name", () => {
    const subject = (name: string) => [...subjectOf(lib.view.docs.find((d) => page(d.path) === name)!)];
    assert.deepEqual(subject('rust-mcp-server'), ['rust', 'mcp', 'server']);
    assert.deepEqual(subject('dart-n-flutter'), ['dart', 'flutter']);
    assert.deepEqual(subject('r'), ['r']);
    assert.deepEqual(subject('springboot'), ['springboot']);
  });

  it('sends the Rust page for a Rust CLI task, not the Rust MCP server page that matches "config" better', async () => {
    const { pages } = await sent('a Rust CLI config loader');
    assert.ok(pages.includes('rust'), pages.join(', '));
    assert.ok(!pages.includes('rust-mcp-server'), pages.join(', '));
  });

  it('sends the general page beside the narrower one when the task names both', async () => {
    const { pages } = await sent('style our Next.js App Router layout with Tailwind utility classes');
    assert.ok(pages.includes('nextjs') && pages.includes('nextjs-tailwind'), pages.join(', '));
    const terraform = await sent('a Terraform module on Azure that creates a Key Vault');
    assert.ok(
      terraform.pages.includes('terraform') && terraform.pages.includes('terraform-azure'),
      terraform.pages.join(', '),
    );
    assert.ok(!terraform.pages.includes('terraform-sap-btp'), terraform.pages.join(', '));
  });

  it("keeps another stack's version of the page out", async () => {
    const { pages } = await sent('write Playwright tests in Python with pytest');
    assert.deepEqual(
      pages.filter((p) => p.startsWith('playwright') || p.includes('mcp')),
      ['playwright-python'],
    );
  });

  it('finds nothing for a tool no page covers, even in a language one page of a narrower topic is written in', async () => {
    const ktor = await sent('a Ktor route in our Kotlin service');
    assert.deepEqual(ktor, { pages: [], nothing: true });
    const marks = stackPages('a Ktor route in our Kotlin service', lib.view.docs);
    assert.deepEqual([marks.forced.map((d) => page(d.path)), [...marks.narrower.values()]], [[], ['mcp']]);
  });
});
