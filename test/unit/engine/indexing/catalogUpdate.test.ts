/**
 * Catalog updates patch the last catalog (catalogUpdate.ts) instead of loading it again, and the
 * patched index is the index a cold start makes of the same files: for each edit of Backstage's
 * example catalog (test/fixtures/backstage-catalog-examples), an engine that followed the edits
 * one update at a time and a new engine indexing the edited workspace from nothing give the same
 * entities, relations, graph, problems, counts, documents, diagnostics and tool answers
 * (`derivedState` snapshots all of it, so any difference fails).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../../../server/src/engine/engine';
import { findEntityMentionsAsync, type IndexState } from '../../../../server/src/engine';
import type { PassReport } from '../../../../server/src/engine/indexing/indexer';
import { collectDiagnostics, PASS_SOURCES } from '../../../../server/src/lsp/features/diagnostics';
import { createServices } from '../../../../server/src/services/services';
import { callTool } from '../../../../server/src/tools/callTool';
import { findTool } from '../../../../server/src/tools/registry';
import { removeTempDirs, tempDir } from '../../../helpers/tempWorkspace';

const EXAMPLES = path.resolve(
  __dirname,
  '../../../fixtures/backstage-catalog-examples/packages/catalog-model/examples',
);
const SETTINGS = { updateDebounceMs: 0, refreshAfterMs: 0, snapshotDelayMs: 2 ** 31 - 1, useGit: false };
const NOW = () => new Date('2026-06-01T12:00:00Z');
/** When an answer's index was made: the one thing two indexes of the same files may differ in. */
/** The one dangling ref of Backstage's example catalog as published. */
const GUEST =
  "components/playback-order-component.yaml:12 'group:default/guest' in spec.owner names no entity in the catalog. Did you mean 'user:default/guest' or 'user:development/guest'?";
const untimed = (text: string) => text.replace(/indexedAt \S+/g, 'indexedAt (time)');
const QUESTIONS = [
  'which service provides the wayback archive api?',
  'who owns artist lookup?',
  'podcast api dependencies',
];

/**
 * Everything an index pass derives from the catalog, as plain data: the catalog itself, the graph
 * read entity by entity both ways, problems, counts, documents with their sections, the
 * workspace's diagnostics and the answers of workspace_context and get_toc.
 */
async function derivedState(engine: Engine, dir: string): Promise<Record<string, unknown>> {
  const state = engine.current()!;
  const keys = new Set<string>();
  for (const entity of state.entities) keys.add(entity.key);
  for (const relation of state.relations) keys.add(relation.source).add(relation.target);
  const edge = (r: IndexState['relations'][number]) =>
    `${r.sourceRef} ${r.type} ${r.targetRef} resolved=${r.resolved} at ${r.origin.path}:${r.origin.line} ${r.origin.field}`;
  const graph = [...keys].sort().map((key) => ({
    key,
    entity: state.graph.get(key)?.ref ?? null,
    outgoing: state.graph.outgoing(key).map(edge),
    incoming: state.graph.incoming(key).map(edge),
    owner: state.graph.ownerOf(key) ?? null,
  }));
  const docs = [...state.docs.values()]
    .map((doc) => ({ ...doc, sections: doc.sections.map((s) => ({ ...s })) }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  const readText = async (p: string) => {
    try {
      return fs.readFileSync(path.join(dir, p), 'utf8');
    } catch {
      return null;
    }
  };
  const diagnostics = await collectDiagnostics(
    {
      state,
      today: '2026-06-01',
      readText,
      mentionsOf: async (p) => {
        const text = await readText(p);
        return text === null ? [] : findEntityMentionsAsync(p, text);
      },
    },
    PASS_SOURCES,
  );
  const services = createServices({ engine, now: NOW });
  const answers: string[] = [];
  for (const question of QUESTIONS) {
    const tool = findTool('workspace_context')!;
    answers.push(untimed(tool.renderText(await callTool(services, tool, { question }, { sessionId: 'compare' }))));
  }
  const toc = findTool('get_toc')!;
  answers.push(untimed(toc.renderText(await callTool(services, toc, {}, { sessionId: 'compare' }))));
  const { indexedAt: _at, ...counts } = { indexedAt: '', ...state.counts };
  return plain({
    entities: state.entities,
    relations: state.relations,
    fieldLines: state.fieldLines,
    graphEdges: state.graph.edges(),
    graphEntities: [...state.graph.entities()].map((e) => e.key),
    graph,
    problems: state.problems,
    counts,
    docs,
    diagnostics,
    answers,
  });
}

/**
 * Fails on the first difference between two derived states, naming where it is (a whole-state
 * diff is too long for the assertion's message to show it).
 */
function assertSame(actual: unknown, expected: unknown, at = 'state'): void {
  if (typeof actual === 'string' && typeof expected === 'string') {
    assert.deepStrictEqual(actual.split('\n'), expected.split('\n'), `${at} differs`);
    return;
  }
  if (typeof actual !== 'object' || actual === null || typeof expected !== 'object' || expected === null) {
    assert.deepStrictEqual(actual, expected, `${at} differs`);
    return;
  }
  assert.equal(Array.isArray(actual), Array.isArray(expected), `${at}: list against record`);
  const a = actual as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  assert.deepStrictEqual(Object.keys(a), Object.keys(e), `${at}: fields or length differ`);
  for (const key of Object.keys(e)) assertSame(a[key], e[key], `${at}.${key}`);
}

/** `value` as plain JSON data (maps and sets as lists), so a comparison names what differs. */
function plain(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => (v instanceof Map || v instanceof Set ? [...v] : v)),
  ) as Record<string, unknown>;
}

/** What a new engine makes of `dir` from nothing. */
async function coldState(dir: string): Promise<Record<string, unknown>> {
  const engine = new Engine({ folders: [{ name: 'examples', absPath: dir }], settings: SETTINGS });
  try {
    await engine.waitForIndex();
    return await derivedState(engine, dir);
  } finally {
    engine.dispose();
  }
}

describe('indexing/catalog updates', function () {
  this.timeout(120_000);
  let dir: string;
  let engine: Engine;

  const file = (rel: string) => path.join(dir, ...rel.split('/'));
  const read = (rel: string) => fs.readFileSync(file(rel), 'utf8');
  /** Writes the files, runs one update over them, and compares the index with a cold one. */
  async function edit(
    files: Record<string, string>,
    expected: PassReport['catalog'],
  ): Promise<Record<string, unknown>> {
    for (const [rel, text] of Object.entries(files)) fs.writeFileSync(file(rel), text);
    const report = await engine.update(Object.keys(files).map(file));
    assert.equal(report?.catalog, expected, 'how the catalog was had');
    const updated = await derivedState(engine, dir);
    assertSame(updated, await coldState(dir));
    return updated;
  }
  const unresolved = (state: Record<string, unknown>) =>
    (state.diagnostics as { path: string; line: number; code: string; message: string }[])
      .filter((d) => d.code === 'ref.unresolved')
      .map((d) => `${d.path}:${d.line} ${d.message}`);

  before(async () => {
    dir = tempDir('catalog-update');
    fs.cpSync(EXAMPLES, dir, { recursive: true });
    engine = new Engine({ folders: [{ name: 'examples', absPath: dir }], settings: SETTINGS });
    await engine.waitForIndex();
  });
  after(() => {
    engine.dispose();
    removeTempDirs();
  });

  it('starts from the same index as a cold start', async () => {
    const state = await derivedState(engine, dir);
    assertSame(state, await coldState(dir));
    assert.equal((state.entities as unknown[]).length, 63);
    assert.deepEqual(unresolved(state), [GUEST]);
  });

  it('adds an entity that depends on one in its file', async () => {
    const rel = 'components/artist-lookup-component.yaml';
    const state = await edit(
      {
        [rel]: `${read(rel)}---\napiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: artist-cache\n  description: Caches artist lookups\nspec:\n  type: service\n  lifecycle: experimental\n  owner: team-a\n  subcomponentOf: artist-lookup\n  dependsOn:\n    - component:artist-lookup\n    - resource:artists-db\n`,
      },
      'patched',
    );
    const graph = state.graph as { key: string; outgoing: string[] }[];
    assert.deepEqual(graph.find((g) => g.key === 'component:default/artist-cache')?.outgoing, [
      'component:default/artist-cache dependsOn component:default/artist-lookup resolved=true at components/artist-lookup-component.yaml:48 spec.dependsOn',
      'component:default/artist-cache dependsOn resource:default/artists-db resolved=true at components/artist-lookup-component.yaml:49 spec.dependsOn',
      'component:default/artist-cache ownedBy group:default/team-a resolved=true at components/artist-lookup-component.yaml:45 spec.owner',
      'component:default/artist-cache partOf component:default/artist-lookup resolved=true at components/artist-lookup-component.yaml:46 spec.subcomponentOf',
    ]);
  });

  it('removes an entity others name: their refs dangle, at their own lines, and come back when it does', async () => {
    const rel = 'components/wayback-archive-component.yaml';
    const original = read(rel);
    const removed = await edit({ [rel]: '# wayback-archive is retired\n' }, 'patched');
    const dangling = (file: string) =>
      `components/${file}:10 'component:default/wayback-archive' in spec.subcomponentOf names no entity in the catalog. Did you mean 'component:default/wayback-archive-storage' or 'component:default/wayback-archive-ingestion' or 'component:default/wayback-search'?`;
    assert.deepEqual(unresolved(removed), [
      GUEST,
      dangling('wayback-archive-ingestion-component.yaml'),
      dangling('wayback-archive-storage-component.yaml'),
    ]);
    const back = await edit({ [rel]: original }, 'patched');
    assert.deepEqual(unresolved(back), [GUEST]);
  });

  it('renames an entity, and changes the case of another one others name', async () => {
    const rel = 'components/wayback-search-component.yaml';
    await edit({ [rel]: read(rel).replace('name: wayback-search\n', 'name: wayback-finder\n') }, 'patched');
    const lookup = 'components/artist-lookup-component.yaml';
    const state = await edit(
      { [lookup]: read(lookup).replace('name: artist-lookup\n', 'name: Artist-Lookup\n') },
      'patched',
    );
    const graph = state.graph as { key: string; incoming: string[] }[];
    assert.ok(
      graph
        .find((g) => g.key === 'component:default/artist-lookup')
        ?.incoming.includes(
          'component:default/artist-cache dependsOn component:default/Artist-Lookup resolved=true at components/artist-lookup-component.yaml:48 spec.dependsOn',
        ),
    );
  });

  it("changes an entity's owner and what it depends on", async () => {
    const rel = 'components/podcast-api-component.yaml';
    const before = read(rel);
    assert.match(before, /owner: team-b\n/);
    await edit(
      { [rel]: before.replace('owner: team-b\n', 'owner: team-c\n  dependsOn:\n    - resource:artists-db\n') },
      'patched',
    );
  });

  it('breaks the YAML of a file, then fixes it', async () => {
    const rel = 'components/playback-order-component.yaml';
    const original = read(rel);
    const broken = await edit({ [rel]: original.replace('spec:\n', 'spec: [\n') }, 'patched');
    assert.ok(
      (broken.problems as { path: string }[]).some((p) => p.path === rel),
      'the broken file has a problem of its own',
    );
    const fixed = await edit({ [rel]: original }, 'patched');
    assert.ok(!(fixed.problems as { path: string }[]).some((p) => p.path === rel));
  });

  it('moves an entity from one file to another in one update', async () => {
    const from = 'components/artist-lookup-component.yaml';
    const to = 'components/podcast-api-component.yaml';
    const [kept, moved] = read(from).split(/^---\n/m);
    await edit({ [from]: kept, [to]: `${read(to)}---\n${moved}` }, 'patched');
  });

  it('edits several files at once, between and around the entities that name them', async () => {
    // In path order: artist-lookup (edited), podcast-api and queue-proxy (name the system, so made
    // again), wayback-archive (removed), its ingestion and storage (name it), systems/podcast
    // (renamed in case): the patch interleaves the changed files' runs with the remade entities.
    const files = [
      'components/artist-lookup-component.yaml',
      'components/wayback-archive-component.yaml',
      'systems/podcast-system.yaml',
    ];
    const originals = files.map(read);
    const state = await edit(
      {
        [files[0]]: originals[0].replace('description: Artist Lookup\n', 'description: Artist Lookup, cached\n'),
        [files[1]]: '# wayback-archive is retired\n',
        [files[2]]: originals[2].replace('name: podcast\n', 'name: Podcast\n'),
      },
      'patched',
    );
    const graph = state.graph as { key: string; incoming: string[] }[];
    assert.ok(
      graph
        .find((g) => g.key === 'system:default/podcast')
        ?.incoming.some((edge) => edge.startsWith('component:default/podcast-api partOf system:default/Podcast ')),
    );
    await edit(Object.fromEntries(files.map((file, i) => [file, originals[i]])), 'patched');
  });

  it('moves a System ahead of every Resource: the kinds are counted in their new order', async () => {
    // The counts list kinds in the order the catalog first meets them; with the podcast System
    // in a domains/ file, System comes before Resource (resources/ sorts before systems/).
    const system = 'systems/podcast-system.yaml';
    const domain = 'domains/audio-domain.yaml';
    const [moved, movedDomain] = [read(system), read(domain)];
    const state = await edit(
      { [system]: '# moved to domains/audio-domain.yaml\n', [domain]: `${movedDomain}---\n${moved}` },
      'patched',
    );
    const kinds = Object.keys((state.counts as { entitiesByKind: Record<string, number> }).entitiesByKind);
    assert.ok(kinds.indexOf('System') < kinds.indexOf('Resource'), kinds.join(', '));
    // The moved System still names its domain: renaming the domain's case makes it again.
    const playback = 'domains/playback-domain.yaml';
    const original = read(playback);
    await edit({ [playback]: original.replace('name: playback\n', 'name: Playback\n') }, 'patched');
    await edit({ [system]: moved, [domain]: movedDomain, [playback]: original }, 'patched');
  });

  it('falls back to loading the whole catalog where a patch could differ, with the same result', async () => {
    // A second declaration of a key: which one is kept depends on every file.
    const rel = 'components/searcher-component.yaml';
    const dup = read('components/wayback-archive-ingestion-component.yaml');
    const duplicated = await edit({ [rel]: `${read(rel)}---\n${dup}` }, 'loaded');
    assert.ok((duplicated.problems as { code: string }[]).some((p) => p.code === 'catalog.duplicate-entity'));
    // A Location decides which files are read.
    const locations = 'all-components.yaml';
    await edit({ [locations]: read(locations).replace('    - ./components/searcher-component.yaml\n', '') }, 'loaded');
  });
});

describe('indexing/catalog updates after a restart', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  it('patches the catalog the snapshot restored on the first edit, as a cold index would make it', async () => {
    const dir = tempDir('catalog-update-warm');
    const cache = tempDir('catalog-update-cache');
    fs.cpSync(EXAMPLES, dir, { recursive: true });
    const folders = [{ name: 'examples', absPath: dir }];
    const file = (rel: string) => path.join(dir, ...rel.split('/'));
    const read = (rel: string) => fs.readFileSync(file(rel), 'utf8');
    async function edit(engine: Engine, files: Record<string, string>): Promise<void> {
      for (const [rel, text] of Object.entries(files)) fs.writeFileSync(file(rel), text);
      const report = await engine.update(Object.keys(files).map(file));
      assert.equal(report?.catalog, 'patched', 'how the catalog was had');
      assertSame(await derivedState(engine, dir), await coldState(dir));
    }
    const lookup = 'components/artist-lookup-component.yaml';
    const archive = 'components/wayback-archive-component.yaml';

    // The snapshot is written after a patched update, so it holds a patched catalog's details.
    const first = new Engine({ folders, settings: SETTINGS, cacheDir: cache });
    await first.waitForIndex();
    await edit(first, { [lookup]: read(lookup).replace('description: Artist Lookup\n', 'description: Lookups\n') });
    assert.equal(await first.saveSnapshot(), true);
    first.dispose();

    const engine = new Engine({ folders, settings: SETTINGS, cacheDir: cache });
    try {
      await engine.waitForIndex();
      assert.equal(engine.status().lastPass?.filesRead, 0, 'the restart read nothing again');
      // An entity others name goes (they are made again), then comes back.
      const original = read(archive);
      await edit(engine, {
        [archive]: '# wayback-archive is retired\n',
        [lookup]: read(lookup).replace('Lookups', 'Artists'),
      });
      await edit(engine, { [archive]: original });
    } finally {
      engine.dispose();
    }
  });
});
