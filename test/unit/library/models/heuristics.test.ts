import assert from 'node:assert/strict';
import type { CatalogEntity, Doc } from '../../../../server/src/engine/model';
import { isReadWhole, pagePhrasings, sectionQuestions } from '../../../../server/src/library/models/derivedText';
import {
  constraintsOf,
  deliverableOf,
  facetSearches,
  heuristicPlan,
} from '../../../../server/src/library/models/heuristicPlan';
import { buildNameDictionary, pageKind } from '../../../../server/src/library/models/nameDictionary';
import { readLibraryPage } from '../../../../server/src/engine/sources/library';

function page(path: string, text: string): Doc {
  const { doc } = readLibraryPage({ path, text });
  return doc!;
}

const entity = (kind: string, name: string, title?: string): CatalogEntity => ({
  ref: `${kind.toLowerCase()}:default/${name}`,
  key: `${kind.toLowerCase()}:default/${name}`,
  kind,
  namespace: 'default',
  name,
  ...(title ? { title } : {}),
  apiVersion: 'backstage.io/v1alpha1',
  tags: [],
  annotations: {},
  labels: {},
  raw: {},
  location: { path: 'catalog-info.yaml', startLine: 1, endLine: 5 },
});

const avalara = page(
  '.context/battlecards/avalara.md',
  '---\ntitle: Avalara battlecard\ntags: [competitor, avalara]\n---\n\n# Avalara battlecard\n\nText.\n',
);
const taxjar = page(
  '.context/battlecards/taxjar.md',
  '---\ntitle: TaxJar battlecard\ntype: battlecard\n---\n\n# TaxJar battlecard\n\nText.\n',
);
const cfo = page(
  '.context/personas/cfo.md',
  '---\ntitle: CFO persona\naliases: [finance buyer]\n---\n\n# CFO persona\n\nText.\n',
);
const market = page('.context/markets/logistics.md', '---\ntitle: Logistics\n---\n\n# Logistics\n\nText.\n');
const guide = page(
  '.context/guides/outreach.md',
  '---\ntitle: Outreach checklist\nquestions: [How long is a subject line?]\n---\n\n# Outreach checklist\n\nIntro.\n\n## Subject line\n\nSeven words.\n\n## The ask\n\nOne ask.\n',
);

describe('deterministic fallbacks: names, plan, phrasings and questions', () => {
  const dictionary = buildNameDictionary(
    [entity('Component', 'quote-builder', 'Quote builder'), entity('System', 'billing')],
    [avalara, taxjar, cfo, market, guide],
  );

  it("knows each page's kind from its tags, type or folder, and its name from a tag, its distinctive title words or aliases", () => {
    assert.deepEqual([avalara, taxjar, cfo, market, guide].map(pageKind), [
      'competitor',
      'competitor',
      'persona',
      'market',
      undefined,
    ]);
    const names = dictionary.entries().map((e) => [e.text, e.kind, e.source]);
    assert.deepEqual(names, [
      // The title normalises to the name's phrase: one entry.
      ['quote-builder', 'component', 'catalog'],
      ['billing', 'system', 'catalog'],
      ['Avalara', 'competitor', 'library'],
      ['TaxJar', 'competitor', 'library'],
      ['CFO', 'persona', 'library'],
      ['finance buyer', 'persona', 'library'],
      ['Logistics', 'market', 'library'],
    ]);
    assert.deepEqual(
      dictionary.namesOfPage(cfo.id).map((n) => n.text),
      ['CFO', 'finance buyer'],
    );
    assert.deepEqual(dictionary.namesOfPage(guide.id), []);
  });

  it('finds names as whole words, longest first, each once', () => {
    assert.deepEqual(
      dictionary
        .find('Email the Finance-Buyer at a logistics firm leaving avalara; ask the quote builder, not Avalaras')
        .map((m) => [m.entry.text, m.phrase]),
      [
        ['finance buyer', 'finance buyer'],
        ['Logistics', 'logistics'],
        ['Avalara', 'avalara'],
        ['quote-builder', 'quote builder'],
      ],
    );
  });

  it('plans without a model: names with kinds, the deliverable, facet searches and constraints', () => {
    const plan = heuristicPlan('Write a cold email to a CFO switching from Avalara, under 120 words', dictionary);
    assert.deepEqual(
      plan.names.map((n) => [n.text, n.kind, n.source]),
      [
        ['CFO', 'persona', 'library'],
        ['Avalara', 'competitor', 'library'],
      ],
    );
    assert.equal(plan.deliverable, 'cold email');
    assert.deepEqual(plan.searches, ['Write a cold email', 'CFO', 'Avalara']);
    assert.deepEqual(plan.constraints, ['under 120 words']);
    assert.equal(plan.madeBy, 'heuristic');
    assert.deepEqual(facetSearches('refund window'), []);
    assert.equal(deliverableOf('please draft the postmortem'), 'postmortem');
    assert.equal(deliverableOf('how do refunds work'), undefined);
    assert.deepEqual(constraintsOf('Reply to Dana. Never mention pricing; keep it under 80 words'), [
      'Never mention pricing',
      'keep it under 80 words',
    ]);
  });

  it('derives phrasings, read-whole and questions from the page when neither front matter nor a model gave them', () => {
    assert.deepEqual(pagePhrasings(guide), { phrasings: ['Outreach checklist', 'Intro.'], source: 'derived' });
    const declared = page('.context/a.md', '---\ngood_for: [writing a reply]\n---\n# A\n');
    assert.deepEqual(pagePhrasings(declared), { phrasings: ['writing a reply'], source: 'front-matter' });
    const notes = {
      pageCard: () => ({ goodFor: ['model phrasing'], readWhole: true }),
      sectionQuestions: () => ['model question?'],
      folderPhrasings: () => undefined,
      packPhrasings: () => undefined,
    };
    assert.deepEqual(pagePhrasings(guide, notes), { phrasings: ['model phrasing'], source: 'model' });
    assert.equal(isReadWhole(guide), false);
    assert.equal(isReadWhole(guide, notes), true);
    assert.equal(isReadWhole(page('.context/v.md', '---\ntype: voice\n---\n# V\n')), true);
    assert.equal(isReadWhole(page('.context/v.md', '---\ntype: voice\nread_whole: false\n---\n# V\n')), false);
    const [intro, subject, ask] = guide.sections;
    assert.deepEqual(sectionQuestions(guide, intro), ['What is Outreach checklist?']);
    assert.deepEqual(sectionQuestions(guide, subject), [
      'How long is a subject line?',
      'What does Outreach checklist say about Subject line?',
    ]);
    assert.deepEqual(sectionQuestions(guide, ask), ['What does Outreach checklist say about The ask?']);
    assert.deepEqual(sectionQuestions(guide, ask, notes), ['model question?']);
  });
});
