/**
 * The library tools (`get_toc`, `get_section`, `search_instructions`) over MCP: the SDK's real
 * client spawns the BUILT server (`node dist/wsctx.js mcp`) on the example workspace. The bundle is
 * rebuilt first when any source is newer than it (`npm test` builds anyway).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { documentId, sectionId } from '../../server/src/engine/chunking/ids';
import { WSCTX, wsctx } from '../helpers/cli';
import { callWhenWarm, connectStdio, type StdioSession } from '../helpers/mcpClients';
import { EXAMPLE_WORKSPACE, removeTempDirs, tempDir } from '../helpers/tempWorkspace';

type Text = { type: 'text'; text: string };
const textOf = (result: unknown): string => (result as { content?: Text[] }).content?.[0]?.text ?? '';
const ROOT = path.resolve(__dirname, '../..');
const id8 = (p: string) => documentId(p).slice(0, 8);
const PINNED = '.context/guides/finding-a-merchant-account-id.md';

/** Newest modification time under `dir` (recursively), in ms. */
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

describe('the library tools over MCP (built server, SDK client over stdio)', function () {
  this.timeout(120_000);
  let session: StdioSession;
  let cache: string;
  before(async () => {
    buildIfStale();
    cache = tempDir('jitprompt-cache');
    session = await connectStdio(EXAMPLE_WORKSPACE, ['--cache-dir', cache]);
  });
  after(async () => {
    await session?.close();
    removeTempDirs();
  });

  it('lists get_toc, get_section and search_instructions with their input and output schemas', async () => {
    const { tools } = await session.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    const props = (name: string) => Object.keys(byName.get(name)!.inputSchema.properties ?? {}).sort();
    assert.deepEqual(props('get_toc'), ['document_id', 'namespace', 'query']);
    assert.deepEqual(props('get_section'), ['id']);
    assert.deepEqual(props('search_instructions'), ['plan', 'profile']);
    assert.deepEqual(byName.get('get_section')!.inputSchema.required, ['id']);
    assert.deepEqual(
      (byName.get('search_instructions')!.inputSchema.properties as Record<string, { enum?: string[] }>).profile.enum,
      ['focused', 'catalog'],
    );
    for (const name of ['get_toc', 'get_section', 'search_instructions']) {
      assert.equal(byName.get(name)!.annotations?.readOnlyHint, true);
      assert.equal(byName.get(name)!.outputSchema?.type, 'object');
    }
  });

  it('puts the pinned documents whole in the server instructions', () => {
    const instructions = session.client.getInstructions() ?? '';
    assert.match(
      instructions,
      /The team's rules and instructions library \(26 documents\) is served by three tools: get_toc maps it/,
    );
    const pinnedText = fs
      .readFileSync(path.join(EXAMPLE_WORKSPACE, PINNED), 'utf8')
      .split('\n---\n')
      .slice(1)
      .join('\n---\n')
      .trim();
    assert.ok(
      instructions.includes(`=== Finding a merchant account id  [doc ${id8(PINNED)}] ===\n${pinnedText}`),
      instructions.slice(-400),
    );
  });

  it('answers all three tools with structured content and text; pinned documents head the first answer only', async () => {
    const map = await callWhenWarm(session.client, 'get_toc', {});
    assert.equal(map.isError, undefined);
    const toc = map.structuredContent as {
      mode: string;
      documentCount: number;
      pinned?: { title: string }[];
      namespaces: { label: string }[];
    };
    assert.equal(toc.mode, 'map');
    assert.equal(toc.documentCount, 26);
    assert.deepEqual(
      toc.namespaces.map((n) => n.label),
      ['.', 'guides', 'reference', 'rules', 'templates', 'voice'],
    );
    assert.deepEqual(
      toc.pinned?.map((p) => p.title),
      ['Finding a merchant account id'],
    );
    assert.match(
      textOf(map),
      /^Pinned documents \(they apply to every task; each session gets them once, whole\):\n\n=== Finding a merchant account id  \[doc [0-9a-f]{8}\] ===\n/,
    );
    assert.match(textOf(map), /\n---\n\n# Library map: 26 documents in 6 namespaces\n/);

    const found = await session.client.callTool({
      name: 'search_instructions',
      arguments: { plan: 'add a caller of the payments gateway with an Idempotency-Key' },
    });
    const search = found.structuredContent as {
      documents: { title: string; id: string; sections: { id: string; heading: string }[] }[];
      pinned?: unknown;
      tokens: number;
    };
    assert.equal(search.pinned, undefined);
    assert.deepEqual(
      search.documents.slice(0, 2).map((d) => d.title),
      ['Calling the payments gateway', 'Issuing refunds'],
    );
    assert.equal(search.tokens, 1_921);
    const first = search.documents[0];
    assert.ok(
      textOf(found).startsWith(
        `# Calling the payments gateway  [id: ${first.sections[0].id}]\nFrom: Calling the payments gateway  [doc ${first.id}]\n\n`,
      ),
    );
    assert.match(
      textOf(found),
      /\nAlso matched, not included \(open with get_toc\(document_id=\.\.\.\) or get_section\(id=\.\.\.\)\):\n/,
    );

    const window = sectionId('.context/reference/refund-policy.md', ['Refund policy', 'Refund window']);
    const section = await session.client.callTool({ name: 'get_section', arguments: { id: window.slice(0, 6) } });
    assert.equal(section.isError, undefined);
    assert.ok(
      textOf(section).startsWith(
        `# Refund window  [id: ${window.slice(0, 8)}]\nFrom: Refund policy  [doc ${id8('.context/reference/refund-policy.md')}]\n\nMerchants can refund a captured charge within **14 days**`,
      ),
    );

    const listing = await session.client.callTool({
      name: 'get_toc',
      arguments: { document_id: id8('.github/instructions/typescript.instructions.md') },
    });
    assert.deepEqual(
      (listing.structuredContent as { document: { format: string; applyTo: string[] } }).document.applyTo,
      ['**/*.ts', '**/*.tsx'],
    );
  });

  it('answers bad input with isError and a message naming the field', async () => {
    const bad = await session.client.callTool({ name: 'get_section', arguments: { id: 'zzzz' } });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /^id: "zzzz" is not an id; ids are hexadecimal/);
    const draft = await session.client.callTool({
      name: 'get_toc',
      arguments: { document_id: id8('.context/guides/onboarding-first-week.md') },
    });
    assert.equal(draft.isError, true);
    assert.match(textOf(draft), /which is a draft; drafts and expired pages are not served\.$/);
    const profile = await session.client.callTool({
      name: 'search_instructions',
      arguments: { plan: 'x', profile: 'everything' },
    });
    assert.equal(profile.isError, true);
    assert.match(textOf(profile), /profile/);
  });

  it('logs the calls where `wsctx diagnostics` reads them', async () => {
    await session.client.callTool({ name: 'search_instructions', arguments: { plan: 'kubernetes autoscaling' } });
    const run = wsctx(['diagnostics', '--workspace', EXAMPLE_WORKSPACE, '--cache-dir', cache, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as {
      calls: number;
      errors: number;
      emptySearches: { tool: string; text: string; count: number }[];
      latency: { tool: string; calls: number }[];
      nearDuplicates: { a: { heading: string } }[];
    };
    assert.ok(report.calls >= 7, `${report.calls} calls`);
    assert.ok(report.errors >= 2, `${report.errors} errors`); // schema-refused calls never reach the tool
    assert.deepEqual(
      report.emptySearches.filter((e) => e.tool === 'search_instructions').map((e) => [e.text, e.count]),
      [['kubernetes autoscaling', 1]],
    );
    assert.deepEqual(
      report.nearDuplicates.map((p) => p.a.heading),
      ['Idempotency keys'],
    );
    assert.ok(fs.readdirSync(cache).some((name) => name.startsWith('activity-')));
  });
});
