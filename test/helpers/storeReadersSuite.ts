/**
 * Readers that hold a store in memory, one writer: run against any PostgreSQL server (PGlite
 * over the wire protocol, Debian's PostgreSQL). Four real workspaces (the example and three
 * catalogs of test/fixtures) are indexed by this process, each folder alone, and written as four
 * namespaces; two `wsctx serve --store` processes (the built CLI, memory mode) answer the real MCP
 * client over HTTP, one serving every namespace, the other the two its config file's `namespaces`
 * list names. Every answer is compared, field for field, with the same tool called on the
 * in-memory engine of that folder alone (the writer's own engine): after the first write, after
 * a write both readers follow, and from a reader restarted while a write is in flight (which
 * holds the old generation or the new one, never a mix).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client as PgClient } from 'pg';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Engine } from '../../server/src/engine/engine';
import type { IndexState } from '../../server/src/engine/indexState';
import {
  folderNamedBy,
  questionIndexTerms,
  rankWorkspaceContext,
  shortId,
  statisticsOf,
  summedStatistics,
} from '../../server/src/engine';
import { workspaceRows } from '../../server/src/engine/store/storeRows';
import { openPostgresStore, type PostgresStore } from '../../server/src/store/postgres/pgStore';
import { writeNamespace } from '../../server/src/store/postgres/pgWrite';
import { createServices, type Services } from '../../server/src/services/services';
import { callTool } from '../../server/src/tools/callTool';
import { findTool } from '../../server/src/tools/registry';
import { TEST_CACHE_DIR, TEST_CONFIG_HOME, WSCTX } from './cli';
import { connectHttp } from './mcpClients';
import { serveStatus, waitForGeneration, wsctxAsync } from './storeCliSuite';
import { copyExampleWorkspace, removeTempDirs, tempDir } from './tempWorkspace';

const FIXTURES = path.resolve(__dirname, '../fixtures');
const TOKEN = 'r'.repeat(40);

/** Each folder and questions about its own entities and docs (test/mcp/severalFolders.test.ts's, and the example's). */
const FOLDERS: { fixture: string | null; questions: string[] }[] = [
  {
    fixture: null,
    questions: [
      'how do we roll back billing-worker?',
      'who owns the ledger API',
      'what does the deploy pipeline do when a migration fails',
    ],
  },
  {
    fixture: 'roadie-backstage-plugins',
    questions: [
      'backstage-plugin-argo-cd',
      'who owns backstage-plugin-jira?',
      'how do I configure the prometheus plugin?',
      'scaffolder http request action',
    ],
  },
  {
    fixture: 'backstage-catalog-examples/packages/catalog-model/examples',
    questions: ['artist-lookup', 'who owns the wayback search?', 'which APIs does the petstore provide?'],
  },
  {
    fixture: 'backstage-demo',
    questions: ['backstage-demo', 'demo graphql api', 'how do I draw a mermaid diagram in the docs?'],
  },
];

/** A `wsctx serve --store` process (memory mode) and an MCP client connected to it. */
interface Reader {
  endpoint: string;
  client: Client;
  child: ChildProcess;
  stderr: () => string;
  stop(): Promise<void>;
}

/** Starts `serve --store` with `args`; resolves once it serves (every namespace it serves loaded). */
async function startReader(url: string, env: NodeJS.ProcessEnv, args: string[] = []): Promise<Reader> {
  const child = spawn(process.execPath, [WSCTX, 'serve', '--store', url, '--port', '0', '--token', TOKEN, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      WSCTX_CACHE_DIR: TEST_CACHE_DIR,
      XDG_CONFIG_HOME: TEST_CONFIG_HOME,
      WSCTX_EMBEDDINGS: 'off',
      WSCTX_STORE_POLL_MS: '200',
      ...env,
    },
  });
  let stderr = '';
  const endpoint = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve --store did not start: ${stderr}`)), 120_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const m = /url:\s+(\S+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve --store exited with ${code}: ${stderr}`));
    });
  });
  const client = await connectHttp(endpoint, TOKEN);
  return {
    endpoint,
    client,
    child,
    stderr: () => stderr,
    async stop() {
      await client.close().catch(() => undefined);
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A tool's answer as a client receives it (JSON), from the MCP client or from an in-process call. */
async function viaMcp(client: Client, name: string, args: Record<string, unknown>): Promise<unknown> {
  const result = await client.callTool({ name, arguments: args });
  assert.ok(!result.isError, `${name} ${JSON.stringify(args)}: ${JSON.stringify(result.content)}`);
  return result.structuredContent;
}

/** The same call on an in-memory engine, as the MCP server would put it in `structuredContent`. */
async function inMemory(services: Services, name: string, args: Record<string, unknown>): Promise<unknown> {
  const tool = findTool(name)!;
  const output = await callTool(services, tool, args, { sessionId: 'reference' });
  return JSON.parse(JSON.stringify(tool.structuredContent ? tool.structuredContent(output) : output)) as unknown;
}

function withoutPinned(answer: unknown): unknown {
  const { pinned: _pinned, ...rest } = answer as Record<string, unknown>;
  return rest;
}

/** One folder: its directory, name, the writer's engine (the in-memory reference) and its questions. */
interface Folder {
  dir: string;
  name: string;
  engine: Engine;
  services: Services;
  questions: string[];
}

/** The calls each folder is compared on: its questions, two entities' neighbourhoods and a page. */
function callsOf(folder: Folder, state: IndexState): { name: string; args: Record<string, unknown> }[] {
  const calls: { name: string; args: Record<string, unknown> }[] = folder.questions.map((question) => ({
    name: 'workspace_context',
    args: { workspace: folder.name, question, limit: 10 },
  }));
  for (const entity of state.entities.slice(0, 2))
    calls.push({
      name: 'workspace_expand',
      args: { workspace: folder.name, entityRef: entity.ref, depth: 2, direction: 'both' },
    });
  return calls;
}

/**
 * Registers the suite. `url()` gives the server's connection string once `before` has run; `env`
 * goes to every reader (PGlite takes one connection at a time: WSCTX_STORE_CONNECTIONS=1).
 * `snapshots`: the server keeps a transaction's writes from others until it commits (PostgreSQL);
 * PGlite answers one transaction at a time, so a reader starting mid-write waits for the commit.
 */
export function storeReadersSuite(url: () => string, env: NodeJS.ProcessEnv, options: { snapshots: boolean }): void {
  const folders: Folder[] = [];
  let store: PostgresStore;
  let all: Reader;
  let some: Reader;
  let config: string;

  before(async function () {
    if (!fs.existsSync(WSCTX)) throw new Error(`${WSCTX} is missing: run \`npm run build\` first`);
    store = await openPostgresStore(url(), { maxConnections: 1 });
    for (const { fixture, questions } of FOLDERS) {
      let dir: string;
      if (fixture === null) dir = copyExampleWorkspace();
      else {
        dir = tempDir(path.basename(fixture));
        fs.cpSync(path.join(FIXTURES, fixture), dir, { recursive: true });
      }
      const name = path.basename(dir);
      const engine = new Engine({ folders: [{ name, absPath: dir }] });
      const state = await engine.waitForIndex();
      await store.write(workspaceRows(state));
      folders.push({ dir, name, engine, services: createServices({ engine }), questions });
    }
    config = path.join(tempDir('readers'), 'reader-b.yaml');
    // The second reader serves the example and the plugin monorepo, one by a pattern.
    fs.writeFileSync(config, `namespaces: [${folders[0].name}, '${folders[1].name.slice(0, -4)}*']\n`);
    [all, some] = await Promise.all([startReader(url(), env), startReader(url(), env, ['--config', config])]);
  });
  after(async () => {
    await Promise.all([all?.stop(), some?.stop()]);
    for (const f of folders) f.engine.dispose();
    await store?.close();
    removeTempDirs();
  });

  it('says what each reader holds before it loads, and in its status: the namespaces of its config list only', async () => {
    assert.match(all.stderr(), /\[store\] loading 4 namespaces into memory, about \d+/);
    for (const f of folders)
      assert.match(
        all.stderr(),
        new RegExp(`  ${f.name}: \\d+ sections, \\d+ postings, 0 vector windows, generation 1: about \\d+`),
      );
    const [a, b] = await Promise.all([serveStatus(all.endpoint, TOKEN), serveStatus(some.endpoint, TOKEN)]);
    assert.equal(a.mode, 'memory');
    assert.deepEqual(
      a.namespaces.map((n) => n.name),
      folders.map((f) => f.name).sort(),
    );
    assert.deepEqual(
      b.namespaces.map((n) => n.name),
      [folders[0].name, folders[1].name].sort(),
    );
    for (const n of a.namespaces) {
      const f = folders.find((x) => x.name === n.name)!;
      assert.equal(n.sections, f.engine.current()!.counts.sections, n.name);
      assert.ok((n.estimatedBytes ?? 0) > 0);
    }
    // A namespace outside its list is one it does not serve.
    const refused = await some.client.callTool({
      name: 'workspace_context',
      arguments: { workspace: folders[2].name, question: 'artist-lookup' },
    });
    assert.equal(refused.isError, true);
  });

  it('two readers answer every tool exactly as each folder alone in memory (ids, order, scores, why[], texts, candidates)', async () => {
    let compared = 0;
    for (const folder of folders) {
      const state = folder.engine.current()!;
      for (const { name, args } of callsOf(folder, state)) {
        const expected = await inMemory(folder.services, name, args);
        assert.deepEqual(
          await viaMcp(all.client, name, args),
          expected,
          `${name} ${JSON.stringify(args)} (every namespace)`,
        );
        if (folder === folders[0] || folder === folders[1])
          assert.deepEqual(
            await viaMcp(some.client, name, args),
            expected,
            `${name} ${JSON.stringify(args)} (its list)`,
          );
        compared++;
      }
    }
    // The library tools read the one namespace holding a library (the example's), whole.
    const library = folders[0];
    const toc = (await inMemory(library.services, 'get_toc', {})) as {
      namespaces: { documents: { id: string; sections: { id: string }[] }[] }[];
    };
    const doc = toc.namespaces[0].documents[1];
    for (const [name, args] of [
      ['get_toc', {}],
      ['get_toc', { query: 'postmortem for a billing-worker incident' }],
      ['search_instructions', { plan: 'writing a migration for billing-worker' }],
      ['get_context', { task: 'add a retry to the dunning schedule in billing-worker for soft declines' }],
      ['read_page', { page_id: doc.id }],
      ['get_section', { id: doc.sections[1].id }],
    ] as const) {
      // Pinned documents go once per session, with its first library call: who got them first differs, not what.
      const expected = withoutPinned(await inMemory(library.services, name, args));
      // get_context's "Instructions from the ... team" names the first folder served: the example's
      // for the second reader (its list sorts it first), as for the example alone.
      if (name !== 'get_context')
        assert.deepEqual(
          withoutPinned(await viaMcp(all.client, name, args)),
          expected,
          `${name} ${JSON.stringify(args)}`,
        );
      assert.deepEqual(
        withoutPinned(await viaMcp(some.client, name, args)),
        expected,
        `${name} ${JSON.stringify(args)} (its list)`,
      );
      compared++;
    }
    assert.ok(compared > 20, `${compared} calls compared`);
  });

  it("asked of every namespace at once, ranks each folder's passages as its own engine does with the question weighed over all four", async () => {
    // Every namespace weighs the question by the counts of all of them, as the in-memory engine
    // weighs several folders (ranking/questionStatistics.ts), and a namespace the question names
    // takes the named-entity bonus: each folder's passages, scores and order are its own engine's
    // ranking with those weights, and the terms weigh alike across folders.
    for (const folder of folders) {
      for (const question of folder.questions) {
        const terms = questionIndexTerms(question);
        const statistics = summedStatistics(folders.map((f) => statisticsOf(f.engine.current()!, terms)));
        const everywhere = (await viaMcp(all.client, 'workspace_context', { question, limit: 20 })) as {
          folders: string[];
          passages: {
            id: string;
            folder: string;
            score: number;
            why: { signal: string; terms?: { term: string; weight: number }[] }[];
          }[];
          candidatesCapped?: unknown;
        };
        assert.deepEqual(everywhere.folders, folders.map((f) => f.name).sort());
        assert.equal(everywhere.candidatesCapped, undefined);
        for (const f of folders) {
          const mine = everywhere.passages.filter((p) => p.folder === f.name).map((p) => [p.id, p.score]);
          const namedFolder = folderNamedBy(question, f.name);
          const reference = rankWorkspaceContext(f.engine.current()!, {
            question,
            limit: 20,
            now: Date.now(),
            statistics,
            ...(namedFolder !== undefined ? { namedFolder } : {}),
          });
          assert.deepEqual(
            mine,
            reference.passages.slice(0, mine.length).map((p) => [shortId(p.entry.section.id), p.score]),
            `${f.name}: "${question}"`,
          );
        }
        assert.ok(
          everywhere.passages.some((p) => p.folder === folder.name),
          `${folder.name}: "${question}"`,
        );
        const weights = new Map<string, Set<number>>();
        for (const p of everywhere.passages)
          for (const t of p.why.find((w) => w.signal === 'words')?.terms ?? [])
            weights.set(t.term, (weights.get(t.term) ?? new Set()).add(t.weight));
        for (const [term, seen] of weights) assert.equal(seen.size, 1, `"${question}": "${term}" weighs alike`);
        const scores = everywhere.passages.map((p) => p.score);
        assert.deepEqual(
          scores,
          [...scores].sort((a, b) => b - a),
        );
      }
    }
  });

  /** Writes a new section into `folder`'s first runbook-like page and the index of it; the path written. */
  async function edit(folder: Folder, word: string): Promise<string> {
    const state = folder.engine.current()!;
    const doc = [...state.docs.values()].find((d) => d.path.endsWith('.md') && d.sourceKind !== 'library')!;
    const abs = path.join(folder.dir, doc.path);
    fs.appendFileSync(
      abs,
      `\n\n## ${word} drill\n\nThe ${word} drill rehearses a rollback of every service before a release.\n`,
    );
    await folder.engine.update([abs]);
    return doc.path;
  }

  it('follows a write: both readers hold the new generation within seconds and answer as the folder now is in memory', async () => {
    const folder = folders[1];
    const page = await edit(folder, 'zebracorn');
    const report = await store.write(workspaceRows(folder.engine.current()!));
    assert.equal(report.documentsWritten, 1);
    assert.equal(report.generation, 2);
    const [a, b] = await Promise.all([
      waitForGeneration(all.endpoint, TOKEN, folder.name, 2),
      waitForGeneration(some.endpoint, TOKEN, folder.name, 2),
    ]);
    // PostgreSQL notifies each reader at the commit; without notifications a reader polls.
    if (options.snapshots) assert.deepEqual([a.following, b.following], ['notifications', 'notifications']);
    const args = { workspace: folder.name, question: 'zebracorn drill', limit: 10 };
    const expected = (await inMemory(folder.services, 'workspace_context', args)) as {
      passages: { sourceRef: { path: string }; headingPath: string[] }[];
    };
    assert.equal(expected.passages[0].sourceRef.path, page);
    assert.equal(expected.passages[0].headingPath.at(-1), 'zebracorn drill');
    assert.deepEqual(await viaMcp(all.client, 'workspace_context', args), expected);
    assert.deepEqual(await viaMcp(some.client, 'workspace_context', args), expected);
    // The rest of the folder still answers as in memory (the changed page's old sections are gone).
    for (const { name, args: call } of callsOf(folder, folder.engine.current()!))
      assert.deepEqual(
        await viaMcp(all.client, name, call),
        await inMemory(folder.services, name, call),
        `${name} ${JSON.stringify(call)}`,
      );
    assert.match(
      all.stderr(),
      new RegExp(`\\[store\\] ${folder.name}: generation 2 loaded in \\d+ ms \\(1 documents written, 0 removed\\)`),
    );
  });

  it('a reader restarted while a write is in flight holds the old generation or the new one, never a mix, then follows', async () => {
    const folder = folders[0];
    const question = { workspace: folder.name, question: 'quokka drill rollback', limit: 10 };
    const before = await inMemory(folder.services, 'workspace_context', question);
    await edit(folder, 'quokka');
    const after = await inMemory(folder.services, 'workspace_context', question);
    assert.notDeepEqual(after, before);
    await all.stop();
    // The write, begun and not committed: a connection of the test's own holds its transaction open.
    const writer = new PgClient({ connectionString: url() });
    await writer.connect();
    let committed = false;
    try {
      await writer.query('BEGIN');
      const report = await writeNamespace(writer, workspaceRows(folder.engine.current()!), store.pgvector);
      assert.equal(report.generation, 2);
      const restarting = startReader(url(), env);
      if (!options.snapshots) {
        // PGlite answers one transaction at a time: the reader's first read waits for this one.
        await new Promise((r) => setTimeout(r, 1500));
        await writer.query('COMMIT');
        committed = true;
      }
      all = await restarting;
      const held = (await serveStatus(all.endpoint, TOKEN)).namespaces.find((n) => n.name === folder.name)!;
      const answer = await viaMcp(all.client, 'workspace_context', question);
      if (options.snapshots) {
        assert.equal(held.generation, 1, 'PostgreSQL: the restarted reader reads the last committed generation');
        assert.deepEqual(answer, before);
        await writer.query('COMMIT');
        committed = true;
      } else {
        assert.deepEqual(answer, held.generation === 1 ? before : after, `generation ${held.generation}`);
      }
    } finally {
      if (!committed) await writer.query('ROLLBACK').catch(() => undefined);
      await writer.end();
    }
    // Both readers (the restarted one, and the one that ran throughout) follow the commit.
    await Promise.all([
      waitForGeneration(all.endpoint, TOKEN, folder.name, 2),
      waitForGeneration(some.endpoint, TOKEN, folder.name, 2),
    ]);
    assert.deepEqual(await viaMcp(all.client, 'workspace_context', question), after);
    assert.deepEqual(await viaMcp(some.client, 'workspace_context', question), after);
  });

  it('refuses to load past --max-memory, naming the namespaces and what each would take', async () => {
    const run = await wsctxAsync(['serve', '--store', url(), '--max-memory', '64KB', '--port', '0'], env);
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stderr,
      /--max-memory 64 KB: the 4 namespaces to serve would take about [\d.]+ (KB|MB) in memory: /,
    );
    for (const f of folders) assert.match(run.stderr, new RegExp(`${f.name} \\(\\d+ (KB|MB)\\)`));
    assert.match(run.stderr, /namespaces` list in the --config file/);
  });

  it("refuses a config whose namespaces list matches none of the store's, naming the file's line and what the store holds", async () => {
    const none = path.join(path.dirname(config), 'reader-none.yaml');
    fs.writeFileSync(none, `# a reader for a team not written yet\nnamespaces: ['nobody-*']\n`);
    const run = await wsctxAsync(['serve', '--store', url(), '--config', none, '--port', '0'], env);
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    assert.match(
      run.stderr,
      /reader-none\.yaml:2: namespaces: none of the store's namespaces matches nobody-\*; it holds /,
    );
    for (const f of folders) assert.ok(run.stderr.includes(f.name), f.name);
  });
}
