/**
 * A configuration key asked by a longer path than the page spells: the passage's why[] names the
 * trailing form it matched (`matched`). The official SDK client validates every structured answer
 * against the tool's published output schema and throws on an undeclared field, so this is asked
 * as strict clients ask it, over stdio and over HTTP, against the built server. Before `matched`
 * was declared both calls failed with "Structured content does not match the tool's output schema".
 */
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callWhenWarm,
  connectHttp,
  connectStdio,
  type HttpServerProcess,
  type StdioSession,
  startHttpServer,
} from '../helpers/mcpClients';
import { removeTempDirs } from '../helpers/tempWorkspace';
import { corpusDocsRepository } from '../unit/engine/ranking/rankingFixture';

const QUESTION = 'homebrew_casks.repository.token';

interface WhyTermOut {
  signal: string;
  terms?: { term: string; fields: string[]; matched?: string }[];
}

function trailingTerm(result: Awaited<ReturnType<Client['callTool']>>) {
  assert.notEqual(result.isError, true, JSON.stringify(result.content));
  const passages = (result.structuredContent as { passages: { sourceRef: { path: string }; why: WhyTermOut[] }[] })
    .passages;
  assert.equal(passages[0].sourceRef.path, 'docs/includes/repository.md');
  const words = passages[0].why.find((w) => w.signal === 'words')!;
  return words.terms![0];
}

describe('a key path matched by its trailing form, through strict MCP clients', () => {
  let workspace: string;
  before(() => {
    workspace = corpusDocsRepository('goreleaser', ['includes/repository.md', 'customization/publish/snapshots.md']);
  });
  after(() => removeTempDirs());

  it('over stdio: the answer validates and carries matched', async () => {
    const session: StdioSession = await connectStdio(workspace);
    try {
      const term = trailingTerm(await callWhenWarm(session.client, 'workspace_context', { question: QUESTION }));
      assert.deepEqual(term, { ...term, term: QUESTION, fields: ['trailing'], matched: 'repository.token' });
    } finally {
      await session.close();
    }
  });

  it('over HTTP: the answer validates and carries matched', async () => {
    const server: HttpServerProcess = await startHttpServer(workspace);
    const client = await connectHttp(server.url, server.token);
    try {
      const term = trailingTerm(await callWhenWarm(client, 'workspace_context', { question: QUESTION }));
      assert.equal(term.matched, 'repository.token');
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
