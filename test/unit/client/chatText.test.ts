/**
 * What `@context` says (client/src/chatText.ts): citable sources read from tool outputs, the
 * model's prompt, which sources an answer cites, `/why`'s tables, `/expand`'s arguments and walk.
 */
import assert from 'node:assert/strict';
import type { SearchResult } from '../../../shared/protocol';
import {
  buildPrompt,
  citedSources,
  expandCommandLink,
  expandTargets,
  parseExpandPrompt,
  renderExpand,
  sourcesFromOutput,
  whyBlocks,
  whyHeader,
  type ChatSource,
} from '../../../client/src/chatText';
import type { ExpandView } from '../../../client/src/pickItems';

const uriOf = (p: string) => `file:///ws/${p}`;

const contextOutput = {
  question: 'how do I roll back billing-worker?',
  passages: [
    {
      title: 'Deploy and rollback',
      headingPath: ['Deploy and rollback', 'Rolling back'],
      text: '## Rolling back\nRoll back first.',
      sourceRef: { path: 'docs/deploy.md', startLine: 35, endLine: 45 },
      sourceUri: 'file:///elsewhere/docs/deploy.md#L35-L45',
    },
    {
      title: 'Rolling back anything',
      headingPath: [],
      text: 'Always allowed.',
      sourceRef: { path: 'docs/rollback.md', startLine: 1, endLine: 4 },
      sourceUri: 'file:///elsewhere/docs/rollback.md#L1-L4',
    },
  ],
};

describe('client chat text', () => {
  it("reads workspace_context's passages as numbered sources, keeping their file URIs", () => {
    assert.deepEqual(sourcesFromOutput(contextOutput, uriOf), [
      {
        n: 1,
        label: 'Deploy and rollback › Rolling back',
        path: 'docs/deploy.md',
        startLine: 35,
        endLine: 45,
        fileUri: 'file:///elsewhere/docs/deploy.md',
        text: '## Rolling back\nRoll back first.',
      },
      {
        n: 2,
        label: 'Rolling back anything',
        path: 'docs/rollback.md',
        startLine: 1,
        endLine: 4,
        fileUri: 'file:///elsewhere/docs/rollback.md',
        text: 'Always allowed.',
      },
    ]);
  });

  it('reads any nested list of placed items (get_context), with `path:start-end` refs, once each', () => {
    const output = {
      sections: [
        {
          pages: [{ heading: 'Money in minor units', body: 'Use integers.', sourceRef: '.context/rules/money.md:1-9' }],
        },
        { heading: 'Again', sourceRef: '.context/rules/money.md:1-9' },
        { label: 'Glossary', path: '.context/reference/glossary.md', startLine: 4 },
        { title: 'no place' },
      ],
    };
    assert.deepEqual(sourcesFromOutput(output, uriOf), [
      {
        n: 1,
        label: 'Money in minor units',
        path: '.context/rules/money.md',
        startLine: 1,
        endLine: 9,
        fileUri: 'file:///ws/.context/rules/money.md',
        text: 'Use integers.',
      },
      {
        n: 2,
        label: 'Glossary',
        path: '.context/reference/glossary.md',
        startLine: 4,
        endLine: 4,
        fileUri: 'file:///ws/.context/reference/glossary.md',
      },
    ]);
  });

  it('builds a prompt with the question and the numbered passages to cite', () => {
    const sources = sourcesFromOutput(contextOutput, uriOf);
    const prompt = buildPrompt('how do I roll back billing-worker?', sources);
    assert.match(prompt, /^Answer the question about this software workspace from the material below only/);
    assert.match(prompt, /Cite the numbered passages you rely on as \[1\], \[2\]/);
    assert.ok(
      prompt.includes(
        'Question: how do I roll back billing-worker?\n\nPassages:\n\n[1] Deploy and rollback › Rolling back (docs/deploy.md:35-45)\n## Rolling back\nRoll back first.\n\n[2] Rolling back anything (docs/rollback.md:1-4)\nAlways allowed.\n',
      ),
      prompt,
    );
  });

  it("numbers get_context's pages after the passages and gives them whole, placed by path", () => {
    const passages = sourcesFromOutput(contextOutput, uriOf);
    const rules = sourcesFromOutput(
      {
        pages: [
          {
            id: 'ab12',
            title: 'Never log PANs',
            type: 'rule',
            path: '.context/rules/never-log-pans.md',
            text: 'Never log a card number.',
            sections: [],
          },
        ],
      },
      uriOf,
      passages.length + 1,
    );
    assert.deepEqual(rules, [
      {
        n: 3,
        label: 'Never log PANs',
        path: '.context/rules/never-log-pans.md',
        startLine: 1,
        endLine: 1,
        wholeFile: true,
        fileUri: 'file:///ws/.context/rules/never-log-pans.md',
        text: 'Never log a card number.',
      },
    ]);
    const prompt = buildPrompt('q', passages, rules);
    assert.ok(
      prompt.endsWith(
        '[2] Rolling back anything (docs/rollback.md:1-4)\nAlways allowed.\n\nTeam rules and instructions that apply (from get_context):\n\n[3] Never log PANs (.context/rules/never-log-pans.md)\nNever log a card number.\n',
      ),
      prompt,
    );
  });

  it('finds the sources an answer cites, in order, ignoring numbers it was not given', () => {
    const sources: ChatSource[] = [1, 2, 3].map((n) => ({
      n,
      label: `s${n}`,
      path: 'p',
      startLine: n,
      endLine: n,
      fileUri: 'file:///p',
    }));
    assert.deepEqual(
      citedSources('Roll back [2]. Then check [1, 3] and [9]. Again [2].', sources).map((s) => s.n),
      [2, 1, 3],
    );
    assert.deepEqual(citedSources('No citations.', sources), []);
  });

  it("renders /why: a header, then each passage's rank, score and why[] as a three-column table", () => {
    const result: SearchResult = {
      question: 'how do I roll back billing-worker?',
      contractVersion: '2026-11-30.2',
      indexedAt: '2026-11-30T12:00:00Z',
      degraded: [],
      passages: [
        {
          id: 'a',
          documentId: 'b',
          title: 'Deploy and rollback',
          headingPath: ['Rolling back'],
          label: 'Deploy and rollback › Rolling back',
          sourceKind: 'catalog_doc',
          path: 'docs/deploy.md',
          startLine: 35,
          endLine: 45,
          uri: 'file:///ws/docs/deploy.md#L35-L45',
          score: 1.15,
          leadingWhy: [],
          why: [
            { signal: 'words', weight: 1, raw: 1, contribution: 1, detail: '3 of 3 terms | all' },
            {
              signal: 'namedEntity',
              weight: 0.15,
              raw: 1,
              contribution: 0.15,
              detail: 'belongs to component:default/billing-worker',
            },
          ],
          preview: '',
        },
      ],
    };
    assert.equal(
      whyHeader(result),
      'The 1 best passage for "how do I roll back billing-worker?", each with how its score was made (contract 2026-11-30.2 · indexed 2026-11-30T12:00:00Z).',
    );
    const [block] = whyBlocks(result);
    assert.equal(block.heading, '### 1. Deploy and rollback › Rolling back\n\nscore **1.150** · catalog_doc · ');
    assert.deepEqual(block.table.split('\n'), [
      '| signal | contribution = weight × raw | detail |',
      '| --- | ---: | --- |',
      '| words | 1.000 = 1.00 × 1.000 | 3 of 3 terms \\| all |',
      '| namedEntity | 0.150 = 0.15 × 1.000 | belongs to component:default/billing-worker |',
      '| **score** | **1.150** | |',
      '',
    ]);
    assert.deepEqual(block.source, {
      n: 1,
      label: 'Deploy and rollback › Rolling back',
      path: 'docs/deploy.md',
      startLine: 35,
      endLine: 45,
      fileUri: 'file:///ws/docs/deploy.md',
    });
    assert.equal(
      whyHeader({ ...result, passages: [], notice: 'The index is cold.' }),
      'No passages match "how do I roll back billing-worker?". The index is cold.',
    );
  });

  it('reads /expand arguments: a ref, a depth and a direction in any order', () => {
    assert.deepEqual(parseExpandPrompt('component:billing-worker'), {
      ok: true,
      args: { entityRef: 'component:billing-worker', depth: 1, direction: 'out' },
    });
    assert.deepEqual(parseExpandPrompt('depth 2 dependents `group:payments-team`'), {
      ok: true,
      args: { entityRef: 'group:payments-team', depth: 2, direction: 'in' },
    });
    assert.deepEqual(parseExpandPrompt('billing-worker depth=3 both'), {
      ok: true,
      args: { entityRef: 'billing-worker', depth: 3, direction: 'both' },
    });
    const empty = parseExpandPrompt('  ');
    assert.equal(empty.ok, false);
    assert.match((empty as { error: string }).error, /^Name an entity ref: `\/expand component:billing-worker`/);
    assert.match((parseExpandPrompt('a b') as { error: string }).error, /^Only one entity ref, please \("a" and "b"\)/);
    assert.match((parseExpandPrompt('a depth x') as { error: string }).error, /^depth: expected a number from 1 to 3/);
  });

  it('renders a walk by hop, with trusted links to walk on from the entities it reached', () => {
    const walk: ExpandView = {
      entity: { ref: 'component:default/billing-worker', title: 'Billing worker', sourceRef: 'catalog-info.yaml:60' },
      depth: 1,
      direction: 'out',
      edges: [
        {
          source: 'component:default/billing-worker',
          type: 'dependsOn',
          target: 'resource:default/invoices-db',
          depth: 1,
          resolved: true,
          declaredAt: 'catalog-info.yaml:79',
          field: 'spec.dependsOn',
        },
        {
          source: 'component:default/billing-worker',
          type: 'dependsOn',
          target: 'resource:default/gone',
          depth: 1,
          resolved: false,
          declaredAt: 'catalog-info.yaml:80',
          field: 'spec.dependsOn',
        },
      ],
      totalEdges: 2,
      degraded: [],
    };
    const link = expandCommandLink('resource:default/invoices-db', {
      entityRef: 'resource:default/invoices-db',
      direction: 'out',
      depth: 1,
    });
    assert.equal(
      link,
      `[resource:default/invoices-db](command:workspaceContext.expandEntity?${encodeURIComponent('[{"entityRef":"resource:default/invoices-db","direction":"out","depth":1}]')})`,
    );
    assert.deepEqual(renderExpand(walk).split('\n'), [
      '**component:default/billing-worker** (Billing worker) · dependencies · depth 1 · 2 of 2 edges',
      '',
      '**1 hop**',
      '',
      '- `component:default/billing-worker` dependsOn → `resource:default/invoices-db` · catalog-info.yaml:79',
      '- `component:default/billing-worker` dependsOn → `resource:default/gone` (unresolved) · catalog-info.yaml:80',
      '',
      `Walk on from: ${link}`,
    ]);
    assert.deepEqual(expandTargets(walk), ['resource:default/invoices-db']);
    assert.equal(renderExpand({ ...walk, entity: undefined, notice: 'No entity "x".' }), 'No entity "x".');
  });
});
