/**
 * `wsctx serve --config FILE` without a store: the file's tokens are the server's, and a token
 * limited to some folders is served by an engine of those folders only, as with `--store`. The
 * built CLI over two folders, real MCP clients over HTTP.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TEST_CACHE_DIR, WSCTX, wsctx } from '../helpers/cli';
import { callWhenWarm, connectHttp } from '../helpers/mcpClients';
import { copyExampleWorkspace, removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

describe('wsctx serve --config (in memory)', function () {
  this.timeout(120_000);
  const everyone = 'e'.repeat(40);
  const fernhillOnly = 'f'.repeat(40);
  let server: ChildProcess;
  let stderr = '';
  let endpoint: string;
  let fernhill: string;
  let vault: string;

  before(async () => {
    const fernhillDir = copyExampleWorkspace();
    fernhill = path.basename(fernhillDir);
    const vaultDir = tempDir('vault');
    vault = path.basename(vaultDir);
    write(
      vaultDir,
      'catalog-info.yaml',
      'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: secret-vault\n  description: Holds the rotation keys for billing-worker\nspec:\n  type: service\n  lifecycle: production\n  owner: team-vault\n',
    );
    write(
      vaultDir,
      '.context/guides/vault-rotation.md',
      '---\ntitle: Rotating the vault keys\n---\n\n# Rotating the vault keys\n\nRotate the quokka keys of the secret vault every 30 days.\n',
    );
    const config = path.join(tempDir('serve'), 'server.yaml');
    fs.writeFileSync(
      config,
      `tokens:\n  - name: everyone\n    token: ${everyone}\n  - name: fernhill-readers\n    tokenEnv: WSCTX_TEST_FERNHILL_TOKEN\n    folders: [${fernhill}]\n`,
    );
    server = spawn(
      process.execPath,
      [WSCTX, 'serve', '--workspace', fernhillDir, '--workspace', vaultDir, '--config', config, '--port', '0'],
      {
        env: {
          ...process.env,
          WSCTX_CACHE_DIR: TEST_CACHE_DIR,
          WSCTX_EMBEDDINGS: 'off',
          WSCTX_TEST_FERNHILL_TOKEN: fernhillOnly,
        },
      },
    );
    endpoint = await new Promise<string>((resolve, reject) => {
      server.stderr!.on('data', (d) => {
        stderr += d;
        const m = /url:\s+(\S+)\n\s+tokens from/.exec(stderr);
        if (m) resolve(m[1]);
        if (/\n {2}token: /.test(stderr))
          reject(new Error(`serve printed a token of its own: the config file was not used\n${stderr}`));
      });
      server.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
  });
  after(async () => {
    if (server?.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    removeTempDirs();
  });

  it("serves the file's tokens, and no generated one", async () => {
    assert.match(stderr, /tokens from .*server\.yaml: everyone, fernhill-readers\n/);
    assert.doesNotMatch(stderr, /\n {2}token: /);
    const refused = await fetch(endpoint, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${'x'.repeat(40)}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{}',
    });
    assert.equal(refused.status, 401);
    const open = await connectHttp(endpoint, everyone);
    try {
      const answer = await callWhenWarm(open, 'workspace_context', {
        workspace: vault,
        question: 'how often are the vault keys rotated?',
      });
      assert.ok(!answer.isError, JSON.stringify(answer.content));
      assert.ok(
        (answer.structuredContent as { passages: unknown[] }).passages.length > 0,
        'the open token reads the vault folder',
      );
      // ... and its library page, which the limited token below must not see.
      const context = await open.callTool({
        name: 'get_context',
        arguments: { task: 'rotate the quokka keys of the secret vault' },
      });
      assert.match(JSON.stringify(context), /Rotating the vault keys/);
    } finally {
      await open.close();
    }
  });

  it('gives a token limited to some folders nothing from outside them, library tools included', async () => {
    const limited = await connectHttp(endpoint, fernhillOnly);
    try {
      const own = await callWhenWarm(limited, 'workspace_context', {
        workspace: fernhill,
        question: 'roll back billing-worker',
      });
      assert.ok((own.structuredContent as { passages: unknown[] }).passages.length > 0);
      for (const call of [
        {
          name: 'workspace_context',
          arguments: { workspace: vault, question: 'how often are the vault keys rotated?' },
        },
        { name: 'workspace_expand', arguments: { workspace: vault, entityRef: 'component:secret-vault' } },
      ]) {
        const refused = await limited.callTool(call);
        assert.equal(refused.isError, true, call.name);
        const text = JSON.stringify(refused.content);
        assert.match(text, new RegExp(`does not serve a workspace named '${vault}'; it serves '${fernhill}'`));
        assert.doesNotMatch(text, /secret|quokka/i);
      }
      for (const call of [
        { name: 'get_context', arguments: { task: 'rotate the quokka keys of the secret vault' } },
        { name: 'search_instructions', arguments: { plan: 'rotate the quokka keys of the secret vault' } },
        { name: 'get_toc', arguments: { query: 'vault rotation' } },
      ]) {
        const answer = await limited.callTool(call);
        assert.ok(!answer.isError, call.name);
        // The page's title, words and path; the call's own words (quokka, vault) are echoed back.
        assert.doesNotMatch(JSON.stringify(answer), /Rotating the vault keys|every 30 days|vault-rotation/i, call.name);
      }
    } finally {
      await limited.close();
    }
  });

  it('the REST API answers each token with its own folders, as MCP does', async () => {
    const base = endpoint.replace(/\/mcp$/, '');
    const rest = async (token: string, path: string) => {
      const response = await fetch(`${base}${path}`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      });
      return { status: response.status, body: await response.text() };
    };
    const task = `/context?task=${encodeURIComponent('rotate the quokka keys of the secret vault')}`;
    const open = await rest(everyone, task);
    assert.equal(open.status, 200, open.body);
    assert.match(open.body, /Rotating the vault keys/);
    const limited = await rest(fernhillOnly, task);
    assert.equal(limited.status, 200, limited.body);
    assert.doesNotMatch(limited.body, /Rotating the vault keys|every 30 days|vault-rotation/i);
    const question = `/workspace_context?workspace=${vault}&question=${encodeURIComponent('how often are the vault keys rotated?')}`;
    assert.equal((await rest(everyone, question)).status, 200);
    const refused = await rest(fernhillOnly, question);
    assert.equal(refused.status, 400);
    assert.match(refused.body, new RegExp(`does not serve a workspace named '${vault}'; it serves '${fernhill}'`));
    assert.doesNotMatch(refused.body, /secret|quokka/i);
  });

  it('refuses a token limited to a folder the server does not serve, naming the file and line', () => {
    const config = path.join(tempDir('bad'), 'server.yaml');
    fs.writeFileSync(
      config,
      `tokens:\n  - name: everyone\n    token: ${everyone}\n  - name: strays\n    token: ${fernhillOnly}\n    folders: [elsewhere]\n`,
    );
    const ws = tempDir('one');
    const run = wsctx(['serve', '--workspace', ws, '--config', config, '--port', '0']);
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr,
      `wsctx: ${config}:4: tokens: strays may read elsewhere, none of which this server serves (it serves ${path.basename(ws)})\n`,
    );
    const both = wsctx(['serve', '--workspace', ws, '--config', config, '--token', everyone]);
    assert.equal(both.code, 1);
    assert.match(
      both.stderr,
      /^wsctx: --token and --config: the config file lists the tokens; give one or the other\n/,
    );
  });
});
