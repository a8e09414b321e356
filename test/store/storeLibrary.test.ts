/**
 * The library tools answer from a store exactly as from memory: the example workspace (its
 * `.context/` library beside its catalog and TechDocs) and awesome-copilot's instruction library
 * (many stacks that read alike) are indexed in memory, written to a PostgreSQL store (PGlite over
 * the wire protocol), and every library tool is called on both engines with the same arguments:
 * get_context on every labelled task, search_instructions on each task's words and the toc,
 * section, page and file of what those answers name. Outputs must be equal field for field, and
 * the store's reader must have known the corpus count of every term the tools weighed.
 */
import assert from 'node:assert/strict';
import { Engine } from '../../server/src/engine/engine';
import { StoreReader } from '../../server/src/engine/store/storeReader';
import { workspaceRows } from '../../server/src/engine/store/storeRows';
import { openPostgresStore, type PostgresStore } from '../../server/src/store/postgres/pgStore';
import { storeIndex } from '../../server/src/store/storeIndex';
import { createServices, type Services } from '../../server/src/services/services';
import { callTool } from '../../server/src/tools/callTool';
import { findTool } from '../../server/src/tools/registry';
import { contextSetFiles, loadContextTasks, type ContextTask } from '../../bench/evalContext';
import { startPgliteServer, type PgliteServer } from '../helpers/pgliteServer';

const NOW = new Date('2026-06-01T00:00:00Z');

async function call(
  services: Services,
  tool: string,
  args: Record<string, unknown>,
  sessionId: string,
): Promise<Record<string, unknown>> {
  return (await callTool(services, findTool(tool)!, args, { sessionId })) as Record<string, unknown>;
}

/** Page ids and section ids an answer names, for the follow-up calls. */
function idsIn(output: Record<string, unknown>): { pages: string[]; sections: string[] } {
  const pages: string[] = [];
  const sections: string[] = [];
  for (const page of (output.pages as { id: string; sections?: { id: string }[] }[] | undefined) ?? []) {
    pages.push(page.id);
    for (const s of page.sections ?? []) sections.push(s.id);
  }
  for (const doc of (output.documents as { id: string; sections?: { id: string }[] }[] | undefined) ?? []) {
    pages.push(doc.id);
    for (const s of doc.sections ?? []) sections.push(s.id);
  }
  return { pages, sections };
}

describe('PostgreSQL store: the library tools answer as the in-memory engine', function () {
  this.timeout(600_000);
  let server: PgliteServer;
  let store: PostgresStore;

  before(async () => {
    server = await startPgliteServer();
    store = await openPostgresStore(server.url);
  });
  after(async () => {
    await store?.close();
    await server?.stop();
  });

  for (const set of ['fernhill', 'awesome-copilot'] as const) {
    describe(set === 'fernhill' ? 'the example workspace' : "awesome-copilot's instruction library", () => {
      let engine: Engine;
      let memory: Services;
      let stored: Services;
      let reader: StoreReader;
      let tasks: ContextTask[];
      const namespace = set;

      before(async () => {
        const files = contextSetFiles(set);
        tasks = loadContextTasks(files.tasks);
        engine = new Engine({
          folders: [{ name: namespace, absPath: files.workspace }],
          embeddings: { provider: 'off' },
        });
        await store.write(workspaceRows(await engine.waitForIndex()));
        reader = new StoreReader(store);
        memory = createServices({ engine, now: () => NOW });
        stored = createServices({
          engine: storeIndex([{ name: namespace, absPath: files.workspace }], reader),
          now: () => NOW,
        });
      });
      after(() => engine?.dispose());

      it('get_context: the same bundle for every labelled task, in both formats', async () => {
        assert.ok(tasks.length >= 30, `${tasks.length} tasks`);
        let pagesSent = 0;
        for (const task of tasks) {
          for (const format of ['json', 'markdown'] as const) {
            const args = { task: task.task, format, ...task.args };
            const fromMemory = await call(memory, 'get_context', args, `ctx-${task.id}-${format}`);
            const fromStore = await call(stored, 'get_context', args, `ctx-${task.id}-${format}`);
            assert.deepEqual(fromStore, fromMemory, `${task.id} (${format})`);
            if (format === 'json') pagesSent += (fromMemory.pages as unknown[]).length;
          }
        }
        // Not a vacuous comparison: the bundles hold pages.
        assert.ok(pagesSent > tasks.length, `${pagesSent} pages over ${tasks.length} tasks`);
        assert.deepEqual(await reader.unknownLibraryTerms(namespace), []);
      });

      it('search_instructions, get_toc, get_section, read_page and get_file: the same answers', async () => {
        let followed = 0;
        for (const task of tasks.slice(0, 20)) {
          const session = `lib-${task.id}`;
          const plan = { plan: task.task };
          const searchMemory = await call(memory, 'search_instructions', plan, session);
          assert.deepEqual(await call(stored, 'search_instructions', plan, session), searchMemory, `search ${task.id}`);
          const toc = { query: task.task.split(' ').slice(0, 3).join(' ') };
          assert.deepEqual(
            await call(stored, 'get_toc', toc, session),
            await call(memory, 'get_toc', toc, session),
            `toc ${task.id}`,
          );
          const { pages, sections } = idsIn(
            await call(memory, 'get_context', { task: task.task, format: 'json' }, `${session}-ids`),
          );
          for (const id of pages.slice(0, 2)) {
            for (const [tool, args] of [
              ['get_toc', { document_id: id }],
              ['read_page', { page_id: id }],
              ['get_file', { page_id: id }],
            ] as const) {
              const fromMemory = await callTool(memory, findTool(tool)!, args, { sessionId: session }).catch(
                (e: Error) => ({ error: e.message }),
              );
              const fromStore = await callTool(stored, findTool(tool)!, args, { sessionId: session }).catch(
                (e: Error) => ({ error: e.message }),
              );
              assert.deepEqual(fromStore, fromMemory, `${tool} ${id} (${task.id})`);
              followed++;
            }
          }
          for (const id of sections.slice(0, 2)) {
            assert.deepEqual(
              await call(stored, 'get_section', { id }, session),
              await call(memory, 'get_section', { id }, session),
              `section ${id}`,
            );
            followed++;
          }
        }
        assert.ok(followed > 40, `${followed} follow-up calls`);
        assert.deepEqual(await reader.unknownLibraryTerms(namespace), []);
      });
    });
  }

  // After the sets above: both namespaces are stored by then.
  describe('two namespaces with a library', () => {
    it('a store serving both refuses the library tools by name', async () => {
      const reader = new StoreReader(store);
      const engine = storeIndex(
        (await store.namespaces()).filter((n) => n.name === 'fernhill' || n.name === 'awesome-copilot'),
        reader,
      );
      await assert.rejects(
        callTool(createServices({ engine }), findTool('get_toc')!, {}, { sessionId: 'x' }),
        /awesome-copilot, fernhill each hold one: serve the one to read on its own/,
      );
    });
  });
});
