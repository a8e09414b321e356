/**
 * Which MCP server definition the extension gives VS Code, decided from what the language server
 * says about its endpoint and whether the endpoint answers from here:
 *
 * - the endpoint runs and answers: Streamable HTTP to it (the token goes in at resolve time, so
 *   VS Code's cache of definitions never holds it);
 * - it runs but does not answer from the extension host (a proxy setting catching loopback, a
 *   remote setup): a stdio definition that runs the small proxy (server/src/mcp/proxy.ts), which
 *   forwards to the same endpoint from a plain Node process, so there is still one index;
 * - it is starting: the definition is listed and its start waits for the endpoint;
 * - restricted mode, the setting off, failed or no folder: no definition, and the reason.
 *
 * `WSCTX_MCP_TRANSPORT=http|stdio` in the editor's environment forces one transport for setups
 * the probe cannot judge (and for the e2e suite, which checks both).
 *
 * Imports no `vscode`.
 */
import type { McpEndpointInfo } from '../../shared/protocol';

export type TransportOverride = 'auto' | 'http' | 'stdio';

/** Environment variable that forces the transport. */
export const TRANSPORT_ENV = 'WSCTX_MCP_TRANSPORT';

export type McpPlan =
  | { kind: 'none'; reason: string }
  | { kind: 'http'; url: string | null; reason: string }
  | { kind: 'stdio'; reason: string };

export interface PlanInput {
  endpoint: McpEndpointInfo | undefined;
  /** Whether the endpoint answered a probe from the extension host; undefined when not probed. */
  reachable: boolean | undefined;
  override: TransportOverride;
  /** Whether the proxy bundle ships with the extension. */
  proxyAvailable: boolean;
}

export function readTransportOverride(env: Record<string, string | undefined>): {
  value: TransportOverride;
  problem?: string;
} {
  const raw = env[TRANSPORT_ENV]?.trim().toLowerCase();
  if (!raw || raw === 'auto') return { value: 'auto' };
  if (raw === 'http' || raw === 'stdio') return { value: raw };
  return {
    value: 'auto',
    problem: `${TRANSPORT_ENV}=${env[TRANSPORT_ENV]} is not one of auto, http, stdio; using auto.`,
  };
}

export function planMcpDefinition(input: PlanInput): McpPlan {
  const { endpoint } = input;
  if (!endpoint) return { kind: 'none', reason: 'The language server has not reported its MCP endpoint yet.' };
  if (endpoint.state === 'disabled' || endpoint.state === 'failed' || endpoint.state === 'stopped') {
    return { kind: 'none', reason: endpoint.reason ?? `The MCP endpoint is ${endpoint.state}.` };
  }
  const stdio = (reason: string): McpPlan =>
    input.proxyAvailable
      ? { kind: 'stdio', reason }
      : { kind: 'none', reason: `${reason} The stdio proxy is not in this build, so there is no fallback.` };

  if (input.override === 'stdio') return stdio(`${TRANSPORT_ENV}=stdio: serving through the stdio proxy.`);
  const url = endpoint.state === 'running' ? endpoint.url : null;
  if (input.override === 'http') return { kind: 'http', url, reason: `${TRANSPORT_ENV}=http: serving over HTTP.` };
  if (endpoint.state === 'running' && input.reachable === false) {
    return stdio(
      `The MCP endpoint ${endpoint.url} does not answer from the extension host; serving through the stdio proxy.`,
    );
  }
  return {
    kind: 'http',
    url,
    reason: endpoint.state === 'running' ? `Serving over HTTP at ${endpoint.url}.` : 'The MCP endpoint is starting.',
  };
}

/**
 * Reads a probe's HTTP status: any answer from our endpoint (it refuses a GET without a session
 * with 400/405/406) means it is reachable; 401 means the token is stale; a proxy's 5xx or a
 * network error means it is not.
 */
export function probeVerdict(status: number | 'network-error'): { reachable: boolean; staleToken: boolean } {
  if (status === 'network-error') return { reachable: false, staleToken: false };
  if (status === 401) return { reachable: true, staleToken: true };
  return { reachable: status < 500, staleToken: false };
}

/** The file the proxy reads the endpoint from: `{ url, token, state }`, written with mode 0600. */
export interface EndpointFile {
  state: McpEndpointInfo['state'];
  url: string | null;
  token: string | null;
  /** When the extension wrote it (ISO). */
  writtenAt: string;
}

export function endpointFileContent(info: McpEndpointInfo, now: Date): EndpointFile {
  return { state: info.state, url: info.url, token: info.token, writtenAt: now.toISOString() };
}
