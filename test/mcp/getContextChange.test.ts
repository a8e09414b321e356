/**
 * get_context given a change over MCP: the SDK's real client (strict: it lists the tools first,
 * so every structured answer is checked against the published output schema) against the BUILT
 * server over stdio (`wsctx mcp`) and over HTTP (`wsctx serve`), on the example workspace.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callWhenWarm,
  connectHttp,
  connectStdio,
  startHttpServer,
  type HttpServerProcess,
  type StdioSession,
} from '../helpers/mcpClients';
import { EXAMPLE_WORKSPACE, removeTempDirs, tempDir } from '../helpers/tempWorkspace';

type Text = { type: 'text'; text: string };
const textOf = (result: unknown): string => (result as { content?: Text[] }).content?.[0]?.text ?? '';
const BW = 'payments-platform/services/billing-worker';
const F03 = fs.readFileSync(path.resolve(__dirname, '../../bench/corpora/changes/diffs/f03.diff'), 'utf8');

interface Changes {
  entities: { ref: string; owner?: string }[];
  dependents: { ref: string; hop: number }[];
  items: { reason: string; ref?: string; path?: string; sent: boolean }[];
}

async function checks(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === 'get_context')!;
  const props = tool.inputSchema.properties as Record<string, { properties?: Record<string, unknown> }>;
  assert.deepEqual(Object.keys(props.changes.properties ?? {}), ['changedPaths', 'diff']);
  assert.equal((tool.inputSchema.required ?? []).includes('task'), false, 'task is optional with a change');

  const paths = await callWhenWarm(client, 'get_context', { changes: { changedPaths: [`${BW}/src/worker.ts`] } });
  assert.equal(paths.isError, undefined, textOf(paths));
  const out = paths.structuredContent as { changes: Changes; pages: { reason: string; path: string }[] };
  assert.deepEqual(
    out.changes.entities.map((e) => [e.ref, e.owner]),
    [['component:default/billing-worker', 'group:default/payments-team']],
  );
  assert.deepEqual(
    out.changes.items.filter((i) => i.reason === 'runbook').map((i) => i.path),
    [`${BW}/docs/runbooks/alerts.md`, `${BW}/docs/runbooks/deploy.md`, `${BW}/docs/runbooks/dunning.md`],
  );
  assert.match(textOf(paths), /\n# The change\n\n1 changed file \(as named\): 1 in 1 entity, 0 owned by none\.\n/);

  const diff = await client.callTool({ name: 'get_context', arguments: { changes: { diff: F03 }, format: 'json' } });
  const changes = (diff.structuredContent as { changes: Changes }).changes;
  assert.deepEqual(
    changes.entities.map((e) => e.ref),
    ['api:default/ledger-api', 'component:default/ledger-service'],
  );
  assert.deepEqual(
    changes.dependents.filter((d) => d.hop === 1).map((d) => d.ref),
    ['component:default/billing-worker', 'component:default/invoice-api'],
  );
  assert.ok(JSON.parse(textOf(diff)).changes.items.some((i: { reason: string }) => i.reason === 'depends-on-changed'));

  const refused = await client.callTool({ name: 'get_context', arguments: {} });
  assert.equal(refused.isError, true);
  assert.match(textOf(refused), /task or changes: /);
  const both = await client.callTool({
    name: 'get_context',
    arguments: { changes: { changedPaths: ['a'], diff: F03 } },
  });
  assert.equal(both.isError, true);
  assert.match(textOf(both), /changes: give changedPaths or diff, not both/);
}

describe('get_context given a change over MCP (built server, SDK client)', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('over stdio', async () => {
    const session: StdioSession = await connectStdio(EXAMPLE_WORKSPACE, ['--cache-dir', tempDir('change-stdio')]);
    try {
      await checks(session.client);
    } finally {
      await session.close();
    }
  });

  it('over HTTP', async () => {
    const server: HttpServerProcess = await startHttpServer(EXAMPLE_WORKSPACE);
    const client = await connectHttp(server.url, server.token);
    try {
      await checks(client);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
