/**
 * The `--store` suite, run against any PostgreSQL server (PGlite over the wire protocol in the
 * integration suite, Debian's PostgreSQL in the end-to-end one): the built CLI indexes into the
 * store and answers from it as real processes, and `wsctx serve --store` serves concurrent MCP
 * clients over HTTP with tokens limited to folders.
 *
 * The CLI runs as an asynchronous child process: PGlite answers from this test process, which
 * must keep its event loop free while the child talks to it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { connectHttp } from './mcpClients';
import { TEST_CACHE_DIR, WSCTX } from './cli';
import { commitAll, copyExampleWorkspace, git, initRepo, removeTempDirs, tempDir, write } from './tempWorkspace';
import { fillVectorCache, planWindows } from '../../bench/fillVectors';
import { Engine } from '../../server/src/engine/engine';
import { clusteredVectors } from '../unit/engine/vector/syntheticVectors';

/** What `GET /status` of `serve --store` says (the fields these tests read). */
export interface ServeStatus {
  mode: 'memory' | 'per-question';
  following?: 'notifications' | 'polling';
  namespaces: { name: string; generation?: number; sections?: number; estimatedBytes?: number }[];
}

/** `GET /status` of a server at `endpoint` (its /mcp URL) with `token`. */
export async function serveStatus(endpoint: string, token: string): Promise<ServeStatus> {
  const response = await fetch(endpoint.replace(/\/mcp$/, '/status'), {
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(response.status, 200, await response.clone().text());
  return (await response.json()) as ServeStatus;
}

/** Waits (up to 20 s) until the server's status holds `namespace` at `generation` or later; its status then. */
export async function waitForGeneration(
  endpoint: string,
  token: string,
  namespace: string,
  generation: number,
): Promise<ServeStatus> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const status = await serveStatus(endpoint, token);
    const held = status.namespaces.find((n) => n.name === namespace);
    if (held && (held.generation ?? 0) >= generation) return status;
    if (Date.now() > deadline)
      assert.fail(`${namespace} not at generation ${generation} after 20 s: ${JSON.stringify(status)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The built CLI as a child process, awaited without blocking this process. */
export function wsctxAsync(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WSCTX, ...args], {
      // At the documented default width (100 columns), whatever the terminal running the tests.
      env: { ...process.env, WSCTX_CACHE_DIR: TEST_CACHE_DIR, WSCTX_EMBEDDINGS: 'off', COLUMNS: '100', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

function json(run: Run, what: string): Record<string, unknown> {
  assert.equal(run.code, 0, `${what} failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

/** What two answers to one question must share (indexedAt differs: two indexing runs). */
function answerOf(output: Record<string, unknown>) {
  // A store reads only the sections that can be among the passages (engine/store/candidateBound.ts):
  // its count of candidates considered is its own.
  const { indexedAt: _at, candidates: _considered, ...rest } = output;
  return rest;
}

/** Every tool: the library tools read the library of the one namespace that holds one. */
const STORE_ROSTER = [
  'get_context',
  'get_file',
  'get_section',
  'get_toc',
  'read_page',
  'search_instructions',
  'workspace_context',
  'workspace_expand',
];

const QUESTIONS = [
  'how do we roll back billing-worker?',
  'who owns the ledger API',
  'what does the deploy pipeline do when a migration fails',
];

/**
 * Registers the suite. `url()` gives the server's connection string once `before` has run; `env`
 * goes to every CLI process (PGlite takes one connection at a time: WSCTX_STORE_CONNECTIONS=1).
 */
export function storeCliSuite(url: () => string, env: NodeJS.ProcessEnv = {}): void {
  const run = (args: string[]) => wsctxAsync(args, env);
  let fernhill: string;
  let tiny: string;
  let ns: string;
  let tinyNs: string;
  // The answers without a store, which a store's must equal, come from one in-memory index of the
  // copy of the example, made by the first of them in a cache folder of their own (not the
  // snapshot `index --store` leaves: the reference stays an index of its own), and read from its
  // snapshot after that, as a person's next command reads it.
  let memoryCache: string;
  const withoutStore = (args: string[]) =>
    wsctxAsync([...args, '--workspace', fernhill], { ...env, WSCTX_CACHE_DIR: memoryCache });

  before(async function () {
    if (!fs.existsSync(WSCTX)) throw new Error(`${WSCTX} is missing: run \`npm run build\` first`);
    fernhill = copyExampleWorkspace();
    memoryCache = tempDir('memory-cache');
    tiny = tempDir('tiny');
    write(
      tiny,
      'catalog-info.yaml',
      'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: secret-vault\n  description: Holds the rotation keys for billing-worker\nspec:\n  type: service\n  lifecycle: production\n  owner: team-vault\n',
    );
    write(
      tiny,
      'overview.md',
      '# Secret vault\n\nRoll back billing-worker keys with the vault runbook. Only team-vault may read it.\n',
    );
  });
  after(() => removeTempDirs());

  it('index --store writes each folder as its own namespace and reports what it wrote', async () => {
    const out = json(
      await run(['index', '--store', url(), '--workspace', fernhill, '--workspace', tiny, '--json']),
      'index --store',
    );
    const namespaces = out.namespaces as {
      namespace: string;
      documents: number;
      documentsWritten: number;
      sectionsWritten: number;
      postingsWritten: number;
      catalogWritten: boolean;
    }[];
    assert.equal(namespaces.length, 2);
    [ns, tinyNs] = namespaces.map((n) => n.namespace);
    assert.equal(ns, path.basename(fernhill));
    assert.equal(namespaces[0].documentsWritten, namespaces[0].documents);
    assert.ok(
      namespaces[0].sectionsWritten > 300 && namespaces[0].postingsWritten > 10_000,
      JSON.stringify(namespaces[0]),
    );
    assert.equal(namespaces[0].catalogWritten, true);
    assert.doesNotMatch(String(out.store), /:[^@/]*@.*:/);
  });

  it('ask --store answers exactly as the in-memory engine: passages, scores, why[], neighbourhood', async () => {
    const inMemory: Record<string, unknown>[] = [];
    for (const question of QUESTIONS) {
      const memory = json(await withoutStore(['ask', question, '--json']), 'ask in memory');
      inMemory.push(memory);
      const stored = json(await run(['ask', question, '--store', url(), '--workspace', ns, '--json']), 'ask --store');
      assert.ok((memory.passages as unknown[]).length > 0, question);
      assert.deepEqual(answerOf(stored), answerOf(memory), question);
    }
    // Loading the namespace into memory for one question gives the same answer, the count of
    // candidates included (the in-memory answer above: the same command on the same files).
    const memory = inMemory[0];
    const loaded = json(
      await run(['ask', QUESTIONS[0], '--store', url(), '--workspace', ns, '--json', '--store-mode', 'memory']),
      'ask --store --store-mode memory',
    );
    const { indexedAt: _a, ...loadedAnswer } = loaded;
    const { indexedAt: _b, ...memoryAnswer } = memory;
    assert.deepEqual(loadedAnswer, memoryAnswer);
  });

  it("ask --store flags a library passage's conflict with a page it did not return, as in memory", async () => {
    // The refund policy and the refunds guide disagree on the window; with --limit 1 only the
    // policy is returned, and the store's question state holds neither the guide's text nor,
    // told the ranking, perhaps the guide at all: the conflict comes from the whole library.
    const args = ['ask', 'what is the refund window?', '--limit', '1', '--json'];
    const memory = json(await withoutStore(args), 'ask in memory');
    const stored = json(await run([...args, '--store', url(), '--workspace', ns]), 'ask --store');
    const conflicts = (out: Record<string, unknown>) =>
      (out.passages as { title: string; conflicts?: { with: { title: string } }[] }[]).map((p) => [
        p.title,
        (p.conflicts ?? []).map((c) => c.with.title),
      ]);
    assert.deepEqual(conflicts(memory), [['Refund policy', ['Issuing refunds']]]);
    assert.deepEqual(answerOf(stored), answerOf(memory));
  });

  it('expand --store walks the stored graph exactly as in memory', async () => {
    const args = ['component:billing-worker', '--depth', '2', '--direction', 'out', '--json'];
    const memory = json(await withoutStore(['expand', ...args]), 'expand in memory');
    const stored = json(await run(['expand', ...args, '--store', url(), '--workspace', ns]), 'expand --store');
    assert.ok((memory.edges as unknown[]).length > 3);
    assert.deepEqual(answerOf(stored), answerOf(memory));
  });

  it('mcp --store serves every tool over stdio, answering as the CLI does', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [WSCTX, 'mcp', '--store', url(), '--workspace', ns],
      env: {
        ...(process.env as Record<string, string>),
        WSCTX_CACHE_DIR: TEST_CACHE_DIR,
        WSCTX_EMBEDDINGS: 'off',
        ...(env as Record<string, string>),
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'wsctx-store-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      assert.deepEqual((await client.listTools()).tools.map((t) => t.name).sort(), STORE_ROSTER);
      const question = QUESTIONS[0];
      const result = await client.callTool({
        name: 'workspace_context',
        arguments: { workspace: ns, question, limit: 10 },
      });
      assert.ok(!result.isError, JSON.stringify(result.content));
      const cli = json(
        await run(['ask', question, '--store', url(), '--workspace', ns, '--json', '--limit', '10']),
        'ask --store',
      );
      assert.deepEqual(answerOf(result.structuredContent as Record<string, unknown>), answerOf(cli));
    } finally {
      await client.close();
    }
  });

  it('a second index writes only the document that changed, and the answer follows it', async () => {
    fs.appendFileSync(
      path.join(fernhill, 'payments-platform/services/billing-worker/docs/runbooks/deploy.md'),
      '\n## Quarantine\n\nA zebracorn release is quarantined before any rollback.\n',
    );
    const out = json(await run(['index', '--store', url(), '--workspace', fernhill, '--json']), 'index again');
    const report = (
      out.namespaces as {
        documentsWritten: number;
        documentsKept: number;
        documentsRemoved: number;
        catalogWritten: boolean;
      }[]
    )[0];
    assert.equal(report.documentsWritten, 1);
    assert.equal(report.documentsRemoved, 0);
    assert.ok(report.documentsKept > 100);
    assert.equal(report.catalogWritten, false);
    const stored = json(
      await run(['ask', 'zebracorn quarantine', '--store', url(), '--workspace', ns, '--json']),
      'ask after the change',
    );
    const first = (stored.passages as { headingPath: string[]; sourceRef: { path: string } }[])[0];
    assert.equal(first.sourceRef.path, 'payments-platform/services/billing-worker/docs/runbooks/deploy.md');
    assert.equal(first.headingPath.at(-1), 'Quarantine');
    const memory = json(await withoutStore(['ask', 'zebracorn quarantine', '--json']), 'ask in memory');
    assert.deepEqual(answerOf(stored), answerOf(memory));
  });

  it('context, search, toc, section and page --store print what they print without a store', async () => {
    const task = 'add a retry to the dunning schedule in billing-worker for soft declines';
    const pairs: [string, string[]][] = [
      ['context', [task]],
      ['context', [task, '--json']],
      ['search', ['writing a migration for billing-worker', '--json']],
      ['toc', ['--json']],
    ];
    const printed = new Map<string, string>();
    for (const [command, args] of pairs) {
      const memory = await withoutStore([command, ...args]);
      const stored = await run([command, ...args, '--store', url(), '--workspace', ns]);
      assert.equal(memory.code, 0, memory.stderr);
      assert.equal(stored.code, 0, stored.stderr);
      assert.ok(memory.stdout.length > 500, `${command} ${args.join(' ')}: ${memory.stdout}`);
      const strip = (out: string) => out.replace(/"indexedAt": ?"[^"]*"/g, '');
      assert.equal(strip(stored.stdout), strip(memory.stdout), `${command} ${args.join(' ')}`);
      printed.set([command, ...args].join(' '), stored.stdout);
    }
    // The bundle names billing-worker's own dunning runbook, read from the store's entity docs.
    assert.match(printed.get(`context ${task}`)!, /runbooks\/dunning\.md/);
    const toc = JSON.parse(printed.get('toc --json')!) as {
      namespaces: { documents: { id: string; sections: { id: string }[] }[] }[];
    };
    const doc = toc.namespaces[0].documents[1];
    for (const [command, id] of [
      ['page', doc.id],
      ['section', doc.sections[1].id],
    ]) {
      const memory = await withoutStore([command, id]);
      assert.ok(memory.code === 0 && memory.stdout.length > 100, `${command} ${id}: ${memory.stderr}`);
      assert.equal(
        (await run([command, id, '--store', url(), '--workspace', ns])).stdout,
        memory.stdout,
        `${command} ${id}`,
      );
    }
  });

  it("toc --store words its notices in the command line's terms, as without a store", async () => {
    // A query nothing matches: the notice names what to run next as the commands that do it
    // (wsctx toc, wsctx search), not as the tool calls an agent makes (get_toc(), search_instructions(plan)).
    const query = 'zyzzogeton quagga';
    const memory = await withoutStore(['toc', query]);
    const stored = await run(['toc', query, '--store', url(), '--workspace', ns]);
    assert.equal(stored.code, 0, stored.stderr);
    // (Read as one paragraph: at the terminal's width the notice may wrap.)
    assert.match(
      stored.stdout.replace(/\n +/g, ' '),
      /No ready document matches these words\. wsctx toc shows the whole map; wsctx search "<plan>" searches by what you are about to do\./,
    );
    assert.doesNotMatch(stored.stdout, /get_toc|search_instructions/);
    assert.equal(stored.stdout, memory.stdout);
  });

  it('expand --store prints the graph table expand prints without a store', async () => {
    const args = ['expand', 'component:default/billing-worker', '--depth', '2', '--direction', 'both'];
    const memory = await withoutStore(args);
    const stored = await run([...args, '--store', url(), '--workspace', ns]);
    assert.equal(stored.code, 0, stored.stderr);
    // The command line's table (at 100 columns: hop, from, relation, to, then where it is
    // declared beneath), not the tool's text for agents
    // (`component:default/billing-worker --consumesApi--> api:default/ledger-api   (file:line)`).
    assert.match(
      stored.stdout,
      /\n {2}1 {4}component:billing-worker {2}consumesApi {4}api:ledger-api\n {7}declared at payments-platform\/catalog-info\.yaml:82\n/,
    );
    assert.doesNotMatch(stored.stdout, /--consumesApi-->/);
    const sameClock = (out: string) => out.replace(/^indexedAt: .*$/m, 'indexedAt: <time>');
    assert.equal(sameClock(stored.stdout), sameClock(memory.stdout));
  });

  it('refuses what a store does not answer, naming the flag', async () => {
    const graph = await run(['graph', '--store', url()]);
    assert.equal(graph.code, 1);
    assert.match(graph.stderr, /--store is not supported by graph/);
    // Without --workspace, ask answers from every namespace, as it does from every served folder.
    const both = await run(['ask', 'rollback', '--store', url(), '--json']);
    assert.equal(both.code, 0, both.stderr);
    assert.deepEqual((JSON.parse(both.stdout) as { folders: string[] }).folders.sort(), [ns, tinyNs].sort());
    const expand = await run(['expand', 'component:billing-worker', '--store', url()]);
    assert.equal(expand.code, 1);
    assert.match(expand.stderr, new RegExp(`holds ${ns}, ${tinyNs}|holds ${tinyNs}, ${ns}`));
    const unknown = await run(['ask', 'rollback', '--store', url(), '--workspace', 'no-such-folder']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /--workspace no-such-folder: the store holds no such workspace/);
    const mode = await run(['ask', 'rollback', '--store', url(), '--store-mode', 'cached']);
    assert.equal(mode.code, 1);
    assert.match(mode.stderr, /--store-mode must be memory or per-question \(got "cached"\)/);
    const noStore = await run(['ask', 'rollback', '--store-mode', 'memory']);
    assert.equal(noStore.code, 1);
    assert.match(noStore.stderr, /--store-mode: only with --store/);
    const bad = await run(['ask', 'rollback', '--store', 'mysql://localhost/x']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--store: expected a postgresql:\/\/ connection string/);
  });

  it('index --store writes the vectors and ask --store answers hybrid (words + meaning) as the in-memory engine', async function () {
    // Stand-in vectors in the vector cache (bench/fillVectors.ts): nothing embeds a section; the
    // question is embedded by the packaged model in both processes.
    const hybrid = copyExampleWorkspace();
    const cache = tempDir('hybrid-cache');
    const words = new Engine({ folders: [{ name: path.basename(hybrid), absPath: hybrid }] });
    let sections: number;
    try {
      const state = await words.waitForIndex();
      sections = state.counts.sections;
      const plan = planWindows(state);
      const vectors = clusteredVectors(plan.digests.length, 384, 12, 0.9, 11);
      fillVectorCache(state, cache, (i) => vectors[i]);
    } finally {
      words.dispose();
    }
    const local = { WSCTX_EMBEDDINGS: 'local', WSCTX_CACHE_DIR: cache };
    const out = json(
      await wsctxAsync(['index', '--store', url(), '--workspace', hybrid, '--json'], { ...env, ...local }),
      'index --store with vectors',
    );
    const report = (
      out.namespaces as { namespace: string; vectorSectionsWritten: number; windowsWritten: number }[]
    )[0];
    assert.equal(report.vectorSectionsWritten, sections);
    assert.ok(report.windowsWritten > sections);
    for (const question of QUESTIONS.slice(0, 2)) {
      const memory = json(
        await wsctxAsync(['ask', question, '--workspace', hybrid, '--json'], local),
        'ask in memory with vectors',
      );
      const stored = json(
        await wsctxAsync(['ask', question, '--store', url(), '--workspace', report.namespace, '--json'], {
          ...env,
          ...local,
          WSCTX_STORE_VECTOR_SEARCH: 'exact',
        }),
        'ask --store with vectors',
      );
      // Every passage has a vector, so every why[] holds the meaning term (its value is the
      // question's cosine against stand-in vectors: often 0 after the crowd anchor).
      const passages = stored.passages as { why: { signal: string }[] }[];
      assert.ok(
        passages.length > 0 && passages.every((p) => p.why.some((w) => w.signal === 'meaning')),
        `${question}: meaning counted`,
      );
      assert.deepEqual(stored.meaning, {
        model: (memory.meaning as { model: string }).model,
        sectionsWithVectors: sections,
        sectionsWithoutVectors: 0,
      });
      assert.deepEqual(answerOf(stored), answerOf(memory), question);
    }
  });

  it('keeps a namespace to one repository: another cloned into a folder of the same name is refused, naming both', async () => {
    // Two organisations' `orders` repositories, checked out in folders of one name.
    const name = `orders-${process.pid}-${Date.now().toString(36)}`;
    const repo = (org: string, component: string): string => {
      const dir = initRepo(path.join(tempDir(`clone-${org}`), name));
      write(
        dir,
        'catalog-info.yaml',
        `apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: ${component}\nspec:\n  type: service\n  lifecycle: production\n  owner: ${org}\n`,
      );
      git(dir, ['remote', 'add', 'origin', `git@github.com:${org}/orders.git`]);
      commitAll(dir, `${org}'s first commit`, 1_700_000_000);
      return dir;
    };
    const first = repo('org-a', 'alpha-orders');
    const second = repo('org-b', 'beta-orders');
    json(await run(['index', '--store', url(), '--workspace', first, '--json']), 'index the first');
    // Before, this replaced the first's namespace: "1 removed", alpha-orders gone.
    const refused = await run(['index', '--store', url(), '--workspace', second, '--json']);
    assert.equal(refused.code, 2, refused.stderr);
    assert.deepEqual((JSON.parse(refused.stdout) as { failed: unknown[] }).failed, [
      {
        namespace: name,
        error: `namespace "${name}" holds another repository, github.com/org-a/orders, at ${first}; this one is github.com/org-b/orders, at ${second}. A namespace is named by its folder and holds one repository, so nothing was replaced: index this one from a folder of another name`,
      },
    ]);
    const kept = json(
      await run(['expand', 'component:alpha-orders', '--store', url(), '--workspace', name, '--json']),
      'expand the first',
    );
    assert.equal((kept.entity as { ref: string }).ref, 'component:default/alpha-orders');
    // Another clone of the first repository, at another path, is the same repository: written.
    const again = path.join(tempDir('clone-again'), name);
    git(path.dirname(again), ['clone', '-q', first, name]);
    git(again, ['remote', 'set-url', 'origin', 'https://github.com/Org-A/orders']);
    json(await run(['index', '--store', url(), '--workspace', again, '--json']), 'index another clone');
    // A folder of the name that is no repository at all is refused by its path.
    const plain = path.join(tempDir('plain'), name);
    write(plain, 'overview.md', '# Orders\n\nNot a repository.\n');
    const byPath = await run(['index', '--store', url(), '--workspace', plain, '--json']);
    assert.equal(byPath.code, 2, byPath.stderr);
    assert.match(
      (JSON.parse(byPath.stdout) as { failed: { error: string }[] }).failed[0].error,
      new RegExp(`; this one is the folder ${plain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\. A namespace`),
    );
  });

  describe('serve --store with tokens limited to folders (config file)', () => {
    let server: ReturnType<typeof spawn>;
    let endpoint: string;
    const everything = 'e'.repeat(40);
    const fernhillOnly = 'f'.repeat(40);

    before(async function () {
      const config = path.join(tempDir('serve'), 'server.yaml');
      fs.writeFileSync(
        config,
        `tokens:\n  - name: everyone\n    token: ${everything}\n  - name: fernhill-readers\n    tokenEnv: WSCTX_TEST_FERNHILL_TOKEN\n    folders: [${ns}]\n`,
      );
      server = spawn(process.execPath, [WSCTX, 'serve', '--store', url(), '--config', config, '--port', '0'], {
        env: {
          ...process.env,
          WSCTX_CACHE_DIR: TEST_CACHE_DIR,
          WSCTX_EMBEDDINGS: 'off',
          WSCTX_TEST_FERNHILL_TOKEN: fernhillOnly,
          ...env,
        },
      });
      endpoint = await new Promise<string>((resolve, reject) => {
        let err = '';
        server.stderr!.on('data', (d) => {
          err += d;
          const m = /url:\s+(\S+)/.exec(err);
          if (m) resolve(m[1]);
        });
        server.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
      });
    });
    after(async () => {
      if (server.exitCode === null) {
        const exited = new Promise((r) => server.once('exit', r));
        server.kill('SIGTERM');
        // A server that does not stop on SIGTERM fails the assertion below rather than hanging the suite.
        const timer = setTimeout(() => server.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
        assert.equal(server.signalCode, null, 'serve stops on SIGTERM');
      }
    });

    it('offers every tool and answers many concurrent readers as the in-memory engine does', async () => {
      const clients = await Promise.all(
        [everything, everything, fernhillOnly, fernhillOnly].map((t) => connectHttp(endpoint, t)),
      );
      try {
        const tools = (await clients[0].listTools()).tools.map((t) => t.name).sort();
        assert.deepEqual(tools, STORE_ROSTER);
        const expected = new Map<string, unknown>();
        for (const question of QUESTIONS)
          expected.set(
            question,
            answerOf(json(await withoutStore(['ask', question, '--json', '--limit', '10']), 'ask in memory')),
          );
        const calls = [];
        for (let round = 0; round < 5; round++) {
          for (const [i, client] of clients.entries()) {
            const question = QUESTIONS[(round + i) % QUESTIONS.length];
            calls.push(
              client
                .callTool({ name: 'workspace_context', arguments: { workspace: ns, question, limit: 10 } })
                .then((r) => ({ question, r })),
            );
          }
        }
        const answers = await Promise.all(calls);
        assert.equal(answers.length, 20);
        for (const { question, r } of answers) {
          assert.ok(!r.isError, JSON.stringify(r.content));
          assert.deepEqual(answerOf(r.structuredContent as Record<string, unknown>), expected.get(question), question);
        }
      } finally {
        await Promise.all(clients.map((c) => c.close()));
      }
    });

    it('a token limited to some folders gets nothing from outside them', async () => {
      const limited = await connectHttp(endpoint, fernhillOnly);
      const open = await connectHttp(endpoint, everything);
      try {
        const question = 'who may read the rotation keys of the secret vault?';
        const allowed = await open.callTool({ name: 'workspace_context', arguments: { workspace: tinyNs, question } });
        assert.ok(!allowed.isError);
        assert.ok(
          (allowed.structuredContent as { passages: unknown[] }).passages.length > 0,
          'the open token reads the other folder',
        );
        for (const call of [
          { name: 'workspace_context', arguments: { workspace: tinyNs, question } },
          { name: 'workspace_expand', arguments: { workspace: tinyNs, entityRef: 'component:secret-vault' } },
        ]) {
          const refused = await limited.callTool(call);
          assert.equal(refused.isError, true, call.name);
          const text = JSON.stringify(refused.content);
          assert.match(text, new RegExp(`does not serve a workspace named '${tinyNs}'`));
          // Not even the other folder's name comes back: the refusal lists only the token's own.
          assert.match(text, new RegExp(`it serves '${ns}'`));
          assert.doesNotMatch(text, /secret|vault|team-vault/i);
        }
        const own = await limited.callTool({
          name: 'workspace_context',
          arguments: { workspace: ns, question: 'roll back billing-worker' },
        });
        const passages = (own.structuredContent as { passages: { sourceRef: { path: string } }[] }).passages;
        assert.ok(passages.length > 0);
        assert.ok(passages.every((p) => !/secret|vault/i.test(JSON.stringify(p))));
      } finally {
        await limited.close();
        await open.close();
      }
    });

    it('serves a namespace written into the store after it started, and each new generation of it, without a restart', async () => {
      const late = tempDir('late');
      write(
        late,
        'catalog-info.yaml',
        'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: late-ledger\n  description: Reconciles the late ledger\nspec:\n  type: service\n  lifecycle: production\n  owner: team-ledger\n',
      );
      write(late, 'overview.md', '# Late ledger\n\nThe quokka reconciler balances the late ledger every night.\n');
      const lateNs = (
        json(await run(['index', '--store', url(), '--workspace', late, '--json']), 'index a new folder')
          .namespaces as { namespace: string }[]
      )[0].namespace;
      // Not loaded yet, or loaded already by the reader that follows the store: named, it is served.
      const open = await connectHttp(endpoint, everything);
      const limited = await connectHttp(endpoint, fernhillOnly);
      try {
        const ask = async (question: string) => {
          const r = await open.callTool({
            name: 'workspace_context',
            arguments: { workspace: lateNs, question, limit: 10 },
          });
          assert.ok(!r.isError, JSON.stringify(r.content));
          const memory = json(
            await run(['ask', question, '--workspace', late, '--json', '--no-cache', '--limit', '10']),
            'ask in memory',
          );
          assert.deepEqual(answerOf(r.structuredContent as Record<string, unknown>), answerOf(memory), question);
          return (r.structuredContent as { passages: { text: string; sourceRef: { path: string } }[] }).passages;
        };
        const first = await ask('quokka reconciler');
        assert.equal(first[0]?.sourceRef.path, 'overview.md');
        assert.match(first[0].text, /quokka/);
        // A token limited to fernhill still gets nothing of it.
        const refused = await limited.callTool({
          name: 'workspace_context',
          arguments: { workspace: lateNs, question: 'quokka reconciler' },
        });
        assert.equal(refused.isError, true);
        assert.doesNotMatch(JSON.stringify(refused.content), /quokka|ledger/i);

        write(late, 'overview.md', '# Late ledger\n\nThe wombat reconciler balances the late ledger every hour.\n');
        const again = (
          json(await run(['index', '--store', url(), '--workspace', late, '--json']), 'index the folder again')
            .namespaces as { generation: number }[]
        )[0];
        // The reader follows the write (notified, or at its next poll); its status says when it holds it.
        const held = await waitForGeneration(endpoint, everything, lateNs, again.generation);
        assert.equal(held.mode, 'memory');
        const changed = await ask('wombat reconciler');
        assert.match(changed[0]?.text ?? '', /wombat/);
        assert.ok(
          (await ask('quokka reconciler')).every((p) => !/quokka/.test(p.text)),
          'the old text is gone',
        );
      } finally {
        await open.close();
        await limited.close();
      }
    });

    it('refuses a token the config file does not list', async () => {
      await assert.rejects(connectHttp(endpoint, 'x'.repeat(40)), /401|Unauthorized/);
    });
  });
}
