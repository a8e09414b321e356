/**
 * get_context, read_page and get_file over MCP: the SDK's real client spawns the BUILT server
 * (`node dist/wsctx.js mcp`) on the example workspace. Also the MCP sampling model provider,
 * against a real SDK client that offers sampling, over the SDK's in-memory transport.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { documentId } from '../../server/src/engine/chunking/ids';
import { runJudge } from '../../server/src/library/models/judge';
import { samplingModelProvider, SAMPLING_PROVIDER_NAME } from '../../server/src/mcp/samplingModelProvider';
import { WSCTX } from '../helpers/cli';
import { callWhenWarm, connectStdio, type StdioSession } from '../helpers/mcpClients';
import { EXAMPLE_WORKSPACE, removeTempDirs, tempDir } from '../helpers/tempWorkspace';

type Text = { type: 'text'; text: string };
const textOf = (result: unknown): string => (result as { content?: Text[] }).content?.[0]?.text ?? '';
const ROOT = path.resolve(__dirname, '../..');
const id8 = (p: string) => documentId(p).slice(0, 8);
const TASK = 'change the message shown to shoppers when a card is declined';

function newest(dir: string): number {
  let max = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    max = Math.max(max, entry.isDirectory() ? newest(abs) : fs.statSync(abs).mtimeMs);
  }
  return max;
}

function buildIfStale(): void {
  const built = fs.existsSync(WSCTX) ? fs.statSync(WSCTX).mtimeMs : 0;
  const sources = Math.max(
    newest(path.join(ROOT, 'server/src')),
    fs.existsSync(path.join(ROOT, 'shared')) ? newest(path.join(ROOT, 'shared')) : 0,
  );
  if (built < sources) execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'ignore' });
}

describe('get_context, read_page and get_file over MCP (built server, SDK client over stdio)', function () {
  this.timeout(120_000);
  let session: StdioSession;
  before(async () => {
    buildIfStale();
    session = await connectStdio(EXAMPLE_WORKSPACE, ['--cache-dir', tempDir('herald-cache')]);
  });
  after(async () => {
    await session?.close();
    removeTempDirs();
  });

  it('lists the three tools with their inputs, read-only', async () => {
    const { tools } = await session.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    const props = (name: string) => Object.keys(byName.get(name)!.inputSchema.properties ?? {});
    assert.deepEqual(props('get_context'), ['task', 'changes', 'max_tokens', 'pack', 'tags', 'folder', 'format']);
    assert.deepEqual(props('read_page'), ['page_id']);
    assert.deepEqual(props('get_file'), ['page_id']);
    // A task or a change (the tool refuses a call with neither, naming both).
    assert.equal(byName.get('get_context')!.inputSchema.required, undefined);
    const maxTokens = (
      byName.get('get_context')!.inputSchema.properties as Record<string, { minimum?: number; maximum?: number }>
    ).max_tokens;
    assert.deepEqual([maxTokens.minimum, maxTokens.maximum], [1000, 30000]);
    for (const name of ['get_context', 'read_page', 'get_file'])
      assert.equal(byName.get(name)!.annotations?.readOnlyHint, true);
  });

  it('get_context answers the Markdown bundle as text and ids, reasons and scores as structured content, the text once', async () => {
    const result = await callWhenWarm(session.client, 'get_context', { task: TASK, max_tokens: 4_000 });
    assert.equal(result.isError, undefined);
    const out = result.structuredContent as {
      markdown?: string;
      tokens: number;
      packs: { name: string; applied: boolean }[];
      pages: { title: string; reason: string; whole: boolean; text?: string }[];
      judge: { verdicts?: unknown[]; questions: number };
    };
    assert.equal(out.markdown, undefined);
    assert.ok(
      out.pages.every((p) => p.text === undefined),
      'page texts are in the text content only',
    );
    assert.equal(out.judge.verdicts, undefined);
    assert.ok(out.judge.questions > 0);
    assert.ok(out.tokens <= 4_000);
    const size = textOf(result).length + JSON.stringify(result.structuredContent).length;
    assert.ok(size <= 4.5 * 4_000, `${size} characters for a 4,000-token budget`);
    // JSON format: the pages with their texts as the text content, the same structured content.
    const json = await session.client.callTool({
      name: 'get_context',
      arguments: { task: TASK, max_tokens: 4_000, format: 'json' },
    });
    const parsed = JSON.parse(textOf(json)) as { pages: { title: string; text: string }[] };
    assert.ok(parsed.pages.find((p) => p.title === 'Decline codes')?.text.includes('insufficient_funds'));
    assert.ok(textOf(json).length + JSON.stringify(json.structuredContent).length <= 4.5 * 4_000);
    assert.deepEqual(
      out.packs.filter((p) => p.applied).map((p) => p.name),
      ['Storefront release'],
    );
    assert.deepEqual(
      out.pages.slice(0, 6).map((p) => [p.title, p.reason, p.whole]),
      [
        ['Feature flag naming', 'rule', true],
        ['Migrations are backwards-compatible', 'rule', true],
        ['Money is always an integer in minor units', 'rule', true],
        ['Never log card numbers', 'rule', true],
        ['Finding a merchant account id', 'pinned', true],
        ['Writing for subscribers and shoppers', 'recipe', true],
      ],
    );
    const text = textOf(result);
    assert.match(text, /^# Instructions from the fernhill team\n\nYou are working in Fernhill's code/);
    assert.match(
      text,
      /\n<!-- packs applied: Storefront release; tags found in the task: declines -->\n\n# Rules \(always follow\)\n\n## Feature flag naming\nrule · full page · page_id: [0-9a-f]{8}\n/,
    );
    assert.match(
      text,
      /\n## Decline codes\nreference · excerpts \(read_page for the whole page\) · page_id: [0-9a-f]{8}\nUsage: Use the table for common codes; call get_file for the full acquirer mapping CSV\.\nAttached file: decline-codes\.csv \(get_file with page_id [0-9a-f]{8} returns it\)\n/,
    );
  });

  it('read_page returns the whole page and get_file its attached CSV', async () => {
    const id = id8('.context/reference/decline-codes.md');
    const page = await session.client.callTool({ name: 'read_page', arguments: { page_id: id } });
    assert.equal(page.isError, undefined);
    assert.ok(
      textOf(page).startsWith(
        `page_id: ${id} · reference · .context/reference/decline-codes.md\nUsage: Use the table for common codes; call get_file for the full acquirer mapping CSV.\nAttached file: decline-codes.csv (get_file with page_id ${id} returns it)\n\n# Decline codes\n\nThe gateway maps each acquirer's response`,
      ),
    );
    const file = await session.client.callTool({ name: 'get_file', arguments: { page_id: id } });
    const csv = fs.readFileSync(path.join(EXAMPLE_WORKSPACE, '.context/reference/decline-codes.csv'), 'utf8');
    assert.deepEqual(
      (file.structuredContent as { file: { name: string; mediaType: string; encoding: string; content: string } }).file,
      {
        ...(file.structuredContent as { file: object }).file,
        name: 'decline-codes.csv',
        mediaType: 'text/csv',
        encoding: 'utf8',
        content: csv,
      },
    );
    assert.ok(textOf(file).endsWith(`\n\n${csv}`));
  });

  it('answers bad input with isError and a message naming the field', async () => {
    const budget = await session.client.callTool({
      name: 'get_context',
      arguments: { task: TASK, max_tokens: 50_000 },
    });
    assert.equal(budget.isError, true);
    assert.match(textOf(budget), /max_tokens/);
    const pack = await session.client.callTool({ name: 'get_context', arguments: { task: TASK, pack: 'Everything' } });
    assert.equal(pack.isError, true);
    assert.equal(textOf(pack), 'pack: no pack is named "Everything". Packs: "Payments change", "Storefront release".');
    const draft = await session.client.callTool({
      name: 'read_page',
      arguments: { page_id: id8('.context/guides/onboarding-first-week.md') },
    });
    assert.equal(draft.isError, true);
    assert.match(
      textOf(draft),
      /^page_id: "[0-9a-f]{8}" belongs to "Your first week in engineering", which is a draft/,
    );
  });
});

describe('MCP sampling as the model provider (SDK client with sampling, in-memory transport)', () => {
  it('sends each completion to the client as sampling/createMessage and reads the text back', async () => {
    const server = new McpServer({ name: 'test', version: '1.0.0' });
    const client = new Client({ name: 'sampler', version: '1.0.0' }, { capabilities: { sampling: {} } });
    const seen: { systemPrompt?: string; maxTokens: number; text: string }[] = [];
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      const content = request.params.messages[0].content as { type: string; text: string };
      seen.push({ systemPrompt: request.params.systemPrompt, maxTokens: request.params.maxTokens, text: content.text });
      return { role: 'assistant', model: 'client-model', content: { type: 'text', text: '{"q1": 0.8, "q2": 0.1}' } };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    try {
      const provider = samplingModelProvider(server.server);
      assert.equal(provider.name, SAMPLING_PROVIDER_NAME);
      assert.equal(provider.available(), true);
      const run = await runJudge(
        [
          {
            id: 'q1',
            kind: 'use',
            subject: 'a',
            material: 'Avalara battlecard',
            pages: {},
            heuristic: { yes: false, probability: 0 },
          },
          {
            id: 'q2',
            kind: 'different',
            subject: 'a',
            material: 'Avalara battlecard',
            pages: {},
            heuristic: { yes: true, probability: 1 },
          },
        ],
        { task: 'cold email', mode: 'gate', provider },
      );
      assert.equal(seen.length, 1);
      assert.match(seen[0].systemPrompt ?? '', /^You answer yes\/no questions/);
      assert.match(seen[0].text, /^Task: cold email\n\n\[q1\] /);
      assert.equal(seen[0].maxTokens, 40 + 12 * 2);
      assert.deepEqual(run.answer('q1'), { yes: true, probability: 0.8, from: 'judge' });
      assert.deepEqual(run.answer('q2'), { yes: false, probability: 0.1, from: 'judge' });
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('is unavailable when the client does not offer sampling', async () => {
    const server = new McpServer({ name: 'test', version: '1.0.0' });
    const client = new Client({ name: 'plain', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    try {
      assert.equal(samplingModelProvider(server.server).available(), false);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
