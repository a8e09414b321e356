/**
 * What the e2e suites set up around a session: a throwaway copy of the example workspace (typing
 * in a test must never touch the repository's examples), the test-only chat model extension packed
 * as a VSIX, and the MCP endpoint file the extension writes for its stdio proxy, read back to ask
 * the endpoint for its tools directly.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EXTENSION_ID } from '../../shared/ids';
import { node24, runsDir, vsceScript } from './paths';

/** The test-only chat model extension (fixtures/testModel), never shipped. */
export const TEST_MODEL_EXTENSION_ID = 'workspace-context-e2e.e2e-test-model';

/**
 * Copies `source` to a fresh folder of the same name under the OS temp folder and returns it; call
 * `remove()` when done. Outside this repository on purpose: inside it, the repository's
 * .gitignore (which ignores .vscode-test/) would hide every file from the index.
 */
export function copyWorkspace(source: string): { dir: string; remove(): void } {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'wsctx-e2e-'));
  const dir = path.join(parent, path.basename(source));
  cpSync(source, dir, { recursive: true });
  return { dir, remove: () => rmSync(parent, { recursive: true, force: true }) };
}

/** Packs fixtures/testModel with vsce (on Node 24; scripts/package/vsix.mjs installed it) and returns the VSIX. */
export function packTestModel(): string {
  const source = path.join(__dirname, 'fixtures', 'testModel');
  const work = path.join(runsDir, `test-model-${process.pid}`);
  // One file, overwritten by each run: it is rebuilt from the fixture every time.
  const out = path.join(runsDir, 'test-model.vsix');
  rmSync(work, { recursive: true, force: true });
  cpSync(source, work, { recursive: true });
  const result = spawnSync(
    node24,
    [vsceScript, 'package', '--out', out, '--allow-missing-repository', '--skip-license'],
    { cwd: work, encoding: 'utf8', timeout: 120_000 },
  );
  rmSync(work, { recursive: true, force: true });
  if (result.status !== 0 || !existsSync(out))
    throw new Error(
      `e2e: packing the test model failed${result.signal ? ` (stopped by ${result.signal}: the 120 s limit)` : ''}: ${result.error?.message ?? ''}${result.stderr}${result.stdout}`,
    );
  return out;
}

export interface EndpointFile {
  state: string;
  url: string | null;
  token: string | null;
}

/**
 * The MCP endpoint file the extension keeps in its workspace storage
 * (`<user data>/User/workspaceStorage/<id>/<extension id>/mcp-endpoint.json`), or undefined.
 */
export function readEndpointFile(userDataDir: string): EndpointFile | undefined {
  const storage = path.join(userDataDir, 'User', 'workspaceStorage');
  if (!existsSync(storage)) return undefined;
  for (const id of readdirSync(storage)) {
    const file = path.join(storage, id, EXTENSION_ID, 'mcp-endpoint.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as EndpointFile;
  }
  return undefined;
}

/** The tool names the endpoint lists to an MCP client holding its token (the MCP SDK's own client). */
export async function listEndpointTools(endpoint: EndpointFile): Promise<string[]> {
  if (endpoint.state !== 'running' || !endpoint.url || !endpoint.token)
    throw new Error(`e2e: the MCP endpoint is ${endpoint.state}`);
  const transport = new StreamableHTTPClientTransport(new URL(endpoint.url), {
    requestInit: { headers: { Authorization: `Bearer ${endpoint.token}` } },
  });
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}
