/**
 * The live search's rows (client/src/searchItems.ts): the passage's words first, the score as one
 * short item, the heading path and place below; the empty answer; the title; source URIs with line
 * fragments.
 */
import assert from 'node:assert/strict';
import type { SearchPassage, SearchResult } from '../../../shared/protocol';
import { isSearchable, scoreItem, searchRows, searchTitle, splitSourceUri } from '../../../client/src/searchItems';

const passage: SearchPassage = {
  id: '1a2b3c4d',
  documentId: '9f8e7d6c',
  title: 'Deploy and rollback',
  headingPath: ['Rolling back'],
  label: 'Deploy and rollback › Rolling back',
  sourceKind: 'catalog_doc',
  path: 'payments-platform/services/billing-worker/docs/runbooks/deploy.md',
  startLine: 35,
  endLine: 45,
  uri: 'file:///ws/payments-platform/services/billing-worker/docs/runbooks/deploy.md#L35-L45',
  score: 1.15,
  leadingWhy: [
    { signal: 'words', weight: 1, raw: 1, contribution: 1, detail: '3 of 3 terms' },
    {
      signal: 'namedEntity',
      weight: 0.15,
      raw: 1,
      contribution: 0.15,
      detail: 'belongs to component:default/billing-worker',
    },
  ],
  why: [],
  preview: 'Roll back first, investigate second.',
};

function result(passages: SearchPassage[], extra: Partial<SearchResult> = {}): SearchResult {
  return {
    question: 'how do I roll back billing-worker?',
    passages,
    contractVersion: '2026-11-30.2',
    indexedAt: null,
    degraded: [],
    ...extra,
  };
}

describe('client search rows', () => {
  it("leads with the passage's words, puts the score beside them and the heading path and place below", () => {
    assert.deepEqual(searchRows(result([passage])), [
      {
        label: 'Roll back first, investigate second.',
        description: 'score 1.15',
        detail:
          'Deploy and rollback › Rolling back · payments-platform/services/billing-worker/docs/runbooks/deploy.md:35-45',
        passage,
      },
    ]);
  });

  it('shows a `$(name)` in workspace text as written, not as an icon', () => {
    const row = searchRows(result([{ ...passage, preview: 'Run $(pwd) first', label: 'Shell › $(whoami)' }]))[0];
    assert.equal(row.label, 'Run \\$(pwd) first');
    assert.match(row.detail, /^Shell › \\\$\(whoami\) · /);
  });

  it('keeps the server order and shows the heading when a section has no words of its own', () => {
    const second = {
      ...passage,
      id: 'x',
      label: 'Rolling back anything',
      score: 0.89,
      leadingWhy: [{ signal: 'words', weight: 1, raw: 0.74, contribution: 0.741, detail: '' }],
      preview: '',
    };
    assert.deepEqual(
      searchRows(result([passage, second])).map((r) => [r.label, r.description]),
      [
        ['Roll back first, investigate second.', 'score 1.15'],
        ['Rolling back anything', 'score 0.89'],
      ],
    );
  });

  it('says so when nothing matches, with the notice or the degraded flags', () => {
    assert.deepEqual(searchRows(result([], { notice: 'The index is cold; indexing started.' })), [
      {
        label: 'No passages match "how do I roll back billing-worker?"',
        description: '',
        detail: 'The index is cold; indexing started.',
      },
    ]);
    assert.equal(searchRows(result([], { degraded: ['index-cold'] }))[0].detail, 'degraded: index-cold');
    assert.equal(searchRows(result([]))[0].detail, 'Try other words, or an entity name.');
  });

  it('titles the answer with its count and degraded flags', () => {
    assert.equal(searchTitle(result([passage])), 'Workspace context: 1 passage');
    assert.equal(
      searchTitle(result([passage, passage], { degraded: ['embeddings-off'] })),
      'Workspace context: 2 passages · degraded: embeddings-off',
    );
  });

  it('scores with two decimals', () => {
    assert.equal(scoreItem({ score: 0.3333 }), 'score 0.33');
  });

  it('asks only for questions of two characters or more', () => {
    assert.equal(isSearchable(' a '), false);
    assert.equal(isSearchable('ab'), true);
  });

  it('splits a source URI into the file and its lines', () => {
    assert.deepEqual(splitSourceUri('file:///ws/a.md#L35-L45'), {
      file: 'file:///ws/a.md',
      startLine: 35,
      endLine: 45,
    });
    assert.deepEqual(splitSourceUri('file:///ws/a.md#L7'), { file: 'file:///ws/a.md', startLine: 7, endLine: 7 });
    assert.deepEqual(splitSourceUri('file:///ws/a.md'), { file: 'file:///ws/a.md', startLine: 1, endLine: 1 });
  });
});
