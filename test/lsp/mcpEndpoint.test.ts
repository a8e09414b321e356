/**
 * The MCP endpoint the language server serves on 127.0.0.1: reported to the client, reachable with
 * the reported token by the MCP SDK's own client, refused without it, restartable with a new token,
 * and kept off in restricted mode and by the setting (switched on again without a restart).
 */
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DidChangeConfigurationNotification } from 'vscode-languageserver-protocol/node';
import {
  IndexStatusRequest,
  McpEndpointRequest,
  RestartMcpEndpointRequest,
  type McpEndpointInfo,
} from '../../shared/protocol';
import { TOOLS } from '../../server/src/tools/registry';
import { startOnExample, type LspClient } from '../helpers/lspClient';
import { removeTempDirs } from '../helpers/tempWorkspace';

async function connect(info: McpEndpointInfo, token = info.token!): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(info.url!), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'lsp-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function statusWith(info: McpEndpointInfo, token: string): Promise<number> {
  const response = await fetch(info.url!, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
    }),
  });
  await response.body?.cancel();
  return response.status;
}

const RESTRICTED = 'The workspace is not trusted (restricted mode), so the MCP endpoint is not started.';
const SETTING_OFF = 'Turned off by the workspaceContext.mcp.http.enabled setting.';

describe('LSP MCP endpoint (built server, JSON-RPC + MCP SDK client)', () => {
  after(() => removeTempDirs());

  describe('in a trusted workspace', () => {
    let lsp: LspClient;
    before(async () => {
      lsp = await startOnExample();
    });
    after(async () => {
      await lsp.stop();
    });

    it('reports the running endpoint by notification and on request', async () => {
      const running = await lsp.waitFor('a running endpoint', () => lsp.endpoints.find((e) => e.state === 'running'));
      assert.match(running.url!, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      assert.match(running.token!, /^[0-9a-f]{64}$/);
      assert.deepEqual(running, {
        state: 'running',
        url: running.url,
        token: running.token,
        reason: null,
        serverName: 'workspace-context',
      });
      assert.deepEqual(
        lsp.endpoints.map((e) => e.state),
        ['starting', 'running'],
      );
      assert.deepEqual(await lsp.connection.sendRequest(McpEndpointRequest.type), running);
    });

    it('serves every tool to an MCP SDK client holding the token, from the editor index', async () => {
      const info = await lsp.connection.sendRequest(McpEndpointRequest.type);
      const client = await connect(info);
      try {
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS.map((t) => t.name).sort());
        const answer = await client.callTool({
          name: 'workspace_context',
          arguments: {
            workspace: lsp.statuses[0].folders[0],
            question: 'how do I roll back billing-worker?',
            limit: 1,
          },
        });
        const out = answer.structuredContent as {
          passages: { sourceRef: { path: string } }[];
          degraded: string[];
          indexedAt: string;
        };
        assert.deepEqual(out.degraded, []);
        assert.equal(
          out.passages[0].sourceRef.path,
          'payments-platform/services/billing-worker/docs/runbooks/deploy.md',
        );
        assert.equal(out.indexedAt, (await lsp.connection.sendRequest(IndexStatusRequest.type)).indexedAt);
      } finally {
        await client.close();
      }
      assert.equal(await statusWith(info, 'f'.repeat(64)), 401);
    });

    it('restarts with a new token; the old token no longer opens it', async () => {
      const before = await lsp.connection.sendRequest(McpEndpointRequest.type);
      const seen = lsp.endpoints.length;
      const after = await lsp.connection.sendRequest(RestartMcpEndpointRequest.type);
      assert.equal(after.state, 'running');
      assert.notEqual(after.token, before.token);
      assert.deepEqual(
        lsp.endpoints.slice(seen).map((e) => e.state),
        ['starting', 'running'],
      );
      assert.equal(await statusWith(after, before.token!), 401);
      const client = await connect(after);
      assert.ok((await client.listTools()).tools.length > 0);
      await client.close();
    });
  });

  it('does not start in restricted mode and says why, in the endpoint and in the index status', async () => {
    const lsp = await startOnExample({ initializationOptions: { workspaceTrusted: false } });
    try {
      const disabled = await lsp.waitFor('a disabled endpoint', () =>
        lsp.endpoints.find((e) => e.state === 'disabled'),
      );
      assert.deepEqual(disabled, {
        state: 'disabled',
        url: null,
        token: null,
        reason: RESTRICTED,
        serverName: 'workspace-context',
      });
      assert.deepEqual((await lsp.connection.sendRequest(IndexStatusRequest.type)).degraded, [
        { flag: 'restricted-mode', reason: RESTRICTED },
      ]);
      assert.equal((await lsp.connection.sendRequest(RestartMcpEndpointRequest.type)).state, 'disabled');
    } finally {
      await lsp.stop();
    }
  });

  it('follows the mcp.http.enabled setting without a restart of the server', async () => {
    const lsp = await startOnExample({ settings: { mcp: { http: { enabled: false } } } });
    try {
      const off = await lsp.waitFor('a disabled endpoint', () =>
        lsp.endpoints.find((e) => e.state === 'disabled' && e.reason === SETTING_OFF),
      );
      assert.equal(off.url, null);
      assert.deepEqual((await lsp.connection.sendRequest(IndexStatusRequest.type)).degraded, [
        { flag: 'mcp-disabled', reason: SETTING_OFF },
      ]);
      lsp.settings = { mcp: { http: { enabled: true } } };
      await lsp.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
      const on = await lsp.waitFor('a running endpoint', () => lsp.endpoints.find((e) => e.state === 'running'));
      const client = await connect(on);
      assert.ok((await client.listTools()).tools.length > 0);
      await client.close();
      assert.deepEqual((await lsp.connection.sendRequest(IndexStatusRequest.type)).degraded, []);
    } finally {
      await lsp.stop();
    }
  });
});
