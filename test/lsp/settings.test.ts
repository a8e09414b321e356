/**
 * shared/settings.ts: the settings both sides compile against. Its defaults must be the engine's
 * own, its normaliser must accept what VS Code's configuration API returns and refuse the rest with
 * a message naming the setting, and the manifest block it derives must list every key.
 */
import assert from 'node:assert/strict';
import {
  DEFAULT_SETTINGS,
  flattenSettings,
  manifestConfiguration,
  normalizeSettings,
  SETTING_KEYS,
} from '../../shared/settings';
import { DEFAULT_EMBEDDING_SETTINGS } from '../../server/src/engine/embeddings/embedder';
import { DEFAULT_SOURCE_GLOBS } from '../../server/src/engine/workspace/globs';
import { engineSettingsFrom, needsNewEngine } from '../../server/src/lsp/settingsReader';

describe('shared settings', () => {
  it('repeats the engine defaults: every source glob role and the embedding choices', () => {
    assert.deepEqual(DEFAULT_SETTINGS.sources, DEFAULT_SOURCE_GLOBS);
    const { provider, localModel, baseUrl, model } = DEFAULT_EMBEDDING_SETTINGS;
    assert.deepEqual(DEFAULT_SETTINGS.embeddings, { provider, localModel, baseUrl, model });
  });

  it('reads nothing as the defaults', () => {
    for (const raw of [undefined, null, {}, 'nonsense']) {
      const { settings, problems } = normalizeSettings(raw);
      assert.deepEqual(settings, DEFAULT_SETTINGS);
      assert.deepEqual(problems, []);
    }
  });

  it('reads nested objects, dotted keys and prefixed keys alike', () => {
    const nested = normalizeSettings({
      mcp: { http: { enabled: false } },
      sources: { catalog: ['catalog/**/*.yaml'] },
      budgets: { contextPassages: 5 },
    }).settings;
    const dotted = normalizeSettings({
      'mcp.http.enabled': false,
      'sources.catalog': ['catalog/**/*.yaml'],
      'budgets.contextPassages': 5,
    }).settings;
    const prefixed = normalizeSettings({
      workspaceContext: {
        mcp: { http: { enabled: false } },
        sources: { catalog: ['catalog/**/*.yaml'] },
        budgets: { contextPassages: 5 },
      },
    }).settings;
    assert.equal(nested.mcp.http.enabled, false);
    assert.deepEqual(nested.sources.catalog, ['catalog/**/*.yaml']);
    assert.deepEqual(nested.sources.epics, DEFAULT_SOURCE_GLOBS.epics);
    assert.equal(nested.budgets.contextPassages, 5);
    assert.deepEqual(dotted, nested);
    assert.deepEqual(prefixed, nested);
  });

  it('keeps the default for a wrong value and says which setting and what it should be', () => {
    const { settings, problems } = normalizeSettings({
      embeddings: { provider: 'cloud' },
      budgets: { getContextMaxTokens: 50_000, expandEdges: 2.5 },
      mcp: { http: { enabled: 'yes' } },
      sources: { library: '.context/**' },
    });
    assert.deepEqual(settings, DEFAULT_SETTINGS);
    assert.deepEqual(problems, [
      'workspaceContext.sources.library: expected a list of glob strings; using the default.',
      'workspaceContext.embeddings.provider: expected one of local, openai, off (got "cloud"); using the default.',
      'workspaceContext.budgets.getContextMaxTokens: expected a whole number from 1000 to 30000 (got 50000); using the default.',
      'workspaceContext.budgets.expandEdges: expected a whole number from 1 to 100 (got 2.5); using the default.',
      'workspaceContext.mcp.http.enabled: expected true or false (got "yes"); using the default.',
    ]);
  });

  it('derives the manifest block with every key, its default and its type', () => {
    const { properties } = manifestConfiguration();
    assert.deepEqual(
      Object.keys(properties),
      SETTING_KEYS.map((k) => `workspaceContext.${k}`),
    );
    assert.deepEqual(Object.keys(flattenSettings(DEFAULT_SETTINGS)), [...SETTING_KEYS]);
    assert.deepEqual(properties['workspaceContext.mcp.http.enabled'], {
      default: true,
      description: 'Serve the MCP tools over HTTP on 127.0.0.1 for Copilot and agent chat.',
      type: 'boolean',
      scope: 'window',
    });
    assert.deepEqual(properties['workspaceContext.budgets.contextPassages'].default, 10);
    assert.deepEqual(properties['workspaceContext.sources.catalog'], {
      default: ['**/catalog-info.{yaml,yml}'],
      description: 'Backstage catalog files, matched against the path relative to each repository root.',
      type: 'array',
      items: { type: 'string' },
      scope: 'window',
    });
    assert.deepEqual(properties['workspaceContext.organization'].default, '');
    assert.deepEqual(properties['workspaceContext.privateNotes.folder'].type, 'string');
    assert.deepEqual(properties['workspaceContext.vectorIndex'].enum, ['hnsw', 'hnswlib', 'exact']);
    assert.equal(properties['workspaceContext.vectorIndex'].default, 'hnsw');
    assert.equal(SETTING_KEYS.length, 30);
  });

  it('maps sources onto engine globs and asks for a new engine only when they change', () => {
    const changed = normalizeSettings({ sources: { ignore: ['**/fixtures/**'] } }).settings;
    assert.deepEqual(engineSettingsFrom(changed).globs?.ignore, ['**/fixtures/**']);
    assert.equal(needsNewEngine(DEFAULT_SETTINGS, changed), true);
    assert.equal(
      needsNewEngine(DEFAULT_SETTINGS, normalizeSettings({ mcp: { http: { enabled: false } } }).settings),
      false,
    );
    // Another vector index is another engine (its index is built anew).
    assert.equal(needsNewEngine(DEFAULT_SETTINGS, normalizeSettings({ vectorIndex: 'hnswlib' }).settings), true);
  });
});
