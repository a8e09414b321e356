/**
 * A store answers exactly as the in-memory engine: the example workspace and Argo CD's
 * documentation indexed in memory, written to a PostgreSQL store (PGlite over the wire protocol),
 * and every question ranked both ways: the same passage ids in the same order, the same scores,
 * the same why[] and the same texts.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../../server/src/engine/engine';
import type { IndexState } from '../../server/src/engine/indexState';
import { rankWorkspaceContext, type RankResult } from '../../server/src/engine/ranking/workspaceContextRanker';
import { StoreReader } from '../../server/src/engine/store/storeReader';
import { workspaceRows } from '../../server/src/engine/store/storeRows';
import { openPostgresStore, type PostgresStore } from '../../server/src/store/postgres/pgStore';
import { writeArgocdWorkspace } from '../../bench/evalArgocd';
import { loadRankingCases } from '../helpers/rankingCases';
import { EXAMPLE_WORKSPACE } from '../helpers/tempWorkspace';
import { startPgliteServer, type PgliteServer } from '../helpers/pgliteServer';

const ARGOCD = path.resolve(__dirname, '../../../shared/data/argocd-docs');
const NOW = Date.parse('2026-06-01T00:00:00Z');

/** What must be equal: everything a tool renders of a ranking. */
function comparable(result: RankResult) {
  return {
    terms: result.terms,
    dropped: result.droppedTerms,
    named: result.named.map((n) => n.key),
    candidates: result.candidates,
    passages: result.passages.map((p) => ({ id: p.entry.section.id, doc: p.entry.doc.id, path: p.entry.doc.path, text: p.entry.section.text, score: p.score, match: p.match, own: p.ownWords, capped: p.capped ?? false, why: p.why })),
  };
}

async function rankFromStore(reader: StoreReader, namespace: string, question: string, limit: number): Promise<RankResult> {
  const state = await reader.questionState(namespace, question);
  assert.ok(state, `namespace ${namespace} is stored`);
  const result = rankWorkspaceContext(state, { question, limit, now: NOW });
  await reader.completeTexts(namespace, result.passages.map((p) => p.entry));
  return result;
}

describe('PostgreSQL store: answers identical to the in-memory engine', function () {
  this.timeout(600_000);
  let server: PgliteServer;
  let store: PostgresStore;
  let reader: StoreReader;

  before(async () => {
    server = await startPgliteServer();
    store = await openPostgresStore(server.url);
    reader = new StoreReader(store);
  });
  after(async () => {
    await store?.close();
    await server?.stop();
  });

  describe('the example workspace', () => {
    let engine: Engine;
    let state: IndexState;
    before(async () => {
      engine = new Engine({ folders: [{ name: 'fernhill', absPath: EXAMPLE_WORKSPACE }] });
      state = await engine.waitForIndex();
      await store.write(workspaceRows(state));
    });
    after(() => engine.dispose());

    it('stores every section with the very terms and field counts of the in-memory postings', async () => {
      const rows = workspaceRows(state);
      let checked = 0;
      for (const { sections } of rows.docs) {
        for (const s of sections) {
          const ordinal = state.sectionOrdinalById.get(s.id)!;
          s.terms.forEach((term, k) => assert.equal(s.packed[k], state.lexical.fieldCounts(ordinal, term), `${s.id} ${term}`));
          const lengths = state.lexical.fieldLengths(ordinal);
          assert.equal(s.bodyLength, lengths.body);
          assert.equal(s.headingLength, lengths.heading);
          checked++;
        }
      }
      assert.equal(checked, state.lexical.sectionCount);
    });

    const questions = [...new Set(loadRankingCases().map((c) => c.question))];
    questions.push('who owns billing-worker?', 'how do I roll back a failed deploy of component:default/billing-worker', 'ledger', 'kubectl rollout undo', 'zzzz nothing matches this');

    it(`ranks ${questions.length} questions exactly as in memory (ids, order, scores, why[], texts)`, async () => {
      for (const question of questions) {
        const memory = rankWorkspaceContext(state, { question, limit: 10, now: NOW });
        const stored = await rankFromStore(reader, 'fernhill', question, 10);
        assert.deepEqual(comparable(stored), comparable(memory), question);
      }
    });

    it('answers with source kinds narrowed and with a larger limit the same way', async () => {
      for (const question of questions.slice(0, 8)) {
        const kinds = new Set(['catalog_doc', 'library'] as const);
        const memory = rankWorkspaceContext(state, { question, limit: 30, now: NOW, sourceKinds: kinds });
        const storedState = (await reader.questionState('fernhill', question))!;
        const stored = rankWorkspaceContext(storedState, { question, limit: 30, now: NOW, sourceKinds: kinds });
        await reader.completeTexts('fernhill', stored.passages.map((p) => p.entry));
        assert.deepEqual(comparable(stored), comparable(memory), question);
      }
    });

    it('writes again only what changed: an unchanged workspace writes no document', async () => {
      const report = await store.write(workspaceRows(state));
      assert.equal(report.documentsWritten, 0);
      assert.equal(report.documentsRemoved, 0);
      assert.equal(report.documentsKept, state.docs.size);
      assert.equal(report.postingsWritten, 0);
      assert.equal(report.catalogWritten, false);
    });
  });

  (existsSync(ARGOCD) ? describe : describe.skip)('Argo CD documentation (../shared/data/argocd-docs)', () => {
    let engine: Engine;
    let state: IndexState;
    let tmp: string;
    before(async () => {
      tmp = mkdtempSync(path.join(os.tmpdir(), 'wsctx-store-argocd-'));
      const workspace = writeArgocdWorkspace(ARGOCD, tmp);
      engine = new Engine({ folders: [{ name: 'argocd', absPath: workspace }] });
      state = await engine.waitForIndex();
      await store.write(workspaceRows(state));
    });
    after(() => {
      engine?.dispose();
      rmSync(tmp, { recursive: true, force: true });
    });

    it('ranks all 60 labelled questions exactly as in memory', async () => {
      const questions = readFileSync(path.join(ARGOCD, 'questions.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { question: string }).question);
      assert.equal(questions.length, 60);
      for (const question of questions) {
        const memory = rankWorkspaceContext(state, { question, limit: 10, now: NOW });
        const stored = await rankFromStore(reader, 'argocd', question, 10);
        assert.ok(memory.passages.length > 0, question);
        assert.deepEqual(comparable(stored), comparable(memory), question);
      }
    });

    it('keeps the example namespace apart: its questions still answer from fernhill alone', async () => {
      const stored = await rankFromStore(reader, 'fernhill', 'sync waves', 10);
      assert.ok(stored.passages.every((p) => !p.entry.doc.path.startsWith('docs/user-guide')));
      assert.deepEqual((await store.namespaces()).map((n) => n.name), ['argocd', 'fernhill']);
    });
  });
});
