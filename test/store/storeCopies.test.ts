/**
 * A store applies the copy rule as memory does (contract 2026-12-06.5, ranking/scoredCandidates.ts
 * liftOneCopy): a store ranks its candidates before it reads their texts, so the rule compares
 * the digest of each text that the store wrote with its section. Real pages of rclone's docs
 * (bench/corpora/rclone, MIT, see its SOURCE.txt): ten generated command pages repeat the VFS
 * sections ("Fingerprinting" among them), embedded by the packaged model, indexed in memory,
 * written to PostgreSQL (PGlite over the wire protocol) and asked the dev suite's paraphrase
 * (r022) that MiniLM reads close to that section: the store's answer, every candidate read and
 * told how the question will be ranked, and a reader holding the namespace in memory, answer as
 * the in-memory engine, later copies held to their words.
 */
import assert from 'node:assert/strict';
import { Engine } from '../../server/src/engine/engine';
import type { IndexState } from '../../server/src/engine/indexState';
import {
  rankWorkspaceContext,
  type RankedPassage,
  type RankResult,
} from '../../server/src/engine/ranking/workspaceContextRanker';
import { MemoryReader } from '../../server/src/engine/store/memoryReader';
import { StoreReader } from '../../server/src/engine/store/storeReader';
import { workspaceRows } from '../../server/src/engine/store/storeRows';
import { openPostgresStore, type PostgresStore } from '../../server/src/store/postgres/pgStore';
import { startPgliteServer, type PgliteServer } from '../helpers/pgliteServer';
import { answerOf } from '../helpers/rankedAnswer';
import { corpusVectorCache } from '../helpers/runVectors';
import { removeTempDirs } from '../helpers/tempWorkspace';
import { copiesRepository, FINGERPRINTS, PARAPHRASE } from '../unit/engine/ranking/copiesFixture';
import { NOW } from '../unit/engine/ranking/rankingFixture';

const NAMESPACE = 'rclone';

const heldAsCopy = (p: RankedPassage) =>
  p.why.some((w) => w.signal === 'meaning' && w.detail.includes('repeats the text of'));

describe('PostgreSQL store: meaning lifts one copy of a text, as in memory (local model)', function () {
  this.timeout(900_000);
  let server: PgliteServer;
  let store: PostgresStore;
  let engine: Engine;
  let state: IndexState;
  let model: string;
  let exact: StoreReader;
  let held: MemoryReader;

  before(async () => {
    // Embedded once per run: test/unit/engine/ranking/meaningCopies.test.ts ranks the same pages.
    const vectors = corpusVectorCache('rclone-copies');
    engine = new Engine({
      folders: [{ name: NAMESPACE, absPath: copiesRepository() }],
      cacheDir: vectors.dir,
      embeddings: { provider: 'local' },
      vectorBackend: 'exact',
    });
    state = await engine.waitForIndex();
    await engine.waitForMeaning();
    vectors.keep();
    state = engine.current()!;
    model = engine.status().meaning!.model;
    server = await startPgliteServer({ pgvector: false });
    store = await openPostgresStore(server.url);
    await store.write(workspaceRows(state, engine.meaningRows(state)));
    exact = new StoreReader(store, { vectorSearch: 'exact' });
    held = new MemoryReader(store, { kind: 'all' }, { pollMs: 3_600_000 });
    await held.start(held.plan(await store.namespaces()));
  });
  after(async () => {
    await held?.close();
    engine?.dispose();
    await store?.close();
    await server?.stop();
    removeTempDirs();
  });

  /** `question` ranked in memory, from the store (every candidate, and told the limit) and from a reader holding the namespace. */
  async function rankEveryWay(question: string, limit: number) {
    const vector = await engine.embedQuery(question);
    assert.ok(vector, 'the packaged model embeds the question');
    const memory = rankWorkspaceContext(state, {
      question,
      limit,
      now: NOW,
      meaning: engine.meaningSource(state, vector),
    });

    const stored: RankResult[] = [];
    for (const scope of [undefined, { limit, now: NOW }]) {
      const storedState = await exact.questionState(NAMESPACE, question, { vector, model }, scope);
      assert.ok(storedState, 'the namespace is stored');
      const meaning = exact.meaningOf(storedState);
      assert.ok(meaning, 'the store gives the question a meaning half');
      const result = rankWorkspaceContext(storedState, { question, limit, now: NOW, meaning });
      await exact.completeTexts(
        NAMESPACE,
        result.passages.map((p) => p.entry),
      );
      stored.push(result);
    }

    const heldState = held.stateOf(NAMESPACE);
    assert.ok(heldState, 'the reader holds the namespace');
    const loaded = rankWorkspaceContext(heldState, {
      question,
      limit,
      now: NOW,
      meaning: held.meaningSource(heldState, vector, model),
    });
    return { memory, stored, loaded };
  }

  it('a paraphrase close to a repeated section: the store holds the later copies to their words, as memory does', async () => {
    for (const limit of [10, 30]) {
      const { memory, stored, loaded } = await rankEveryWay(PARAPHRASE, limit);
      // The rule moves this ranking: later copies are held, and some of them are still shown.
      const copies = memory.passages.filter(heldAsCopy);
      if (limit === 30) assert.ok(copies.length >= 1, 'memory holds later copies to their words');
      const expected = answerOf(memory);
      assert.deepEqual(answerOf(stored[0]), expected, `every candidate read (limit ${limit})`);
      assert.deepEqual(answerOf(stored[1]), expected, `told how it will be ranked (limit ${limit})`);
      assert.deepEqual(answerOf(loaded), expected, `held in memory (limit ${limit})`);
    }
  });

  it('a question the copies hold whole: no copy shown is held, and the store answers the same', async () => {
    const { memory, stored, loaded } = await rankEveryWay(FINGERPRINTS, 20);
    assert.equal(memory.passages.filter(heldAsCopy).length, 0);
    const expected = answerOf(memory);
    for (const result of [...stored, loaded]) assert.deepEqual(answerOf(result), expected);
  });
});
