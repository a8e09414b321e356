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
import { parse as parseYaml } from 'yaml';
import { TEST_CACHE_DIR, WSCTX } from '../helpers/cli';
import { EXAMPLE_WORKSPACE } from '../helpers/tempWorkspace';

const README = fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
const PLACEHOLDERS = ['/absolute/path/to/your/workspace', '${workspaceFolder}'];
const TOOLS = ['workspace_context', 'workspace_expand', 'get_context', 'read_page', 'get_file', 'get_toc', 'get_section', 'search_instructions'];

interface Block {
  client: string;
  lang: string;
  text: string;
}

/** The first fenced block under each `####` heading of "## Connect an agent". */
function clientBlocks(): Block[] {
  const start = README.indexOf('\n## Connect an agent\n');
  assert.ok(start >= 0, 'README has no "## Connect an agent" section');
  const section = README.slice(start + 1, README.indexOf('\n## ', start + 1));
  const blocks: Block[] = [];
  for (const part of section.split(/\n#### /).slice(1)) {
    const client = part.split('\n')[0].trim();
    const fence = /```(\w+)\n([\s\S]*?)\n```/.exec(part);
    assert.ok(fence, `no code block under "${client}"`);
    blocks.push({ client, lang: fence[1], text: fence[2] });
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
    const config = JSON.parse(block.text) as { mcpServers?: Record<string, { command: string; args: string[] }>; servers?: Record<string, { type?: string; command: string; args: string[] }> };
    const servers = config.mcpServers ?? config.servers;
    assert.ok(servers, 'no mcpServers or servers key');
    const server = servers['workspace-context'];
    if (config.servers) assert.equal(config.servers['workspace-context'].type, 'stdio');
    return server;
  }
  assert.equal(block.lang, 'yaml');
  const config = parseYaml(block.text) as { schema: string; mcpServers: { name: string; command: string; args: string[] }[] };
  assert.equal(config.schema, 'v1');
  assert.equal(config.mcpServers[0].name, 'workspace-context');
  return config.mcpServers[0];
}

describe('README: the copy-paste block for each agent starts a working server', () => {
  const blocks = clientBlocks();

  it('has one block per client', () => {
    assert.deepEqual(
      blocks.map((b) => `${b.client.split(' (')[0]} ${b.lang}`),
      ['Claude Code sh', 'Cursor json', 'Claude Desktop json', 'VS Code without the extension json', 'Windsurf json', 'Continue yaml'],
    );
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
      assert.ok(workspaceAt > 0 && PLACEHOLDERS.includes(args[workspaceAt + 1]), `workspace argument: ${args[workspaceAt + 1]}`);
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
        assert.deepEqual(tools.map((t) => t.name), TOOLS);
      } finally {
        await client.close();
      }
    });
  }
});
