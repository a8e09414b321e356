/**
 * A reader that holds a store's namespace in memory (engine/store/memoryReader.ts) answers as the
 * in-memory engine of that folder, write after write: the example workspace indexed in memory,
 * written to PGlite, loaded, then edited, extended and cut down (each write read back as what it
 * changed, and once renumbered and read whole), every question ranked both ways with everything
 * a tool renders compared, the count of candidates included; and hybrid (words and meaning, with
 * stand-in vectors) against the in-memory engine's exact vector backend.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../server/src/engine/engine';
import type { IndexState } from '../../server/src/engine/indexState';
import { rankWorkspaceContext, type RankResult } from '../../server/src/engine/ranking/workspaceContextRanker';
import { MemoryReader } from '../../server/src/engine/store/memoryReader';
import { estimateNamespaceBytes } from '../../server/src/engine/store/memoryEstimate';
import { workspaceRows } from '../../server/src/engine/store/storeRows';
import { openPostgresStore, type PostgresStore } from '../../server/src/store/postgres/pgStore';
import { fillVectorCache, planWindows } from '../../bench/fillVectors';
import { loadRankingCases } from '../helpers/rankingCases';
import { startPgliteServer, type PgliteServer } from '../helpers/pgliteServer';
import { copyExampleWorkspace, removeTempDirs, tempDir } from '../helpers/tempWorkspace';
import { clusteredVectors, seededRandom, vectorByDigest } from '../unit/engine/vector/syntheticVectors';

const NOW = Date.parse('2026-06-01T00:00:00Z');

/** Everything a tool renders of a ranking, the candidates counted included (a namespace in memory holds every section). */
function comparable(result: RankResult) {
  return {
    terms: result.terms,
    dropped: result.droppedTerms,
    named: result.named.map((n) => n.key),
    candidates: result.candidates,
    passages: result.passages.map((p) => ({
      id: p.entry.section.id,
      doc: p.entry.doc.id,
      path: p.entry.doc.path,
      text: p.entry.section.text,
      headingPath: p.entry.section.headingPath,
      score: p.score,
      why: p.why,
    })),
  };
}

const QUESTIONS = [...new Set(loadRankingCases().map((c) => c.question))].slice(0, 30);

describe('a store namespace held in memory answers as the in-memory engine, write after write', function () {
  this.timeout(300_000);
  let server: PgliteServer;
  let store: PostgresStore;
  let workspace: string;
  let engine: Engine;
  let reader: MemoryReader;
  const name = 'fernhill';

  before(async () => {
    server = await startPgliteServer({ pgvector: false });
    // Renumbered once its ordinals pass twice its sections (not only past a block of 65,536).
    store = await openPostgresStore(server.url, { renumberFloor: 0 });
    workspace = copyExampleWorkspace();
    engine = new Engine({ folders: [{ name, absPath: workspace }] });
    await store.write(workspaceRows(await engine.waitForIndex()));
    reader = new MemoryReader(store, { kind: 'all' }, { pollMs: 3_600_000 });
    await reader.start(reader.plan(await store.namespaces()));
  });
  after(async () => {
    await reader?.close();
    engine?.dispose();
    await store?.close();
    await server?.stop();
    removeTempDirs();
  });

  function assertSameAnswers(state: IndexState, when: string): void {
    const held = reader.stateOf(name);
    assert.ok(held, `${name} is held (${when})`);
    assert.equal(held.counts.sections, state.counts.sections);
    assert.deepEqual([...held.docs.keys()], [...state.docs.keys()], `documents in the engine's order (${when})`);
    for (const question of [...QUESTIONS, 'zebracorn quarantine', 'wombat reconciler runbook']) {
      const memory = rankWorkspaceContext(state, { question, limit: 10, now: NOW });
      const loaded = rankWorkspaceContext(held, { question, limit: 10, now: NOW });
      assert.deepEqual(comparable(loaded), comparable(memory), `${question} (${when})`);
    }
  }

  /** Writes the engine's state, catches the reader up, and returns what the write and the catch-up did. */
  async function writeAndFollow(): Promise<{ generation: number; epoch: number; documents: number }> {
    const report = await store.write(workspaceRows(engine.current()!));
    await reader.refresh();
    const status = reader.status().namespaces.find((n) => n.name === name)!;
    assert.equal(status.generation, report.generation);
    return {
      generation: report.generation,
      epoch: (await store.namespaces())[0].epoch,
      documents: status.lastLoadDocuments,
    };
  }

  it('loads the namespace whole and answers as in memory', () => {
    assertSameAnswers(engine.current()!, 'first load');
    const status = reader.status();
    assert.equal(status.mode, 'memory');
    assert.equal(status.namespaces[0].sections, engine.current()!.counts.sections);
  });

  it('estimates its memory from the sizes the write recorded', async () => {
    const [stored] = await store.namespaces();
    const state = engine.current()!;
    assert.equal(stored.sizes.sections, state.counts.sections);
    assert.equal(stored.sizes.docs, state.docs.size);
    assert.ok(
      stored.sizes.postings > 10 * stored.sizes.sections && stored.sizes.terms > 1000,
      JSON.stringify(stored.sizes),
    );
    assert.equal(reader.status().namespaces[0].estimatedBytes, estimateNamespaceBytes(stored.sizes));
  });

  it('an unchanged write is a digest comparison: no generation, nothing for the reader to read', async () => {
    const report = await store.write(workspaceRows(engine.current()!));
    assert.equal(report.unchanged, true);
    assert.equal(report.generation, 1);
    assert.equal(report.blocksWritten, 0);
  });

  it('follows an edit, a new page and a removed page, reading only the documents each write changed', async () => {
    const runbook = path.join(workspace, 'payments-platform/services/billing-worker/docs/runbooks/deploy.md');
    fs.appendFileSync(runbook, '\n## Quarantine\n\nA zebracorn release is quarantined before any rollback.\n');
    await engine.update([runbook]);
    let followed = await writeAndFollow();
    assert.deepEqual([followed.generation, followed.documents], [2, 1]);
    assertSameAnswers(engine.current()!, 'after an edit');

    const page = path.join(workspace, 'payments-platform/services/billing-worker/docs/runbooks/wombat.md');
    fs.writeFileSync(
      page,
      '# Wombat reconciler runbook\n\nThe wombat reconciler balances the ledger every hour.\n\n## Restarting it\n\nRestart the wombat reconciler with fernctl.\n',
    );
    await engine.update([page]);
    followed = await writeAndFollow();
    assert.equal(followed.generation, 3);
    assertSameAnswers(engine.current()!, 'after a new page');

    fs.rmSync(page);
    await engine.update([page]);
    followed = await writeAndFollow();
    assert.equal(followed.generation, 4);
    assertSameAnswers(engine.current()!, 'after a removed page');
  });

  it('reads the namespace whole again when a write renumbered it (a new epoch), and still answers as in memory', async () => {
    const [before] = await store.namespaces();
    // Every document written again (a new first line each time) until the ordinals pass twice the sections.
    let epoch = before.epoch;
    for (let round = 0; round < 4 && epoch === before.epoch; round++) {
      const changed: string[] = [];
      for (const doc of engine.current()!.docs.values()) {
        if (!doc.path.endsWith('.md')) continue;
        const abs = path.join(workspace, doc.path);
        fs.writeFileSync(abs, `${fs.readFileSync(abs, 'utf8')}\n<!-- round ${round} -->\n`);
        changed.push(abs);
      }
      await engine.update(changed);
      epoch = (await writeAndFollow()).epoch;
    }
    assert.equal(epoch, before.epoch + 1, 'a write renumbered the namespace');
    assertSameAnswers(engine.current()!, 'after renumbering');
  });
});

/**
 * Hybrid from memory: stand-in vectors in the engine's vector cache (bench/fillVectors.ts), the
 * in-memory engine on its exact vector backend, and the reader's exact scan of the namespace's
 * int8 windows; question vectors are sections' vectors with noise.
 */
describe('a store namespace held in memory answers hybrid (words + meaning) as the in-memory engine', function () {
  this.timeout(300_000);
  const centres = clusteredVectors(12, 384, 12, 0, 7);
  let server: PgliteServer;
  let store: PostgresStore;
  let engine: Engine;
  let reader: MemoryReader;
  let state: IndexState;
  let model: string;

  const vectorOf = vectorByDigest(centres);

  before(async () => {
    server = await startPgliteServer({ pgvector: false });
    store = await openPostgresStore(server.url);
    const workspace = copyExampleWorkspace();
    const cacheDir = tempDir('memory-vectors');
    const folder = { name: 'fernhill-hybrid', absPath: workspace };
    const words = new Engine({ folders: [folder] });
    const plain = await words.waitForIndex();
    const plan = planWindows(plain);
    fillVectorCache(plain, cacheDir, (i) => vectorOf(plan.digests[i]));
    words.dispose();
    engine = new Engine({
      folders: [folder],
      cacheDir,
      embeddings: { provider: 'local' },
      embedInBackground: false,
      vectorBackend: 'exact',
    });
    state = await engine.waitForIndex();
    await engine.waitForMeaning();
    model = engine.status().meaning!.model;
    await store.write(workspaceRows(state, engine.meaningRows(state)));
    reader = new MemoryReader(store, { kind: 'all' }, { pollMs: 3_600_000 });
    await reader.start(reader.plan(await store.namespaces()));
  });
  after(async () => {
    await reader?.close();
    engine?.dispose();
    await store?.close();
    await server?.stop();
    removeTempDirs();
  });

  it(`ranks ${QUESTIONS.length} questions exactly as in memory on the exact path`, () => {
    const held = reader.stateOf('fernhill-hybrid')!;
    assert.deepEqual(reader.meaningSummaryOf(held, model), { model, sectionsWithVectors: state.counts.sections });
    assert.equal(reader.holdsVectorsOf(model), true);
    let meaningful = 0;
    const digests = planWindows(state).digests;
    for (const [k, question] of QUESTIONS.entries()) {
      const rand = seededRandom(1000 + k);
      const query = Float32Array.from(vectorOf(digests[(k * 37) % digests.length]), (x) => x + 0.3 * (rand() * 2 - 1));
      const memory = rankWorkspaceContext(state, {
        question,
        limit: 10,
        now: NOW,
        meaning: engine.meaningSource(state, query),
      });
      const meaning = reader.meaningSource(held, query, model);
      assert.ok(meaning, 'the namespace held gives the question a meaning half');
      const loaded = rankWorkspaceContext(held, { question, limit: 10, now: NOW, meaning });
      assert.deepEqual(comparable(loaded), comparable(memory), question);
      if (memory.passages.some((p) => p.why.some((w) => w.signal === 'meaning' && w.contribution > 0))) meaningful++;
    }
    assert.ok(meaningful > QUESTIONS.length / 2, `meaning took part in ${meaningful} answers`);
    // Another model's question has no meaning half here.
    assert.equal(reader.meaningSource(held, new Float32Array(384), `${model}-other`), null);
  });
});
