/**
 * Key paths and release notes through a store: GoReleaser's documentation (bench/corpora/goreleaser,
 * MIT) indexed in memory and written to a PostgreSQL store (PGlite over the wire protocol), and its
 * 62 labelled questions (12 of them dotted configuration paths, some matched only by a trailing
 * form such as `repository.token`) ranked both ways: the same passages, scores and why[]. The store
 * reads a question's trailing forms with its terms and parts (storeReader.ts), and a release
 * note's weight is decided from what a question state holds of a document (its path and title).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../server/src/engine/engine';
import type { IndexState } from '../../server/src/engine/indexState';
import { rankWorkspaceContext, type RankResult } from '../../server/src/engine/ranking/workspaceContextRanker';
import { StoreReader } from '../../server/src/engine/store/storeReader';
import { workspaceRows } from '../../server/src/engine/store/storeRows';
import { openPostgresStore, type PostgresStore } from '../../server/src/store/postgres/pgStore';
import { docsCorpora, writeDocsWorkspace } from '../../bench/evalDocs';
import { removeTempDirs, tempDir } from '../helpers/tempWorkspace';
import { startPgliteServer, type PgliteServer } from '../helpers/pgliteServer';

const NOW = Date.parse('2026-06-01T00:00:00Z');

function comparable(result: RankResult) {
  return {
    terms: result.terms,
    passages: result.passages.map((p) => ({
      id: p.entry.section.id,
      path: p.entry.doc.path,
      score: p.score,
      match: p.match,
      capped: p.capped ?? false,
      why: p.why,
    })),
  };
}

describe('PostgreSQL store: key paths and release notes as in memory (GoReleaser docs)', function () {
  this.timeout(600_000);
  let server: PgliteServer;
  let store: PostgresStore;
  let engine: Engine;
  let state: IndexState;
  const corpus = docsCorpora('')[2];

  before(async () => {
    server = await startPgliteServer();
    store = await openPostgresStore(server.url);
    engine = new Engine({
      folders: [{ name: 'goreleaser', absPath: writeDocsWorkspace(corpus, tempDir('store-goreleaser')) }],
      embeddings: { provider: 'off' },
    });
    state = await engine.waitForIndex();
    await store.write(workspaceRows(state));
  });
  after(async () => {
    engine?.dispose();
    await store?.close();
    await server?.stop();
    removeTempDirs();
  });

  it('ranks the 62 labelled questions exactly as in memory, whole reads and scoped ones', async () => {
    const questions = readFileSync(path.join(corpus.dir, 'questions.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { question: string }).question);
    const reader = new StoreReader(store);
    const narrow = new StoreReader(store, { firstRoundPostings: 32 });
    let trailing = 0;
    for (const question of questions) {
      const memory = rankWorkspaceContext(state, { question, limit: 10, now: NOW });
      const whole = (await reader.questionState('goreleaser', question))!;
      assert.deepEqual(
        comparable(rankWorkspaceContext(whole, { question, limit: 10, now: NOW })),
        comparable(memory),
        question,
      );
      const scoped = (await narrow.questionState('goreleaser', question, undefined, { limit: 10, now: NOW }))!;
      assert.deepEqual(
        comparable(rankWorkspaceContext(scoped, { question, limit: 10, now: NOW })).passages,
        comparable(memory).passages,
        `${question} (scoped)`,
      );
      if (memory.passages.some((p) => p.why.some((w) => w.terms?.some((t) => t.fields.includes('trailing')))))
        trailing++;
    }
    assert.ok(trailing >= 2, `${trailing} questions answered through a trailing form`);
  });
});
