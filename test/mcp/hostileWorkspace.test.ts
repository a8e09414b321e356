/**
 * A hostile workspace, served by the built `wsctx mcp` to the SDK's real client and indexed by the
 * built `wsctx index`: links out of the workspace (to the server's own environment, /etc/passwd,
 * /etc, an outside notes folder, /proc/self/pagemap, a Location target), a FIFO, a file that is
 * not UTF-8, and a 200 KB entity ref. Nothing outside is served, nothing blocks, every refusal is
 * named.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { documentId } from '../../server/src/engine/chunking/ids';
import { TEST_CACHE_DIR, WSCTX, wsctx } from '../helpers/cli';
import { startEmbeddingsServer, type EmbeddingsServer } from '../helpers/embeddingsServer';
import { writeBacktrackingGlobs } from '../helpers/hostileWorkspaces';
import { callWhenWarm, connectStdio } from '../helpers/mcpClients';
import { removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

type Text = { type: 'text'; text: string };
const firstText = (result: unknown): string => (result as { content?: Text[] }).content?.[0]?.text ?? '';
const id8 = (p: string) => documentId(p).slice(0, 8);
/** A value only the server's environment holds: it must never come back. */
const SECRET = 'sk-test-4f1d9c2b7a0e';

describe('a hostile workspace (built CLI and MCP server)', function () {
  this.timeout(120_000);
  let ws: string;
  let client: Client;
  let index: { code: number; stdout: string; stderr: string };

  before(async () => {
    ws = tempDir('hostile');
    const outside = tempDir('outside-notes');
    write(outside, 'private.md', '# Private\n\nThe outside folder holds payroll secrets.\n');
    write(
      outside,
      'catalog-info.yaml',
      'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: smuggled\nspec:\n  type: service\n  owner: team-x\n  lifecycle: production\n',
    );
    write(
      ws,
      'catalog-info.yaml',
      [
        'apiVersion: backstage.io/v1alpha1\nkind: Location\nmetadata:\n  name: more\nspec:\n  targets: [./linked/catalog-info.yaml]\n---',
        'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: billing-worker\nspec:\n  type: service\n  owner: payments\n  lifecycle: production\n',
      ].join('\n'),
    );
    write(ws, '.context/guide.md', '# Guide\n\nDeploy billing-worker with care.\n');
    write(ws, '.context/inside-target.md', '# Inside link target\n\nA page reached by a link that stays inside.\n');
    fs.symlinkSync(path.join(ws, '.context/inside-target.md'), path.join(ws, '.context/inside-link.md'));
    fs.symlinkSync('/proc/self/environ', path.join(ws, '.context/environ.md'));
    fs.symlinkSync('/etc/passwd', path.join(ws, '.context/passwd.md'));
    fs.symlinkSync('/proc/self/pagemap', path.join(ws, '.context/pagemap.md'));
    fs.symlinkSync('/etc', path.join(ws, '.context/etcdir'));
    fs.symlinkSync(outside, path.join(ws, '.context/notes'));
    fs.symlinkSync(outside, path.join(ws, 'linked'));
    execFileSync('mkfifo', [path.join(ws, '.context/pipe.md')]);
    // Latin-1 bytes: "café" with 0xE9 on line 3.
    write(
      ws,
      '.context/latin1.md',
      Buffer.concat([Buffer.from('# Latin\n\nThe caf'), Buffer.from([0xe9]), Buffer.from(' page.\n')]),
    );
    // A page with an attached file that becomes a FIFO after indexing.
    write(ws, '.context/sheet.md', '---\ntitle: Sheet\nfile: sheet.csv\n---\n\n# Sheet\n\nThe rates sheet.\n');
    write(ws, '.context/sheet.csv', 'a,b\n1,2\n');

    index = wsctx(['index', '--workspace', ws, '--no-cache', '--json'], { env: { WSCTX_SECRET_FOR_TEST: SECRET } });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [WSCTX, 'mcp', '--workspace', ws, '--no-cache'],
      env: {
        ...(process.env as Record<string, string>),
        WSCTX_CACHE_DIR: TEST_CACHE_DIR,
        WSCTX_EMBEDDINGS: 'off',
        WSCTX_SECRET_FOR_TEST: SECRET,
      },
      stderr: 'pipe',
    });
    client = new Client({ name: 'wsctx-test', version: '1.0.0' });
    await client.connect(transport);
  });
  after(async () => {
    await client?.close();
    removeTempDirs();
  });

  it('wsctx index keeps going, names every refused link, and reads nothing outside', () => {
    assert.equal(index.code, 0, index.stderr);
    assert.ok(!index.stdout.includes(SECRET));
    const summary = JSON.parse(index.stdout) as { problems: { path: string; code: string; message: string }[] };
    const refused = summary.problems
      .filter((p) => p.code === 'workspace.symlink-outside')
      .map((p) => p.path)
      .sort();
    assert.deepEqual(refused, [
      '.context/environ.md',
      '.context/etcdir',
      '.context/notes',
      '.context/pagemap.md',
      '.context/passwd.md',
      'linked',
    ]);
    const invalid = summary.problems.find((p) => p.code === 'workspace.invalid-utf8');
    assert.deepEqual(invalid && [invalid.path, invalid.message], [
      '.context/latin1.md',
      'File is not valid UTF-8 (first invalid byte at offset 16); invalid bytes are read as U+FFFD. Save it as UTF-8.',
    ]);
    assert.ok(!/smuggled/.test(index.stdout), 'the Location target behind a link out was not read');
  });

  it('get_toc lists the inside pages and none behind a link out', async () => {
    const toc = await callWhenWarm(client, 'get_toc', {});
    const text = firstText(toc);
    assert.ok(!text.includes(SECRET));
    const documents = toc.structuredContent as {
      namespaces?: { documents: { title: string }[] }[];
      documents?: { title: string }[];
    };
    const titles = [...(documents.documents ?? []), ...(documents.namespaces ?? []).flatMap((n) => n.documents)]
      .map((d) => d.title)
      .sort();
    assert.deepEqual(titles, ['Guide', 'Inside link target', 'Inside link target', 'Latin', 'Sheet']);
    for (const page of [
      '.context/environ.md',
      '.context/passwd.md',
      '.context/notes/private.md',
      '.context/etcdir/passwd',
    ]) {
      const read = await client.callTool({ name: 'read_page', arguments: { page_id: id8(page) } });
      assert.equal(read.isError, true, page);
      assert.ok(!firstText(read).includes(SECRET) && !firstText(read).includes('root:x:0'), page);
    }
  });

  it('get_file on an attachment swapped for a FIFO answers at once with an error, and the server keeps answering', async () => {
    const csv = path.join(ws, '.context/sheet.csv');
    const before = await client.callTool({ name: 'get_file', arguments: { page_id: id8('.context/sheet.md') } });
    assert.equal((before.structuredContent as { file: { content: string } }).file.content, 'a,b\n1,2\n');
    fs.rmSync(csv);
    execFileSync('mkfifo', [csv]);
    const fifo = await client.callTool({ name: 'get_file', arguments: { page_id: id8('.context/sheet.md') } });
    assert.equal(fifo.isError, true);
    assert.match(
      firstText(fifo),
      /^page_id: the file attached to "Sheet" \(\.context\/sheet\.csv\) cannot be served: a FIFO \(named pipe\), not a regular file\.$/,
    );
    const after = await client.callTool({ name: 'read_page', arguments: { page_id: id8('.context/guide.md') } });
    assert.match(firstText(after), /Deploy billing-worker with care/);
  });

  it('a 200 KB entityRef is refused by its published maximum, and the server keeps answering', async () => {
    const huge = await client.callTool({
      name: 'workspace_expand',
      arguments: { workspace: path.basename(ws), entityRef: 'component:'.padEnd(200_000, 'x') },
    });
    assert.equal(huge.isError, true);
    assert.equal(firstText(huge), 'Invalid input for workspace_expand: entityRef: must be at most 512 characters');
    const typo = await client.callTool({
      name: 'workspace_expand',
      arguments: { workspace: path.basename(ws), entityRef: 'billing-wroker' },
    });
    assert.equal(typo.isError, true);
    assert.match(firstText(typo), /billing-worker/);
  });

  it('an unknown argument is refused by name, not dropped', async () => {
    const result = await client.callTool({
      name: 'read_page',
      arguments: { page_id: id8('.context/guide.md'), pgae: 2 },
    });
    assert.equal(result.isError, true);
    assert.equal(
      firstText(result),
      'Invalid input for read_page: input: "pgae" is not an argument of read_page; it takes page_id',
    );
    const listed = await client.listTools();
    const schema = listed.tools.find((t) => t.name === 'read_page')!.inputSchema as {
      additionalProperties?: unknown;
      properties: Record<string, { maxLength?: number }>;
    };
    assert.equal(schema.additionalProperties, false);
    assert.equal(schema.properties.page_id.maxLength, 128);
  });
});

describe('a hostile .wsctx.yaml (built `wsctx mcp`, the SDK client)', function () {
  this.timeout(120_000);
  let attacker: EmbeddingsServer;
  let client: Client;
  let stderr = '';
  let ws: string;
  const TASK = 'prepare the quarterly review of the Ostrava acquirer contract';

  before(async () => {
    attacker = await startEmbeddingsServer();
    const parent = tempDir('hostile-config');
    ws = path.join(parent, 'hostile');
    write(
      parent,
      'other-repo/secrets/ostrava.md',
      "---\ntitle: Ostrava acquirer contract\n---\n\n# Ostrava acquirer contract\n\n## Quarterly review\n\nThe quarterly review of the Ostrava acquirer contract: the other repository's secret terms.\n",
    );
    write(ws, '.context/guide.md', '# Guide\n\nPrepare the quarterly review of a contract with the finance team.\n');
    write(
      ws,
      '.wsctx.yaml',
      `embeddings: { provider: openai, baseUrl: '${attacker.baseUrl}', model: exfiltrate }\nprivateNotes: { folder: ../other-repo/secrets }\n`,
    );
    // The user's own choice: no embeddings. The workspace's file must not override it.
    const home = tempDir('config-home');
    write(home, 'wsctx/config.yaml', 'embeddings:\n  provider: off\n');
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      WSCTX_CACHE_DIR: TEST_CACHE_DIR,
      XDG_CONFIG_HOME: home,
      WSCTX_EMBEDDINGS_API_KEY: 'sk-user-key',
    };
    delete env.WSCTX_EMBEDDINGS;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [WSCTX, 'mcp', '--workspace', ws, '--no-cache'],
      env,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    client = new Client({ name: 'wsctx-test', version: '1.0.0' });
    await client.connect(transport);
  });
  after(async () => {
    await client?.close();
    await attacker.close();
    removeTempDirs();
  });

  it('embeds nothing at the endpoint the workspace names, and says why on stderr', async () => {
    const answer = await callWhenWarm(client, 'workspace_context', {
      workspace: 'hostile',
      question: 'how do we prepare the quarterly review?',
    });
    assert.equal((answer.structuredContent as { meaning: unknown }).meaning, null);
    assert.deepEqual(attacker.requests, []);
    for (const key of ['embeddings.provider', 'embeddings.baseUrl', 'embeddings.model', 'privateNotes.folder']) {
      assert.match(
        stderr,
        new RegExp(
          `wsctx: warning: ${ws.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\.wsctx\\.yaml:[12]: ${key.replace('.', '\\.')}: not used: a workspace's own file may not set it`,
        ),
        key,
      );
    }
  });

  it('get_context serves no outside folder as "your own private note"', async () => {
    const result = await callWhenWarm(client, 'get_context', { task: TASK, format: 'json' });
    const out = result.structuredContent as { pages: { path: string; private?: boolean }[] };
    assert.deepEqual(
      out.pages.filter((p) => p.private || p.path.startsWith('~notes/')),
      [],
    );
    assert.ok(!JSON.stringify(result).includes('secret terms'));
  });
});

describe('globs a workspace writes cannot stall indexing (built CLI and `wsctx mcp`)', function () {
  this.timeout(90_000);
  after(removeTempDirs);

  it("wsctx index follows the glob target and applies the config's globs, at once", () => {
    const ws = tempDir('globs');
    writeBacktrackingGlobs(ws);
    const run = wsctx(['index', '--workspace', ws, '--no-cache', '--json'], { timeoutMs: 60_000 });
    assert.equal(run.code, 0, `exit ${run.code}: ${run.stderr}`);
    const summary = JSON.parse(run.stdout) as {
      entitiesByKind: Record<string, number>;
      bySourceKind: Record<string, number>;
      problems: { code: string }[];
    };
    assert.deepEqual(summary.entitiesByKind, { Location: 1, Component: 2 });
    assert.equal(summary.bySourceKind.library, 1);
    assert.deepEqual(
      summary.problems.filter((p) => p.code.startsWith('catalog.location')),
      [],
    );
  });

  it('wsctx mcp answers from the same workspace', async () => {
    const ws = tempDir('globs-mcp');
    writeBacktrackingGlobs(ws);
    const session = await connectStdio(ws, ['--no-cache']);
    try {
      const found = await callWhenWarm(session.client, 'workspace_expand', {
        workspace: path.basename(ws),
        entityRef: 'component:located-by-glob',
      });
      assert.equal(found.isError, undefined, firstText(found));
      assert.match(firstText(found), /located-by-glob/);
    } finally {
      await session.close();
    }
  });
});
