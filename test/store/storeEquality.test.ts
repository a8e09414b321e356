/**
 * A store answers exactly as the in-memory engine: the example workspace and Argo CD's
 * documentation indexed in memory, written to a PostgreSQL store (PGlite over the wire protocol),
 * and every question ranked both ways: the same passage ids in the same order, the same scores,
 * the same why[] and the same texts. Hybrid answers (words and meaning) are checked the same way
 * in storeEqualityHybrid.test.ts: a file of their own, so that `npm test`'s two workers can take
 * the halves side by side.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../../server/src/engine/engine';
import type { IndexState } from '../../server/src/engine/indexState';
import { rankWorkspaceContext, type RankResult } from '../../server/src/engine/ranking/workspaceContextRanker';
import { StoreReader, type QuestionScope } from '../../server/src/engine/store/storeReader';
import { workspaceRows } from '../../server/src/engine/store/storeRows';
import { openPostgresStore, type PostgresStore } from '../../server/src/store/postgres/pgStore';
import { writeArgocdWorkspace } from '../../bench/evalDocs';
import { loadRankingCases } from '../helpers/rankingCases';
import { EXAMPLE_WORKSPACE } from '../helpers/tempWorkspace';
import { startPgliteServer, type PgliteServer } from '../helpers/pgliteServer';
import { answerOf, comparable, rankScoped } from '../helpers/rankedAnswer';

const ARGOCD = path.resolve(__dirname, '../fixtures/argocd-docs');
const NOW = Date.parse('2026-06-01T00:00:00Z');

async function rankFromStore(
  reader: StoreReader,
  namespace: string,
  question: string,
  limit: number,
): Promise<RankResult> {
  const state = await reader.questionState(namespace, question);
  assert.ok(state, `namespace ${namespace} is stored`);
  const result = rankWorkspaceContext(state, { question, limit, now: NOW });
  await reader.completeTexts(
    namespace,
    result.passages.map((p) => p.entry),
  );
  return result;
}

describe('PostgreSQL store: answers identical to the in-memory engine', function () {
  this.timeout(600_000);
  let server: PgliteServer;
  let store: PostgresStore;
  let reader: StoreReader;
  let narrow: StoreReader;

  before(async () => {
    server = await startPgliteServer();
    store = await openPostgresStore(server.url);
    reader = new StoreReader(store);
    // A small first round (the default is 4,096 postings), so that these small corpora take two
    // rounds and leave sections unread: 32 postings for the example's 350 sections.
    narrow = new StoreReader(store, { firstRoundPostings: 32 });
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
          s.terms.forEach((term, k) =>
            assert.equal(s.packed[k], state.lexical.fieldCounts(ordinal, term), `${s.id} ${term}`),
          );
          const lengths = state.lexical.fieldLengths(ordinal);
          assert.equal(s.bodyLength, lengths.body);
          assert.equal(s.headingLength, lengths.heading);
          checked++;
        }
      }
      assert.equal(checked, state.lexical.sectionCount);
    });

    const questions = [...new Set(loadRankingCases().map((c) => c.question))];
    questions.push(
      'who owns billing-worker?',
      'how do I roll back a failed deploy of component:default/billing-worker',
      'ledger',
      'kubectl rollout undo',
      'zzzz nothing matches this',
    );

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
        await reader.completeTexts(
          'fernhill',
          stored.passages.map((p) => p.entry),
        );
        assert.deepEqual(comparable(stored), comparable(memory), question);
      }
    });

    it('told how a question will be ranked, answers the same (limits 1, 10, 50; kinds narrowed), and with a small first round reads a fraction of the candidates', async () => {
      const kinds = new Set(['catalog_doc', 'library'] as const);
      const scopes: QuestionScope[] = [
        { limit: 1, now: NOW },
        { limit: 10, now: NOW },
        { limit: 50, now: NOW },
        { limit: 10, now: NOW, sourceKinds: kinds },
      ];
      let readAll = 0;
      let readNarrow = 0;
      for (const question of questions) {
        readAll += (await reader.questionState('fernhill', question))!.sections.length;
        for (const scope of scopes) {
          const memory = rankWorkspaceContext(state, { ...scope, question });
          for (const r of [reader, narrow]) {
            const { result, read } = await rankScoped(r, 'fernhill', question, scope);
            assert.deepEqual(
              answerOf(result),
              answerOf(memory),
              `${question} (limit ${scope.limit}${scope.sourceKinds ? ', kinds' : ''}${r === narrow ? ', narrow' : ''})`,
            );
            if (r === narrow && scope.limit === 10 && !scope.sourceKinds) readNarrow += read;
          }
        }
      }
      // Most of the example's questions are long and its lists short: a quarter is left unread (3,939 of 5,277 read).
      assert.ok(
        readNarrow * 5 < readAll * 4,
        `read ${readNarrow} sections for 10 passages against ${readAll} holding an asked term`,
      );
    });

    it('writes again only what changed: an unchanged workspace writes no document', async () => {
      const report = await store.write(workspaceRows(state));
      assert.equal(report.documentsWritten, 0);
      assert.equal(report.documentsRemoved, 0);
      assert.equal(report.documentsKept, state.docs.size);
      assert.equal(report.postingsWritten, 0);
      assert.equal(report.catalogWritten, false);
    });

    it('drops a namespace with its postings, and a first write after that answers as in memory again', async () => {
      const postings = workspaceRows(state).docs.reduce(
        (n, d) => n + d.sections.reduce((m, s) => m + s.terms.length, 0),
        0,
      );
      assert.equal(await store.drop('fernhill'), true);
      assert.equal(await store.drop('fernhill'), false);
      assert.deepEqual(
        (await store.namespaces()).map((n) => n.name).filter((n) => n === 'fernhill'),
        [],
      );
      assert.equal(await reader.questionState('fernhill', 'rollback'), undefined);
      // A new namespace id and a new postings table, loaded before its indexes are built.
      const report = await store.write(workspaceRows(state));
      assert.equal(report.documentsWritten, state.docs.size);
      assert.equal(report.postingsWritten, postings);
      for (const question of questions.slice(0, 12)) {
        const memory = rankWorkspaceContext(state, { question, limit: 10, now: NOW });
        const stored = await rankFromStore(reader, 'fernhill', question, 10);
        assert.deepEqual(comparable(stored), comparable(memory), question);
      }
    });
  });

  describe('Argo CD documentation (test/fixtures/argocd-docs)', () => {
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
      const questions = readFileSync(path.join(ARGOCD, 'questions.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { question: string }).question);
      assert.equal(questions.length, 60);
      for (const question of questions) {
        const memory = rankWorkspaceContext(state, { question, limit: 10, now: NOW });
        const stored = await rankFromStore(reader, 'argocd', question, 10);
        assert.ok(memory.passages.length > 0, question);
        assert.deepEqual(comparable(stored), comparable(memory), question);
      }
    });

    it('told how each question will be ranked, answers all 60 as in memory, and with a small first round reads a fraction of the candidates', async () => {
      const questions = readFileSync(path.join(ARGOCD, 'questions.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { question: string }).question);
      // 256 postings first for Argo CD's 3,700 sections.
      const narrowDocs = new StoreReader(store, { firstRoundPostings: 256 });
      let readAll = 0;
      let readNarrow = 0;
      for (const question of questions) {
        readAll += (await reader.questionState('argocd', question))!.sections.length;
        const memory = rankWorkspaceContext(state, { question, limit: 10, now: NOW });
        for (const r of [reader, narrowDocs]) {
          const { result, read } = await rankScoped(r, 'argocd', question, { limit: 10, now: NOW });
          assert.deepEqual(answerOf(result), answerOf(memory), `${question}${r === narrowDocs ? ' (narrow)' : ''}`);
          if (r === narrowDocs) readNarrow += read;
        }
      }
      // Nearly half is left unread (62,065 of 114,715 read): a long question's common words can
      // still lift a section that holds no rare one past the tenth passage.
      assert.ok(
        readNarrow * 3 < readAll * 2,
        `read ${readNarrow} sections in all against ${readAll} holding an asked term`,
      );
    });

    it('keeps the example namespace apart: its questions still answer from fernhill alone', async () => {
      const stored = await rankFromStore(reader, 'fernhill', 'sync waves', 10);
      assert.ok(stored.passages.every((p) => !p.entry.doc.path.startsWith('docs/user-guide')));
      assert.deepEqual(
        (await store.namespaces()).map((n) => n.name),
        ['argocd', 'fernhill'],
      );
    });
  });
});
