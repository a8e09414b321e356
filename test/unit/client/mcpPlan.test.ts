/**
 * Which MCP server definition the extension gives VS Code (client/src/mcpPlan.ts): HTTP when the
 * endpoint answers, the stdio proxy when it does not (or when forced), nothing when the endpoint
 * is off, with the reason each time; and how a probe's answer is read.
 */
import assert from 'node:assert/strict';
import type { McpEndpointInfo } from '../../../shared/protocol';
import {
  endpointFileContent,
  planMcpDefinition,
  probeVerdict,
  readTransportOverride,
} from '../../../client/src/mcpPlan';

const running: McpEndpointInfo = {
  state: 'running',
  url: 'http://127.0.0.1:4100/mcp',
  token: 'f'.repeat(64),
  reason: null,
  serverName: 'workspace-context',
};
const base = { endpoint: running, reachable: true, override: 'auto' as const, proxyAvailable: true };

describe('client MCP definition plan', () => {
  it('serves over HTTP when the endpoint runs and answers', () => {
    assert.deepEqual(planMcpDefinition(base), {
      kind: 'http',
      url: 'http://127.0.0.1:4100/mcp',
      reason: 'Serving over HTTP at http://127.0.0.1:4100/mcp.',
    });
  });

  it('falls back to the stdio proxy when the endpoint does not answer from the extension host', () => {
    assert.deepEqual(planMcpDefinition({ ...base, reachable: false }), {
      kind: 'stdio',
      reason:
        'The MCP endpoint http://127.0.0.1:4100/mcp does not answer from the extension host; serving through the stdio proxy.',
    });
  });

  it('offers nothing when the endpoint does not answer and the proxy is not in the build', () => {
    const plan = planMcpDefinition({ ...base, reachable: false, proxyAvailable: false });
    assert.equal(plan.kind, 'none');
    assert.match(plan.reason, /The stdio proxy is not in this build, so there is no fallback\.$/);
  });

  it('lists an HTTP definition while the endpoint starts (its start waits for the URL)', () => {
    const starting: McpEndpointInfo = { ...running, state: 'starting', url: null, token: null };
    assert.deepEqual(planMcpDefinition({ ...base, endpoint: starting, reachable: undefined }), {
      kind: 'http',
      url: null,
      reason: 'The MCP endpoint is starting.',
    });
  });

  it('offers nothing in restricted mode, with the setting off, when failed or stopped, or before the server reports', () => {
    const restricted = 'The workspace is not trusted (restricted mode), so the MCP endpoint is not started.';
    assert.deepEqual(
      planMcpDefinition({
        ...base,
        endpoint: { ...running, state: 'disabled', url: null, token: null, reason: restricted },
      }),
      { kind: 'none', reason: restricted },
    );
    assert.deepEqual(
      planMcpDefinition({ ...base, endpoint: { ...running, state: 'failed', url: null, token: null, reason: null } }),
      { kind: 'none', reason: 'The MCP endpoint is failed.' },
    );
    assert.equal(
      planMcpDefinition({
        ...base,
        endpoint: { ...running, state: 'stopped', url: null, token: null, reason: 'Not started yet.' },
      }).kind,
      'none',
    );
    assert.deepEqual(planMcpDefinition({ ...base, endpoint: undefined }), {
      kind: 'none',
      reason: 'The language server has not reported its MCP endpoint yet.',
    });
  });

  it('follows WSCTX_MCP_TRANSPORT, but never past a disabled endpoint', () => {
    assert.equal(planMcpDefinition({ ...base, override: 'stdio' }).kind, 'stdio');
    assert.equal(planMcpDefinition({ ...base, reachable: false, override: 'http' }).kind, 'http');
    assert.equal(
      planMcpDefinition({
        ...base,
        override: 'stdio',
        endpoint: { ...running, state: 'disabled', url: null, token: null, reason: 'off' },
      }).kind,
      'none',
    );
  });

  it('reads the override from the environment, naming a bad value', () => {
    assert.deepEqual(readTransportOverride({}), { value: 'auto' });
    assert.deepEqual(readTransportOverride({ WSCTX_MCP_TRANSPORT: ' STDIO ' }), { value: 'stdio' });
    assert.deepEqual(readTransportOverride({ WSCTX_MCP_TRANSPORT: 'sse' }), {
      value: 'auto',
      problem: 'WSCTX_MCP_TRANSPORT=sse is not one of auto, http, stdio; using auto.',
    });
  });

  it("reads a probe: our endpoint's 4xx is an answer, a network error or a proxy's 5xx is not", () => {
    assert.deepEqual(probeVerdict(400), { reachable: true, staleToken: false });
    assert.deepEqual(probeVerdict(406), { reachable: true, staleToken: false });
    assert.deepEqual(probeVerdict(401), { reachable: true, staleToken: true });
    assert.deepEqual(probeVerdict(502), { reachable: false, staleToken: false });
    assert.deepEqual(probeVerdict('network-error'), { reachable: false, staleToken: false });
  });

  it('writes the endpoint file the proxy reads', () => {
    assert.deepEqual(endpointFileContent(running, new Date('2026-11-30T12:00:00Z')), {
      state: 'running',
      url: 'http://127.0.0.1:4100/mcp',
      token: 'f'.repeat(64),
      writtenAt: '2026-11-30T12:00:00.000Z',
    });
  });
});
