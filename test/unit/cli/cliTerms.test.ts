/**
 * The tools' notices in the command line's words (server/src/cli/cliTerms.ts): a tool call with
 * its arguments becomes the command and flags that make it, never `'wsctx toc'(document_id="...")`
 * (neither a command line nor an MCP call) nor an MCP name.
 */
import assert from 'node:assert/strict';
import { commandsInCliTerms, inCliTerms } from '../../../server/src/cli/cliTerms';
import { libraryText } from '../../../server/src/cli/libraryText';

describe('notices in the command line’s terms', () => {
  it('turns each library tool call, with its arguments, into the command that makes it', () => {
    const cases: [string, string][] = [
      ['get_toc() lists them.', 'wsctx toc lists them.'],
      [
        '3 sections; get_toc(document_id="3f2a9c1e") lists them',
        '3 sections; wsctx toc --document 3f2a9c1e lists them',
      ],
      [
        'It is a document id: get_toc(document_id=3f2a9c1e) lists',
        'It is a document id: wsctx toc --document 3f2a9c1e lists',
      ],
      [
        'open with get_toc(document_id=...) or get_section(id=...)',
        'open with wsctx toc --document <id> or wsctx section <id>',
      ],
      ['use get_toc(document_id); search_instructions(plan)', 'use wsctx toc --document <id>; wsctx search "<plan>"'],
      ['get_toc(query="<your task>") lists the documents', 'wsctx toc "<your task>" lists the documents'],
      [
        'get_toc(query="<your task>", namespace="guides") maps it',
        'wsctx toc "<your task>" --namespace guides maps it',
      ],
      ['get_toc(namespace="My notes") maps it', 'wsctx toc --namespace "My notes" maps it'],
      [
        'It is a section id: get_section(id=9a8b7c6d) returns it.',
        'It is a section id: wsctx section 9a8b7c6d returns it.',
      ],
      ['read_page(page_id="4cde604e") returns the page itself', 'wsctx page 4cde604e returns the page itself'],
      ['(get_file with page_id 4cde604e returns it)', '(wsctx file 4cde604e prints it)'],
      ['page_id: 4cde604e · guide', 'doc 4cde604e · guide'],
      ['pass a page_id to read_page', 'pass an id to wsctx page'],
      ['(+3 more: use workspace_expand)', '(+3 more: use wsctx expand)'],
    ];
    for (const [tool, cli] of cases) assert.equal(commandsInCliTerms(tool), cli, tool);
  });

  it('leaves a call with an argument the command does not take as it is', () => {
    assert.equal(commandsInCliTerms('get_toc(colour="red")'), 'get_toc(colour="red")');
  });

  it('refusals name the flag, and the commands', () => {
    assert.equal(
      inCliTerms('Invalid input for get_toc: document_id: must be at most 128 characters', 'toc'),
      '--document: must be at most 128 characters',
    );
    assert.equal(
      inCliTerms('page_id: no ready library document has the id "12345678". get_toc() lists the document ids.', 'page'),
      'no ready library document has the id "12345678". wsctx toc lists the document ids.',
    );
  });

  it('names every document by its id and its file', () => {
    const answer = { documents: [{ id: '9cce21de', path: '.context/guides/issuing-refunds.md' }] };
    assert.equal(
      libraryText('## Issuing refunds  [doc 9cce21de]; [doc 00000000] is unknown', answer),
      '## Issuing refunds  [doc 9cce21de · .context/guides/issuing-refunds.md]; [doc 00000000] is unknown',
    );
  });
});
