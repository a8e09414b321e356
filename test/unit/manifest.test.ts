/**
 * package.json's `contributes` held to the sources that declare the same things: settings
 * (shared/settings.ts `manifestConfiguration()`), commands, the chat participant and the MCP
 * provider (client/src/contributions.ts), plus the files the manifest names (icon, grammar) and
 * what .vscodeignore ships. Fails the moment one side changes without the other.
 */
import picomatch from 'picomatch';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  CHAT_PARTICIPANT,
  COMMAND_CATEGORY,
  COMMANDS,
  MCP_PROVIDER,
  MCP_PROXY_BUNDLE,
  SCM_TITLE_MENU,
  RESULTS_VIEW_TYPE,
} from '../../client/src/contributions';
import { manifestConfiguration, SETTING_KEYS } from '../../shared/settings';

const ROOT = path.resolve(__dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const contributes = manifest.contributes;

/** Differences between two `contributes.configuration` blocks, one line per key. */
export function configurationDiff(
  actual: { title?: string; properties?: Record<string, unknown> },
  expected: ReturnType<typeof manifestConfiguration>,
): string[] {
  const diff: string[] = [];
  if (actual.title !== expected.title)
    diff.push(`title: ${JSON.stringify(actual.title)} != ${JSON.stringify(expected.title)}`);
  const keys = new Set([...Object.keys(actual.properties ?? {}), ...Object.keys(expected.properties)]);
  for (const key of keys) {
    const a = JSON.stringify(actual.properties?.[key]);
    const e = JSON.stringify(expected.properties[key]);
    if (!isDeepStrictEqual(actual.properties?.[key], expected.properties[key]))
      diff.push(`${key}: package.json ${a ?? 'missing'} != shared/settings.ts ${e ?? 'missing'}`);
  }
  return diff;
}

/** PNG width and height from its IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  assert.equal(bytes.subarray(1, 4).toString('ascii'), 'PNG', `${file} is not a PNG`);
  assert.equal(bytes.subarray(12, 16).toString('ascii'), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('package.json contributes (manifest)', () => {
  it('declares every setting exactly as shared/settings.ts does', () => {
    assert.deepEqual(configurationDiff(contributes.configuration, manifestConfiguration()), []);
    assert.deepEqual(
      Object.keys(contributes.configuration.properties),
      SETTING_KEYS.map((k) => `workspaceContext.${k}`),
    );
  });

  it('notices a setting that drifted (the check can fail)', () => {
    const drifted = JSON.parse(JSON.stringify(contributes.configuration));
    drifted.properties['workspaceContext.budgets.contextPassages'].default = 12;
    delete drifted.properties['workspaceContext.mcp.http.enabled'];
    drifted.properties['workspaceContext.extra'] = { type: 'string' };
    assert.deepEqual(configurationDiff(drifted, manifestConfiguration()), [
      'workspaceContext.budgets.contextPassages: package.json {"default":12,"description":"Passages the editor search asks for.","type":"integer","minimum":1,"maximum":50,"scope":"window"} != shared/settings.ts {"default":10,"description":"Passages the editor search asks for.","type":"integer","minimum":1,"maximum":50,"scope":"window"}',
      'workspaceContext.extra: package.json {"type":"string"} != shared/settings.ts missing',
      'workspaceContext.mcp.http.enabled: package.json missing != shared/settings.ts {"default":true,"description":"Serve the MCP tools over HTTP on 127.0.0.1 for Copilot and agent chat.","type":"boolean","scope":"window"}',
    ]);
  });

  it('contributes every command the client registers, under one category, hiding those that need arguments', () => {
    assert.deepEqual(
      contributes.commands,
      COMMANDS.map((c) => ({
        command: c.command,
        title: c.title,
        category: COMMAND_CATEGORY,
        ...(c.icon ? { icon: c.icon } : {}),
      })),
    );
    assert.deepEqual(
      contributes.menus.commandPalette,
      COMMANDS.filter((c) => !c.palette).map((c) => ({ command: c.command, when: 'false' })),
    );
    // "Why not this page?" is a button (its icon, in the navigation group) on the results view's title bar.
    assert.deepEqual(contributes.menus['editor/title'], [
      {
        command: 'workspaceContext.whyNot',
        when: `activeWebviewPanelId == '${RESULTS_VIEW_TYPE}'`,
        group: 'navigation',
      },
    ]);
    assert.equal(COMMANDS.find((c) => c.command === 'workspaceContext.whyNot')?.icon, '$(question)');
    assert.deepEqual(
      COMMANDS.filter((c) => c.palette).map((c) => c.title),
      [
        'Search workspace context',
        'Open search results',
        'Why not this page?',
        'Expand entity',
        'Show table of contents',
        'Re-index',
        'Show diagnostics',
        'Show index status',
        'Restart MCP endpoint',
        'Show output',
        'Context for my change',
      ],
    );
    // "Context for my change" sits on the Source Control view's title bar, for git repositories.
    assert.deepEqual(contributes.menus['scm/title'], [SCM_TITLE_MENU]);
  });

  it('contributes the @context chat participant with /expand, /toc, /why and /change', () => {
    assert.equal(contributes.chatParticipants.length, 1);
    const [participant] = contributes.chatParticipants;
    assert.equal(participant.id, CHAT_PARTICIPANT.id);
    assert.equal(participant.name, CHAT_PARTICIPANT.name);
    assert.equal(participant.fullName, CHAT_PARTICIPANT.fullName);
    assert.deepEqual(
      participant.commands.map((c: { name: string }) => c.name),
      [...CHAT_PARTICIPANT.commands],
    );
  });

  it('contributes the MCP server definition provider the client registers', () => {
    assert.deepEqual(contributes.mcpServerDefinitionProviders, [{ id: MCP_PROVIDER.id, label: MCP_PROVIDER.label }]);
  });

  it('injects the entity-ref grammar into YAML and Markdown from a file that exists', () => {
    assert.equal(contributes.grammars.length, 1);
    const [grammar] = contributes.grammars;
    assert.deepEqual(grammar.injectTo, ['source.yaml', 'text.html.markdown']);
    const file = JSON.parse(readFileSync(path.join(ROOT, grammar.path), 'utf8'));
    assert.equal(file.scopeName, grammar.scopeName);
    assert.match(file.injectionSelector, /^L:source\.yaml -comment, L:text\.html\.markdown /);
    for (const pattern of file.patterns as { include: string }[])
      assert.ok(file.repository[pattern.include.slice(1)], `${pattern.include} is defined`);
  });

  it('runs limited in untrusted workspaces, restricting settings that exist', () => {
    const untrusted = manifest.capabilities.untrustedWorkspaces;
    assert.equal(untrusted.supported, 'limited');
    for (const key of untrusted.restrictedConfigurations)
      assert.ok(contributes.configuration.properties[key], `${key} is a contributed setting`);
    assert.deepEqual(untrusted.restrictedConfigurations, [
      'workspaceContext.embeddings.provider',
      'workspaceContext.embeddings.baseUrl',
      'workspaceContext.embeddings.model',
      'workspaceContext.privateNotes.folder',
    ]);
  });

  it('activates on catalog files, the library, instruction files, overviews and documentation', () => {
    assert.deepEqual(manifest.activationEvents, [
      'workspaceContains:**/catalog-info.yaml',
      'workspaceContains:**/catalog-info.yml',
      'workspaceContains:.context/**',
      'workspaceContains:**/AGENTS.md',
      'workspaceContains:.github/copilot-instructions.md',
      'workspaceContains:.github/instructions/*.instructions.md',
      'workspaceContains:**/overview.md',
      'workspaceContains:**/mkdocs.yml',
      'workspaceContains:**/mkdocs.yaml',
      'workspaceContains:docs/**/*.md',
      'workspaceContains:README.md',
    ]);
  });

  it('names a 128x128 PNG icon, and .vscodeignore ships its images, the grammar and every bundle the extension runs', () => {
    assert.equal(manifest.icon, 'media/icon.png');
    assert.deepEqual(pngSize(path.join(ROOT, manifest.icon)), { width: 128, height: 128 });
    const ignore = readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    for (const line of ['**', '!media/*.png', '!media/*.svg', '!syntaxes/**'])
      assert.ok(ignore.includes(line), `.vscodeignore has "${line}"`);
    const shipped = (file: string) => ignore.filter((l) => l.startsWith('!')).some((l) => picomatch(l.slice(1))(file));
    // The extension, the language server it starts, the workers they load, the stdio proxy it registers.
    for (const bundle of [
      manifest.main.replace(/^\.\//, ''),
      'dist/server.js',
      'dist/embedWorker.js',
      'dist/readWorker.js',
      'dist/termWorker.js',
      MCP_PROXY_BUNDLE,
    ])
      assert.ok(shipped(bundle), `.vscodeignore ships ${bundle}`);
    // The command line's bundles come with the npm package, not the VSIX.
    for (const bundle of ['dist/wsctx.js', 'dist/mcp.js'])
      assert.ok(!shipped(bundle), `.vscodeignore leaves out ${bundle}`);
  });
});
