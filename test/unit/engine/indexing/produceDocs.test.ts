/**
 * The producers across passes: a catalog edit parses that catalog file only and no epic, epics
 * resolve their refs against the entities of the pass, overviews attach to their repository's
 * entities, and every pass gives what producers starting from nothing give.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { WorkspaceReader } from '../../../../server/src/engine/workspace/readGuard';
import { fillFileTable, type FileTable } from '../../../../server/src/engine/indexing/fileTable';
import { DocProducers, type ProducedDocs } from '../../../../server/src/engine/indexing/produceDocs';
import type { Doc } from '../../../../server/src/engine/model';
import { discoverWorkspace } from '../../../../server/src/engine/workspace/discovery';
import { initRepo, removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

const component = (name: string, description: string, extra = '') =>
  `apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: ${name}\n  description: ${description}\n${extra}spec:\n  type: service\n  lifecycle: production\n  owner: team-a\n`;

const EPIC = [
  '---',
  'entities:',
  '  - billing',
  '  - ledger',
  '---',
  '# Faster billing',
  '',
  'Touches component:billing and component:ledger.',
  '',
].join('\n');

async function workspace() {
  const dir = tempDir('produce');
  initRepo(dir);
  write(
    dir,
    'catalog-info.yaml',
    [
      component('billing', 'Bills customers.', '  annotations:\n    backstage.io/techdocs-ref: dir:./billing\n'),
      component('ledger', 'Keeps the books.'),
    ].join('---\n'),
  );
  write(dir, 'overview.md', '# Payments\n\nThe payments repository.\n');
  write(dir, 'billing/mkdocs.yml', 'site_name: Billing\nnav:\n  - Home: index.md\n');
  write(dir, 'billing/docs/index.md', '# Billing\n\nHow billing works.\n');
  write(dir, 'epics/faster-billing.md', EPIC);
  const nested = initRepo(`${dir}/repos/search`);
  write(nested, 'catalog-info.yaml', component('search', 'Finds things.'));
  write(nested, 'overview.md', '# Search\n\nThe search repository.\n');
  const folders = [{ name: 'ws', absPath: dir }];
  return { dir, folders };
}

async function tableOf(folders: { name: string; absPath: string }[], previous?: FileTable) {
  const discovery = await discoverWorkspace(folders);
  return { roots: discovery.roots, table: (await fillFileTable(discovery.files, previous, readerOf(discovery))).table };
}

/** What producers starting from nothing make of the workspace now. */
async function fromScratch(folders: { name: string; absPath: string }[]): Promise<ProducedDocs> {
  const { table, roots } = await tableOf(folders);
  return new DocProducers().produce(table, roots);
}

function comparable(produced: ProducedDocs) {
  return {
    docs: produced.docs,
    problems: produced.problems,
    entities: produced.catalog.entities,
    relations: produced.catalog.relations,
  };
}

function doc(produced: ProducedDocs, path: string, kind: Doc['sourceKind']): Doc {
  return produced.docs.find((d) => d.path === path && d.sourceKind === kind)!;
}

describe('indexing/produceDocs', () => {
  after(removeTempDirs);

  it('attaches each overview to the entities of its own repository, nested repositories apart', async () => {
    const { folders } = await workspace();
    const produced = await fromScratch(folders);
    assert.deepEqual(doc(produced, 'overview.md', 'repo_overview').entityRefs, [
      'component:default/billing',
      'component:default/ledger',
    ]);
    assert.deepEqual(doc(produced, 'repos/search/overview.md', 'repo_overview').entityRefs, [
      'component:default/search',
    ]);
    assert.deepEqual(doc(produced, 'billing/docs/index.md', 'catalog_doc').entityRefs, ['component:default/billing']);
  });

  it('a catalog edit parses that one catalog file and no epic, and gives what a fresh start gives', async () => {
    const { dir, folders } = await workspace();
    const producers = new DocProducers();
    const first = await tableOf(folders);
    const before = await producers.produce(first.table, first.roots);
    const start = producers.stats();

    write(dir, 'repos/search/catalog-info.yaml', component('search', 'Finds things fast.'));
    const second = await tableOf(folders, first.table);
    const after = await producers.produce(second.table, second.roots);
    const stats = producers.stats();
    assert.equal(stats.catalogParses.parses - start.catalogParses.parses, 1, 'only the edited catalog file is parsed');
    assert.equal(stats.catalogParses.reuses - start.catalogParses.reuses, 0, 'the other catalog file is not read');
    assert.equal(after.catalogPass, 'patched');
    assert.equal(stats.files.misses - start.files.misses, 0, 'no epic (nor any other file product) is parsed again');
    assert.equal(stats.techdocs.misses - start.techdocs.misses, 0);
    // Untouched documents are the very same objects; the edited entity's is new.
    assert.equal(doc(after, 'epics/faster-billing.md', 'epic_doc'), doc(before, 'epics/faster-billing.md', 'epic_doc'));
    assert.equal(
      after.docs.find((d) => d.title === 'billing'),
      before.docs.find((d) => d.title === 'billing'),
    );
    assert.notEqual(
      after.docs.find((d) => d.title === 'search'),
      before.docs.find((d) => d.title === 'search'),
    );
    assert.match(after.docs.find((d) => d.title === 'search')!.sections[0].text, /Finds things fast\./);
    assert.deepEqual(comparable(after), comparable(await fromScratch(folders)));
  });

  it('resolves epic refs against the entities of each pass, reporting unknown front matter refs as before', async () => {
    const { dir, folders } = await workspace();
    const producers = new DocProducers();
    let current = await tableOf(folders);
    const pass = async () => {
      current = await tableOf(folders, current.table);
      return producers.produce(current.table, current.roots);
    };
    const first = await producers.produce(current.table, current.roots);
    const parsedEpic = doc(first, 'epics/faster-billing.md', 'epic_doc');
    assert.deepEqual(parsedEpic.entityRefs, ['component:default/billing', 'component:default/ledger']);
    const misses = producers.stats().files.misses;

    // The ledger leaves the catalog: the epic loses it and its front matter names an unknown entity.
    write(
      dir,
      'catalog-info.yaml',
      component('billing', 'Bills customers.', '  annotations:\n    backstage.io/techdocs-ref: dir:./billing\n'),
    );
    const without = await pass();
    assert.deepEqual(doc(without, 'epics/faster-billing.md', 'epic_doc').entityRefs, ['component:default/billing']);
    assert.deepEqual(
      without.problems
        .filter((p) => p.path === 'epics/faster-billing.md')
        .map((p) => [p.line, p.severity, p.code, p.message]),
      [
        [
          2,
          'warning',
          'epic.invalid-field',
          "Front matter field 'entities' names 'ledger', which is not a known entity.",
        ],
      ],
    );
    assert.deepEqual(comparable(without), comparable(await fromScratch(folders)));

    // Another catalog edit that keeps the ledger out: the same resolved document object.
    write(dir, 'repos/search/catalog-info.yaml', component('search', 'Finds things, again.'));
    const still = await pass();
    assert.equal(
      doc(still, 'epics/faster-billing.md', 'epic_doc'),
      doc(without, 'epics/faster-billing.md', 'epic_doc'),
    );

    // It comes back: the parsed document again, and no problem.
    write(
      dir,
      'catalog-info.yaml',
      [
        component('billing', 'Bills customers.', '  annotations:\n    backstage.io/techdocs-ref: dir:./billing\n'),
        component('ledger', 'Keeps the books.'),
      ].join('---\n'),
    );
    const back = await pass();
    assert.equal(doc(back, 'epics/faster-billing.md', 'epic_doc'), parsedEpic);
    assert.deepEqual(
      back.problems.filter((p) => p.path === 'epics/faster-billing.md'),
      [],
    );
    assert.equal(producers.stats().files.misses, misses, 'the epic was never parsed again');
  });

  it('re-reads a TechDocs site when a page is added to it, and only that site', async () => {
    const { dir, folders } = await workspace();
    const producers = new DocProducers();
    const first = await tableOf(folders);
    await producers.produce(first.table, first.roots);
    const start = producers.stats().techdocs.misses;
    write(dir, 'notes/other.md', '# Elsewhere\n');
    const second = await tableOf(folders, first.table);
    const withNote = await producers.produce(second.table, second.roots);
    // The new page is read as a docs folder of its own; the entity's site is not read again.
    assert.equal(producers.stats().techdocs.misses, start + 1, 'a new file outside the site leaves it valid');
    assert.deepEqual(doc(withNote, 'notes/other.md', 'catalog_doc').entityRefs, [
      'component:default/billing',
      'component:default/ledger',
    ]);
    write(dir, 'billing/docs/runbook.md', '# Runbook\n');
    const third = await tableOf(folders, second.table);
    const produced = await producers.produce(third.table, third.roots);
    assert.equal(producers.stats().techdocs.misses, start + 2);
    assert.deepEqual(
      produced.docs.filter((d) => d.sourceKind === 'catalog_doc').map((d) => d.path),
      ['billing/docs/index.md', 'billing/docs/runbook.md', 'notes/other.md'],
    );
    fs.rmSync(`${dir}/billing/docs/runbook.md`);
  });

  it('moves a TechDocs problem with its annotation when lines above it move, without reading the site again', async () => {
    const { dir, folders } = await workspace();
    const broken = (lead: string) =>
      lead +
      component('archive', 'Keeps old records.', '  annotations:\n    backstage.io/techdocs-ref: dir:./no-such-docs\n');
    write(dir, 'repos/search/catalog-info.yaml', broken(''));
    const producers = new DocProducers();
    let current = await tableOf(folders);
    const first = await producers.produce(current.table, current.roots);
    const site = (produced: ProducedDocs) =>
      produced.problems.filter((p) => p.code === 'techdocs.missing-dir').map((p) => [p.path, p.line]);
    assert.deepEqual(site(first), [['repos/search/catalog-info.yaml', 7]]);
    const misses = producers.stats().techdocs.misses;
    write(
      dir,
      'repos/search/catalog-info.yaml',
      broken('# The archive lives here for now.\n# It moves next quarter.\n'),
    );
    current = await tableOf(folders, current.table);
    const moved = await producers.produce(current.table, current.roots);
    assert.deepEqual(site(moved), [['repos/search/catalog-info.yaml', 9]]);
    assert.equal(producers.stats().techdocs.misses, misses);
    assert.deepEqual(comparable(moved), comparable(await fromScratch(folders)));
  });
});

/** The guard over a discovery's folders, at the default size cap. */
function readerOf(discovery: { folders: readonly { absPath: string }[] }): WorkspaceReader {
  return new WorkspaceReader(discovery.folders, 2 * 1024 * 1024);
}
