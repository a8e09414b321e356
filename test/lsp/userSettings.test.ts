/**
 * The editor's settings for the user's own parts of get_context, through the built language
 * server: `privateNotes.folder` (searched for the editor's connections, refused inside the
 * workspace) and `organization`, both applied when the settings change, without a restart.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { DidChangeConfigurationNotification } from 'vscode-languageserver-protocol/node';
import { CallToolRequest } from '../../shared/protocol';
import { startOnExample, type LspClient } from '../helpers/lspClient';
import { removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

const TASK = 'prepare the quarterly review of the Ostrava acquirer contract';

describe('LSP: private notes and organisation settings (built server, JSON-RPC)', () => {
  let lsp: LspClient;
  let notes: string;
  before(async () => {
    notes = tempDir('my-notes');
    write(notes, 'ostrava.md', '---\ntitle: Ostrava acquirer contract\n---\n\n# Ostrava acquirer contract\n\n## Quarterly review\n\nFor the quarterly review of the Ostrava acquirer contract, bring the chargeback ratio and the renewal date.\n');
    lsp = await startOnExample({ settings: { privateNotes: { folder: notes }, organization: 'Fernhill' } });
  });
  after(async () => {
    await lsp.stop();
    removeTempDirs();
  });

  const getContext = async () => (await lsp.connection.sendRequest(CallToolRequest.type, { name: 'get_context', arguments: { task: TASK, format: 'json' } })).output as { organization: string; pages: { path: string; private: boolean }[] };

  it('searches the notes folder for the editor and names the organisation', async () => {
    const out = await getContext();
    assert.equal(out.organization, 'Fernhill');
    assert.deepEqual(out.pages.filter((p) => p.private).map((p) => p.path), ['~notes/ostrava.md']);
  });

  it('follows changed settings without a restart, and refuses a notes folder inside the workspace with a log line', async () => {
    const endpoints = lsp.endpoints.length;
    lsp.settings = { privateNotes: { folder: path.join(lsp.workspace, '.context') }, organization: 'Fernhill Payments' };
    await lsp.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    // New services, and the MCP endpoint restarted to serve them.
    await lsp.waitFor('the endpoint restarted', () => lsp.endpoints.slice(endpoints).find((e) => e.state === 'running'));
    assert.equal((await getContext()).organization, 'Fernhill Payments');
    assert.deepEqual((await getContext()).pages.filter((p) => p.private), []);
    assert.ok(
      lsp.logs.includes(`[settings] workspaceContext.privateNotes.folder: ${path.join(lsp.workspace, '.context')} is inside the served folder ${lsp.workspace}; private notes must live outside the workspace (everything in it is indexed for everyone who reads it); private notes are off`),
      lsp.logs.filter((l) => l.startsWith('[settings]')).join('\n'),
    );
  });
});
