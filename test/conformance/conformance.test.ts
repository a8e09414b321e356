/**
 * Conformance by construction: every tool, driven through the official MCP SDK client over stdio
 * (`wsctx mcp`) and over HTTP (`wsctx serve`) against the built server, with every labelled
 * question and task of every dev corpus (every corpus of the documentation dev suite,
 * bench/evalDocs.ts, and awesome-copilot's library) and of the example workspace, plus the
 * follow-ups an agent makes from the answers. Any answer the tool's own published output schema
 * rejects fails the suite: the SDK's client checks each one (it lists the tools on connect), and
 * the server checks it before sending (WSCTX_VALIDATE_OUTPUT=1).
 *
 * One server per corpus and transport, stdio and HTTP side by side; HTTP asks every second
 * question and task (a fixed subset), which keeps the suite to about a minute on a two-core
 * machine (its 17 tests in 49 s on 2026-12-08, load 1.5). The example workspace is
 * asked once more with embeddings on (a stand-in endpoint), so the meaning parts of every answer
 * are checked as well.
 */
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { publishedOutputSchema } from '../../server/src/tools/outputContract';
import { findTool } from '../../server/src/tools/registry';
import { startEmbeddingsServer, type EmbeddingsServer } from '../helpers/embeddingsServer';
import { callWhenWarm, connectHttp, connectStdio, startHttpServer } from '../helpers/mcpClients';
import { removeTempDirs } from '../helpers/tempWorkspace';
import { CONFORMANCE_CORPORA, type ConformanceCorpus } from './corpora';
import { driveTools, type ToolRun } from './driveTools';

/**
 * Which tools each corpus must list (a tool is listed only when it can answer): a documentation
 * corpus of the dev suite, pages and no catalog, instruction or library file, lists two.
 */
const DOCS_TOOLS = ['workspace_context', 'explain_result'];
const EXPECTED_TOOLS: Record<string, string[]> = {
  'awesome-copilot': [
    'workspace_context',
    'get_context',
    'read_page',
    'get_file',
    'get_toc',
    'get_section',
    'search_instructions',
    'explain_result',
  ],
  fernhill: [
    'workspace_context',
    'workspace_expand',
    'get_context',
    'read_page',
    'get_file',
    'get_toc',
    'get_section',
    'search_instructions',
    'explain_result',
  ],
};

/** The published output schema of every listed tool is the one the server's own check uses. */
async function assertPublishedSchemas(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  for (const tool of tools) assert.deepEqual(tool.outputSchema, publishedOutputSchema(findTool(tool.name)!), tool.name);
}

function assertConforms(corpus: ConformanceCorpus, transport: string, run: ToolRun): void {
  if (process.env.CONFORMANCE_TIMES === '1') console.log(corpus.key, transport, run.calls, run.ms);
  assert.deepEqual(
    run.listed,
    EXPECTED_TOOLS[corpus.key] ?? DOCS_TOOLS,
    `${corpus.key} over ${transport}: tools listed`,
  );
  const unused = run.listed.filter((t) => !run.calls[t]);
  assert.deepEqual(unused, [], `${corpus.key} over ${transport}: listed tools never called`);
  const total = Object.values(run.calls).reduce((a, b) => a + b, 0);
  assert.deepEqual(
    run.failures.slice(0, Number(process.env.CONFORMANCE_FAILURES_SHOWN ?? 10)),
    [],
    `${corpus.key} over ${transport}: ${run.failures.length} of ${total} answers failed`,
  );
}

describe('conformance: every tool, every dev corpus, through strict MCP clients (built server)', function () {
  this.timeout(600_000);
  after(() => removeTempDirs());

  for (const corpus of CONFORMANCE_CORPORA) {
    it(`${corpus.key}: ${corpus.questions.length} questions and ${corpus.tasks.length} tasks over stdio, every second one over HTTP`, async () => {
      const workspace = corpus.workspace();
      const [stdio, http] = await Promise.all([connectStdio(workspace), startHttpServer(workspace)]);
      try {
        const httpClient = await connectHttp(http.url, http.token);
        try {
          await Promise.all([
            callWhenWarm(stdio.client, 'workspace_context', { question: 'warm up' }),
            callWhenWarm(httpClient, 'workspace_context', { question: 'warm up' }),
          ]);
          await assertPublishedSchemas(stdio.client);
          const [overStdio, overHttp] = await Promise.all([
            driveTools(stdio.client, corpus),
            driveTools(httpClient, corpus, { every: 2 }),
          ]);
          assertConforms(corpus, 'stdio', overStdio);
          assertConforms(corpus, 'HTTP', overHttp);
        } finally {
          await httpClient.close();
        }
      } finally {
        await stdio.close();
        await http.stop();
      }
    });
  }

  describe('the example workspace with embeddings on (meaning in every answer)', () => {
    let embeddings: EmbeddingsServer;
    before(async () => {
      embeddings = await startEmbeddingsServer();
    });
    after(() => embeddings.close());

    it('every question and task over stdio', async () => {
      const corpus = CONFORMANCE_CORPORA.find((c) => c.key === 'fernhill')!;
      const session = await connectStdio(corpus.workspace(), [
        '--embeddings',
        'openai',
        '--embeddings-url',
        embeddings.baseUrl,
        '--embeddings-model',
        'stand-in',
      ]);
      try {
        await callWhenWarm(session.client, 'workspace_context', { question: 'warm up' });
        // Embedding is progressive: wait until every section has its vector.
        for (let attempt = 0; ; attempt++) {
          const answer = await session.client.callTool({
            name: 'workspace_context',
            arguments: { question: 'warm up' },
          });
          const meaning = (answer.structuredContent as { meaning: { sectionsWithoutVectors: number } | null }).meaning;
          assert.ok(meaning, 'embeddings are on');
          if (meaning.sectionsWithoutVectors === 0) break;
          assert.ok(attempt < 600, `${meaning.sectionsWithoutVectors} sections still without vectors`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const run = await driveTools(session.client, corpus);
        assert.ok(embeddings.requests.length > 0, 'the embeddings endpoint was asked');
        assertConforms(corpus, 'stdio with embeddings', run);
      } finally {
        await session.close();
      }
    });
  });
});
