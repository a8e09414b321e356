/**
 * The README's "Connect an agent" blocks, as a user would copy them: each is read out of
 * README.md, parsed the way its client reads it (a shell line for Claude Code, JSON for Cursor,
 * Claude Desktop, VS Code and Windsurf, YAML for Continue), and the server it names is started
 * against the example workspace and asked for its tools over the MCP SDK client.
 *
 * `wsctx` is what `npm i -g` puts on PATH: the package's bin, dist/wsctx.js, run here with this
 * Node. The one placeholder a user replaces (the workspace path) becomes the example workspace.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { spawn } from 'node:child_process';
import { parse as parseYaml } from 'yaml';
import { TEST_CACHE_DIR, WSCTX } from '../helpers/cli';
import { EXAMPLE_WORKSPACE } from '../helpers/tempWorkspace';

const README = fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
const PLACEHOLDERS = ['/absolute/path/to/your/workspace', '${workspaceFolder}'];
const TOOLS = [
  'workspace_context',
  'workspace_expand',
  'get_context',
  'read_page',
  'get_file',
  'get_toc',
  'get_section',
  'search_instructions',
  'explain_result',
];

interface Block {
  client: string;
  lang: string;
  text: string;
  /** Every fenced block under the heading, the first one too. */
  all: { lang: string; text: string }[];
}

/** The first fenced block under each `####` heading of "## Connect an agent". */
function clientBlocks(): Block[] {
  const start = README.indexOf('\n## Connect an agent\n');
  assert.ok(start >= 0, 'README has no "## Connect an agent" section');
  const section = README.slice(start + 1, README.indexOf('\n## ', start + 1));
  const blocks: Block[] = [];
  for (const part of section.split(/\n#### /).slice(1)) {
    const client = part.split('\n')[0].trim();
    const fences = [...part.matchAll(/```(\w+)\n([\s\S]*?)\n```/g)].map((f) => ({ lang: f[1], text: f[2] }));
    assert.ok(fences.length > 0, `no code block under "${client}"`);
    blocks.push({ client, lang: fences[0].lang, text: fences[0].text, all: fences });
  }
  return blocks;
}

/** The command and arguments a client would spawn from the block. */
function serverCommand(block: Block): { command: string; args: string[] } {
  if (block.lang === 'sh') {
    const words = block.text.trim().split(/\s+/);
    assert.deepEqual(words.slice(0, 4), ['claude', 'mcp', 'add', 'workspace-context']);
    assert.equal(words[4], '--', 'the server command follows --');
    return { command: words[5], args: words.slice(6) };
  }
  if (block.lang === 'json') {
    const config = JSON.parse(block.text) as {
      mcpServers?: Record<string, { command: string; args: string[] }>;
      servers?: Record<string, { type?: string; command: string; args: string[] }>;
    };
    const servers = config.mcpServers ?? config.servers;
    assert.ok(servers, 'no mcpServers or servers key');
    const server = servers['workspace-context'];
    if (config.servers) assert.equal(config.servers['workspace-context'].type, 'stdio');
    return server;
  }
  assert.equal(block.lang, 'yaml');
  const config = parseYaml(block.text) as {
    schema: string;
    mcpServers: { name: string; command: string; args: string[] }[];
  };
  assert.equal(config.schema, 'v1');
  assert.equal(config.mcpServers[0].name, 'workspace-context');
  return config.mcpServers[0];
}

describe('README: the copy-paste block for each agent starts a working server', () => {
  const all = clientBlocks();
  const http = all.find((b) => b.client.startsWith('Over HTTP'));
  const blocks = all.filter((b) => b !== http);

  it('has one block per client', () => {
    assert.deepEqual(
      blocks.map((b) => `${b.client.split(' (')[0]} ${b.lang}`),
      [
        'Claude Code sh',
        'Cursor json',
        'Claude Desktop json',
        'VS Code without the extension json',
        'Windsurf json',
        'Continue yaml',
      ],
    );
    assert.ok(http, 'no "Over HTTP" block');
    assert.match(blocks[1].client, /`\.cursor\/mcp\.json`/);
    assert.match(blocks[2].client, /`claude_desktop_config\.json`/);
    assert.match(blocks[3].client, /`\.vscode\/mcp\.json`/);
  });

  for (const block of blocks) {
    it(`${block.client.split(' (')[0]}: starts wsctx mcp on the workspace and lists the tools`, async () => {
      const { command, args } = serverCommand(block);
      assert.equal(command, 'wsctx');
      assert.equal(args[0], 'mcp');
      const workspaceAt = args.indexOf('--workspace');
      assert.ok(
        workspaceAt > 0 && PLACEHOLDERS.includes(args[workspaceAt + 1]),
        `workspace argument: ${args[workspaceAt + 1]}`,
      );
      const realArgs = args.map((a) => (PLACEHOLDERS.includes(a) ? EXAMPLE_WORKSPACE : a));
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [WSCTX, ...realArgs],
        env: { ...(process.env as Record<string, string>), WSCTX_CACHE_DIR: TEST_CACHE_DIR, WSCTX_EMBEDDINGS: 'off' },
        stderr: 'pipe',
      });
      const client = new Client({ name: `readme-${block.lang}`, version: '1.0.0' });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        assert.deepEqual(
          tools.map((t) => t.name),
          TOOLS,
        );
      } finally {
        await client.close();
      }
    });
  }

  it("Over HTTP: wsctx serve with a token, and the clients' URL and header reach its tools", async function () {
    this.timeout(120_000);
    const [shell, vscode] = http!.all;
    assert.equal(shell.lang, 'sh');
    assert.equal(vscode.lang, 'json');
    const token = 'readme-http-token-0123456789abcdef0123';
    const lines = shell.text.split('\n').filter(Boolean);
    const serveLine = lines.find((l) => l.startsWith('wsctx serve '))!;
    const claudeLine = lines.find((l) => l.startsWith('claude mcp add '))!;
    assert.ok(serveLine && claudeLine, shell.text);
    // The line as the shell would split it, the token variable filled in and any free port.
    const args = [...serveLine.matchAll(/"[^"]*"|\S+/g)]
      .map((m) => m[0].replace(/^"|"$/g, ''))
      .slice(1)
      .map((a) => (a === '$WSCTX_TOKEN' ? token : PLACEHOLDERS.includes(a) ? EXAMPLE_WORKSPACE : a));
    const port = args.indexOf('--port');
    assert.equal(args[port + 1], '8931');
    args[port + 1] = '0';
    const server = spawn(process.execPath, [WSCTX, ...args], {
      env: { ...process.env, WSCTX_CACHE_DIR: TEST_CACHE_DIR, WSCTX_EMBEDDINGS: 'off' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      let stderr = '';
      const url = await new Promise<string>((resolve, reject) => {
        server.stderr.on('data', (d: Buffer) => {
          stderr += d;
          const found = /url: +(\S+)/.exec(stderr);
          if (found) resolve(found[1]);
        });
        server.on('exit', (code) => reject(new Error(`wsctx serve exited ${code}: ${stderr}`)));
      });
      assert.match(stderr, new RegExp(`token: ${token}`));
      // Claude Code's line: the transport, the URL on 8931 and the bearer header.
      const claude = /--transport http workspace-context (\S+) --header "Authorization: Bearer \$WSCTX_TOKEN"$/.exec(
        claudeLine,
      );
      assert.ok(claude, claudeLine);
      const config = JSON.parse(vscode.text) as {
        inputs: { id: string; password: boolean }[];
        servers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
      };
      const entry = config.servers['workspace-context'];
      assert.equal(entry.type, 'http');
      assert.equal(entry.url, claude[1]);
      assert.equal(entry.headers.Authorization, `Bearer \${input:${config.inputs[0].id}}`);
      assert.equal(config.inputs[0].password, true);
      // Both name the server's path on the documented port; here it runs on the port it was given.
      const served = new URL(url);
      const named = new URL(entry.url);
      assert.equal(named.pathname, served.pathname);
      assert.equal(named.hostname, served.hostname);
      const client = new Client({ name: 'readme-http', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(served, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
      );
      try {
        assert.deepEqual(
          (await client.listTools()).tools.map((t) => t.name),
          TOOLS,
        );
      } finally {
        await client.close();
      }
    } finally {
      server.kill('SIGTERM');
    }
  });
});
