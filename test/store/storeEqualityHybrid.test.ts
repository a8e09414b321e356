/**
 * A store answers hybrid questions (words and meaning) exactly as the in-memory engine. The
 * words-only answers are checked in storeEquality.test.ts; the two halves are two files so that
 * `npm test`'s two workers can take them side by side.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../../server/src/engine/engine';
import type { IndexState } from '../../server/src/engine/indexState';
import { rankWorkspaceContext } from '../../server/src/engine/ranking/workspaceContextRanker';
import { StoreReader } from '../../server/src/engine/store/storeReader';
import { workspaceRows } from '../../server/src/engine/store/storeRows';
import { openPostgresStore, type PostgresStore } from '../../server/src/store/postgres/pgStore';
import { writeArgocdWorkspace } from '../../bench/evalDocs';
import { loadRankingCases } from '../helpers/rankingCases';
import { copyExampleWorkspace, removeTempDirs, tempDir } from '../helpers/tempWorkspace';
import { fillVectorCache, planWindows } from '../../bench/fillVectors';
import { clusteredVectors, seededRandom, vectorByDigest } from '../unit/engine/vector/syntheticVectors';
import { LocalEmbedder } from '../../server/src/engine/embeddings/localEmbedder';
import { textDigest } from '../../server/src/engine/embeddings/vectorCache';
import { splitWindows, windowOptionsFor } from '../../server/src/engine/embeddings/windows';
import { embeddingText } from '../../server/src/engine/meaning/sectionVectors';
import { startPgliteServer, type PgliteServer } from '../helpers/pgliteServer';
import { comparable, answerOf, rankScoped } from '../helpers/rankedAnswer';

const ARGOCD = path.resolve(__dirname, '../fixtures/argocd-docs');
const NOW = Date.parse('2026-06-01T00:00:00Z');

/**
 * Hybrid answers (words and meaning) from the store. Vectors come without the model: stand-in
 * vectors written into the engine's vector cache (bench/fillVectors.ts), a function of each
 * window's text digest, so a changed text gets a new vector and an unchanged one keeps its own;
 * question vectors are sections' vectors with noise. The in-memory engine scans its vectors
 * exactly (`vectorBackend: 'exact'`); the store's exact path (the reader's scan of the stored
 * int8 windows: what serves where pgvector is missing) must then answer identically. pgvector's
 * HNSW path is approximate: its nearest sections are checked for recall against the exact scan.
 */
describe('PostgreSQL store: hybrid answers (words + meaning) identical to the in-memory engine', function () {
  this.timeout(600_000);
  const DIMENSION = 384;
  const centres = clusteredVectors(12, DIMENSION, 12, 0, 7);
  let server: PgliteServer;
  let store: PostgresStore;
  let exact: StoreReader;
  let hnsw: StoreReader;
  let workspace: string;
  let cacheDir: string;
  let engine: Engine;
  let state: IndexState;
  let model: string;

  /** The stand-in vector of a window text (by its digest): one of 12 centres plus noise. */
  const vectorOf = vectorByDigest(centres);

  /** Fills the vector cache for every window of the workspace at `dir`. */
  async function fillCache(dir: string): Promise<number> {
    const words = new Engine({ folders: [{ name: 'fernhill-hybrid', absPath: dir }] });
    try {
      const current = await words.waitForIndex();
      const plan = planWindows(current);
      fillVectorCache(current, cacheDir, (i) => vectorOf(plan.digests[i]));
      return plan.windows;
    } finally {
      words.dispose();
    }
  }

  function queryVector(k: number, of: IndexState = state): Float32Array {
    const entries = of.sections.filter((e) => e !== undefined);
    const entry = entries[(k * 37) % entries.length]!;
    const rand = seededRandom(1000 + k);
    return Float32Array.from(
      vectorOf(
        textDigest(
          splitWindows(embeddingText(entry), windowOptionsFor(new LocalEmbedder({ model: 'minilm' })))[0].text,
        ),
      ),
      (x) => x + 0.3 * (rand() * 2 - 1),
    );
  }

  async function rankBoth(reader: StoreReader, question: string, k: number, limit = 10) {
    const vector = queryVector(k);
    const memory = rankWorkspaceContext(state, {
      question,
      limit,
      now: NOW,
      meaning: engine.meaningSource(state, vector),
    });
    const storedState = await reader.questionState('fernhill-hybrid', question, { vector, model });
    assert.ok(storedState);
    const meaning = reader.meaningOf(storedState);
    assert.ok(meaning, 'the store gives the question a meaning half');
    const stored = rankWorkspaceContext(storedState, { question, limit, now: NOW, meaning });
    await reader.completeTexts(
      'fernhill-hybrid',
      stored.passages.map((p) => p.entry),
    );
    return { memory, stored, meaning, storedState };
  }

  const questions = [...new Set(loadRankingCases().map((c) => c.question))].slice(0, 40);
  const EDITED = 'payments-platform/services/billing-worker/docs/runbooks/dunning.md';

  function editRunbook(dir: string): string {
    const abs = path.join(dir, EDITED);
    writeFileSync(
      abs,
      `${readFileSync(abs, 'utf8')}\n\n## Paging the ledger on-call\n\nWhen the ledger drifts, page the on-call and freeze refunds until it reconciles.\n`,
    );
    return abs;
  }

  before(async () => {
    server = await startPgliteServer();
    store = await openPostgresStore(server.url);
    assert.equal(store.pgvector, true, 'PGlite loads pgvector');
    exact = new StoreReader(store, { vectorSearch: 'exact' });
    hnsw = new StoreReader(store);
    workspace = copyExampleWorkspace();
    cacheDir = tempDir('vectors');
    await fillCache(workspace);
    // The workspace after the edit of the incremental test, cached up front: the engine reads
    // its vector cache once, when it starts.
    const edited = copyExampleWorkspace();
    editRunbook(edited);
    await fillCache(edited);
    engine = new Engine({
      folders: [{ name: 'fernhill-hybrid', absPath: workspace }],
      cacheDir,
      embeddings: { provider: 'local' },
      embedInBackground: false,
      vectorBackend: 'exact',
    });
    state = await engine.waitForIndex();
    await engine.waitForMeaning();
    model = engine.status().meaning!.model;
  });
  after(async () => {
    engine?.dispose();
    await store?.close();
    await server?.stop();
    removeTempDirs();
  });

  it('writes every section with its vectors and the embedder id', async () => {
    const status = engine.status().meaning!;
    assert.equal(status.sectionsPending, 0);
    assert.equal(status.sectionsWithVectors, state.counts.sections);
    const rows = workspaceRows(state, engine.meaningRows(state));
    const windows = rows.docs.flatMap((d) => d.sections).reduce((n, s) => n + (s.vectors?.codes.length ?? 0), 0);
    const report = await store.write(rows);
    assert.equal(report.vectorSectionsWritten, state.counts.sections);
    assert.equal(report.windowsWritten, windows);
    assert.ok(windows > state.counts.sections, 'long sections have more than one window');
    assert.deepEqual(
      (await store.namespaces()).map((n) => [n.name, n.vectorModel]),
      [['fernhill-hybrid', model]],
    );
    // The crowd sample: every section of a workspace under 512 sections, in ordinal order.
    assert.deepEqual(
      rows.meaning!.sampleIds,
      state.sections.filter((e) => e !== undefined).map((e) => e!.section.id),
    );
  });

  it(`ranks ${questions.length} questions exactly as in memory on the exact path (ids, order, scores, why[], texts)`, async () => {
    let meaningOnly = 0;
    for (const [k, question] of questions.entries()) {
      const { memory, stored } = await rankBoth(exact, question, k);
      assert.deepEqual(comparable(stored), comparable(memory), question);
      // Meaning took part: passages hold a meaning term, some found by meaning alone.
      assert.ok(
        memory.passages.some((p) => p.why.some((w) => w.signal === 'meaning' && w.contribution > 0)),
        question,
      );
      meaningOnly += memory.passages.filter(
        (p) => !p.why.some((w) => w.signal === 'words' && w.contribution > 0),
      ).length;
    }
    assert.ok(meaningOnly > 0, 'some passages come from the nearest sections by meaning alone');
  });

  it('proposes the nearest sections from pgvector HNSW with recall >= 0.95 of the exact scan', async () => {
    let found = 0;
    let wanted = 0;
    let identical = 0;
    for (const [k, question] of questions.entries()) {
      const viaHnsw = await rankBoth(hnsw, question, k);
      const viaExact = await rankBoth(exact, question, k);
      const ids = (r: typeof viaExact) => new Set(r.meaning.nearest.map((o) => r.storedState.sections[o]!.section.id));
      const want = ids(viaExact);
      const got = ids(viaHnsw);
      wanted += want.size;
      for (const id of want) if (got.has(id)) found++;
      if (JSON.stringify(comparable(viaHnsw.stored)) === JSON.stringify(comparable(viaExact.stored))) identical++;
    }
    assert.ok(found / wanted >= 0.95, `recall ${found}/${wanted}`);
    assert.ok(identical / questions.length >= 0.9, `${identical} of ${questions.length} answers identical`);
  });

  it('ranks the 60 Argo CD questions exactly as in memory on a server without pgvector (a crowd sampled at strided ordinals)', async () => {
    // A server without the extension: the store's own exact path, no reader option needed.
    const plainServer = await startPgliteServer({ pgvector: false });
    const plainStore = await openPostgresStore(plainServer.url);
    assert.equal(plainStore.pgvector, false);
    const reader = new StoreReader(plainStore);
    const narrow = new StoreReader(plainStore, { firstRoundPostings: 256 });
    let readAll = 0;
    let readNarrow = 0;
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'wsctx-store-argocd-hybrid-'));
    const folder = { name: 'argocd-hybrid', absPath: writeArgocdWorkspace(ARGOCD, tmp) };
    const argoCache = tempDir('argocd-vectors');
    // Indexed once: the engine with embeddings restores this one's snapshot.
    const words = new Engine({ folders: [folder], cacheDir: argoCache });
    const plain = await words.waitForIndex();
    await words.saveSnapshot();
    const plan = planWindows(plain);
    fillVectorCache(plain, argoCache, (i) => vectorOf(plan.digests[i]));
    words.dispose();
    const argo = new Engine({
      folders: [folder],
      cacheDir: argoCache,
      embeddings: { provider: 'local' },
      embedInBackground: false,
      vectorBackend: 'exact',
    });
    try {
      const argoState = await argo.waitForIndex();
      await argo.waitForMeaning();
      assert.ok(argoState.sections.length > 2 * 512, 'more sections than the crowd sample');
      await plainStore.write(workspaceRows(argoState, argo.meaningRows(argoState)));
      const asked = readFileSync(path.join(ARGOCD, 'questions.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { question: string }).question);
      for (const [k, question] of asked.entries()) {
        const vector = queryVector(k, argoState);
        const memory = rankWorkspaceContext(argoState, {
          question,
          limit: 10,
          now: NOW,
          meaning: argo.meaningSource(argoState, vector),
        });
        const storedState = (await reader.questionState('argocd-hybrid', question, { vector, model }))!;
        const stored = rankWorkspaceContext(storedState, {
          question,
          limit: 10,
          now: NOW,
          meaning: reader.meaningOf(storedState),
        });
        await reader.completeTexts(
          'argocd-hybrid',
          stored.passages.map((p) => p.entry),
        );
        assert.deepEqual(comparable(stored), comparable(memory), question);
        // Told how it will be ranked, the store reads fewer sections and answers the same.
        const scoped = await rankScoped(narrow, 'argocd-hybrid', question, { limit: 10, now: NOW }, { vector, model });
        assert.deepEqual(answerOf(scoped.result), answerOf(memory), `${question} (scoped)`);
        readAll += storedState.sections.length;
        readNarrow += scoped.read;
      }
      // Meaning lifts what a section outside the nearest can score: fewer sections are left unread
      // (76,260 of 115,792 read).
      assert.ok(
        readNarrow * 4 < readAll * 3,
        `read ${readNarrow} sections in all against ${readAll} holding an asked term or nearest`,
      );
    } finally {
      argo.dispose();
      rmSync(tmp, { recursive: true, force: true });
      await plainStore.close();
      await plainServer.stop();
    }
  });

  it('writes no vector again for an unchanged workspace', async () => {
    const report = await store.write(workspaceRows(state, engine.meaningRows(state)));
    assert.equal(report.vectorSectionsWritten, 0);
    assert.equal(report.windowsWritten, 0);
    assert.equal(report.documentsWritten, 0);
  });

  it('after a file changes writes the changed sections and their vectors only, and still answers as in memory', async () => {
    const abs = editRunbook(workspace);
    await engine.update([abs]);
    await engine.waitForMeaning();
    state = engine.current()!;
    assert.equal(engine.status().meaning!.sectionsWithVectors, state.counts.sections);
    const docSections = [...state.docs.values()].find((d) => d.path === EDITED)!.sections.length;
    const report = await store.write(workspaceRows(state, engine.meaningRows(state)));
    assert.equal(report.documentsWritten, 1);
    assert.equal(report.vectorSectionsWritten, docSections);
    for (const [k, question] of questions.slice(0, 15).entries()) {
      const { memory, stored } = await rankBoth(exact, question, k);
      assert.deepEqual(comparable(stored), comparable(memory), question);
    }
  });

  it("never mixes models: another embedder's vectors replace every vector, and its questions find no meaning half for this model", async () => {
    const other = { ...engine.meaningRows(state)!, model: `${model}-other` };
    const report = await store.write(workspaceRows(state, other));
    assert.equal(report.vectorSectionsWritten, state.counts.sections);
    const question = questions[0];
    const words = await exact.questionState('fernhill-hybrid', question, { vector: queryVector(0), model });
    assert.equal(exact.meaningOf(words!), undefined);
    // Back to this model: every vector written again, and answers as in memory.
    const back = await store.write(workspaceRows(state, engine.meaningRows(state)));
    assert.equal(back.vectorSectionsWritten, state.counts.sections);
    const { memory, stored } = await rankBoth(exact, question, 0);
    assert.deepEqual(comparable(stored), comparable(memory), question);
  });
});
