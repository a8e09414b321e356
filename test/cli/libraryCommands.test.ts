/**
 * The library commands (`toc`, `section`, `search`, `page`, `file`) speak the command line's
 * terms and show where each document lives: every `[doc id]` with its file, every notice and
 * refusal naming the command that follows up (`wsctx toc --document <id>`), never an MCP name
 * (`get_toc()`, `read_page`, `page_id`), on the built CLI over the example workspace.
 */
import assert from 'node:assert/strict';
import { type CliRun, wsctx } from '../helpers/cli';
import { copyExampleWorkspace, removeTempDirs } from '../helpers/tempWorkspace';

const MCP_NAMES = /\b(get_toc|get_section|search_instructions|read_page|get_file|page_id|document_id)\b/;

describe('library commands: file paths and the command line’s terms', function () {
  this.timeout(120_000);
  let ws: string;
  before(() => {
    ws = copyExampleWorkspace();
  });
  after(() => removeTempDirs());

  // Nothing here changes the copy: a command line that two tests read runs once, its output kept.
  const printed = new Map<string, CliRun>();
  const run = (...args: string[]) => {
    const key = JSON.stringify(args);
    const out = printed.get(key) ?? wsctx([...args, '--workspace', ws]);
    printed.set(key, out);
    return { ...out, text: out.stdout + out.stderr };
  };

  it('names each document by its id and its file', () => {
    const toc = run('toc');
    assert.equal(toc.code, 0, toc.stderr);
    assert.match(toc.stdout, /## Issuing refunds {2}\[doc 9cce21de · \.context\/guides\/issuing-refunds\.md\]/);
    assert.match(
      toc.stdout,
      /=== Finding a merchant account id {2}\[doc 4cde604e · \.context\/guides\/finding-a-merchant-account-id\.md\]/,
    );
    assert.match(
      run('section', 'bc8ca9fb').stdout,
      /From: Issuing refunds {2}\[doc 9cce21de · \.context\/guides\/issuing-refunds\.md\]/,
    );
    assert.match(run('page', '9cce21de').stdout, /^doc 9cce21de · guide · \.context\/guides\/issuing-refunds\.md\n/);
    const search = run('search', 'issue a partial refund', '--embeddings', 'off');
    assert.match(
      search.stdout,
      /\(open with wsctx toc --document <id> or wsctx section <id>\):\n- .+ {2}\[doc [0-9a-f]{8} · \.context\/[^\]]+\]/,
    );
  });

  it('never names an MCP tool, argument or call, in answers, notices or refusals', () => {
    for (const args of [
      ['toc'],
      ['toc', 'refund window'],
      ['toc', '--document', '9cce21de'],
      ['section', 'bc8ca9fb'],
      ['search', 'issue a partial refund', '--embeddings', 'off'],
      ['page', '9cce21de'],
      ['file', '9cce21de'],
      ['section', 'zzzz'],
      ['page', '12345678'],
    ]) {
      const out = run(...args);
      assert.doesNotMatch(out.text, MCP_NAMES, `${args.join(' ')}:\n${out.text}`);
    }
    assert.equal(
      run('file', '9cce21de').stdout,
      '"Issuing refunds" (doc 9cce21de) has no attached file; wsctx page 9cce21de returns the page itself.\n',
    );
    assert.equal(
      run('section', 'zzzz').stderr,
      'wsctx: "zzzz" is not an id; ids are hexadecimal, printed with 8 characters (for example "3f2a9c1e"). wsctx toc lists them.\n',
    );
  });

  it('--json keeps the tools’ own answers', () => {
    const page = JSON.parse(run('page', '9cce21de', '--json').stdout) as { page: { id: string; path: string } };
    assert.equal(page.page.path, '.context/guides/issuing-refunds.md');
  });
});
