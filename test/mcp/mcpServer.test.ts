/**
 * The built MCP server, driven by the SDK's real client over stdio and over Streamable HTTP.
 */
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callWhenWarm,
  connectHttp,
  connectStdio,
  startHttpServer,
  type HttpServerProcess,
  type StdioSession,
} from '../helpers/mcpClients';
import { EXAMPLE_WORKSPACE, removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

type Text = { type: 'text'; text: string };
const firstText = (result: unknown): string => (result as { content?: Text[] }).content?.[0]?.text ?? '';

async function exerciseTools(client: Client): Promise<void> {
  const context = await callWhenWarm(client, 'workspace_context', {
    workspace: 'fernhill',
    question: 'how do I roll back billing-worker?',
    limit: 3,
  });
  assert.equal(context.isError, undefined);
  const out = context.structuredContent as {
    passages: { sourceRef: { path: string }; score: number; why: { contribution: number }[] }[];
    contractVersion: string;
    degraded: string[];
  };
  assert.equal(out.passages.length, 3);
  assert.equal(out.passages[0].sourceRef.path, 'payments-platform/services/billing-worker/docs/runbooks/deploy.md');
  for (const p of out.passages) assert.ok(Math.abs(p.why.reduce((s, w) => s + w.contribution, 0) - p.score) < 1e-9);
  assert.match(out.contractVersion, /^\d{4}-\d{2}-\d{2}\.\d+$/);
  assert.match(firstText(context), /^## 1\. Deploy and rollback › Rolling back/);

  const expand = await callWhenWarm(client, 'workspace_expand', {
    workspace: 'fernhill',
    entityRef: 'component:billing-worker',
    direction: 'out',
    edgeTypes: ['ownedBy'],
  });
  assert.deepEqual(
    (expand.structuredContent as { edges: { target: string }[] }).edges.map((e) => e.target),
    ['group:default/payments-team'],
  );
}

async function exerciseBadInput(client: Client): Promise<void> {
  const deep = await client.callTool({
    name: 'workspace_expand',
    arguments: { workspace: 'fernhill', entityRef: 'billing-worker', depth: 4 },
  });
  assert.equal(deep.isError, true);
  assert.match(
    firstText(deep),
    /^Invalid input for workspace_expand: depth: must be a whole number from 1 to 3 \(the default is 1\); deeper walks are refused, never clamped/,
  );
  const missing = await client.callTool({ name: 'workspace_context', arguments: { workspace: 'fernhill' } });
  assert.equal(missing.isError, true);
  assert.match(firstText(missing), /question/);
  const limit = await client.callTool({
    name: 'workspace_context',
    arguments: { workspace: 'fernhill', question: 'x', limit: 51 },
  });
  assert.equal(limit.isError, true);
  assert.equal(
    firstText(limit),
    'Invalid input for workspace_context: limit: must be a whole number from 1 to 50 (the default is 10)',
  );
  const kinds = await client.callTool({
    name: 'workspace_context',
    arguments: { workspace: 'fernhill', question: 'x', sourceKinds: ['wiki'] },
  });
  assert.match(firstText(kinds), /^Invalid input for workspace_context: sourceKinds\[0\]: "wiki" is not a source kind/);
  const unserved = await client.callTool({
    name: 'workspace_context',
    arguments: { workspace: 'other', question: 'billing' },
  });
  assert.equal(unserved.isError, true);
  assert.equal(
    firstText(unserved),
    "workspace: this server does not serve a workspace named 'other'; it serves 'fernhill' (give one of these names or its path, or leave workspace out to ask them all).",
  );
}

describe('MCP over stdio (built server, SDK client)', () => {
  let session: StdioSession;
  before(async () => {
    session = await connectStdio(EXAMPLE_WORKSPACE);
  });
  after(async () => {
    await session.close();
    removeTempDirs();
  });

  it('lists the tools with read-only annotations, input and output schemas, and instructions', async () => {
    const { tools } = await session.client.listTools();
    const names = tools.map((t) => t.name);
    assert.ok(names.includes('workspace_context') && names.includes('workspace_expand'));
    for (const tool of tools) {
      assert.equal(tool.annotations?.readOnlyHint, true, `${tool.name} is read-only`);
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(tool.outputSchema?.type, 'object');
      assert.ok(tool.description && tool.description.length > 80);
    }
    assert.match(session.client.getInstructions() ?? '', /workspace_context/);
  });

  it('answers every tool with structured content and readable text', async () => {
    await exerciseTools(session.client);
  });

  it('answers bad input with isError and a message naming the field, never crashing', async () => {
    await exerciseBadInput(session.client);
    const { tools } = await session.client.listTools();
    assert.ok(tools.length >= 2, 'the server is still alive');
  });

  it('keeps stdout for the protocol: logs go to stderr', async () => {
    await callWhenWarm(session.client, 'workspace_context', { workspace: 'fernhill', question: 'ledger' });
    // A full pass, or an update pass when a snapshot of the example from another test is restored
    // and git names what changed since (the warm start).
    assert.match(session.stderr(), /\[index\] (full|update) pass: \d+ files read/);
  });

  it('lists only tools that can answer: no graph tool without a catalog', async () => {
    const dir = tempDir('nocatalog');
    write(dir, 'epics/one.md', '# Plan\n\nShip the thing.\n');
    const bare = await connectStdio(dir);
    try {
      await callWhenWarm(bare.client, 'workspace_context', { workspace: dir, question: 'ship' });
      const names = (await bare.client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('workspace_context'));
      assert.ok(!names.includes('workspace_expand'), `workspace_expand is hidden: ${names.join(', ')}`);
    } finally {
      await bare.close();
    }
  });
});

describe('MCP over Streamable HTTP (built server, SDK client)', () => {
  let server: HttpServerProcess;
  before(async () => {
    server = await startHttpServer(EXAMPLE_WORKSPACE);
  });
  after(async () => {
    await server.stop();
  });

  it('binds to 127.0.0.1 and generates a token', () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.match(server.token, /^[0-9a-f]{64}$/);
  });

  it('serves the tools to a client with the token', async () => {
    const client = await connectHttp(server.url, server.token);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('workspace_context') && names.includes('workspace_expand'));
      await exerciseTools(client);
      await exerciseBadInput(client);
    } finally {
      await client.close();
    }
  });

  it('refuses a request without the token, with a wrong token, and from a foreign Origin', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(init),
      });
    const none = await post({});
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="workspace-context"');
    assert.equal((await post({ authorization: 'Bearer wrong' })).status, 401);
    const foreign = await post({ authorization: `Bearer ${server.token}`, origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    assert.match(await foreign.text(), /origin https:\/\/evil\.example is not allowed/);
    const ok = await post({ authorization: `Bearer ${server.token}` });
    assert.equal(ok.status, 200);
    assert.ok(ok.headers.get('mcp-session-id'));
  });

  it('accepts a token given on the command line', async () => {
    const fixed = await startHttpServer(EXAMPLE_WORKSPACE, 'test-token-0123456789abcdef0123456789');
    try {
      assert.equal(fixed.token, 'test-token-0123456789abcdef0123456789');
      const client = await connectHttp(fixed.url, 'test-token-0123456789abcdef0123456789');
      assert.ok((await client.listTools()).tools.length >= 2);
      await client.close();
    } finally {
      await fixed.stop();
    }
  });
});
